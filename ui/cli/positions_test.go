package cli

import (
	"strings"
	"testing"
)

// TestLearnedPositionsRefused (new-user walk): a sequence past the
// learned position table of GPT-2 or BERT, which the model cannot run at
// all, is refused in one line on stderr with exit 2 and nothing on
// stdout, by estimate (training, and inference that vLLM does not serve),
// recommend, export, plan and a configuration file, in English and in
// Chinese. Before, estimate printed 136.56 GiB for GPT-2 at 8192 tokens,
// exited 0 and only warned at the end. A rotary model past its positions
// is still estimated, with the warning.
func TestLearnedPositionsRefused(t *testing.T) {
	const gpt2 = "8192 is above gpt2's 1024 learned positions: its position-embedding table has no row past them, so the model cannot run a longer input; give 1024 or less"
	const bert = "4096 is above bert-base's 512 learned positions: its position-embedding table has no row past them, so the model cannot run a longer input; give 512 or less"
	config := writeFile(t, "run.toml", `schema_version = 1
[workload]
model = "gpt2"
task = "finetune"
seq_len = 8192
`)
	plan := writeFile(t, "plan.toml", `schema_version = 1
name = "pos"
[[phase]]
name = "ft"
provider = "aws"
instance = "g5.xlarge"
region = "us-east-1"
instances = 1
usd_per_hour = 1.006
job_hours = 1
[phase.answers]
model = "gpt2"
task = "finetune"
batch_size = "1"
seq_len = "8192"
dataset_tokens = "1M"
`)
	for _, tt := range []struct {
		args []string
		want string // the whole line on stderr
	}{
		{[]string{"estimate", "--model", "gpt2", "--task", "finetune", "--seq-len", "8192", "--gpu", "a100-80gb"}, "gpuplan: --seq-len: " + gpt2},
		{[]string{"estimate", "--model", "gpt2", "--task", "qlora", "--seq-len", "8K"}, "gpuplan: --seq-len: " + gpt2},
		{[]string{"estimate", "--model", "bert-base", "--task", "finetune", "--seq-len", "4096"}, "gpuplan: --seq-len: " + bert},
		{[]string{"estimate", "--model", "bert-base", "--task", "inference", "--context-len", "4096", "--gpu", "a10g"}, "gpuplan: --context-len: " + bert},
		{[]string{"recommend", "--model", "gpt2", "--task", "lora", "--seq-len", "8192", "--dataset-samples", "10k"}, "gpuplan: --seq-len: " + gpt2},
		{[]string{"export", "--model", "gpt2", "--task", "finetune", "--seq-len", "8192", "--instance", "aws/g5.xlarge", "--format", "torchrun"}, "gpuplan: --seq-len: " + gpt2},
		{[]string{"estimate", "--config", config}, "gpuplan: " + config + ": workload.seq_len: " + gpt2},
		{[]string{"plan", plan}, "gpuplan: " + plan + ": phase \"ft\" answers.seq_len: " + gpt2},
		{[]string{"estimate", "--lang", "zh-CN", "--model", "gpt2", "--task", "finetune", "--seq-len", "8192"},
			"gpuplan：--seq-len：8192 超过 gpt2 的 1024 个学习式位置：它的位置嵌入表没有更靠后的行，模型无法运行更长的输入；请给出 1024 或更小的值"},
	} {
		code, out, errOut := runCLI(t, tt.args...)
		if code != ExitUsage || out != "" || errOut != tt.want+"\n" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2, no output and\n%s", tt.args, code, out, errOut, tt.want)
		}
	}
	// At the limit GPT-2 is estimated; a rotary model past its positions
	// runs (worse), so it is estimated with the warning.
	if code, out, errOut := runCLI(t, "estimate", "--model", "gpt2", "--task", "finetune", "--seq-len", "1024"); code != 0 || out == "" {
		t.Errorf("gpt2 at 1024: exit %d: %s", code, errOut)
	}
	code, out, errOut := runCLI(t, "estimate", "--model", "qwen3-0.6b", "--task", "finetune", "--seq-len", "65536")
	if code != 0 || !strings.Contains(out, "seq_len 65536 exceeds the model's 40960 positions") {
		t.Errorf("qwen3-0.6b at 65536: exit %d, want the estimate with the warning: %s\n%s", code, errOut, out)
	}
}
