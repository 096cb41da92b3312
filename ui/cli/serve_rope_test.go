package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/ui/report"
)

// TestServeQwen3PastItsPositions: a new user's walk. Qwen3 8B past its
// config.json's 40960 positions could not be planned: estimate
// --max-model-len 64K said "above the model's 40960 positions" (exit 2)
// with no way on, and a config.json with YaRN × 4 from 32768, as Qwen's
// card gives it, was refused at 128K too. Now the refusal names the flag
// (--rope-scaling yarn:2: 32768 × 2 = 65536), the flag plans it, the
// export passes it to vllm serve as --hf-overrides rope_parameters, and
// the config.json's YaRN gives 131072 positions as vLLM derives them.
// Failing before: both refused.
func TestServeQwen3PastItsPositions(t *testing.T) {
	base := []string{"--model", "qwen3-8b", "--task", "serve", "--prompt-tokens", "60000", "--output-tokens", "1000"}
	code, out, errs := runCLI(t, append([]string{"estimate", "--gpu", "h100", "--max-model-len", "64K"}, base...)...)
	const want = "gpuplan: serving: max_model_len 65536 is above the model's 40960 positions; vLLM serves a RoPE model past them with YaRN: give --rope-scaling yarn:2 (32768 × 2 = 65536 positions), which the launch files pass as --hf-overrides\n"
	if code != 2 || out != "" || errs != want {
		t.Errorf("64K without --rope-scaling: exit %d, stderr %q; want 2 and %q", code, errs, want)
	}
	e, _ := runCLIJSON[report.ServeEstimateJSON](t, append([]string{"estimate", "--gpu", "h100", "--max-model-len", "64K", "--rope-scaling", "yarn:2", "--json"}, base...))
	if e.Serving.MaxModelLen != 65536 || e.Serving.RopeScaling != "yarn:2" || !e.Plan.Fits {
		t.Errorf("--rope-scaling yarn:2: max_model_len %d, rope_scaling %q, fits %v", e.Serving.MaxModelLen, e.Serving.RopeScaling, e.Plan.Fits)
	}
	code, out, errs = runCLI(t, append([]string{"export", "--instance", "aws/p5.48xlarge", "--format", "vllm", "-o", "-", "--max-model-len", "128K", "--rope-scaling", "yarn:4"}, base...)...)
	if code != 0 || !strings.Contains(out, "  --max-model-len 131072 \\\n  --hf-overrides '{\"rope_parameters\":{\"rope_theta\":1000000,\"rope_type\":\"yarn\",\"factor\":4.0,\"original_max_position_embeddings\":32768}}' \\\n") {
		t.Errorf("export: exit %d, %s:\n%s", code, errs, out)
	}
	// Bad input: one line, what was wrong and what is valid.
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--rope-scaling", "yarm:4"}, `gpuplan: --rope-scaling "yarm:4": rope scaling type "yarm": did you mean "yarn"? want yarn` + "\n"},
		{[]string{"--rope-scaling", "yarn:4", "--max-model-len", "256K"}, "give --rope-scaling yarn:8 (32768 × 8 = 262144 positions)\n"},
	} {
		code, _, errs := runCLI(t, append(append([]string{"estimate", "--gpu", "h100"}, base...), tt.args...)...)
		if code != 2 || !strings.HasSuffix(errs, tt.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line ending %q", tt.args, code, errs, tt.want)
		}
	}

	// The config.json of Qwen3 8B with the card's YaRN block: 131072
	// positions, as vLLM derives them.
	raw, err := os.ReadFile("../../data/hf/testdata/config/qwen3-8b.json")
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := json.Unmarshal(raw, &cfg); err != nil {
		t.Fatal(err)
	}
	cfg["rope_theta"] = 1000000
	cfg["rope_scaling"] = map[string]any{"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}
	yarn, _ := json.Marshal(cfg)
	path := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(path, yarn, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runServeCLI(t, "estimate", "--hf-config", path, "--task", "serve", "--gpu", "h100", "--max-model-len", "128K", "--prompt-tokens", "100000", "--json")
	if code != 0 || !strings.Contains(out, `"max_model_len": 131072`) {
		t.Errorf("--hf-config with YaRN × 4 at 128K: exit %d, %s", code, errs)
	}
}
