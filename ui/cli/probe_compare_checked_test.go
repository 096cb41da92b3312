package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model/probe"
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
	// The tiny run's line quotes gpuplan's throughput estimate, which moves
	// with the fitted constants: taken from the estimate, as probe compare
	// makes it.
	est := throughputEstimate(t, tiny)
	for _, tc := range []struct{ file, want string }{
		{tiny, "gpuplan: " + tiny + ": case " + id + fmt.Sprintf("aa7bdd42-throughput: measured samples_per_second 1e-300 samples/s is ×%.3g gpuplan's estimate (%.4g samples/s): outside ×0.2–×5, so not a run of this plan; check the result's batch, model, GPU and units\n", 1e-300/est, est)},
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

// throughputEstimate is gpuplan's samples/s estimate for the probe result
// at path (probe.Compare's throughput row).
func throughputEstimate(t *testing.T, path string) float64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := probe.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	c, err := probe.Compare(r, cat)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range c.Rows {
		if row.Term == "throughput" && row.Unit == "samples/s" {
			return row.Estimated
		}
	}
	t.Fatal("no throughput row")
	return 0
}
