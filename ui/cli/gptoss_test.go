package cli

import (
	"encoding/json"
	"math"
	"path/filepath"
	"testing"

	"github.com/gpuplan/gpuplan/ui/report"
)

// TestGptOssServedAsReleased: the catalog's gpt-oss-120b is served in its
// released format, MXFP4 experts and the rest bf16 (config.json
// quantization_config: quant_method "mxfp4", modules_to_not_convert
// self_attn, mlp.router, embed_tokens, lm_head), as the same config.json
// read with --hf-config is; it was served in bf16 (217.6 GiB, 4 GPUs).
// By hand: the checkpoint's experts are 36 layers × 128 experts × 3 ×
// 2880 × 2880 (fused gate/up and down) = 114,661,785,600 weights at 0.5 +
// 1/32 B (MXFP4: 4-bit elements, one 8-bit scale per 32) = 60.91e9 B; the
// other 116,829,156,672 − 114,661,785,600 = 2,167,371,072 at 2 B =
// 4.33e9 B; 65.25e9 B = 60.77 GiB on disk. On an H100 vLLM holds the
// experts as its triton_kernels MoE path lays them out (serve's
// mxfp4ExpertBytes): 13,559,040 B an expert with fp32 biases, 4608
// experts, plus the 2,127,557,952 other parameters (the experts' 4608 ×
// 8640 biases left out) at 2 B: 66,735,172,224 B = 62.15 GiB, which fits
// one H100 80GB (71.3 GiB at 0.9). A weight format given still wins.
func TestGptOssServedAsReleased(t *testing.T) {
	const wantGiB = (4608*13559040 + 2127557952*2) / float64(1<<30)
	weights := func(args ...string) (string, float64, bool) {
		t.Helper()
		code, out, errs := runServeCLI(t, append([]string{"estimate", "--task", "inference", "--json", "--gpu", "h100-sxm", "--gpus", "1", "--max-model-len", "4096"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var e report.ServeEstimateJSON
		if err := json.Unmarshal([]byte(out), &e); err != nil {
			t.Fatal(err)
		}
		return string(e.Serving.WeightFormat), e.Plan.Memory.WeightsGiB, e.Plan.Fits
	}
	format, cat, fits := weights("--model", "gpt-oss-120b")
	if format != "mxfp4" || !fits || math.Abs(cat-wantGiB) > 0.01 {
		t.Errorf("catalog gpt-oss-120b: %s, weights %.2f GiB, fits %v; want mxfp4, %.2f GiB, fits", format, cat, fits, wantGiB)
	}
	format, hfw, fits := weights("--hf-config", filepath.Join("..", "..", "data", "hf", "testdata", "config", "gpt-oss-120b.json"))
	if format != "mxfp4" || !fits || math.Abs(hfw-cat) > 0.01*cat {
		t.Errorf("--hf-config gpt-oss-120b.json: %s, weights %.2f GiB, fits %v; want mxfp4 and the catalog's %.2f GiB", format, hfw, fits, cat)
	}
	if format, w, fits := weights("--model", "gpt-oss-120b", "--weight-format", "bf16"); format != "bf16" || fits || w < 200 {
		t.Errorf("--weight-format bf16: %s, %.2f GiB, fits %v; want bf16 (about 217 GiB), not on one GPU", format, w, fits)
	}
	if format, _, _ := weights("--model", "gpt-oss-120b", "--precision", "bf16"); format != "bf16" {
		t.Errorf("--precision bf16: %s, want bf16 (a precision given asks for itself)", format)
	}
}
