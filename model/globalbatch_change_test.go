package model

import "testing"

// TestGlobalBatchChange: when the global batch a job runs is not the one
// asked for, the workload says so in one line (asked N, runs M = micro ×
// accumulation × GPUs), as a warning; when it is, nothing. Hand-worked:
// the QLoRA recipe's 16 asked nothing, so GPUs that cannot share it run
// the nearest they share and BatchNote alone says it (3 GPUs: 1 × 5 × 3
// = 15, 32 GPUs: 1 × 1 × 32, no warning beside the note); a batch of 2 × 3 = 6 moved to 4 GPUs (OnGPUs: 6 is
// not a multiple of 4) runs 2 × 3 × 4 = 24, to 3 GPUs 2 × 1 × 3 = 6.
func TestGlobalBatchChange(t *testing.T) {
	qlora := func(gpus int) Workload {
		w := Workload{Model: llama31_8B, Settings: Settings{Task: TaskQLoRA, GPUs: gpus}}
		w.Defaults()
		return w
	}
	ft := Workload{Model: llama31_8B, Settings: Settings{Task: TaskFinetune, MicroBatch: 2, GradAccum: 3, GPUs: 1}}
	ft.Defaults()
	on := func(w Workload, n int, wantOK bool) Workload {
		v, ok := w.OnGPUs(n)
		if ok != wantOK {
			t.Fatalf("OnGPUs(%d) ok = %v, want %v", n, ok, wantOK)
		}
		return v
	}
	inf := Workload{Model: llama31_8B, Settings: Settings{Task: TaskInference, GPUs: 3}}
	inf.Defaults()
	for _, tt := range []struct {
		name string
		w    Workload
		want string
	}{
		{"qlora on 3 GPUs", qlora(3), ""},
		{"qlora on 32 GPUs", qlora(32), ""},
		{"qlora on 4 GPUs", qlora(4), ""},
		{"6 on 4 GPUs", on(ft, 4, false), "global batch: asked 6, runs 24 = micro-batch 2 × gradient accumulation 3 × 4 data-parallel GPUs (they cannot share 6 in whole samples)"},
		{"6 on 3 GPUs", on(ft, 3, true), ""},
		{"inference", inf, ""},
	} {
		m, ok := tt.w.GlobalBatchChange()
		if got := m.String(); got != tt.want || ok != (tt.want != "") {
			t.Errorf("%s: %q (%v), want %q", tt.name, got, ok, tt.want)
		}
		warned := false
		for _, x := range tt.w.WarningMessages() {
			warned = warned || x.String() == tt.want
		}
		if tt.want != "" && !warned {
			t.Errorf("%s: not among the warnings", tt.name)
		}
	}
}
