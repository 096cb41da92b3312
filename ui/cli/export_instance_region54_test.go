package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportConfigInstanceOtherProvider (walk54): a configuration saved
// for lambda/gpu_1x_a10 in us-south-1 (Texas), exported with --instance
// aws/g5.xlarge, was refused with `export.region us-south-1: aws/g5.xlarge
// is not offered there; did you mean "ap-south-1"?` (Mumbai): no typo to
// correct. It is refused saying whose region it is and to give --region
// (a region may be where the data must stay: not dropped silently); a
// region the new instance is offered in, or one given with --region,
// holds.
func TestExportConfigInstanceOtherProvider(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "lambda.toml")
	if code, _, errOut := runCLI(t, "export", "--model", "llama-3.1-8b", "--task", "qlora", "--instance", "lambda/gpu_1x_a10", "--region", "us-south-1", "-o", cfg); code != 0 {
		t.Fatalf("saving the configuration: exit %d: %s", code, errOut)
	}
	code, out, errOut := runCLI(t, "export", "--config", cfg, "--instance", "aws/g5.xlarge", "--format", "skypilot", "-o", filepath.Join(dir, "a.yaml"))
	want := "export.region us-south-1 is lambda/gpu_1x_a10's region; aws/g5.xlarge is not offered there: give --region (regions: "
	if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, want) || strings.Contains(errOut, "ap-south-1\"") {
		t.Errorf("export --config --instance aws/g5.xlarge: exit %d, stderr %q; want exit 2 and one line with %q", code, errOut, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.yaml")); err == nil {
		t.Error("a file was written")
	}
	code, _, errOut = runCLI(t, "export", "--config", cfg, "--instance", "aws/g5.xlarge", "--format", "skypilot", "-o", filepath.Join(dir, "a.yaml"), "--lang", "zh-CN")
	if want := "export.region us-south-1 是 lambda/gpu_1x_a10 的区域；那里不提供 aws/g5.xlarge：请用 --region 指定区域"; code != 2 || !strings.Contains(errOut, want) {
		t.Errorf("zh-CN: exit %d, stderr %q lacks %q", code, errOut, want)
	}
	// A picked offer's region, not pinned, gives way: the new instance
	// goes to its cheapest region the file's search allows (walk57: a file
	// searched in europe, picked on aws eu-central-1, refused nebius's
	// eu-north1).
	eu := filepath.Join(dir, "eu.toml")
	if code, _, errOut := runCLI(t, "export", "--model", "llama-3.1-8b", "--task", "qlora", "--instance", "aws/g6e.xlarge", "--regions", "europe", "-o", eu); code != 0 {
		t.Fatalf("saving the europe configuration: exit %d: %s", code, errOut)
	}
	code, out, errOut = runCLI(t, "export", "--config", eu, "--instance", "lambda/gpu_1x_a100_sxm4", "--format", "skypilot", "-o", "-")
	if code != 0 || !strings.Contains(out, "region: europe-central-1") || strings.Contains(out, "region: us-") {
		t.Errorf("--instance lambda beside a europe search: exit %d, stderr %q\n%s", code, errOut, out)
	}
	// --region given binds.
	code, _, errOut = runCLI(t, "export", "--config", cfg, "--instance", "aws/g5.xlarge", "--region", "us-east-1", "--format", "skypilot", "-o", filepath.Join(dir, "b.yaml"))
	if b, _ := os.ReadFile(filepath.Join(dir, "b.yaml")); code != 0 || !strings.Contains(string(b), "region: us-east-1\n      instance_type: g5.xlarge") {
		t.Errorf("--region us-east-1: exit %d, stderr %q\n%s", code, errOut, b)
	}
	// The same provider's instance keeps the file's region.
	code, _, errOut = runCLI(t, "export", "--config", cfg, "--instance", "lambda/gpu_1x_a100_sxm4", "--format", "skypilot", "-o", filepath.Join(dir, "c.yaml"))
	if b, _ := os.ReadFile(filepath.Join(dir, "c.yaml")); code != 0 || !strings.Contains(string(b), "region: us-south-1\n      instance_type: gpu_1x_a100_sxm4") {
		t.Errorf("same provider: exit %d, the file's region not kept: %s\n%s", code, errOut, b)
	}
}
