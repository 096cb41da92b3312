package market

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/market/markettest"
)

// bigMarket returns marketCatalog's GPUs with n instance types of
// regions regions each: n × regions offers, prices drawn so that some
// regions tie (the collapse has work to do).
func bigMarket(n, regions int) *model.Catalog {
	c := markettest.Catalog()
	r := rand.New(rand.NewPCG(7, 11))
	providers := []string{"aws", "gcp", "azure", "lambda", "oci", "vast", "nebius", "cudo"}
	prefixes := []string{"us-east-", "us-west-", "europe-west", "asia-east", "eu-north-"}
	counts := []int{1, 2, 4, 8}
	links := []string{"pcie", "nvlink", "nvswitch", ""}
	c.Instances = make([]model.Instance, n)
	for i := range c.Instances {
		g := &c.GPUs[r.IntN(len(c.GPUs))]
		k := counts[r.IntN(len(counts))]
		in := model.Instance{
			Provider: providers[r.IntN(len(providers))], Type: fmt.Sprintf("gen-%d.%dx", i, k), GPU: g.Key, GPUCount: k,
			VCPUs: k * (4 + r.IntN(28)), MemoryGiB: float64(k * (16 + r.IntN(240))), Interconnect: links[r.IntN(len(links))],
			Source: "generated", AsOf: "2026-11-30", Prices: make([]model.RegionPrice, regions),
		}
		base := float64(k) * (0.2 + 4*r.Float64())
		for j := range in.Prices {
			p := base * (1 + 0.05*float64(r.IntN(4))) // four price levels: regions tie
			in.Prices[j] = model.RegionPrice{Region: fmt.Sprintf("%s%d", prefixes[j%len(prefixes)], j), OnDemandUSD: p, SpotUSD: p * 0.4}
		}
		c.Instances[i] = in
	}
	c.Index()
	return c
}

// BenchmarkBrowse100k filters and sorts 100,000 offers (10,000 instance
// types × 10 regions) per iteration: one keystroke in the browse screen.
// A frame at 60 Hz is 16.7 ms.
func BenchmarkBrowse100k(b *testing.B) {
	c := bigMarket(10_000, 10)
	h100x8 := specs(b, c, "H100:8")
	cases := []struct {
		name string
		q    Query
	}{
		{"all/cheapest", Query{}},
		{"all/all-regions", Query{AllRegions: true}},
		{"all/sort-vram-price", Query{Sort: ByVRAMPrice}},
		{"keystroke/H100:8+europe-", Query{GPUs: h100x8, Regions: []string{"europe-"}}},
		{"keystroke/24GB..80GB+max$2", Query{VRAMGiB: Bounds{24, 80}, MaxUSDPerHour: 2}},
		{"group/gpu", Query{GroupBy: GroupGPU}},
		{"group/region", Query{GroupBy: GroupRegion}},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			rows := 0
			for b.Loop() {
				res, err := Browse(c, tc.q)
				if err != nil {
					b.Fatal(err)
				}
				rows = len(res.Rows)
			}
			b.ReportMetric(float64(rows), "rows")
		})
	}
}

// BenchmarkMarket100k is a keystroke of the browse screen on a kept
// Market (what it built before is reused) over the same 100,000 offers:
// each iteration steps to the case's next query. Compare with
// BenchmarkBrowse100k, the same work from nothing.
func BenchmarkMarket100k(b *testing.B) {
	c := bigMarket(10_000, 10)
	var sorts []Query
	for _, s := range Sorts {
		sorts = append(sorts, Query{Sort: s})
	}
	cases := []struct {
		name string
		qs   []Query
	}{
		{"edit-vram", []Query{{VRAMGiB: Bounds{Min: 40}}, {VRAMGiB: Bounds{40, 40}}}},
		{"edit-max-price", []Query{{MaxUSDPerHour: 2}, {MaxUSDPerHour: 25}}},
		{"sort-all", sorts},
		{"group-all-regions", []Query{{AllRegions: true}, {AllRegions: true, GroupBy: GroupGPU}, {AllRegions: true, GroupBy: GroupProvider}}},
		{"group-region", []Query{{GroupBy: GroupRegion}, {GroupBy: GroupRegion, Sort: ByGPUPrice}}},
	}
	for _, tc := range cases {
		// "browse" copies the rows (gpuplan offers); "view" does not
		// (the configurator's browser, a page at a time).
		for _, view := range []bool{false, true} {
			name := tc.name + "/browse"
			if view {
				name = tc.name + "/view"
			}
			b.Run(name, func(b *testing.B) {
				m := New(c)
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					q := tc.qs[i%len(tc.qs)]
					var err error
					if view {
						_, err = m.View(q)
					} else {
						_, err = m.Browse(q)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
