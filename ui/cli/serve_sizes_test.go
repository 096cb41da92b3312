package cli

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
)

// TestServeTPRuleIsVLLMs: vLLM's tensor-parallel rule is the attention
// heads divisible by TP, and the KV heads and TP dividing one another
// (vllm/config/model.py verify_with_parallel_config, QKVParallelLinear);
// it has no power-of-two rule. A new user's walk: Phi-4 (40 heads, 10 KV
// heads) at --tp 5 on L4 was refused "tp must be a power of two, got 5".
// A TP vLLM refuses lists the valid sizes up to the GPU's largest node
// (8 L4s: not 28). Failing before: the refusal.
func TestServeTPRuleIsVLLMs(t *testing.T) {
	code, out, errOut := runCLI(t, "estimate", "--task", "serve", "--model", "phi-4", "--gpu", "l4", "--tp", "5")
	if code != 0 || !strings.Contains(out, "TP 5 × PP 1") {
		t.Errorf("phi-4 --tp 5: exit %d, %s%s; want a TP 5 plan", code, errOut, out)
	}
	code, _, errOut = runCLI(t, "estimate", "--task", "serve", "--model", "qwen2.5-7b", "--gpu", "l4", "--tp", "8")
	if want := "valid tp: 1, 2, 4\n"; code != 2 || !strings.Contains(errOut, want) {
		t.Errorf("qwen2.5-7b --tp 8 (28 heads, 4 KV heads): exit %d, %q; want exit 2 and %q", code, errOut, want)
	}
}

// TestServeRefusesNonsenseGPUs: --gpus past the planner's 64 nodes was
// planned (a new user's walk: --gpus 1000 H100 gave 125 replicas for 4
// requests and "needs 125 nodes, more than 64"); it is refused in one
// line, exit 2. Failing before: exit 0.
func TestServeRefusesNonsenseGPUs(t *testing.T) {
	code, out, errOut := runCLI(t, "estimate", "--task", "serve", "--model", "llama-3.1-8b", "--gpu", "h100", "--gpus", "1000")
	if want := "--gpus 1000 is more than 64 nodes of 8 × NVIDIA H100 SXM5 80GB (512 GPUs)"; code != 2 || !strings.Contains(errOut, want) || out != "" {
		t.Errorf("exit %d, %q, stdout %q; want exit 2 and %q", code, errOut, out, want)
	}
}

// TestServeTPListStopsAtNode: the sizes a refused --tp lists stop at the
// largest node the TP could run in, the catalog's largest of --gpu's GPU
// (8 H100s) or, with no GPU given, of any GPU, so none listed is refused
// next as more than a node's GPUs (a new user's walk: --tp 3 on H100
// listed 16 and 32, then --tp 16 was refused "more than the 8 GPUs of
// the catalog's largest … node"). Failing before: "1, 2, 4, 8, 16, 32".
func TestServeTPListStopsAtNode(t *testing.T) {
	code, _, errOut := runCLI(t, "estimate", "--model", "llama-3.1-8b", "--task", "serve", "--gpu", "h100-sxm", "--tp", "3")
	if want := "valid tp: 1, 2, 4, 8\n"; code != 2 || !strings.HasSuffix(errOut, want) {
		t.Errorf("--gpu h100-sxm --tp 3: exit %d, %q; want exit 2 ending %q", code, errOut, want)
	}
	// Each size listed is planned, not refused.
	for _, tp := range []string{"1", "2", "4", "8"} {
		if code, _, errOut := runCLI(t, "estimate", "--model", "llama-3.1-8b", "--task", "serve", "--gpu", "h100-sxm", "--tp", tp); code != 0 {
			t.Errorf("--tp %s, listed as valid: exit %d, %s", tp, code, errOut)
		}
	}
	// No GPU given: the catalog's largest node of any GPU, 16 GPUs; 32 is
	// not listed.
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	if most := largestNodeFor(cat, ""); most != 16 {
		t.Fatalf("the catalog's largest node has %d GPUs; the case below wants 16", most)
	}
	code, _, errOut = runCLI(t, "recommend", "--model", "llama-3.1-8b", "--task", "serve", "--tp", "3")
	if want := "valid tp: 1, 2, 4, 8, 16\n"; code != 2 || !strings.HasSuffix(errOut, want) {
		t.Errorf("recommend --tp 3: exit %d, %q; want exit 2 ending %q", code, errOut, want)
	}
}
