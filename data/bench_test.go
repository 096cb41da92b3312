package data_test

import (
	"path/filepath"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/data/synthcsv"
	"github.com/gpuplan/gpuplan/model"
)

func BenchmarkLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := data.Load(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRecommendEmbedded(b *testing.B) {
	cat, w := embeddedLlamaQLoRA(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := model.Recommend(w, cat, model.Query{AutoGPUs: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadWithCSV100k loads the embedded catalog with a generated
// 100,000-row SkyPilot aws/vms.csv overlay (22 MB, every row its own
// instance type) and ranks it, as `recommend --catalog .../aws/vms.csv` does.
func BenchmarkLoadWithCSV100k(b *testing.B) {
	p := filepath.Join(b.TempDir(), "aws", "vms.csv")
	if err := synthcsv.WriteFile(p, 100_000, 7); err != nil {
		b.Fatal(err)
	}
	home := b.TempDir() // no user overlays
	b.Setenv("XDG_CONFIG_HOME", home)
	b.Setenv("XDG_DATA_HOME", home)
	w := llamaQLoRA(b)
	b.ReportAllocs()
	for b.Loop() {
		cat, _, err := data.LoadWith([]string{p})
		if err != nil {
			b.Fatal(err)
		}
		if len(cat.Instances) < 100_000 {
			b.Fatalf("%d instances, want ≥ 100000", len(cat.Instances))
		}
		if _, err := model.Recommend(w, cat, model.Query{AutoGPUs: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadHeldOverlay loads the embedded catalog with a generated
// overlay of 1,000 RunPod types in 100 regions no catalog knows (7 MB,
// synthcsv.WriteUnknownRegions, walk45c's shape): about half its prices
// are held as possibly fake, each with a finding, and every price gets
// an unknown-region one (docs/speed.md perf45, guardmem). Run with
// -benchmem: the findings' memory is the load's allocations; the peak is
// measured on the process (docs/speed.md).
func BenchmarkLoadHeldOverlay(b *testing.B) {
	p := filepath.Join(b.TempDir(), "runpod", "vms.csv")
	if err := synthcsv.WriteUnknownRegionsFile(p, 1000, 100, 7); err != nil {
		b.Fatal(err)
	}
	home := b.TempDir() // no user overlays
	b.Setenv("XDG_CONFIG_HOME", home)
	b.Setenv("XDG_DATA_HOME", home)
	b.ReportAllocs()
	held := 0
	for b.Loop() {
		cat, _, err := data.LoadWith([]string{p})
		if err != nil {
			b.Fatal(err)
		}
		held = 0
		for i := range cat.Instances {
			for _, pr := range cat.Instances[i].Prices {
				if pr.Held {
					held++
				}
			}
		}
	}
	if held < 40_000 {
		b.Fatalf("%d prices held, want about half of 100,000", held)
	}
	b.ReportMetric(float64(held), "held")
}

func llamaQLoRA(b *testing.B) model.Workload {
	_, w := embeddedLlamaQLoRA(b)
	return w
}

// embeddedLlamaQLoRA is the embedded catalog and a Llama 3.1 8B QLoRA
// job with a 1B-token dataset on it.
func embeddedLlamaQLoRA(tb testing.TB) (*model.Catalog, model.Workload) {
	cat, err := data.Load()
	if err != nil {
		tb.Fatal(err)
	}
	a, err := cat.Model("llama-3.1-8b")
	if err != nil {
		tb.Fatal(err)
	}
	return cat, model.Workload{Settings: model.Settings{Task: model.TaskQLoRA, MicroBatch: 2, SeqLen: 2048, DatasetTokens: 1e9}, Model: *a}
}

// TestRecommendAllocsPerPrice guards the scan's offers staying off the
// heap: a Recommend over the embedded catalog allocates for the offers
// it keeps and the estimates it makes, not for each price it looks at.
// A pointer to the offer being weighed that reaches a function value
// (Query.SpotView, which escape analysis cannot see into) moved every
// offer weighed to the heap: about 3,000 allocations for 2,212 prices on
// demand, against 483 now.
func TestRecommendAllocsPerPrice(t *testing.T) {
	cat, w := embeddedLlamaQLoRA(t)
	for _, q := range []model.Query{
		{AutoGPUs: true},
		{AutoGPUs: true, Pricing: model.Spot, SpotView: func(o *model.Offer) (model.Offer, bool) { return *o, false }},
	} {
		rec, err := model.Recommend(w, cat, q)
		if err != nil {
			t.Fatal(err)
		}
		n := testing.AllocsPerRun(3, func() {
			if _, err := model.Recommend(w, cat, q); err != nil {
				t.Fatal(err)
			}
		})
		if limit := float64(rec.Considered) / 2; n > limit {
			t.Errorf("%s: %.0f allocations for %d prices considered, %d offers kept; want at most %.0f", q.Pricing, n, rec.Considered, len(rec.Offers), limit)
		}
		t.Logf("%s: %.0f allocations, %d prices considered, %d offers kept", q.Pricing, n, rec.Considered, len(rec.Offers))
	}
}
