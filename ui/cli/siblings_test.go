package cli

import (
	"strings"
	"testing"
)

// TestSiblingVariantsNote: "A100" is the 40GB SXM4 part (SkyPilot's
// naming, the catalog's alias), so offers A100:1 and recommend --gpu A100
// hide every A100 80GB offer; one stderr line after the table names the
// other variants with their offer counts and how to ask for one. JSON
// output stays clean, and a name without variants (L4) gets no line.
func TestSiblingVariantsNote(t *testing.T) {
	code, out, errs := runCLI(t, "offers", "A100:1")
	if code != 0 || !strings.Contains(errs, "also: A100-80GB (") || !strings.Contains(errs, "e.g. gpuplan offers A100-80GB:1") ||
		strings.Count(errs, "also:") != 1 || strings.Contains(out, "also:") {
		t.Errorf("offers A100:1: exit %d, stderr %q", code, errs)
	}
	if code, _, errs := runCLI(t, "offers", "A100:1", "--json"); code != 0 || strings.Contains(errs, "also:") {
		t.Errorf("offers --json: exit %d, stderr %q", code, errs)
	}
	if code, _, errs := runCLI(t, "offers", "L4:1"); code != 0 || strings.Contains(errs, "also:") {
		t.Errorf("offers L4:1: exit %d, stderr %q", code, errs)
	}
	code, _, errs = runCLI(t, "recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--gpu", "A100")
	if code != 0 || !strings.Contains(errs, "also: A100-80GB (") || !strings.Contains(errs, "--gpu A100-80GB") {
		t.Errorf("recommend --gpu A100: exit %d, stderr %q", code, errs)
	}
}

// TestGPUNumberName: --gpu 4090 names the RTX 4090 as offers RTX4090 and
// offers 4090 do (one resolver, Catalog.GPU).
func TestGPUNumberName(t *testing.T) {
	for _, args := range [][]string{
		{"recommend", "--model", "llama-3.2-1b", "--task", "qlora", "--gpu", "4090"},
		{"recommend", "--model", "llama-3.2-1b", "--task", "qlora", "--gpu", "RTX4090"},
		{"offers", "4090"},
		{"offers", "RTX4090:1"},
	} {
		if code, out, errs := runCLI(t, args...); code != 0 || !strings.Contains(out, "rtx-4090") {
			t.Errorf("%q: exit %d, %s\n%s", args, code, errs, out)
		}
	}
}
