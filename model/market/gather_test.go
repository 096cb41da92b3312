package market

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestGatherInPlace: gatherInPlace gives what copying rows[keep[k]] to a
// new slice gives, for every shape of keep (empty, all, a subset in any
// order).
func TestGatherInPlace(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 40 {
		for range 20 {
			rows := make([]Row, n)
			for i := range rows {
				rows[i].Offered = i
			}
			keep := make([]int32, 0, n)
			for _, i := range r.Perm(n) {
				if r.IntN(3) > 0 {
					keep = append(keep, int32(i))
				}
			}
			want := make([]int, len(keep))
			for k, i := range keep {
				want[k] = rows[i].Offered
			}
			got := gatherInPlace(rows, keep)
			offered := make([]int, len(got))
			for k := range got {
				offered[k] = got[k].Offered
			}
			if !slices.Equal(offered, want) || cap(got) != len(keep) {
				t.Fatalf("n=%d keep=%v: got %v (cap %d), want %v", n, keep, offered, cap(got), want)
			}
		}
	}
}
