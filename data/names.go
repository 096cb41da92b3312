package data

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unsafe"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/show"
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
	regionPunct = " ,-_.()" // parentheses: Paperspace's "East Coast (NY2)"
)

// NameCheck refuses instance types, regions and providers outside those
// sets, and a name new to the catalog whose look-alike key (LookKey) is
// another's of the same provider (the base catalog's, or one checked
// before): "gpu_8x_h1OO_sxm5", "GPU_8X_H100_SXM5" or "gpu_8x_h100_sxm5."
// beside gpu_8x_h100_sxm5. catalog update checks each fetched row with it
// before writing, and LoadWith each overlay and --catalog row before
// merging: one check for both doors. Not safe for concurrent use.
type NameCheck struct {
	base  *model.Catalog
	names map[string]*providerNames
	// expect is how many more names the caller is about to check (a
	// file's rows): the first table made for a provider is sized for them,
	// so 100,000 names do not grow it a dozen times.
	expect int
	// okProvider is the last provider name that passed Check's provider
	// checks and okNames its names: a file's rows all name one provider,
	// and the checks of a name depend on the name alone (the embedded
	// providers, a character set), so 100,000 rows pay for them once
	// instead of two map look-ups each (a fifth of refuseNames).
	okProvider string
	okNames    *providerNames
}

// providerNames are one provider's names as checked so far.
type providerNames struct {
	types, regions lookalikes
	// okRegions are the regions that passed every check: a region cannot
	// fail later once accepted (its look-alike key is then its own), so a
	// file's 100,000 prices in a few regions are checked a few times.
	okRegions map[string]struct{}
	// seps are the list separators (listSeps) the base catalog's region
	// names of this provider hold (Paperspace's and SimplePod's space,
	// Vast's ", "), and based whether it has any region: a region of a
	// provider the base catalog prices holds no other. listForm
	// is set for a provider whose names are "place, CC, continent code"
	// (model.GeoPlaceCountryContinent, Vast.ai): the one form a comma may
	// appear in (regionForm).
	seps            string
	based, listForm bool
}

// NewNameCheck returns a check against base's names.
func NewNameCheck(base *model.Catalog) *NameCheck {
	return &NameCheck{base: base, names: map[string]*providerNames{}}
}

func (c *NameCheck) of(provider string) *providerNames {
	if n, ok := c.names[provider]; ok {
		return n
	}
	types := c.expect // the caller's names, and base's of provider
	for i := range c.base.Instances {
		if c.base.Instances[i].Provider == provider {
			types++
		}
	}
	n := &providerNames{types: newLookalikes(types), regions: newLookalikes(0), okRegions: map[string]struct{}{}}
	for i := range c.base.Instances {
		if in := &c.base.Instances[i]; in.Provider == provider {
			n.types.known(LookKey(in.Type), in.Type)
			for _, p := range in.Prices {
				n.regions.known(LookKey(p.Region), p.Region)
				n.based = true
				for _, r := range p.Region {
					if strings.ContainsRune(listSeps, r) && !strings.ContainsRune(n.seps, r) {
						n.seps += string(r)
					}
				}
			}
		}
	}
	for _, pr := range c.base.Regions {
		if pr.Provider == provider && pr.Rule == model.GeoPlaceCountryContinent {
			n.listForm = true
		}
	}
	c.names[provider] = n
	return n
}

// ProviderLookalike returns the embedded catalog's provider that p reads
// as without being it (the same LookKey: "1ambda" with a digit one,
// "lаmbda" with a Cyrillic а, "Lambda", "l-ambda", "ⅼambda" with the
// small Roman numeral fifty all read as "lambda"), or "" when p is one
// of them or reads as none. A price row under such a provider would be
// listed beside the real provider's as if it were it (issue 29).
func ProviderLookalike(p string) string {
	if p == "" {
		return ""
	}
	known := embeddedProviders()
	if _, ok := known[p]; ok {
		return ""
	}
	for name, key := range known {
		if key == LookKey(p) {
			return name
		}
	}
	return ""
}

// embeddedProviders are the embedded catalog's providers, each with its
// LookKey.
var embeddedProviders = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, in := range embeddedCatalog.Instances {
		if _, ok := m[in.Provider]; !ok {
			m[in.Provider] = LookKey(in.Provider)
		}
	}
	return m
})

// providerLookalikeMsg is the one line for a provider that reads as
// known.
func providerLookalikeMsg(p, known string) error {
	return model.Msg("provider %q reads as the catalog's provider %q (case, separators . _ - and look-alike characters such as 1 for l or a Cyrillic а set aside, UTS #39); write %q to price its types, or give a new provider a name that differs in its letters", shown(p), known, known)
}

// Check returns the first name of in that is refused, or nil; a name it
// accepts is known to later checks.
func (c *NameCheck) Check(in *model.Instance) error {
	names := c.okNames
	if names == nil || in.Provider != c.okProvider {
		if err := checkProvider(in.Provider); err != nil {
			return err
		}
		names = c.of(in.Provider)
		c.okProvider, c.okNames = in.Provider, names
	}
	if j, r := badTypeRune(in.Type); j >= 0 {
		return model.Msg("instance type %q: character %q (U+%04X) at byte %d is not one the catalog's types use (ASCII letters, digits and + - . _ :); the source must spell the name as the provider does", shown(in.Type), shownRune(r), r, j)
	}
	if other := names.types.check(in.Type); other != "" {
		return model.Msg("instance type %q reads as %q but is another name; the source must spell the name as the provider does", shown(in.Type), other)
	}
	for _, p := range in.Prices {
		if _, ok := names.okRegions[p.Region]; ok {
			continue
		}
		ok, letter := regionRune, regionLetter
		if !names.based { // a provider of its own: a China cloud's region may be named in Chinese (AutoDL's 西北B区)
			ok = func(r rune) bool { return regionRune(r) || hanIdeograph(r) }
			letter = func(r rune) bool { return regionLetter(r) || hanIdeograph(r) }
		}
		if j, r := badRune(p.Region, ok); j >= 0 {
			if hanIdeograph(r) {
				return model.Msg("%s: region %q: character %q (U+%04X) at byte %d: %s's regions are named in Latin letters in the catalog, so a name in Chinese reads as no region of it; write the provider's region id (such as cn-hangzhou)", shown(in.Type), shown(p.Region), shownRune(r), r, j, in.Provider)
			}
			return model.Msg("%s: region %q: character %q (U+%04X) at byte %d is not one the catalog's regions use (Latin letters, digits, space, comma, hyphen, _, ., parentheses, and Chinese characters for a provider the catalog does not have)", shown(in.Type), shown(p.Region), shownRune(r), r, j)
		}
		if !strings.ContainsFunc(p.Region, letter) {
			return model.Msg("%s: region %q has no letter or digit; a region is a name, not punctuation", shown(in.Type), shown(p.Region))
		}
		if strings.TrimSpace(p.Region) != p.Region || strings.Contains(p.Region, "  ") {
			return model.Msg("%s: region %q has a space at an end or two together; a region reads as one name", shown(in.Type), shown(p.Region))
		}
		if other := names.regions.check(p.Region); other != "" {
			return model.Msg("%s: region %q reads as %q but is another name; the source must spell the name as the provider does", shown(in.Type), shown(p.Region), other)
		}
		if err := names.regionForm(in.Type, in.Provider, p.Region); err != nil {
			return err
		}
		names.okRegions[p.Region] = struct{}{}
	}
	return nil
}

// checkProvider refuses a provider name that reads as an embedded
// provider or holds a character providers do not use; the verdict
// depends on the name alone.
func checkProvider(p string) error {
	if known := ProviderLookalike(p); known != "" {
		return providerLookalikeMsg(p, known)
	}
	if j, r := badRune(p, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' }); j >= 0 {
		return model.Msg("provider %q: character %q (U+%04X) at byte %d is not one the catalog's providers use (a-z, 0-9, -)", shown(p), shownRune(r), r, j)
	}
	return nil
}

// listSeps are the characters that make a region name read as several:
// "us-south-1,us-west-1", "us-south-1 us-west-1", and "a,,b" that tables
// write as "a, b" (model.RegionShown drops empty parts). Hyphens,
// underscores, dots and parentheses join the words of one name.
const listSeps = ", "

// regionForm refuses a region name of typ (a type of provider) that is
// not in the provider's own form. A comma or space inside a region of a
// provider whose regions never hold one reads as a list: where the base
// catalog prices the provider, a region holds only the list separators
// its names do (measured on the embedded catalog, 2026-12-03: a space in
// Paperspace's "East Coast (NY2)" and SimplePod's "North America-CA",
// ", " in Vast.ai's; no other provider's region holds either). Vast.ai's names are
// "place, CC, continent code" (SkyPilot's catalogs/v8/vast/vms.csv:
// "Bavaria, DE, EU", ", US, NA" with no place): there a comma only
// separates those three parts, the place holding none. A provider the
// base catalog does not price (a --catalog file's own) keeps the general
// shape.
func (n *providerNames) regionForm(typ, provider, region string) error {
	if n.listForm {
		parts := strings.Split(region, ", ")
		if len(parts) != 3 || strings.Contains(parts[0], ",") || !countryCode(parts[1]) || !countryCode(parts[2]) {
			return model.Msg("%s: region %q is not in %s's form \"place, CC, continent code\" (such as \"Bavaria, DE, EU\"); a comma only separates those three parts", shown(typ), shown(region), provider)
		}
		return nil
	}
	if !n.based {
		return nil
	}
	for j, r := range region {
		if !strings.ContainsRune(listSeps, r) || strings.ContainsRune(n.seps, r) {
			continue
		}
		if n.seps == "" {
			return model.Msg("%s: region %q: %q at byte %d separates names, and %s's region names hold neither a comma nor a space; a region is one name, not a list", shown(typ), shown(region), shownRune(r), j, provider)
		}
		return model.Msg("%s: region %q: %q at byte %d separates names, and %s's region names hold no list separator but %s; a region is one name, not a list", shown(typ), shown(region), shownRune(r), j, provider, sepsShown(n.seps))
	}
	return nil
}

// countryCode reports whether s is two ASCII capitals (an ISO 3166-1
// alpha-2 code, or Vast.ai's two-letter continent code).
func countryCode(s string) bool {
	return len(s) == 2 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z'
}

// sepsShown writes separators as a list of quoted characters: "'-'",
// "' ' '(' ')'".
func sepsShown(seps string) string {
	var b strings.Builder
	for i, r := range seps {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.QuoteRune(r))
	}
	return b.String()
}

// regionRune reports whether a region name may hold r: ASCII letters
// and digits, regionPunct, and Latin letters beyond ASCII (Vast's "Bács-
// Kiskun, HU, EU", "Hafnarfjarðarkaupstaður, IS, EU": every non-ASCII
// letter of the embedded catalog's regions and of SkyPilot's v6–v8 files
// (skypilot-org/skypilot-catalog) is Latin). Another script — a right-to-left one
// that reorders the line it is printed in, Cyrillic that reads as Latin —
// is no provider's region identifier (attack r29).
func regionRune(r rune) bool {
	return asciiAlnum(r) || strings.ContainsRune(regionPunct, r) || regionLetter(r)
}

// regionLetter reports whether r is a letter or digit a region name may
// hold: an ASCII one, or a Latin letter (not an invisible one: a Hangul
// filler is a letter, but not Latin anyway).
func regionLetter(r rune) bool {
	return asciiAlnum(r) || r > 0x7f && unicode.Is(unicode.Latin, r) && !show.Invisible(r)
}

// hanIdeograph reports whether r is a CJK unified ideograph of the basic
// block or Extension A (U+4E00–U+9FFF, U+3400–U+4DBF), the characters a
// China provider's region names hold (AutoDL's 西北B区, 北京A区). UTS #39
// lets Han mix with Latin (show.MixedScript, Highly Restrictive). Left
// out: the CJK compatibility ideographs (U+F900–U+FAFF), which NFKC folds
// into unified ones, and the Kangxi and supplement radicals
// (U+2E80–U+2FDF), which look like the ideographs they stand for — both
// Restricted in UTS #39's identifier profile, and look-alikes of a name
// written with the real ones. Full-width Latin letters and digits are no
// Han and stay refused.
func hanIdeograph(r rune) bool {
	return r >= 0x4e00 && r <= 0x9fff || r >= 0x3400 && r <= 0x4dbf
}

func asciiAlnum(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// typeRune reports whether an instance type may hold r.
func typeRune(r rune) bool { return asciiAlnum(r) || strings.ContainsRune(typePunct, r) }

// typeBytes marks the bytes typeRune accepts (all ASCII).
var typeBytes = func() (t [256]bool) {
	for c := range 0x80 {
		t[c] = typeRune(rune(c))
	}
	return t
}()

// badTypeRune is badRune(s, typeRune), a byte at a time for a name it
// accepts whole (nearly every one: a file's 100,000 types were a sixth of
// its names' check through the rune loop and its closure).
func badTypeRune(s string) (int, rune) {
	for i := 0; i < len(s); i++ {
		if !typeBytes[s[i]] {
			return badRune(s, typeRune)
		}
	}
	return -1, 0
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

// lookalikes are names by their confusables skeleton (LookKey); names
// the catalog has are all kept (two real names may share a skeleton):
// the first of a key in first, any later ones in more, which nearly
// always stays empty (a slice per name cost an allocation each).
type lookalikes struct {
	first nameTable
	more  map[string][]string
	// key is check's scratch for an ASCII name's key, looked up without
	// a string of its own; keys holds the keys added, back to back, so
	// 100,000 names cost a few allocations, not one each.
	key, keys []byte
}

// newLookalikes returns an empty set sized for n names.
func newLookalikes(n int) lookalikes {
	return lookalikes{first: newNameTable(n), more: map[string][]string{}}
}

// known adds s, whose key is k.
func (l *lookalikes) known(k, s string) {
	if f, ok := l.first.getOrAdd(k, s, nil); ok && f != s && !slices.Contains(l.more[k], s) {
		l.more[k] = append(l.more[k], s)
	}
}

// check returns the name of l that s reads as (the same skeleton) when s
// is not one of them, else "" after adding s.
func (l *lookalikes) check(s string) string {
	key, ascii := appendLookKey(l.key[:0], s)
	if !ascii {
		key = append(key[:0], LookKey(s)...)
	}
	l.key = key
	// The key is looked up in the scratch bytes, and copied into l.keys
	// only when added: no string is made for a look-up.
	f, ok := l.first.getOrAdd(unsafe.String(unsafe.SliceData(key), len(key)), s, l.keep)
	if !ok || f == s || slices.Contains(l.more[string(key)], s) {
		return ""
	}
	return f
}

// keep returns a copy of key stored in l.keys, whose bytes below len are
// never written again (so the string stays as it is).
func (l *lookalikes) keep(key string) string {
	const block = 64 << 10
	if len(l.keys)+len(key) > cap(l.keys) {
		l.keys = make([]byte, 0, max(block, len(key)))
	}
	at := len(l.keys)
	l.keys = append(l.keys, key...)
	return unsafe.String(unsafe.SliceData(l.keys[at:]), len(key))
}

// lookKeySlow is LookKey by its definition.
func lookKeySlow(s string) string { return show.LookKey(s) }

// refuseNames drops the rows of an overlay or --catalog file whose names
// NameCheck refuses and returns one warning for them (the count and the
// first few reasons), or an error when no row is left: the file is wholly
// bad. Rows keep their order; full stays at the start of its backing.
func refuseNames(f *catalogFile, names *NameCheck) ([]model.Message, error) {
	var why []error
	n := 0
	names.expect = len(f.instances) + len(f.full)
	defer func() { names.expect = 0 }()
	keep := f.instances[:0]
	for i := range f.instances {
		n++
		if err := names.Check(&f.instances[i].Instance); err != nil {
			why = append(why, err)
			continue
		}
		if keep = keep[:len(keep)+1]; len(keep)-1 != i { // rows move once one is refused
			keep[len(keep)-1] = f.instances[i]
		}
	}
	f.instances = keep
	full := f.full[:0]
	for i := range f.full {
		n++
		if err := names.Check(&f.full[i]); err != nil {
			why = append(why, err)
			continue
		}
		// Rows move only once one is refused: a 288-byte Instance copied
		// onto itself 100,000 times was a twentieth of an overlay's load.
		if full = full[:len(full)+1]; len(full)-1 != i {
			full[len(full)-1] = f.full[i]
		}
	}
	if f.backing != nil {
		f.backing = f.backing[:f.room+len(full)] // mergeInPlace walks backing
	}
	f.full = full
	if len(why) == 0 {
		return nil, nil
	}
	if len(why) == n {
		return nil, model.Msg("catalog %s: every instance row has a name the catalog refuses, first: %v", f.name, why[0])
	}
	var ex model.Message
	switch len(why) {
	case 1:
		ex = model.Msg("%v", why[0])
	case 2:
		ex = model.Msg("%v; %v", why[0], why[1])
	default:
		ex = model.Msg("%v; %v; %v", why[0], why[1], why[2])
	}
	if len(why) > 3 {
		ex = model.Msg("%v; and %d more", ex, len(why)-3)
	}
	return []model.Message{model.Msg("catalog %s: %d instance rows skipped for their names (a name that reads as another is a cheap fake of it): %v", f.name, len(why), ex)}, nil
}

// shown formats a name from a file for an error: %q is show.Quote, so a
// Hangul filler (U+3164, U+115F) or a variation selector (U+FE0F) is
// escaped, not printed as the blank or nothing it looks like.
type shown string

func (s shown) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		io.WriteString(f, show.Quote(string(s)))
		return
	}
	io.WriteString(f, show.Printable(string(s)))
}

// shownRune is shown for one character: '\u3164' for an invisible one.
type shownRune rune

func (r shownRune) Format(f fmt.State, verb rune) {
	if show.Invisible(rune(r)) {
		fmt.Fprintf(f, `'\u%04x'`, rune(r))
		return
	}
	io.WriteString(f, strconv.QuoteRune(rune(r)))
}
