package model

// FromCheckpoint returns the task and precision to estimate when the user
// asked for task t without naming a precision and the checkpoint (a
// config.json's torch_dtype or quantization_config) stores its weights as
// ckpt; note, when not "", tells the user what changed and why.
//
//   - Inference runs the weights as stored: ckpt as is (int4 for AWQ, GPTQ
//     or bitsandbytes 4-bit).
//   - Training from a 16-bit checkpoint uses mixed precision: bf16 →
//     amp-bf16, fp16 → amp-fp16 (PyTorch AMP keeps fp32 master weights).
//   - Fine-tuning a 4-bit checkpoint (finetune or lora) is QLoRA: the
//     quantized weights stay frozen and low-rank adapters train on top
//     (Dettmers et al., 2023, "QLoRA", §3; PEFT's
//     prepare_model_for_kbit_training). Full fine-tuning of packed 4-bit
//     weights is not something PyTorch optimizers do.
//   - Fine-tuning an 8-bit checkpoint (finetune) is LoRA over the frozen
//     base (bitsandbytes LLM.int8(), Dettmers et al., 2022); gpuplan has no
//     8-bit base, so the estimate keeps it at the task's default precision,
//     an over-estimate said in the note.
//   - Training from scratch (train) does not use the stored weights: the
//     task's default precision.
//   - An fp32 checkpoint is not run in fp32 where that only doubles the
//     memory: served in fp16, as vLLM's dtype "auto" does ("will use FP16
//     precision for FP32 and FP16 models", vllm/config.py ModelConfig),
//     and fine-tuned with LoRA over a 16-bit frozen base (the task as
//     gpuplan defines it, TaskLoRA) at the task's default precision.
//
// The returned precision is "" where the task's default applies
// (Workload.Defaults picks it).
func FromCheckpoint(t Task, ckpt Precision) (task Task, p Precision, note string) {
	switch {
	case ckpt == FP32 && t == TaskInference:
		return t, FP16, "the checkpoint is stored in fp32: the estimate serves it in fp16, as vLLM's --dtype auto does (half the memory); give --precision fp32 to keep it"
	case ckpt == FP32 && t == TaskLoRA:
		return t, "", "the checkpoint is stored in fp32: LoRA keeps its frozen base in 16 bits, so the estimate uses the task's default precision; give --precision fp32 to keep it"
	case ckpt == "" || !t.Training():
		return t, ckpt, ""
	}
	switch ckpt {
	case BF16:
		return t, AMPBF16, ""
	case FP16:
		return t, AMPFP16, ""
	case INT4:
		switch t {
		case TaskFinetune, TaskLoRA:
			return TaskQLoRA, "", "the checkpoint is quantized to 4 bits: fine-tuning it is QLoRA (frozen 4-bit weights, trained LoRA adapters), so the estimate is for --task qlora"
		case TaskTrain:
			return t, "", "the checkpoint is quantized to 4 bits; training from scratch does not use its weights, so the estimate uses the default precision"
		}
		return t, "", ""
	case INT8:
		switch t {
		case TaskFinetune:
			return TaskLoRA, "", "the checkpoint is quantized to 8 bits: fine-tuning it trains LoRA adapters over the frozen weights, so the estimate is for --task lora with a 16-bit base (the 8-bit base takes about half that)"
		case TaskLoRA:
			return t, "", "the checkpoint is quantized to 8 bits: the estimate counts the frozen base at 16 bits (about twice what it takes)"
		case TaskTrain:
			return t, "", "the checkpoint is quantized to 8 bits; training from scratch does not use its weights, so the estimate uses the default precision"
		}
		return t, "", ""
	}
	return t, ckpt, "" // fp32, tf32, fp8 train as stored
}
