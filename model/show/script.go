package show

import (
	"slices"
	"sync"
	"unicode"
)

// MixedScript returns the byte offset of the first letter of s whose
// script does not go with the letters before it, and the two scripts'
// names; -1 when s passes. Common (digits, punctuation) and Inherited
// (combining marks) characters go with any script. The rule is UTS #39
// §5.2's "Highly Restrictive" level (https://www.unicode.org/reports/tr39/#Restriction_Level_Detection):
// one script, or Latin with Han and the scripts written with it
// (Hiragana and Katakana, Bopomofo, Hangul), so "模型-7b" passes and
// Latin mixed with Cyrillic or Greek, the look-alike alphabets, does not.
// Catalog names (data/safeio) and plan phase names (model/plan) hold to it.
func MixedScript(s string) (int, string, string) {
	var seen []string // the scripts met so far, in order
	for i, r := range s {
		sc := scriptOf(r)
		if sc == "" || slices.Contains(seen, sc) {
			continue
		}
		seen = append(seen, sc)
		if len(seen) > 1 && !allowedMix(seen) {
			return i, seen[0], sc
		}
	}
	return -1, "", ""
}

// allowedMix reports whether scripts (all different) may share a name
// under UTS #39's Highly Restrictive level.
func allowedMix(scripts []string) bool {
	for _, set := range [][]string{
		{"Latin", "Han", "Hiragana", "Katakana"},
		{"Latin", "Han", "Bopomofo"},
		{"Latin", "Han", "Hangul"},
	} {
		if !slices.ContainsFunc(scripts, func(sc string) bool { return !slices.Contains(set, sc) }) {
			return true
		}
	}
	return false
}

// scriptOf is the Unicode script of r, "" for Common, Inherited and
// unassigned code points.
func scriptOf(r rune) string {
	if r < 0x80 {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
			return "Latin"
		}
		return ""
	}
	if unicode.Is(unicode.Common, r) || unicode.Is(unicode.Inherited, r) {
		return ""
	}
	for _, name := range scriptNames() {
		if unicode.Is(unicode.Scripts[name], r) {
			return name
		}
	}
	return ""
}

// scriptNames is unicode.Scripts' keys in a fixed order, the common
// scripts of names first so most look-ups end early.
var scriptNames = sync.OnceValue(func() []string {
	names := []string{"Latin", "Han", "Cyrillic", "Greek", "Hiragana", "Katakana", "Hangul"}
	for n := range unicode.Scripts {
		if !slices.Contains(names, n) && n != "Common" && n != "Inherited" {
			names = append(names, n)
		}
	}
	slices.Sort(names[7:])
	return names
})
