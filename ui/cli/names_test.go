package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/ui/report"
)

// TestNewUserModelNames (the names walk): Hugging Face ids a new user
// types resolve to the catalog entry of their architecture, which the
// estimate's header names. DeepSeek-R1-Distill-Qwen-1.5B answered
// "unknown model" with no suggestion while its 7B–70B siblings resolved;
// so did meta-llama/Meta-Llama-3-8B and -70B, base and Instruct. The Qwen3
// 2507 releases were "unknown model; did you mean qwen3-4b?" and QwQ-32B
// was offered qwen3-32b, though it is Qwen2.5-32B's architecture.
func TestNewUserModelNames(t *testing.T) {
	for _, tc := range []struct{ model, header string }{
		{"deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B", "DeepSeek-R1-Distill-Qwen 1.5B · inference"},
		// Llama 3 (not 3.1): 8192 positions, no RoPE scaling; base and Instruct.
		{"meta-llama/Meta-Llama-3-8B", "Llama 3 8B · inference"},
		{"meta-llama/Meta-Llama-3-8B-Instruct", "Llama 3 8B · inference"},
		{"meta-llama/Meta-Llama-3-70B", "Llama 3 70B · inference"},
		{"meta-llama/Meta-Llama-3-70B-Instruct", "Llama 3 70B · inference"},
		// Qwen3 2507: Qwen3's layers at 262144 positions, entries of their own.
		{"Qwen/Qwen3-4B-Instruct-2507", "Qwen3 4B-2507 · inference"},
		{"Qwen/Qwen3-30B-A3B-Instruct-2507", "Qwen3 30B-A3B-2507 (MoE) · inference"},
		{"Qwen/Qwen3-Coder-30B-A3B-Instruct", "Qwen3 30B-A3B-2507 (MoE) · inference"},
		{"Qwen/Qwen3-235B-A22B-Instruct-2507", "Qwen3 235B-A22B-2507 (MoE) · inference"},
		{"Qwen/QwQ-32B", "Qwen2.5 32B · inference"},
	} {
		code, out, errs := runCLI(t, "estimate", "--model", tc.model, "--task", "inference")
		if first, _, _ := strings.Cut(out, "\n"); code != 0 || !strings.HasPrefix(first, tc.header) {
			t.Errorf("--model %s: exit %d, first line %q, want it to start %q\n%s", tc.model, code, first, tc.header, errs)
		}
	}
}

// TestLlama3Context: Llama 3 is Llama 3.1's layers trained to 8192 tokens
// (max_position_embeddings 8192, no rope_scaling), so a 16K request is
// refused for it and planned for 3.1, whose config.json reaches 131072.
func TestLlama3Context(t *testing.T) {
	args := []string{"estimate", "--task", "inference", "--gpu", "l4", "--max-model-len", "16384", "--model"}
	code, _, errs := runCLI(t, append(args, "meta-llama/Meta-Llama-3-8B-Instruct")...)
	if code == 0 || !strings.Contains(errs, "above the model's 8192 positions") {
		t.Errorf("Llama 3 8B at 16384 tokens: exit %d, stderr %q; want a refusal naming its 8192 positions", code, errs)
	}
	if code, _, errs := runCLI(t, append(args, "meta-llama/Llama-3.1-8B-Instruct")...); code != 0 {
		t.Errorf("Llama 3.1 8B at 16384 tokens: exit %d: %s", code, errs)
	}
}

// TestQwen3Context2507: the 2507 releases (and Qwen3-Coder-30B-A3B) are
// Qwen3's layers at 262144 positions (max_position_embeddings; Qwen3:
// 40960), so a 64K request is planned for them and refused for the
// Qwen3 entry of the same size, whose config.json stops at 40960.
func TestQwen3Context2507(t *testing.T) {
	args := []string{"estimate", "--task", "inference", "--gpu", "h100-sxm", "--max-model-len", "65536", "--model"}
	for _, tc := range []struct{ long, short string }{
		{"Qwen/Qwen3-4B-Instruct-2507", "Qwen/Qwen3-4B"},
		{"Qwen/Qwen3-30B-A3B-Instruct-2507", "Qwen/Qwen3-30B-A3B"},
		{"Qwen/Qwen3-Coder-30B-A3B-Instruct", "Qwen/Qwen3-30B-A3B"},
	} {
		if code, _, errs := runCLI(t, append(args, tc.long)...); code != 0 {
			t.Errorf("%s at 65536 tokens: exit %d: %s", tc.long, code, errs)
		}
		if code, _, errs := runCLI(t, append(args, tc.short)...); code == 0 || !strings.Contains(errs, "above the model's 40960 positions") {
			t.Errorf("%s at 65536 tokens: exit %d, stderr %q; want a refusal naming its 40960 positions", tc.short, code, errs)
		}
	}
}

// TestQuantizedReleaseIDs (the names walk): Qwen/Qwen3-32B-AWQ and
// Qwen/Qwen3-8B-FP8 were "unknown model; did you mean qwen3-32b?". A
// quantized release of a catalogued model (the id of its base, then -AWQ,
// -AWQ-INT4, -GPTQ-Int4, -GPTQ-Int8, -FP8 or -bnb-4bit) is the base
// architecture in the release's weight format, said in one line, served
// as released by default, and loaded by its own id; training from it is
// refused with one line naming the 16-bit base, except QLoRA over a
// bitsandbytes 4-bit release, which is what such a release is for.
func TestQuantizedReleaseIDs(t *testing.T) {
	t.Run("inference", func(t *testing.T) {
		for _, tc := range []struct{ model, line, header string }{
			{"Qwen/Qwen3-32B-AWQ", "Qwen/Qwen3-32B-AWQ is Qwen3 32B with AWQ 4-bit weights", "Qwen3 32B · inference · int4"},
			{"Qwen/Qwen3-8B-FP8", "Qwen/Qwen3-8B-FP8 is Qwen3 8B with FP8 weights", "Qwen3 8B · inference · fp8"},
			{"Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4", "is Qwen2.5 7B with GPTQ 4-bit weights", "Qwen2.5 7B · inference · int4"},
			{"Qwen/Qwen2.5-7B-Instruct-GPTQ-Int8", "is Qwen2.5 7B with GPTQ 8-bit weights", "Qwen2.5 7B · inference · int8"},
			{"unsloth/Qwen3-8B-bnb-4bit", "is Qwen3 8B with bitsandbytes 4-bit (NF4) weights", "Qwen3 8B · inference · int4"},
			{"RedHatAI/Qwen3-8B-FP8-dynamic", "is Qwen3 8B with FP8 weights", "Qwen3 8B · inference · fp8"},
			{"RedHatAI/Qwen3-32B-quantized.w4a16", "is Qwen3 32B with compressed-tensors INT4 (W4A16) weights", "Qwen3 32B · inference · int4"},
			{"RedHatAI/Qwen3-8B-quantized.w8a8", "is Qwen3 8B with compressed-tensors INT8 (W8A8) weights", "Qwen3 8B · inference · int8"},
		} {
			code, out, errs := runCLI(t, "estimate", "--model", tc.model, "--task", "inference")
			first, _, _ := strings.Cut(out, "\n")
			if code != 0 || !strings.Contains(errs, tc.line) || !strings.HasPrefix(first, tc.header) {
				t.Errorf("--model %s: exit %d, first line %q, stderr %q; want %q and %q", tc.model, code, first, errs, tc.header, tc.line)
			}
			if strings.Contains(errs, "this batch estimate sizes") {
				t.Errorf("--model %s: the batch estimate is in the release's format, yet stderr says %q", tc.model, errs)
			}
		}
	})
	t.Run("served as released", func(t *testing.T) {
		for _, tc := range []struct{ model, format string }{
			{"Qwen/Qwen3-32B-AWQ", "awq"}, {"Qwen/Qwen3-8B-FP8", "fp8"}, {"Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4", "gptq"},
			{"Qwen/Qwen2.5-7B-Instruct-GPTQ-Int8", "int8"}, {"unsloth/Qwen3-8B-bnb-4bit", "bitsandbytes"},
			{"RedHatAI/Qwen3-8B-FP8-dynamic", "fp8"}, {"RedHatAI/Qwen3-32B-quantized.w4a16", "gptq"}, {"RedHatAI/Qwen3-8B-quantized.w8a8", "int8"},
		} {
			e, _ := runCLIJSON[report.ServeEstimateJSON](t, []string{"estimate", "--task", "inference", "--gpu", "h100-sxm", "--json", "--model"}, tc.model)
			if e.Serving.WeightFormat != tc.format || !e.Serving.WeightFormatAsReleased {
				t.Errorf("%s: weight_format %q (as released %v), want %q as released", tc.model, e.Serving.WeightFormat, e.Serving.WeightFormatAsReleased, tc.format)
			}
		}
	})
	// The release id plans what its config.json plans (--hf-config).
	t.Run("as its config.json", func(t *testing.T) {
		for _, tc := range []struct{ model, config string }{
			{"hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4", "llama-3.1-8b-awq"},
			{"unsloth/Meta-Llama-3.1-8B-Instruct-bnb-4bit", "llama-3.1-8b-bnb-4bit"},
		} {
			base := []string{"estimate", "--task", "inference", "--gpu", "l4", "--max-model-len", "4096", "--json"}
			byID, _ := runCLIJSON[report.ServeEstimateJSON](t, base, "--model", tc.model)
			code, out, errs := runServeCLI(t, append(base, "--hf-config", filepath.Join("testdata", tc.config))...)
			var byConfig report.ServeEstimateJSON
			if err := json.Unmarshal([]byte(out), &byConfig); code != 0 || err != nil {
				t.Fatalf("--hf-config %s: exit %d, %v: %s", tc.config, code, err, errs)
			}
			mi, _ := json.Marshal(byID.Plan.Memory)
			mc, _ := json.Marshal(byConfig.Plan.Memory)
			if byID.Serving.WeightFormat != byConfig.Serving.WeightFormat || string(mi) != string(mc) || byID.Plan.KVTokens != byConfig.Plan.KVTokens {
				t.Errorf("%s: %s %+v, %d KV tokens; its config.json: %s %+v, %d", tc.model, byID.Serving.WeightFormat, byID.Plan.Memory, byID.Plan.KVTokens,
					byConfig.Serving.WeightFormat, byConfig.Plan.Memory, byConfig.Plan.KVTokens)
			}
		}
	})
	t.Run("training", func(t *testing.T) {
		for _, tc := range []struct {
			args []string
			want string // "" = estimated
		}{
			{[]string{"--model", "Qwen/Qwen3-32B-AWQ", "--task", "lora"}, "give --model Qwen/Qwen3-32B"},
			{[]string{"--model", "Qwen/Qwen3-32B-AWQ", "--task", "qlora"}, "give --model Qwen/Qwen3-32B"},
			{[]string{"--model", "Qwen/Qwen3-32B-AWQ"}, "give --model Qwen/Qwen3-32B"}, // the default task trains
			{[]string{"--model", "Qwen/Qwen3-8B-FP8", "--task", "finetune"}, "give --model Qwen/Qwen3-8B"},
			{[]string{"--model", "unsloth/Qwen3-8B-bnb-4bit", "--task", "lora"}, "--task qlora trains LoRA adapters over them"},
			{[]string{"--model", "unsloth/Meta-Llama-3.1-8B-Instruct-bnb-4bit", "--task", "finetune"}, "give --model meta-llama/Llama-3.1-8B"},
			{[]string{"--model", "unsloth/Qwen3-8B-bnb-4bit", "--task", "qlora"}, ""},
		} {
			code, out, errs := runCLI(t, append([]string{"estimate"}, tc.args...)...)
			switch {
			case tc.want == "" && code != 0:
				t.Errorf("%v: exit %d: %s", tc.args, code, errs)
			case tc.want == "" && !strings.Contains(errs, "with bitsandbytes 4-bit (NF4) weights"):
				t.Errorf("%v: stderr %q does not say what the release is", tc.args, errs)
			case tc.want != "" && (code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, tc.want)):
				t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", tc.args, code, out, errs, tc.want)
			}
		}
	})
	t.Run("export loads the release", func(t *testing.T) {
		base := []string{"export", "--task", "inference", "--instance", "aws/g6e.xlarge", "--format", "docker", "-o", "-", "--model"}
		code, out, errs := runCLI(t, append(base, "Qwen/Qwen3-32B-AWQ")...)
		if code != 0 || !strings.Contains(out, "Qwen/Qwen3-32B-AWQ") || strings.Contains(out, "pretrained (base) checkpoint") {
			t.Errorf("serving Qwen/Qwen3-32B-AWQ: exit %d, %s\n%s", code, grepLine(out, "Qwen/Qwen3-32B"), errs)
		}
		// vLLM loads the AWQ weights whatever --dtype says: a bf16 plan of
		// the release is another job (as gpt-oss's, walk56).
		code, _, errs = runCLI(t, "export", "--task", "inference", "--instance", "aws/p4d.24xlarge", "--format", "docker", "-o", "-", "--model", "Qwen/Qwen3-32B-AWQ", "--weight-format", "bf16")
		if code != 2 || !strings.Contains(errs, "Qwen/Qwen3-32B-AWQ is released awq-quantized") {
			t.Errorf("bf16 of the AWQ release: exit %d, stderr %q", code, errs)
		}
		code, out, errs = runCLI(t, "export", "--task", "qlora", "--checkpointing", "--instance", "aws/g6e.xlarge", "--format", "torchrun", "--model", "unsloth/Qwen3-8B-bnb-4bit")
		if code != 0 || !strings.Contains(out, "--model_name_or_path unsloth/Qwen3-8B-bnb-4bit ") {
			t.Errorf("qlora of the bnb-4bit release: exit %d, %s\n%s", code, grepLine(out, "model_name_or_path"), errs)
		}
	})
	t.Run("catalog models", func(t *testing.T) {
		code, out, errs := runCLI(t, "catalog", "models", "Qwen/Qwen3-32B-AWQ", "-o", "csv")
		if code != 0 || !strings.Contains(out, "\nqwen3-32b,") || strings.Count(out, "\n") != 2 || !strings.Contains(errs, "Qwen/Qwen3-32B-AWQ is Qwen3 32B with AWQ 4-bit weights") {
			t.Errorf("catalog models Qwen/Qwen3-32B-AWQ: exit %d, stdout %q, stderr %q; want the qwen3-32b row and the line saying so", code, out, errs)
		}
	})
	// Formats the estimator does not plan stay unknown: MLX and GGUF
	// files, and unsloth's dynamic 4-bit, which keeps some layers 16-bit.
	t.Run("left out", func(t *testing.T) {
		for _, id := range []string{"mlx-community/Qwen3-8B-4bit", "Qwen/Qwen3-8B-MLX-4bit", "Qwen/Qwen3-8B-GGUF", "unsloth/Qwen3-8B-unsloth-bnb-4bit"} {
			if code, _, errs := runCLI(t, "estimate", "--model", id, "--task", "inference"); code != 2 || !strings.Contains(errs, "not found") {
				t.Errorf("%s: exit %d, stderr %q; want not found", id, code, errs)
			}
		}
	})
}
