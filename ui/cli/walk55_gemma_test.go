package cli

import (
	"strings"
	"testing"
)

// TestGemmaNoFloat16 (walk55): vLLM refuses float16 for Gemma 2 and 3
// (vllm/config/model.py _FLOAT16_NOT_SUPPORTED_MODELS: --dtype float16
// does not start), and its --dtype auto loads them in float32 on a GPU
// without bf16 (serve.FormatFor). Gemma 3 was ranked on 4 × V100 "↺fp16"
// and exported for a T4 with --dtype float16 "as vLLM requires"; now
// those GPUs are planned in fp32 (4 bytes a weight, twice the KV cache),
// marked ↺fp32, exported with --dtype float32 and a note, and a one-T4
// instance, which cannot hold Gemma 3 4B in float32, is refused saying
// why; fp16 asked is refused on any GPU.
func TestGemmaNoFloat16(t *testing.T) {
	type offer struct {
		GPU          string `json:"gpu"`
		WeightFormat string `json:"weight_format"`
		FallbackFrom string `json:"fallback_from"`
	}
	rec, _ := runCLIJSON[struct {
		Offers []offer `json:"offers"`
	}](t, []string{"recommend", "--model", "gemma-3-12b", "--task", "inference", "--json"}, "--limit", "0")
	fp32 := 0
	for _, o := range rec.Offers {
		noBF16 := strings.HasPrefix(o.GPU, "v100") || o.GPU == "t4" || o.GPU == "quadro-rtx-6000"
		switch {
		case o.WeightFormat == "fp16":
			t.Errorf("%s ranked at fp16, which vLLM refuses for Gemma 3", o.GPU)
		case noBF16 && (o.WeightFormat != "fp32" || o.FallbackFrom != "bf16"):
			t.Errorf("%s ranked at %s from %q, want fp32 from bf16", o.GPU, o.WeightFormat, o.FallbackFrom)
		case noBF16:
			fp32++
		}
	}
	if fp32 == 0 {
		t.Error("no V100 or T4 offer ranked in fp32: the test proves nothing")
	}
	code, out, _ := runCLI(t, "recommend", "--model", "gemma-3-12b", "--task", "inference", "--limit", "3")
	if code != 0 || strings.Contains(out, "↺fp16") {
		t.Errorf("recommend --limit 3: exit %d, a row ↺fp16:\n%s", code, out)
	}

	// One T4 cannot hold Gemma 3 4B in float32 (4 B × 4.3e9 weights):
	// refused, saying float32 and why.
	code, out, errs := runCLI(t, "export", "--model", "gemma-3-4b", "--task", "inference", "--instance", "aws/g4dn.xlarge", "--format", "docker", "-o", "-")
	if code != 2 || out != "" || !strings.Contains(errs, "and vLLM refuses float16 for gemma3 models (numerical instability): vLLM's --dtype auto serves it as fp32 weights") {
		t.Errorf("export g4dn.xlarge: exit %d, stdout %q, stderr %q; want 2 and the float32 reason", code, out, errs)
	}
	code, out, errs = runCLI(t, "export", "--model", "gemma-3-4b", "--task", "inference", "--instance", "aws/g4dn.12xlarge", "--format", "docker", "-o", "-")
	if code != 0 || !strings.Contains(out, "\n  --dtype float32 \\\n") || strings.Contains(out, "\n  --dtype float16") || strings.Contains(out, "as vLLM requires") ||
		!strings.Contains(out, "# note: T4 has no bf16 (compute capability below 8.0) and vLLM refuses float16 for gemma3 models") {
		t.Errorf("export g4dn.12xlarge: exit %d, stderr %q:\n%s", code, errs, out)
	}

	code, _, errs = runCLI(t, "recommend", "--model", "gemma-3-4b", "--task", "inference", "--weight-format", "fp16")
	if code != 2 || !strings.Contains(errs, "weight format fp16: vLLM refuses float16 for gemma3 models (numerical instability); give bf16") {
		t.Errorf("--weight-format fp16: exit %d, stderr %q; want 2 and the refusal", code, errs)
	}
	// Llama keeps its fp16 fallback on a T4.
	code, out, errs = runCLI(t, "export", "--model", "llama-3.2-3b", "--task", "inference", "--instance", "aws/g4dn.xlarge", "--format", "docker", "-o", "-")
	if code != 0 || !strings.Contains(out, "--dtype float16") {
		t.Errorf("llama on g4dn.xlarge: exit %d, stderr %q:\n%s", code, errs, out)
	}
}
