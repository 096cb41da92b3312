package config

import "github.com/gpuplan/gpuplan/model"

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
func FromCheckpoint(t model.Task, ckpt model.Precision) (task model.Task, p model.Precision, note string) {
	switch {
	case ckpt == model.FP32 && t == model.TaskInference:
		return t, model.FP16, "the checkpoint is stored in fp32: the estimate serves it in fp16, as vLLM's --dtype auto does (half the memory); give --precision fp32 to keep it"
	case ckpt == model.FP32 && t == model.TaskLoRA:
		return t, "", "the checkpoint is stored in fp32: LoRA keeps its frozen base in 16 bits, so the estimate uses the task's default precision; give --precision fp32 to keep it"
	case ckpt == "" || !t.Training():
		return t, ckpt, ""
	}
	switch ckpt {
	case model.BF16:
		return t, model.AMPBF16, ""
	case model.FP16:
		return t, model.AMPFP16, ""
	case model.INT4:
		switch t {
		case model.TaskFinetune, model.TaskLoRA:
			return model.TaskQLoRA, "", "the checkpoint is quantized to 4 bits: fine-tuning it is QLoRA (frozen 4-bit weights, trained LoRA adapters), so the estimate is for --task qlora"
		case model.TaskTrain:
			return t, "", "the checkpoint is quantized to 4 bits; training from scratch does not use its weights, so the estimate uses the default precision"
		}
		return t, "", ""
	case model.INT8:
		switch t {
		case model.TaskFinetune:
			return model.TaskLoRA, "", "the checkpoint is quantized to 8 bits: fine-tuning it trains LoRA adapters over the frozen weights, so the estimate is for --task lora with a 16-bit base (the 8-bit base takes about half that)"
		case model.TaskLoRA:
			return t, "", "the checkpoint is quantized to 8 bits: the estimate counts the frozen base at 16 bits (about twice what it takes)"
		case model.TaskTrain:
			return t, "", "the checkpoint is quantized to 8 bits; training from scratch does not use its weights, so the estimate uses the default precision"
		}
		return t, "", ""
	}
	return t, ckpt, "" // fp32, tf32, fp8 train as stored
}
