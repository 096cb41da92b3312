package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportRefusesPrequantizedReleaseID: QLoRA of gpt-oss runs on a
// 16-bit copy of its mxfp4 release, so a --model-id naming the release
// itself, in any case, is refused as no --model-id is (walk49: --model-id
// openai/gpt-oss-120b exited 0 and wrote it into the launch line), in one
// line, exit 2; --format toml, gpuplan's own configuration, is written.
func TestExportRefusesPrequantizedReleaseID(t *testing.T) {
	dir := t.TempDir()
	job := []string{"--model", "gpt-oss-120b", "--task", "qlora", "--gpus", "8", "--strategy", "zero3", "--batch-size", "1",
		"--seq-len", "2048", "--instance", "lambda/gpu_8x_h100_sxm5"}
	for i, id := range []string{"", "openai/gpt-oss-120b", "OpenAI/GPT-OSS-120B"} {
		out := filepath.Join(dir, "run"+string(rune('a'+i))+".sh")
		args := append(append([]string{}, job...), "--format", "torchrun", "-o", out)
		if id != "" {
			args = append(args, "--model-id", id)
		}
		code, _, errs := runExportReal(t, args...)
		if code != ExitUsage {
			t.Errorf("--model-id %q: exit %d, want %d; stderr %q", id, code, ExitUsage, errs)
		}
		if want := "give --model-id a 16-bit copy"; !strings.Contains(errs, want) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("--model-id %q: stderr %q, want one line with %q", id, errs, want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("--model-id %q: wrote %s", id, out)
		}
	}
	out := filepath.Join(dir, "gpt-oss.toml")
	if code, _, errs := runExportReal(t, append(append([]string{}, job...), "--format", "toml", "-o", out)...); code != 0 {
		t.Fatalf("toml: exit %d: %s", code, errs)
	}
	if b, _ := os.ReadFile(out); !strings.Contains(string(b), "a launch file needs --model-id naming a 16-bit copy") {
		t.Errorf("the TOML lacks the note:\n%s", b)
	}
	// A 16-bit copy is written, with the note that it must be one.
	out = filepath.Join(dir, "copy.sh")
	if code, _, errs := runExportReal(t, append(append([]string{}, job...), "--format", "torchrun", "--model-id", "me/gpt-oss-120b-bf16", "-o", out)...); code != 0 {
		t.Fatalf("a copy: exit %d: %s", code, errs)
	}
	if b, _ := os.ReadFile(out); !strings.Contains(string(b), "--model_name_or_path me/gpt-oss-120b-bf16") {
		t.Errorf("the script lacks the copy:\n%s", b)
	}
}
