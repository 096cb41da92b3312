package market

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// sortOrderByComparison is sortOrder as one comparison sort, the
// definition the integer sort must keep to.
func sortOrderByComparison(rows []Row, k Sort, trust bool) []int32 {
	type entry struct {
		key, price float64
		i          int32
		held       bool
	}
	order := make([]entry, len(rows))
	for i := range rows {
		order[i] = entry{marketKey(&rows[i], k), rows[i].USDPerHour, int32(i), !trust && rows[i].Held()}
	}
	slices.SortFunc(order, func(a, b entry) int {
		if a.held != b.held {
			return cmp.Compare(b2i(a.held), b2i(b.held))
		}
		if c := cmp.Compare(a.key, b.key); c != 0 {
			return c
		}
		if c := cmp.Compare(a.price, b.price); c != 0 {
			return c
		}
		ra, rb := &rows[a.i], &rows[b.i]
		if c := strings.Compare(ra.Instance.Provider, rb.Instance.Provider); c != 0 {
			return c
		}
		if c := strings.Compare(ra.Instance.Type, rb.Instance.Type); c != 0 {
			return c
		}
		if c := strings.Compare(ra.Region, rb.Region); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	out := make([]int32, len(order))
	for i, e := range order {
		out[i] = e.i
	}
	return out
}

// TestSortOrderIsTheComparison: the integer sort gives the comparison
// sort's order, over rows with tied, negative, signed-zero, infinite and
// NaN keys, held rows and repeated names, for every sort key.
func TestSortOrderIsTheComparison(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	prices := []float64{0, math.Copysign(0, -1), 1, 1.5, 2.25, 2.25 + 1e-12, 1e-9, 3e6, math.Inf(1), math.NaN(), -1}
	for _, n := range []int{0, 1, 2, 3, 17, 300, 5000} {
		insts := make([]model.Instance, n)
		gpus := make([]model.GPU, n)
		prs := make([]model.RegionPrice, n)
		rows := make([]Row, n)
		for i := range rows {
			insts[i] = model.Instance{
				Provider:  []string{"aws", "gcp", "lambda"}[r.IntN(3)],
				Type:      []string{"a", "b", "c", "d"}[r.IntN(4)],
				VCPUs:     r.IntN(4) * 8,
				MemoryGiB: prices[r.IntN(len(prices))],
				GPUCount:  1 + r.IntN(3),
			}
			gpus[i] = model.GPU{MemoryGiB: prices[r.IntN(len(prices))]}
			prs[i] = model.RegionPrice{Held: r.IntN(5) == 0}
			rows[i] = Row{Instance: &insts[i], GPU: &gpus[i], Region: []string{"eu", "us"}[r.IntN(2)], USDPerHour: prices[r.IntN(len(prices))], price: &prs[i]}
			if r.IntN(3) == 0 {
				rows[i].USDPerHour = r.Float64() * 10
			}
		}
		for _, k := range []Sort{ByPrice, ByGPUPrice, ByVRAMPrice, ByVCPUs, ByRAM, ByVRAM} {
			for _, trust := range []bool{false, true} {
				got, want := sortOrder(rows, k, trust), sortOrderByComparison(rows, k, trust)
				if !slices.Equal(got, want) {
					t.Fatalf("%d rows, sort %v, trust %v: integer sort differs from the comparison sort", n, k, trust)
				}
			}
		}
	}
}
