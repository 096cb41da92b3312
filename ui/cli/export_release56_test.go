package cli

import (
	"strings"
	"testing"
)

// TestServeExportOtherThanRelease (walk56): --weight-format bf16 of
// gpt-oss-20b was planned at 39 GiB of bf16 weights and exported as
// `vllm serve openai/gpt-oss-20b --dtype bfloat16`, which vLLM loads in
// MXFP4 (the repo's quantization_config) whatever --dtype says. The file
// needs a copy in the plan's format: refused without one, written with
// --model-id; the release's own format is written as before.
func TestServeExportOtherThanRelease(t *testing.T) {
	base := []string{"export", "--model", "gpt-oss-20b", "--task", "inference", "--instance", "aws/p4d.24xlarge", "--format", "torchrun", "-o", "-"}
	code, out, errOut := runCLI(t, append(base, "--weight-format", "bf16")...)
	if want := "openai/gpt-oss-20b is released mxfp4-quantized, which vLLM loads as it is"; code != 2 || out != "" || !strings.Contains(errOut, want) || strings.Count(errOut, "\n") != 1 {
		t.Errorf("bf16 on the release: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", code, out, errOut, want)
	}
	code, _, errOut = runCLI(t, append(base, "--weight-format", "bf16", "--model-id", "openai/gpt-oss-20b")...)
	if code != 2 || !strings.Contains(errOut, "give --model-id a bf16 copy of it") {
		t.Errorf("--model-id naming the release: exit %d, stderr %q", code, errOut)
	}
	if code, out, errOut := runCLI(t, append(base, "--weight-format", "bf16", "--model-id", "me/gpt-oss-20b-bf16")...); code != 0 || !strings.Contains(out, "vllm serve me/gpt-oss-20b-bf16") {
		t.Errorf("a bf16 copy named: exit %d, %s\n%s", code, grepLine(out, "vllm serve"), errOut)
	}
	if code, out, errOut := runCLI(t, base...); code != 0 || !strings.Contains(out, "vllm serve openai/gpt-oss-20b") {
		t.Errorf("the release's mxfp4: exit %d, %s\n%s", code, grepLine(out, "vllm serve"), errOut)
	}
}

// TestServeExportSaysBaseCheckpoint (walk56): a serving file of
// llama-3.1-8b served meta-llama/Llama-3.1-8B, and of gemma-3-4b
// google/gemma-3-4b-pt, the pretrained checkpoints, without a word, where
// a chat endpoint is usually meant for the instruction-tuned sibling the
// catalog lists. The file says so; a model named by its tuned id, or one
// with no such sibling (Qwen3 8B's repo is the post-trained model), gets
// no note.
func TestServeExportSaysBaseCheckpoint(t *testing.T) {
	for _, tc := range []struct{ model, note string }{
		{"llama-3.1-8b", "# note: serves meta-llama/Llama-3.1-8B, the pretrained (base) checkpoint; for a chat endpoint serve its instruction-tuned meta-llama/Llama-3.1-8B-Instruct (--model meta-llama/Llama-3.1-8B-Instruct)"},
		{"gemma-3-4b", "instruction-tuned google/gemma-3-4b-it (--model google/gemma-3-4b-it)"},
		// walk57: Mistral names the tuned release before its version, or
		// in place of "Base".
		{"mistral-7b", "instruction-tuned mistralai/Mistral-7B-Instruct-v0.1 (--model mistralai/Mistral-7B-Instruct-v0.1)"},
		{"mistral-nemo-12b", "instruction-tuned mistralai/Mistral-Nemo-Instruct-2407"},
		{"meta-llama/Llama-3.1-8B-Instruct", ""},
		{"qwen3-8b", ""},
	} {
		code, out, errOut := runCLI(t, "export", "--model", tc.model, "--task", "inference", "--instance", "aws/g6e.xlarge", "--format", "docker", "-o", "-")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.model, code, errOut)
		}
		if has := strings.Contains(out, "pretrained (base) checkpoint"); has != (tc.note != "") || !strings.Contains(out, tc.note) {
			t.Errorf("%s: note %q, want %q", tc.model, grepLine(out, "pretrained"), tc.note)
		}
	}
}
