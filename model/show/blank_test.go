package show

import (
	"strings"
	"testing"
)

// Issue 29, item 2: the blank-rendering and invisible characters, case
// by case, and the mark stacks UTS #39 §5.4 forbids.
func TestInvisibleCoversBlanks(t *testing.T) {
	for _, tc := range []struct {
		r    rune
		want bool
	}{
		{0x2800, true}, {0x3164, true}, {0x115F, true}, {0x1160, true}, {0xFFA0, true}, // Braille blank, Hangul fillers
		{0x00A0, true}, {0x2000, true}, {0x2007, true}, {0x200A, true}, {0x202F, true}, {0x205F, true}, {0x3000, true}, // Zs
		{0x1D159, true}, {0x200B, true}, {0xFEFF, true}, {0x00AD, true}, {0x180E, true}, {0xE0020, true}, {0x034F, true}, {0xFE0F, true},
		{' ', false}, {'a', false}, {'-', false}, {0x00E9, false}, {0x5FAE, false}, {0x0301, false}, {0x2801, false},
	} {
		if got := Invisible(tc.r); got != tc.want {
			t.Errorf("Invisible(%U) = %v, want %v", tc.r, got, tc.want)
		}
	}
}

func TestMarkStack(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int
	}{
		{"lambda", -1},
		{"Việt Nam", -1},                       // ệ: two marks in NFD
		{"e\u0323\u0302", -1},                  // the same, decomposed
		{"a\u0300\u0301\u0302\u0303", -1},      // four marks: the limit
		{"a\u0300\u0301\u0302\u0303\u0304", 9}, // the fifth mark's byte
		{"e\u0301\u0301", 3},                   // one mark twice
		{"\u00e9\u0301", 2},                    // precomposed é then its acute again
		{"H" + strings.Repeat("\u0336\u0337\u0338", 10), 9},
		{"\u20dd\u20dd", 3},     // Me (enclosing) repeated
		{"ab\u0301c\u0301", -1}, // marks on different letters
	} {
		if got := MarkStack(tc.s); got != tc.want {
			t.Errorf("MarkStack(%+q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}
