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
