package plan

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/serve"
)

// TestPinnedServeNoteUnservableGPU: a serving phase pinned to an
// instance type whose GPU vLLM does not run on (serve.Unservable) is
// marked ✗ with the reason estimate --phase and export --phase refuse it
// with. serve.Offers leaves such GPUs out, so the verdict was zero and
// gpuplan plan priced the phase unmarked (walk50: Qwen3 1.7B on gcp
// n1-standard-8+2xP100, compute capability 6.0, at $1,102 a month). A GPU
// vLLM serves on keeps PinnedServing's verdict (here none: Qwen3 1.7B at 4
// requests fits one L4 with room).
func TestPinnedServeNoteUnservableGPU(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	a, err := cat.Model("qwen3-1.7b")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, provider, instance, region string
		want                             string // "" for no verdict
	}{
		{"2 × P100 (6.0): below vLLM's 7.0", "gcp", "n1-standard-8+2xP100", "us-central1", "cannot serve with vLLM on its pinned offer: vLLM needs compute capability 7.0 or newer"},
		{"1 × L4 (8.9): serves", "gcp", "g2-standard-8", "us-central1", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ph := Phase{Name: "serve", Provider: tc.provider, Instance: tc.instance, Region: tc.region, Pricing: model.OnDemand, Instances: 1, Months: 1}
			w := model.Workload{Settings: model.Settings{Task: model.TaskInference}, Model: *a}
			sc := PhaseScenarioFor(&ph, w, model.Query{}, cat).WithServing(serve.Serving{PromptTokens: 1000, OutputTokens: 200, Concurrency: 4})
			got, borderline, _ := sc.PinnedServeNote(cat, tc.instance, 1)
			if borderline || tc.want == "" && !got.IsZero() || tc.want != "" && !strings.HasPrefix(got.String(), tc.want) {
				t.Errorf("PinnedServeNote() = %q (borderline %v), want %q", got.String(), borderline, tc.want)
			}
		})
	}
}
