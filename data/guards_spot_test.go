package data

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
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

// TestOverlaySpotOnlyRowLastNotRanked: a CSV overlay's spot-only row for a
// provider without a spot market is dropped (ClearInventedSpot), and its
// warning says so; as the file's last row it stayed in the array the
// merge walks, so `offers --pricing spot` still ranked it at its spot
// price (a helper's review found the array; this is the file that shows it).
func TestOverlaySpotOnlyRowLastNotRanked(t *testing.T) {
	dir := t.TempDir()
	const gpu = `"{'Gpus': [{'Name': 'H100', 'Manufacturer': 'NVIDIA', 'Count': 1.0, 'MemoryInfo': {'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 81920}"`
	csv := "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n" +
		"gpu_1x_zz_a,H100,1.0,26.0,200.0,4.31,us-east-1," + gpu + ",\n" +
		"gpu_1x_zz_spotonly,H100,1.0,26.0,200.0,,us-east-1," + gpu + ",1.10\n"
	path := filepath.Join(dir, "lambda", "vms.csv")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	c, warns, err := LoadWith([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(warns, func(m model.Message) bool { return strings.Contains(m.String(), "1 spot price not loaded") }) {
		t.Errorf("no warning for the spot price dropped: %v", warns)
	}
	found := false
	for i := range c.Instances {
		in := &c.Instances[i]
		if in.Provider != "lambda" {
			continue
		}
		found = found || in.Type == "gpu_1x_zz_a"
		if in.Type == "gpu_1x_zz_spotonly" {
			t.Errorf("the spot-only row is in the catalog: %+v", in.Prices)
		}
		for _, p := range in.Prices {
			if p.SpotUSD > 0 {
				t.Errorf("lambda %s %s: spot $%g, but lambda has no spot market", in.Type, p.Region, p.SpotUSD)
			}
		}
	}
	if !found {
		t.Error("gpu_1x_zz_a, the row before, is not in the catalog")
	}
}
