package serve

import (
	"errors"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// l4 is the NVIDIA L4 24GB as the catalog has it: under vLLM's 70 GiB
// line, so its batch defaults are 2048 tokens and 256 sequences.
var l4 = model.GPU{Key: "l4", MemoryGiB: 24, MemoryBandwidthGBps: 300, BF16TFLOPS: 121, FP16TFLOPS: 121, ComputeCapability: "8.9"}

// TestDefaultMaxNumSeqsCappedByTokens: vLLM sets max_num_seqs, when not
// given, to min(its default, max_num_batched_tokens)
// (vllm/engine/arg_utils.py EngineArgs._set_default_args), and refuses
// max_num_batched_tokens < max_num_seqs (vllm/config/scheduler.py
// SchedulerConfig.verify_max_model_len). walk50: --max-num-batched-tokens
// 512 on an H100 was planned, and exported, with max_num_seqs 1024, a
// `vllm serve` that raises ValueError at start.
func TestDefaultMaxNumSeqsCappedByTokens(t *testing.T) {
	base := Serving{PromptTokens: 1000, OutputTokens: 200, MaxModelLen: 4096}
	for _, tt := range []struct {
		name             string
		g                *model.GPU
		tokens, seqs     int
		wantTok, wantSeq int
	}{
		{"H100 defaults: 8192 tokens, 1024 sequences", &h100SXM, 0, 0, 8192, 1024},
		{"H100, 512 tokens: min(1024, 512) = 512 sequences", &h100SXM, 512, 0, 512, 512},
		{"L4, 100 tokens: min(256, 100) = 100 sequences", &l4, 100, 0, 100, 100},
		{"L4, 4096 tokens: min(256, 4096) = 256 sequences", &l4, 4096, 0, 4096, 256},
		{"sequences given are kept: 64 of 512 tokens", &h100SXM, 512, 64, 512, 64},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := base
			s.MaxNumBatchedTokens, s.MaxNumSeqs = tt.tokens, tt.seqs
			got := s.Defaults(tt.g)
			if got.MaxNumBatchedTokens != tt.wantTok || got.MaxNumSeqs != tt.wantSeq {
				t.Errorf("Defaults() = %d tokens, %d sequences; want %d, %d", got.MaxNumBatchedTokens, got.MaxNumSeqs, tt.wantTok, tt.wantSeq)
			}
			if err := got.Validate(&modeltest.Llama31_8B); err != nil {
				t.Errorf("Validate() = %v, want nil", err)
			}
		})
	}
	for _, tt := range []struct {
		name         string
		g            *model.GPU
		tokens, seqs int
	}{
		{"300 sequences, 10 tokens per step", &l4, 10, 300},
		{"4096 sequences on an L4's default 2048 tokens", &l4, 0, 4096},
		{"1024 sequences, 512 tokens on an H100", &h100SXM, 512, 1024},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := base
			s.MaxNumBatchedTokens, s.MaxNumSeqs = tt.tokens, tt.seqs
			s = s.Defaults(tt.g)
			if err := s.Validate(&modeltest.Llama31_8B); !errors.Is(err, ErrInvalid) {
				t.Errorf("Validate(%d tokens, %d sequences) = %v, want ErrInvalid", s.MaxNumBatchedTokens, s.MaxNumSeqs, err)
			}
			if _, err := PlanServing(&modeltest.Llama31_8B, s, GPUOffer(tt.g, 1)); !errors.Is(err, ErrInvalid) {
				t.Errorf("PlanServing(%d tokens, %d sequences) = %v, want ErrInvalid", s.MaxNumBatchedTokens, s.MaxNumSeqs, err)
			}
		})
	}
}
