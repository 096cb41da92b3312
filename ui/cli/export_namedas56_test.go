package cli

import (
	"strings"
	"testing"
)

// TestExportTrainsTheCheckpointNamed (walk56): a training export of
// --model meta-llama/Llama-3.1-8B-Instruct (or of
// deepseek-ai/DeepSeek-R1-Distill-Llama-8B, an alias of the same
// architecture) loaded the catalog entry's base checkpoint,
// meta-llama/Llama-3.1-8B, without a word, while serving loaded the id
// given. The Hugging Face id given is the checkpoint trained; the
// catalog key keeps the entry's; --model-id wins over both.
func TestExportTrainsTheCheckpointNamed(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--model", "meta-llama/Llama-3.1-8B-Instruct"}, "meta-llama/Llama-3.1-8B-Instruct"},
		{[]string{"--model", "deepseek-ai/DeepSeek-R1-Distill-Llama-8B"}, "deepseek-ai/DeepSeek-R1-Distill-Llama-8B"},
		{[]string{"--model", "META-LLAMA/llama-3.1-8b-instruct"}, "meta-llama/Llama-3.1-8B-Instruct"}, // spelled as the catalog does
		{[]string{"--model", "llama-3.1-8b"}, "meta-llama/Llama-3.1-8B"},
		{[]string{"--model", "meta-llama/Llama-3.1-8B-Instruct", "--model-id", "me/my-8b"}, "me/my-8b"},
	} {
		args := append([]string{"export", "--task", "lora", "--checkpointing", "--instance", "aws/g6e.xlarge", "--format", "torchrun"}, tc.args...)
		code, out, errOut := runCLI(t, args...)
		if code != 0 || !strings.Contains(out, "--model_name_or_path "+tc.want+" ") {
			t.Errorf("%v: exit %d, the script does not load %s:\n%s\n%s", tc.args, code, tc.want, grepLine(out, "model_name_or_path"), errOut)
		}
	}
}

func grepLine(s, sub string) string {
	for l := range strings.Lines(s) {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}
