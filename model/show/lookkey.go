package show

import (
	"strings"
	"unicode"

	"github.com/mtibben/confusables"
	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/unicode/runenames"
)

// LookKey is what two names that read as one share: the confusables
// skeleton (UTS #39 §4) of the name with its accents dropped (NFD, then
// no combining marks), folded to lower case, with its separators
// (LookSeparators and white space) left out: "Train", "train.", "t-rain"
// and "trаin" (Cyrillic а) have one key. The catalog's name check
// (data.LookKey, with a table for ASCII) and plan phase names use it.
//
// Each character is folded by lookRune: capitals of other scripts that
// read as Latin ones (Cyrillic Н Т В Р І, Greek Η, Cherokee Ꮮ, the IPA
// small capital ʟ) share the Latin letter's key, so "Н100" and "Т4" read
// as H100 and T4 (attack round 12, F1).
func LookKey(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteString(lookRune(r))
	}
	// Separators after the skeleton, as it maps some dashes and dots to
	// ASCII ones.
	sk := b.String()
	b.Reset()
	for _, r := range sk {
		if !strings.ContainsRune(LookSeparators, r) && !unicode.IsSpace(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// lookRune is one character's look-alike key. The skeleton (UTS #39 §4)
// maps characters one by one, and is case-sensitive: it maps m to rn
// but leaves M, maps Cyrillic н to the small capital ʜ (U+029C), and
// Greek η to n̩ but Greek Η to H. So the character is folded to lower case
// first, its skeleton taken, small capitals read as their letters
// (smallCapital) and the result folded again; a character that does not
// come out as ASCII that way is tried from its own skeleton (Η → H → h;
// Cyrillic І, whose lower case і gives i, is taken the first way).
// ASCII characters keep the key they had: the lower-case way gives it.
func lookRune(r rune) string {
	low := foldSkeleton(string(unicode.ToLower(r)))
	if r < 0x80 || isASCII(low) {
		return low
	}
	if up := foldSkeleton(strings.ToLower(confusables.Skeleton(string(r)))); isASCII(up) {
		return up
	}
	return low
}

// foldSkeleton is the skeleton of s with small capitals read as their
// letters, in lower case.
func foldSkeleton(s string) string {
	sk := confusables.Skeleton(s)
	return strings.ToLower(strings.Map(smallCapital, sk))
}

// smallCapital reads a Latin small capital (ʜ, ᴛ, ʟ, ʙ: Unicode names
// "LATIN LETTER SMALL CAPITAL H" …) as its letter; the skeleton leaves
// them, and they are what Cyrillic and Cherokee capitals map to once
// lower-cased.
func smallCapital(r rune) rune {
	if r < 0x80 {
		return r
	}
	if l, ok := strings.CutPrefix(runenames.Name(r), "LATIN LETTER SMALL CAPITAL "); ok && len(l) == 1 && l[0] >= 'A' && l[0] <= 'Z' {
		return rune(l[0] - 'A' + 'a')
	}
	return r
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// LookSeparators are the characters LookKey leaves out: what a copy can
// add, double or drop between the real name's parts.
const LookSeparators = "._-:/,+"
