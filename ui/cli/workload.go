package cli

import (
	"errors"
	"reflect"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/serve"
)

// workloadFlags are the flags shared by estimate, recommend and export.
// Each flag writes into set, a request of its own, and request copies the
// flags given on the command line from set onto the --config file's
// request: workloadTable says which field each flag sets.
type workloadFlags struct {
	set    config.WorkloadAnswers // what the flags say; only the changed ones are read
	custom config.CustomModel     // --params, --family and the shape flags
	model  string                 // --model, checked against the catalog
	family string                 // --family, parsed when a shape is built
	gpu    string                 // --gpu: not part of the request
	listed bool                   // --lora-targets given once: later uses append
}

// workloadFlag is one row of the flag table: a request setting on the
// command line. The flag is its key with dashes (batch_size →
// --batch-size); completion follows from the value (enums complete their
// values, see registerCompletions).
type workloadFlag struct {
	name  string
	usage string
	// value is the flag's parser bound to the field it sets in f; rows
	// with a key are copied by request, the model rows by its model rules.
	value func(f *workloadFlags) pflag.Value
	key   string                    // the request key ("workload.batch_size", "serve.rps"); "" for the model's flags
	check func(v pflag.Value) error // nil: any parsed value
}

// workloadTable lists the workload flags in the order help shows them.
var workloadTable = []workloadFlag{
	{name: "model", usage: "catalog model key or alias, e.g. llama-3.1-8b (list: gpuplan catalog models)",
		value: func(f *workloadFlags) pflag.Value { return stringValue{&f.model} }},
	{name: "params", usage: "parameter count of a custom model: 7e9, 7B, 110M",
		value: func(f *workloadFlags) pflag.Value { return quantityValue{&f.custom.Params} }},
	{name: "family", usage: "custom model family: decoder, encoder, encoder-decoder, vit, cnn or unet (default decoder)",
		value: func(f *workloadFlags) pflag.Value { return stringValue{&f.family} }},
	{name: "layers", usage: "custom model: transformer blocks", value: func(f *workloadFlags) pflag.Value { return intValue{v: &f.custom.Layers, max: 1 << 24} }},
	{name: "hidden", usage: "custom model: hidden size (d_model)", value: func(f *workloadFlags) pflag.Value { return intValue{v: &f.custom.Hidden, max: 1 << 24} }},
	{name: "heads", usage: "custom model: attention heads", value: func(f *workloadFlags) pflag.Value { return intValue{v: &f.custom.Heads, max: 1 << 24} }},
	{name: "kv-heads", usage: "custom model: key/value heads for GQA/MQA (default: heads)", value: func(f *workloadFlags) pflag.Value { return intValue{v: &f.custom.KVHeads, max: 1 << 24} }},
	{name: "ffn", usage: "custom model: MLP inner size (default 4 × hidden)", value: func(f *workloadFlags) pflag.Value { return intValue{v: &f.custom.FFN, max: 1 << 24} }},
	{name: "vocab", usage: "custom model: vocabulary size (default 32000)", value: func(f *workloadFlags) pflag.Value { return intValue{v: &f.custom.Vocab, max: 1 << 24} }},
	{name: "hf-config", usage: "read the architecture from a Hugging Face config.json (file or directory)",
		value: func(f *workloadFlags) pflag.Value { return stringValue{&f.set.HFConfig} }},
	{name: "safetensors", usage: "count parameters from .safetensors headers (file or directory)",
		value: func(f *workloadFlags) pflag.Value { return stringValue{&f.set.Safetensors} }},

	{name: "framework", key: "workload.framework", usage: "pytorch, tensorflow or jax (default pytorch)",
		value: func(f *workloadFlags) pflag.Value {
			return enumValue[model.Framework]{&f.set.Framework, model.ParseFramework, model.Frameworks, nil}
		}},
	{name: "task", key: "workload.task", usage: "train (also pretrain), finetune (also fine-tune, full), lora, qlora or inference (also serve, infer) (default train)",
		value: func(f *workloadFlags) pflag.Value {
			return enumValue[model.Task]{&f.set.Task, model.ParseTask, model.Tasks, model.TaskAliasNames()}
		}},
	{name: "precision", key: "workload.precision", usage: "training: amp-bf16, amp-fp16, bf16, fp16 (pure 16-bit), fp32, tf32, fp8; inference: bf16, fp16, fp32, fp8, int8, int4",
		value: func(f *workloadFlags) pflag.Value {
			return enumValue[model.Precision]{&f.set.Precision, model.ParsePrecision, model.Precisions, nil}
		}},
	{name: "optimizer", key: "workload.optimizer", usage: "adamw, adam, sgd, sgd-momentum, adafactor, adamw-8bit, paged-adamw, paged-adamw8bit or adamw-fused (torch AdamW fused=True: no step temporary) (default: the model's training recipe's, e.g. sgd-momentum for ResNets; else adamw)",
		value: func(f *workloadFlags) pflag.Value {
			return enumValue[model.Optimizer]{&f.set.Optimizer, model.ParseOptimizer, model.Optimizers, nil}
		}},
	{name: "strategy", key: "workload.strategy", usage: "single, ddp, fsdp, zero1, zero2 or zero3 (default single, ddp with several GPUs; recommend, and estimate with --gpu, then also try fsdp where data parallel does not fit, and keep a strategy you name)",
		value: func(f *workloadFlags) pflag.Value {
			return enumValue[model.Strategy]{&f.set.Strategy, model.ParseStrategy, model.Strategies, nil}
		}},

	{name: "batch-size", key: "workload.batch_size", usage: "micro-batch per GPU (default: 1 for LoRA/QLoRA, the recipe's; else the model's)", check: atLeast1,
		value: func(f *workloadFlags) pflag.Value { return intValue{v: &f.set.MicroBatch, max: model.MaxBatch} }},
	{name: "seq-len", key: "workload.seq_len", usage: "tokens per sample; 8K is 8192, 8k 8000 (default: the model's)", check: atLeast1,
		value: func(f *workloadFlags) pflag.Value { return tokensValue{&f.set.SeqLen} }},
	{name: "image-size", key: "workload.image_size", usage: "pixels per side for vision models (default: the model's)", check: atLeast1,
		value: func(f *workloadFlags) pflag.Value { return intValue{v: &f.set.ImageSize, max: model.MaxImage} }},
	{name: "grad-accum", key: "workload.grad_accum", usage: "micro-batches per optimizer step (default: the recipe's, e.g. 16 ÷ GPUs for LoRA/QLoRA at micro-batch 1 (artidoro/qlora); else 1, as with a --batch-size other than 1. Given alone it keeps the micro-batch: 1 for LoRA/QLoRA", check: atLeast1,
		value: func(f *workloadFlags) pflag.Value { return intValue{v: &f.set.GradAccum, max: model.MaxBatch} }},
	{name: "checkpointing", key: "workload.checkpointing", usage: "full activation checkpointing (default on for qlora, as PEFT does)",
		value: func(f *workloadFlags) pflag.Value { return boolValue{&f.set.Checkpointing} }},
	{name: "flash-attention", key: "workload.flash_attention", usage: "fused (flash) attention; =false stores the attention matrix (default: on for PyTorch, off for TensorFlow and JAX)",
		value: func(f *workloadFlags) pflag.Value { return boolValue{&f.set.FlashAttention} }},
	{name: "lora-rank", key: "workload.lora_rank", usage: "LoRA rank r (default 16)", check: atLeast1,
		value: func(f *workloadFlags) pflag.Value { return intValue{v: &f.set.LoRARank, max: model.MaxRank} }},
	{name: "lora-targets", key: "workload.lora_targets", usage: "LoRA target projections: q,k,v,o,gate,up,down, or PEFT's q_proj…down_proj and all-linear (default q,k,v,o)",
		value: func(f *workloadFlags) pflag.Value { return listValue{&f.set.LoRATargets, &f.listed} }},
	{name: "dataset-samples", key: "workload.dataset_samples", usage: "samples (images, sequences, requests) per epoch: 1.28M", check: atLeastOne,
		value: func(f *workloadFlags) pflag.Value { return quantityValue{&f.set.DatasetSamples} }},
	{name: "dataset-tokens", key: "workload.dataset_tokens", usage: "tokens per epoch: 2T", check: atLeastOne,
		value: func(f *workloadFlags) pflag.Value { return quantityValue{&f.set.DatasetTokens} }},
	{name: "epochs", key: "workload.epochs", usage: "passes over the dataset (default 1)", check: positive,
		value: func(f *workloadFlags) pflag.Value { return floatValue{&f.set.Epochs} }},
	{name: "gpus", key: "workload.gpus", usage: "total GPUs (default 1)", check: atLeast1,
		value: func(f *workloadFlags) pflag.Value { return intValue{v: &f.set.GPUs, max: model.MaxGPUs} }},
	{name: "tp", key: "workload.tp", usage: "tensor-parallel degree (default 1; serving: auto, the cheapest split that meets the targets)", check: atLeast1,
		value: func(f *workloadFlags) pflag.Value { return intValue{v: &f.set.TP, max: model.MaxGPUs} }},
	{name: "gpus-per-node", key: "workload.gpus_per_node", usage: "estimate: GPUs per node, for the time of a job on more GPUs than one node holds (default 8, an HGX board; recommend times each instance type with its own)", check: between1(model.MaxGPUsPerNode),
		value: func(f *workloadFlags) pflag.Value { return intValue{v: &f.set.GPUsPerNode, max: model.MaxGPUsPerNode} }},
	{name: "network-gbps", key: "workload.network_gbps", usage: "node-to-node network, Gbps per node, for the time of a job on several nodes (default: the median of the catalog's full-node instance types of the GPU, else 10); recommend and plan time an instance type with its own figure, and one without at this", check: networkGbps,
		value: func(f *workloadFlags) pflag.Value { return floatValue{&f.set.NetworkGbps} }},
	{name: "context-len", key: "workload.context_len", usage: "inference: tokens per sequence in the KV cache, prompt + generated; 8K is 8192, 8k 8000 (default: seq-len)", check: atLeast1,
		value: func(f *workloadFlags) pflag.Value { return tokensValue{&f.set.ContextLen} }},
	{name: "sequences", key: "workload.sequences", usage: "inference: sequences decoded concurrently (default: batch-size)", check: between1(model.MaxBatch),
		value: func(f *workloadFlags) pflag.Value { return intValue{v: &f.set.Sequences, max: model.MaxBatch} }},
	{name: "gen-tokens", key: "workload.gen_tokens", usage: "inference: tokens generated per sequence; 1K is 1024, 1k 1000 (default 256, at most half the context)",
		value: func(f *workloadFlags) pflag.Value { return tokensValue{&f.set.GenTokens} }},
	{name: "mfu", key: "workload.mfu", usage: "model FLOPs utilisation 0.01–1 for time estimates (default: calibrated per family and precision)",
		check: mfuRange, value: func(f *workloadFlags) pflag.Value { return floatValue{&f.set.MFU} }},
	{name: "gpu", usage: "GPU for time and fit, e.g. a100-80gb (list: gpuplan catalog gpus)",
		value: func(f *workloadFlags) pflag.Value { return stringValue{&f.gpu} }},

	// Estimator v2 settings (issue 13).
	{name: "recipe", key: "workload.recipe", usage: "training recipe the memory follows: autocast, fsdp-mixed, deepspeed, pure16 or fp32 (default: from precision and strategy)",
		value: func(f *workloadFlags) pflag.Value {
			return suggestValue[model.Recipe]{&f.set.Recipe, model.ParseRecipe, model.Recipes}
		}},
	{name: "loss", key: "workload.loss", usage: "LM loss implementation: hf-fp32 (Hugging Face's fp32 upcast), fused, chunked (Liger, Cut Cross-Entropy) or native (default hf-fp32)",
		value: func(f *workloadFlags) pflag.Value {
			return suggestValue[model.Loss]{&f.set.Loss, model.ParseLoss, model.Losses}
		}},
	{name: "torch", key: "workload.torch", usage: "PyTorch release the job runs on, e.g. 1.13 or 2.4: older releases keep gradients between steps, step Adam per parameter, load every CUDA kernel and have no fused attention (default " + model.DefaultTorch.String() + ", the current stable)",
		value: func(f *workloadFlags) pflag.Value { return torchValue{&f.set.Torch} }},
	{name: "trainer", key: "workload.trainer", usage: "training library: hf (Transformers, PEFT, Accelerate), litgpt (LitGPT on Lightning Fabric) or torchtune (default hf)",
		value: func(f *workloadFlags) pflag.Value {
			return enumValue[model.Trainer]{&f.set.Trainer, model.ParseTrainer, model.Trainers, nil}
		}},
	{name: "zero-grad", key: "workload.zero_grad", usage: "where the training loop calls optimizer.zero_grad(): after-step (Hugging Face Trainer, LitGPT) or before-backward (after the forward, as pytorch/examples and Lightning's Trainer do: the last step's gradients stay alive through the forward) (default after-step)",
		value: func(f *workloadFlags) pflag.Value {
			return enumValue[model.ZeroGrad]{&f.set.ZeroGrad, model.ParseZeroGrad, model.ZeroGrads, nil}
		}},
	{name: "outputs", key: "workload.outputs", usage: "how long the training loop holds the model's outputs (the logits, and a Hugging Face causal LM's returned key/value cache): dropped (freed before backward, as the Hugging Face Trainer and torchtune do) or kept (a plain loop that binds them to a name, outputs = model(**batch) then loss.backward(), as Transformers' native PyTorch loop, Accelerate's examples, nanoGPT and LitGPT do: alive through backward and the next step's forward) (default dropped)",
		value: func(f *workloadFlags) pflag.Value {
			return enumValue[model.Outputs]{&f.set.Outputs, model.ParseOutputs, model.OutputsAll, nil}
		}},
	{name: "quant-type", key: "workload.quant_type", usage: "qlora: bitsandbytes 4-bit type nf4 or fp4 (default nf4)",
		value: func(f *workloadFlags) pflag.Value {
			return suggestValue[model.QuantType]{&f.set.QuantType, model.ParseQuantType, model.QuantTypes}
		}},
	{name: "double-quant", key: "workload.double_quant", usage: "qlora: quantize the 4-bit absmax constants again; =false for a bare load_in_4bit (default true)",
		value: func(f *workloadFlags) pflag.Value { return boolValue{&f.set.DoubleQuant} }},
	{name: "offload-optimizer", key: "workload.offload_optimizer", usage: "DeepSpeed ZeRO-Offload: optimizer states and fp32 master in host RAM, stepped on the CPU (zero1, zero2 or zero3)",
		value: func(f *workloadFlags) pflag.Value { return flagBool{&f.set.OffloadOptimizer} }},
	{name: "optimizer-in-backward", key: "workload.optimizer_in_backward", usage: "step each parameter in backward and free its gradient at once (torchtune optimizer_in_bwd; PyTorch 2.1+, not with --grad-accum > 1 or DeepSpeed)",
		value: func(f *workloadFlags) pflag.Value { return flagBool{&f.set.OptimizerInBackward} }},
	{name: "channels-last", key: "workload.channels_last", usage: "convolutional networks in PyTorch: tensors in channels_last (NHWC) memory format; default NCHW, which tensor-core convolutions transpose",
		value: func(f *workloadFlags) pflag.Value { return flagBool{&f.set.ChannelsLast} }},
	{name: "offload-params", key: "workload.offload_params", usage: "parameter offload to host RAM, each layer fetched when used: zero3, DeepSpeed's 16-bit partition; fsdp, torch FSDP CPUOffload(offload_params=True), which moves gradients and the optimizer step to the CPU too",
		value: func(f *workloadFlags) pflag.Value { return flagBool{&f.set.OffloadParams} }},
	{name: "offload-activations", key: "workload.offload_activations", usage: "offloaded gradient checkpointing (Unsloth's \"unsloth\" mode): each block's checkpointed input in host RAM, brought back one block at a time (needs --checkpointing)",
		value: func(f *workloadFlags) pflag.Value { return flagBool{&f.set.OffloadActivations} }},

	// Serving ([serve]; latency targets in milliseconds). --tp is the
	// workload's, read as the serving tensor-parallel degree.
	{name: "weight-format", key: "serve.weight_format", usage: "serving: bf16, fp16, fp8, int8, awq, gptq, bitsandbytes or mxfp4 (MoE experts 4-bit, the rest bf16; int4 is awq; default: the released checkpoint's, e.g. mxfp4 for gpt-oss, fp8 for DeepSeek-V3/R1; else from --precision or the config.json's quantization_config)",
		value: func(f *workloadFlags) pflag.Value {
			return enumValue[serve.WeightFormat]{&f.set.Serve.WeightFormat, serve.ParseWeightFormat, serve.WeightFormats, nil}
		}},
	{name: "kv-cache-dtype", key: "serve.kv_cache_dtype", usage: "serving: auto (the model's 16-bit dtype), fp8 (E4M3) or fp8_e5m2 (NVIDIA only)",
		value: func(f *workloadFlags) pflag.Value {
			return enumValue[serve.KVCacheDType]{&f.set.Serve.KVCacheDType, serve.ParseKVCacheDType, serve.KVCacheDTypes, nil}
		}},
	{name: "max-model-len", key: "serve.max_model_len", usage: "serving: tokens one request may hold, prompt + output; 8K is 8192, 8k 8000 (default: --context-len, else --seq-len, else the model's default sequence length such as 4096 for llama-3.1-8b, at least prompt + output; not vLLM's own default, the model's whole context: the launch files pass this value)", check: atLeast1,
		value: func(f *workloadFlags) pflag.Value { return tokensValue{&f.set.Serve.MaxModelLen} }},
	{name: "rope-scaling", key: "serve.rope_scaling", usage: "serving: a YaRN RoPE scaling vLLM applies to serve past the model's positions, yarn:FACTOR (its original positions × FACTOR: Qwen3's 32768 × 4 = 131072) or yarn:FACTOR:ORIGINAL, or none; the launch files pass it as --hf-overrides rope_parameters",
		value: func(f *workloadFlags) pflag.Value { return ropeValue{&f.set.Serve.RopeScaling} }},
	{name: "prompt-tokens", key: "serve.prompt_tokens", usage: "serving: average prompt tokens per request (default: max-model-len − output-tokens)", check: atLeast1,
		value: func(f *workloadFlags) pflag.Value { return tokensValue{&f.set.Serve.PromptTokens} }},
	{name: "output-tokens", key: "serve.output_tokens", usage: "serving: average generated tokens per request (default: --gen-tokens)", check: atLeast1,
		value: func(f *workloadFlags) pflag.Value { return tokensValue{&f.set.Serve.OutputTokens} }},
	{name: "shared-prefix-tokens", key: "serve.shared_prefix_tokens", usage: "serving: prompt tokens every request starts with alike, such as a system prompt (vLLM computes them once; default 0)",
		value: func(f *workloadFlags) pflag.Value { return tokensValue{&f.set.Serve.SharedPrefixTokens} }},
	{name: "concurrency", key: "serve.concurrency", usage: "serving: requests in flight (default: --sequences)", check: between1(model.MaxBatch),
		value: func(f *workloadFlags) pflag.Value { return intValue{v: &f.set.Serve.Concurrency, max: model.MaxBatch} }},
	{name: "rps", key: "serve.requests_per_sec", usage: "serving: requests per second, instead of --concurrency", check: positive,
		value: func(f *workloadFlags) pflag.Value { return floatValue{&f.set.Serve.RequestsPerSec} }},
	{name: "ttft-ms", key: "serve.ttft_ms", usage: "serving: target time to first token, ms", check: latencyMs,
		value: func(f *workloadFlags) pflag.Value { return floatValue{&f.set.Serve.TTFTTargetMs} }},
	{name: "tpot-ms", key: "serve.tpot_ms", usage: "serving: target time per output token, ms, or none (default 100: 10 tokens/s, faster than people read)", check: positiveOrNone,
		value: func(f *workloadFlags) pflag.Value { return noneFloatValue{&f.set.Serve.TPOTTargetMs} }},
	{name: "pp", key: "serve.pipeline_parallel_size", usage: "serving: pipeline-parallel stages across nodes (default: 1 unless the model needs more; estimate with --gpus: 1)", check: atLeast1,
		value: func(f *workloadFlags) pflag.Value { return intValue{v: &f.set.Serve.PP, max: model.MaxGPUs} }},
	{name: "replicas", key: "serve.replicas", usage: "serving: model copies behind a load balancer, or auto",
		value: func(f *workloadFlags) pflag.Value { return autoInt{&f.set.Serve.Replicas} }},
	{name: "gpu-memory-utilization", key: "serve.gpu_memory_utilization", usage: "serving: vLLM's share of GPU memory, 0–1 (default 0.9)",
		check: memoryShare, value: func(f *workloadFlags) pflag.Value { return floatValue{&f.set.Serve.GPUMemoryUtilization} }},
	{name: "max-num-batched-tokens", key: "serve.max_num_batched_tokens", usage: "serving: tokens per scheduler step (default: vLLM's for the GPU, 8192 or 2048)", check: between1(model.MaxSeqLen),
		value: func(f *workloadFlags) pflag.Value { return tokensValue{&f.set.Serve.MaxNumBatchedTokens} }},
	{name: "max-num-seqs", key: "serve.max_num_seqs", usage: "serving: sequences per scheduler step (default: vLLM's for the GPU, 1024 or 256, at most --max-num-batched-tokens)", check: between1(model.MaxBatch),
		value: func(f *workloadFlags) pflag.Value { return intValue{v: &f.set.Serve.MaxNumSeqs, max: model.MaxBatch} }},
}

// serveFlagNames are every serving flag, for "ignored" warnings.
var serveFlagNames = func() []string {
	var names []string
	for _, r := range workloadTable {
		if strings.HasPrefix(r.key, "serve.") {
			names = append(names, r.name)
		}
	}
	return names
}()

func (f *workloadFlags) register(fs *pflag.FlagSet) {
	for _, r := range workloadTable {
		v := r.value(f)
		fl := fs.VarPF(v, r.name, "", r.usage)
		if v.Type() == "bool" {
			fl.NoOptDefVal = "true" // --checkpointing alone means true, as fs.BoolVar
		}
	}
}

// merge copies the flags given on the command line (rows with a key) from
// f.set onto w: the one merge of flags over a file. Each value is checked
// as its row says.
func (f *workloadFlags) merge(fs *pflag.FlagSet, w *config.WorkloadAnswers) error {
	dst := workloadFlags{set: *w}
	if fs.Changed("task") && w.Task != "" && (w.Task == model.TaskInference) != (f.set.Task == model.TaskInference) {
		// A serving file's batch_size is its concurrent requests and its
		// precision vLLM's dtype; neither is a training micro-batch or
		// recipe (nor the reverse): --task across them leaves both to the
		// new task's defaults, as the configurator does (walk35: a serving
		// file's batch_size = 4 became QLoRA's micro-batch).
		dst.set.MicroBatch, dst.set.Precision = 0, ""
	}
	for _, r := range workloadTable {
		if r.key == "" || !fs.Changed(r.name) {
			continue
		}
		v := r.value(f)
		if r.check != nil {
			if err := r.check(v); err != nil {
				return usage(model.Msg("--%s %v", r.name, err))
			}
		}
		to := reflect.ValueOf(r.value(&dst).(target).target()).Elem()
		to.Set(reflect.ValueOf(v.(target).target()).Elem())
	}
	if fs.Changed("tpot-ms") { // none (-1 here) asks for no target; a number clears a file's none
		sv := &dst.set.Serve
		sv.NoTPOTTarget = sv.TPOTTargetMs < 0
		sv.TPOTTargetMs = max(sv.TPOTTargetMs, 0)
	}
	*w = dst.set
	return nil
}

// rangeError is a config.CheckRanges error said of the flag that sets
// its key (--image-size for workload.image_size), one line, exit 2.
func rangeError(err error) error {
	var ce *config.Error
	if !errors.As(err, &ce) {
		return usage(err)
	}
	for _, r := range workloadTable {
		if r.key == ce.Key || ce.Key == "serve.tensor_parallel_size" && r.name == "tp" {
			return usage(model.Msg("--%s: %v", r.name, ce.Msg))
		}
	}
	for _, r := range searchFlagKeys {
		if r[1] == ce.Key {
			return usage(model.Msg("--%s: %v", r[0], ce.Msg))
		}
	}
	return usage(err)
}

// searchFlagKeys pairs the search flags with their configuration keys,
// for rangeError.
var searchFlagKeys = [][2]string{
	{"max-price-hour", "search.max_price_hour"}, {"budget-month", "search.budget_month"}, {"budget-job", "search.budget_job"},
	{"hours-per-month", "search.hours_per_month"}, {"deadline-hours", "search.deadline_hours"}, {"usd-cny", "search.usd_cny"},
}

// target is a flag value's field, for merge to copy.
type target interface{ target() any }

// between1 checks a count in 1…max, for flags no later check bounds
// (issue 29: --sequences 1e14 ran a serving ranking of 10^14 requests):
// the bound the configuration file's key has.
func between1(max int) func(pflag.Value) error {
	return func(v pflag.Value) error {
		if n := *v.(target).target().(*int); n <= 0 || n > max {
			return model.Msg("must be 1–%d, got %d", max, n)
		}
		return nil
	}
}

func atLeast1(v pflag.Value) error {
	if n := *v.(target).target().(*int); n <= 0 {
		return model.Msg("must be ≥ 1, got %d", n)
	}
	return nil
}

// atLeastOne checks a count given as a quantity (a dataset's samples or
// tokens): a dataset of less than one sample or token is none, and 1e-300
// printed step counts and FLOPs of 300 digits.
func atLeastOne(v pflag.Value) error {
	if x := *v.(target).target().(*float64); !(x >= 1) {
		return model.Msg("must be ≥ 1, got %v", x)
	}
	return nil
}

// positiveOrNone checks a target that may be none (noneFloatValue's -1).
func positiveOrNone(v pflag.Value) error {
	if *v.(target).target().(*float64) == -1 {
		return nil
	}
	return latencyMs(v)
}

// latencyMs checks a serving latency target against the [serve] keys'
// bounds (config.MinServeLatency, a policy floor: 1e-300 printed "target
// 0 ms").
func latencyMs(v pflag.Value) error {
	if x := *v.(target).target().(*float64); !(x >= config.MinServeLatency && x <= 3.6e6) {
		return model.Msg("must be %g–%.0f ms, got %v", config.MinServeLatency, 3.6e6, x)
	}
	return nil
}

// memoryShare checks vLLM's gpu_memory_utilization: vLLM takes (0, 1],
// the [serve] key a policy floor within it (config.MinGPUMemoryUtilization).
func memoryShare(v pflag.Value) error {
	if x := *v.(target).target().(*float64); !(x >= config.MinGPUMemoryUtilization && x <= 1) {
		return model.Msg("must be %g–1, got %v (0.9 is vLLM's default)", config.MinGPUMemoryUtilization, x)
	}
	return nil
}

// networkGbps checks a node network in (0, model.MaxNetworkGbps].
func networkGbps(v pflag.Value) error {
	if x := *v.(target).target().(*float64); !(x >= model.MinNetworkGbps && x <= model.MaxNetworkGbps) {
		return model.Msg("must be %d–%d Gbps per node, got %v (a DGX H100 has 8 × 400 = 3200)", model.MinNetworkGbps, model.MaxNetworkGbps, x)
	}
	return nil
}

func positive(v pflag.Value) error {
	if x := *v.(target).target().(*float64); !(x > 0) {
		return model.Msg("must be > 0, got %v", x)
	}
	return nil
}

// mfuRange checks an MFU in [model.MinMFU, 1] with the words
// Workload.Validate and a configuration file use (walk35: 1.5 and 0.001
// were told two different ranges).
func mfuRange(v pflag.Value) error {
	if x := *v.(target).target().(*float64); !(x >= model.MinMFU && x <= 1) {
		return model.Msg("must be %v–1, got %v; an MFU is a fraction: 0.4 for 40%%", model.MinMFU, x)
	}
	return nil
}

// request overlays the flags set on the command line on base, the
// --config file's request (zero without one): the one merge of flags over
// a file. Model flags replace the base's model. It checks what only flags
// can get wrong; the model itself is resolved by config.WorkloadAnswers.
func (f *workloadFlags) request(fs *pflag.FlagSet, cat *model.Catalog, base config.WorkloadAnswers) (config.WorkloadAnswers, []model.Message, error) {
	w := base
	var warnings []model.Message
	changed := fs.Changed
	anyShape := false
	for _, n := range []string{"layers", "hidden", "heads", "kv-heads", "ffn", "vocab", "family"} {
		anyShape = anyShape || changed(n)
	}
	var sources []string
	for _, n := range []string{"model", "params", "hf-config"} {
		if changed(n) {
			sources = append(sources, "--"+n)
		}
	}
	if len(sources) > 1 { // walk49: "give one of" read as if none were given
		return w, nil, usage(model.Msg("%s name the model twice: give only one of --model, --params or --hf-config", model.AndMsg(sources)))
	}
	if changed("gpu") && f.gpu == "" { // --gpu '' names no GPU: refused as --model '' is, not read as no --gpu
		return w, nil, usage(model.Msg("--gpu '': no GPU named; give one such as a100-80gb (list: gpuplan catalog gpus), or leave --gpu out"))
	}
	replaceModel := func() { w.Model, w.HFConfig, w.Custom, w.Safetensors = "", "", nil, "" }
	switch {
	case changed("model"):
		if _, err := cat.Model(f.model); err != nil {
			return w, nil, usage(model.Msg("--model: %v", err))
		}
		replaceModel()
		w.Model = f.model
	case changed("hf-config"):
		replaceModel()
		w.HFConfig = f.set.HFConfig
	case changed("params"):
		if p := f.custom.Params; p < 1 || p > model.MaxParams {
			return w, nil, usage(model.Msg("--params must be between 1 and %.0e, got %g", model.MaxParams, f.custom.Params))
		}
		replaceModel()
		w.Custom = &config.CustomModel{Params: f.custom.Params}
	case anyShape || changed("safetensors"):
	case w.Model == "" && w.HFConfig == "" && w.Custom == nil:
		return w, nil, usage(model.Msg("no model: give --model KEY (list: gpuplan catalog models), --params N, --hf-config PATH or --safetensors PATH"))
	}
	if changed("safetensors") {
		w.Safetensors = f.set.Safetensors
	}
	if anyShape {
		// A shape on the command line is a custom model; over a catalog
		// model it starts from that model's shape.
		if w.HFConfig != "" {
			return w, nil, usage(model.Msg("--layers, --hidden, --heads, --kv-heads, --ffn, --vocab and --family describe a custom model; edit the config.json instead"))
		}
		if w.Custom == nil {
			w.Custom = &config.CustomModel{}
			if w.Model != "" {
				a, err := cat.Model(w.Model)
				if err != nil {
					return w, nil, usage(model.Msg("--model: %v", err))
				}
				w.Custom = config.AnswersFor(model.Workload{Model: model.Architecture{Family: a.Family, Layers: a.Layers,
					Hidden: a.Hidden, Heads: a.Heads, KVHeads: a.KVHeads, FFN: a.FFN, Vocab: a.Vocab}}).Custom
				w.Custom.Params = 0 // the shape changes, so the catalog's count no longer holds
				w.Model = ""
			}
		}
		c := w.Custom
		if changed("family") {
			fam, err := model.ParseFamily(f.family)
			if err != nil {
				return w, nil, usage(model.Msg("--family: %v", err))
			}
			c.Family = fam
		}
		for _, s := range []struct {
			name string
			dst  *int
			v    int
		}{{"layers", &c.Layers, f.custom.Layers}, {"hidden", &c.Hidden, f.custom.Hidden}, {"heads", &c.Heads, f.custom.Heads},
			{"kv-heads", &c.KVHeads, f.custom.KVHeads}, {"ffn", &c.FFN, f.custom.FFN}, {"vocab", &c.Vocab, f.custom.Vocab}} {
			if changed(s.name) {
				if s.v < 1 && (s.name == "layers" || s.name == "hidden" || s.name == "heads") {
					// given, so not missing: say its bound (a new user's
					// --layers 0 was told "needs --layers").
					return w, nil, usage(model.Msg("--%s: %v", s.name, model.Msg("must be ≥ 1, got %d", s.v)))
				}
				*s.dst = s.v
			}
		}
		if changed("params") && (c.Layers == 0 || c.Hidden == 0 || c.Heads == 0) {
			missing := []string{}
			for _, m := range []struct {
				n string
				v int
			}{{"--layers", c.Layers}, {"--hidden", c.Hidden}, {"--heads", c.Heads}} {
				if m.v == 0 {
					missing = append(missing, m.n)
				}
			}
			return w, nil, usage(model.Msg("a custom shape needs %s as well", strings.Join(missing, ", ")))
		}
	}

	if changed("concurrency") && changed("rps") {
		return w, nil, usage(model.Msg("give --concurrency or --rps, not both"))
	}
	if changed("dataset-samples") && changed("dataset-tokens") {
		return w, nil, usage(model.Msg("give --dataset-samples or --dataset-tokens, not both"))
	}
	if err := f.merge(fs, &w); err != nil {
		return w, nil, err
	}
	// One flag of a pair replaces the file's other.
	if changed("dataset-samples") {
		w.DatasetTokens = 0
	}
	if changed("dataset-tokens") {
		w.DatasetSamples = 0
	}
	if changed("concurrency") {
		w.Serve.RequestsPerSec = 0
	}
	if changed("rps") {
		w.Serve.Concurrency = 0
	}
	// With several GPUs and no strategy, DDP: Defaults does this, and
	// the request leaves it unnamed so recommend may shard where data
	// parallel does not fit (config.WorkloadAnswers.NamesStrategy), as
	// without --gpus. A file's strategy = "single" under --gpus N is
	// data parallel, named.
	if changed("gpus") {
		w.AutoGPUs = false
	}
	if changed("gpus") && !changed("strategy") && w.GPUs > 1 && w.Strategy == model.Single {
		w.Strategy = model.DDP
	}
	if err := w.CheckRanges(); err != nil { // the configuration's bounds, one source for keys and flags
		return w, nil, rangeError(err)
	}
	if changed("strategy") && f.set.Strategy == model.Single && w.GPUs/max(w.TP, 1) > 1 {
		warnings = append(warnings, model.Msg("--strategy single with %d GPUs: estimating as ddp (data parallel)", w.GPUs))
	}
	return w, warnings, nil
}

// ignoredFlags warns about flags that do not apply to the resolved
// workload w.
func ignoredFlags(fs *pflag.FlagSet, w *model.Workload) []model.Message {
	changed := fs.Changed
	var warnings []model.Message
	vision := w.Model.Family.Vision()
	task := w.Task
	if task == "" {
		task = model.TaskTrain
	}
	for _, ig := range []struct {
		flag string
		when bool
		why  string
	}{
		{"seq-len", vision, "a vision model takes --image-size"},
		{"image-size", !vision && w.Model.Family != "", "a text model takes --seq-len"},
		{"lora-rank", !task.Adapters(), "only lora and qlora train adapters"},
		{"lora-targets", !task.Adapters(), "only lora and qlora train adapters"},
		{"context-len", task != model.TaskInference, "it is for --task inference"},
		{"sequences", task != model.TaskInference, "it is for --task inference"},
		{"gen-tokens", task != model.TaskInference, "it is for --task inference"},
		{"optimizer", task == model.TaskInference, "inference has no optimizer"},
		{"grad-accum", task == model.TaskInference, "inference has no gradients"},
		// Activation checkpointing recomputes in backward what forward did
		// not keep; inference has no backward (walk49: taken silently).
		{"checkpointing", task == model.TaskInference, "inference keeps no activations for a backward pass"},
	} {
		if changed(ig.flag) && ig.when {
			warnings = append(warnings, model.Msg("--%s ignored: %v", ig.flag, model.Msg(ig.why)))
		}
	}
	for _, n := range serveFlagNames {
		if changed(n) && task != model.TaskInference {
			warnings = append(warnings, model.Msg("--%s ignored: it is for --task inference", n))
		}
	}
	return append(warnings, ignoredEstimatorFlags(fs, w)...)
}

// unusedEpochs warns when --epochs is given and no dataset size is
// (flags or file): estimate and recommend read the epochs only for job
// time and cost, which need the dataset, so they would take the flag and
// print nothing of it, as --mfu without --gpu. Serving (vLLM's layout for
// a load) reads no dataset at all: there the dataset flags are said
// ignored too. export writes the epochs as the script's
// --num_train_epochs and does not call this.
func unusedEpochs(fs *pflag.FlagSet, w *model.Workload, serving bool) []model.Message {
	if serving {
		var out []model.Message
		for _, n := range []string{"dataset-samples", "dataset-tokens", "epochs"} {
			if fs.Changed(n) {
				out = append(out, model.Msg("--%s ignored: %v", n, model.Msg("serving is sized for a load (--concurrency or --rps), not a dataset")))
			}
		}
		return out
	}
	if !fs.Changed("epochs") || w.DatasetSamples > 0 || w.DatasetTokens > 0 {
		return nil
	}
	return []model.Message{model.Msg("--%s ignored: %v", "epochs", model.Msg("it multiplies a dataset: give --dataset-samples or --dataset-tokens for job time and cost"))}
}

// flagName maps a TOML key from a model.FieldError to its flag.
// Every flag is its key with dashes: batch_size → --batch-size.
func flagName(key string) string { return "--" + strings.ReplaceAll(key, "_", "-") }
