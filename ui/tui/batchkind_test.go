package tui

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// New-user walk (walk35): a serving file's batch_size = 4 (serving's
// concurrent requests) reopened and switched to QLoRA stayed "batch 4 ×
// 4096", 39.41 GiB where QLoRA's default batch needs 14.47. The batch
// answer is the concurrency when serving and the micro-batch when
// training: a switch across the two fills the new kind's default and
// keeps the other's answer for the way back, in both directions.
func TestBatchDoesNotCrossServingAndTraining(t *testing.T) {
	cat := testCatalog(t)
	file := &config.Config{Workload: config.WorkloadAnswers{Settings: model.Settings{Task: model.TaskInference, MicroBatch: 4, SeqLen: 4096}, Model: "llama-3.1-8b"}}
	fresh := func(task model.Task) (string, int) { // the batch a fresh start of task answers, and sends
		a := defaultAnswers(cat)
		a.Task = task
		a.reconcile(cat, nil)
		c, err := a.config()
		if err != nil {
			t.Fatal(err)
		}
		return a.Batch, c.Workload.MicroBatch
	}
	m := start(t, newTestApp(t, cat, Options{Config: file}), size(120, 40))
	if m.a.Batch != "4" {
		t.Fatalf("the file's concurrency reopened as %q", m.a.Batch)
	}
	steps := []struct {
		task model.Task
		want string // the batch answer after the switch; "": the task's fresh default
	}{
		{model.TaskQLoRA, ""},
		{model.TaskInference, "4"}, // the file's concurrency, kept for the way back
		{model.TaskFinetune, ""},
	}
	for _, s := range steps {
		m.a.Task = s.task
		m.afterForm()
		m.recompute()
		wantBatch, wantSent := fresh(s.task)
		if s.want != "" {
			wantBatch, wantSent = s.want, 4
		}
		c, err := m.a.config()
		if err != nil {
			t.Fatal(err)
		}
		if m.a.Batch != wantBatch || c.Workload.MicroBatch != wantSent {
			t.Errorf("after switching to %s the batch is %q (sends %d); want %q (sends %d)", s.task, m.a.Batch, c.Workload.MicroBatch, wantBatch, wantSent)
		}
	}
	// Trained with a batch typed, then served: the micro-batch is not the
	// concurrency, and comes back with training.
	m.a.Batch = "8"
	m.afterForm()
	m.a.Task = model.TaskInference
	m.afterForm()
	if m.a.Batch != "4" {
		t.Errorf("serving after training with batch 8: concurrency %q, want the file's 4", m.a.Batch)
	}
	m.a.Task = model.TaskLoRA
	m.afterForm()
	if m.a.Batch != "8" {
		t.Errorf("back to training: batch %q, want the 8 typed", m.a.Batch)
	}
}

// The estimate after the switch is QLoRA's with its default batch, as a
// fresh QLoRA start estimates it (walk35: 14.47 GiB, not batch 4's 39.41).
func TestServingFileToQLoRAEstimate(t *testing.T) {
	cat := testCatalog(t)
	file := &config.Config{Workload: config.WorkloadAnswers{Settings: model.Settings{Task: model.TaskInference, MicroBatch: 4, SeqLen: 4096}, Model: "llama-3.1-8b"}}
	m := start(t, newTestApp(t, cat, Options{Config: file}), size(120, 40))
	m.a.Task = model.TaskQLoRA
	m.afterForm()
	m.recompute()
	f := start(t, newTestApp(t, cat, Options{Config: &config.Config{Workload: config.WorkloadAnswers{Settings: model.Settings{Task: model.TaskQLoRA, SeqLen: 4096}, Model: "llama-3.1-8b"}}}), size(120, 40))
	if !m.res.ok() || !f.res.ok() {
		t.Fatalf("no estimate: %+v %+v", m.res, f.res)
	}
	got, want := m.res.est, f.res.est
	if got.Workload.MicroBatch != want.Workload.MicroBatch || got.Memory.Total() != want.Memory.Total() {
		t.Errorf("QLoRA after serving: batch %d, %.2f GiB; a fresh QLoRA: batch %d, %.2f GiB",
			got.Workload.MicroBatch, got.Memory.Total()/(1<<30), want.Workload.MicroBatch, want.Memory.Total()/(1<<30))
	}
}
