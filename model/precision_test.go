package model

import (
	"slices"
	"strings"
	"testing"
)

// t4Catalog is testCatalog with a T4 host: compute capability 7.5, fp16
// tensor cores and no bf16 (the catalog's t4 entry).
func t4Catalog() *Catalog {
	c := testCatalog()
	c.GPUs = append(c.GPUs, GPU{Key: "t4", Name: "NVIDIA T4", MemoryGiB: 16, ComputeCapability: "7.5", FP32TFLOPS: 8.1, FP16TFLOPS: 65, MemoryBandwidthGBps: 320})
	c.Instances = append(c.Instances, Instance{Provider: "p1", Type: "t4.1", GPU: "t4", GPUCount: 1, VCPUs: 4, MemoryGiB: 16,
		Prices: []RegionPrice{{Region: "us-east-1", OnDemandUSD: 0.5}}})
	c.Index()
	return c
}

// TestInferenceBF16OnT4: inference's default bf16 runs fp16 on a GPU
// without bf16 (PrecisionKept), as vLLM's --dtype auto,
// text-embeddings-inference and torch.autocast's CUDA default do, marked
// with the fallback (Offer.Fallback, the ↺ of the table); bf16 typed with
// --precision (Query.PrecisionAsked) stays a near miss unless the
// fallback is allowed; a model that overflows fp16 (T5) is kept with the
// reason and fp32 named; fp8 and training keep their rules.
func TestInferenceBF16OnT4(t *testing.T) {
	t5 := Architecture{Name: "T5-Base", ModelType: "t5", Family: FamilyEncoderDecoder, Layers: 12, DecoderLayers: 12, Hidden: 768, Heads: 12, FFN: 3072, Vocab: 32128, Tied: true}
	infer := func(a Architecture, p Precision) Workload {
		return Workload{Settings: Settings{Task: TaskInference, Precision: p, SeqLen: 512}, Model: a}
	}
	for _, tt := range []struct {
		name         string
		w            Workload
		asked, allow bool
		fallback     Precision // the T4 offer's, "" when it is not offered
		near         string    // in the T4 near miss's reason, "" when there is none
		warn         string    // in the T4 offer's warnings
	}{
		{name: "bert inference, bf16 by default: T4 runs ↺fp16", w: infer(bertBase, BF16),
			fallback: FP16, warn: "NVIDIA T4 lacks bf16: runs in fp16"},
		{name: "bert inference, --precision bf16: near miss naming the switch", w: infer(bertBase, BF16), asked: true,
			near: "NVIDIA T4 has no bf16; it would run fp16 (allow_precision_fallback)"},
		{name: "bert inference, --precision bf16 --allow-precision-fallback: ↺fp16", w: infer(bertBase, BF16), asked: true, allow: true,
			fallback: FP16},
		{name: "t5 inference, bf16 by default: kept, fp16 overflows", w: infer(t5, BF16),
			near: "NVIDIA T4 has no bf16 and t5 models overflow in fp16 (inf activations); it would run fp16 (allow_precision_fallback), or give precision fp32"},
		{name: "t5 inference, fallback allowed: ↺fp16 with the overflow said", w: infer(t5, BF16), allow: true,
			fallback: FP16, warn: "t5 models overflow in fp16"},
		{name: "t5 inference, fp32: runs as asked", w: infer(t5, FP32), asked: true},
		{name: "t5 inference, fp16 asked: runs, the overflow said", w: infer(t5, FP16), asked: true, warn: "t5 models overflow in fp16"},
		{name: "t5 int4 weights: kept, they compute in fp16 on a T4", w: infer(t5, INT4),
			near: "NVIDIA T4 has no bf16 and t5 models overflow in fp16 (inf activations); its int4 weights would compute in fp16 (allow_precision_fallback)"},
		{name: "fp8 inference by default: near miss (fp8 is always a choice)", w: infer(bertBase, FP8),
			near: "NVIDIA T4 has no fp8; it would run fp16 (allow_precision_fallback)"},
		{name: "pure bf16 fine-tuning: no fallback at all", w: Workload{Settings: Settings{Task: TaskFinetune, Precision: BF16, MicroBatch: 1, SeqLen: 512}, Model: bertBase},
			near: "NVIDIA T4 has no bf16 (needs compute capability 8.0)"},
		{name: "amp-bf16 fine-tuning by default: ↺amp-fp16", w: Workload{Settings: Settings{Task: TaskFinetune, Precision: AMPBF16, MicroBatch: 1, SeqLen: 512}, Model: bertBase},
			fallback: AMPFP16},
		{name: "amp-bf16 fine-tuning asked: near miss", w: Workload{Settings: Settings{Task: TaskFinetune, Precision: AMPBF16, MicroBatch: 1, SeqLen: 512}, Model: bertBase}, asked: true,
			near: "NVIDIA T4 has no amp-bf16; it would run amp-fp16 (allow_precision_fallback)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Recommend(tt.w, t4Catalog(), Query{Providers: []string{"p1"}, GPUs: []string{"t4"}, PrecisionAsked: tt.asked, AllowPrecisionFallback: tt.allow})
			if err != nil {
				t.Fatal(err)
			}
			var t4 *Offer
			for i := range r.Offers {
				if r.Offers[i].GPU.Key == "t4" {
					t4 = &r.Offers[i]
				}
			}
			near := ""
			for _, x := range r.Rejected {
				if x.Instance.GPU == "t4" {
					near = x.Reason
				}
			}
			switch {
			case tt.near != "" && (t4 != nil || !strings.Contains(near, tt.near)):
				t.Errorf("T4 offered %v, near miss %q; want no offer and a near miss saying %q", t4 != nil, near, tt.near)
			case tt.near == "" && t4 == nil:
				t.Errorf("T4 not offered (near miss %q); want it at %q", near, tt.fallback)
			case t4 != nil && t4.Fallback != tt.fallback:
				t.Errorf("T4 runs %q in place of %q; want %q", t4.Fallback, t4.Asked, tt.fallback)
			case t4 != nil && tt.warn != "" && !hasWarning(*t4, tt.warn):
				t.Errorf("T4 warnings %q; want one saying %q", t4.Warnings(), tt.warn)
			}
		})
	}
}

// TestPrecisionKept pins the rule's messages for each kind of precision
// on a T4 (compute capability 7.5: fp16, no bf16) and an L4 (8.9: bf16).
func TestPrecisionKept(t *testing.T) {
	t4 := &GPU{Name: "NVIDIA T4", ComputeCapability: "7.5", FP32TFLOPS: 8.1, FP16TFLOPS: 65}
	l4 := &GPU{Name: "NVIDIA L4", ComputeCapability: "8.9", FP32TFLOPS: 30, FP16TFLOPS: 121, BF16TFLOPS: 121, FP8TFLOPS: 242}
	t5 := Architecture{ModelType: "t5"}
	gemma := Architecture{ModelType: "gemma3_text"}
	infer := func(a Architecture, p Precision) Workload {
		return Workload{Settings: Settings{Task: TaskInference, Precision: p}, Model: a}
	}
	train := func(p Precision) Workload {
		return Workload{Settings: Settings{Task: TaskFinetune, Precision: p}, Model: bertBase}
	}
	for _, tt := range []struct {
		name  string
		w     Workload
		g     *GPU
		asked bool
		want  string
	}{
		{"inference bf16 by default on T4: adapts to fp16", infer(bertBase, BF16), t4, false, ""},
		{"inference bf16 asked on T4: kept", infer(bertBase, BF16), t4, true,
			"NVIDIA T4 has no bf16; it would run fp16 (allow_precision_fallback)"},
		{"inference bf16 asked on L4: native", infer(bertBase, BF16), l4, true, ""},
		{"gemma3_text inference bf16 by default on T4: kept, overflows", infer(gemma, BF16), t4, false,
			"NVIDIA T4 has no bf16 and gemma3_text models overflow in fp16 (inf activations); it would run fp16 (allow_precision_fallback), or give precision fp32"},
		{"t5 int4 on T4: kept, its activations would be fp16", infer(t5, INT4), t4, true,
			"NVIDIA T4 has no bf16 and t5 models overflow in fp16 (inf activations); its int4 weights would compute in fp16 (allow_precision_fallback), or give precision fp32"},
		{"t5 int4 on L4: bf16 activations", infer(t5, INT4), l4, false, ""},
		{"t5 fp16 asked on T4: the user's choice", infer(t5, FP16), t4, true, ""},
		{"t5 fp32 on T4: native", infer(t5, FP32), t4, true, ""},
		{"inference fp8 by default on T4: kept", infer(bertBase, FP8), t4, false,
			"NVIDIA T4 has no fp8; it would run fp16 (allow_precision_fallback)"},
		{"inference fp8 by default on A100-like bf16 GPU without fp8: kept", infer(bertBase, FP8), &GPU{Name: "G40", ComputeCapability: "8.0", FP16TFLOPS: 312, BF16TFLOPS: 312}, false,
			"G40 has no fp8; it would run bf16 (allow_precision_fallback)"},
		{"training amp-bf16 by default on T4: adapts to amp-fp16", train(AMPBF16), t4, false, ""},
		{"training amp-bf16 asked on T4: kept", train(AMPBF16), t4, true,
			"NVIDIA T4 has no amp-bf16; it would run amp-fp16 (allow_precision_fallback)"},
		{"training pure bf16 on T4: CannotRun's, not this", train(BF16), t4, false, ""},
	} {
		if got := PrecisionKept(&tt.w, tt.g, tt.asked).String(); got != tt.want {
			t.Errorf("%s: PrecisionKept() = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestEstimateSaysFP16Overflow: estimate --gpu shows the precision the
// GPU runs (fp16 for T5's bf16 on a T4), and the Assumptions say that T5
// overflows there; on a GPU with bf16, or in fp32, they do not.
func TestEstimateSaysFP16Overflow(t *testing.T) {
	t5 := Architecture{Name: "T5-Base", ModelType: "t5", Family: FamilyEncoderDecoder, Layers: 12, DecoderLayers: 12, Hidden: 768, Heads: 12, FFN: 3072, Vocab: 32128, Tied: true}
	t4 := &GPU{Name: "NVIDIA T4", MemoryGiB: 16, ComputeCapability: "7.5", FP32TFLOPS: 8.1, FP16TFLOPS: 65, MemoryBandwidthGBps: 320}
	l4 := &GPU{Name: "NVIDIA L4", MemoryGiB: 24, ComputeCapability: "8.9", FP32TFLOPS: 30, FP16TFLOPS: 121, BF16TFLOPS: 121, MemoryBandwidthGBps: 300}
	const says = "t5 models overflow in fp16 (inf activations, then NaN): a GPU with bf16, or fp32, runs them"
	for _, tt := range []struct {
		name string
		p    Precision
		g    *GPU
		want bool
	}{
		{"bf16 on a T4: runs fp16, said", BF16, t4, true},
		{"bf16 on an L4: runs bf16", BF16, l4, false},
		{"fp32 on a T4", FP32, t4, false},
		{"int4 on a T4: fp16 activations, said", INT4, t4, true},
	} {
		e, err := Compute(Workload{Settings: Settings{Task: TaskInference, Precision: tt.p, SeqLen: 512}, Model: t5}, tt.g)
		if err != nil {
			t.Fatal(err)
		}
		if got := slices.Contains(e.Assumptions(), says); got != tt.want {
			t.Errorf("%s: Assumptions() say the overflow %v, want %v: %q", tt.name, got, tt.want, e.Assumptions())
		}
	}
}
