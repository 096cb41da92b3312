package config

import (
	"strings"
	"testing"
)

// TestServeZeroTextAsTheFlag (walk52): a [serve] key's string is its
// flag's text (docs/schemas.md), so "0" is refused where the flag refuses
// 0, in the flag's words after the text: "serve.tpot_ms" = "0" dropped the
// TPOT target where --tpot-ms 0 is "must be 0.1–3600000 ms, got 0". A bare
// TOML 0 keeps its documented meaning (tpot_ms = 0: no target; ttft_ms = 0:
// none given), "none" is still no target, and shared_prefix_tokens = "0"
// is taken as --shared-prefix-tokens 0 is.
func TestServeZeroTextAsTheFlag(t *testing.T) {
	refused := []struct{ key, text, want string }{
		{"tpot_ms", "0", `serve.tpot_ms: "0": must be 0.1–3600000 ms, got 0`},
		{"tpot_ms", "0.0", `serve.tpot_ms: "0.0": must be 0.1–3600000 ms, got 0`},
		{"ttft_ms", "0", `serve.ttft_ms: "0": must be 0.1–3600000 ms, got 0`},
		{"requests_per_sec", "0", `serve.requests_per_sec: "0": must be > 0, got 0`},
		{"concurrency", "0", `serve.concurrency: "0": must be 1–`},
		{"tensor_parallel_size", "0", `serve.tensor_parallel_size: "0": must be ≥ 1, got 0`},
		{"pipeline_parallel_size", "0", `serve.pipeline_parallel_size: "0": must be ≥ 1, got 0`},
		{"max_model_len", "0", `serve.max_model_len: must be 1–16777216, got 0`},
		{"max_num_seqs", "0", `serve.max_num_seqs: "0": must be 1–`},
		{"gpu_memory_utilization", "0", `serve.gpu_memory_utilization: "0": must be 0.01–1, got 0`},
	}
	for _, tt := range refused {
		_, err := Decode([]byte("schema_version = 1\n[workload]\nmodel = \"qwen3-8b\"\ntask = \"inference\"\n[serve]\n" + tt.key + " = \"" + tt.text + "\"\n"))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s = %q: %v, want %q", tt.key, tt.text, err, tt.want)
		}
	}
	kept := []struct {
		body   string
		noTPOT bool
	}{
		{"tpot_ms = 0", true}, {"tpot_ms = 0.0", true}, {`tpot_ms = "none"`, true}, {"ttft_ms = 0", false},
		{`shared_prefix_tokens = "0"`, false}, {`tpot_ms = "50"`, false},
	}
	for _, tt := range kept {
		c, err := Decode([]byte("schema_version = 1\n[workload]\nmodel = \"qwen3-8b\"\ntask = \"inference\"\n[serve]\n" + tt.body + "\n"))
		if err != nil {
			t.Errorf("%s: %v", tt.body, err)
			continue
		}
		if c.Workload.Serve.NoTPOTTarget != tt.noTPOT {
			t.Errorf("%s: no TPOT target %v, want %v", tt.body, c.Workload.Serve.NoTPOTTarget, tt.noTPOT)
		}
	}
	// A phase's answers from a configuration with no TPOT target
	// (PhaseAnswers, as the configurator saves a phase) read back as such.
	c, err := Decode([]byte("schema_version = 1\n[workload]\nmodel = \"qwen3-8b\"\ntask = \"inference\"\n[serve]\ntpot_ms = 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	ans, err := PhaseAnswers(&c)
	if err != nil {
		t.Fatal(err)
	}
	b, err := AnswersTOML(ans)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(b)
	if err != nil || !back.Workload.Serve.NoTPOTTarget {
		t.Errorf("answers %v read back: %v, no TPOT target %v\n%s", ans, err, back.Workload.Serve.NoTPOTTarget, b)
	}
}
