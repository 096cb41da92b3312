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
// is not offered there; did you mean "ap-south-1"?` (Mumbai). The file's
// region is its picked offer's: another provider's instance not offered
// there is exported in its own cheapest region, with a note; a region the
// new instance is offered in, or one given with --region, still holds.
func TestExportConfigInstanceOtherProvider(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "lambda.toml")
	if code, _, errOut := runCLI(t, "export", "--model", "llama-3.1-8b", "--task", "qlora", "--instance", "lambda/gpu_1x_a10", "--region", "us-south-1", "-o", cfg); code != 0 {
		t.Fatalf("saving the configuration: exit %d: %s", code, errOut)
	}
	out := filepath.Join(dir, "run.yaml")
	code, _, errOut := runCLI(t, "export", "--config", cfg, "--instance", "aws/g5.xlarge", "--format", "skypilot", "-o", out)
	if code != 0 {
		t.Fatalf("export --config --instance aws/g5.xlarge: exit %d: %s", code, errOut)
	}
	if note := "export.region us-south-1 is lambda/gpu_1x_a10's region; aws/g5.xlarge is not offered there and is exported in its cheapest region"; !strings.Contains(errOut, note) {
		t.Errorf("stderr lacks %q:\n%s", note, errOut)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "instance_type: g5.xlarge") || strings.Contains(string(b), "us-south-1") || strings.Contains(string(b), "ap-south-1") {
		t.Errorf("the file is not aws g5.xlarge in its own regions:\n%s", b)
	}
	// --region given still binds, and is checked as given.
	code, _, errOut = runCLI(t, "export", "--config", cfg, "--instance", "aws/g5.xlarge", "--region", "us-south-1", "--format", "skypilot", "-o", filepath.Join(dir, "b.yaml"))
	if code != 2 || !strings.Contains(errOut, "--region us-south-1: aws/g5.xlarge is not offered there") {
		t.Errorf("--region us-south-1: exit %d, stderr %q", code, errOut)
	}
	// The same provider's instance keeps the file's region (or refuses
	// in its words when it is not offered there).
	code, _, errOut = runCLI(t, "export", "--config", cfg, "--instance", "lambda/gpu_1x_a100_sxm4", "--format", "skypilot", "-o", filepath.Join(dir, "c.yaml"))
	if b, _ := os.ReadFile(filepath.Join(dir, "c.yaml")); code != 0 || strings.Contains(errOut, "exported in its cheapest region") ||
		!strings.Contains(string(b), "region: us-south-1\n      instance_type: gpu_1x_a100_sxm4") {
		t.Errorf("same provider: exit %d, the file's region dropped: %s\n%s", code, errOut, b)
	}
}
