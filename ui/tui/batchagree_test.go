package tui

import (
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// TestConfiguratorBatchAgreesWithEstimate: the user's Qwen3-8B LoRA job
// (seq 2048, batch 1, checkpointing) had accumulation 16 in the
// configurator and 1 from `gpuplan estimate --model qwen3-8b --task lora
// --seq-len 2048 --batch-size 1 --checkpointing`. Both now resolve through
// config.WorkloadAnswers.Resolve (model.Workload.Defaults): batch 1 is the
// recipe's micro-batch, whose accumulation 16 stays, in both, with the
// same VRAM; so does --grad-accum 16 without --batch-size.
func TestConfiguratorBatchAgreesWithEstimate(t *testing.T) {
	cat, err := data.Load() // the embedded catalog: the test fixture has no Qwen3-8B
	if err != nil {
		t.Fatal(err)
	}
	a := defaultAnswers(cat)
	a.Model, a.Task = "qwen3-8b", model.TaskLoRA
	a.reconcile(cat, nil)
	a.Length, a.Checkpointing = "2048", true
	if a.Batch != "1" {
		t.Fatalf("the configurator shows batch %q for Qwen3-8B LoRA, want 1", a.Batch)
	}
	c, err := a.config()
	if err != nil {
		t.Fatal(err)
	}
	tui, _, err := c.Workload.Resolve(cat, config.Readers{})
	if err != nil {
		t.Fatal(err)
	}
	te, err := model.Compute(tui, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, flags := range []struct {
		name         string
		micro, accum int
	}{{"--batch-size 1", 1, 0}, {"--grad-accum 16", 0, 16}, {"no batch flag", 0, 0}} {
		// The flags as ui/cli sets them (workloadFlags.set).
		var cli config.WorkloadAnswers
		cli.Model, cli.Task, cli.SeqLen, cli.Checkpointing = "qwen3-8b", model.TaskLoRA, 2048, model.Bool(true)
		cli.MicroBatch, cli.GradAccum = flags.micro, flags.accum
		w, _, err := cli.Resolve(cat, config.Readers{})
		if err != nil {
			t.Fatal(err)
		}
		e, err := model.Compute(w, nil)
		if err != nil {
			t.Fatal(err)
		}
		if tui.MicroBatch != 1 || tui.GradAccum != 16 || w.MicroBatch != 1 || w.GradAccum != 16 {
			t.Errorf("%s: estimate %d × %d, configurator %d × %d; want 1 × 16 in both", flags.name, w.MicroBatch, w.GradAccum, tui.MicroBatch, tui.GradAccum)
		}
		if e.ResidentNeed() != te.ResidentNeed() {
			t.Errorf("%s: estimate %.4g B, configurator %.4g B", flags.name, e.ResidentNeed(), te.ResidentNeed())
		}
	}
}
