package model

import (
	"math"
	"testing"
)

// Issue 31 item 10: QLoRA was timed exactly as LoRA. bitsandbytes
// dequantizes every 4-bit weight to 16 bits before each matmul of more
// than 1536 tokens in forward, always in backward, and again in a
// recomputed forward (MatMul4Bit; bitsandbytes 0.50 gemm_4bit), a
// memory-bound kernel: the packed weight and its absmax read
// (0.515869 B/param with double quantization), the 16-bit weight written
// (2 B). Llama 3.1 8B's block linears hold 32 × (2·4096² + 2·4096·1024 +
// 3·4096·14336) = 6.9793e9 parameters, so one pass on an A100 (2039 GB/s
// at MBU 0.6) takes 6.9793e9 × 2.515869 / 1.2234e12 = 14.353 ms.
func TestQLoRADequantTime(t *testing.T) {
	const params = 32 * (2*4096*4096 + 2*4096*1024 + 3*4096*14336)
	pass := params * (0.5 + 1.0/64 + 4.0/(64*256) + 2) / (2039e9 * 0.6)
	tests := []struct {
		name         string
		batch, seq   int
		ckpt         bool
		passes       int
		perMicroSecs float64
	}{
		{"4 × 4096 tokens, checkpointing: forward, backward, recompute", 4, 4096, true, 3, 3 * pass},
		{"4 × 4096 tokens, no checkpointing: forward, backward", 4, 4096, false, 2, 2 * pass},
		{"1 × 512 tokens: the fused kernel forward, backward only", 1, 512, true, 1, pass},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := Workload{Settings: Settings{Task: TaskQLoRA, MicroBatch: tt.batch, SeqLen: tt.seq, GradAccum: 2, DatasetTokens: 1e8, Checkpointing: Bool(tt.ckpt)}, Model: llama31_8B}
			l := q
			l.Task = TaskLoRA
			eq, err := Compute(q, testA100)
			if err != nil {
				t.Fatal(err)
			}
			el, err := Compute(l, testA100)
			if err != nil {
				t.Fatal(err)
			}
			if got := DequantPasses(&eq.Workload); got != tt.passes {
				t.Errorf("DequantPasses() = %d, want %d", got, tt.passes)
			}
			// Same FLOPs and utilisation: the difference is the dequantization,
			// per micro-batch, 2 micro-batches a step.
			want := eq.Samples / eq.SamplesPerStep * 2 * tt.perMicroSecs / 3600 // steps, unrounded
			if got := eq.Hours - el.Hours; math.Abs(got/want-1) > 1e-6 {
				t.Errorf("QLoRA − LoRA = %.6g h, want %.6g h (%.4g ms per micro-batch)", got, want, tt.perMicroSecs*1e3)
			}
		})
	}
}
