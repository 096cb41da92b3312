package cli

import (
	"strings"
	"testing"
)

// TestExportFormatsNotFiles: deepspeed is not a format of its own; the
// refusal is one line that names the value once and says how to get the
// file (walk45: "--format "deepspeed": format "deepspeed": …"). vllm is
// the vllm serve script of --task inference (TestExportFormatVLLM): for
// a training task it is refused in one line, before --instance is asked
// for.
func TestExportFormatsNotFiles(t *testing.T) {
	for _, c := range []struct {
		format, want string
		quoted       int // times the line quotes the value: the flag's own "--format "ds": …", none for vllm's sentence
	}{
		{"deepspeed", "--strategy zero1, zero2 or zero3", 1},
		{"ds", "--strategy zero1, zero2 or zero3", 1},
		{"vllm", "--format vllm is the vllm serve script, for --task inference", 0},
	} {
		code, stdout, stderr := runCLI(t, "export", "--model", "llama-3.1-8b", "--task", "lora", "--format", c.format)
		if code != 2 || stdout != "" {
			t.Errorf("--format %s: exit %d, stdout %q; want 2 and nothing", c.format, code, stdout)
		}
		line := strings.TrimSuffix(stderr, "\n")
		if strings.Contains(line, "\n") || !strings.Contains(line, c.want) || strings.Count(line, `"`+c.format+`"`) != c.quoted {
			t.Errorf("--format %s: stderr %q: want one line naming the value once and %q", c.format, stderr, c.want)
		}
	}
}
