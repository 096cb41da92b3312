package cli

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/advice"
)

// TestInferenceQuantizedAdviceRerun: a causal LM's inference advice
// names its flags as the training lines do ("serve int4-quantized weights
// (GPTQ/AWQ) (--precision int4)", "(--sequences N)", "(--tp N --gpus N)")
// and each re-runs to its figure. estimate --gpu plans vLLM serving for a
// causal LM, so the figure is the batch estimate's, estimate without
// --gpu (the workload advice sizes: model.Compute with no GPU). The lines
// named no flags before.
func TestInferenceQuantizedAdviceRerun(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	a, err := cat.Model("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	g, err := cat.GPU("l4")
	if err != nil {
		t.Fatal(err)
	}
	base := []string{"estimate", "--model", "llama-3.1-8b", "--task", "inference", "--sequences", "64", "--json"}
	type doc struct {
		Memory struct {
			PerGPUBytes struct{ Total int64 } `json:"per_gpu_bytes"`
		}
	}
	w := model.Workload{Model: *a, Settings: model.Settings{Task: model.TaskInference, Precision: model.BF16, SeqLen: 4096, ContextLen: 4096, Sequences: 64}}
	w.Defaults()
	e, err := model.Compute(w, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := runCLIJSON[doc](t, base); byteDiff(d.Memory.PerGPUBytes.Total, int64(e.Memory.Total())) > 3 {
		t.Fatalf("the test's workload is %.0f bytes, %v %d: it is not the job the flags ask", e.Memory.Total(), base, d.Memory.PerGPUBytes.Total)
	}
	seen := map[string]bool{}
	for _, l := range advice.FitAdviceOn(w, g, model.UsableBytes(g), cat.LargestNode(g)) {
		flags := advisedFlags(l.Change)
		if flags == nil {
			t.Errorf("%q names no flags", l.Change)
			continue
		}
		t.Logf("%s → %.2f GiB", l.Change, l.Total/model.GiB)
		seen[flags[0]] = true
		again, _ := runCLIJSON[doc](t, base, flags...)
		if byteDiff(again.Memory.PerGPUBytes.Total, int64(l.Total)) > 3 {
			t.Errorf("%q advised %.0f bytes; re-run with %v: %d bytes", l.Change, l.Total, flags, again.Memory.PerGPUBytes.Total)
		}
	}
	for _, f := range []string{"--precision", "--sequences", "--tp"} {
		if !seen[f] {
			t.Errorf("no inference line with %s; the case no longer tests it", f)
		}
	}
	if t.Failed() {
		return
	}
	// The int4 line says its flag.
	for _, l := range advice.FitAdviceOn(w, g, model.UsableBytes(g), cat.LargestNode(g)) {
		if strings.HasPrefix(l.Change, "serve int4") && !strings.HasSuffix(l.Change, "(GPTQ/AWQ) (--precision int4)") {
			t.Errorf("%q", l.Change)
		}
	}
}

func byteDiff(a, b int64) int64 {
	if a > b {
		return a - b
	}
	return b - a
}
