package config

import "testing"

// TestAnswersReadTokensAsTheFlags: a plan's or phase's answers read token
// counts with ParseTokens, as the flags do (vLLM's convention: 8K is
// 8192, 1k 1000), and other counts with ParseQuantity (88k samples is
// 88,000). Issue 31: "1k" read 1024 on the command line, 1000 in plan
// files; "8K" in a plan file was 8000.
func TestAnswersReadTokensAsTheFlags(t *testing.T) {
	b, err := AnswersTOML(map[string]string{"model": "llama-3.1-8b", "task": "inference", "seq_len": "8K", "gen_tokens": "1k",
		"dataset_samples": "88k", "serve.max_model_len": "16K", "serve.prompt_tokens": "1.5k", "serve.output_tokens": "512"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := Decode(b)
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	w, s := c.Workload, c.Workload.Serve
	for _, tc := range []struct {
		key       string
		got, want float64
	}{
		{"seq_len 8K", float64(w.SeqLen), 8192}, {"gen_tokens 1k", float64(w.GenTokens), 1000},
		{"dataset_samples 88k", w.DatasetSamples, 88000}, {"max_model_len 16K", float64(s.MaxModelLen), 16384},
		{"prompt_tokens 1.5k", float64(s.PromptTokens), 1500}, {"output_tokens 512", float64(s.OutputTokens), 512},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %v, want %v\n%s", tc.key, tc.got, tc.want, b)
		}
	}
	b, err = AnswersTOML(map[string]string{"seq_len": "1.5K"}) // written as the string; Decode refuses it
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(b); err == nil {
		t.Errorf("seq_len 1.5K read: a binary suffix takes a whole number, as vLLM's\n%s", b)
	}
}
