package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/serve"
)

// TestServeEstimateFormatRefusal: a GPU that cannot run the weight format
// is reported with why, without a split or memory it never had (no "TP 0 ×
// PP 0", no zero GiB); with the fallback allowed, the plan at the format
// vLLM loads carries a ↺ line saying so.
func TestServeEstimateFormatRefusal(t *testing.T) {
	a := model.Architecture{Key: "toy", Name: "Toy", Family: model.FamilyDecoder, Layers: 4, Hidden: 1024, Heads: 8, KVHeads: 8, FFN: 4096, Vocab: 32000}
	v100 := &model.GPU{Key: "v100-16gb", Name: "NVIDIA V100", Vendor: "nvidia", ComputeCapability: "7.0", MemoryGiB: 16, MemoryBandwidthGBps: 900, FP16TFLOPS: 125}
	w := model.Workload{Settings: model.Settings{Task: model.TaskInference, Precision: model.FP8}, Model: a}
	for _, tt := range []struct {
		allow       bool
		want, never []string
	}{
		{false, []string{"✗", "8 × NVIDIA V100\n", "has no fp8 (vLLM needs compute capability 7.5 for FP8 weight-only, 8.9 for W8A8; it is 7.0); it would serve fp16 weights"},
			[]string{"TP 0", "Memory", "0.00 GiB"}},
		{true, []string{"✓ serves 8 × NVIDIA V100: TP", "↺ NVIDIA V100 has no fp8", "served as fp16 weights", "Memory"}, []string{"TP 0"}},
	} {
		s := serve.Serving{WeightFormat: serve.WeightFP8, MaxModelLen: 1024, PromptTokens: 512, OutputTokens: 128, Concurrency: 4, AllowPrecisionFallback: tt.allow}
		p, err := serve.PlanServing(&a, s, serve.Offer{Name: "8 × V100", GPU: v100, GPUsPerNode: 8, Interconnect: "nvlink"})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteServeEstimate(&b, &Renderer{Profile: colorprofile.NoTTY, Dark: true}, &w, &p, nil); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, s := range tt.want {
			if !strings.Contains(out, s) {
				t.Errorf("fallback %v: no %q in\n%s", tt.allow, s, out)
			}
		}
		for _, s := range tt.never {
			if strings.Contains(out, s) {
				t.Errorf("fallback %v: %q in\n%s", tt.allow, s, out)
			}
		}
	}
}

// TestServeEstimateBorderline (walk36c): a plan that meets its targets at
// the estimate but not across its 90% range reads "~ serves, borderline"
// with why, as gpuplan plan marks the phase ~; one that meets them
// across the range reads "✓ serves".
func TestServeEstimateBorderline(t *testing.T) {
	a := model.Architecture{Family: model.FamilyDecoder, Layers: 4, Hidden: 1024, Heads: 8, KVHeads: 8, FFN: 4096, Vocab: 32000}
	h100 := &model.GPU{Key: "h100", Name: "NVIDIA H100", Vendor: "nvidia", ComputeCapability: "9.0", MemoryGiB: 80, MemoryBandwidthGBps: 3350, FP16TFLOPS: 989, BF16TFLOPS: 989}
	w := model.Workload{Settings: model.Settings{Task: model.TaskInference}, Model: a}
	p, err := serve.PlanServing(&a, serve.Serving{WeightFormat: serve.WeightBF16, MaxModelLen: 1024, PromptTokens: 512, OutputTokens: 128, Concurrency: 4},
		serve.Offer{Name: "1 × H100", GPU: h100, GPUsPerNode: 1})
	if err != nil || !p.Meets {
		t.Fatalf("%v; meets %v: %v", err, p.Meets, p.Reasons)
	}
	for _, tt := range []struct {
		borderline model.Message
		want       []string
		never      string
	}{
		{model.Message{}, []string{"✓ serves 1 × NVIDIA H100"}, "borderline"},
		{model.Msg("the slow end of TPOT's 90%% range, %.1f ms, is past the %.0f ms target", 107.9, 100.0),
			[]string{"~ serves, borderline: 1 × NVIDIA H100", "~ the slow end of TPOT's 90% range, 107.9 ms, is past the 100 ms target"}, "✓ serves"},
	} {
		q := p
		q.Borderline = tt.borderline
		var b bytes.Buffer
		if err := WriteServeEstimate(&b, &Renderer{Profile: colorprofile.NoTTY, Dark: true}, &w, &q, nil); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, s := range tt.want {
			if !strings.Contains(out, s) {
				t.Errorf("no %q in\n%s", s, out)
			}
		}
		if strings.Contains(out, tt.never) {
			t.Errorf("%q in\n%s", tt.never, out)
		}
	}
}
