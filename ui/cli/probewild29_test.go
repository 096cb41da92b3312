package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Issue 29, item 5: a kept probe case edited to a wild memory reading
// (100 × what the A10G holds) no longer scales the estimate: estimate
// prints one warning line naming the case and why, and exits 0, with the
// correction of the run's other cases.
func TestKeptProbeWildReadingWarned(t *testing.T) {
	data := t.TempDir()
	if code, _, errs := runProbeCLI(t, data, "probe", "add", filepath.Join("testdata", "probe", "qlora-a10g.json")); code != 0 {
		t.Fatalf("add: %s", errs)
	}
	files, _ := filepath.Glob(filepath.Join(data, "gpuplan", "probes", "*.toml"))
	if len(files) != 1 {
		t.Fatalf("kept files %v", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	// The nvidia-smi case's published MiB, made 100 × the GPU's memory.
	re := regexp.MustCompile(`(?s)(quantity = "nvidia-smi".*?published = )[0-9.e+]+`)
	if !re.Match(b) {
		re = regexp.MustCompile(`(?s)(published = )[0-9.e+]+(.{0,400}quantity = "nvidia-smi")`)
	}
	edited := re.ReplaceAll(b, []byte("${1}2400000${2}"))
	if string(edited) == string(b) {
		t.Fatalf("no nvidia-smi case to edit in:\n%s", b)
	}
	if err := os.WriteFile(files[0], edited, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runProbeCLI(t, data, "estimate", "--model", "llama-3.1-8b", "--task", "qlora", "--batch-size", "2", "--seq-len", "1024", "--gpu", "a10g")
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	if code != 0 || len(lines) != 1 || !strings.Contains(errs, "more than the GPU holds (24 GiB, NVIDIA A10G)") || !strings.Contains(errs, "not used") {
		t.Fatalf("exit %d, stderr %q; want exit 0 and one warning line", code, errs)
	}
	if !strings.Contains(out, "kept probe") && !strings.Contains(out, "Kept probe") {
		t.Errorf("the run's other cases no longer correct the estimate:\n%s", out)
	}
}
