package model

// dateDays returns the days since 1970-01-01 of s, a YYYY-MM-DD date, and
// whether s is one: the same dates time.Parse(time.DateOnly, s) accepts
// (four-digit year, two-digit month 01–12 and day in range, nothing
// else). Offer.PriceAgeDays reads two dates for each of a ranking's
// offers (1,200 in a default recommend --json), where time.Parse was 3% of
// the command's CPU; FuzzDateDays checks the two agree.
//
// The day count is days_from_civil from Howard Hinnant, "chrono-Compatible
// Low-Level Date Algorithms" (howardhinnant.github.io/date_algorithms.html),
// the proleptic Gregorian calendar time.Time counts in.
func dateDays(s string) (int, bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return 0, false
	}
	num := func(b string) (int, bool) {
		n := 0
		for i := 0; i < len(b); i++ {
			c := b[i]
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	y, ok1 := num(s[0:4])
	m, ok2 := num(s[5:7])
	d, ok3 := num(s[8:10])
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 || d > monthDays(y, m) {
		return 0, false
	}
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 { // January or February of year 0000: Hinnant's floor division
		era = (y - 399) / 400
	}
	yoe := y - era*400
	mp := (m + 9) % 12 // March = 0
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468, true
}

// monthDays is the length of month m of year y in the Gregorian calendar.
func monthDays(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
