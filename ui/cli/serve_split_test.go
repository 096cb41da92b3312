package cli

import (
	"encoding/json"
	"testing"
)

// TestServeSplitHint: estimate --gpus N --tp T that does not hold the
// model names the split of the same GPUs that does, with its flags, and
// that split run again serves (a new user's walk: the miss said nothing of
// TP 4). Llama 3.1 70B in bf16 is 131.4 GiB of weights (70.6B × 2 bytes):
// at TP 2 65.7 GiB per GPU, past an L40S's 40.1 GiB budget (44.5 GiB ×
// gpu_memory_utilization 0.9); at TP 4 32.9 GiB, leaving KV cache for a
// 4096-token request. On 2 L40S no split holds it, and the hint says so.
// A split left to estimate (no --tp) that fits has no hint, nor does a
// pipeline left open, which grows on the 4 GPUs given: TP 2 × PP 2.
func TestServeSplitHint(t *testing.T) {
	type plan struct {
		Fits  bool
		TP    int `json:"tp"`
		Would string
	}
	type doc struct{ Plan plan }
	run := func(args ...string) plan {
		t.Helper()
		code, out, errs := runCLI(t, append([]string{"estimate", "--model", "llama-3.1-70b", "--task", "inference", "--gpu", "l40s", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var d doc
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatal(err)
		}
		return d.Plan
	}
	if d := run("--gpus", "4", "--tp", "2", "--pp", "1"); d.Fits || d.Would != "--tp 4 --pp 1 fits these 4 GPUs (as recommend would split them)" {
		t.Errorf("--gpus 4 --tp 2 --pp 1: fits %v, would %q; want a miss naming --tp 4 --pp 1", d.Fits, d.Would)
	}
	if d := run("--gpus", "4", "--tp", "2"); !d.Fits || d.TP != 2 || d.Would != "" {
		t.Errorf("--gpus 4 --tp 2, the pipeline open: fits %v at TP %d, would %q; want TP 2 × PP 2 to fit", d.Fits, d.TP, d.Would)
	}
	if d := run("--gpus", "4", "--tp", "4", "--pp", "1"); !d.Fits || d.TP != 4 || d.Would != "" {
		t.Errorf("--gpus 4 --tp 4 --pp 1 (the hint): fits %v at TP %d, would %q; want it to fit", d.Fits, d.TP, d.Would)
	}
	if d := run("--gpus", "2", "--tp", "2"); d.Fits || d.Would != "no --tp or --pp split of these 2 GPUs holds the model: more GPUs (--gpus), a GPU with more memory or smaller weights (--weight-format) would" {
		t.Errorf("--gpus 2 --tp 2: fits %v, would %q; want a miss saying no split of 2 GPUs holds it", d.Fits, d.Would)
	}
	if d := run("--gpus", "4"); !d.Fits || d.Would != "" {
		t.Errorf("--gpus 4, TP left to estimate: fits %v, would %q; want it to fit with no hint", d.Fits, d.Would)
	}
}
