package decide

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/gpuplan/gpuplan/model"
)

// TimeCost is one way to run a job as a point of wall-clock hours against
// USD. Index is the caller's (e.g. the offer's position in
// Recommendation.Offers).
type TimeCost struct {
	Index int     `json:"index"`
	Hours float64 `json:"hours"`
	USD   float64 `json:"usd"`
}

// OfferPoints returns the offers that have a job time and cost as points,
// Index being the offer's position in offers.
func OfferPoints(offers []model.Offer) []TimeCost {
	pts := make([]TimeCost, 0, len(offers))
	for i := range offers {
		if o := &offers[i]; o.HasJob {
			pts = append(pts, TimeCost{Index: i, Hours: o.JobHours, USD: o.JobUSD})
		}
	}
	return pts
}

// ParetoFront returns the points no other point beats on both time and
// cost (none is at least as fast and as cheap and better in one), sorted
// fastest first, so cost falls along the front. Of equal points the first
// is kept. Points with a NaN or infinite value are left out.
func ParetoFront(pts []TimeCost) []TimeCost {
	s := make([]TimeCost, 0, len(pts))
	for _, p := range pts {
		if !math.IsNaN(p.Hours) && !math.IsNaN(p.USD) && !math.IsInf(p.Hours, 0) && !math.IsInf(p.USD, 0) {
			s = append(s, p)
		}
	}
	slices.SortStableFunc(s, func(a, b TimeCost) int {
		if c := cmp.Compare(a.Hours, b.Hours); c != 0 {
			return c
		}
		return cmp.Compare(a.USD, b.USD)
	})
	var front []TimeCost
	for _, p := range s {
		// p is no faster than anything before it, so it is on the front
		// only if cheaper than all of them; and as fast as those within
		// sameHours of it, which it then replaces.
		if len(front) == 0 || p.USD < front[len(front)-1].USD {
			for len(front) > 0 && sameTime(p.Hours, front[len(front)-1].Hours) {
				front = front[:len(front)-1]
			}
			front = append(front, p)
		}
	}
	return front
}

// sameHours is how close two job times are, relatively, to count as one
// time for the front and FastestWithin: they print alike to three figures,
// and each estimate's own 90% range is ±10% or wider (docs/calibration.md),
// so a saving of seconds is no reason to pay more (walk45c: three offers
// at 0.584 h on the front, "1.0× faster for +75%").
const sameHours = 0.005

// sameTime reports whether a, no faster than b, is within sameHours of it.
func sameTime(a, b float64) bool { return a <= b*(1+sameHours) }

// CheapestWithin returns the cheapest point that finishes within
// maxHours (ties: the faster), and false when none does: "finish by this
// date at the lowest cost".
func CheapestWithin(pts []TimeCost, maxHours float64) (TimeCost, bool) {
	var best TimeCost
	ok := false
	for _, p := range pts {
		if !(p.Hours <= maxHours) || math.IsNaN(p.USD) {
			continue
		}
		if !ok || p.USD < best.USD || p.USD == best.USD && p.Hours < best.Hours {
			best, ok = p, true
		}
	}
	return best, ok
}

// FastestWithin returns the fastest point that costs at most maxUSD (ties,
// times within sameHours of each other: the cheaper), and false when none
// does: "what can $X buy".
func FastestWithin(pts []TimeCost, maxUSD float64) (TimeCost, bool) {
	var best TimeCost
	ok := false
	for _, p := range pts {
		if !(p.USD <= maxUSD) || math.IsNaN(p.Hours) {
			continue
		}
		switch {
		case !ok:
			best, ok = p, true
		case p.Hours <= best.Hours && sameTime(best.Hours, p.Hours) || p.Hours > best.Hours && sameTime(p.Hours, best.Hours):
			if p.USD < best.USD || p.USD == best.USD && p.Hours < best.Hours {
				best = p // as fast: the cheaper
			}
		case p.Hours < best.Hours:
			best = p
		}
	}
	return best, ok
}

// HoursUntil returns the hours from now to a deadline date (negative when
// it has passed), for CheapestWithin. The job must also start: subtract
// any lead time before calling. Counted in seconds, not by Time.Sub,
// whose Duration stops at about 292 years (walk48: --finish-by
// 9999-12-31 read "within 292.5 years").
func HoursUntil(now, deadline time.Time) float64 {
	s := float64(deadline.Unix()-now.Unix()) + float64(deadline.Nanosecond()-now.Nanosecond())/1e9
	return s / 3600
}
