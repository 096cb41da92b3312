package model

import (
	"testing"
	"time"
)

func TestDateDays(t *testing.T) {
	for _, c := range []struct {
		in   string
		days int
		ok   bool
	}{
		{"1970-01-01", 0, true},
		{"1970-01-02", 1, true},
		{"1969-12-31", -1, true},
		{"2000-02-29", 11016, true}, // 30 years of 365 + 7 leap days (72…96) + 59
		{"2026-12-02", 20789, true},
		{"0000-03-01", -719468, true}, // Hinnant's epoch shift: 0000-03-01 is day −719468
		{"1900-02-29", 0, false},      // 1900 is not a leap year
		{"2026-02-30", 0, false},
		{"2026-13-01", 0, false},
		{"2026-00-10", 0, false},
		{"2026-1-01", 0, false},
		{"2026/01/01", 0, false},
		{"2026-01-0a", 0, false},
		{"", 0, false},
	} {
		got, ok := dateDays(c.in)
		if ok != c.ok || (ok && got != c.days) {
			t.Errorf("dateDays(%q) = %d, %v; want %d, %v", c.in, got, ok, c.days, c.ok)
		}
	}
}

// FuzzDateDays checks dateDays against time.Parse(time.DateOnly), whose
// place it takes in Offer.PriceAgeDays.
func FuzzDateDays(f *testing.F) {
	for _, s := range []string{"2026-12-02", "2000-02-29", "1900-02-29", "0000-01-01", "9999-12-31", "2026-02-30", "+026-01-01", " 026-01-01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := dateDays(s)
		tm, err := time.Parse(time.DateOnly, s)
		if ok != (err == nil) {
			t.Fatalf("dateDays(%q) ok=%v, time.Parse err=%v", s, ok, err)
		}
		if ok {
			if want := int(tm.Unix() / 86400); tm.Unix() < 0 && tm.Unix()%86400 != 0 || got != want {
				t.Fatalf("dateDays(%q) = %d, time.Parse gives %d", s, got, want)
			}
		}
	})
}
