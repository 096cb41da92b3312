package i18n

import (
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

// Allowlist is the set of Latin-letter words that may appear in Chinese
// output: names (models, GPUs, providers, regions, instance types),
// units and the field's acronyms, which Chinese technical writing keeps
// in Latin letters. Words are compared as written (case matters: "GiB" is
// allowed, "gib" is not).
type Allowlist map[string]bool

// DefaultAllowlist is the words every Chinese screen may contain: units,
// acronyms, library and format names, TOML/flag values shown as they
// are typed (precisions, optimizers, strategies, recipes, vLLM's
// --kv-cache-dtype auto), and the identifiers zh-CN.toml marks as such
// (markedWords), which print without their marks.
func DefaultAllowlist() Allowlist {
	a := Allowlist{}
	a.Add(`GiB MiB GB TB Gbps TFLOPS FLOPs MFU HFU GPU CPU vCPU vCPUs RAM h min ms px s
		LoRA QLoRA FSDP DDP ZeRO KV TP PP DP NCCL CUDA ROCm SDPA NVLink NVSwitch PCIe SXM OAM
		bf16 fp16 fp32 fp8 tf32 int4 int8 nf4 fp4 NF4 FP4 mxfp4 MXFP4 amp B
		adamw adam sgd momentum sgd-momentum adafactor bit
		ddp fsdp zero1 zero2 zero3 pytorch tensorflow jax
		PyTorch TensorFlow JAX vLLM Ray DeepSpeed Megatron LM Hugging Face FlashAttention bitsandbytes GPTQ AWQ Liger
		torch autocast nvidia smi max_memory_allocated max_memory_reserved scaled_dot_product_attention
		pure16 fsdp-mixed deepspeed hf upcast fused chunked native eager
		litgpt LitGPT Lightning Transformers Accelerate PEFT Adam
		token r tp gpuplan USD CNY ViT CNN U-Net
		Korthikanti Kaplan Dao PaLM MatMul4Bit MBU GPT N L e absmax logits softmax log-softmax dropout dtype roofline eager
		amp-bf16 amp-fp16 AdamW Cut Cross-Entropy MixedPrecision Llama llm-foundry DeepLearningExamples DALI JPEG
		arm64 wheel q k v o gate up down hf-fp nvidia-smi GMACs RATE N all-reduce TTFT TPOT KiB PP auto none Brysbaert
		transformers peft vllm torchvision trl after-step before-backward zero_grad dropped kept nanoGPT torchtune
		NCHW NHWC channels_last
		Zamirai Kahan Revisiting BFloat16`) // a cited paper: its author, title and the method it names
	for _, w := range markedWords() {
		a[w] = true
	}
	return a
}

// Add allows every word of text (split as Words splits), e.g. a model or
// instance name.
func (a Allowlist) Add(text string) {
	for _, w := range Words(text) {
		a[w] = true
	}
}

var (
	// A flag with its value placeholder ("--gpu NAME") and a gpuplan
	// command line ("gpuplan catalog gpus") are syntax the user types.
	flagRE    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`--[a-z][a-z0-9-]*(=\S*| [A-Z]+\b)?`) })
	commandRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`gpuplan( [a-z][a-z-]*)*`) })
	codeRE    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`[^`\n]*`") })
	cutRE     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z0-9_./-]*…[A-Za-z0-9_./-]*`) }) // a name cut to fit a column, at its end or in its middle
	verbRE    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`%[-+# 0]*(\[\d+\])?\d*(\.\d*)?(\[\d+\])?[a-zA-Z%]`) })
)

// Words are the runs of Latin letters in text (digits, "-", "_" and "."
// join a run, so "fp32", "zero3" and "us-east" are one word; leading and
// trailing digits and punctuation are dropped), after ANSI styling, flags
// gpuplan command lines, `code in backquotes` and names cut with "…" to
// fit a column are removed. Runs with "_", "." or "/" inside
// (max_memory_allocated, torch.autocast, g6.xlarge, memory/transformer)
// are code, names and units (GB/s), not words, and are left out.
func Words(text string) []string {
	s := cutRE().ReplaceAllString(codeRE().ReplaceAllString(ansi.Strip(text), " "), " ")
	return words(commandRE().ReplaceAllString(flagRE().ReplaceAllString(s, " "), " "))
}

func words(s string) []string {
	f := strings.FieldsFunc(s, func(r rune) bool {
		return !(r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_-./", r)))
	})
	var out []string
	for _, w := range f {
		w = strings.Trim(w, "-._0123456789")
		if strings.ContainsAny(w, "_./") {
			continue // code: an identifier, a module path, a file or instance name
		}
		if strings.IndexFunc(w, unicode.IsLetter) >= 0 {
			out = append(out, w)
		}
	}
	return out
}

// stripVerbs removes fmt verbs from a format string.
func stripVerbs(format string) string { return verbRE().ReplaceAllString(format, " ") }

// Leaks returns, sorted and once each, the words of text not in allow:
// in Chinese output, English left untranslated. A sweep renders each
// screen with New(language.SimplifiedChinese) and fails on any leak.
func Leaks(text string, allow Allowlist) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range Words(text) {
		if !allow[w] && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	sort.Strings(out)
	return out
}
