package report

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestLossAssumption: when the default loss (Hugging Face's fp32 upcast,
// model.LossHFUpcast) is more than LossShareNote of the total, the
// assumptions say so in words, with what it costs over a chunked linear
// cross-entropy; not when the loss was chosen, nor when it is small.
//
// The figure is e's total less that of the same job with --loss chunked.
// By hand it is bounded by the logits' bytes (model/memory.go
// logitsBytes): 2 × 8192 positions × 128256 vocabulary = 2.1013e9 logits;
// hf-fp32 holds 10 B each in forward (16-bit logits, their fp32 copy, the
// fp32 log-softmax) and 14 B in backward (the fp32 gradient), chunked
// one eighth of 6 B and 10 B (0.75 and 1.25 B a logit). So the default
// adds at least (10 − 0.75) × 2.1013e9 = 18.10 GiB (the forward's gap)
// and at most (14 − 1.25) × 2.1013e9 = 24.95 GiB (the backward's), more
// than 10% of a LoRA job on an 8B model.
func TestLossAssumption(t *testing.T) {
	cat := leakCatalog(t)
	arch, err := cat.Model("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	h100, err := cat.GPU("h100-sxm")
	if err != nil {
		t.Fatal(err)
	}
	const logits = 2.0 * 8192 * 128256
	for _, tt := range []struct {
		name     string
		task     model.Task
		batch    int
		seq      int
		loss     model.Loss
		lo, hi   float64 // bounds of the extra bytes; 0: no note
		headline string
	}{
		{"LoRA b2 × 8192, default loss", model.TaskLoRA, 2, 8192, model.LossAuto, (10 - 0.75) * logits, (14 - 1.25) * logits, "loss: the default loss takes"},
		{"the same with --loss hf-fp32 chosen", model.TaskLoRA, 2, 8192, model.LossHFUpcast, 0, 0, ""},
		{"the same with --loss native", model.TaskLoRA, 2, 8192, model.LossNative, 0, 0, ""},
		// 512 positions: 66 M logits, at most 0.78 GiB of a ~17 GiB job.
		{"LoRA b1 × 512: a small share", model.TaskLoRA, 1, 512, model.LossAuto, 0, 0, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := model.Workload{Model: *arch, Settings: model.Settings{Task: tt.task, MicroBatch: tt.batch, SeqLen: tt.seq,
				Checkpointing: model.Bool(true), Loss: tt.loss}}
			e, err := model.Compute(w, h100)
			if err != nil {
				t.Fatal(err)
			}
			got := LossAssumptionIn(nil, &e)
			all := strings.Join(EstimateAssumptions(nil, &e), "\n")
			if tt.hi == 0 {
				if got != "" || strings.Contains(all, "the default loss takes") {
					t.Errorf("a note where none is due:\n%s", got)
				}
				return
			}
			c := w
			c.Loss = model.LossChunked
			ec, err := model.Compute(c, h100)
			if err != nil {
				t.Fatal(err)
			}
			extra := e.Memory.Total() - ec.Memory.Total()
			if extra < tt.lo || extra > tt.hi || extra <= LossShareNote*e.Memory.Total() {
				t.Fatalf("default loss adds %.2f GiB, want %.2f–%.2f GiB and over 10%% of %.2f GiB", extra/model.GiB, tt.lo/model.GiB, tt.hi/model.GiB, e.Memory.Total()/model.GiB)
			}
			want := fmt.Sprintf("%s %s per GPU (%.0f%% of the total) more than a chunked linear cross-entropy would (%s in all): gpuplan assumes Hugging Face transformers' loss, which copies the 128256-token logits to fp32 before the cross-entropy (transformers loss_utils.py ForCausalLMLoss: logits.float())",
				tt.headline, GiB(extra), math.Round(extra/e.Memory.Total()*100), GiB(ec.Memory.Total()))
			if !strings.HasPrefix(got, want) || !strings.Contains(got, "give --loss chunked, fused or native") {
				t.Errorf("note\n got %q\nwant %q…", got, want)
			}
			if !strings.Contains(all, got) {
				t.Errorf("the assumptions lack the note:\n%s", all)
			}
			if j := NewEstimateJSON(&e, nil); !strings.Contains(strings.Join(j.Assumptions, "\n"), tt.headline) {
				t.Errorf("the JSON assumptions lack the note: %q", j.Assumptions)
			}
		})
	}
}
