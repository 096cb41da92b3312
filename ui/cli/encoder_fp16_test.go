package cli

import (
	"strings"
	"testing"
)

// TestEncoderInferenceFP16OnT4 (a new user's walk): inference of an
// encoder (no vLLM) at its default bf16 runs fp16 on a GPU without bf16,
// as serving's --dtype auto does (model.PrecisionKept): the T4 offers are
// ranked, marked ↺fp16, with the mark's legend once, instead of 382 near
// misses asking for allow_precision_fallback; "What saves the most" no
// longer proposes int4/int8 weights that only "saved" by reaching the T4
// the bf16 rows were refused, nor for an encoder at all. --precision bf16
// typed still asks for bf16. T5, whose activations overflow fp16, stays a
// near miss saying so.
func TestEncoderInferenceFP16OnT4(t *testing.T) {
	base := []string{"recommend", "--model", "modernbert-base", "--task", "inference", "--providers", "aws,gcp"}
	code, out, errOut := runCLI(t, base...)
	if code != 0 {
		t.Fatalf("%q: exit %d: %s", base, code, errOut)
	}
	t4 := 0
	for _, l := range strings.Split(out, "\n") {
		row := strings.HasPrefix(l, "aws ") || strings.HasPrefix(l, "gcp ")
		if row && (strings.Contains(l, " 1×t4 ") || strings.Contains(l, " 1×t4g ")) {
			t4++
			if !strings.Contains(l, "↺fp16") {
				t.Errorf("T4 row not marked with the precision it runs in: %q", l)
			}
		}
	}
	if t4 == 0 || strings.Count(out, "↺ is the precision a GPU runs in place of bf16, which it lacks; its row is timed in that precision") != 1 {
		t.Errorf("%d T4 rows, legend %d times; want T4 rows marked ↺fp16 and the legend once:\n%s",
			t4, strings.Count(out, "↺ is the precision"), out)
	}
	for _, no := range []string{"has no bf16; it would run fp16", "precision support", "serve int4 weights", "serve int8 weights"} {
		if strings.Contains(out, no) {
			t.Errorf("output says %q:\n%s", no, out)
		}
	}

	// bf16 asked keeps the T4 out, and int4 weights (which would reach it
	// with fp16 activations) are no saving for an encoder, which has no
	// GPTQ/AWQ checkpoint (advice.quantizableWeights).
	code, out, errOut = runCLI(t, append(base, "--precision", "bf16")...)
	if code != 0 || !strings.Contains(out, "NVIDIA T4 has no bf16; it would run fp16 (allow_precision_fallback)") || strings.Contains(out, "↺fp16") ||
		strings.Contains(out, "serve int4 weights") || strings.Contains(out, "serve int8 weights") {
		t.Errorf("--precision bf16: exit %d, want T4 near misses, no ↺fp16 row and no int8/int4 saving:\n%s%s", code, out, errOut)
	}

	code, out, errOut = runCLI(t, "recommend", "--model", "t5-base", "--task", "inference", "--providers", "aws,gcp")
	if code != 0 || !strings.Contains(out, "NVIDIA T4 has no bf16 and t5 models overflow in fp16 (inf activations); it would run fp16 (allow_precision_fallback), or give precision fp32") ||
		strings.Contains(out, "↺fp16") || strings.Contains(out, "serve int4 weights") {
		t.Errorf("t5-base: exit %d, want T4 near misses naming the fp16 overflow, no ↺fp16 row and no int4 saving:\n%s%s", code, out, errOut)
	}
}
