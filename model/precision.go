package model

// fp16Overflows are the Hugging Face model types (config.json model_type)
// whose activations are known to pass float16's largest value (65,504),
// giving inf and then NaN outputs, so a bf16 job of theirs never falls back
// to fp16 on its own (PrecisionKept):
//
//   - t5, mt5: "t5-small is the only T5 model that works in fp16 … inf
//     values in hidden_states after applying the final linear layer (wo) …
//     This happens during both training and inference" (huggingface/
//     transformers issue 9295, for T5 v1.0, v1.1 and mT5); the T5 authors
//     trained and ran in bfloat16 ("All of our experiments use bfloat16
//     activations", google-research/text-to-text-transfer-transformer
//     issue 539). transformers works around it rather than fixing it: it
//     keeps T5's wo layers in fp32 when the model loads in fp16
//     (T5PreTrainedModel._keep_in_fp32_modules = ["wo"]) and clamps inf in
//     T5Block ("clamp inf values to enable fp16 training").
//   - gemma2, gemma3, gemma3_text, plamo2, glm4: vLLM refuses float16 for
//     them for "Numerical instability" (_FLOAT16_NOT_SUPPORTED_MODELS in
//     vllm/config/model.py, the list serve.FP16Refused holds), and
//     text-embeddings-inference loads gemma3_text in float32 where its
//     CUDA default is float16 (router/src/lib.rs, backends/src/dtype.rs).
var fp16Overflows = map[string]bool{
	"t5": true, "mt5": true,
	"gemma2": true, "gemma3": true, "gemma3_text": true, "plamo2": true, "glm4": true,
}

// FP16Overflows reports whether a's model type is known to overflow
// float16 (fp16Overflows, by a.ModelType).
func FP16Overflows(a *Architecture) bool { return fp16Overflows[a.ModelType] }

// PrecisionKept says why g does not run w's precision as it is asked for
// unless the search allows the fallback (Query.AllowPrecisionFallback), or
// the zero Message when g runs it natively or it adapts to g on its own.
// asked is Query.PrecisionAsked: a precision the user named is the one
// asked for, everywhere. A precision g has no fallback for at all is
// CannotRun's, not this.
//
// A precision left to its default adapts to the GPU as the frameworks do
// (GPU.RunPrecision):
//
//   - training's amp-bf16 runs amp-fp16 without bf16 (the fallback keeps
//     its loss scaling: GradScaler); pure bf16 training has no fallback at
//     all (CannotRun), since fp16 would need the loss scaling that recipe
//     lacks.
//   - inference's bf16 runs fp16 without bf16, as every inference stack
//     picks for such a GPU: vLLM's --dtype auto loads a bf16 checkpoint in
//     float16 there (vllm/config/model.py _resolve_auto_dtype),
//     text-embeddings-inference runs encoders in float16 by default on
//     CUDA, Turing included (backends/src/dtype.rs DType::default), and
//     torch.autocast's CUDA default dtype is float16 (torch/amp/
//     autocast_mode.py); bfloat16 below compute capability 8.0 is only
//     emulated, without tensor cores (torch.cuda.is_bf16_supported counts
//     it only with including_emulation, its default), which is why
//     ComputePrecision times such a GPU at fp16. A forward pass keeps no
//     gradients, so fp16's narrower range needs no loss scaling.
//   - fp8 never adapts on its own: fp8 is always a choice (weight format,
//     quantized release), and its fallback doubles the weights.
//
// Inference of a model whose activations overflow fp16 (FP16Overflows:
// T5, Gemma 2 and 3) is kept wherever its activations would be fp16
// without the user choosing fp16: bf16's fallback, and int8/int4 weights,
// which dequantize to 16-bit activations (ComputePrecision), on a GPU
// without bf16. The message names fp32 as what runs it there.
func PrecisionKept(w *Workload, g *GPU, asked bool) Message {
	run, ok := g.RunPrecision(w.Precision, w.Task.Training())
	if !ok {
		return Message{} // CannotRun's
	}
	act := activationFormat(g, run)
	switch {
	case !w.Task.Training() && act == FP16 && w.Precision != FP16 && FP16Overflows(&w.Model):
		if run != w.Precision {
			return Msg("%s has no %s and %s models overflow in fp16 (inf activations); it would run %s (allow_precision_fallback), or give precision fp32",
				g.Name, w.Precision, w.Model.ModelType, run)
		}
		return Msg("%s has no bf16 and %s models overflow in fp16 (inf activations); its %s weights would compute in fp16 (allow_precision_fallback), or give precision fp32",
			g.Name, w.Model.ModelType, w.Precision)
	case run == w.Precision:
		return Message{}
	case asked || w.Precision == FP8 || w.Task.Training() && w.Precision == BF16:
		return Msg("%s has no %s; it would run %s (allow_precision_fallback)", g.Name, w.Precision, run)
	}
	return Message{}
}

// activationFormat is the format of the activations of a job that runs
// run on g: run itself, but 16-bit for weight-only int8/int4, which
// dequantize each weight before its matmul (bf16, fp16 without bf16, as
// ComputePrecision).
func activationFormat(g *GPU, run Precision) Precision {
	if run != INT8 && run != INT4 {
		return run
	}
	if bf16, _ := g.Supports(BF16); bf16 {
		return BF16
	}
	return FP16
}

// fp16Overflow is the warning for a job of w on g whose activations run
// in fp16 there (after any fallback: GPU.RunPrecision, activationFormat)
// when w's model overflows fp16, whether the fallback was allowed, fp16
// asked for or the job is estimated on g (estimate --gpu, which shows the
// precision g runs); ok false when there is none.
func fp16Overflow(w *Workload, g *GPU) (Message, bool) {
	run, _ := g.RunPrecision(w.Precision, w.Task.Training())
	if p := activationFormat(g, run); (p == FP16 || p == AMPFP16) && FP16Overflows(&w.Model) {
		return Msg("%s models overflow in fp16 (inf activations, then NaN): a GPU with bf16, or fp32, runs them", w.Model.ModelType), true
	}
	return Message{}, false
}
