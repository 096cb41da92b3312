package cli

import (
	"io"
	"math"
	"strings"
	"testing"
)

// An MFU under model.MinMFU is refused in one line, exit 2 (attack round
// 13: --mfu 5e-324 printed "+Inf years" and "$+Inf", and --json failed
// with "json: unsupported value: +Inf", exit 1; --mfu 1e-300 printed a
// 300-digit wall clock).
func TestMFUFloor(t *testing.T) {
	for _, args := range [][]string{
		{"recommend", "--model", "llama-3.1-8b", "--dataset-tokens", "1M", "--mfu", "5e-324", "--limit", "2"},
		{"recommend", "--model", "llama-3.1-8b", "--dataset-tokens", "1M", "--mfu", "5e-324", "--json"},
		{"estimate", "--model", "llama-3.1-8b", "--dataset-tokens", "1M", "--gpu", "h100", "--mfu", "1e-300"},
		{"estimate", "--model", "llama-3.1-8b", "--dataset-tokens", "1M", "--gpu", "h100", "--mfu", "0.0099"},
	} {
		code, out, errOut := runCLI(t, args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "--mfu must be 0.01–1, got ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line", args, code, out, errOut)
		}
	}
	if code, _, errOut := runCLI(t, "estimate", "--model", "llama-3.1-8b", "--dataset-tokens", "1M", "--gpu", "h100", "--mfu", "0.01"); code != 0 {
		t.Errorf("--mfu 0.01: exit %d: %s", code, errOut)
	}
}

// Every JSON writer refuses an infinite or NaN figure with an error that
// says so, never half a document passed off as the answer.
func TestJSONWritersRefuseNonFinite(t *testing.T) {
	for name, write := range map[string]func() error{
		"writeJSON":       func() error { return writeJSON(io.Discard, map[string]float64{"hours": math.Inf(1)}) },
		"writeJSONStream": func() error { return writeJSONStream(io.Discard, struct{ Hours float64 }{math.NaN()}) },
	} {
		err := write()
		if err == nil || !strings.Contains(err.Error(), "is not a finite number") {
			t.Errorf("%s: %v, want the non-finite error", name, err)
		}
	}
}
