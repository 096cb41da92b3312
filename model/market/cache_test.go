package market

import (
	"reflect"
	"sync"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/market/markettest"
)

// TestMarketReuse browses one Market through a sequence of queries, as a
// screen does per keystroke (sorts, groups, price limits, more region
// filters than it keeps bases), and checks each result against a fresh
// Browse: what the Market keeps must never show in a result.
func TestMarketReuse(t *testing.T) {
	for _, c := range []*model.Catalog{markettest.Catalog(), bigMarket(300, 6)} {
		h100 := specs(t, c, "H100")
		qs := []Query{
			{},
			{Sort: ByGPUPrice},
			{Sort: ByVRAM, GroupBy: GroupGPU},
			{AllRegions: true, GroupBy: GroupProvider, Sort: ByVCPUs},
			{GroupBy: GroupRegion, Sort: ByRAM},
			{GroupBy: GroupRegion, MaxUSDPerHour: 5},
			{MaxUSDPerHour: 3.7},
			{AllRegions: true, MaxUSDPerHour: 100},
			{GPUs: h100, Regions: []string{"us-"}},
			{GPUs: h100, Regions: []string{"us-west-"}, AllRegions: true},
			{Regions: []string{"europe-"}, Sort: ByVRAMPrice},
			{Regions: []string{"us-"}, Pricing: model.Spot},
			{Pricing: model.Reserved1y, Retired: true},
			{VRAMGiB: Bounds{24, 80}, Sort: ByGPUPrice},
			{Interconnect: LinkNVLink, GroupBy: GroupGPU},
			{Arch: model.ArchARM},
			{}, // back to the first base, evicted by now
			{Sort: ByGPUPrice, MaxUSDPerHour: 2.5},
		}
		// A limit equal to a region's price keeps that region (≤): the
		// Offered count within the limit at its boundary.
		for _, rp := range c.Instances[len(c.Instances)-1].Prices {
			if rp.OnDemandUSD > 0 {
				qs = append(qs, Query{MaxUSDPerHour: rp.OnDemandUSD})
			}
		}
		m := New(c)
		for i, q := range qs {
			got, err := m.Browse(q)
			if err != nil {
				t.Fatalf("query %d: %v", i, err)
			}
			want, err := Browse(c, q)
			if err != nil {
				t.Fatalf("query %d: %v", i, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("query %d %+v: a reused Market gives\n%s\nwant\n%s", i, q, rowNames(got.Rows), rowNames(want.Rows))
			}
			// View is Browse without the copy: the same rows, groups and query.
			v, err := m.View(q)
			if err != nil {
				t.Fatalf("query %d: View: %v", i, err)
			}
			rows := make([]Row, v.Len())
			for k := range rows {
				rows[k] = *v.Row(k)
			}
			if !reflect.DeepEqual(Result{Query: v.Query, Rows: rows, Groups: v.Groups}, want) {
				t.Fatalf("query %d %+v: View gives\n%s\nwant\n%s", i, q, rowNames(rows), rowNames(want.Rows))
			}
		}
		if len(m.bases) > marketBases {
			t.Errorf("the Market keeps %d bases, want at most %d", len(m.bases), marketBases)
		}
	}
}

// TestMarketConcurrent browses one Market from several goroutines, as
// overlapping browse commands do (run with -race).
func TestMarketConcurrent(t *testing.T) {
	c := bigMarket(200, 4)
	m := New(c)
	qs := []Query{{}, {Sort: ByVRAM}, {AllRegions: true, GroupBy: GroupGPU}, {Regions: []string{"us-"}}}
	var wg sync.WaitGroup
	errs := make([]error, 8)
	got := make([]Result, 8)
	for i := range 8 {
		wg.Go(func() { got[i], errs[i] = m.Browse(qs[i%len(qs)]) })
	}
	wg.Wait()
	for i := range 8 {
		want, err := Browse(c, qs[i%len(qs)])
		if errs[i] != nil || err != nil {
			t.Fatal(errs[i], err)
		}
		if !reflect.DeepEqual(got[i], want) {
			t.Errorf("goroutine %d: the concurrent browse differs from a fresh one", i)
		}
	}
}
