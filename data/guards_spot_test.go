package data

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// clearInventedSpotSimple is ClearInventedSpot as first written: every
// instance copied out and appended back, a map look-up each.
func clearInventedSpotSimple(markets map[string]bool, insts []model.Instance) ([]model.Instance, int) {
	n := 0
	out := insts[:0]
	for _, in := range insts {
		if !markets[in.Provider] && slices.ContainsFunc(in.Prices, func(p model.RegionPrice) bool { return p.SpotUSD > 0 }) {
			prices := make([]model.RegionPrice, 0, len(in.Prices))
			for _, p := range in.Prices {
				if p.SpotUSD > 0 {
					n++
					p.SpotUSD = 0
				}
				if p.OnDemandUSD > 0 || p.FlexStartUSD > 0 || p.CapacityBlockUSD > 0 || p.Reservation {
					prices = append(prices, p)
				}
			}
			if in.Prices = prices; len(prices) == 0 {
				continue
			}
		}
		out = append(out, in)
	}
	return out, n
}

// ClearInventedSpot moves instances only once one is dropped and looks a
// provider up once per run of it: what it returns, and what its input's
// array holds afterwards past what it returns, are the simple version's.
func TestClearInventedSpotAsSimple(t *testing.T) {
	markets := map[string]bool{"aws": true, "": true}
	r := rand.New(rand.NewPCG(1, 2))
	providers := []string{"aws", "lambda", "", "vast"}
	for round := range 300 {
		insts := make([]model.Instance, r.IntN(12))
		for i := range insts {
			in := &insts[i]
			in.Provider = providers[r.IntN(len(providers))]
			in.Type = string(rune('a' + i))
			for range r.IntN(3) {
				p := model.RegionPrice{Region: "r"}
				if r.IntN(2) == 0 {
					p.OnDemandUSD = 1
				}
				if r.IntN(2) == 0 {
					p.SpotUSD = 0.5
				}
				in.Prices = append(in.Prices, p)
			}
		}
		a, b := cloneInstances(insts), cloneInstances(insts)
		gotOut, gotN := ClearInventedSpot(markets, a)
		wantOut, wantN := clearInventedSpotSimple(markets, b)
		if gotN != wantN || !reflect.DeepEqual(gotOut, wantOut) || !reflect.DeepEqual(a, b) {
			t.Fatalf("round %d: got %d %+v (array %+v), want %d %+v (array %+v)", round, gotN, gotOut, a, wantN, wantOut, b)
		}
	}
}

func cloneInstances(insts []model.Instance) []model.Instance {
	out := slices.Clone(insts)
	for i := range out {
		out[i].Prices = slices.Clone(out[i].Prices)
	}
	return out
}
