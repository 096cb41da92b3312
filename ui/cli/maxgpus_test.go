package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// Issue 31 item 9: recommend --max-gpus N, "up to N GPUs": no offer
// rents more, a type with more GPUs per instance is a near miss saying
// so, and --gpus (a fixed count) with it is a usage error. On H100s, as
// no 1-GPU host is short of VRAM: those that are list first (finding 8).
func TestRecommendMaxGPUs(t *testing.T) {
	args := []string{"recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--dataset-tokens", "100M", "--allow-multi-node", "--json"}
	code, out, errs := runCLI(t, append(args, "--max-gpus", "1", "--gpu", "h100-sxm")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rec struct {
		Offers []struct {
			GPUs int `json:"gpus"`
		} `json:"offers"`
		Rejected []struct {
			Reason string `json:"reason"`
		} `json:"rejected"`
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rec.Offers) == 0 {
		t.Fatal("no offer on up to 1 GPU")
	}
	for _, o := range rec.Offers {
		if o.GPUs > 2 {
			t.Errorf("an offer on %d GPUs under --max-gpus 1", o.GPUs)
		}
	}
	limited := false
	for _, r := range rec.Rejected {
		limited = limited || strings.Contains(r.Reason, "GPUs, above the 1-GPU limit")
	}
	if !limited {
		t.Errorf("no near miss above the GPU limit: %+v", rec.Rejected)
	}
	for _, bad := range [][]string{{"--max-gpus", "0"}, {"--max-gpus", "2", "--gpus", "4"}} {
		code, _, errs := runCLI(t, append(args, bad...)...)
		if code != 2 || !strings.Contains(errs, "--max-gpus") {
			t.Errorf("%v: exit %d, %q; want 2 and a line naming --max-gpus", bad, code, errs)
		}
	}
}
