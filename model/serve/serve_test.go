package serve

import (
	"errors"
	"math"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// llama31_70B is meta-llama/Llama-3.1-70B's config.json shape.
var llama31_70B = model.Architecture{Key: "llama-3.1-70b", Family: model.FamilyDecoder, Layers: 80, Hidden: 8192, Heads: 64, KVHeads: 8,
	FFN: 28672, GatedMLP: true, Vocab: 128256, Norm: model.RMSNorm, MaxPositions: 131072}

// h100SXM is the H100 SXM5 80GB datasheet row (dense figures), as the catalog has it.
var h100SXM = model.GPU{Key: "h100-sxm", MemoryGiB: 80, MemoryBandwidthGBps: 3350, FP16TFLOPS: 989.5, BF16TFLOPS: 989.5,
	FP8TFLOPS: 1979, ComputeCapability: "9.0", Interconnect: "nvlink", InterconnectGBps: 900}

// workedTuning are the serving constants the hand-worked tests use: the
// values chosen before the serving calibration was cross-validated.
var workedTuning = Tuning{MFU: 0.45, MBU: 0.75, NonTorchTPGiB: 0.42}

func nearExact(got, want float64) bool { return modeltest.Near(got, want, 1e-9) }

// TestServe70BAWQOn2xH100 is issue 16's headline case: Llama 3.1 70B in
// AWQ int4 at 8k context on 2×H100 80GB with TP 2 fits, with its KV
// capacity stated. Worked by hand with the fitted constants pinned
// (workedTuning), so the arithmetic does not move with a refit:
//
//	linear weights  80 × (2·8192·8192 + 2·8192·1024 + 3·8192·28672) = 68,451,041,280
//	other (16-bit)  2 × 128256 × 8192 + 80·2·8192 + 8192          =  2,102,665,216
//	bytes           68,451,041,280 × (0.5 + 2.5/128) + 2,102,665,216 × 2 = 39,767,785,472
//	per GPU (TP 2)  19,883,892,736 B = 18.52 GiB                  (issue: "≈ 18.5 GiB")
//	activation      8192 tokens, 1024 seqs (H100 defaults): 2·8192·8192 + 1024·128256·38.4 = 5,177,448,857.6 B
//	non-torch       0.13 + 0.42 GiB + 2 × 8 MiB custom all-reduce = 607,335,219.2 B
//	budget          0.9 × 80 GiB = 77,309,411,328 B
//	KV cache        77,309,411,328 − 19,883,892,736 − 5,177,448,857.6 − 607,335,219.2 = 51,640,734,515.2 B (48.1 GiB)
//	per token/GPU   2 × 80 layers × 4 KV heads × 128 × 2 B = 163,840 B
//	tokens          ⌊51,640,734,515.2 / (16 × 163,840)⌋ = 19,699 blocks × 16 = 315,184 tokens
//	concurrency     315,184 / 8192 = 38.47 requests of 8k
func TestServe70BAWQOn2xH100(t *testing.T) {
	s := Serving{WeightFormat: WeightAWQ, MaxModelLen: 8192, PromptTokens: 6144, OutputTokens: 2048, Tuning: &workedTuning}.Defaults(&h100SXM)
	if err := s.Validate(&llama31_70B); err != nil {
		t.Fatal(err)
	}
	m := MemoryOn(&llama31_70B, &s, &h100SXM, 2, 1)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"weights per GPU", m.Weights, 19883892736},
		{"activation", m.Activation, 5177448857.6},
		{"non-torch", m.NonTorch, 607335219.2},
		{"KV cache", m.KVCache, 51640734515.2},
		{"KV bytes per token", m.KVBytesPerToken, 163840},
		{"KV tokens", float64(m.KVTokens), 315184},
		{"max concurrency", m.MaxConcurrency, 315184.0 / 8192},
	} {
		if !nearExact(c.got, c.want) {
			t.Errorf("%s = %.6g, want %.6g", c.name, c.got, c.want)
		}
	}
	if !m.Fits() {
		t.Errorf("does not fit: %+v", m)
	}
	// Through the planner on a 2-GPU NVLink node with TP fixed at 2 and
	// one replica: the worked example's. (Left to the planner, the
	// replicas would be 2, as the low end of the KV cache's 90% range
	// holds fewer than the 32 sequences of one: clearBorderline.)
	s.TP, s.Replicas, s.Concurrency = 2, 1, 32
	p, err := PlanServing(&llama31_70B, s, Offer{Name: "2×H100", GPU: &h100SXM, GPUsPerNode: 2, Interconnect: "nvlink", USDPerHour: 6})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Fits || !p.Meets || p.TP != 2 || p.Replicas != 1 || p.Perf.Batch != 32 {
		t.Errorf("plan: fits %v meets %v TP %d replicas %d batch %d, reasons %q; want a fitting TP-2 replica of batch 32",
			p.Fits, p.Meets, p.TP, p.Replicas, p.Perf.Batch, p.Reasons)
	}
	t.Logf("70B AWQ TP2: %.2f GiB weights/GPU, %d KV tokens, %.1f × 8k; %.0f output tok/s, TTFT %.0f ms, TPOT %.1f ms, $%.2f/Mtok out",
		p.Memory.Weights/model.GiB, p.Memory.KVTokens, p.Memory.MaxConcurrency, p.OutputTokensPerSec, p.Perf.TTFTSec*1e3, p.Perf.TPOTSec*1e3, p.USDPerMOutput)
}

func TestKVBytesPerToken(t *testing.T) {
	tests := []struct {
		name   string
		a      model.Architecture
		kv     KVCacheDType
		tp, pp int
		want   float64
	}{
		{"llama-3.1-8b: 2 × 32 × 8 × 128 × 2 B", modeltest.Llama31_8B, KVAuto, 1, 1, 131072},
		{"llama-3.1-8b fp8: half", modeltest.Llama31_8B, KVFP8, 1, 1, 65536},
		{"llama-3.1-8b TP 2: 4 KV heads per GPU", modeltest.Llama31_8B, KVAuto, 2, 1, 65536},
		{"llama-3.1-8b TP 16: 8 KV heads replicated, 1 per GPU", modeltest.Llama31_8B, KVAuto, 16, 1, 16384},
		{"llama-3.1-8b PP 2: 16 layers per GPU", modeltest.Llama31_8B, KVAuto, 1, 2, 65536},
		{"llama-2-7b MHA: 2 × 32 × 32 × 128 × 2 B", modeltest.Llama2_7B, KVAuto, 1, 1, 524288},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := KVBytesPerToken(&tt.a, tt.kv, tt.tp, tt.pp); got != tt.want {
				t.Errorf("KVBytesPerToken() = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestServeWeightBytes(t *testing.T) {
	// llama-3.1-8b: linear 32 × (2·4096·4096 + 2·4096·1024 + 3·4096·14336) = 6,979,321,856;
	// the rest 8,030,261,248 − 6,979,321,856 = 1,050,939,392 stays 16-bit.
	const linear, rest = 6979321856.0, 1050939392.0
	tests := []struct {
		f    WeightFormat
		want float64
	}{
		{WeightBF16, 2 * (linear + rest)},
		{WeightFP8, linear + 2*rest},
		{WeightInt8, linear*(1+2.0/128) + 2*rest},
		{WeightAWQ, linear*(0.5+2.5/128) + 2*rest},
		{WeightGPTQ, linear*(0.5+2.5/128) + 2*rest},
		// bitsandbytes NF4 in vLLM: 4 bits and an fp32 absmax per 64 values
		// (the nested absmax is dequantized to fp32 on load): 0.5625 B.
		{WeightBNB, linear*0.5625 + 2*rest},
	}
	for _, tt := range tests {
		if got := WeightBytes(&modeltest.Llama31_8B, tt.f); !nearExact(got, tt.want) {
			t.Errorf("ServeWeightBytes(%s) = %.0f, want %.0f", tt.f, got, tt.want)
		}
	}
}

func TestServeValidate(t *testing.T) {
	ok := Serving{PromptTokens: 1000, OutputTokens: 200, MaxModelLen: 4096}
	tests := []struct {
		name string
		s    Serving
		err  error
	}{
		{"valid", ok, nil},
		{"no output tokens", Serving{PromptTokens: 10, MaxModelLen: 100}, ErrInvalid},
		{"prompt + output over max_model_len", Serving{PromptTokens: 4000, OutputTokens: 200, MaxModelLen: 4096}, ErrInvalid},
		{"TP 3 is not a power of two", func() Serving { s := ok; s.TP = 3; return s }(), ErrInvalid},
		{"TP 64 does not divide 32 heads", func() Serving { s := ok; s.TP = 64; return s }(), ErrInvalid},
		{"both loads", func() Serving { s := ok; s.Concurrency, s.RequestsPerSec = 4, 2; return s }(), ErrInvalid},
		{"utilisation above 1", func() Serving { s := ok; s.GPUMemoryUtilization = 1.5; return s }(), ErrInvalid},
		{"NaN rate", func() Serving { s := ok; s.RequestsPerSec = math.NaN(); return s }(), ErrInvalid},
		{"unknown weight format", func() Serving { s := ok; s.WeightFormat = "int3"; return s }(), ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.s.Validate(&modeltest.Llama31_8B); !errors.Is(err, tt.err) {
				t.Errorf("Validate() = %v, want %v", err, tt.err)
			}
		})
	}
	if err := ok.Validate(&modeltest.BERTBase); !errors.Is(err, ErrInvalid) {
		t.Errorf("an encoder is not servable for generation: got %v", err)
	}
}

// TestServeSpeedDecodeBound checks one memory-bound decode step by hand:
// llama-3.1-8b bf16 on one H100, batch 1, prompt 1000, output 200.
//
//	weights 16,060,522,496 B, of which the step reads all but the input
//	embedding (gathered by row): 128,256 × 4096 × 2 B = 1,050,673,152 B, so
//	15,009,849,344 B; KV read 1 × 1100 tokens × 131,072 B = 144,179,200 B
//	step = 15,154,028,544 / (3350e9 × 0.75) = 6.0315 ms (compute 2·7.5e9 FLOPs is ~0.03 ms)
//
// At one sequence TPOT is that step: the request's own prompt is in its TTFT.
func TestServeSpeedDecodeBound(t *testing.T) {
	s := Serving{PromptTokens: 1000, OutputTokens: 200, Tuning: &workedTuning}.Defaults(&h100SXM)
	m := MemoryOn(&modeltest.Llama31_8B, &s, &h100SXM, 1, 1)
	hw := Hardware{GPU: &h100SXM, InterconnectGBps: 900, NVLink: true}
	p := Speed(&modeltest.Llama31_8B, &s, &m, &hw, 1, 1, 1)
	want := (16060522496.0 - 128256*4096*2 + 1100*131072) / (3350e9 * workedTuning.MBU)
	if !p.MemoryBound || !nearExact(p.StepSec, want) {
		t.Errorf("step %.6g s (memory-bound %v), want %.6g s", p.StepSec, p.MemoryBound, want)
	}
	if !nearExact(p.TPOTSec, p.StepSec) {
		t.Errorf("TPOT %.6g s at one sequence, want the decode step %.6g s", p.TPOTSec, p.StepSec)
	}
	if got := USDPerMillionTokens(3.6, 1000); !nearExact(got, 1) {
		t.Errorf("USDPerMillionTokens(3.6 $/h, 1000 tok/s) = %v, want 1 (3.6 / 3.6e6 × 1e6)", got)
	}
}

// TestCustomAllReduceBytes: vLLM's custom all-reduce allocates two 8 MiB
// IPC buffers per rank (custom_all_reduce.py _complete_init) for world
// sizes 2, 4, 6, 8, and only for two GPUs when they are not all NVLink-connected.
func TestCustomAllReduceBytes(t *testing.T) {
	pcie := model.GPU{Key: "rtx-4090", Interconnect: "pcie"}
	for _, c := range []struct {
		g    *model.GPU
		tp   int
		want float64
	}{
		{&h100SXM, 1, 0}, {&h100SXM, 2, 16 << 20}, {&h100SXM, 3, 0}, {&h100SXM, 4, 16 << 20}, {&h100SXM, 5, 0}, {&h100SXM, 6, 16 << 20}, {&h100SXM, 8, 16 << 20}, {&h100SXM, 16, 0},
		{&pcie, 2, 16 << 20}, {&pcie, 4, 0}, {&pcie, 8, 0},
	} {
		if got := customAllReduceBytes(c.g, c.tp); got != c.want {
			t.Errorf("%s TP %d: %g B, want %g", c.g.Key, c.tp, got, c.want)
		}
	}
}

// TestServeSpeedChunkedPrefill checks the steady-state cycle of vLLM's
// chunked prefill by its counts: llama-3.1-8b bf16 on one H100, 4
// sequences, prompt 1000, output 200, max_num_batched_tokens 8192. A prompt
// fits one step beside the other 3 decodes (k = ⌈1003 ÷ 8192⌉ = 1), so a
// cycle is k + out − 1 = 200 steps, 4 of them carrying a prompt and 196
// decoding 4 sequences: cycle = 4·pre + 196·step, TPOT = (cycle − pre) ÷
// 199 (vLLM's (latency − TTFT) ÷ (output − 1)), 4 requests per cycle.
func TestServeSpeedChunkedPrefill(t *testing.T) {
	a := &modeltest.Llama31_8B
	s := Serving{PromptTokens: 1000, OutputTokens: 200, Tuning: &workedTuning}.Defaults(&h100SXM)
	m := MemoryOn(a, &s, &h100SXM, 1, 1)
	hw := Hardware{GPU: &h100SXM, InterconnectGBps: 900, NVLink: true}
	p := Speed(a, &s, &m, &hw, 1, 1, 4)
	peak := servePeakFLOPS(&h100SXM, WeightBF16) * workedTuning.MFU
	memSec := (m.Weights - lookupBytes(a, 1, 1) + 4*1100*m.KVBytesPerToken) / (3350e9 * workedTuning.MBU)
	pre := max(memSec, (3*DecodeFLOPs(a, 1100)+PrefillFLOPs(a, 1000))/peak)
	step := max(memSec, 4*DecodeFLOPs(a, 1100)/peak)
	cycle := 4*pre + 196*step
	if s.MaxNumBatchedTokens != 8192 || !nearExact(p.StepSec, step) || !nearExact(p.TPOTSec, (cycle-pre)/199) || !nearExact(p.RequestsPerSec, 4/cycle) {
		t.Errorf("step %.6g s, TPOT %.6g s, %.6g requests/s; want %.6g, %.6g, %.6g (pre %.6g s)",
			p.StepSec, p.TPOTSec, p.RequestsPerSec, step, (cycle-pre)/199, 4/cycle, pre)
	}
	if pre <= memSec {
		t.Errorf("a 1000-token prompt step should be compute-bound: %.6g s against memory %.6g s", pre, memSec)
	}
}

// TestBurstTPOTSchedule follows vLLM's V1 scheduler by hand for three
// 60-token prompts sent at once with a 100-token budget and 3 output
// tokens (llama-3.1-8b bf16, one H100):
//
//	step 0: no decodes; prompt 0 whole (60), prompt 1's first 40   → s(0, 100)
//	step 1: request 0 decodes; prompt 1's last 20, prompt 2 (60)    → s(1, 80)
//	step 2: requests 0, 1, 2 decode (request 0's last token)         → s(3, 0)
//	step 3: requests 1, 2 decode (their last)                        → s(2, 0)
//
// Request 0's TPOT window is steps 1–2, requests 1's and 2's steps 2–3, so
// the mean TPOT is (s(1,80) + s(3,0) + 2·(s(3,0) + s(2,0))) ÷ 3 ÷ 2. One
// request alone, or prompts that all fit the first step, leave every
// window without a prompt: the decode step of Speed.
func TestBurstTPOTSchedule(t *testing.T) {
	a := &modeltest.Llama31_8B
	hw := Hardware{GPU: &h100SXM, InterconnectGBps: 900, NVLink: true}
	s := Serving{PromptTokens: 60, OutputTokens: 3, MaxNumBatchedTokens: 100, Tuning: &workedTuning}.Defaults(&h100SXM)
	m := MemoryOn(a, &s, &h100SXM, 1, 1)
	step, _ := stepTime(a, &s, &m, &hw, 1, 1, 3)
	want := (step(1, 80) + step(3, 0) + 2*(step(3, 0)+step(2, 0))) / 3 / 2
	if got := BurstTPOTSec(a, &s, &m, &hw, 1, 3); !nearExact(got, want) {
		t.Errorf("3 prompts of 60 in a 100-token budget: TPOT %.6g s, want %.6g s", got, want)
	}

	s = Serving{PromptTokens: 1000, OutputTokens: 200, Tuning: &workedTuning}.Defaults(&h100SXM)
	m = MemoryOn(a, &s, &h100SXM, 1, 1)
	for _, n := range []int{1, 8} { // 8 × 1000 tokens fit the 8192-token step
		if got, want := BurstTPOTSec(a, &s, &m, &hw, 1, n), Speed(a, &s, &m, &hw, 1, 1, n).StepSec; !nearExact(got, want) {
			t.Errorf("%d prompts in one step: TPOT %.6g s, want the decode step of %d, %.6g s", n, got, n, want)
		}
	}
	if got := BurstTPOTSec(a, &s, &m, &hw, 1, 0); got != 0 {
		t.Errorf("no requests: TPOT %v, want 0", got)
	}
}

// TestCachedPromptTokens: vLLM serves a shared prefix from the cache in
// whole 16-token blocks and always computes the last prompt token.
func TestCachedPromptTokens(t *testing.T) {
	for _, c := range []struct{ shared, prompt, want int }{
		{0, 100, 0}, {40, 40, 32}, {48, 48, 32}, {49, 49, 48}, {16, 16, 0}, {17, 100, 16}, {100, 1000, 96}, {1000, 1000, 992},
	} {
		s := Serving{SharedPrefixTokens: c.shared, PromptTokens: c.prompt}
		if got := s.CachedPromptTokens(); got != c.want {
			t.Errorf("shared %d of a %d-token prompt: %d cached, want %d", c.shared, c.prompt, got, c.want)
		}
	}
}

// TestSharedPrefixPrefill: a cached prefix of c tokens leaves the prefill
// of the other p − c tokens attending to all p, PrefillFLOPs(p) −
// PrefillFLOPs(c) (2N(p − c) + 2L(p² − c²)·d_attn); llama-3.1-8b, a
// 1000-token prompt of which 512 are shared, one H100. A shared prefix
// longer than the prompt is refused.
func TestSharedPrefixPrefill(t *testing.T) {
	a := &modeltest.Llama31_8B
	hw := Hardware{GPU: &h100SXM, InterconnectGBps: 900, NVLink: true}
	s := Serving{PromptTokens: 1000, OutputTokens: 200, SharedPrefixTokens: 512, Tuning: &workedTuning}.Defaults(&h100SXM)
	m := MemoryOn(a, &s, &h100SXM, 1, 1)
	p := Speed(a, &s, &m, &hw, 1, 1, 1)
	peak := servePeakFLOPS(&h100SXM, WeightBF16) * workedTuning.MFU
	if want := (PrefillFLOPs(a, 1000) - PrefillFLOPs(a, 512)) / peak; !nearExact(p.PrefillSec, want) {
		t.Errorf("prefill %.6g s with 512 cached, want %.6g s", p.PrefillSec, want)
	}
	bad := Serving{PromptTokens: 100, OutputTokens: 10, SharedPrefixTokens: 101}
	if err := bad.Validate(a); !errors.Is(err, ErrInvalid) {
		t.Errorf("shared prefix over the prompt: got %v, want ErrInvalid", err)
	}
}

// TestCUDAGraphPadded follows vLLM's default capture sizes by hand
// (vllm/config/compilation.py, max_cudagraph_capture_size: "[1, 2, 4] +
// list(range(8, 256, 8)) + list(range(256, max_cudagraph_capture_size +
// 1, 16))", the largest min(max_num_seqs × 2, 512) and no more than
// max_num_batched_tokens): a step pads up to the next size, and runs
// unpadded past the largest one.
func TestCUDAGraphPadded(t *testing.T) {
	for _, c := range []struct{ seqs, tokens, want int }{
		{256, 2048, 512}, // RTX A6000 defaults: min(512, 512, 2048)
		{1024, 8192, 512},
		{8, 2048, 16},
		{300, 100, 100},
		{0, 2048, 0},
	} {
		if got := cudaGraphMaxSize(c.seqs, c.tokens); got != c.want {
			t.Errorf("max_num_seqs %d, max_num_batched_tokens %d: largest graph %d, want %d", c.seqs, c.tokens, got, c.want)
		}
	}
	for _, c := range []struct{ n, maxSize, want int }{
		{0, 512, 0}, {1, 512, 1}, {2, 512, 2}, {3, 512, 4}, {4, 512, 4}, {5, 512, 8}, {9, 512, 16},
		{135, 512, 136}, {145, 512, 152}, {248, 512, 248}, {249, 512, 256}, {256, 512, 256},
		{257, 512, 272}, {275, 512, 288}, {511, 512, 512}, {512, 512, 512}, {513, 512, 513},
		{90, 100, 96}, {96, 100, 96}, {97, 100, 97}, // sizes to 96 under a limit of 100
		{245, 250, 248}, {249, 250, 249}, // 248 is the largest size under 250
		{288, 300, 288}, {289, 300, 289}, // 256, 272, 288 under 300
		{1, 1, 1}, {2, 1, 2}, {12, 16, 16}, {17, 16, 17},
	} {
		if got := cudaGraphPadded(c.n, c.maxSize); got != c.want {
			t.Errorf("%d tokens, graphs up to %d: runs %d, want %d", c.n, c.maxSize, got, c.want)
		}
	}
}

// TestServeStepGraphPadding checks a compute-bound decode step by hand:
// llama-3.1-8b bf16 on one H100 (graphs up to min(1024 × 2, 512, 8192) =
// 512 tokens), 300 sequences at context 100 + 100/2 = 150.
//
//	N = 8,030,261,248 − 128,256 × 4096 = 7,504,924,672 parameters multiplied
//	DecodeFLOPs(150) = 2N + 4 × 32 × 150 × 4096 = 15,088,492,544
//	memory: (15,009,849,344 + 300 × 150 × 131,072) B ÷ (3350e9 × 0.75) = 8.3216 ms
//	300 tokens pad to 256 + ⌈44 ÷ 16⌉ × 16 = 304: 4 dummy tokens of 2N each
//	compute: (300 × 15,088,492,544 + 4 × 15,009,849,344) ÷ (989.5e12 × 0.45) = 10.3006 ms
//
// 256 sequences fill a captured size; 600 run past the largest graph,
// unpadded.
func TestServeStepGraphPadding(t *testing.T) {
	a := &modeltest.Llama31_8B
	hw := Hardware{GPU: &h100SXM, InterconnectGBps: 900, NVLink: true}
	s := Serving{PromptTokens: 100, OutputTokens: 100, Tuning: &workedTuning}.Defaults(&h100SXM)
	m := MemoryOn(a, &s, &h100SXM, 1, 1)
	const twoN, decode, peak = 15009849344.0, 15088492544.0, 989.5e12 * 0.45
	if got := 2 * serveMatmulParams(a); got != twoN {
		t.Fatalf("2N = %v, want %v", got, twoN)
	}
	if got := DecodeFLOPs(a, 150); got != decode {
		t.Fatalf("DecodeFLOPs(150) = %v, want %v", got, decode)
	}
	for _, c := range []struct{ b, pad float64 }{{300, 4}, {256, 0}, {600, 0}} {
		step, memSec := stepTime(a, &s, &m, &hw, 1, 1, c.b)
		wantMem := (twoN + c.b*150*131072) / (3350e9 * 0.75)
		want := max(wantMem, (c.b*decode+c.pad*twoN)/peak)
		if got := step(c.b, 0); !nearExact(memSec, wantMem) || !nearExact(got, want) {
			t.Errorf("%g sequences: step %.6g s (memory %.6g s), want %.6g s (memory %.6g s)", c.b, got, memSec, want, wantMem)
		}
	}
	if step, _ := stepTime(a, &s, &m, &hw, 1, 1, 300); math.Abs(step(300, 0)-10.3006e-3) > 5e-8 {
		t.Errorf("300 sequences: step %.7g s, want 10.3006 ms", step(300, 0))
	}
}

// TestKVElementBytes: the KV cache's element in each dtype vLLM stores it
// in — fp8 whatever the model's dtype, else the model's (float32: 4).
func TestKVElementBytes(t *testing.T) {
	for _, tt := range []struct {
		kv      KVCacheDType
		float32 bool
		want    float64
	}{
		{KVAuto, false, 2},
		{KVAuto, true, 4},
		{KVFP8, false, 1},
		{KVFP8, true, 1},
	} {
		if got := kvElementBytes(tt.kv, tt.float32); got != tt.want {
			t.Errorf("kvElementBytes(%s, float32 %v) = %v, want %v", tt.kv, tt.float32, got, tt.want)
		}
	}
}
