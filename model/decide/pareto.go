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
		// only if cheaper than all of them.
		if len(front) == 0 || p.USD < front[len(front)-1].USD {
			front = append(front, p)
		}
	}
	return front
}

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

// FastestWithin returns the fastest point that costs at most maxUSD (ties:
// the cheaper), and false when none does: "what can $X buy".
func FastestWithin(pts []TimeCost, maxUSD float64) (TimeCost, bool) {
	var best TimeCost
	ok := false
	for _, p := range pts {
		if !(p.USD <= maxUSD) || math.IsNaN(p.Hours) {
			continue
		}
		if !ok || p.Hours < best.Hours || p.Hours == best.Hours && p.USD < best.USD {
			best, ok = p, true
		}
	}
	return best, ok
}

// HoursUntil returns the hours from now to a deadline date (negative when
// it has passed), for CheapestWithin. The job must also start: subtract
// any lead time before calling.
func HoursUntil(now, deadline time.Time) float64 { return deadline.Sub(now).Hours() }
