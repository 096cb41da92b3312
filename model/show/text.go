package show

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Unprintable reports runes that must never reach a terminal, a comment
// line or a table cell as they are: control characters (C0 including
// newline, tab, ESC and NUL; DEL; C1 including NEL), the line and paragraph
// separators U+2028 and U+2029 (line breaks to YAML 1.1 and to go-yaml's
// parser, so one would end a YAML comment), and the bidirectional
// formatting characters of Unicode TR9 (LRE…RLO, LRI…PDI, LRM, RLM, ALM),
// which make text display in another order than it runs ("Trojan Source",
// CVE-2021-42574).
func Unprintable(r rune) bool {
	return unicode.IsControl(r) || r == 0x2028 || r == 0x2029 || (r >= 0x202A && r <= 0x202E) ||
		(r >= 0x2066 && r <= 0x2069) || r == 0x200E || r == 0x200F || r == 0x061C
}

// Invisible reports whether r shows nothing, or changes how its
// neighbours show, on a terminal: a format character (Unicode category
// Cf: zero-width space and joiners, the byte-order mark, the soft hyphen,
// bidirectional controls, tag characters), another default-ignorable code
// point (Hangul fillers U+115F, U+1160, U+3164, U+FFA0; U+034F) or a
// variation selector, and the characters that show as blank space
// without being the ASCII space (Blank). Two names that differ only in
// such characters look the same, so plan text and catalog names refuse
// them (Unicode Standard Annex #31 §2.3 and UTS #39 §3.1 treat them as
// not to be shown in identifiers for that reason).
func Invisible(r rune) bool {
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) || unicode.Is(unicode.Variation_Selector, r) || Blank(r)
}

// Blank reports a character other than the ASCII space that shows as
// empty space: the space separators (category Zs: no-break space U+00A0,
// the en/em/figure/thin spaces U+2000–U+200A, U+202F, U+205F, the
// ideographic space U+3000), the Braille pattern blank U+2800 (a
// Braille cell with no dots, category So, which fonts draw empty) and
// the musical null notehead U+1D159 (So, drawn as nothing). Issue 29: a
// provider or phase named U+2800 read as an empty cell, and "serve" and
// "serve" with a no-break space as one name.
func Blank(r rune) bool {
	return r != ' ' && unicode.Is(unicode.Zs, r) || r == 0x2800 || r == 0x1D159
}

// MaxMarks is how many combining marks (categories Mn and Me) may follow
// one base character in a name: UTS #39 §5.4 (Optional Detection)
// forbids "sequences of more than 4 nonspacing marks" and "sequences of
// the same nonspacing mark", counted in NFD. Vietnamese, the Latin script
// with the most, stacks two (ệ is e, U+0323, U+0302).
const MaxMarks = 4

// MarkStack returns the byte offset in s of the character that makes a
// run of combining marks longer than MaxMarks, or repeats the mark just
// before it, counted in NFD (a precomposed é counts its acute); -1 when
// there is none. "Zalgo" text, a letter under a stack of dozens of marks,
// draws over the lines around it and hides what the name is.
func MarkStack(s string) int {
	run, last := 0, rune(-1)
	var buf [64]byte
	for i, r := range s {
		d := norm.NFD.AppendString(buf[:0], string(r))
		for _, m := range string(d) {
			if !unicode.In(m, unicode.Mn, unicode.Me) {
				run, last = 0, -1
				continue
			}
			if run++; run > MaxMarks || m == last {
				return i
			}
			last = m
		}
	}
	return -1
}

// Printable returns s with every Unprintable rune and invalid UTF-8 byte
// written as an escape (\n, \r, \t, \xNN, \uNNNN); other text, including
// non-ASCII letters, is kept. A clean s is returned as is.
func Printable(s string) string {
	clean := true
	for i, r := range s {
		if Unprintable(r) || r == utf8.RuneError && isInvalidAt(s, i) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x100 && Unprintable(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case Unprintable(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func isInvalidAt(s string, i int) bool {
	_, size := utf8.DecodeRuneInString(s[i:])
	return size == 1
}

// Slug returns s as lowercase ASCII letters, digits and single dashes
// (every other run of characters becomes one dash, none leads or trails),
// cut to at most max bytes: safe as a file name, an id and a DNS-1123
// label (RFC 1123 §2.1 as Kubernetes reads it). "Llama-3.1 8B" →
// "llama-3-1-8b". Empty when s has no ASCII letter or digit.
func Slug(s string, max int) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		default:
			dash = true
		}
		if b.Len() >= max {
			break
		}
	}
	out := b.String()
	if len(out) > max {
		out = out[:max]
	}
	return strings.TrimRight(out, "-")
}

// Quote is strconv.Quote that also escapes Invisible runes (a Hangul
// filler, U+3164 or U+115F, is a letter to strconv.IsPrint, and a
// variation selector a mark, so %q prints them as they are): an error
// quoting a name shows every character it holds.
func Quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for s != "" {
		i := strings.IndexFunc(s, Invisible)
		if i < 0 {
			i = len(s)
		}
		q := strconv.Quote(s[:i])
		b.WriteString(q[1 : len(q)-1])
		if i == len(s) {
			break
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r > 0xffff {
			fmt.Fprintf(&b, `\U%08x`, r)
		} else {
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		s = s[i+n:]
	}
	b.WriteByte('"')
	return b.String()
}
