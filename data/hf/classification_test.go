package hf

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// withKeys returns the fixture testdata/config/<file>.json with keys set
// (a nil value deletes the key).
func withKeys(tb testing.TB, file string, keys map[string]any) []byte {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "config", file+".json"))
	if err != nil {
		tb.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		tb.Fatal(err)
	}
	for k, v := range keys {
		if v == nil {
			delete(raw, k)
			continue
		}
		raw[k] = v
	}
	out, err := json.Marshal(raw)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// TestClassificationHeads: a config.json whose architectures names a
// sequence- or token-classification class is counted as that class, not
// as the causal LM (walk51: LlamaForSequenceClassification was costed at
// 8,030,261,248 parameters with 128,256-token logits). Each count is the
// fixture's own (config_test.go fixtures) with the LM head taken out and
// the classification head put in, as transformers builds them:
//
//	modeling_layers.py GenericForSequenceClassification (Llama, Qwen2, Gemma 3, Phi):
//	    self.score = nn.Linear(config.hidden_size, self.num_labels, bias=False)
//	modeling_layers.py GenericForTokenClassification:
//	    self.score = nn.Linear(config.hidden_size, config.num_labels)
//	modeling_gptj.py GPTJForSequenceClassification:
//	    self.score = nn.Linear(config.n_embd, self.num_labels, bias=False)
//	modeling_opt.py OPTForSequenceClassification:
//	    self.score = nn.Linear(config.word_embed_proj_dim, self.num_labels, bias=False)
//	modeling_bert.py BertForSequenceClassification: BertModel(config) (pooler kept) and
//	    self.classifier = nn.Linear(config.hidden_size, config.num_labels)
//	modeling_bert.py BertForTokenClassification: BertModel(config, add_pooling_layer=False)
//	modeling_roberta.py RobertaForSequenceClassification: RobertaModel(config, add_pooling_layer=False)
//	    and RobertaClassificationHead (dense h×h + bias, out_proj h×labels + bias)
//	modeling_distilbert.py DistilBertForSequenceClassification:
//	    self.pre_classifier = nn.Linear(config.dim, config.dim) and
//	    self.classifier = nn.Linear(config.dim, config.num_labels)
//	    (a Keras summary of TFDistilBertForSequenceClassification: 66,362,880 + 590,592 + 1,538);
//	    DistilBertForTokenClassification: the classifier only
//	modeling_modernbert.py ModernBertPredictionHead:
//	    self.dense = nn.Linear(config.hidden_size, config.hidden_size, config.classifier_bias)
//	    self.norm = nn.LayerNorm(config.hidden_size, eps=config.norm_eps, bias=config.norm_bias)
//	    then self.classifier = nn.Linear(config.hidden_size, config.num_labels)
//
// Labels: configuration_utils.py PretrainedConfig.__init__, "if
// self.id2label is None: self._create_id_label_maps(num_labels if
// num_labels is not None else 2)".
func TestClassificationHeads(t *testing.T) {
	two := map[string]string{"0": "NEGATIVE", "1": "POSITIVE"}
	three := map[string]string{"0": "a", "1": "b", "2": "c"}
	for _, tt := range []struct {
		name   string
		file   string
		keys   map[string]any
		head   model.Head
		labels int
		params float64
		active float64 // 0: params
	}{
		{"llama-3.1-8b seq-cls, 2 labels: 8,030,261,248 − 128,256×4,096 lm_head + 4,096×2 score",
			"llama-3.1-8b-seq-cls", nil, model.HeadSequenceClassification, 2, 7_504_932_864, 0},
		{"llama-3.1-8b token-cls, num_labels 9: − 128,256×4,096 + 4,096×9 + 9 bias",
			"llama-3.1-8b", map[string]any{"architectures": []string{"LlamaForTokenClassification"}, "num_labels": 9},
			model.HeadTokenClassification, 9, 7_504_961_545, 0},
		{"llama-3.1-8b seq-cls without id2label or num_labels: 2 labels",
			"llama-3.1-8b", map[string]any{"architectures": []string{"LlamaForSequenceClassification"}},
			model.HeadSequenceClassification, 2, 7_504_932_864, 0},
		{"id2label wins over num_labels: 3 labels",
			"llama-3.1-8b", map[string]any{"architectures": []string{"LlamaForSequenceClassification"}, "id2label": three, "num_labels": 7},
			model.HeadSequenceClassification, 3, 8_030_261_248 - 128_256*4_096 + 3*4_096, 0},
		{"qwen2.5-0.5b tied seq-cls, 3 labels: 494,032,768 + 896×3 (no head was counted)",
			"qwen2.5-0.5b", map[string]any{"architectures": []string{"Qwen2ForSequenceClassification"}, "id2label": three},
			model.HeadSequenceClassification, 3, 494_035_456, 0},
		{"phi-2 seq-cls: − 51,200×2,560 lm_head − 51,200 lm_head bias + 2,560×2",
			"phi-2", map[string]any{"architectures": []string{"PhiForSequenceClassification"}, "id2label": two},
			model.HeadSequenceClassification, 2, 2_648_565_760, 0},
		{"gpt-j-6b seq-cls: − 50,400×4,096 lm_head − 50,400 lm_head bias + 4,096×2",
			"gpt-j-6b", map[string]any{"architectures": []string{"GPTJForSequenceClassification"}},
			model.HeadSequenceClassification, 2, 5_844_402_176, 0},
		{"opt-350m seq-cls: + 512×2 score (word_embed_proj_dim), tied: no head was counted",
			"opt-350m", map[string]any{"architectures": []string{"OPTForSequenceClassification"}},
			model.HeadSequenceClassification, 2, 331_197_440, 0},
		{"bert-base-uncased seq-cls: 109,482,240 + 768×2 + 2",
			"bert-base-uncased", map[string]any{"architectures": []string{"BertForSequenceClassification"}, "id2label": two},
			model.HeadSequenceClassification, 2, 109_483_778, 0},
		{"bert-base-uncased token-cls, 9 labels: − (768² + 768) pooler + 768×9 + 9",
			"bert-base-uncased", map[string]any{"architectures": []string{"BertForTokenClassification"}, "num_labels": 9},
			model.HeadTokenClassification, 9, 108_898_569, 0},
		{"roberta-base seq-cls: the dense layer replaces the pooler, + 768×2 + 2",
			"roberta-base", map[string]any{"architectures": []string{"RobertaForSequenceClassification"}},
			model.HeadSequenceClassification, 2, 124_647_170, 0},
		{"distilbert-base-uncased seq-cls (sst-2): + 768² + 768 pre_classifier + 768×2 + 2 classifier",
			"distilbert-base-uncased", map[string]any{"architectures": []string{"DistilBertForSequenceClassification"}, "id2label": two},
			model.HeadSequenceClassification, 2, 66_955_010, 0},
		{"distilbert-base-uncased token-cls, 9 labels: classifier only, + 768×9 + 9",
			"distilbert-base-uncased", map[string]any{"architectures": []string{"DistilBertForTokenClassification"}, "num_labels": 9},
			model.HeadTokenClassification, 9, 66_362_880 + 768*9 + 9, 0},
		{"modernbert-base seq-cls: + 768² dense + 768 norm (no biases) + 768×2 + 2",
			"modernbert-base", map[string]any{"architectures": []string{"ModernBertForSequenceClassification"}},
			model.HeadSequenceClassification, 2, 149_606_402, 0},
		{"modernbert-base token-cls, 5 labels, classifier_bias: + 768² + 768 + 768 bias + 768×5 + 5",
			"modernbert-base", map[string]any{"architectures": []string{"ModernBertForTokenClassification"}, "num_labels": 5, "classifier_bias": true},
			model.HeadTokenClassification, 5, 149_014_272 + 768*768 + 768 + 768 + 768*5 + 5, 0},
		{"gemma-3-4b wrapper: the outer architectures reach the text model, + 2,560×2",
			"gemma-3-4b", map[string]any{"architectures": []string{"Gemma3ForSequenceClassification"}},
			model.HeadSequenceClassification, 2, 4_300_084_592, 3_880_268_288},
		{"a causal LM is unchanged, whatever id2label says",
			"llama-3.1-8b", map[string]any{"id2label": map[string]string{}},
			"", 0, 8_030_261_248, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var data []byte
			if tt.keys == nil {
				var err error
				if data, err = os.ReadFile(filepath.Join("testdata", "config", tt.file+".json")); err != nil {
					t.Fatal(err)
				}
			} else {
				data = withKeys(t, tt.file, tt.keys)
			}
			c, err := ParseConfig(data)
			if err != nil {
				t.Fatal(err)
			}
			a := c.Arch
			if a.Head != tt.head || a.Labels != tt.labels {
				t.Errorf("Head %q, Labels %d; want %q, %d", a.Head, a.Labels, tt.head, tt.labels)
			}
			if len(c.Warnings) > 0 {
				t.Errorf("warnings %q", model.Strings(c.Warnings))
			}
			if got := a.ParamCount(); got != tt.params {
				t.Errorf("ParamCount() = %.0f, want %.0f (diff %+.0f)", got, tt.params, got-tt.params)
			}
			active := tt.active
			if active == 0 {
				active = tt.params
			}
			if got := a.ActiveParams(); got != active {
				t.Errorf("ActiveParams() = %.0f, want %.0f", got, active)
			}
			if err := a.Validate(); err != nil {
				t.Errorf("Validate() = %v", err)
			}
		})
	}
}

// TestClassificationHeadRefused: an encoder-decoder's classification head
// (T5ForSequenceClassification) is not modelled: the generation model is
// costed, and a warning says so; labels that transformers could not build
// are errors naming the key.
func TestClassificationHeadRefused(t *testing.T) {
	c, err := ParseConfig(withKeys(t, "t5-base", map[string]any{"architectures": []string{"T5ForSequenceClassification"}}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Arch.Head != "" || c.Arch.ParamCount() != 222_903_552 {
		t.Errorf("t5-base seq-cls: Head %q, %.0f parameters; want none, the generation model's 222,903,552", c.Arch.Head, c.Arch.ParamCount())
	}
	if ws := model.Strings(c.Warnings); len(ws) != 1 || !strings.Contains(ws[0], `architectures "T5ForSequenceClassification": gpuplan costs classification heads on decoders and encoders only`) {
		t.Errorf("warnings %q", ws)
	}
	for _, tt := range []struct {
		name string
		keys map[string]any
		want string
	}{
		{"empty id2label", map[string]any{"architectures": []string{"LlamaForSequenceClassification"}, "id2label": map[string]string{}},
			"id2label: want at least one label, got {}"},
		{"id2label not an object", map[string]any{"architectures": []string{"LlamaForSequenceClassification"}, "id2label": []int{1}},
			"id2label: want a JSON object, got a JSON array"},
		{"num_labels 0", map[string]any{"architectures": []string{"LlamaForTokenClassification"}, "num_labels": 0},
			"num_labels must be 1–2147483647, got 0"},
		{"architectures not strings", map[string]any{"architectures": []int{1}},
			"architectures: want a list of strings, got [1]"},
		{"a control character in the class", map[string]any{"architectures": []string{"Evil\x1bForSequenceClassification"}},
			"architectures: "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseConfig(withKeys(t, "llama-3.1-8b", tt.keys))
			if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v; want ErrConfig with %q", err, tt.want)
			}
		})
	}
}
