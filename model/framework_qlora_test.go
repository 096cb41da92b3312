package model

import (
	"errors"
	"testing"
)

// TestQLoRANeedsPyTorch: QLoRA is bitsandbytes' 4-bit NF4 under PEFT,
// PyTorch libraries, so TensorFlow and JAX refuse it on the framework
// field (the CLI exits 2 with the line); LoRA stays, as Keras and Flax
// have adapters. Before, QLoRA with --framework tensorflow was estimated.
func TestQLoRANeedsPyTorch(t *testing.T) {
	for _, tc := range []struct {
		task Task
		fw   Framework
		ok   bool
	}{
		{TaskQLoRA, TensorFlow, false},
		{TaskQLoRA, JAX, false},
		{TaskQLoRA, PyTorch, true},
		{TaskQLoRA, "", true},
		{TaskLoRA, TensorFlow, true},
		{TaskLoRA, JAX, true},
	} {
		w := Workload{Settings: Settings{Task: tc.task, Framework: tc.fw, MicroBatch: 1, SeqLen: 512}, Model: llama31_8B}
		w.Defaults()
		err := w.Validate()
		var fe *FieldError
		switch {
		case tc.ok && err != nil:
			t.Errorf("%s on %q: %v, want accepted", tc.task, tc.fw, err)
		case !tc.ok && (!errors.As(err, &fe) || fe.Field != "framework"):
			t.Errorf("%s on %q: %v, want a framework error", tc.task, tc.fw, err)
		}
	}
}
