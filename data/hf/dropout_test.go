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
