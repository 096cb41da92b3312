// Package termsafe is the one sanitiser for text gpuplan prints on a
// terminal that it did not write itself: paths, URLs, names from files and
// servers, error messages quoting them. Whatever such text holds, printed
// through String it cannot move the cursor, set the window title, write
// the clipboard, forge a line or hide characters: every rune a terminal
// would act on or not show is written as a Go escape (strconv's quoting:
// \x1b, \n, \u200b), the rest is kept as it is, non-ASCII letters included.
package termsafe

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Safe reports whether r prints as itself: a letter, mark, number,
// punctuation or symbol (strconv.IsPrint) or a space separator (Zs, which
// includes the ideographic space of Chinese text). Controls (C0, DEL, C1),
// format characters (Cf: zero-width space and joiners, BOM, soft hyphen,
// bidirectional controls, tag characters), line and paragraph separators,
// private-use and unassigned runes are not; nor are the other characters
// that show nothing yet count as letters or symbols, which names from
// files refuse as invisible (model/show.Invisible: default-ignorable code
// points such as the Hangul fillers U+115F and U+3164 and the grapheme
// joiner U+034F, variation selectors, the Braille blank U+2800 and the
// musical null notehead U+1D159; attack r29c, N2: a config.json file name
// "x\u3164y" printed as "x y").
func Safe(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 0x20 && r != 0x7f
	}
	return (strconv.IsPrint(r) || unicode.Is(unicode.Zs, r)) && !invisible(r)
}

// invisible is model/show.Invisible less the space separators (Zs), which
// Chinese text prints (the ideographic space U+3000) and Safe keeps.
func invisible(r rune) bool {
	return unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) || unicode.Is(unicode.Variation_Selector, r) || r == 0x2800 || r == 0x1D159
}

// String returns s with every rune that is not Safe, and every byte of
// invalid UTF-8, written as a Go escape; s itself when it is clean.
// Backslashes are kept, so the result is for reading, not for unquoting.
func String(s string) string {
	i := firstUnsafe(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i])>>4, 16))
			b.WriteString(strconv.FormatUint(uint64(s[i])&0xf, 16))
		case Safe(r):
			b.WriteString(s[i : i+n])
		default:
			q := strconv.QuoteRuneToASCII(r) // '\x1b', '\n', '\u200b'
			b.WriteString(q[1 : len(q)-1])
		}
		i += n
	}
	return b.String()
}

// firstUnsafe is the index of the first rune of s that is not Safe or
// byte of invalid UTF-8, or -1.
func firstUnsafe(s string) int {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || !Safe(r) {
			return i
		}
		i += n
	}
	return -1
}

// Lines is String for text of several lines: each line is sanitised and
// the newlines between them kept (a carriage return is escaped, so no
// line can overwrite another).
func Lines(s string) string {
	if utf8.ValidString(s) && strings.IndexFunc(s, func(r rune) bool { return r != '\n' && !Safe(r) }) < 0 {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = String(l)
	}
	return strings.Join(lines, "\n")
}
