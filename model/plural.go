package model

import "strconv"

// Count is n with its noun, singular for one: Count(1, "sequence") is
// "1 sequence", Count(4, "sequence") "4 sequences". Nouns here take -s.
func Count(n int, noun string) string {
	s := strconv.Itoa(n) + " " + noun
	if n != 1 {
		s += "s"
	}
	return s
}
