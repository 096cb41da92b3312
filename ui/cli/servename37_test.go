package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestExportServeScriptName (tui37): export -o DIR suggests the format's
// own file name there, and a serving deployment's vllm serve script has
// its own (launch.Format.ServeFileName: gpuplan-vllm-serve.sh), as the
// configurator's export dialog names it, not the training launcher's
// gpuplan-torchrun.sh; the other formats keep one name for both.
func TestExportServeScriptName(t *testing.T) {
	dir := t.TempDir()
	serving := []string{"export", "--model", "llama-3.1-8b", "--task", "inference", "--instance", "aws/g5.2xlarge", "-o", dir}
	training := []string{"export", "--model", "llama-3.1-8b", "--task", "qlora", "--batch-size", "1", "--seq-len", "2048", "--instance", "aws/g5.2xlarge", "-o", dir}
	for _, tc := range []struct {
		args   []string
		format string
		name   string
	}{
		{serving, "torchrun", "gpuplan-vllm-serve.sh"},
		{serving, "docker", "gpuplan-docker.sh"},
		{serving, "k8s", "gpuplan-k8s.yaml"},
		{serving, "toml", "gpuplan.toml"},
		{training, "torchrun", "gpuplan-torchrun.sh"},
		{training, "docker", "gpuplan-docker.sh"},
	} {
		code, _, errs := runCLI(t, append(tc.args, "--format", tc.format)...)
		if want := "give a file name such as " + filepath.Join(dir, tc.name); code != ExitUsage || !strings.Contains(errs, want) {
			t.Errorf("%s --format %s -o DIR: exit %d, %q; want %q", tc.args[4], tc.format, code, errs, want)
		}
	}
}
