package data

import (
	"strings"
	"sync"
	"unicode"

	"github.com/mtibben/confusables"
	"golang.org/x/text/unicode/norm"

	"github.com/gpuplan/gpuplan/model"
)

// LookKey is what two names that read as one share: the confusables
// skeleton (UTS #39 §4) of the name with its accents dropped (NFD, then
// no combining marks) and '-' read as '_', folded to lower case. So
// "GPU_1X_H100_PCIE", "gpu-1x-h100-pcie" and "us-éast-1" read as
// Lambda's gpu_1x_h100_pcie and us-east-1 (a re-attack ranked a case-only
// copy of a real type first at 59% off). An ASCII name takes a table of
// each character's key (the skeleton maps character by character, and
// NFD leaves ASCII alone): a 100,000-row overlay's names cost no
// skeleton each.
func LookKey(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		t := asciiKeys()
		var b strings.Builder
		b.Grow(len(s))
		for i := 0; i < len(s); i++ {
			b.WriteString(t[s[i]])
		}
		return b.String()
	}
	return lookKeySlow(s)
}

// lookKeySlow is LookKey by its definition.
func lookKeySlow(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		if r == '-' {
			r = '_'
		}
		b.WriteRune(unicode.ToLower(r))
	}
	// Folded before the skeleton (which maps m to rn but leaves M) and
	// after it (it maps 0 to O).
	return strings.ToLower(confusables.Skeleton(b.String()))
}

// asciiKeys is lookKeySlow of each ASCII character.
var asciiKeys = sync.OnceValue(func() (t [128]string) {
	for c := range t {
		t[c] = lookKeySlow(string(rune(c)))
	}
	return t
})

// baseNames are the embedded catalog's instance types and regions per
// provider by LookKey, built once.
type baseNames struct {
	types, regions map[string]map[string]string // provider → key → name
}

var embeddedNames = sync.OnceValue(func() *baseNames {
	n := &baseNames{types: map[string]map[string]string{}, regions: map[string]map[string]string{}}
	add := func(m map[string]map[string]string, provider, name string) {
		if m[provider] == nil {
			m[provider] = map[string]string{}
		}
		if _, ok := m[provider][LookKey(name)]; !ok {
			m[provider][LookKey(name)] = name
		}
	}
	base := sharedCatalog()
	for i := range base.Instances {
		in := &base.Instances[i]
		add(n.types, in.Provider, in.Type)
		for _, p := range in.Prices {
			add(n.regions, in.Provider, p.Region)
		}
	}
	return n
})

// lookalikeGuards flags an instance type or region of insts that reads as
// another name the embedded catalog has for the same provider (LookKey)
// without being it: rule "look-alike" (catalog update refuses such names;
// an overlay's are held, as a price rule's). Exact names of the catalog
// are not keyed, so a patch of a real type costs a map look-up.
func lookalikeGuards(insts []model.Instance) []Guard {
	names := embeddedNames()
	var out []Guard
	var provider string
	var types, regions map[string]string
	exact := map[string]bool{} // regions seen, per provider run
	for i := range insts {
		in := &insts[i]
		if in.Provider != provider || types == nil {
			provider, types, regions = in.Provider, names.types[in.Provider], names.regions[in.Provider]
			clear(exact)
		}
		if other, ok := types[LookKey(in.Type)]; ok && other != in.Type {
			out = append(out, Guard{Provider: in.Provider, Type: in.Type, Rule: "look-alike", Origin: in.Origin,
				Msg: model.Msg("instance type %q reads as the catalog's %q but is another name: a copy of it? Spell the name as the provider does", in.Type, other)})
		}
		for _, p := range in.Prices {
			if exact[p.Region] {
				continue
			}
			if other, ok := regions[LookKey(p.Region)]; ok && other != p.Region {
				out = append(out, Guard{Provider: in.Provider, Type: in.Type, Region: p.Region, Rule: "look-alike", Origin: in.Origin,
					Msg: model.Msg("region %q reads as the catalog's %q but is another name: a copy of it? Spell the name as the provider does", p.Region, other)})
				continue
			}
			exact[p.Region] = true
		}
	}
	return out
}
