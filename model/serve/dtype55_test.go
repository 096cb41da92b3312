package serve_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/serve"
)

// gemma3 is a small decoder of vLLM's model type gemma3_text, which vLLM
// refuses float16 for; llamaLike is the same shape of a type it does not.
var (
	gemma3    = &model.Architecture{Family: model.FamilyDecoder, ModelType: "gemma3_text", Layers: 4, Hidden: 1024, Heads: 8, KVHeads: 4, FFN: 4096, Vocab: 32000}
	llamaLike = &model.Architecture{Family: model.FamilyDecoder, ModelType: "llama", Layers: 4, Hidden: 1024, Heads: 8, KVHeads: 4, FFN: 4096, Vocab: 32000}
)

// TestServeFormatForFP16Refused (walk55): for a model type in vLLM's
// _FLOAT16_NOT_SUPPORTED_MODELS (vllm/config/model.py) on a GPU without
// bf16, --dtype auto resolves to float32 (_resolve_auto_dtype drops
// float16 from the platform's [float16, float32]), so the 16-bit
// checkpoint is served in fp32, fp8 falls back to it, bitsandbytes runs
// in float32, and AWQ, GPTQ and int8 (no float32 activations) are
// refused; a GPU with bf16 and a model of another type are unchanged.
func TestServeFormatForFP16Refused(t *testing.T) {
	for _, tt := range []struct {
		name    string
		a       *model.Architecture
		f       serve.WeightFormat
		g       *model.GPU
		run     serve.WeightFormat
		why     string
		ok, f32 bool
	}{
		{"gemma3 bf16 on T4: fp32", gemma3, serve.WeightBF16, fmtT4, serve.WeightFP32,
			"T4 has no bf16 (vLLM needs compute capability 8.0 for bfloat16; it is 7.5) and vLLM refuses float16 for gemma3_text models (numerical instability)", true, true},
		{"gemma3 bf16 on V100: fp32", gemma3, serve.WeightBF16, fmtV100, serve.WeightFP32,
			"V100 has no bf16 (vLLM needs compute capability 8.0 for bfloat16; it is 7.0) and vLLM refuses float16 for gemma3_text models (numerical instability)", true, true},
		{"gemma3 bf16 on A100: bf16", gemma3, serve.WeightBF16, fmtA100, serve.WeightBF16, "", true, false},
		{"gemma3 fp8 on T4: fp8 takes no float32 activations, the checkpoint in fp32", gemma3, serve.WeightFP8, fmtT4, serve.WeightFP32,
			"T4 has no bf16 and vLLM refuses float16 for gemma3_text models (numerical instability): vLLM runs the model in float32 there, and its fp8 kernels take bfloat16 or float16 activations", true, true},
		{"gemma3 fp8 on V100: no fp8, the checkpoint in fp32", gemma3, serve.WeightFP8, fmtV100, serve.WeightFP32,
			"V100 has no fp8 (vLLM needs compute capability 7.5 for FP8 weight-only, 8.9 for W8A8; it is 7.0), and vLLM refuses float16 for gemma3_text models (numerical instability)", true, true},
		{"gemma3 fp8 on H100: fp8", gemma3, serve.WeightFP8, fmtH100, serve.WeightFP8, "", true, false},
		{"gemma3 AWQ on T4: refused", gemma3, serve.WeightAWQ, fmtT4, serve.WeightAWQ,
			"T4 has no bf16 and vLLM refuses float16 for gemma3_text models (numerical instability): vLLM runs the model in float32 there, and its awq kernels take no float32 activations", false, false},
		{"gemma3 GPTQ on V100: refused", gemma3, serve.WeightGPTQ, fmtV100, serve.WeightGPTQ,
			"V100 has no bf16 and vLLM refuses float16 for gemma3_text models (numerical instability): vLLM runs the model in float32 there, and its gptq kernels take no float32 activations", false, false},
		{"gemma3 bitsandbytes on T4: runs, in float32", gemma3, serve.WeightBNB, fmtT4, serve.WeightBNB, "", true, true},
		{"llama bf16 on T4: fp16, as before", llamaLike, serve.WeightBF16, fmtT4, serve.WeightFP16,
			"T4 has no bf16 (vLLM needs compute capability 8.0 for bfloat16; it is 7.5)", true, false},
		{"llama AWQ on T4: runs", llamaLike, serve.WeightAWQ, fmtT4, serve.WeightAWQ, "", true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			run, why, ok, f32 := serve.FormatFor(tt.a, tt.f, tt.g)
			if run != tt.run || why.String() != tt.why || ok != tt.ok || f32 != tt.f32 {
				t.Errorf("FormatFor(%s, %s, %s) = %s, %q, ok %v, float32 %v; want %s, %q, ok %v, float32 %v",
					tt.a.ModelType, tt.f, tt.g.Key, run, why, ok, f32, tt.run, tt.why, tt.ok, tt.f32)
			}
		})
	}
}

// TestServePlanFloat32 (walk55): a Gemma 3 plan on T4 is the float32
// plan vLLM runs, with --dtype auto and without allow_precision_fallback:
// weights 4 bytes each (4 × ParamCount), the KV cache per token twice a
// 16-bit model's of the same shape, the profiling step's activations at 4
// bytes (the sampler's logits are float32 anyway), and prefill timed at
// the fp32 rate; the same request of a llama-type model is fp16.
func TestServePlanFloat32(t *testing.T) {
	t4 := *fmtT4
	t4.FP32TFLOPS = 8.1
	o := serve.Offer{Name: "t4", GPU: &t4, GPUsPerNode: 1, USDPerHour: 1}
	s := serve.Serving{WeightFormat: serve.WeightBF16, DTypeAuto: true, MaxModelLen: 1024, PromptTokens: 512, OutputTokens: 128, Concurrency: 4}
	g, err := serve.PlanServing(gemma3, s, o)
	if err != nil {
		t.Fatal(err)
	}
	l, err := serve.PlanServing(llamaLike, s, o)
	if err != nil {
		t.Fatal(err)
	}
	if g.Serving.WeightFormat != serve.WeightFP32 || g.FallbackFrom != serve.WeightBF16 || !g.Serving.Float32() || !g.Fits {
		t.Fatalf("gemma3 on T4: %s from %q, float32 %v, fits %v (%q); want fp32 from bf16, fitting", g.Serving.WeightFormat, g.FallbackFrom, g.Serving.Float32(), g.Fits, g.Reasons)
	}
	if want := "T4 has no bf16 (vLLM needs compute capability 8.0 for bfloat16; it is 7.5) and vLLM refuses float16 for gemma3_text models (numerical instability): vLLM's --dtype auto serves it as fp32 weights"; g.Fallback.String() != want {
		t.Errorf("fallback %q, want %q", g.Fallback, want)
	}
	if l.Serving.WeightFormat != serve.WeightFP16 || l.Serving.Float32() {
		t.Errorf("llama on T4: %s, float32 %v; want fp16", l.Serving.WeightFormat, l.Serving.Float32())
	}
	if want := 4 * gemma3.ParamCount(); g.Memory.Weights != want || l.Memory.Weights*2 != want {
		t.Errorf("weights %.0f B (llama-type %.0f B), want 4 B × %.0f = %.0f B", g.Memory.Weights, l.Memory.Weights, gemma3.ParamCount(), want)
	}
	if g.Memory.KVBytesPerToken != 2*l.Memory.KVBytesPerToken || g.Memory.KVBytesPerToken != 2*4*4*128*4 {
		// 2 (K, V) × 4 layers × 4 KV heads × head_dim 128 × 4 B
		t.Errorf("KV bytes per token %.0f (llama-type %.0f), want 16384", g.Memory.KVBytesPerToken, l.Memory.KVBytesPerToken)
	}
	// The blocks the pool is counted in hold 4-byte K and V too (walk56:
	// they were counted at 2, so the KV tokens and the concurrency were
	// twice what vLLM holds): 16 tokens × 16384 B, and the same budget
	// left after the weights holds half the tokens.
	if bb := g.Memory.Layout.BlockBytes(); bb != 16*16384 || bb != 2*l.Memory.Layout.BlockBytes() {
		t.Errorf("block bytes %.0f (llama-type %.0f), want 262144", bb, l.Memory.Layout.BlockBytes())
	}
	if want := int(g.Memory.KVCache/(16*16384)) * 16; g.Memory.KVTokens != want {
		t.Errorf("KV tokens %d, want ⌊%.0f B ÷ 262144 B⌋ × 16 = %d", g.Memory.KVTokens, g.Memory.KVCache, want)
	}
	// The sampler's step is the peak at this shape: its hidden states of
	// 2048 tokens × 1024 take 4 bytes, not 2; its float32 logits of 256
	// requests × 32,000 do not change: 2 × 2048 × 1024 = 4,194,304 B more.
	if d := g.Memory.Activation - l.Memory.Activation; d != 2*2048*1024 {
		t.Errorf("activations %.0f B, fp16's %.0f B: %.0f B more, want 4194304", g.Memory.Activation, l.Memory.Activation, d)
	}
	// Prefill is compute-bound: fp32's 8.1 TFLOPS against fp16's 65.
	if r := g.Perf.PrefillSec / l.Perf.PrefillSec; r < 7.5 || r > 8.5 {
		t.Errorf("prefill %.4f s vs fp16's %.4f s: ratio %.2f, want about 65 ÷ 8.1 = 8.0", g.Perf.PrefillSec, l.Perf.PrefillSec, r)
	}
	// On a GPU with bf16 nothing changes.
	a, err := serve.PlanServing(gemma3, s, serve.Offer{Name: "a100", GPU: fmtA100, GPUsPerNode: 1, USDPerHour: 1})
	if err != nil {
		t.Fatal(err)
	}
	if a.Serving.WeightFormat != serve.WeightBF16 || a.Serving.Float32() || !a.Fallback.IsZero() || a.Memory.Weights != 2*gemma3.ParamCount() {
		t.Errorf("gemma3 on A100: %s, float32 %v, fallback %q, weights %.0f B; want bf16 at 2 B a weight", a.Serving.WeightFormat, a.Serving.Float32(), a.Fallback, a.Memory.Weights)
	}
	// bf16 asked (not --dtype auto) without the fallback: a near miss
	// naming what vLLM would load.
	asked := s
	asked.DTypeAuto = false
	n, err := serve.PlanServing(gemma3, asked, o)
	if err != nil {
		t.Fatal(err)
	}
	if n.Meets || !strings.HasSuffix(strings.Join(n.Reasons, "; "), "; it would serve fp32 weights (allow_precision_fallback)") {
		t.Errorf("bf16 asked on T4: meets %v, reasons %q; want a near miss naming fp32", n.Meets, n.Reasons)
	}
}

// TestServeBNBFloat32: bitsandbytes takes float32 activations
// (quantization/bitsandbytes.py get_supported_act_dtypes), so Gemma 3 in
// bitsandbytes on T4 runs as asked, in float32: its 4-bit linears as
// before, its embeddings and the KV cache at 4 bytes, with a note; on an
// A100 it is the 16-bit plan.
func TestServeBNBFloat32(t *testing.T) {
	s := serve.Serving{WeightFormat: serve.WeightBNB, MaxModelLen: 1024, PromptTokens: 512, OutputTokens: 128, Concurrency: 4}
	p, err := serve.PlanServing(gemma3, s, serve.Offer{Name: "t4", GPU: fmtT4, GPUsPerNode: 1, USDPerHour: 1})
	if err != nil {
		t.Fatal(err)
	}
	a, err := serve.PlanServing(gemma3, s, serve.Offer{Name: "a100", GPU: fmtA100, GPUsPerNode: 1, USDPerHour: 1})
	if err != nil {
		t.Fatal(err)
	}
	if p.Serving.WeightFormat != serve.WeightBNB || p.FallbackFrom != "" || !p.Serving.Float32() || a.Serving.Float32() {
		t.Fatalf("T4: %s from %q, float32 %v; A100 float32 %v; want bitsandbytes as asked, float32 on T4 only", p.Serving.WeightFormat, p.FallbackFrom, p.Serving.Float32(), a.Serving.Float32())
	}
	rest := gemma3.ParamCount() - gemma3.LinearParams() // embeddings and norms, unquantized
	if d := p.Memory.Weights - a.Memory.Weights; d != 2*rest {
		t.Errorf("weights %.0f B on T4, %.0f B on A100: difference %.0f B, want 2 B × %.0f unquantized = %.0f B", p.Memory.Weights, a.Memory.Weights, d, rest, 2*rest)
	}
	if p.Memory.KVBytesPerToken != 2*a.Memory.KVBytesPerToken {
		t.Errorf("KV bytes per token %.0f on T4, %.0f on A100; want twice", p.Memory.KVBytesPerToken, a.Memory.KVBytesPerToken)
	}
	if want := "T4 has no bf16 and vLLM refuses float16 for gemma3_text models (numerical instability): vLLM's --dtype auto runs the model in float32, bitsandbytes with float32 activations"; p.Fallback.String() != want {
		t.Errorf("note %q, want %q", p.Fallback, want)
	}
}

// TestServeFP16RefusedEverywhere: --dtype float16 does not start for a
// model type vLLM refuses float16 for (_check_valid_dtype raises), on
// any GPU, so fp16 asked is invalid for it; fp32 asked is served in fp32.
func TestServeFP16RefusedEverywhere(t *testing.T) {
	s := serve.Serving{WeightFormat: serve.WeightFP16, MaxModelLen: 1024, PromptTokens: 512, OutputTokens: 128, Concurrency: 4}
	for _, g := range []*model.GPU{fmtT4, fmtA100} {
		_, err := serve.PlanServing(gemma3, s, serve.Offer{Name: g.Key, GPU: g, GPUsPerNode: 1, USDPerHour: 1})
		if !errors.Is(err, serve.ErrInvalid) || !strings.Contains(err.Error(), "weight format fp16: vLLM refuses float16 for gemma3_text models (numerical instability); give bf16") {
			t.Errorf("fp16 on %s: %v, want ErrInvalid naming the refusal", g.Key, err)
		}
		if _, err := serve.PlanServing(llamaLike, s, serve.Offer{Name: g.Key, GPU: g, GPUsPerNode: 1, USDPerHour: 1}); err != nil {
			t.Errorf("llama-type fp16 on %s: %v", g.Key, err)
		}
	}
	s.WeightFormat = serve.WeightFP32
	p, err := serve.PlanServing(gemma3, s, serve.Offer{Name: "a100", GPU: fmtA100, GPUsPerNode: 1, USDPerHour: 1})
	if err != nil || p.Serving.WeightFormat != serve.WeightFP32 || !p.Serving.Float32() || p.Memory.Weights != 4*gemma3.ParamCount() {
		t.Errorf("fp32 asked on A100: %v, %s, weights %.0f B; want fp32 at 4 B a weight", err, p.Serving.WeightFormat, p.Memory.Weights)
	}
	if f, err := serve.ParseWeightFormat("float32"); err != nil || f != serve.WeightFP32 {
		t.Errorf(`ParseWeightFormat("float32") = %s, %v; want fp32 (a probe's weight_format reads back)`, f, err)
	}
}
