package serve

import "testing"

// TestServeMaxBatchCrossAttention: an encoder-decoder's sequence holds its
// cross-attention blocks for its whole life, beside its mean decoder
// occupancy: 109,824 KV tokens at 4 prompt + 444/2 output + 1504
// cross-attention tokens = 1730 a sequence hold ⌊109824 ÷ 1730⌋ = 63
// sequences, where the decoder alone (226) would give 485, above
// max_num_seqs 256.
func TestServeMaxBatchCrossAttention(t *testing.T) {
	s := Serving{PromptTokens: 4, OutputTokens: 444, MaxNumSeqs: 256}
	for _, tt := range []struct {
		name  string
		cross int
		want  int
	}{
		{"whisper: 1504 cross-attention tokens a sequence", 1504, 63},
		{"no cross-attention: max_num_seqs binds", 0, 256},
	} {
		m := Memory{KVTokens: 109824, CrossTokens: tt.cross}
		if got := serveMaxBatch(&s, &m); got != tt.want {
			t.Errorf("%s: serveMaxBatch = %d, want %d", tt.name, got, tt.want)
		}
	}
}
