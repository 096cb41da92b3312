package data

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestNewUserIDs: the Hugging Face ids a new user's walk tried. A distill
// or fine-tune planned as its base of another name resolves to it and says
// so in one line (model.FineTuneNote), as a quantized release's id does;
// an instruct variant of the base's own name says nothing; the ids left out
// on purpose say why in one line and name the nearest key; whisper-medium
// is an entry of its own, its count KerasHub's to the unit.
func TestNewUserIDs(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id, key, note string // note "": none
	}{
		{"deepseek-ai/DeepSeek-R1-Distill-Qwen-7B", "qwen2.5-7b", "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B is Qwen2.5 7B's architecture"},
		{"DeepSeek-R1-Distill-Qwen-7B", "qwen2.5-7b", "DeepSeek-R1-Distill-Qwen-7B is Qwen2.5 7B's architecture"},
		{"deepseek-ai/DeepSeek-R1-Distill-Llama-8B", "llama-3.1-8b", "deepseek-ai/DeepSeek-R1-Distill-Llama-8B is Llama 3.1 8B's architecture"},
		{"Qwen/QwQ-32B", "qwen2.5-32b", "Qwen/QwQ-32B is Qwen2.5 32B's architecture"},
		{"microsoft/Phi-4-mini-reasoning", "phi-4-mini", "microsoft/Phi-4-mini-reasoning is Phi-4-mini 3.8B's architecture"},
		{"Qwen/Qwen2.5-7B-Instruct", "qwen2.5-7b", ""},
		{"Qwen/Qwen2.5-7B", "qwen2.5-7b", ""},
		{"qwen2.5-7b", "qwen2.5-7b", ""},
		{"openai/whisper-medium", "whisper-medium", ""},
	} {
		a, err := c.Model(tc.id)
		if err != nil || a.Key != tc.key {
			t.Errorf("%s: %v, %v; want %s", tc.id, a, err, tc.key)
			continue
		}
		m, ok := model.FineTuneNote(tc.id, a)
		if got := model.Strings([]model.Message{m})[0]; ok != (tc.note != "") || ok && got != tc.note {
			t.Errorf("%s: note %q (%v), want %q", tc.id, got, ok, tc.note)
		}
		if ok && !model.IsReleaseNote(m) {
			t.Errorf("%s: the note is not printed as a note", tc.id)
		}
	}
	for _, tc := range []struct{ id, want string }{
		{"microsoft/Phi-4-reasoning", "the nearest key is phi-4"},
		{"microsoft/Phi-4-reasoning-plus", "the nearest key is phi-4"},
		{"mistralai/Mistral-Small-3.1-24B-Instruct-2503", "the nearest supported key is mistral-small-24b"},
		{"mistralai/Mistral-Small-3.2-24B-Instruct-2506", "the nearest supported key is mistral-small-24b"},
	} {
		_, err := c.Model(tc.id)
		if err == nil || !strings.Contains(err.Error(), "left out on purpose") || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want one line saying why, with %q", tc.id, err, tc.want)
		}
	}
	w, err := c.Model("whisper-medium")
	if err != nil {
		t.Fatal(err)
	}
	// KerasHub whisper_medium_multi: 763,857,920; the paper and model card's 769M is 0.7% above.
	if got := w.ParamCount(); got != 763_857_920 || got != w.PublishedParams || (769e6-got)/769e6 > 0.01 {
		t.Errorf("whisper-medium: %v parameters, published %v; want 763,857,920, within 1%% of 769M", got, w.PublishedParams)
	}
}

// TestFineTunesAreAliases: fine_tunes only marks aliases; one that is not
// an alias is refused at load.
func TestFineTunesAreAliases(t *testing.T) {
	r := rawModel{Key: "x", Name: "X", Aliases: []string{"org/X-Instruct"}, FineTunes: []string{"org/Y-Distill-X"}}
	if _, err := r.validate(); err == nil || !strings.Contains(err.Error(), `fine_tunes[1] "org/Y-Distill-X" is not among aliases`) {
		t.Errorf("validate: %v", err)
	}
}
