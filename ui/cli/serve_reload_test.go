package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeExportReloadsRanking: a serving export's TOML holds the
// answers as asked, not the exported offer's TP, replicas, engine
// settings or provider and region, so `recommend --config` of it ranks
// the same offers, in the same order, as the `recommend` with the same
// answers (issue 31: the file pinned TP and replicas, and reloading it
// ranked 70 offers where recommend had ranked 221).
func TestServeExportReloadsRanking(t *testing.T) {
	type ranked struct {
		Offers []struct {
			Provider     string `json:"provider"`
			InstanceType string `json:"instance_type"`
			Region       string `json:"region"`
			TP           int    `json:"tp"`
			Replicas     int    `json:"replicas"`
		} `json:"offers"`
	}
	rank := func(args ...string) ranked {
		t.Helper()
		code, out, errs := runServeCLI(t, append([]string{"recommend", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("recommend %v: exit %d: %s", args, code, errs)
		}
		var r ranked
		if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Offers) < 2 {
			t.Fatalf("recommend %v: %v, %d offers", args, err, len(r.Offers))
		}
		return r
	}
	for _, args := range [][]string{
		{"--model", "llama-3.1-8b", "--task", "inference", "--concurrency", "16"},
		{"--model", "llama-3.1-70b", "--task", "inference", "--rps", "2", "--max-model-len", "8K", "--output-tokens", "512", "--tpot-ms", "none"},
	} {
		want := rank(args...)
		top := want.Offers[0]
		file := filepath.Join(t.TempDir(), "serve.toml")
		code, _, errs := runServeCLI(t, append(append([]string{"export"}, args...),
			"--instance", top.Provider+"/"+top.InstanceType, "--region", top.Region, "--format", "toml", "-o", file)...)
		if code != 0 {
			t.Fatalf("export %v: exit %d: %s", args, code, errs)
		}
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		got := rank("--config", file)
		if len(got.Offers) != len(want.Offers) || got.Offers[0] != top {
			t.Errorf("%v: reloaded the export ranks %d offers, top %+v; recommend ranked %d, top %+v\n%s",
				args, len(got.Offers), got.Offers[0], len(want.Offers), top, text)
			continue
		}
		for i := range want.Offers {
			if got.Offers[i] != want.Offers[i] {
				t.Errorf("%v: offer %d reloaded %+v, recommend %+v", args, i, got.Offers[i], want.Offers[i])
				break
			}
		}
		if strings.Contains(string(text), "\ntensor_parallel_size") || strings.Contains(string(text), "\nreplicas =") {
			t.Errorf("%v: the export pins a split nobody asked for:\n%s", args, text)
		}
	}
}

// TestServeExportLengthAndModelID: the vllm serve line of a serving export
// holds --max-model-len as vLLM means it, the longest request it accepts:
// with average prompt and output lengths given (1000 + 200), the model's
// context (4096, Llama 3.1 8B's default here), not their sum; and it loads
// the Instruct repo the user named the model by, which the catalog's
// Llama 3.1 8B stands for too, not the base (issue 31).
func TestServeExportLengthAndModelID(t *testing.T) {
	for _, tc := range []struct {
		model, id string
	}{
		{"meta-llama/Llama-3.1-8B-Instruct", "vllm serve meta-llama/Llama-3.1-8B-Instruct "},
		{"llama-3.1-8b", "vllm serve meta-llama/Llama-3.1-8B "},
	} {
		code, out, errs := runServeCLI(t, "export", "--model", tc.model, "--task", "inference", "--prompt-tokens", "1000", "--output-tokens", "200",
			"--concurrency", "8", "--instance", "aws/g6e.xlarge", "--format", "torchrun")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.model, code, errs)
		}
		if !strings.Contains(out, tc.id) {
			t.Errorf("%s: want %q in:\n%s", tc.model, tc.id, out)
		}
		if !strings.Contains(out, "--max-model-len 4096") || strings.Contains(out, "--max-model-len 1200") {
			t.Errorf("%s: want --max-model-len 4096 (the model's context), not the average 1200:\n%s", tc.model, out)
		}
	}
}
