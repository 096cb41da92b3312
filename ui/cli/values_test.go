package cli

import (
	"path/filepath"
	"testing"
)

func TestTokensValue(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int
		err  bool
	}{{"8k", 8000, false}, {"8K", 8192, false}, {"1.5k", 1500, false}, {"1.5K", 0, true}, {"4096", 4096, false}, {"128K", 131072, false},
		{"2048", 2048, false}, {"x", 0, true}, {"1.3k", 1300, false}, {"-1", -1, false}} {
		var v int
		err := tokensValue{&v}.Set(tt.in)
		if (err != nil) != tt.err || !tt.err && v != tt.want {
			t.Errorf("Set(%q) = %d, %v; want %d (error %v)", tt.in, v, err, tt.want, tt.err)
		}
	}
}

// TestCountFlagsInExponentForm: a count written 1e14 is a whole number; a
// flag refuses it as out of range with its bound, not as "want a whole
// number" (issue 29), and counts no later check bounded (--sequences,
// --concurrency, --max-num-seqs, --max-num-batched-tokens, --disk-gb) are
// held to their configuration key's bound. 1e3 is taken as 1000.
func TestCountFlagsInExponentForm(t *testing.T) {
	train := []string{"estimate", "--model", "llama-3.1-8b", "--task", "qlora", "--dataset-tokens", "1M"}
	serve := []string{"recommend", "--model", "llama-3.1-8b", "--task", "inference"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{append(train, "--batch-size", "1e14"), "gpuplan: --batch-size: must be 1–1048576, got 100000000000000\n"},
		{append(train, "--batch-size", "1e30"), "gpuplan: --batch-size \"1e30\": out of range: at most 1048576\n"},
		{append(train, "--grad-accum", "1e14"), "gpuplan: --grad-accum: must be 1–1048576, got 100000000000000\n"},
		{append(train, "--gpus", "1e14"), "gpuplan: --gpus: must be 1–131072, got 100000000000000\n"},
		{append(train, "--lora-rank", "1e14"), "gpuplan: --lora-rank: must be 1–65536, got 100000000000000\n"},
		{append(train, "--seq-len", "1e14"), "gpuplan: --seq-len \"1e14\": out of range: at most 16777216\n"},
		{append(train, "--batch-size", "2.5e0"), "gpuplan: --batch-size \"2.5e0\": want a whole number such as 8 or 2k\n"},
		{[]string{"recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--dataset-tokens", "1M", "--max-gpus", "1e14"}, "gpuplan: --max-gpus must be 1–131072, got 100000000000000\n"},
		{append(serve, "--sequences", "1e14"), "gpuplan: --sequences must be 1–1048576, got 100000000000000\n"},
		{append(serve, "--concurrency", "2e6"), "gpuplan: --concurrency must be 1–1048576, got 2000000\n"},
		{append(serve, "--max-num-seqs", "1e14"), "gpuplan: --max-num-seqs must be 1–1048576, got 100000000000000\n"},
		{append(serve, "--max-num-batched-tokens", "1e9"), "gpuplan: --max-num-batched-tokens must be 1–16777216, got 1000000000\n"},
		{[]string{"export", "--model", "llama-3.1-8b", "--task", "qlora", "--instance", "aws/g6.xlarge", "--disk-gb", "1e14", "-o", filepath.Join(t.TempDir(), "x")}, "gpuplan: --disk-gb must be 1–1048576, got 100000000000000\n"},
	} {
		code, _, errOut := runCLI(t, tc.args...)
		if code != 2 || errOut != tc.want {
			t.Errorf("%v: exit %d, stderr %q; want exit 2, %q", tc.args[len(tc.args)-2:], code, errOut, tc.want)
		}
	}
	if code, _, errOut := runCLI(t, append(train, "--batch-size", "1e3")...); code == 2 {
		t.Errorf("--batch-size 1e3: exit 2 (%q), want it read as 1000", errOut)
	}
}
