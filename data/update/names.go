package update

import (
	"slices"
	"strings"
	"unicode"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
)

// Characters a mirror's names may hold, measured on the embedded catalog
// (every instance type, region and provider name of the providers update
// fetches, 2026-12-02): types use ASCII letters, digits and + - . _ (":"
// appears in other providers' types); regions ASCII letters, digits,
// space, comma and hyphen, and two Latin letters (Vast's "Bács-Kiskun,
// HU, EU", "Hafnarfjarðarkaupstaður, IS, EU"); providers a-z only.
// Anything else — a Latin small script g (U+0261), a full-width digit, a
// combining accent, a quote, $, ;, #, a backtick — is refused at update
// time, before anything is written: a name that reads as another is a
// cheap fake of it, and names end up in launch scripts.
const (
	typePunct   = "+-._:"
	regionPunct = " ,-_."
)

// checkNames refuses an instance type, region or provider name of insts
// outside those sets, and a name new to the catalog whose confusables
// skeleton (UTS #39) is another's of the same provider (the embedded
// catalog's, or another the same fetch lists): "gpu_8x_h1OO_sxm5" beside
// gpu_8x_h100_sxm5.
func checkNames(base *model.Catalog, provider string, insts []model.Instance) error {
	types, regions := lookalikes{}, lookalikes{}
	for i := range base.Instances {
		if in := &base.Instances[i]; in.Provider == provider {
			types.known(in.Type)
			for _, p := range in.Prices {
				regions.known(p.Region)
			}
		}
	}
	for i := range insts {
		in := &insts[i]
		if j, r := badRune(in.Provider, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' }); j >= 0 {
			return model.Msg("provider %q: character %q (U+%04X) at byte %d is not one the catalog's providers use (a-z, 0-9)", in.Provider, r, r, j)
		}
		if j, r := badRune(in.Type, func(r rune) bool { return asciiAlnum(r) || strings.ContainsRune(typePunct, r) }); j >= 0 {
			return model.Msg("instance type %q: character %q (U+%04X) at byte %d is not one the catalog's types use (ASCII letters, digits and + - . _ :); the source must spell the name as the provider does", in.Type, r, r, j)
		}
		if other := types.check(in.Type); other != "" {
			return model.Msg("instance type %q reads as %q but is another name; the source must spell the name as the provider does", in.Type, other)
		}
		for _, p := range in.Prices {
			if j, r := badRune(p.Region, func(r rune) bool {
				return asciiAlnum(r) || strings.ContainsRune(regionPunct, r) || r > 0x7f && unicode.IsLetter(r)
			}); j >= 0 {
				return model.Msg("%s: region %q: character %q (U+%04X) at byte %d is not one the catalog's regions use (letters, digits, space, comma, hyphen, _ and .)", in.Type, p.Region, r, r, j)
			}
			if strings.TrimSpace(p.Region) != p.Region || strings.Contains(p.Region, "  ") {
				return model.Msg("%s: region %q has a space at an end or two together; a region reads as one name", in.Type, p.Region)
			}
			if other := regions.check(p.Region); other != "" {
				return model.Msg("%s: region %q reads as %q but is another name; the source must spell the name as the provider does", in.Type, p.Region, other)
			}
		}
	}
	return nil
}

func asciiAlnum(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// badRune returns the byte offset and the first character of s that is
// not ok, or -1.
func badRune(s string, ok func(rune) bool) (int, rune) {
	for i, r := range s {
		if !ok(r) {
			return i, r
		}
	}
	return -1, 0
}

// lookalikes are names by their confusables skeleton; names the catalog
// has are all kept (two real names may share a skeleton).
type lookalikes map[string][]string

func (l lookalikes) known(s string) {
	k := lookKey(s)
	if !slices.Contains(l[k], s) {
		l[k] = append(l[k], s)
	}
}

// check returns the name of l that s reads as (the same skeleton) when s
// is not one of them, else "" after adding s.
func (l lookalikes) check(s string) string {
	k := lookKey(s)
	if names := l[k]; len(names) > 0 && !slices.Contains(names, s) {
		return names[0]
	}
	l.known(s)
	return ""
}

// lookKey is data.LookKey: what two names that read as one share.
func lookKey(s string) string { return data.LookKey(s) }
