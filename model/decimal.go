package model

// DecimalText reports whether s is a decimal number as a CSV writes one
// and as a user types one: an optional sign, digits with at most one '.',
// and an optional exponent (1e-05, as pandas writes small floats). Not hex (0x1p-3),
// Inf, NaN or digit separators (1_000), which strconv.ParseFloat reads.
// data's CSV readers and ui/cli's float flags share it.
func DecimalText(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits, dot := 0, false
	for ; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			digits++
		} else if c == '.' && !dot {
			dot = true
		} else {
			break
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := 0
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(s)
}
