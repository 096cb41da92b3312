package model

import (
	"errors"
	"strings"
	"testing"
)

// TestQuantRelease: a quantized release's id is its base entry's
// architecture with the release's quantization; the entry in the catalog
// is left as it is, and ids that name no catalogued base, or a suffix whose
// format is not planned, stay unknown.
func TestQuantRelease(t *testing.T) {
	q := Architecture{Key: "qwen3-32b", Name: "Qwen3 32B", Aliases: []string{"Qwen/Qwen3-32B", "Qwen/Qwen3-32B-Base", "Qwen3-32B"},
		Family: FamilyDecoder, Layers: 64, Hidden: 5120, Heads: 64, KVHeads: 8, HeadDim: 128, FFN: 25600, Vocab: 151936}
	l := Architecture{Key: "llama-3.1-8b", Name: "Llama 3.1 8B", Aliases: []string{"meta-llama/Llama-3.1-8B", "Meta-Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-8B-Instruct"}}
	d := Architecture{Key: "deepseek-v3", Name: "DeepSeek-V3", Aliases: []string{"deepseek-ai/DeepSeek-V3"}, QuantMethod: "fp8", WeightBlockSize: [2]int{128, 128}}
	cat := &Catalog{Models: []Architecture{q, l, d}}
	cat.Index()
	for _, tt := range []struct {
		name, key, method string
		bits              int
		format, base      string
		prec              Precision
	}{
		{"Qwen/Qwen3-32B-AWQ", "qwen3-32b", "awq", 4, "AWQ 4-bit", "Qwen/Qwen3-32B", INT4},
		{"qwen/qwen3-32b-awq", "qwen3-32b", "awq", 4, "AWQ 4-bit", "Qwen/Qwen3-32B", INT4}, // any case
		{"Qwen/Qwen3-32B-FP8", "qwen3-32b", "fp8", 8, "FP8", "Qwen/Qwen3-32B", FP8},
		{"Qwen/Qwen3-32B-GPTQ-Int8", "qwen3-32b", "gptq", 8, "GPTQ 8-bit", "Qwen/Qwen3-32B", INT8},
		{"unsloth/Qwen3-32B-bnb-4bit", "qwen3-32b", "bitsandbytes", 4, "bitsandbytes 4-bit (NF4)", "Qwen/Qwen3-32B", INT4}, // the base by its name part
		{"hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4", "llama-3.1-8b", "awq", 4, "AWQ 4-bit", "meta-llama/Llama-3.1-8B", INT4},
		{"meta-llama/Llama-3.1-8B-Instruct-GPTQ-INT4", "llama-3.1-8b", "gptq", 4, "GPTQ 4-bit", "meta-llama/Llama-3.1-8B-Instruct", INT4},
		{"someone/DeepSeek-V3-AWQ", "deepseek-v3", "awq", 4, "AWQ 4-bit", "deepseek-ai/DeepSeek-V3", INT4}, // no fp8 blocks left
		{"RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8-dynamic", "llama-3.1-8b", "fp8", 8, "FP8", "meta-llama/Llama-3.1-8B", FP8},
		{"RedHatAI/Qwen3-32B-quantized.w4a16", "qwen3-32b", "compressed-tensors", 4, "compressed-tensors INT4 (W4A16)", "Qwen/Qwen3-32B", INT4},
		{"RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w8a8", "llama-3.1-8b", "compressed-tensors", 8, "compressed-tensors INT8 (W8A8)", "meta-llama/Llama-3.1-8B", INT8},
	} {
		a, err := cat.Model(tt.name)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if a.Key != tt.key || a.Release != tt.name || a.QuantMethod != tt.method || a.QuantBits != tt.bits || a.WeightBlockSize != [2]int{} {
			t.Errorf("%s: %s release %q, %s %d-bit, blocks %v; want %s, %s %d-bit, no blocks", tt.name, a.Key, a.Release, a.QuantMethod, a.QuantBits, a.WeightBlockSize, tt.key, tt.method, tt.bits)
		}
		if got := ReleaseFormat(a).String(); got != tt.format {
			t.Errorf("%s: ReleaseFormat %q, want %q", tt.name, got, tt.format)
		}
		if got := ReleaseBase(a); got != tt.base {
			t.Errorf("%s: ReleaseBase %q, want %q", tt.name, got, tt.base)
		}
		if got := ReleasePrecision(a); got != tt.prec {
			t.Errorf("%s: ReleasePrecision %q, want %q", tt.name, got, tt.prec)
		}
	}
	if m, _ := cat.Model("deepseek-ai/DeepSeek-V3"); m.Release != "" || m.QuantMethod != "fp8" || m.WeightBlockSize != [2]int{128, 128} {
		t.Errorf("the catalog entry changed under its release: %+v", m)
	}
	for _, name := range []string{"Qwen/Qwen3-14B-AWQ", "Qwen/Qwen3-32B-MLX-4bit", "Qwen/Qwen3-32B-GGUF", "unsloth/Qwen3-32B-unsloth-bnb-4bit", "-AWQ", "Qwen/Qwen3-32B-AWQ-AWQ"} {
		if _, err := cat.Model(name); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: %v, want not found", name, err)
		}
	}
}

// TestReleaseRefusal: inference runs a release; training starts from its
// 16-bit base, named in the refusal, except QLoRA over bitsandbytes 4-bit
// weights, which are QLoRA's own.
func TestReleaseRefusal(t *testing.T) {
	awq := &Architecture{Key: "qwen3-32b", Name: "Qwen3 32B", Aliases: []string{"Qwen/Qwen3-32B"}, Release: "Qwen/Qwen3-32B-AWQ", QuantMethod: "awq", QuantBits: 4}
	bnb := &Architecture{Key: "qwen3-8b", Name: "Qwen3 8B", Aliases: []string{"Qwen/Qwen3-8B"}, Release: "unsloth/Qwen3-8B-bnb-4bit", QuantMethod: "bitsandbytes", QuantBits: 4}
	for _, tt := range []struct {
		name string
		a    *Architecture
		task Task
		want string // "" = not refused
	}{
		{"AWQ served", awq, TaskInference, ""},
		{"AWQ LoRA: from the base", awq, TaskLoRA, "give --model Qwen/Qwen3-32B, or --task inference"},
		{"AWQ QLoRA: bitsandbytes does not load it", awq, TaskQLoRA, "transformers would keep this release's own format"},
		{"AWQ training", awq, TaskTrain, "give --model Qwen/Qwen3-32B"},
		{"bnb-4bit QLoRA: its own format", bnb, TaskQLoRA, ""},
		{"bnb-4bit LoRA: QLoRA or the base", bnb, TaskLoRA, "--task qlora trains LoRA adapters over them; lora, finetune and train start from a 16-bit checkpoint: give --model Qwen/Qwen3-8B"},
		{"bnb-4bit served", bnb, TaskInference, ""},
		{"no release", &Architecture{Key: "qwen3-8b"}, TaskFinetune, ""},
	} {
		why, refused := ReleaseRefusal(tt.a, tt.task)
		if refused != (tt.want != "") || !strings.Contains(why.String(), tt.want) {
			t.Errorf("%s: refused %v %q, want %q", tt.name, refused, why, tt.want)
		}
	}
}
