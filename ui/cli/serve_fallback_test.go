package cli

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeFallbackShown: with --allow-precision-fallback a GPU that cannot
// run fp8 (V100, compute capability 7.0) is planned at the fp16 vLLM would
// load, and every output says so: estimate's JSON names the format run and
// the one asked for, recommend's table marks the row ↺fp16 and explains
// the mark once. Without the flag estimate refuses the GPU.
func TestServeFallbackShown(t *testing.T) {
	base := []string{"--model", "llama-3.1-8b", "--task", "inference", "--precision", "fp8"}

	// plan is estimate --json's plan, with the format fields.
	type plan struct {
		Fits         bool   `json:"fits"`
		WeightFormat string `json:"weight_format"`
		FallbackFrom string `json:"fallback_from"`
		Fallback     string `json:"fallback"`
	}
	estimate := func(extra ...string) plan {
		t.Helper()
		code, out, errOut := runCLI(t, append(append([]string{"estimate", "--gpu", "v100-16gb", "--json"}, base...), extra...)...)
		if code != 0 {
			t.Fatalf("estimate %q: exit %d: %s", extra, code, errOut)
		}
		var e struct {
			Plan plan `json:"plan"`
		}
		if err := json.Unmarshal([]byte(out), &e); err != nil {
			t.Fatal(err)
		}
		return e.Plan
	}
	if p := estimate(); p.Fits || p.FallbackFrom != "" {
		t.Errorf("fp8 on a V100 without fallback: %+v", p)
	}
	if p := estimate("--allow-precision-fallback"); !p.Fits || p.WeightFormat != "fp16" || p.FallbackFrom != "fp8" || !strings.Contains(p.Fallback, "has no fp8") {
		t.Errorf("fp8 on a V100 with fallback: %+v", p)
	}

	code, out, errOut := runCLI(t, append([]string{"recommend", "--providers", "lambda", "--limit", "0", "--allow-precision-fallback"}, base...)...)
	if code != 0 {
		t.Fatalf("recommend: exit %d: %s", code, errOut)
	}
	marked := 0
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "v100") != strings.Contains(l, "↺fp16") && strings.Contains(l, "lambda ") {
			t.Errorf("row marked wrongly: %q", l)
		}
		if strings.Contains(l, "↺fp16") {
			marked++
		}
	}
	if marked == 0 || strings.Count(out, "↺ is the weight format vLLM loads on a GPU that cannot run fp8: the row is sized and timed in it") != 1 {
		t.Errorf("recommend: %d rows marked ↺fp16, legend %d times:\n%s", marked, strings.Count(out, "↺ is the weight format"), out)
	}
}

// TestServeFallbackExportReopens: the TOML exported for a fallback plan
// keeps the request (fp8 asked, fallback allowed), so reopening it plans
// the V100 at fp16 again and the other GPUs at fp8, not every GPU at the
// V100's fp16.
func TestServeFallbackExportReopens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "serve.toml")
	code, _, errOut := runCLI(t, "export", "--model", "llama-3.1-8b", "--task", "inference", "--precision", "fp8",
		"--allow-precision-fallback", "--instance", "lambda/gpu_8x_v100", "--format", "toml", "-o", path)
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// fp8 as asked (--precision), not the V100's fp16: the file holds the
	// answers (issue 31), vllm_args this offer's fallback.
	for _, want := range []string{"allow_precision_fallback = true", `precision = "fp8"`, `"--dtype", "float16"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("exported TOML lacks %s:\n%s", want, b)
		}
	}
	code, out, errOut := runCLI(t, "recommend", "--config", path, "--limit", "0")
	if code != 0 {
		t.Fatalf("recommend --config: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "fp8 weights") || !strings.Contains(out, "8×v100-16gb ↺fp16") || !strings.Contains(out, "8×h100-sxm ") {
		t.Errorf("reopened: want fp8 asked, the V100 at ↺fp16 and an H100 at fp8:\n%s", out)
	}
}

// TestServeDefaultIsVLLMAuto: with no format asked for, serving is vLLM's
// default --dtype auto, which loads a bf16 checkpoint in fp16 on a GPU
// without bf16: a V100 serves (marked ↺fp16); with --precision bf16 asked
// it is a near miss.
func TestServeDefaultIsVLLMAuto(t *testing.T) {
	base := []string{"recommend", "--model", "llama-3.1-8b", "--task", "inference", "--providers", "lambda", "--limit", "0"}
	code, out, errOut := runCLI(t, base...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "8×v100-16gb ↺fp16") {
		t.Errorf("no format asked: want the V100 served at ↺fp16:\n%s", out)
	}
	code, out, errOut = runCLI(t, append(base, "--precision", "bf16")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Contains(out, "↺fp16") || !strings.Contains(out, "has no bf16") {
		t.Errorf("bf16 asked: want the V100 a near miss, no ↺fp16 row:\n%s", out)
	}
	// A file without a precision is auto too; a file's precision bf16
	// is asked, as --precision bf16 typed (the configurator writes it with
	// its Precision fallback answer), unless allow_precision_fallback.
	for _, tc := range []struct{ name, file, want string }{
		{"no precision", "", "8×v100-16gb ↺fp16"},
		{"precision bf16", "precision = \"bf16\"\n", ""},
		{"precision bf16, fallback allowed", "precision = \"bf16\"\n[search]\nallow_precision_fallback = true\n", "8×v100-16gb ↺fp16"},
	} {
		path := writeFile(t, "serve.toml", "schema_version = 1\n[workload]\nmodel = \"llama-3.1-8b\"\ntask = \"inference\"\n"+tc.file)
		code, out, errOut = runCLI(t, "recommend", "--config", path, "--providers", "lambda", "--limit", "0")
		if code != 0 {
			t.Fatalf("%s: --config: exit %d: %s", tc.name, code, errOut)
		}
		if tc.want != "" && !strings.Contains(out, tc.want) || tc.want == "" && (strings.Contains(out, "↺fp16") || !strings.Contains(out, "has no bf16")) {
			t.Errorf("a file with %s: want the V100 %s:\n%s", tc.name, cmp.Or(tc.want, "a near miss"), out)
		}
	}
}

// TestServeLimitSaysMore: a serving table cut by --limit says how many rows
// --limit 0 adds, as the training table does; without a limit it says
// nothing.
func TestServeLimitSaysMore(t *testing.T) {
	base := []string{"recommend", "--model", "llama-3.1-8b", "--task", "inference", "--providers", "lambda"}
	_, all, _ := runCLI(t, append(base, "--limit", "0")...)
	_, five, errOut := runCLI(t, append(base, "--limit", "5")...)
	rows := func(out string) int {
		n := 0
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "lambda ") {
				n++
			}
		}
		return n
	}
	if n := rows(five); n != 5 {
		t.Fatalf("--limit 5 shows %d rows: %s", n, errOut)
	}
	want := fmt.Sprintf("… %d more offers (--limit 0 shows all)", rows(all)-5)
	if !strings.Contains(five, want) || strings.Contains(all, "more offers") {
		t.Errorf("want %q under --limit 5 and nothing under --limit 0:\n%s", want, five)
	}
}
