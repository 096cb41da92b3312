package launch

import (
	"reflect"
	"slices"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/serve"
)

// TestServeRopeScalingArgs: a YaRN scaling asked (serve.RopeScaling) is
// passed to vllm serve as vLLM's context-extension example passes it,
// --hf-overrides '{"rope_parameters": {…}}' with the model's rope_theta
// (the override replaces the RoPE parameters whole) and a float factor,
// right after --max-model-len, which it lets pass the model's positions;
// none without one. Qwen3 8B at 131072: yarn × 4 over the card's 32768.
func TestServeRopeScalingArgs(t *testing.T) {
	qwen := &model.Architecture{Key: "qwen3-8b", MaxPositions: 40960, RopeTheta: 1e6, RopeOriginal: 32768}
	sv := func(r serve.RopeScaling, a *model.Architecture) *Serve {
		return &Serve{TP: 1, PP: 1, Arch: a, Serving: serve.Serving{WeightFormat: serve.WeightBF16, KVCacheDType: serve.KVAuto,
			MaxModelLen: 131072, GPUMemoryUtilization: 0.9, MaxNumSeqs: 256, MaxNumBatchedTokens: 8192, RopeScaling: r}}
	}
	for _, tt := range []struct {
		name string
		s    *Serve
		want string // --hf-overrides's value; "" none
	}{
		{"yarn:4 over the card's 32768, rope_theta 1e6", sv(serve.RopeScaling{Type: "yarn", Factor: 4}, qwen),
			`{"rope_parameters":{"rope_theta":1000000,"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}}`},
		{"yarn:2.5:40960 given", sv(serve.RopeScaling{Type: "yarn", Factor: 2.5, Original: 40960}, qwen),
			`{"rope_parameters":{"rope_theta":1000000,"rope_type":"yarn","factor":2.5,"original_max_position_embeddings":40960}}`},
		{"none", sv(serve.RopeScaling{}, qwen), ""},
	} {
		args := tt.s.VLLMArgs()
		i := slices.Index(args, "--hf-overrides")
		switch {
		case tt.want == "" && i >= 0:
			t.Errorf("%s: --hf-overrides in %q", tt.name, args)
		case tt.want != "" && (i < 2 || i+1 >= len(args) || args[i+1] != tt.want || args[i-2] != "--max-model-len"):
			t.Errorf("%s: args %q, want --max-model-len N --hf-overrides %s", tt.name, args, tt.want)
		}
	}
	// The [serve] table keeps the scaling as asked, so --config reopens it.
	if v := sv(serve.RopeScaling{Type: "yarn", Factor: 4}, qwen).ServeLaunch(); v.RopeScaling != "yarn:4" || !reflect.DeepEqual(v.VLLMArgs, sv(serve.RopeScaling{Type: "yarn", Factor: 4}, qwen).ServerArgs()) {
		t.Errorf("ServeLaunch: rope_scaling %q, vllm_args %q", v.RopeScaling, v.VLLMArgs)
	}
}
