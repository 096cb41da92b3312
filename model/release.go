package model

import (
	"cmp"
	"slices"
	"strings"
)

// A quantized release of a catalog model is a checkpoint of the same
// architecture with its weights stored quantized, named on the Hugging
// Face Hub by its base model's id and a suffix: Qwen/Qwen3-32B-AWQ,
// Qwen/Qwen3-8B-FP8, Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4,
// hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4,
// unsloth/Qwen3-8B-bnb-4bit. Catalog.Model resolves such an id to the
// base entry with the release's format (Architecture.Release), which
// serving takes as the released checkpoint's (serve.ReleasedFormat).

// quantRelease is a release suffix and the quantization_config its
// releases carry.
type quantRelease struct {
	suffix string // as the id ends, any case, with its "-"
	method string // quantization_config.quant_method
	bits   int    // weight bits
}

// quantReleases are the suffixes whose format the estimator plans
// (--weight-format awq, gptq, int8, fp8, bitsandbytes). Left out: MLX
// and GGUF files (another runtime's formats), unsloth's "-unsloth-bnb-4bit"
// (dynamic: some layers stay 16-bit, which ones per model) and suffixes
// naming no bits.
var quantReleases = []quantRelease{
	{"-AWQ", "awq", 4},               // Qwen/Qwen3-32B-AWQ: AutoAWQ GEMM, 4-bit, group 128
	{"-AWQ-INT4", "awq", 4},          // hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4
	{"-GPTQ-Int4", "gptq", 4},        // Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4, hugging-quants/…-GPTQ-INT4
	{"-GPTQ-Int8", "gptq", 8},        // Qwen/Qwen2.5-7B-Instruct-GPTQ-Int8
	{"-FP8", "fp8", 8},               // Qwen/Qwen3-8B-FP8, RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8
	{"-bnb-4bit", "bitsandbytes", 4}, // unsloth/Qwen3-8B-bnb-4bit: NF4
	// Red Hat AI's llm-compressor releases (quant_method
	// "compressed-tensors"): FP8 weights with per-channel scales and
	// activations quantized per token as they run (RedHatAI/Qwen3-8B-
	// FP8-dynamic); INT4 weights in groups of 128, 16-bit activations
	// (…-quantized.w4a16); INT8 weights and activations (…-quantized.w8a8).
	{"-FP8-dynamic", "fp8", 8},
	{"-quantized.w4a16", "compressed-tensors", 4},
	{"-quantized.w8a8", "compressed-tensors", 8},
}

// releaseOf splits a quantized release's id into its release suffix and
// the base id before it; ok is false when name ends in none.
func releaseOf(name string) (r quantRelease, base string, ok bool) {
	for _, r := range quantReleases {
		if n := len(name) - len(r.suffix); n > 0 && strings.EqualFold(name[n:], r.suffix) {
			return r, name[:n], true
		}
	}
	return quantRelease{}, "", false
}

// quantRelease returns the architecture a quantized release's id names:
// a copy of the catalog entry the id names without its suffix, with the
// release's quantization (QuantMethod, QuantBits, Release). The base is
// looked up by key or alias only, without suggestions (lookup).
func (c *Catalog) quantRelease(name string) (*Architecture, bool) {
	name = strings.TrimSpace(name)
	r, base, ok := releaseOf(name)
	if !ok {
		return nil, false
	}
	i, ok := c.lookup(base)
	if !ok {
		return nil, false
	}
	a := c.Models[i]
	a.Aliases = slices.Clone(a.Aliases)
	a.Release, a.QuantMethod, a.QuantBits = name, r.method, r.bits
	a.WeightBlockSize = [2]int{} // per-channel or per-block scales alike: under 0.03% of the weights
	a.UnquantizedAttnLayers, a.UnquantizedMLPLayers = 0, 0
	return &a, true
}

// ReleaseFormat names the weights of the quantized release a names
// (Release) for a sentence: "AWQ 4-bit", "GPTQ 8-bit", "FP8",
// "bitsandbytes 4-bit (NF4)", "compressed-tensors INT4 (W4A16)"; the
// zero Message for no release.
func ReleaseFormat(a *Architecture) Message {
	switch {
	case a.Release == "":
		return Message{}
	case a.QuantMethod == "fp8":
		return Msg("FP8")
	case a.QuantMethod == "bitsandbytes":
		return Msg("bitsandbytes %d-bit (NF4)", a.QuantBits)
	case a.QuantMethod == "compressed-tensors" && a.QuantBits == 8:
		return Msg("compressed-tensors INT8 (W8A8)")
	case a.QuantMethod == "compressed-tensors":
		return Msg("compressed-tensors INT%d (W%dA16)", a.QuantBits, a.QuantBits)
	}
	return Msg("%s %d-bit", strings.ToUpper(a.QuantMethod), a.QuantBits)
}

// ReleasePrecision is the inference precision of the weights of the
// quantized release a names, as a quantized config.json gives it
// (data/hf Config.Precision): int4 for 4-bit AWQ, GPTQ and bitsandbytes,
// int8 for 8-bit GPTQ, fp8; "" for no release.
func ReleasePrecision(a *Architecture) Precision {
	switch {
	case a.Release == "":
		return ""
	case a.QuantMethod == "fp8":
		return FP8
	case a.QuantBits == 8:
		return INT8
	}
	return INT4
}

// ReleaseNote is the line that says what a quantized release's id names:
// "Qwen/Qwen3-32B-AWQ is Qwen3 32B with AWQ 4-bit weights". It is
// information, not a warning: views that collect it among warnings print
// it as a note (IsReleaseNote).
func ReleaseNote(a *Architecture) Message {
	return Msg(releaseNoteKey, a.Release, a.Name, ReleaseFormat(a))
}

const releaseNoteKey = "%s is %s with %v weights"

// IsReleaseNote reports whether m is a ReleaseNote or a FineTuneNote:
// what the id given names, information rather than a warning.
func IsReleaseNote(m Message) bool { return m.Key == releaseNoteKey || m.Key == fineTuneNoteKey }

// FineTuneNote is the line that says what a distill's or fine-tune's id
// names when the catalog plans it as its base of another name (a's
// FineTunes): "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B is Qwen2.5 7B's
// architecture", as a quantized release's id gets a ReleaseNote. ok is
// false when name is not one of them (a's key, name or another alias:
// "Qwen/Qwen2.5-7B-Instruct" names Qwen2.5 7B already). A Hugging Face id
// matches by its whole spelling or by its part after "org/" (NormKey), as
// Catalog.Model finds it.
func FineTuneNote(name string, a *Architecture) (m Message, ok bool) {
	name = strings.TrimSpace(name)
	n, short := NormKey(name), NormKey(name[strings.LastIndex(name, "/")+1:])
	for _, f := range a.FineTunes {
		if NormKey(f) == n || NormKey(f[strings.LastIndex(f, "/")+1:]) == short {
			return Msg(fineTuneNoteKey, name, a.Name), true
		}
	}
	return Message{}, false
}

const fineTuneNoteKey = "%s is %s's architecture"

// ReleaseBase returns the Hugging Face id of the 16-bit checkpoint of the
// quantized release a names, as the catalog spells it: the release's id
// without its suffix when that is one of a's "org/name" aliases, else the
// alias whose name part it ends with, else a's first "org/name" alias
// (else its key). "" for no release.
func ReleaseBase(a *Architecture) string {
	if a.Release == "" {
		return ""
	}
	base := a.Release
	if _, b, ok := releaseOf(base); ok {
		base = b
	}
	_, name, _ := strings.Cut(base, "/")
	name = cmp.Or(name, base)
	var first, byName string
	for _, al := range a.Aliases {
		org, n, ok := strings.Cut(al, "/")
		if !ok || org == "" || n == "" {
			continue
		}
		switch {
		case strings.EqualFold(al, base):
			return al
		case byName == "" && strings.EqualFold(n, name):
			byName = al
		case first == "":
			first = al
		}
	}
	return cmp.Or(byName, first, a.Key)
}

// ReleaseRefusal says why task t cannot start from the quantized release
// a names, naming its 16-bit base (ReleaseBase); ok is false when it can:
// inference, and QLoRA of a bitsandbytes 4-bit release, which loads its
// NF4 weights as QLoRA's own (Dettmers et al. 2023) and trains LoRA
// adapters over them. Other training starts from a 16-bit checkpoint:
// gpuplan's LoRA freezes 16-bit weights, full fine-tuning and training
// update them, and its QLoRA quantizes them with bitsandbytes as they
// load, which transformers does not do to a checkpoint quantized in
// another format: it keeps the checkpoint's own (quantizers/auto.py
// merge_quantization_configs; Workload.PrequantizedQLoRA).
func ReleaseRefusal(a *Architecture, t Task) (why Message, refused bool) {
	switch {
	case a.Release == "" || !t.Training():
		return Message{}, false
	case a.QuantMethod == "bitsandbytes" && a.QuantBits == 4 && t == TaskQLoRA:
		return Message{}, false
	case a.QuantMethod == "bitsandbytes":
		return Msg("%s is %s with %v weights: --task qlora trains LoRA adapters over them; lora, finetune and train start from a 16-bit checkpoint: give --model %s",
			a.Release, a.Name, ReleaseFormat(a), ReleaseBase(a)), true
	}
	return Msg("%s is %s with %v weights, a release for serving: gpuplan's training tasks start from a 16-bit checkpoint (QLoRA quantizes it with bitsandbytes as it loads; transformers would keep this release's own format); give --model %s, or --task inference",
		a.Release, a.Name, ReleaseFormat(a), ReleaseBase(a)), true
}
