package advice

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// TestCheckFitOOMChance: a borderline fit carries the chance of running
// out at its usable memory; a fitting one none.
func TestCheckFitOOMChance(t *testing.T) {
	w := model.Workload{Settings: model.Settings{Task: model.TaskLoRA, MicroBatch: 1, SeqLen: 2048}, Model: modeltest.Llama2_7B}
	e, err := model.Compute(w, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		usable float64
		want   model.FitVerdict
	}{
		{(e.Memory.Total() + e.MemoryBand[1]) / 2, model.VerdictBorderline},
		{e.MemoryBand[1] * 1.01, model.VerdictFits},
	} {
		g := &model.GPU{Name: "G", MemoryGiB: tt.usable / (1 - model.FitMargin) / model.GiB, ComputeCapability: "8.0", BF16TFLOPS: 100}
		f := CheckFit(&e, g)
		if f.Verdict != tt.want {
			t.Fatalf("usable %.4g B: verdict %q, want %q", tt.usable, f.Verdict, tt.want)
		}
		// The chance of running out is that of needing more than all the
		// driver exposes (model.OOMBytes), not more than the usable
		// memory the verdict keeps after model.FitMargin.
		want := 0.0
		if tt.want == model.VerdictBorderline {
			want = e.OOMChance(g.MemoryBytes())
		}
		if f.OOMBytes != g.MemoryBytes() || f.OOMChance != want || tt.want == model.VerdictBorderline && (want > e.OOMChance(f.UsableBytes) || want >= 0.95) {
			t.Errorf("%s: OOM chance %.3f at %.4g B, want %.3f at %.4g B (the usable memory's %.3f)", tt.want, f.OOMChance, f.OOMBytes,
				want, g.MemoryBytes(), e.OOMChance(f.UsableBytes))
		}
	}
}

// TestCheckFitRefusesPureBF16: pure bf16 training on a GPU without bf16
// (V100, compute capability 7.0) cannot run, whatever the memory: there is
// no fallback (GPU.RunPrecision), as Recommend rejects it, so CheckFit says
// so rather than "fits"; amp-fp16 on the same GPU, and pure bf16 on an
// A100, are judged on memory alone.
func TestCheckFitRefusesPureBF16(t *testing.T) {
	v100 := modeltest.V100
	a100 := model.GPU{Key: "a100", Name: "A100", Vendor: "nvidia", ComputeCapability: "8.0", MemoryGiB: 80, FP16TFLOPS: 312, BF16TFLOPS: 312}
	small := model.Architecture{Key: "small", Family: model.FamilyDecoder, Layers: 2, Hidden: 256, Heads: 4, FFN: 1024, Vocab: 1000, MaxPositions: 512}
	for _, tt := range []struct {
		name    string
		g       *model.GPU
		p       model.Precision
		refused bool
	}{
		{"pure bf16 on V100", &v100, model.BF16, true},
		{"amp-fp16 on V100", &v100, model.AMPFP16, false},
		{"pure bf16 on A100", &a100, model.BF16, false},
	} {
		w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, Precision: tt.p, MicroBatch: 1, SeqLen: 128}, Model: small}
		e, err := model.Compute(w, tt.g)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		f := CheckFit(&e, tt.g)
		if got := !f.Refused.IsZero(); got != tt.refused || f.Fits == tt.refused || (f.Verdict == model.VerdictCannotRun) != tt.refused {
			t.Errorf("%s: refused %v (%q), fits %v, verdict %s; want refused %v", tt.name, got, f.Refused.String(), f.Fits, f.Verdict, tt.refused)
		}
		if tt.refused && len(f.Advice) > 0 {
			t.Errorf("%s: memory advice %v for a GPU that cannot run the precision", tt.name, f.Advice)
		}
	}
}
