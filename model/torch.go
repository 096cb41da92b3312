package model

import (
	"fmt"
	"strconv"
	"strings"
)

// TorchVersion is the PyTorch release a job runs on, major.minor ("2.4");
// the zero value is unset (Workload.Defaults gives DefaultTorch). Rented
// images and older CUDA drivers often run an older stack, and these
// behaviours changed between releases (each is read where it applies):
//
//   - 1.11: softmax's backward no longer keeps its input beside its output
//     (pytorch/pytorch#64000, fixed by #66018); see softmaxInput.
//   - 1.13: CUDA_MODULE_LOADING=LAZY is set when the user has not
//     (pytorch/pytorch#86509, "[1.13] Sets CUDA_MODULE_LOADING to LAZY"):
//     the CUDA context loads kernels as they are first used; see
//     cudaContextBytes.
//   - 2.0: Optimizer.zero_grad(set_to_none=True) is the default (before,
//     gradients were zeroed in place and stayed allocated through the next
//     forward); torch.optim defaults to the foreach implementations on CUDA
//     (torch/optim/optimizer.py _default_to_fused_or_foreach; before, a
//     for-loop over parameters); torch.nn.functional.scaled_dot_product_
//     attention exists, so fused attention is the default (PyTorch 2.0
//     release notes); its foreach Adam/AdamW holds two state-sized
//     intermediates in the step (see foreachAdamIntermediates).
//   - 2.1: foreach Adam/AdamW hold one intermediate (pytorch/pytorch#104780,
//     #104898); the step can run in backward (optimizer_in_backward).
//
// The fused optimizers (fused=True) have never been the default, so no
// release changes that.
type TorchVersion struct{ Major, Minor int }

// DefaultTorch is the current stable PyTorch release: v2.10.0 is the
// "stable release" of the PyTorch documentation's version list
// (docs.pytorch.org, versions page, read 2026-12).
var DefaultTorch = TorchVersion{2, 10}

// oldestTorch is the oldest release gpuplan models: 1.6 brought
// torch.cuda.amp (autocast), which every mixed-precision recipe assumes.
var oldestTorch = TorchVersion{1, 6}

// ParseTorchVersion reads "2.4", "1.13" or "2.4.1" (the patch release is
// ignored: none of the behaviours above changed in one).
func ParseTorchVersion(s string) (TorchVersion, error) {
	parts := strings.Split(strings.TrimSpace(s), ".")
	if len(parts) < 2 || len(parts) > 3 {
		return TorchVersion{}, &TorchError{s, Msg("want major.minor, e.g. %s", DefaultTorch)}
	}
	var v [3]int
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 999 || p == "" || p[0] == '+' {
			return TorchVersion{}, &TorchError{s, Msg("want major.minor, e.g. %s", DefaultTorch)}
		}
		v[i] = n
	}
	t := TorchVersion{v[0], v[1]}
	if !t.AtLeast(oldestTorch.Major, oldestTorch.Minor) || t.Major > 9 {
		return TorchVersion{}, &TorchError{s, Msg("want %s or later (torch.cuda.amp), e.g. %s", oldestTorch, DefaultTorch)}
	}
	return t, nil
}

// TorchError is ParseTorchVersion's error: the value and what is wrong
// with it, which a flag's error shows after its own name.
type TorchError struct {
	Value string
	Why   Message
}

func (e *TorchError) Error() string { return e.Message().String() }

// Message is the error as one message: "torch \"2\": want major.minor, …".
func (e *TorchError) Message() Message { return Msg("torch %q: %s", e.Value, e.Why) }

// String returns "major.minor", or "" when unset.
func (v TorchVersion) String() string {
	if v == (TorchVersion{}) {
		return ""
	}
	return fmt.Sprintf("%d.%d", v.Major, v.Minor)
}

// IsZero reports whether v is unset.
func (v TorchVersion) IsZero() bool { return v == TorchVersion{} }

// AtLeast reports whether v is release major.minor or later.
func (v TorchVersion) AtLeast(major, minor int) bool {
	return v.Major > major || v.Major == major && v.Minor >= minor
}

// Trainer is the training library that runs the job, where its choices
// change memory; TrainerHF is the default.
type Trainer string

// Trainers, spelled as in TOML and on the command line.
const (
	// TrainerHF is Hugging Face Transformers with PEFT, Accelerate and
	// bitsandbytes (and plain PyTorch loops): three query/key/value
	// Linears unless the model fuses them, load_in_4bit keeps the LM head
	// unquantized (get_keys_to_not_convert), PEFT's
	// prepare_model_for_kbit_training casts what is not 4-bit to fp32 on
	// one GPU or DDP (kbitFP32), and the Trainer wraps LoRA modules in
	// their own FSDP units (peft fsdp_auto_wrap_policy).
	TrainerHF Trainer = "hf"
	// TrainerLitGPT is LitGPT on Lightning Fabric: one fused qkv Linear
	// (litgpt/model.py CausalSelfAttention.qkv); bitsandbytes through
	// Fabric's BitsandbytesPrecision makes every nn.Linear 4-bit, the LM
	// head included, quantized from an fp16 copy (_Linear4bit.
	// _quantize_weight casts to torch.half), so a bf16 forward dequantizes
	// to fp16 and casts to bf16: two 16-bit copies (src/lightning/fabric/
	// plugins/precision/bitsandbytes.py, Lightning 2.1); multi-GPU LoRA
	// wraps each Block, adapters and frozen weights together, as one FSDP
	// unit (finetune/lora.py, FSDPStrategy(auto_wrap_policy={Block})).
	TrainerLitGPT Trainer = "litgpt"
	// TrainerTorchtune is torchtune's recipes: its own TransformerDecoder
	// (separate q/k/v projections, no returned key/value cache) loaded in
	// the recipe's dtype; QLoRA quantizes the linears to torchao NF4 and
	// casts nothing to fp32 (no prepare_model_for_kbit_training: see
	// kbitFP32). Every block linear is NF4 whatever the LoRA targets:
	// LoRALinear(quantize_base=True) where LoRA applies, FrozenNF4Linear
	// where it does not (torchtune/models/llama2/_component_builders.py
	// lora_llama2_self_attention, llama2_mlp; torchtune#1119, "NF4
	// quantization of linear layers without LoRA applied", in v0.3.0 —
	// before it, v0.1–v0.2, a linear without LoRA stayed bf16, as the QLoRA
	// tutorial still says). The output projection is never quantized ("TODO:
	// quantize_base is not applied to final output_proj currently",
	// lora_llama2), so fourBitLinear counts the block linears, as for
	// Hugging Face.
	TrainerTorchtune Trainer = "torchtune"
)

// Trainers lists the valid trainers, the default first.
var Trainers = []Trainer{TrainerHF, TrainerLitGPT, TrainerTorchtune}

// ParseTrainer parses a trainer name.
func ParseTrainer(s string) (Trainer, error) {
	return ParseEnum(s, Verbatim("trainer"), Trainers, trainerAliases)
}

var trainerAliases = map[string]Trainer{
	"transformers": TrainerHF, "huggingface": TrainerHF, "hugging-face": TrainerHF, "peft": TrainerHF,
	"lit-gpt": TrainerLitGPT, "lightning": TrainerLitGPT,
}

// UnmarshalTOML decodes a trainer as ParseTrainer reads it.
func (v *Trainer) UnmarshalTOML(x any) error { return unmarshalEnum(v, x, ParseTrainer) }

// ZeroGrad is where the training loop calls optimizer.zero_grad(), which
// decides whether the previous step's gradients are alive at the forward
// pass's peak; ZeroGradAfterStep is the default.
type ZeroGrad string

// Zero-grad placements, spelled as in TOML and on the command line.
const (
	// ZeroGradAfterStep zeroes right after optimizer.step() (or before the
	// forward pass, which frees the same tensors at the same point): the
	// Hugging Face Trainer calls model.zero_grad() after
	// self.optimizer.step() and self.lr_scheduler.step() (transformers
	// trainer.py _inner_training_loop); LitGPT's finetune scripts call
	// optimizer.zero_grad() after optimizer.step().
	ZeroGradAfterStep ZeroGrad = "after-step"
	// ZeroGradBeforeBackward zeroes after the forward pass, just before
	// loss.backward(): pytorch/examples imagenet/main.py ("compute
	// gradient and do SGD step": optimizer.zero_grad(); loss.backward();
	// optimizer.step() after output = model(images)) and Lightning
	// Trainer's automatic optimization, whose Closure runs training_step,
	// then zero_grad, then backward (src/lightning/pytorch/loops/
	// optimization/automatic.py, Closure.closure). The previous step's
	// gradients live through this step's forward; from PyTorch 2.0
	// (set_to_none=True) zero_grad frees them before backward, before 2.0
	// they stay allocated as zeros.
	ZeroGradBeforeBackward ZeroGrad = "before-backward"
)

// ZeroGrads lists the valid placements, the default first.
var ZeroGrads = []ZeroGrad{ZeroGradAfterStep, ZeroGradBeforeBackward}

// ParseZeroGrad parses a zero-grad placement.
func ParseZeroGrad(s string) (ZeroGrad, error) {
	return ParseEnum(s, Verbatim("zero-grad"), ZeroGrads, zeroGradAliases)
}

var zeroGradAliases = map[string]ZeroGrad{
	"after-optimizer-step": ZeroGradAfterStep, "before-forward": ZeroGradAfterStep, "step": ZeroGradAfterStep,
	"after-forward": ZeroGradBeforeBackward, "backward": ZeroGradBeforeBackward,
}

// UnmarshalTOML decodes a placement as ParseZeroGrad reads it.
func (v *ZeroGrad) UnmarshalTOML(x any) error { return unmarshalEnum(v, x, ParseZeroGrad) }

// Outputs is how long the training loop holds what the model's forward
// returns: the logits and, for a Hugging Face causal LM with use_cache, the
// key/value cache; OutputsDropped is the default.
type Outputs string

// Output lifetimes, spelled as in TOML and on the command line.
const (
	// OutputsDropped frees the outputs before backward: the Hugging Face
	// Trainer's training_step gets only the loss from compute_loss (which
	// returns (loss, outputs) only when return_outputs; transformers
	// trainer.py Trainer.compute_loss), and torchtune's recipes `del
	// logits` before loss.backward() (recipes/full_finetune_single_device.py
	// _loss_step and train).
	OutputsDropped Outputs = "dropped"
	// OutputsKept holds them through backward and into the next step: a
	// loop that binds the output to a name in its own body, `outputs =
	// model(**batch); loss = outputs.loss; loss.backward();
	// optimizer.step()` (Transformers' "Training in native PyTorch",
	// Accelerate's examples), nanoGPT's train.py (`logits, loss =
	// model(X, Y)` then backward) and LitGPT's finetune scripts (`logits =
	// model(input_ids, lm_head_chunk_size=128)` then fabric.backward,
	// litgpt/finetune/lora.py fit). CPython frees the previous step's
	// outputs only when the name is rebound, after the next forward
	// returns, so they are alive at the next forward's peak as well.
	OutputsKept Outputs = "kept"
)

// OutputsAll lists the valid output lifetimes, the default first.
var OutputsAll = []Outputs{OutputsDropped, OutputsKept}

// ParseOutputs parses an output lifetime.
func ParseOutputs(s string) (Outputs, error) {
	return ParseEnum(s, Verbatim("outputs"), OutputsAll, outputsAliases)
}

var outputsAliases = map[string]Outputs{
	"freed": OutputsDropped, "trainer": OutputsDropped, "hf-trainer": OutputsDropped,
	"held": OutputsKept, "plain": OutputsKept, "plain-loop": OutputsKept, "loop": OutputsKept,
}

// UnmarshalTOML decodes a lifetime as ParseOutputs reads it.
func (v *Outputs) UnmarshalTOML(x any) error { return unmarshalEnum(v, x, ParseOutputs) }

// torchAtLeast reports whether w runs on PyTorch major.minor or later; an
// unset Torch is DefaultTorch.
func (w *Workload) torchAtLeast(major, minor int) bool {
	v := w.Torch
	if v.IsZero() {
		v = DefaultTorch
	}
	return v.AtLeast(major, minor)
}
