package cli

import (
	"strings"
	"testing"
)

// TestExportFormatsNotFiles: deepspeed and vllm are not formats of their
// own; the refusal is one line that names the value once and says how to
// get the file (walk45: "--format "deepspeed": format "deepspeed": …").
func TestExportFormatsNotFiles(t *testing.T) {
	for _, c := range []struct{ format, want string }{
		{"deepspeed", "--strategy zero1, zero2 or zero3"},
		{"ds", "--strategy zero1, zero2 or zero3"},
		{"vllm", "--task inference --format torchrun"},
	} {
		code, stdout, stderr := runCLI(t, "export", "--model", "llama-3.1-8b", "--task", "lora", "--format", c.format)
		if code != 2 || stdout != "" {
			t.Errorf("--format %s: exit %d, stdout %q; want 2 and nothing", c.format, code, stdout)
		}
		line := strings.TrimSuffix(stderr, "\n")
		if strings.Contains(line, "\n") || !strings.Contains(line, c.want) || strings.Count(line, `"`+c.format+`"`) != 1 {
			t.Errorf("--format %s: stderr %q: want one line naming the value once and %q", c.format, stderr, c.want)
		}
	}
}
