package model

// Recipe is the training recipe the memory model follows: which copies of
// the weights exist, in which dtype, and which engine buffers come with
// them. The zero value is RecipeAuto: chosen from framework, strategy and
// precision by Workload.TrainingRecipe.
type Recipe string

// Recipes, spelled as in TOML and on the command line.
const (
	RecipeAuto Recipe = ""
	// RecipeAutocast is PyTorch native AMP (torch.autocast, Hugging Face
	// Trainer fp16/bf16=True on an fp32-loaded model) on one GPU or under
	// DDP: fp32 parameters, fp32 gradients, fp32 Adam moments, and a 16-bit
	// cast cache of the weights (see autocastCastCache).
	RecipeAutocast Recipe = "autocast"
	// RecipeFSDPMixed is torch FSDP FULL_SHARD with a MixedPrecision
	// policy (param_dtype 16-bit): sharded fp32 parameters, gradients and
	// Adam moments, 16-bit unsharded units for compute (see fsdpGathered).
	RecipeFSDPMixed Recipe = "fsdp-mixed"
	// RecipeDeepSpeed is DeepSpeed ZeRO 1/2/3 with fp16 or bf16 enabled:
	// 16-bit parameters and gradients, the fp32 master copy inside the
	// optimizer partition, and ZeRO's buckets (see deepSpeedBuffers) — the
	// accounting of the ZeRO paper (Rajbhandari et al., 2020, §3.1).
	RecipeDeepSpeed Recipe = "deepspeed"
	// RecipePure16 loads the model in bf16 (or fp16) and keeps optimizer
	// states in the parameter dtype (torch.optim allocates them with
	// zeros_like(param)); no master copy.
	RecipePure16 Recipe = "pure16"
	// RecipeFP32 is fp32 (or tf32 compute) throughout: 4 + 4 + 8 B/param.
	RecipeFP32 Recipe = "fp32"
)

// Recipes lists the valid recipes, auto first.
var Recipes = []Recipe{RecipeAuto, RecipeAutocast, RecipeFSDPMixed, RecipeDeepSpeed, RecipePure16, RecipeFP32}

// String returns the TOML spelling, "auto" for the zero value.
func (r Recipe) String() string {
	if r == RecipeAuto {
		return "auto"
	}
	return string(r)
}

// ParseRecipe parses a recipe name; "auto" and "" give RecipeAuto.
func ParseRecipe(s string) (Recipe, error) {
	v, err := ParseEnum(s, Verbatim("recipe"), []Recipe{"auto", RecipeAutocast, RecipeFSDPMixed, RecipeDeepSpeed, RecipePure16, RecipeFP32}, recipeAliases)
	if v == "auto" {
		v = RecipeAuto
	}
	return v, err
}

var recipeAliases = map[string]Recipe{
	"": RecipeAuto, "amp": RecipeAutocast, "torch-amp": RecipeAutocast, "torch.autocast": RecipeAutocast,
	"fsdp": RecipeFSDPMixed, "zero": RecipeDeepSpeed, "ds": RecipeDeepSpeed, "bf16": RecipePure16, "pure-bf16": RecipePure16,
}

// MarshalText implements encoding.TextMarshaler.
func (r Recipe) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (r *Recipe) UnmarshalText(b []byte) error {
	v, err := ParseRecipe(string(b))
	if err == nil {
		*r = v
	}
	return err
}

// TrainingRecipe returns the recipe w runs: w.Recipe when set, else from
// precision and strategy. fp32/tf32 → fp32; bf16, fp16 → pure16; mixed
// precision (amp-*, fp8) → deepspeed under ZeRO (the strategy is run by
// DeepSpeed, which is what `gpuplan export` writes), fsdp-mixed under FSDP,
// autocast on one GPU or DDP (torch.autocast is PyTorch's AMP, and
// Keras's mixed_float16 policy and JAX's bf16 compute keep fp32 variables
// the same way).
func (w *Workload) TrainingRecipe() Recipe {
	if w.Recipe != RecipeAuto {
		return w.Recipe
	}
	switch w.Precision {
	case FP32, TF32:
		return RecipeFP32
	case BF16, FP16:
		return RecipePure16
	}
	switch w.Strategy {
	case ZeRO1, ZeRO2, ZeRO3:
		return RecipeDeepSpeed
	case FSDP:
		return RecipeFSDPMixed
	}
	return RecipeAutocast
}

// Loss is how the language-model loss is computed over the vocabulary
// logits; the zero value is LossAuto (LossHFUpcast, see Workload.LossImpl).
type Loss string

// Loss implementations, spelled as in TOML.
const (
	LossAuto Loss = ""
	// LossHFUpcast is Hugging Face transformers' causal-LM loss: 16-bit
	// logits, their fp32 copy (logits.float() in loss_utils.py
	// ForCausalLMLoss), the fp32 log-softmax cross_entropy saves, and the
	// fp32 gradient of the logits.
	LossHFUpcast Loss = "hf-fp32"
	// LossFused is a fused cross-entropy kernel on the 16-bit logits that
	// writes the gradient in place (flash-attention csrc/xentropy "support
	// in-place backward to save memory"; Liger CrossEntropy): the 16-bit
	// logits only.
	LossFused Loss = "fused"
	// LossChunked is fused linear + cross-entropy in chunks (Liger
	// FusedLinearCrossEntropy, Apple's Cut Cross-Entropy, Unsloth): the
	// full logits never exist; one chunk of ChunkedLossChunks is live.
	LossChunked Loss = "chunked"
	// LossNative is torch.nn.functional.cross_entropy on the logits in
	// their own dtype (LitGPT's chunked_cross_entropy, plain PyTorch loops):
	// log_softmax then nll_loss (aten/src/ATen/native/LossNLL.cpp
	// cross_entropy_loss), log_softmax saving its output for backward
	// (tools/autograd/derivatives.yaml _log_softmax: uses result).
	LossNative Loss = "native"
)

// ChunkedLossChunks is the number of chunks the chunked loss splits the
// tokens into; torchtune's CEWithChunkedOutputLoss uses num_output_chunks
// = 8 (torchtune/modules/loss/ce_chunked_output_loss.py).
const ChunkedLossChunks = 8

// Losses lists the valid loss implementations, auto first.
var Losses = []Loss{LossAuto, LossHFUpcast, LossFused, LossChunked, LossNative}

// String returns the TOML spelling, "auto" for the zero value.
func (l Loss) String() string {
	if l == LossAuto {
		return "auto"
	}
	return string(l)
}

// ParseLoss parses a loss implementation; "auto" and "" give LossAuto.
func ParseLoss(s string) (Loss, error) {
	v, err := ParseEnum(s, Verbatim("loss"), []Loss{"auto", LossHFUpcast, LossFused, LossChunked, LossNative}, lossAliases)
	if v == "auto" {
		v = LossAuto
	}
	return v, err
}

var lossAliases = map[string]Loss{
	"": LossAuto, "hf": LossHFUpcast, "upcast": LossHFUpcast, "fused-ce": LossFused, "liger": LossChunked,
	"cce": LossChunked, "chunked-ce": LossChunked, "torch": LossNative,
}

// MarshalText implements encoding.TextMarshaler.
func (l Loss) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (l *Loss) UnmarshalText(b []byte) error {
	v, err := ParseLoss(string(b))
	if err == nil {
		*l = v
	}
	return err
}

// CountsLogits reports whether w's training computes vocabulary logits
// (LMs always, encoders only when pre-training), so a loss implementation
// can matter to its memory.
func (w *Workload) CountsLogits() bool { return countsLogits(w) }

// LossImpl returns the loss implementation w uses: w.Loss when set, else
// the Hugging Face fp32 upcast, the default path of every PyTorch LM
// trained through transformers (and what TensorFlow/JAX LMs do when they
// compute the softmax in fp32).
func (w *Workload) LossImpl() Loss {
	if w.Loss != LossAuto {
		return w.Loss
	}
	return LossHFUpcast
}

// QuantType is bitsandbytes' 4-bit data type; the zero value is
// QuantAuto (see Workload.FourBit).
type QuantType string

// 4-bit data types of bitsandbytes (functional.py quantize_4bit,
// quant_type "nf4" or "fp4").
const (
	QuantAuto QuantType = ""
	QuantNF4  QuantType = "nf4"
	QuantFP4  QuantType = "fp4"
)

// QuantTypes lists the valid 4-bit types, auto first.
var QuantTypes = []QuantType{QuantAuto, QuantNF4, QuantFP4}

// String returns the TOML spelling, "auto" for the zero value.
func (q QuantType) String() string {
	if q == QuantAuto {
		return "auto"
	}
	return string(q)
}

// ParseQuantType parses a 4-bit type; "auto" and "" give QuantAuto.
func ParseQuantType(s string) (QuantType, error) {
	v, err := ParseEnum(s, Verbatim("quant_type"), []QuantType{"auto", QuantNF4, QuantFP4}, map[string]QuantType{"": QuantAuto})
	if v == "auto" {
		v = QuantAuto
	}
	return v, err
}

// MarshalText implements encoding.TextMarshaler.
func (q QuantType) MarshalText() ([]byte, error) { return []byte(q.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (q *QuantType) UnmarshalText(b []byte) error {
	v, err := ParseQuantType(string(b))
	if err == nil {
		*q = v
	}
	return err
}

// FourBit returns the 4-bit format and double quantization a QLoRA base
// uses: w.QuantType and w.DoubleQuant when set, else NF4 with double
// quantization — the QLoRA recipe (Dettmers et al., 2023, §3) and what
// `gpuplan export` writes (--bnb_4bit_quant_type nf4
// --use_bnb_nested_quant). A bare load_in_4bit=True in transformers is
// FP4 without double quantization (BitsAndBytesConfig defaults
// bnb_4bit_quant_type="fp4", bnb_4bit_use_double_quant=False); set both
// fields to cost that.
func (w *Workload) FourBit() (QuantType, bool) {
	q, dq := w.QuantType, true
	if q == QuantAuto {
		q = QuantNF4
	}
	if w.DoubleQuant != nil {
		dq = *w.DoubleQuant
	}
	return q, dq
}

// bitsandbytes 4-bit storage (bitsandbytes/functional.py quantize_4bit):
// two 4-bit values per byte (quant_storage uint8), one absmax per block of
// blocksize = 64 values (the default when blocksize is None), an fp32
// absmax without compress_statistics; with it, the absmaxes minus their
// mean are quantized again by quantize_blockwise(..., blocksize=256): one
// byte per absmax plus one fp32 absmax per 256 of them. NF4 and FP4 store
// the same bytes; they differ in the 16-value code book only.
const (
	bnb4BitBlock  = 64
	bnbNestedBlk  = 256
	bnb4BitNoDQ   = 0.5 + 4.0/bnb4BitBlock                         // 0.5625 B/param
	bnb4BitWithDQ = 0.5 + 1.0/bnb4BitBlock + 4.0/(64*bnbNestedBlk) // 0.51587 B/param
)

// FourBitBytesPerParam returns bitsandbytes' 4-bit bytes per quantized
// parameter, with or without double quantization (see bnb4BitNoDQ).
func FourBitBytesPerParam(doubleQuant bool) float64 {
	if doubleQuant {
		return bnb4BitWithDQ
	}
	return bnb4BitNoDQ
}

// recipeNote says what a recipe keeps, for the assumptions.
func recipeNote(r Recipe) string {
	switch r {
	case RecipeAutocast:
		return "torch.autocast: fp32 weights and gradients, fp32 optimizer states, 16-bit cast cache"
	case RecipeFSDPMixed:
		return "FSDP MixedPrecision: sharded fp32 weights, gradients and states, 16-bit unsharded units"
	case RecipeDeepSpeed:
		return "DeepSpeed: 16-bit weights and gradients, fp32 master and states in the optimizer partition"
	case RecipePure16:
		return "pure 16-bit: weights, gradients and optimizer states in the parameter dtype"
	}
	return "fp32 throughout"
}
