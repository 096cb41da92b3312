package i18n_test

import (
	"testing"

	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/data/hf"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// TestHFWarningsTranslated: every warning the Hugging Face importer gives
// for a config.json (and for a config whose safetensors count disagrees)
// reaches a Chinese user in Chinese (walk49: "警告：no model_type: read
// the generic keys…" kept its English body). TestEveryMessageKeyTranslated
// checks the keys it can find; this checks the warnings as they are made,
// nested parts (a quant_method, "torch_dtype not given") included.
func TestHFWarningsTranslated(t *testing.T) {
	const shape = `"hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32, "intermediate_size": 11008, "vocab_size": 32000`
	for _, tc := range []struct {
		name, json string
	}{
		{"no model_type", `{` + shape + `}`},
		{"unknown model_type", `{"model_type": "mamba", ` + shape + `}`},
		{"unknown torch_dtype", `{"model_type": "llama", "torch_dtype": "complex64", ` + shape + `}`},
		{"quant_method not costed", `{"model_type": "llama", "torch_dtype": "bfloat16", "quantization_config": {"quant_method": "hqq"}, ` + shape + `}`},
		{"no quant_method, no dtype, 6 bits", `{"model_type": "llama", "quantization_config": {"bits": 6}, ` + shape + `}`},
		{"3-bit gptq", `{"model_type": "llama", "quantization_config": {"quant_method": "gptq", "bits": 3}, ` + shape + `}`},
		{"2-bit without quant_method", `{"model_type": "llama", "quantization_config": {"bits": 2}, ` + shape + `}`},
		{"text_config of an unknown wrapper", `{"model_type": "some_vl", "text_config": {"model_type": "llama", ` + shape + `}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := hf.ParseConfig([]byte(tc.json))
			if err != nil {
				t.Fatal(err)
			}
			ws := c.Warnings
			for _, n := range []int64{1e9, 1e11} { // fewer and more than the shape's: both kept counts
				if _, w := c.WithCounts(hf.TensorCounts{Params: n}); w.Key != "" {
					ws = append(ws, w)
				}
			}
			if len(ws) < 3 {
				t.Fatalf("%d warnings %q; want the case's and two count warnings", len(ws), model.Strings(ws))
			}
			p := i18n.NewTracing(language.SimplifiedChinese)
			for _, w := range ws {
				p.Message(w)
			}
			if u := p.Untranslated(); len(u) > 0 {
				t.Errorf("warnings %q: no Chinese for %q", model.Strings(ws), u)
			}
		})
	}
}
