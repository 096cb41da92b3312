package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestMXFP4OnDenseModel: MXFP4 quantizes an MoE's routed experts only
// (serve.WeightBytes), so --weight-format mxfp4 on a dense model changes
// nothing; it was labelled "mxfp4 weights" at the bf16 size with no
// fallback, and the launch file had no --quantization (walk49). The plan
// is the 16-bit checkpoint's, and says so: weight_format bf16,
// fallback_from mxfp4 and why, the ↺ line, the file's note. gpt-oss
// (experts in MXFP4) is served as mxfp4 with no fallback.
func TestMXFP4OnDenseModel(t *testing.T) {
	type plan struct {
		WeightFormat string `json:"weight_format"`
		FallbackFrom string `json:"fallback_from"`
		Fallback     string `json:"fallback"`
	}
	for _, tc := range []struct {
		model            string
		format, fallback string
	}{
		{"llama-3.1-8b", "bf16", "the model has no MoE experts, the only weights mxfp4 quantizes: served as bf16 weights"},
		{"gpt-oss-20b", "mxfp4", ""},
	} {
		args := []string{"estimate", "--model", tc.model, "--task", "inference", "--weight-format", "mxfp4", "--gpu", "h100-sxm"}
		code, out, errs := runCLI(t, append(args, "--json")...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.model, code, errs)
		}
		var e struct {
			Plan plan `json:"plan"`
		}
		if err := json.Unmarshal([]byte(out), &e); err != nil {
			t.Fatal(err)
		}
		if e.Plan.WeightFormat != tc.format || e.Plan.Fallback != tc.fallback || (tc.fallback != "") != (e.Plan.FallbackFrom == "mxfp4") {
			t.Errorf("%s: plan %+v, want %s weights, fallback %q", tc.model, e.Plan, tc.format, tc.fallback)
		}
		code, out, _ = runCLI(t, args...)
		if head := strings.SplitN(out, "\n", 2)[0]; code != 0 || !strings.Contains(head, tc.format+" weights") || (tc.fallback != "") != strings.Contains(out, "↺ "+tc.fallback) {
			t.Errorf("%s: the text says %q; want %s weights and the ↺ line %v:\n%s", tc.model, head, tc.format, tc.fallback != "", out)
		}
	}
	code, out, errs := runCLI(t, "export", "--model", "llama-3.1-8b", "--task", "inference", "--weight-format", "mxfp4",
		"--instance", "lambda/gpu_1x_h100_sxm5", "--format", "torchrun")
	if code != 0 || strings.Contains(out, "  --quantization ") || !strings.Contains(out, "the model has no MoE experts") {
		t.Errorf("export: exit %d (%s), or it quantizes or does not say why not:\n%s", code, errs, out)
	}
}
