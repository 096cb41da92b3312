package data

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

func TestPeerGuards(t *testing.T) {
	// Lambda-like: 8×H100 at $31.92 ($3.99 per GPU-hour), 1×H100 at
	// $3.29 (its cheapest, spot $2.00), a CPU type and a retired 1×H100
	// at $0.10 that must not serve as a peer.
	base := &model.Catalog{Instances: []model.Instance{
		{Provider: "p", Type: "g8", GPU: "h100-sxm", GPUCount: 8, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 31.92}, {Region: "r2", OnDemandUSD: 35}}},
		{Provider: "p", Type: "g1", GPU: "h100-sxm", GPUCount: 1, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 3.29, SpotUSD: 2}}},
		{Provider: "p", Type: "old", GPU: "h100-sxm", GPUCount: 1, Retired: "2025-01-01", Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 0.1}}},
		{Provider: "p", Type: "a8", GPU: "a100-80gb", GPUCount: 8, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 14.32}}},
		{Provider: "p", Type: "cpu", Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 1}}},
	}}
	h100 := func(typ string, count int, od, spot float64) model.Instance {
		return model.Instance{Provider: "p", Type: typ, GPU: "h100-sxm", GPUCount: count, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: od, SpotUSD: spot}}}
	}
	tests := []struct {
		name string
		in   model.Instance
		want string // the guard's message, "" for none
	}{
		// The attack: $3.30 / 8 = $0.4125 < 0.4 × $3.29 = $1.316.
		{"new type at a tenth", h100("g8b", 8, 3.30, 0),
			"p/g8b r1: on-demand $0.4125 per GPU-hour is under 40% of the $3.29 per GPU-hour p asks for the same h100-sxm in g1: a fake or mistyped price?"},
		// 0.4 × 3.29 = 1.316 per GPU-hour, × 8 = 10.528.
		{"new type at 40% exactly is kept", h100("g8b", 8, 10.528, 0), ""},
		{"new type just under 40%", h100("g8b", 8, 10.52, 0),
			"p/g8b r1: on-demand $1.31 per GPU-hour is under 40% of the $3.29 per GPU-hour p asks for the same h100-sxm in g1: a fake or mistyped price?"},
		// g1 is compared with g8, the cheapest other type: $3.99.
		{"known type against the others", h100("g1", 1, 1.5, 0),
			"p/g1 r1: on-demand $1.50 per GPU-hour is under 40% of the $3.99 per GPU-hour p asks for the same h100-sxm in g8: a fake or mistyped price?"},
		{"an unchanged price is not checked", model.Instance{Provider: "p", Type: "g1", GPU: "h100-sxm", GPUCount: 1, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 3.29, SpotUSD: 2}}}, ""},
		// Spot against spot: 0.1 × $2.00 = $0.20.
		{"spot at a twentieth", h100("g1b", 1, 3, 0.1),
			"p/g1b r1: spot $0.1000 per GPU-hour is under 10% of the $2.00 per GPU-hour p asks for the same h100-sxm in g1: a fake or mistyped price?"},
		{"spot at a fifth is kept", h100("g1b", 1, 3, 0.4), ""},
		// Attack test 4, N2: a spot price where the provider sells the GPU
		// on spot in no other type was not compared at all. a100-80gb: a8's
		// on-demand $1.79 per GPU-hour × 0.05 = $0.0895.
		{"spot with no spot peer, against on-demand", model.Instance{Provider: "p", Type: "a1", GPU: "a100-80gb", GPUCount: 1, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 1.8, SpotUSD: 0.08}}},
			"p/a1 r1: spot $0.0800 per GPU-hour is under 5% of the on-demand $1.79 per GPU-hour p asks for the same a100-80gb in a8, and it sells that GPU on spot in no other type: a fake or mistyped price?"},
		{"spot with no spot peer above 5% is kept", model.Instance{Provider: "p", Type: "a1", GPU: "a100-80gb", GPUCount: 1, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 1.8, SpotUSD: 0.09}}}, ""},
		{"another GPU has its own peers", model.Instance{Provider: "p", Type: "a1", GPU: "a100-80gb", GPUCount: 1, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 0.5}}},
			"p/a1 r1: on-demand $0.5000 per GPU-hour is under 40% of the $1.79 per GPU-hour p asks for the same a100-80gb in a8: a fake or mistyped price?"},
		{"another provider is not compared", model.Instance{Provider: "q", Type: "g8b", GPU: "h100-sxm", GPUCount: 8, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 3.3}}}, ""},
		{"a GPU the provider has no other type of", model.Instance{Provider: "p", Type: "l4", GPU: "l4", GPUCount: 1, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 0.01}}}, ""},
		{"a CPU type", model.Instance{Provider: "p", Type: "cpu2", Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 0.01}}}, ""},
	}
	for _, tt := range tests {
		got := PeerGuards(base, []model.Instance{tt.in})
		switch {
		case tt.want == "" && len(got) > 0:
			t.Errorf("%s: %v, want none", tt.name, got)
		case tt.want != "" && (len(got) != 1 || got[0].String() != tt.want || got[0].Rule != "below-peer" || !PriceRule(got[0].Rule)):
			t.Errorf("%s: %v\nwant %s", tt.name, got, tt.want)
		}
	}
}

// The fractions sit below the real spread: the cheapest price per GPU-hour
// of every offered type of the embedded catalog, over the cheapest of the
// same provider's other types of that GPU (the measurement cited at
// peerOnDemandFraction), and no type as a new price list of itself is flagged.
func TestPeerFractionsBelowEmbeddedSpread(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	low := [2]float64{1, 1}
	type key struct{ provider, gpu string }
	cheapest := map[key]map[string][2]float64{}
	for i := range c.Instances {
		in := &c.Instances[i]
		if !in.Offered() || in.GPUCount <= 0 || in.PriceCurrency() != "USD" {
			continue
		}
		k := key{in.Provider, in.GPU}
		if cheapest[k] == nil {
			cheapest[k] = map[string][2]float64{}
		}
		m := cheapest[k][in.Type]
		for _, p := range in.Prices {
			for mode, usd := range [2]float64{p.OnDemandUSD, p.SpotUSD} {
				if per := usd / float64(in.GPUCount); usd > 0 && (m[mode] == 0 || per < m[mode]) {
					m[mode] = per
				}
			}
		}
		cheapest[k][in.Type] = m
	}
	for _, types := range cheapest {
		for typ, m := range types {
			for mode := range 2 {
				other := 0.0
				for t2, m2 := range types {
					if t2 != typ && m2[mode] > 0 && (other == 0 || m2[mode] < other) {
						other = m2[mode]
					}
				}
				if m[mode] > 0 && other > 0 {
					low[mode] = min(low[mode], m[mode]/other)
				}
			}
		}
	}
	// Spot over the on-demand peer, the comparison made when no other type
	// of that GPU is sold on spot.
	spotOD := 1.0
	for _, types := range cheapest {
		for typ, m := range types {
			other := 0.0
			for t2, m2 := range types {
				if t2 != typ && m2[0] > 0 && (other == 0 || m2[0] < other) {
					other = m2[0]
				}
			}
			if m[1] > 0 && other > 0 {
				spotOD = min(spotOD, m[1]/other)
			}
		}
	}
	t.Logf("lowest same-provider same-GPU ratio: on demand %.3f, spot %.3f, spot over on-demand %.3f", low[0], low[1], spotOD)
	if peerSpotOnDemandFraction >= spotOD {
		t.Errorf("peerSpotOnDemandFraction %v flags the embedded catalog's own spot %.3f", peerSpotOnDemandFraction, spotOD)
	}
	if peerOnDemandFraction >= low[0] || peerSpotFraction >= low[1] {
		t.Errorf("fractions %v/%v flag the embedded catalog's own spread %.3f/%.3f", peerOnDemandFraction, peerSpotFraction, low[0], low[1])
	}
	// Every offered type priced 1% lower than the catalog lists it (so
	// every price counts as changed) passes.
	var insts []model.Instance
	for _, in := range c.Instances {
		if !in.Offered() {
			continue
		}
		in.Prices = append([]model.RegionPrice(nil), in.Prices...)
		for i := range in.Prices {
			in.Prices[i].OnDemandUSD *= 0.99
			in.Prices[i].SpotUSD *= 0.99
		}
		insts = append(insts, in)
	}
	if got := PeerGuards(c, insts); len(got) > 0 {
		t.Errorf("%d embedded prices flagged, e.g. %v", len(got), got[0])
	}
}
