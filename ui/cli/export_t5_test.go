package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportRefusesUnservedEncoderDecoder: vLLM serves no T5, so export of
// a T5 inference writes no vllm serve file that could not start (walk49:
// export --model t5-large --task inference --format torchrun wrote one);
// it refuses in one line, exit 2, naming the server that does. --script
// names the user's own, and toml writes the configuration.
func TestExportRefusesUnservedEncoderDecoder(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"torchrun", "docker", "skypilot", "k8s"} {
		out := filepath.Join(dir, "t5."+f)
		code, _, errs := runExportReal(t, "--model", "t5-large", "--task", "inference", "--instance", "aws/g5.xlarge", "--format", f, "-o", out)
		if code != ExitUsage {
			t.Errorf("%s: exit %d, want %d; stderr %q", f, code, ExitUsage, errs)
		}
		if want := "vLLM serves no T5"; !strings.Contains(errs, want) || !strings.Contains(errs, "Text Generation Inference") {
			t.Errorf("%s: stderr %q lacks %q and the server that serves it", f, errs, want)
		}
		if strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%s: error is not one line: %q", f, errs)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: wrote %s", f, out)
		}
	}
	// Whisper is served: its vllm serve script is written.
	out := filepath.Join(dir, "whisper.sh")
	if code, _, errs := runExportReal(t, "--model", "whisper-large-v3-turbo", "--task", "inference", "--instance", "aws/g5.xlarge", "--format", "torchrun", "-o", out); code != 0 {
		t.Fatalf("whisper: exit %d: %s", code, errs)
	}
	if b, _ := os.ReadFile(out); !strings.Contains(string(b), "vllm serve openai/whisper-large-v3-turbo") {
		t.Errorf("whisper script lacks vllm serve:\n%s", b)
	}
}
