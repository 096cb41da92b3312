package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportFormatVLLM (a new user's walk): the README says --task
// inference "writes vllm serve", so --format vllm was the name tried, and
// it was refused ("the vLLM serving script is --task inference --format
// torchrun"). It is now the vllm serve script's own name, the same file
// --format torchrun writes for a serving request (kept, for scripts that
// use it), with that file's default name and mode, in the help and in
// completion; for a training task it is refused in one line that says it
// is for --task inference. Failing before: exit 2 on every row.
func TestExportFormatVLLM(t *testing.T) {
	serving := []string{"export", "--model", "llama-3.1-8b", "--task", "inference", "--instance", "aws/g5.2xlarge"}
	code, torchrun, errs := runCLI(t, append(serving, "--format", "torchrun", "-o", "-")...)
	if code != 0 {
		t.Fatalf("--format torchrun: exit %d: %s", code, errs)
	}
	code, vllm, errs := runCLI(t, append(serving, "--format", "vllm", "-o", "-")...)
	if code != 0 || vllm != torchrun || !strings.Contains(vllm, "\nexec vllm serve meta-llama/Llama-3.1-8B") {
		t.Errorf("--format vllm: exit %d, %s; want the script --format torchrun writes:\n%s", code, errs, vllm)
	}

	dir := t.TempDir()
	code, _, errs = runCLI(t, append(serving, "--format", "vllm", "-o", dir)...)
	if want := "give a file name such as " + filepath.Join(dir, "gpuplan-vllm-serve.sh"); code != ExitUsage || !strings.Contains(errs, want) {
		t.Errorf("--format vllm -o DIR: exit %d, %q; want %q", code, errs, want)
	}
	file := filepath.Join(dir, "serve.sh")
	if code, _, errs = runCLI(t, append(serving, "--format", "vllm", "-o", file)...); code != 0 {
		t.Fatalf("--format vllm -o FILE: exit %d: %s", code, errs)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm()&0o111 == 0 {
		t.Errorf("%s: %v %v, want an executable script", file, fi.Mode(), err)
	}

	training := []string{"export", "--model", "llama-3.1-8b", "--task", "qlora", "--batch-size", "1", "--seq-len", "2048", "--instance", "aws/g5.2xlarge", "--format", "vllm"}
	code, out, errs := runCLI(t, training...)
	if code != ExitUsage || out != "" || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, "--task inference") || !strings.Contains(errs, "--format vllm") {
		t.Errorf("training --format vllm: exit %d, stdout %q, stderr %q; want one line saying vllm is for --task inference", code, out, errs)
	}

	code, help, _ := runCLI(t, "export", "--help")
	if code != 0 || !strings.Contains(help, "vllm (the vllm serve script") {
		t.Errorf("export --help does not list --format vllm:\n%s", help)
	}
	code, comp, _ := runCLI(t, "__complete", "export", "--format", "")
	if code != 0 || !strings.Contains(comp, "\nvllm\n") {
		t.Errorf("completion of --format lacks vllm:\n%s", comp)
	}
}
