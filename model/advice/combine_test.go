package advice

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// TestFitAdviceCombinesSavers: when no single change fits on the GPUs
// asked, FitAdvice gives the smallest combination of the memory savers
// that does (combine), first, before sharding over more GPUs, on the
// same GPUs and global batch, its figure Compute's. Llama
// 2 7B full fine-tune at 1 × 4096 on an 80 GB GPU: pure bf16 alone is
// borderline, 8-bit AdamW alone does not fit, the two fit across their
// band; Llama 3.1 8B LoRA at 4 × 4096 on 40 GB: checkpointing and a
// chunked loss (a smaller micro-batch with the loss does not fit). No
// combination is advised when nothing needs one.
func TestFitAdviceCombinesSavers(t *testing.T) {
	h100 := 80 * model.GiB * (1 - model.FitMargin)
	a100 := 40 * model.GiB * (1 - model.FitMargin)
	for _, tt := range []struct {
		name     string
		w        model.Workload
		capBytes float64
		want     string // the combination's change; "" for none
	}{
		{"7B full fine-tune, 1 × 4096, on 80 GB", model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 1, SeqLen: 4096, GPUs: 1}, Model: modeltest.Llama2_7B}, h100,
			"combine 8-bit AdamW + pure bf16 on bf16 hardware (--optimizer adamw-8bit --precision bf16)"},
		{"8B LoRA, 4 × 4096, on 40 GB", model.Workload{Settings: model.Settings{Task: model.TaskLoRA, MicroBatch: 4, SeqLen: 4096, GPUs: 1}, Model: modeltest.Llama31_8B}, a100,
			"combine a chunked linear cross-entropy + activation checkpointing at about 33% more compute (--loss chunked --checkpointing)"},
		{"8B LoRA, 1 × 2048, on 80 GB: fits, nothing to advise", model.Workload{Settings: model.Settings{Task: model.TaskLoRA, MicroBatch: 1, SeqLen: 2048, GPUs: 1}, Model: modeltest.Llama31_8B}, h100, ""},
	} {
		adv := FitAdvice(tt.w, tt.capBytes)
		var combo *Advice
		for i := range adv {
			if strings.HasPrefix(adv[i].Change, "combine ") {
				combo = &adv[i]
				if i != 0 {
					t.Errorf("%s: the combination is line %d, after %q", tt.name, i+1, adv[0].Change)
				}
			}
		}
		switch {
		case tt.want == "" && combo != nil:
			t.Errorf("%s: advised %q", tt.name, combo.Change)
			continue
		case tt.want == "":
			continue
		case combo == nil:
			t.Errorf("%s: no combination in %+v", tt.name, adv)
			continue
		case combo.Change != tt.want:
			t.Errorf("%s: %q, want %q", tt.name, combo.Change, tt.want)
		}
		if e, _ := model.Compute(combo.Workload, nil); e.Memory.Total() != combo.Total || combo.Total > tt.capBytes || combo.Workload.GPUs != tt.w.GPUs {
			t.Errorf("%s: %q: %.2f GiB on %d GPUs (recomputed %.2f), cap %.2f GiB", tt.name, combo.Change, combo.Total/model.GiB, combo.Workload.GPUs, e.Memory.Total()/model.GiB, tt.capBytes/model.GiB)
		}
		if combo.Workload.GlobalBatch() != tt.w.GlobalBatch() {
			t.Errorf("%s: global batch %d, want %d", tt.name, combo.Workload.GlobalBatch(), tt.w.GlobalBatch())
		}
		// No single saver fits alone on these GPUs across its band.
		for _, a := range adv {
			if a.Verdict == model.VerdictFits && a.Workload.GPUs <= tt.w.GPUs && a.Change != combo.Change {
				t.Errorf("%s: %q fits alone, yet a combination is advised", tt.name, a.Change)
			}
		}
	}
}

// TestPastOneNode: sharding over more GPUs than the job's and one node's
// is no advice beside a change that fits on as many (ZeRO-3 over 64 GPUs
// for a 4B LoRA); when only such changes fit they stay, marked; when
// nothing fits, one past a node stays only if it needs the least.
func TestPastOneNode(t *testing.T) {
	on := func(change string, gpus int, gib float64, fits bool) Advice {
		m := model.Msg("%s", change)
		return Advice{Change: m.String(), Msg: m, Workload: model.Workload{Settings: model.Settings{GPUs: gpus}}, Total: gib * model.GiB, Fits: fits}
	}
	changes := func(a []Advice) string {
		var s []string
		for _, x := range a {
			s = append(s, x.Change)
		}
		return strings.Join(s, " | ")
	}
	for _, tt := range []struct {
		name string
		in   []Advice
		gpus int
		want string
	}{
		{"a change fits on one GPU: 64-GPU lines go", []Advice{on("combo", 1, 11, true), on("ckpt", 1, 22, false), on("zero3 64", 64, 33, false), on("fsdp 64", 64, 30, true)}, 1,
			"combo | ckpt"},
		{"nothing fits, 64 GPUs not the least: it goes", []Advice{on("ckpt", 1, 22, false), on("zero3 64", 64, 33, false)}, 1, "ckpt"},
		{"nothing fits, 64 GPUs the least: it stays", []Advice{on("ckpt", 1, 40, false), on("zero3 64", 64, 33, false)}, 1, "ckpt | zero3 64"},
		{"only past one node fits: kept and marked", []Advice{on("ckpt", 1, 900, false), on("zero3 32", 32, 70, true), on("zero3 8", 8, 200, false)}, 1,
			"ckpt | zero3 32 (the only kind of change found that fits: nothing fits on 8 GPUs or fewer) | zero3 8"},
		{"the job's own 64 GPUs are not past it", []Advice{on("zero3 64", 64, 30, true), on("ckpt", 64, 20, true)}, 64, "zero3 64 | ckpt"},
	} {
		if got := changes(pastOneNode(tt.in, tt.gpus, model.DefaultGPUsPerNode)); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
