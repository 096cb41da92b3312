package report

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/advice"
	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

func TestParetoStep(t *testing.T) {
	tests := []struct {
		p, next decide.TimeCost
		want    string
	}{
		{decide.TimeCost{Hours: 5, USD: 110}, decide.TimeCost{Hours: 10, USD: 100}, "2.0× faster for +10%"},
		{decide.TimeCost{Hours: 1, USD: 100.5}, decide.TimeCost{Hours: 3, USD: 100}, "3.0× faster for +0.5%"},
		{decide.TimeCost{Hours: 2, USD: 300}, decide.TimeCost{Hours: 3, USD: 100}, "1.5× faster for +200%"},
		{decide.TimeCost{Hours: 2, USD: 3}, decide.TimeCost{Hours: 3, USD: 0}, ""},
	}
	for _, tt := range tests {
		if got := ParetoStep(tt.p, tt.next); got != tt.want {
			t.Errorf("ParetoStep(%v, %v) = %q, want %q", tt.p, tt.next, got, tt.want)
		}
	}
}

func TestSavingsList(t *testing.T) {
	tests := []struct {
		name    string
		savings []advice.Saving
		want    []string // lines, in order
	}{
		{"savings first, no-difference and dearer hidden", []advice.Saving{
			{Change: "pay spot instead of on-demand", SavingUSD: 30, SavingPct: 75},
			{Change: "use QLoRA (4-bit base)", SavingUSD: 4, SavingPct: 10},
			{Change: "rent in us-east4", SavingUSD: 0},
			{Change: "run on a100-80gb", SavingUSD: -3},
		}, []string{"pay spot instead of on-demand", "saves $30.00 (75%)", "use QLoRA (4-bit base)", "saves $4.00 (10%)"}},
		// The dearer changes name no saving ("the nearest: rent in tor1 …
		// costs $1,022 more", fresh-user walk): the sentence alone.
		{"nothing saves: said alone, dearer and no-difference hidden", []advice.Saving{
			{Change: "rent in us-east4", SavingUSD: 0},
			{Change: "run on a100-80gb", SavingUSD: -3},
			{Change: "pay reserved-1y instead of on-demand", SavingUSD: -40000},
		}, []string{"no single change saves money\n"}},
	}
	for _, tt := range tests {
		got := SavingsList(tt.savings, 6)
		rest := got
		for _, w := range tt.want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("%s: %q missing or out of order in\n%s", tt.name, w, got)
				break
			}
			rest = rest[i+len(w):]
		}
		if strings.Contains(got, "us-east4") {
			t.Errorf("%s: a change with no difference is listed:\n%s", tt.name, got)
		}
		if strings.Contains(got, "more") || strings.Contains(got, "nearest") {
			t.Errorf("%s: a dearer change is listed:\n%s", tt.name, got)
		}
	}
}

// TestSavedPct: a saving's percentage keeps a small saving visible ($10 of
// $3,102 is 0.3%, not 0%) and rounds large ones whole, but for one that
// leaves a cost: $1,028 of a $1.2M job is 99.9%, not 100%.
func TestSavedPct(t *testing.T) {
	for _, c := range []struct {
		pct  float64
		want string
	}{
		{60, "60%"}, {1, "1%"}, {0.96, "1%"}, {10.12 / 3102 * 100, "0.3%"}, {0.1, "0.1%"}, {0.099, "<0.1%"}, {0.004, "<0.1%"},
		{99.4, "99%"}, {1195254.81 / 1196282.37 * 100, "99.9%"}, {99.96, ">99.9%"}, {100, "100%"},
	} {
		if got := SavedPct(c.pct); got != c.want {
			t.Errorf("SavedPct(%g) = %q, want %q", c.pct, got, c.want)
		}
	}
}

// TestUsableOf: the usable memory is explained from the figure it is taken
// from: the vendor's GiB, or the memory the driver shows when the catalog
// has it below that (B200: 180 GiB, 179.06 visible), less the 5% margin.
func TestUsableOf(t *testing.T) {
	b200 := &model.GPU{Name: "B200", MemoryGiB: 180, UsableMemoryMiB: 179.06 * 1024}
	a100 := &model.GPU{Name: "A100", MemoryGiB: 40}
	if got, want := UsableOfIn(nil, b200), "180 GiB, 179.06 GiB visible to the driver, less the 5% margin"; got != want {
		t.Errorf("B200: %q, want %q", got, want)
	}
	if got, want := UsableOfIn(nil, a100), "40 GiB less the 5% margin"; got != want {
		t.Errorf("A100: %q, want %q", got, want)
	}
}

// TestOfferGPUsMarksFallback: an offer whose GPU runs a fallback of the
// precision asked for says which in its GPUs cell, in every table built
// from it (the recommend table, the configurator's offers, serving's
// offers list, whose fallback is the weight format vLLM loads).
func TestOfferGPUsMarksFallback(t *testing.T) {
	g := &model.GPU{Key: "v100-16gb"}
	in := &model.Instance{GPUCount: 8}
	o := model.Offer{Instance: in, GPU: g, GPUs: 8, Instances: 1}
	if got := OfferGPUs(&o); got != "8×v100-16gb" {
		t.Errorf("no fallback: %q", got)
	}
	o.Asked, o.Fallback = model.Precision("fp8"), model.Precision("fp16")
	if got := OfferGPUs(&o); got != "8×v100-16gb ↺fp16" {
		t.Errorf("fallback: %q, want 8×v100-16gb ↺fp16", got)
	}
}

// TestSpotWarningNoCheckpoint: when an offer's spot plan takes no
// checkpoint (the job is shorter than the checkpoint interval), its
// "! spot" warning says an interruption restarts the job, as its Spot
// line does, not "checkpoint often" (fresh-user walk: both under one
// best), in both languages and in JSON's warnings; a plan that
// checkpoints keeps the generic advice.
func TestSpotWarningNoCheckpoint(t *testing.T) {
	g := &model.GPU{Key: "b300", Name: "B300", MemoryGiB: 270}
	inst := &model.Instance{Provider: "verda", Type: "2B300.60V", GPU: "b300", GPUCount: 2}
	rec := &model.Recommendation{Offers: []model.Offer{{Instance: inst, GPU: g, Region: "FIN-03", Instances: 1, GPUs: 2, Pricing: model.Spot, Estimate: &model.Estimate{}}}}
	for _, tt := range []struct {
		writes int
		want   string
		wantZH string
	}{
		{0, "spot: can be reclaimed at short notice; the job takes no checkpoint, so an interruption restarts it", "竞价实例：可能随时被回收；此作业不保存检查点，一旦被中断就从头重跑"},
		{4, "spot: can be reclaimed at short notice; checkpoint often and resume", "竞价实例：可能随时被回收；请频繁保存检查点，以便断点续训"},
	} {
		d := &Decisions{Offers: []decide.Decision{{Spot: &decide.SpotEstimate{InterruptionsPerHour: 0.0003, CheckpointWrites: tt.writes}}}}
		msgs := d.spotWarnings(0, rec.Offers[0].WarningMessages())
		en := i18n.New(language.English).Messages(msgs)
		zh := i18n.New(language.SimplifiedChinese).Messages(msgs)
		if !slices.Contains(en, tt.want) || !slices.Contains(zh, tt.wantZH) {
			t.Errorf("%d checkpoint writes: warnings %q / %q, want %q / %q among them", tt.writes, en, zh, tt.want, tt.wantZH)
		}
		j := NewRecommendJSON(rec, nil, 0)
		j.AddDecisions(rec, d)
		if !slices.Contains(j.Offers[0].Warnings, tt.want) {
			t.Errorf("%d checkpoint writes: JSON warnings %q, want %q among them", tt.writes, j.Offers[0].Warnings, tt.want)
		}
	}
}
