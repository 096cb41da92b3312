package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// The estimator flags reach the estimate, bad values suggest the closest
// with exit 2, and flags that do not apply are named.
func TestEstimatorFlags(t *testing.T) {
	est := func(args ...string) (int, map[string]any, string) {
		t.Helper()
		code, out, errs := runCLI(t, append([]string{"estimate", "--model", "llama-3.1-8b", "--json"}, args...)...)
		var v map[string]any
		if code == 0 {
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
		}
		return code, v, errs
	}
	_, base, _ := est("--task", "qlora")
	_, v, _ := est("--task", "qlora", "--recipe", "deepspeed")
	if v["recipe"] != "deepspeed" || base["recipe"] != "autocast" {
		t.Errorf("recipe: default %v, --recipe deepspeed %v", base["recipe"], v["recipe"])
	}
	weights := func(v map[string]any) float64 {
		return v["memory"].(map[string]any)["per_gpu_bytes"].(map[string]any)["weights"].(float64)
	}
	activations := func(v map[string]any) float64 {
		return v["memory"].(map[string]any)["per_gpu_bytes"].(map[string]any)["activations"].(float64)
	}
	// FP4 without double quantization stores 0.5625 instead of 0.5159 B per 4-bit weight.
	_, fp4, _ := est("--task", "qlora", "--quant-type", "fp4", "--double-quant=false")
	if !(weights(fp4) > weights(base)) {
		t.Errorf("fp4 without double quant: weights %v, NF4+DQ %v", weights(fp4), weights(base))
	}
	// A chunked loss never holds the full fp32 logits.
	_, chunked, _ := est("--task", "qlora", "--loss", "chunked")
	if !(activations(chunked) < activations(base)) {
		t.Errorf("chunked loss: activations %v, hf-fp32 %v", activations(chunked), activations(base))
	}

	for _, tc := range []struct{ args, want string }{
		{"--recipe autocats", `--recipe "autocats": did you mean "autocast"? want auto, autocast, fsdp-mixed, deepspeed, pure16 or fp32`},
		{"--loss chunkd", `did you mean "chunked"?`},
		{"--quant-type nf5", `did you mean "nf4"?`},
		{"--quant-type int4", "want auto, nf4 or fp4"},
	} {
		code, _, errs := est(strings.Fields(tc.args)...)
		if code != 2 || !strings.Contains(errs, tc.want) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("%s: exit %d, stderr %q; want 2 and one line with %q", tc.args, code, errs, tc.want)
		}
	}
	_, _, errs := est("--task", "inference", "--recipe", "fp32", "--quant-type", "fp4")
	for _, want := range []string{"--recipe ignored", "--quant-type ignored"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q: %s", want, errs)
		}
	}
}

// export --format toml keeps the estimator settings, and the launch
// flags follow the 4-bit type.
func TestExportKeepsEstimatorSettings(t *testing.T) {
	args := []string{"--params", "125M", "--layers", "12", "--hidden", "768", "--heads", "12", "--task", "qlora",
		"--batch-size", "1", "--seq-len", "512", "--instance", "aws/g5.2xlarge",
		"--recipe", "pure16", "--loss", "fused", "--quant-type", "fp4", "--double-quant=false"}
	code, out, errs := runExportCLI(t, append(args, "--format", "toml")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	c, err := config.Decode([]byte(out))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	w := c.Workload
	if w.Recipe != model.RecipePure16 || w.Loss != model.LossFused || w.QuantType != model.QuantFP4 || w.DoubleQuant == nil || *w.DoubleQuant {
		t.Errorf("exported recipe %q loss %q quant %q dq %v\n%s", w.Recipe, w.Loss, w.QuantType, w.DoubleQuant, out)
	}
	code, out, errs = runExportCLI(t, append(args, "--format", "torchrun")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "--bnb_4bit_quant_type fp4") || strings.Contains(out, "--use_bnb_nested_quant") {
		t.Errorf("torchrun script does not follow fp4 without double quant:\n%s", out)
	}
}
