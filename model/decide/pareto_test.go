package decide

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/model"
)

func TestParetoFront(t *testing.T) {
	pts := []TimeCost{
		{Index: 0, Hours: 10, USD: 100}, // front: fastest
		{Index: 1, Hours: 20, USD: 60},  // front
		{Index: 2, Hours: 20, USD: 80},  // beaten by 1 (same time, dearer)
		{Index: 3, Hours: 30, USD: 70},  // beaten by 1 (slower and dearer)
		{Index: 4, Hours: 40, USD: 50},  // front: cheapest
		{Index: 5, Hours: 50, USD: 50},  // beaten by 4 (same cost, slower)
		{Index: 6, Hours: 10, USD: 100}, // equal to 0: the first is kept
		{Index: 7, Hours: math.NaN(), USD: 1},
		{Index: 8, Hours: 1, USD: math.Inf(1)},
	}
	var got []int
	for _, p := range ParetoFront(pts) {
		got = append(got, p.Index)
	}
	if want := []int{0, 1, 4}; !slices.Equal(got, want) {
		t.Errorf("ParetoFront indexes = %v, want %v", got, want)
	}
	if f := ParetoFront(nil); len(f) != 0 {
		t.Errorf("ParetoFront(nil) = %v, want empty", f)
	}
}

func TestSelectors(t *testing.T) {
	pts := []TimeCost{{0, 10, 100}, {1, 20, 60}, {2, 40, 50}, {3, 20, 60}}
	tests := []struct {
		name  string
		f     func() (TimeCost, bool)
		index int
		ok    bool
	}{
		{"finish within 25 h: $60 (index 1, 20 h) beats $100", func() (TimeCost, bool) { return CheapestWithin(pts, 25) }, 1, true},
		{"finish within 40 h: the $50 point", func() (TimeCost, bool) { return CheapestWithin(pts, 40) }, 2, true},
		{"finish within 5 h: none", func() (TimeCost, bool) { return CheapestWithin(pts, 5) }, 0, false},
		{"$70: fastest is 20 h for $60", func() (TimeCost, bool) { return FastestWithin(pts, 70) }, 1, true},
		{"$100: 10 h", func() (TimeCost, bool) { return FastestWithin(pts, 100) }, 0, true},
		{"$40: none", func() (TimeCost, bool) { return FastestWithin(pts, 40) }, 0, false},
	}
	for _, tt := range tests {
		p, ok := tt.f()
		if ok != tt.ok || ok && p.Index != tt.index {
			t.Errorf("%s: got %+v, %v; want index %d, %v", tt.name, p, ok, tt.index, tt.ok)
		}
	}
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	if h := HoursUntil(now, time.Date(2026, 12, 3, 21, 0, 0, 0, time.UTC)); h != 60 {
		t.Errorf("HoursUntil(1 Dec 09:00, 3 Dec 21:00) = %g, want 60", h)
	}
	// 1 Dec 2026 09:00 to 1 Dec 2526 09:00: 500 years of 365 days and 121
	// leap days (the years 2028–2524 divisible by 4, less 2100, 2200, 2300,
	// 2500; 2400 is one), past what a Duration holds (~292 years).
	if h, want := HoursUntil(now, time.Date(2526, 12, 1, 9, 0, 0, 0, time.UTC)), float64((500*365+121)*24); h != want {
		t.Errorf("HoursUntil(1 Dec 2026, 1 Dec 2526) = %g, want %g", h, want)
	}
}

func TestOfferPoints(t *testing.T) {
	offers := []model.Offer{{JobHours: 5, JobUSD: 50, HasJob: true}, {}, {JobHours: 2, JobUSD: 80, HasJob: true}}
	want := []TimeCost{{0, 5, 50}, {2, 2, 80}}
	if got := OfferPoints(offers); !slices.Equal(got, want) {
		t.Errorf("OfferPoints = %v, want %v", got, want)
	}
}

// TestParetoSameTime: times within sameHours (0.5%) of each other are one
// time: the cheapest of them stands for it on the front and in
// FastestWithin (walk45c: 0.584 h at $21.54, $12.28 and $8.00 were all on
// the front, "1.0× faster for +75%"); times 1% apart stay two.
func TestParetoSameTime(t *testing.T) {
	pts := []TimeCost{
		{Index: 0, Hours: 0.5839, USD: 21.54},
		{Index: 1, Hours: 0.5840, USD: 12.28},
		{Index: 2, Hours: 0.5841, USD: 8.00},
		{Index: 3, Hours: 1.8, USD: 7.5},
		{Index: 4, Hours: 1.818, USD: 7.0}, // 1% slower than 1.8: a time of its own
	}
	var got []int
	for _, p := range ParetoFront(pts) {
		got = append(got, p.Index)
	}
	if want := []int{2, 3, 4}; !slices.Equal(got, want) {
		t.Errorf("front %v, want %v", got, want)
	}
	if p, ok := FastestWithin(pts, 25); !ok || p.Index != 2 {
		t.Errorf("FastestWithin $25: %+v, want index 2 ($8.00 at the same time)", p)
	}
	if p, ok := FastestWithin(pts, 7.6); !ok || p.Index != 3 {
		t.Errorf("FastestWithin $7.60: %+v, want index 3 (1.8 h, 1%% faster than 1.818 h)", p)
	}
}
