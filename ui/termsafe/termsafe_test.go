package termsafe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/home/u/job.sky.yaml", "/home/u/job.sky.yaml"},
		{"東京リージョン-１ «≈» ±½", "東京リージョン-１ «≈» ±½"},
		{"全角\u3000空格", "全角\u3000空格"},                             // ideographic space (Zs) kept
		{"out\x1b]0;pwned\x07.yaml", `out\x1b]0;pwned\a.yaml`},   // OSC window title
		{"a\x1b]52;c;aGk=\x1b\\b", `a\x1b]52;c;aGk=\x1b\b`},      // OSC 52 clipboard
		{"x\nforged: wrote y", `x\nforged: wrote y`},             // a forged line
		{"over\rwrite", `over\rwrite`},                           // carriage return
		{"tab\there", `tab\there`},                               // tab
		{"c1 \u009b31m", `c1 \u009b31m`},                         // C1 CSI
		{"bad \xff\xfe", `bad \xff\xfe`},                         // invalid UTF-8
		{"zero\u200bwidth", `zero\u200bwidth`},                   // zero-width space (Cf)
		{"\ufeffbom", `\ufeffbom`},                               // BOM
		{"soft\u00adhyphen", `soft\u00adhyphen`},                 // soft hyphen
		{"tag\U000E0041", `tag\U000e0041`},                       // tag character
		{"rlo\u202eevil", `rlo\u202eevil`},                       // bidi override
		{"\u200c\u200d\u200e\u200f", `\u200c\u200d\u200e\u200f`}, // joiners, LRM, RLM (Cf)
		{"\u202a\u202b\u202c\u202d", `\u202a\u202b\u202c\u202d`}, // bidi embeddings
		{"\u2066\u2067\u2068\u2069", `\u2066\u2067\u2068\u2069`}, // bidi isolates
		{"ls\u2028ps\u2029", `ls\u2028ps\u2029`},                 // line, paragraph separators
		{"del\x7f nul\x00", `del\x7f nul\x00`},                   // DEL, NUL
		{"U+FFFD \ufffd kept", "U+FFFD \ufffd kept"},             // a real replacement character
		// Attack r29c, N2: letters and symbols that show nothing, which names refuse as invisible.
		{"x\u3164y", `x\u3164y`},                     // Hangul filler (Lo, default-ignorable)
		{"\u115fz", `\u115fz`},                       // Hangul choseong filler
		{"cgj\u034f", `cgj\u034f`},                   // combining grapheme joiner (Mn, default-ignorable)
		{"vs\ufe0f", `vs\ufe0f`},                     // variation selector 16
		{"braille\u2800blank", `braille\u2800blank`}, // Braille blank (So)
		{"é ü 한국 ❤", "é ü 한국 ❤"},                     // letters, marks, a symbol: kept
		{`back\slash`, `back\slash`},
		{"\xd3\x7f", `\xd3\x7f`}, // invalid UTF-8 before a control (fuzz)                           // kept: for reading
	}
	for _, tt := range tests {
		if got := String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := Lines("a\x1b[2J\nb\rc\n"); got != "a\\x1b[2J\nb\\rc\n" {
		t.Errorf("Lines = %q", got)
	}
}

// FuzzString: whatever s holds, the result is valid UTF-8 of Safe runes
// only (newlines too, for Lines), and clean text comes back unchanged.
func FuzzString(f *testing.F) {
	for _, s := range []string{"plain", "\x1b[31mred", "\x1b]0;t\x07", "a\nb\r", "\xff", "\u200b\ufeff\u00ad", "東京\u3000", "\U000E0041"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, got := range []string{String(s), strings.ReplaceAll(Lines(s), "\n", "")} {
			if !utf8.ValidString(got) {
				t.Fatalf("%q → %q: invalid UTF-8", s, got)
			}
			for _, r := range got {
				if !Safe(r) {
					t.Fatalf("%q → %q keeps %U", s, got, r)
				}
			}
		}
		clean := utf8.ValidString(s) && strings.IndexFunc(s, func(r rune) bool { return !Safe(r) }) < 0
		if clean && String(s) != s {
			t.Fatalf("clean %q changed to %q", s, String(s))
		}
	})
}
