package hf

import "testing"

// TestDropout: dropout terms follow config.json's dropout fields.
func TestDropout(t *testing.T) {
	base := `"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 32, "intermediate_size": 11008, "vocab_size": 32000`
	tests := []struct {
		extra string
		want  bool
	}{
		{``, false},
		{`, "attention_dropout": 0.0`, false},
		{`, "attention_dropout": 0.1`, true},
		{`, "hidden_dropout_prob": 0.1`, true},
		{`, "resid_pdrop": "0.1"`, false}, // not a number: ignored, never an error
		{`, "dropout": 1.5`, false},       // out of range: ignored
	}
	for _, tt := range tests {
		c, err := ParseConfig([]byte("{" + base + tt.extra + "}"))
		if err != nil {
			t.Fatalf("%s: %v", tt.extra, err)
		}
		if c.Arch.Dropout != tt.want {
			t.Errorf("%q: dropout %v, want %v", tt.extra, c.Arch.Dropout, tt.want)
		}
	}
}

// TestDropoutClassDefaults: a dropout field the file leaves out counts at
// its configuration class's default (dropoutDefaults): BertConfig's
// hidden_dropout_prob and attention_probs_dropout_prob are 0.1, GPT2Config's
// resid/embd/attn_pdrop 0.1, T5Config's dropout_rate 0.1 (transformers
// configuration_bert.py, configuration_gpt2.py, configuration_t5.py). The
// testdata bert-base-uncased, gpt2 and t5-base configs are trimmed to the
// shape keys and read as dropout-free before, where the catalog's entries
// (from the full config.json) train with dropout.
func TestDropoutClassDefaults(t *testing.T) {
	bert := `"model_type": "bert", "hidden_size": 768, "num_attention_heads": 12, "num_hidden_layers": 12, "intermediate_size": 3072, "vocab_size": 30522`
	gpt2 := `"model_type": "gpt2", "n_embd": 768, "n_head": 12, "n_layer": 12, "vocab_size": 50257`
	t5 := `"model_type": "t5", "d_model": 768, "num_layers": 12, "num_heads": 12, "d_kv": 64, "d_ff": 3072, "vocab_size": 32128`
	whisper := `"model_type": "whisper", "d_model": 384, "encoder_layers": 4, "decoder_layers": 4, "encoder_attention_heads": 6, "decoder_attention_heads": 6, "encoder_ffn_dim": 1536, "decoder_ffn_dim": 1536, "vocab_size": 51865`
	for _, tt := range []struct {
		name, config string
		want         bool
	}{
		{"bert, no dropout keys: BertConfig's 0.1", bert, true},
		{"bert, both 0", bert + `, "hidden_dropout_prob": 0, "attention_probs_dropout_prob": 0.0`, false},
		{"bert, one 0, the other at its default 0.1", bert + `, "hidden_dropout_prob": 0`, true},
		{"gpt2, no keys: GPT2Config's 0.1", gpt2, true},
		{"gpt2, all three 0", gpt2 + `, "resid_pdrop": 0, "embd_pdrop": 0, "attn_pdrop": 0`, false},
		{"t5, no key: T5Config's dropout_rate 0.1", t5, true},
		{"t5, dropout_rate 0", t5 + `, "dropout_rate": 0.0`, false},
		{"whisper, no key: WhisperConfig's dropout 0.0", whisper, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseConfig([]byte("{" + tt.config + "}"))
			if err != nil {
				t.Fatal(err)
			}
			if c.Arch.Dropout != tt.want {
				t.Errorf("Dropout = %v, want %v", c.Arch.Dropout, tt.want)
			}
		})
	}
}
