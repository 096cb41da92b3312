package cli

import (
	"strings"
	"testing"
)

// TestValidTPsStopAtTheNode: a TP the model's heads refuse lists the sizes
// that pass up to the catalog's largest node of the GPU, whichever command
// refuses it. A new user's walk: a plan phase with
// serve.tensor_parallel_size = "3" on a g6e.xlarge (1 × L40S) listed
// "valid tp: 1, 2, 4, 8, 16, 32" (every divisor of Llama 3.1 8B's 32 heads
// that its 8 KV heads take), estimate --gpu l4 --tp 3 "1, 2, 4, 8"; the
// largest L40S and L4 nodes hold 8 GPUs, so 16 and 32 are refused next
// as more than a node. Failing before: plan listed 16 and 32.
func TestValidTPsStopAtTheNode(t *testing.T) {
	p := writeFile(t, "plan.toml", `schema_version = 1
name = "Llama 3.1 8B: serve"

[[phase]]
name = "serve"
provider = "aws"
instance = "g6e.xlarge"
region = "us-east-1"
pricing = "on-demand"
instances = 1
usd_per_hour = 1.861
months = 3
[phase.answers]
model = "llama-3.1-8b"
task = "inference"
"serve.concurrency" = "16"
"serve.tensor_parallel_size" = "3"
`)
	const want = "the model's 32 attention heads are not divisible by tp 3 (vLLM's rule); valid tp: 1, 2, 4, 8\n"
	for _, args := range [][]string{
		{"plan", p, "--no-savings"},
		{"estimate", "--config", p, "--phase", "serve"},
		{"estimate", "--model", "llama-3.1-8b", "--task", "serve", "--gpu", "l4", "--tp", "3"},
		{"estimate", "--model", "llama-3.1-8b", "--task", "serve", "--gpu", "l40s", "--tp", "3"},
	} {
		code, _, errOut := runCLI(t, args...)
		if code != 2 || !strings.HasSuffix(errOut, want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line ending %q", args, code, errOut, want)
		}
	}
}
