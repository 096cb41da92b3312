package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// New-user walk (walk35): estimate --config of a serving file with
// --task qlora took the file's batch_size = 4 (its concurrent requests)
// as QLoRA's micro-batch and its bf16 (vLLM's dtype) as a pure-bf16
// recipe; across serving and training they fall to the new task's
// defaults, and a --batch-size given still wins.
func TestTaskAcrossServingDropsBatch(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "serve.toml")
	if err := os.WriteFile(path, []byte("schema_version = 1\n[workload]\ntask = \"inference\"\nmodel = \"llama-3.1-8b\"\nprecision = \"bf16\"\nbatch_size = 4\nseq_len = 4096\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"estimate", "--config", path, "--task", "qlora"}, "batch 1 × 4096"},
		{[]string{"estimate", "--config", path, "--task", "qlora", "--batch-size", "2"}, "batch 2 × 4096"},
	} {
		code, out, errs := runCLI(t, tc.args...)
		if code != 0 || !strings.Contains(out, tc.want) || !strings.Contains(out, "amp-bf16") {
			t.Errorf("%v: exit %d, want %q and amp-bf16:\n%s%s", tc.args, code, tc.want, out, errs)
		}
	}
}
