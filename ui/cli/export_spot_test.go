package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/decide"
)

// TestExportSpotCheckpointsAtTheEstimatesRate: a spot export checkpoints
// every τ of the spot estimate recommend prints, so it asks the spot data
// for the same offer's rate (provider, region, instance type) and passes
// --checkpoint-write-gbps on; without a rate (no loader) the file says its
// rate is assumed. An on-demand export asks nothing.
func TestExportSpotCheckpointsAtTheEstimatesRate(t *testing.T) {
	var asked []string
	rates := func() (func(provider, region, instanceType string) decide.InterruptionRate, []model.Message, error) {
		return func(provider, region, instanceType string) decide.InterruptionRate {
			asked = append(asked, provider+"/"+region+"/"+instanceType)
			r, _ := decide.RateFromBucket("5-10%", "test")
			return r
		}, nil, nil
	}
	export := func(spot func() (func(provider, region, instanceType string) decide.InterruptionRate, []model.Message, error), args ...string) (string, string) {
		t.Helper()
		path := filepath.Join(t.TempDir(), "task.yaml")
		var out, errb bytes.Buffer
		args = append([]string{"export", "--model", "llama-3.1-8b", "--task", "finetune", "--gpus", "16", "--strategy", "fsdp", "--batch-size", "1",
			"--checkpointing", "--instance", "aws/p5.48xlarge", "--region", "us-east-1", "--format", "skypilot", "-o", path}, args...)
		if code := Run(Env{Args: args, Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, Version: "test",
			LoadCatalog: data.LoadWith, SpotRates: spot}); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b), errb.String()
	}
	file, _ := export(rates, "--pricing", "spot", "--checkpoint-write-gbps", "2")
	if len(asked) != 1 || asked[0] != "aws/us-east-1/p5.48xlarge" {
		t.Errorf("spot rates asked for %q, want the offer's aws/us-east-1/p5.48xlarge", asked)
	}
	if !strings.Contains(file, "Daly's for 7.5% interruptions a month on 2 nodes") || !strings.Contains(file, "--save_steps ") ||
		!strings.Contains(file, "gpuplan_sft_resume.py \\\n") {
		t.Errorf("the file does not save at the rate's τ or resume:\n%s", file)
	}
	slow, _ := export(rates, "--pricing", "spot", "--checkpoint-write-gbps", "0.2")
	if steps := func(s string) string { _, v, _ := strings.Cut(s, "--save_steps "); return strings.Fields(v)[0] }; steps(slow) == steps(file) {
		t.Errorf("a 10× slower checkpoint write keeps --save_steps %s", steps(file))
	}
	file, _ = export(nil, "--pricing", "spot")
	if !strings.Contains(file, "an assumed 20% interruptions a month") {
		t.Errorf("without spot data the file does not say its rate is assumed:\n%s", file)
	}
	asked = nil
	if file, _ = export(rates); len(asked) != 0 || strings.Contains(file, "--save_steps") {
		t.Errorf("on demand: rates asked for %q; saves: %v", asked, strings.Contains(file, "--save_steps"))
	}
	var errb bytes.Buffer
	if code := Run(Env{Args: []string{"export", "--model", "llama-3.1-8b", "--task", "lora", "--batch-size", "1", "--instance", "aws/p5.48xlarge", "--pricing", "spot", "--checkpoint-write-gbps", "1e9"},
		Stdout: &bytes.Buffer{}, Stderr: &errb, Getenv: func(string) string { return "" }, Version: "test", LoadCatalog: data.LoadWith}); code == 0 ||
		!strings.Contains(errb.String(), "--checkpoint-write-gbps must be") {
		t.Errorf("--checkpoint-write-gbps 1e9: exit %d, %s", code, errb.String())
	}
}
