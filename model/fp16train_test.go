package model

import (
	"strings"
	"testing"
)

// TestTrainingFP16OverflowRefused: training a model whose activations
// overflow fp16 (FP16Overflows: Gemma 3, T5) never runs in fp16, as pure
// bf16 on a V100 never does: the amp-fp16 fallback of a GPU without bf16
// is refused (CannotRun, whatever allow_precision_fallback says), and so
// is amp-fp16 asked for on any GPU; fp32 runs on the T4, amp-bf16 on a
// GPU with bf16, and a model without the overflow keeps its fallback.
// Before, the T4 ranked first at ↺amp-fp16 with a NaN warning under it.
func TestTrainingFP16OverflowRefused(t *testing.T) {
	gemma := Architecture{Name: "Gemma 3 1B", ModelType: "gemma3_text", Family: FamilyDecoder, Layers: 26, Hidden: 1152, Heads: 4, KVHeads: 1, HeadDim: 256, FFN: 6912, Vocab: 262144}
	lora := func(a Architecture, p Precision) Workload {
		return Workload{Settings: Settings{Task: TaskLoRA, Precision: p, MicroBatch: 1, SeqLen: 512}, Model: a}
	}
	for _, tt := range []struct {
		name         string
		w            Workload
		gpu          string
		asked, allow bool
		refused      string // in the near miss's reason; "" when the GPU runs it
	}{
		{name: "gemma amp-bf16 by default on a T4: refused", w: lora(gemma, AMPBF16), gpu: "t4",
			refused: "NVIDIA T4 has no amp-bf16, and gemma3_text models overflow in its fallback amp-fp16 (inf activations, then NaN): precision fp32 trains them there"},
		{name: "gemma, fallback allowed: still refused (NaN)", w: lora(gemma, AMPBF16), gpu: "t4", asked: true, allow: true,
			refused: "overflow in its fallback amp-fp16"},
		{name: "gemma amp-fp16 asked on a T4: refused", w: lora(gemma, AMPFP16), gpu: "t4", asked: true,
			refused: "gemma3_text models overflow in amp-fp16 (inf activations, then NaN), and NVIDIA T4 has no bf16: precision fp32 trains them there"},
		{name: "gemma amp-fp16 asked on a bf16 GPU: refused, amp-bf16 named", w: lora(gemma, AMPFP16), gpu: "g40", asked: true,
			refused: "gemma3_text models overflow in amp-fp16 (inf activations, then NaN): precision amp-bf16 trains them on G40"},
		{name: "gemma fp32 on a T4: runs", w: lora(gemma, FP32), gpu: "t4", asked: true},
		{name: "gemma amp-bf16 on a bf16 GPU: runs", w: lora(gemma, AMPBF16), gpu: "g40"},
		{name: "bert amp-bf16 by default on a T4: ↺amp-fp16 as before", w: lora(bertBase, AMPBF16), gpu: "t4"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Recommend(tt.w, t4Catalog(), Query{Providers: []string{"p1"}, GPUs: []string{tt.gpu}, PrecisionAsked: tt.asked, AllowPrecisionFallback: tt.allow})
			if err != nil {
				t.Fatal(err)
			}
			near := ""
			for _, x := range r.Rejected {
				if x.Instance.GPU == tt.gpu && x.Kind == RejectPrecision {
					near = x.Reason
				}
			}
			switch {
			case tt.refused != "" && (len(r.Offers) > 0 || !strings.Contains(near, tt.refused)):
				t.Errorf("%d offers, near miss %q; want none and a near miss saying %q", len(r.Offers), near, tt.refused)
			case tt.refused == "" && len(r.Offers) == 0:
				t.Errorf("no offer (near miss %q); want the %s to run it", near, tt.gpu)
			}
			g, _ := t4Catalog().GPU(tt.gpu)
			if got := CannotRun(&tt.w, g).IsZero(); got != (tt.refused == "") {
				t.Errorf("CannotRun() zero = %v, want %v", got, tt.refused == "")
			}
		})
	}
}

// TestCannotRunHint: the line under estimate's "✗ cannot run" names what
// runs there, fp32 for a model that overflows fp16; nothing when the
// reason already says it.
func TestCannotRunHint(t *testing.T) {
	v100 := &GPU{Name: "V100", ComputeCapability: "7.0", FP32TFLOPS: 15, FP16TFLOPS: 120}
	gemma := Architecture{ModelType: "gemma3_text"}
	for _, tt := range []struct {
		name string
		w    Workload
		want string
	}{
		{"pure bf16 bert", Workload{Settings: Settings{Task: TaskFinetune, Precision: BF16}, Model: bertBase},
			"pure bf16 training has no fp16 fallback (fp16 needs loss scaling): --precision amp-fp16 runs there"},
		{"pure bf16 gemma", Workload{Settings: Settings{Task: TaskFinetune, Precision: BF16}, Model: gemma},
			"pure bf16 training has no fp16 fallback (fp16 needs loss scaling), and gemma3_text models overflow in fp16: --precision fp32 runs there"},
		{"amp-bf16 gemma: the reason says it", Workload{Settings: Settings{Task: TaskFinetune, Precision: AMPBF16}, Model: gemma}, ""},
	} {
		if got := CannotRunHint(&tt.w, v100).String(); got != tt.want {
			t.Errorf("%s: CannotRunHint() = %q, want %q", tt.name, got, tt.want)
		}
	}
}
