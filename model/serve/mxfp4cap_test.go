package serve_test

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/serve"
)

// TestServeMXFP4MinCapability (walk55): vLLM's Mxfp4Config needs compute
// capability 8.0 and bfloat16 activations
// (vllm/model_executor/layers/quantization/mxfp4.py get_min_capability 80,
// get_supported_act_dtypes [bfloat16], checked by vllm/config/vllm.py
// VllmConfig._get_quantization_config before loading); a checkpoint in
// MXFP4 has nothing to fall back to, so V100 and T4 are refused, as AWQ
// on V100 is.
func TestServeMXFP4MinCapability(t *testing.T) {
	for _, tt := range []struct {
		name    string
		g       *model.GPU
		ok      bool
		refused string
	}{
		{"V100 (7.0): refused", fmtV100, false, "vLLM's MXFP4 needs compute capability 8.0 (Ampere) or newer, with bfloat16 activations; V100 is 7.0"},
		{"T4 (7.5): refused", fmtT4, false, "vLLM's MXFP4 needs compute capability 8.0 (Ampere) or newer, with bfloat16 activations; T4 is 7.5"},
		{"A100 (8.0): Marlin MXFP4", fmtA100, true, ""},
		{"H100 (9.0)", fmtH100, true, ""},
		{"MI300X: ROCm, no compute capability to check", fmtMI300, true, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			run, why, ok := serve.FormatOn(serve.WeightMXFP4, tt.g)
			if run != serve.WeightMXFP4 || ok != tt.ok || why.String() != tt.refused {
				t.Errorf("FormatOn(mxfp4, %s) = %s, %q, ok %v; want mxfp4, %q, ok %v", tt.g.Key, run, why, ok, tt.refused, tt.ok)
			}
		})
	}
}
