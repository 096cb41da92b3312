package serve_test

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/serve"
)

// Serving GPUs as the catalog states them (data/catalog/gpus.toml): compute
// capability and which 16-bit and fp8 tensor rates are published.
var (
	fmtV100  = &model.GPU{Key: "v100", Name: "V100", Vendor: "nvidia", ComputeCapability: "7.0", MemoryGiB: 16, MemoryBandwidthGBps: 900, FP16TFLOPS: 125}
	fmtT4    = &model.GPU{Key: "t4", Name: "T4", Vendor: "nvidia", ComputeCapability: "7.5", MemoryGiB: 16, MemoryBandwidthGBps: 320, FP16TFLOPS: 65}
	fmtA100  = &model.GPU{Key: "a100", Name: "A100", Vendor: "nvidia", ComputeCapability: "8.0", MemoryGiB: 80, MemoryBandwidthGBps: 2039, FP16TFLOPS: 312, BF16TFLOPS: 312}
	fmtH100  = &model.GPU{Key: "h100", Name: "H100", Vendor: "nvidia", ComputeCapability: "9.0", MemoryGiB: 80, MemoryBandwidthGBps: 3350, FP16TFLOPS: 989, BF16TFLOPS: 989, FP8TFLOPS: 1979}
	fmtMI250 = &model.GPU{Key: "mi250", Name: "MI250", Vendor: "amd", MemoryGiB: 128, MemoryBandwidthGBps: 3277, FP16TFLOPS: 362, BF16TFLOPS: 362}
	fmtMI300 = &model.GPU{Key: "mi300x", Name: "MI300X", Vendor: "amd", MemoryGiB: 192, MemoryBandwidthGBps: 5300, FP16TFLOPS: 1307, BF16TFLOPS: 1307, FP8TFLOPS: 2615}
)

// TestServeFormatOn: the format vLLM loads per GPU, from the rules cited on
// FormatOn (bf16 ≥ 8.0; fp8 weight-only ≥ 7.5, W8A8 ≥ 8.9; AWQ ≥ 7.5;
// ROCm fp8 only on fp8 hardware).
func TestServeFormatOn(t *testing.T) {
	for _, tt := range []struct {
		name    string
		f       serve.WeightFormat
		g       *model.GPU
		run     serve.WeightFormat
		refused string // part of why; "" when g runs f
		ok      bool
	}{
		{"bf16 on A100 (8.0): native", serve.WeightBF16, fmtA100, serve.WeightBF16, "", true},
		{"bf16 on V100 (7.0): fp16, same bytes", serve.WeightBF16, fmtV100, serve.WeightFP16, "V100 has no bf16 (vLLM needs compute capability 8.0 for bfloat16; it is 7.0)", true},
		{"bf16 on T4 (7.5): fp16", serve.WeightBF16, fmtT4, serve.WeightFP16, "T4 has no bf16", true},
		{"fp16 on V100: native", serve.WeightFP16, fmtV100, serve.WeightFP16, "", true},
		{"fp8 on H100 (9.0): W8A8", serve.WeightFP8, fmtH100, serve.WeightFP8, "", true},
		{"fp8 on A100 (8.0): FP8 Marlin weight-only", serve.WeightFP8, fmtA100, serve.WeightFP8, "", true},
		{"fp8 on T4 (7.5): FP8 Marlin weight-only", serve.WeightFP8, fmtT4, serve.WeightFP8, "", true},
		{"fp8 on V100 (7.0): neither; the 16-bit checkpoint in fp16", serve.WeightFP8, fmtV100, serve.WeightFP16,
			"V100 has no fp8 (vLLM needs compute capability 7.5 for FP8 weight-only, 8.9 for W8A8; it is 7.0)", true},
		{"fp8 on MI300X: fp8 hardware", serve.WeightFP8, fmtMI300, serve.WeightFP8, "", true},
		{"fp8 on MI250: no Marlin on ROCm; bf16 checkpoint", serve.WeightFP8, fmtMI250, serve.WeightBF16, "MI250 has no fp8 (vLLM on ROCm needs fp8 hardware", true},
		{"AWQ on V100: no kernel, no fallback", serve.WeightAWQ, fmtV100, serve.WeightAWQ, "AWQ kernels need compute capability 7.5", false},
		{"AWQ on T4: runs", serve.WeightAWQ, fmtT4, serve.WeightAWQ, "", true},
		{"GPTQ on V100: runs (exllama kernels)", serve.WeightGPTQ, fmtV100, serve.WeightGPTQ, "", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			run, why, ok := serve.FormatOn(tt.f, tt.g)
			if run != tt.run || ok != tt.ok {
				t.Errorf("ServeFormatOn(%s, %s) = %s ok=%v, want %s ok=%v", tt.f, tt.g.Key, run, ok, tt.run, tt.ok)
			}
			if tt.refused == "" && !why.IsZero() || tt.refused != "" && !strings.Contains(why.String(), tt.refused) {
				t.Errorf("why = %q, want %q", why.String(), tt.refused)
			}
		})
	}
}

// TestServePlanFormatFallback: a GPU that cannot run the weight format is
// a near miss naming why unless the request allows the fallback; then the
// plan is the plan of the fallback format (sized and timed at 2 bytes per
// weight, not fp8's 1), with FallbackFrom and Fallback saying so.
func TestServePlanFormatFallback(t *testing.T) {
	a := &model.Architecture{Family: model.FamilyDecoder, Layers: 4, Hidden: 1024, Heads: 8, KVHeads: 8, FFN: 4096, Vocab: 32000}
	base := serve.Serving{MaxModelLen: 1024, PromptTokens: 512, OutputTokens: 128, Concurrency: 4}
	o := serve.Offer{Name: "v100 node", GPU: fmtV100, GPUsPerNode: 1, USDPerHour: 1}
	for _, tt := range []struct {
		name     string
		f        serve.WeightFormat
		allow    bool
		meets    bool
		want     serve.WeightFormat // the format planned
		reason   string
		fallback string
		auto     bool // bf16 derived from the precision: vLLM's --dtype auto
	}{
		{"fp8 on V100, no fallback: near miss", serve.WeightFP8, false, false, serve.WeightFP8,
			"V100 has no fp8 (vLLM needs compute capability 7.5 for FP8 weight-only, 8.9 for W8A8; it is 7.0); it would serve fp16 weights (allow_precision_fallback)", "", false},
		{"fp8 on V100, fallback: planned as fp16", serve.WeightFP8, true, true, serve.WeightFP16, "",
			"V100 has no fp8 (vLLM needs compute capability 7.5 for FP8 weight-only, 8.9 for W8A8; it is 7.0): served as fp16 weights (allow_precision_fallback)", false},
		{"bf16 on V100, no fallback: near miss", serve.WeightBF16, false, false, serve.WeightBF16,
			"V100 has no bf16 (vLLM needs compute capability 8.0 for bfloat16; it is 7.0); it would serve fp16 weights (allow_precision_fallback)", "", false},
		{"bf16 on V100, fallback: planned as fp16", serve.WeightBF16, true, true, serve.WeightFP16, "",
			"V100 has no bf16 (vLLM needs compute capability 8.0 for bfloat16; it is 7.0): served as fp16 weights (allow_precision_fallback)", false},
		// The precision's bf16 is --dtype auto: vLLM loads fp16 on V100
		// whatever allow_precision_fallback says, and the note says so.
		{"bf16 as --dtype auto on V100, fallback no: fp16", serve.WeightBF16, false, true, serve.WeightFP16, "",
			"V100 has no bf16 (vLLM needs compute capability 8.0 for bfloat16; it is 7.0): vLLM's --dtype auto serves it as fp16 weights", true},
		{"bf16 as --dtype auto on V100, fallback yes: fp16", serve.WeightBF16, true, true, serve.WeightFP16, "",
			"V100 has no bf16 (vLLM needs compute capability 8.0 for bfloat16; it is 7.0): vLLM's --dtype auto serves it as fp16 weights", true},
		{"fp8 with auto set: auto is bf16's only, near miss", serve.WeightFP8, false, false, serve.WeightFP8,
			"V100 has no fp8 (vLLM needs compute capability 7.5 for FP8 weight-only, 8.9 for W8A8; it is 7.0); it would serve fp16 weights (allow_precision_fallback)", "", true},
		{"fp16 on V100: no fallback needed", serve.WeightFP16, false, true, serve.WeightFP16, "", "", false},
		{"AWQ on V100, fallback allowed: still a near miss", serve.WeightAWQ, true, false, serve.WeightAWQ, "AWQ kernels need compute capability 7.5", "", false},
		{"int8 on V100, fallback allowed: still a near miss", serve.WeightInt8, true, false, serve.WeightInt8, "INT8 (W8A8) kernels need compute capability 7.5", "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := base
			s.WeightFormat, s.AllowPrecisionFallback, s.DTypeAuto = tt.f, tt.allow, tt.auto
			p, err := serve.PlanServing(a, s, o)
			if err != nil {
				t.Fatal(err)
			}
			if p.Meets != tt.meets || p.Serving.WeightFormat != tt.want {
				t.Fatalf("meets %v format %s (reasons %q), want meets %v format %s", p.Meets, p.Serving.WeightFormat, p.Reasons, tt.meets, tt.want)
			}
			if got := strings.Join(p.Reasons, "; "); !strings.Contains(got, tt.reason) || (tt.reason == "") != (got == "") {
				t.Errorf("reasons %q, want %q", got, tt.reason)
			}
			if tt.meets && p.Fallback.String() != tt.fallback && !(tt.fallback == "" && p.Fallback.IsZero()) {
				t.Errorf("fallback %q, want %q", p.Fallback.String(), tt.fallback)
			}
			if !tt.meets {
				if p.Fits || p.Memory.Weights != 0 {
					t.Errorf("a near miss is neither sized nor fitting: fits %v, weights %.0f B", p.Fits, p.Memory.Weights)
				}
				return
			}
			// The fallback plan is the plan of the format it runs: 2 bytes per
			// weight, the same memory and speed as asking for it directly.
			direct := base
			direct.WeightFormat = tt.want
			d, err := serve.PlanServing(a, direct, o)
			if err != nil {
				t.Fatal(err)
			}
			if want := serve.WeightBytes(a, serve.WeightFP16); p.Memory.Weights != want || p.Memory != d.Memory || p.Perf != d.Perf {
				t.Errorf("weights %.0f B (want 2 B × %.0f params = %.0f B), memory/perf equal to a direct %s plan: %v/%v",
					p.Memory.Weights, a.ParamCount(), want, tt.want, p.Memory == d.Memory, p.Perf == d.Perf)
			}
			if tt.f != tt.want && p.FallbackFrom != tt.f {
				t.Errorf("FallbackFrom %q, want %q", p.FallbackFrom, tt.f)
			}
		})
	}
}

// TestServeReplicaAcrossNodes: a model too large for one single-GPU
// instance needs pipeline parallelism over two (TP 1 × PP 2), which vLLM
// runs only on a Ray cluster; without multi-node allowed that plan is a
// near miss saying so, with it the plan meets the targets on 2 instances.
func TestServeReplicaAcrossNodes(t *testing.T) {
	// 16 layers of ≈ 0.2B parameters + 0.26B of embeddings ≈ 3.5B: ≈ 6.5
	// GiB of fp16 weights, over the 5.4 GiB vLLM uses of a 6 GiB GPU
	// (gpu_memory_utilization 0.9); half of it fits.
	a := &model.Architecture{Family: model.FamilyDecoder, Layers: 16, Hidden: 4096, Heads: 32, KVHeads: 8, FFN: 16384, Vocab: 32000}
	small := *fmtA100
	small.MemoryGiB = 6
	o := serve.Offer{Name: "one small GPU", GPU: &small, GPUsPerNode: 1, USDPerHour: 1}
	s := serve.Serving{WeightFormat: serve.WeightFP16, MaxModelLen: 512, PromptTokens: 256, OutputTokens: 64, Concurrency: 1}
	for _, allow := range []bool{false, true} {
		s.AllowMultiNode = allow
		p, err := serve.PlanServing(a, s, o)
		if err != nil {
			t.Fatal(err)
		}
		if p.PP != 2 || p.Nodes != 2 {
			t.Fatalf("allow %v: TP %d × PP %d on %d nodes, want PP 2 over 2 instances (reasons %q)", allow, p.TP, p.PP, p.Nodes, p.Reasons)
		}
		why := strings.Join(p.Reasons, "; ")
		if p.Meets != allow || strings.Contains(why, "needs a Ray cluster") == allow {
			t.Errorf("allow %v: meets %v, reasons %q", allow, p.Meets, why)
		}
	}
}

// TestServeMonthlyBudget: a plan that meets the load but costs more a
// month than search.budget_month (USDPerHour × hours per month, 730
// unless given) is a near miss naming the cost, as Recommend refuses a
// training offer over it; within the budget it meets. Worked by hand:
// one node at $1/h is $730 a month, $100 at 100 hours; on a reserved
// term the month is billed whole whatever the hours: $730 at 100 hours.
func TestServeMonthlyBudget(t *testing.T) {
	a := &model.Architecture{Family: model.FamilyDecoder, Layers: 4, Hidden: 1024, Heads: 8, KVHeads: 8, FFN: 4096, Vocab: 32000}
	base := serve.Serving{WeightFormat: serve.WeightFP16, MaxModelLen: 1024, PromptTokens: 512, OutputTokens: 128, Concurrency: 4}
	for _, tt := range []struct {
		pricing       model.Pricing
		budget, hours float64
		meets         bool
		reason        string
	}{
		{"", 0, 0, true, ""},
		{"", 800, 0, true, ""},
		{"", 700, 0, false, "$730/month is above the $700 budget"},
		{"", 700, 100, true, ""},
		{"", 50, 100, false, "$100/month is above the $50 budget"},
		{model.OnDemand, 700, 100, true, ""},
		{model.Reserved1y, 700, 100, false, "$730/month (730 h committed) is above the $700 budget"},
		{model.Reserved3y, 800, 100, true, ""},
	} {
		s := base
		s.BudgetMonthUSD, s.HoursPerMonth = tt.budget, tt.hours
		o := serve.Offer{Name: "v100 node", GPU: fmtV100, GPUsPerNode: 1, USDPerHour: 1, Pricing: tt.pricing}
		p, err := serve.PlanServing(a, s, o)
		if err != nil {
			t.Fatal(err)
		}
		if p.Meets != tt.meets || p.OverBudget == tt.meets || strings.Join(p.Reasons, "; ") != tt.reason {
			t.Errorf("%s budget %v, %v h: meets %v over %v reasons %q; want meets %v, %q", tt.pricing, tt.budget, tt.hours, p.Meets, p.OverBudget, p.Reasons, tt.meets, tt.reason)
		}
	}
	// Ranked: over the budget, the cheapest that carries the load is the
	// first near miss, before one that does not fit at all.
	s := base
	s.BudgetMonthUSD = 100
	tiny := *fmtV100
	tiny.Key, tiny.Name, tiny.MemoryGiB = "tiny", "Tiny", 0.01
	plans, err := serve.RankServing(a, s, []serve.Offer{
		{Name: "tiny", GPU: &tiny, GPUsPerNode: 1, USDPerHour: 0.01},
		{Name: "dear", GPU: fmtV100, GPUsPerNode: 1, USDPerHour: 3},
		{Name: "cheap", GPU: fmtV100, GPUsPerNode: 1, USDPerHour: 2},
	})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, p := range plans {
		order = append(order, p.Offer.Name)
	}
	if got := strings.Join(order, ","); got != "cheap,dear,tiny" {
		t.Errorf("near misses ranked %s, want cheap,dear,tiny", got)
	}
}
