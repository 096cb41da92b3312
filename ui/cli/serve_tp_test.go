package cli

import (
	"encoding/json"
	"testing"

	"github.com/gpuplan/gpuplan/ui/report"
)

// TestServeEstimatePicksTP: estimate without --gpus considers TP 1, 2, 4
// and 8 and takes the fewest GPUs that carry the load (serve.PlanOnGPU),
// unless --tp or --replicas fixes one (issue 30). gpt-oss-120b (MXFP4
// experts, 60.77 GiB of weights) on one H100 (81089 MiB CUDA total)
// leaves about 3 GiB of KV cache, 10 sequences of 4096 tokens: 64
// concurrent requests take 7 replicas at TP 1, where TP 2 halves the
// weights per GPU and holds about 240 such sequences on 2 GPUs (TPOT 26 ms at 64, under the 100 ms default).
func TestServeEstimatePicksTP(t *testing.T) {
	for _, tt := range []struct {
		name               string
		args               []string
		tp, replicas, gpus int
		miss               bool // --gpus binds: the load is missed, Would names the replicas
	}{
		{"auto: TP 2 on 2 GPUs, not 6 × TP 1", nil, 2, 1, 2, false},
		{"--tp 1 fixed: 7 replicas", []string{"--tp", "1"}, 1, 7, 7, false},
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
