package show

import (
	"strings"
	"unicode"

	"github.com/mtibben/confusables"
	"golang.org/x/text/unicode/norm"
)

// LookKey is what two names that read as one share: the confusables
// skeleton (UTS #39 §4) of the name with its accents dropped (NFD, then
// no combining marks), folded to lower case, with its separators
// (LookSeparators and white space) left out: "Train", "train.", "t-rain"
// and "trаin" (Cyrillic а) have one key. The catalog's name check
// (data.LookKey, with a table for ASCII) and plan phase names use it.
func LookKey(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	// Folded before the skeleton (which maps m to rn but leaves M) and
	// after it (it maps 0 to O); separators after it, as it maps some
	// dashes and dots to ASCII ones.
	sk := strings.ToLower(confusables.Skeleton(b.String()))
	b.Reset()
	for _, r := range sk {
		if !strings.ContainsRune(LookSeparators, r) && !unicode.IsSpace(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// LookSeparators are the characters LookKey leaves out: what a copy can
// add, double or drop between the real name's parts.
const LookSeparators = "._-:/,+"
