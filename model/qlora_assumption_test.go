package model

import (
	"strings"
	"testing"
)

// TestQLoRATimeAssumption: the assumptions say how QLoRA is timed: as
// LoRA plus bitsandbytes' dequantization when it is costed (dequantSeconds),
// as LoRA alone, said so, when it is not (an MFU given). Llama 3.1 8B,
// 4 × 4096 tokens with checkpointing on an A100: 3 passes of
// 6.9793e9 × 2.515869 B / (2039e9 × 0.6 B/s) = 14.353 ms, 43.06 ms in all
// (TestQLoRADequantTime works the pass out).
func TestQLoRATimeAssumption(t *testing.T) {
	costed := "QLoRA is timed as LoRA plus the dequantization: bitsandbytes turns each 4-bit weight into a 16-bit one 3× per micro-batch (MatMul4Bit: forward above 1536 tokens, backward, recomputation), 43.1 ms per micro-batch in all for 6.98B weights at 60% of 2039 GB/s"
	notCosted := "QLoRA is timed as LoRA: the dequantization of the 4-bit weights bitsandbytes runs before each matmul (MatMul4Bit) is not costed"
	for _, tt := range []struct {
		name      string
		task      Task
		mfu       float64
		want, not string
	}{
		{"QLoRA, costed", TaskQLoRA, 0, costed, notCosted},
		{"QLoRA at a given MFU: not costed", TaskQLoRA, 0.3, notCosted, costed[:40]},
		{"LoRA: neither", TaskLoRA, 0, "", "QLoRA is timed"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := Workload{Settings: Settings{Task: tt.task, MicroBatch: 4, SeqLen: 4096, GradAccum: 2, DatasetTokens: 1e8, Checkpointing: Bool(true), MFU: tt.mfu}, Model: llama31_8B}
			e, err := Compute(w, testA100)
			if err != nil {
				t.Fatal(err)
			}
			all := strings.Join(e.Assumptions(), "\n")
			if tt.want != "" && !strings.Contains(all, tt.want) {
				t.Errorf("assumptions lack %q:\n%s", tt.want, all)
			}
			if strings.Contains(all, tt.not) {
				t.Errorf("assumptions hold %q:\n%s", tt.not, all)
			}
		})
	}
}
