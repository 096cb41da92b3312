package cli

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"testing"
)

// splitOf is a serving plan's split as estimate and recommend write it
// in --json.
type splitOf struct {
	Provider     string  `json:"provider"`
	InstanceType string  `json:"instance_type"`
	GPUsPerNode  int     `json:"gpus_per_node"`
	Nodes        int     `json:"nodes"`
	TP           int     `json:"tp"`
	PP           int     `json:"pp"`
	Replicas     int     `json:"replicas"`
	Fits         bool    `json:"fits"`
	Meets        bool    `json:"meets"`
	OutTokS      float64 `json:"output_tokens_per_s"`
}

func (s splitOf) String() string {
	return fmt.Sprintf("TP %d × PP %d × %d replicas (%.0f tok/s)", s.TP, s.PP, s.Replicas, s.OutTokS)
}

// exportedSplit reads the split a torchrun (vllm serve) export passes:
// --tensor-parallel-size, --pipeline-parallel-size and, for more than one
// engine on the node, --data-parallel-size.
func exportedSplit(t *testing.T, script string) (tp, pp, dp int) {
	t.Helper()
	flag := func(name string, def int) int {
		m := regexp.MustCompile(`--` + name + ` (\d+)`).FindStringSubmatch(script)
		if m == nil {
			return def
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return flag("tensor-parallel-size", 0), flag("pipeline-parallel-size", 1), flag("data-parallel-size", 1)
}

// TestEstimateKeepsRecommendSplit: for the same GPUs, estimate --gpus N
// picks the TP × PP × replicas split recommend ranks on an instance type
// of N of them and export writes for it (serve.PlanServing through
// betterPlan; estimate has no price, so it compares GPU-hours per million
// output tokens where recommend compares dollars, perMOutput). A fresh
// user's walk (walk35): Llama 3.1 70B at 32 concurrent requests on 8 H100s
// was TP 4 × 2 replicas (1154 tokens/s) in estimate, TP 8 (1401) in
// recommend and export; the T4 serve phase of docs/examples/plan.toml TP 1
// × 4 replicas in estimate, TP 2 × 2 in export.
func TestEstimateKeepsRecommendSplit(t *testing.T) {
	type doc struct {
		Plan   splitOf   `json:"plan"`
		Offers []splitOf `json:"offers"`
	}
	workloads := []struct {
		name string
		args []string
		gpu  string
		gpus []int
	}{
		{"llama-3.1-70b 32 concurrent", []string{"--model", "llama-3.1-70b", "--max-model-len", "8192", "--concurrency", "32", "--prompt-tokens", "1000", "--output-tokens", "200"}, "h100-sxm", []int{4, 8}},
		{"qwen3-32b 5 requests/s", []string{"--model", "qwen3-32b", "--rps", "5"}, "h100-sxm", []int{2, 4, 8}},
		{"llama-3.1-8b 4 concurrent 20 ms", []string{"--model", "llama-3.1-8b", "--batch-size", "4", "--seq-len", "4096", "--output-tokens", "512", "--tpot-ms", "20"}, "h100-sxm", []int{1, 2, 4, 8}},
		{"llama-3.1-8b int4 8 sequences", []string{"--model", "llama-3.1-8b", "--precision", "int4", "--context-len", "8192", "--sequences", "8"}, "t4", []int{1, 4}},
		{"qwen2.5-14b default load", []string{"--model", "qwen2.5-14b"}, "l4", []int{2, 4, 8}},
	}
	compared := 0
	for _, w := range workloads {
		base := append([]string{"--task", "inference", "--gpu", w.gpu, "--json"}, w.args...)
		code, out, errs := runCLI(t, append([]string{"recommend", "--limit", "0"}, base...)...)
		if code != 0 {
			t.Fatalf("%s: recommend: exit %d: %s", w.name, code, errs)
		}
		var rec doc
		if err := json.Unmarshal([]byte(out), &rec); err != nil {
			t.Fatalf("%s: recommend: %v", w.name, err)
		}
		for _, n := range w.gpus {
			code, out, errs := runCLI(t, append([]string{"estimate", "--gpus", strconv.Itoa(n)}, base...)...)
			if code != 0 {
				t.Fatalf("%s on %d: estimate: exit %d: %s", w.name, n, code, errs)
			}
			var est doc
			if err := json.Unmarshal([]byte(out), &est); err != nil {
				t.Fatalf("%s on %d: estimate: %v", w.name, n, err)
			}
			e := est.Plan
			// The instance types of n GPUs on which recommend's plan is
			// one node: the same GPUs as estimate's (a plan renting more
			// nodes was chosen among layouts estimate, held to n GPUs,
			// does not have).
			var same []splitOf
			for _, o := range rec.Offers {
				if o.GPUsPerNode == n && o.Nodes == 1 && o.Fits {
					same = append(same, o)
				}
			}
			if len(same) == 0 {
				t.Logf("%s on %d %s: no one-node offer of %d to compare (estimate %s)", w.name, n, w.gpu, n, e)
				continue
			}
			for _, o := range same {
				if o.TP != e.TP || o.PP != e.PP || o.Replicas != e.Replicas {
					t.Errorf("%s on %d %s: estimate %s, recommend %s on %s/%s", w.name, n, w.gpu, e, o, o.Provider, o.InstanceType)
				}
			}
			o := same[0]
			code, script, errs := runCLI(t, append([]string{"export", "--task", "inference", "--instance", o.Provider + "/" + o.InstanceType, "--format", "torchrun"}, w.args...)...)
			if code != 0 {
				t.Fatalf("%s: export %s/%s: exit %d: %s", w.name, o.Provider, o.InstanceType, code, errs)
			}
			if tp, pp, dp := exportedSplit(t, script); tp != e.TP || pp != e.PP || dp != e.Replicas {
				t.Errorf("%s on %d %s: estimate %s, export %s/%s TP %d × PP %d × %d engines", w.name, n, w.gpu, e, o.Provider, o.InstanceType, tp, pp, dp)
			}
			t.Logf("%s on %d %s: %s in estimate, recommend (%d offers) and export", w.name, n, w.gpu, e, len(same))
			compared++
		}
	}
	if compared < 8 {
		t.Errorf("%d workload × GPU count pairs compared, want at least 8: the catalog lost the offers this test compares on", compared)
	}
}

// TestEstimateConfigKeepsExportSplit: a serving file the configurator
// exported (walk35's Llama 3.1 8B at 4 concurrent requests, 20 ms TPOT,
// on hyperstack's 8 × H100 SXM, copied from /tmp/walk35/tui/serve.toml;
// its n3-H100x8-NVLink, then filed as SXM, is 8 × H100 PCIe: the file
// picks n3-H100-SXM5x8 now)
// is estimated, ranked and exported at the same split: TP 8 on the 8
// GPUs, not TP 1 × 8 replicas in estimate --config (docs/configurator.md:
// the configurator and estimate --config give the same estimate for the
// same file); and the serve phase of docs/examples/plan.toml likewise.
func TestEstimateConfigKeepsExportSplit(t *testing.T) {
	for _, tt := range []struct {
		name  string
		args  []string
		gpus  int
		split [3]int
	}{
		{"configurator serve.toml", []string{"--config", "testdata/serve-walk35.toml"}, 8, [3]int{8, 1, 1}},
		{"plan.toml serve phase", []string{"--config", "../../docs/examples/plan.toml", "--phase", "serve"}, 4, [3]int{2, 1, 2}},
	} {
		code, out, errs := runCLI(t, append([]string{"estimate", "--json"}, tt.args...)...)
		if code != 0 {
			t.Fatalf("%s: estimate: exit %d: %s", tt.name, code, errs)
		}
		var est struct{ Plan splitOf }
		if err := json.Unmarshal([]byte(out), &est); err != nil {
			t.Fatal(err)
		}
		code, script, errs := runCLI(t, append([]string{"export", "--format", "torchrun"}, tt.args...)...)
		if code != 0 {
			t.Fatalf("%s: export: exit %d: %s", tt.name, code, errs)
		}
		tp, pp, dp := exportedSplit(t, script)
		e := est.Plan
		if got := [3]int{e.TP, e.PP, e.Replicas}; got != tt.split || got != [3]int{tp, pp, dp} || e.GPUsPerNode*e.Nodes != tt.gpus {
			t.Errorf("%s: estimate %s on %d × %d GPUs, export TP %d × PP %d × %d engines; want TP %d × PP %d × %d on %d GPUs in both",
				tt.name, e, e.Nodes, e.GPUsPerNode, tp, pp, dp, tt.split[0], tt.split[1], tt.split[2], tt.gpus)
		}
	}
}
