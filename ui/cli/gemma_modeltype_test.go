package cli

import (
	"strings"
	"testing"
)

// TestGemmaFP16RefusalNamesItsModelType: vLLM refuses float16 by the
// config.json's top-level model_type (vllm/config/model.py
// _check_valid_dtype(config.model_type, …), _FLOAT16_NOT_SUPPORTED_MODELS
// at 18ec6629253632af0a384f2ffbb8c6b28af322e7: gemma2, gemma3,
// gemma3_text, plamo2, glm4). Gemma 3 4B, 12B and 27B are multimodal
// checkpoints, Gemma3ForConditionalGeneration, model_type "gemma3" (their
// text_config is "gemma3_text"); 1B is text-only, "gemma3_text". A new
// user's walk: --weight-format fp16 on gemma-3-12b said "vLLM refuses
// float16 for gemma3_text models". Failing before: every Gemma 3 said
// gemma3_text.
func TestGemmaFP16RefusalNamesItsModelType(t *testing.T) {
	for _, tt := range []struct{ model, typ string }{
		{"gemma-3-1b", "gemma3_text"},
		{"gemma-3-4b", "gemma3"},
		{"gemma-3-12b", "gemma3"},
		{"gemma-3-27b", "gemma3"},
		{"gemma-2-9b", "gemma2"},
		{"../../data/hf/testdata/config/gemma-3-12b.json", "gemma3"}, // --hf-config: its top-level model_type
	} {
		src := []string{"--model", tt.model}
		if strings.HasSuffix(tt.model, ".json") {
			src = []string{"--hf-config", tt.model}
		}
		code, out, errs := runServeCLI(t, append([]string{"estimate", "--task", "serve", "--weight-format", "fp16", "--gpu", "l4"}, src...)...)
		want := "weight format fp16: vLLM refuses float16 for " + tt.typ + " models (numerical instability); give bf16"
		if code != 2 || out != "" || !strings.Contains(errs, want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and %q", tt.model, code, errs, want)
		}
	}
}
