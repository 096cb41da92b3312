package cli

import (
	"strings"
	"testing"
)

// TestGptOssNotOnVoltaOrTuring (walk55): gpt-oss is released in MXFP4,
// which vLLM loads only from compute capability 8.0, with bfloat16
// activations (Mxfp4Config.get_min_capability 80, checked before loading:
// serve.FormatOn). It was ranked first on 2 × V100, "✓ serves 2 × T4" in
// estimate, and exported for a g4dn.12xlarge (4 × T4) with no word; now
// recommend ranks neither GPU, estimate says ✗ with the reason, and
// export refuses to write the file (exit 2), naming it.
func TestGptOssNotOnVoltaOrTuring(t *testing.T) {
	const why = "vLLM's MXFP4 needs compute capability 8.0 (Ampere) or newer, with bfloat16 activations"

	type offer struct {
		GPU          string `json:"gpu"`
		WeightFormat string `json:"weight_format"`
	}
	rec, _ := runCLIJSON[struct {
		Offers []offer `json:"offers"`
	}](t, []string{"recommend", "--model", "gpt-oss-20b", "--task", "inference", "--json"}, "--limit", "0")
	if len(rec.Offers) == 0 {
		t.Fatal("recommend ranked no offer")
	}
	for _, o := range rec.Offers {
		if strings.HasPrefix(o.GPU, "v100") || o.GPU == "t4" || o.GPU == "t4g" || o.WeightFormat != "mxfp4" {
			t.Errorf("recommend ranked %s at %s", o.GPU, o.WeightFormat)
		}
	}
	code, out, _ := runCLI(t, "recommend", "--model", "gpt-oss-20b", "--task", "inference", "--limit", "6")
	if code != 0 || strings.Contains(out, "v100") || strings.Contains(out, "×t4 ") || strings.Contains(out, "best: primeintellect datacrunch__2xV100") {
		t.Errorf("recommend --limit 6: exit %d, V100 or T4 in the table:\n%s", code, out)
	}

	code, out, errs := runCLI(t, "estimate", "--model", "gpt-oss-20b", "--task", "inference", "--gpu", "t4")
	if code != 0 || strings.Contains(out, "✓ serves") || !strings.Contains(out, "✗ cannot serve on 1 × NVIDIA T4\n  "+why+"; NVIDIA T4 is 7.5") {
		t.Errorf("estimate --gpu t4: exit %d, stderr %q, want ✗ with the reason:\n%s", code, errs, out)
	}
	code, out, _ = runCLI(t, "estimate", "--model", "gpt-oss-20b", "--task", "inference", "--gpu", "v100-16gb", "--gpus", "2")
	if code != 0 || !strings.Contains(out, why+"; NVIDIA V100 SXM2 16GB is 7.0") {
		t.Errorf("estimate --gpu v100-16gb --gpus 2: exit %d, want ✗ with the reason:\n%s", code, out)
	}

	code, out, errs = runCLI(t, "export", "--model", "gpt-oss-20b", "--task", "inference", "--instance", "aws/g4dn.12xlarge", "--format", "docker", "-o", "-")
	if code != 2 || out != "" || !strings.Contains(errs, "aws/g4dn.12xlarge cannot serve the model: "+why+"; NVIDIA T4 is 7.5") {
		t.Errorf("export g4dn.12xlarge: exit %d, stdout %q, stderr %q; want 2, nothing, the reason", code, out, errs)
	}
	// An Ampere instance still exports.
	code, out, errs = runCLI(t, "export", "--model", "gpt-oss-20b", "--task", "inference", "--instance", "aws/g5.xlarge", "--format", "docker", "-o", "-")
	if code != 0 || !strings.Contains(out, "--model openai/gpt-oss-20b") {
		t.Errorf("export g5.xlarge (A10G, 8.6): exit %d, stderr %q:\n%s", code, errs, out)
	}
}
