package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// probe compare refuses what probe add refuses, with add's line: one
// check (checkProbe). A result whose samples_per_second is 1e-300 (its
// steps and tokens left out, so nothing contradicts it) printed a
// 394-column line with an error of 300 digits (attack r29b F5); a
// throughput above the GPU's peak likewise.
func TestProbeCompareChecksAsAdd(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "probe", "qlora-a10g.json"))
	if err != nil {
		t.Fatal(err)
	}
	edit := func(name string, f func(m map[string]any)) string {
		var r map[string]any
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		f(r["measured"].(map[string]any))
		out, _ := json.Marshal(r)
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const id = "probe-llama-3-1-8b-a10g-qlora-" // and the run's hash
	tiny := edit("tiny.json", func(m map[string]any) {
		m["samples_per_second"] = 1e-300
		delete(m, "tokens_per_second")
		delete(m, "samples_per_step")
	})
	fast := edit("fast.json", func(m map[string]any) {
		m["samples_per_second"] = 2.5
		delete(m, "tokens_per_second")
		delete(m, "samples_per_step")
	})
	for _, tc := range []struct{ file, want string }{
		{tiny, "gpuplan: " + tiny + ": case " + id + "aa7bdd42-throughput: measured samples_per_second 1e-300 samples/s is ×2.43e-300 gpuplan's estimate (0.4123 samples/s): outside ×0.2–×5, so not a run of this plan; check the result's batch, model, GPU and units\n"},
		{fast, "gpuplan: " + fast + ": case " + id + "f958347f-throughput: measured samples_per_second implies 236% MFU, above the GPUs' dense peak: not a run of this plan; check the result's model, batch and GPU\n"},
	} {
		for _, cmd := range []string{"compare", "add"} {
			code, out, errs := runProbeCLI(t, t.TempDir(), "probe", cmd, tc.file)
			if code != 2 || out != "" || errs != tc.want {
				t.Errorf("probe %s %s: exit %d, stdout %q, stderr %q\nwant 2 and %q", cmd, filepath.Base(tc.file), code, out, errs, tc.want)
			}
		}
	}
	// What add does not keep is still compared: a serving run.
	if code, _, errs := runProbeCLI(t, t.TempDir(), "probe", "compare", filepath.Join("testdata", "probe", "serve-l40s.json")); code != 0 {
		t.Errorf("serving run: exit %d: %s", code, errs)
	}
}
