package cli

import (
	"encoding/json"
	"testing"

	"github.com/gpuplan/gpuplan/ui/report"
)

// TestServeEstimatePicksTP: estimate without --gpus considers TP 1, 2, 4
// and 8 and takes the fewest GPUs that carry the load (serve.PlanOnGPU),
// unless --tp or --replicas fixes one (issue 30). gpt-oss-120b (MXFP4
// experts as vLLM's triton_kernels path holds them on Hopper, 62.15 GiB
// of weights) on one H100 (81089 MiB CUDA total) leaves about 1.6 GiB of
// KV cache, 2875 blocks of its two KV cache groups: a decoding sequence
// of 3840 + 128 tokens holds 248 of its full-attention group and 9 of its
// 128-token sliding-window group (vLLM's hybrid KV cache manager frees the
// rest), so 11 fit where 5 did when every layer kept every token. TP 2
// halves the weights per GPU and holds about 225 such sequences on 2 GPUs
// (TPOT 25 ms at 64, under the 100 ms default). --tp 1 fixed: 6 replicas
// of 11 carry the load at the estimate, but the low end of the KV cache's
// 90% range holds 7 of them, so the planner takes the fewest replicas that
// clear the range, 10 of 7 sequences each on 10 GPUs
// (serve.ClearingReplicas; 5 of 13 at the checkpoint's 60.77 GiB of
// weights, one node of 8 before that, the first node size whose filled
// replicas cleared it, and 7 before the window, all borderline).
func TestServeEstimatePicksTP(t *testing.T) {
	for _, tt := range []struct {
		name               string
		args               []string
		tp, replicas, gpus int
		miss               bool // --gpus binds: the load is missed, Would names the replicas
	}{
		{"auto: TP 2 on 2 GPUs, not 6 × TP 1", nil, 2, 1, 2, false},
		{"--tp 1 fixed: the 10 replicas that clear the range", []string{"--tp", "1"}, 1, 10, 10, false},
		{"--replicas 2 fixed: TP chosen per replica", []string{"--replicas", "2"}, 2, 2, 4, false},
		{"--gpus 1 binds: one GPU, a miss naming the replicas", []string{"--gpus", "1"}, 1, 1, 1, true},
		{"one request: TP 1 on one GPU", []string{"--concurrency", "1"}, 1, 1, 1, false},
	} {
		args := append([]string{"estimate", "--model", "gpt-oss-120b", "--task", "serve", "--gpu", "h100-sxm", "--concurrency", "64", "--json"}, tt.args...)
		code, out, errs := runServeCLI(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tt.name, code, errs)
		}
		var e report.ServeEstimateJSON
		if err := json.Unmarshal([]byte(out), &e); err != nil {
			t.Fatal(err)
		}
		if p := e.Plan; p.TP != tt.tp || p.Replicas != tt.replicas || p.GPUs != tt.gpus || p.Meets == tt.miss || tt.miss != (p.Would != "") {
			t.Errorf("%s: TP %d × %d replicas on %d GPUs (meets %v, would %q), want TP %d × %d on %d (miss %v)", tt.name, p.TP, p.Replicas, p.GPUs, p.Meets, p.Would, tt.tp, tt.replicas, tt.gpus, tt.miss)
		}
	}
}
