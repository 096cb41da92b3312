package model

import "strconv"

// Grouped is a count as people read it: digits in threes split by commas
// from 10,000 up ("9999", "14,387", "100,207"), as the configurator prints
// counts (a four-digit count stays whole). For human output only: JSON
// keeps the number.
func Grouped(n int) string {
	s := strconv.Itoa(n)
	sign := ""
	if n < 0 {
		sign, s = "-", s[1:]
	}
	if len(s) <= 4 {
		return sign + s
	}
	b := make([]byte, 0, len(s)+len(s)/3)
	lead := len(s) % 3
	if lead == 0 {
		lead = 3
	}
	b = append(b, s[:lead]...)
	for i := lead; i < len(s); i += 3 {
		b = append(b, ',')
		b = append(b, s[i:i+3]...)
	}
	return sign + string(b)
}

// Count is n, Grouped, with its noun, singular for one: Count(1, "sequence")
// is "1 sequence", Count(4, "sequence") "4 sequences", Count(100207,
// "offer") "100,207 offers". Nouns here take -s.
func Count(n int, noun string) string { return Grouped(n) + " " + Plural(n, noun) }

// Plural is noun for one and noun+"s" otherwise: the one plural rule of
// Count and CountMsg, and of a noun a message takes as its own argument
// (Msg(Plural(n, "file"))). Nouns here take -s.
func Plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// CountMsg is Count as a message: "%d sequence" or "%d sequences", so a
// language without plurals translates both keys alike.
func CountMsg(n int, noun string) Message { return Msg("%d "+Plural(n, noun), n) }
