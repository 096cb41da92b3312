package cli

import (
	"testing"
)

// TestServeKVBandWithinBudget: a new user's walk. Qwen3 30B-A3B at TP 8
// on H100 SXM: budget 71.27 GiB, weights 7.11, KV cache 58.40, and the KV
// cache's 90% range reached 73.54 GiB, more than the whole budget. vLLM
// gives the KV cache what is left of the budget after the weights, the
// profiled activations and non-torch memory
// (serve.Memory.KVCacheRange), so the range ends at budget − weights −
// non-torch. Failing before: high 73.5425.
func TestServeKVBandWithinBudget(t *testing.T) {
	type mem struct {
		Budget   float64 `json:"budget_gib"`
		Weights  float64 `json:"weights_gib"`
		NonTorch float64 `json:"non_torch_gib"`
		KV       float64 `json:"kv_cache_gib"`
		Band     struct {
			Low  float64 `json:"low"`
			High float64 `json:"high"`
		} `json:"kv_cache_band"`
	}
	type out struct {
		Plan struct {
			Memory mem `json:"memory"`
		} `json:"plan"`
	}
	j, _ := runCLIJSON[out](t, []string{"estimate", "--task", "serve", "--model", "qwen3-30b-a3b", "--gpu", "h100-sxm", "--tp", "8"}, "--json")
	m := j.Plan.Memory
	ceil := m.Budget - m.Weights - m.NonTorch
	if m.KV <= 0 || m.Band.High > ceil+0.0001 || m.Band.Low < 0 || m.Band.Low > m.KV || m.Band.High < m.KV {
		t.Errorf("kv_cache_band %.4f–%.4f GiB around %.4f, want within 0–%.4f (budget %.4f − weights %.4f − non-torch %.4f)",
			m.Band.Low, m.Band.High, m.KV, ceil, m.Budget, m.Weights, m.NonTorch)
	}
}
