package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gpuplan/gpuplan/model"
)

// workloadFlags are the flags shared by estimate, recommend and export:
// one per Workload field, named like the TOML keys with dashes.
type workloadFlags struct {
	model, family                  string
	params                         float64
	layers, hidden, heads, kvHeads int
	ffn, vocab                     int
	hfConfig, safetensors          string

	framework model.Framework
	task      model.Task
	precision model.Precision
	optimizer model.Optimizer
	strategy  model.Strategy

	batch, seqLen, imageSize, gradAccum int
	checkpointing, flash                bool
	loraRank                            int
	loraTargets                         []string
	datasetSamples, datasetTokens       float64
	epochs                              float64
	gpus, tp                            int
	contextLen, sequences, genTokens    int
	mfu                                 float64
	gpu                                 string
	est                                 estimatorFlags // recipe, loss, quant type (estimator.go)
	serve                               serveFlags
}

func (f *workloadFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.model, "model", "", "catalog model key or alias, e.g. llama-3.1-8b (list: gpuplan catalog models)")
	fs.Var(quantityValue{&f.params}, "params", "parameter count of a custom model: 7e9, 7B, 110M")
	fs.StringVar(&f.family, "family", "", "custom model family: decoder, encoder, encoder-decoder, vit, cnn or unet (default decoder)")
	fs.Var(intValue{&f.layers}, "layers", "custom model: transformer blocks")
	fs.Var(intValue{&f.hidden}, "hidden", "custom model: hidden size (d_model)")
	fs.Var(intValue{&f.heads}, "heads", "custom model: attention heads")
	fs.Var(intValue{&f.kvHeads}, "kv-heads", "custom model: key/value heads for GQA/MQA (default: heads)")
	fs.Var(intValue{&f.ffn}, "ffn", "custom model: MLP inner size (default 4 × hidden)")
	fs.Var(intValue{&f.vocab}, "vocab", "custom model: vocabulary size (default 32000)")
	fs.StringVar(&f.hfConfig, "hf-config", "", "read the architecture from a Hugging Face config.json (file or directory)")
	fs.StringVar(&f.safetensors, "safetensors", "", "count parameters from .safetensors headers (file or directory)")

	fs.Var(enumValue[model.Framework]{&f.framework, model.ParseFramework, model.Frameworks}, "framework", "pytorch, tensorflow or jax (default pytorch)")
	fs.Var(enumValue[model.Task]{&f.task, model.ParseTask, model.Tasks}, "task", "train, finetune, lora, qlora or inference (default train)")
	fs.Var(enumValue[model.Precision]{&f.precision, model.ParsePrecision, append(append([]model.Precision{}, model.TrainingPrecisions...), model.FP16, model.INT8, model.INT4)}, "precision", "training: amp-bf16, amp-fp16, bf16, fp32, tf32, fp8; inference: bf16, fp16, fp32, fp8, int8, int4")
	fs.Var(enumValue[model.Optimizer]{&f.optimizer, model.ParseOptimizer, model.Optimizers}, "optimizer", "adamw, adam, sgd, sgd-momentum, adafactor or adamw-8bit (default adamw)")
	fs.Var(enumValue[model.Strategy]{&f.strategy, model.ParseStrategy, model.Strategies}, "strategy", "single, ddp, fsdp, zero1, zero2 or zero3 (default single, ddp with several GPUs)")

	fs.Var(intValue{&f.batch}, "batch-size", "micro-batch per GPU (default: the model's)")
	fs.Var(tokensValue{&f.seqLen}, "seq-len", "tokens per sample; 8k is 8192 (default: the model's)")
	fs.Var(intValue{&f.imageSize}, "image-size", "pixels per side for vision models (default: the model's)")
	fs.Var(intValue{&f.gradAccum}, "grad-accum", "micro-batches per optimizer step (default 1)")
	fs.BoolVar(&f.checkpointing, "checkpointing", false, "full activation checkpointing (default on for qlora, as PEFT does)")
	fs.BoolVar(&f.flash, "flash-attention", false, "fused (flash) attention; =false stores the attention matrix (default: on for PyTorch, off for TensorFlow and JAX)")
	fs.Var(intValue{&f.loraRank}, "lora-rank", "LoRA rank r (default 16)")
	fs.StringSliceVar(&f.loraTargets, "lora-targets", nil, "LoRA target projections: q,k,v,o,gate,up,down (default q,k,v,o)")
	fs.Var(quantityValue{&f.datasetSamples}, "dataset-samples", "samples (images, sequences, requests) per epoch: 1.28M")
	fs.Var(quantityValue{&f.datasetTokens}, "dataset-tokens", "tokens per epoch: 2T")
	fs.Var(floatValue{&f.epochs}, "epochs", "passes over the dataset (default 1)")
	fs.Var(intValue{&f.gpus}, "gpus", "total GPUs (default 1)")
	fs.Var(intValue{&f.tp}, "tp", "tensor-parallel degree (default 1)")
	fs.Var(tokensValue{&f.contextLen}, "context-len", "inference: tokens per sequence in the KV cache, prompt + generated; 8k is 8192 (default: seq-len)")
	fs.Var(intValue{&f.sequences}, "sequences", "inference: sequences decoded concurrently (default: batch-size)")
	fs.Var(tokensValue{&f.genTokens}, "gen-tokens", "inference: tokens generated per sequence; 1k is 1024 (default 256)")
	fs.Var(floatValue{&f.mfu}, "mfu", "model FLOPs utilisation 0–1 for time estimates (default: calibrated per family and precision)")
	fs.StringVar(&f.gpu, "gpu", "", "GPU for time and fit, e.g. a100-80gb (list: gpuplan catalog gpus)")
	f.est.register(fs)
	f.serve.register(fs)
}

// request overlays the flags set on the command line on base, the
// --config file's request (zero without one): the one merge of flags over
// a file. Model flags replace the base's model. It checks what only flags
// can get wrong; the model itself is resolved by model.WorkloadAnswers.
func (f *workloadFlags) request(fs *pflag.FlagSet, cat *model.Catalog, base model.WorkloadAnswers) (model.WorkloadAnswers, []string, error) {
	w := base
	var warnings []string
	changed := fs.Changed
	anyShape := false
	for _, n := range []string{"layers", "hidden", "heads", "kv-heads", "ffn", "vocab", "family"} {
		anyShape = anyShape || changed(n)
	}
	sources := 0
	for _, n := range []string{"model", "params", "hf-config"} {
		if changed(n) {
			sources++
		}
	}
	if sources > 1 {
		return w, nil, usage(errors.New("give one of --model, --params or --hf-config"))
	}
	replaceModel := func() { w.Model, w.HFConfig, w.Custom, w.Safetensors = "", "", nil, "" }
	switch {
	case changed("model"):
		if _, err := cat.Model(f.model); err != nil {
			return w, nil, usage(fmt.Errorf("--model: %w", err))
		}
		replaceModel()
		w.Model = f.model
	case changed("hf-config"):
		replaceModel()
		w.HFConfig = f.hfConfig
	case changed("params"):
		if f.params < 1 || f.params > model.MaxParams {
			return w, nil, usage(fmt.Errorf("--params must be between 1 and %.0e, got %g", model.MaxParams, f.params))
		}
		replaceModel()
		w.Custom = &model.CustomModel{Params: f.params}
	case anyShape || changed("safetensors"):
	case w.Model == "" && w.HFConfig == "" && w.Custom == nil:
		return w, nil, usage(errors.New("no model: give --model KEY (list: gpuplan catalog models), --params N, --hf-config PATH or --safetensors PATH"))
	}
	if changed("safetensors") {
		w.Safetensors = f.safetensors
	}
	if anyShape {
		// A shape on the command line is a custom model; over a catalog
		// model it starts from that model's shape.
		if w.HFConfig != "" {
			return w, nil, usage(errors.New("--layers, --hidden, --heads, --kv-heads, --ffn, --vocab and --family describe a custom model; edit the config.json instead"))
		}
		if w.Custom == nil {
			w.Custom = &model.CustomModel{}
			if w.Model != "" {
				a, err := cat.Model(w.Model)
				if err != nil {
					return w, nil, usage(fmt.Errorf("--model: %w", err))
				}
				w.Custom = model.AnswersFor(model.Workload{Model: model.Architecture{Family: a.Family, Layers: a.Layers,
					Hidden: a.Hidden, Heads: a.Heads, KVHeads: a.KVHeads, FFN: a.FFN, Vocab: a.Vocab}}).Custom
				w.Custom.Params = 0 // the shape changes, so the catalog's count no longer holds
				w.Model = ""
			}
		}
		c := w.Custom
		if changed("family") {
			fam, err := model.ParseFamily(f.family)
			if err != nil {
				return w, nil, usage(fmt.Errorf("--family: %w", err))
			}
			c.Family = fam
		}
		for _, s := range []struct {
			name string
			dst  *int
			v    int
		}{{"layers", &c.Layers, f.layers}, {"hidden", &c.Hidden, f.hidden}, {"heads", &c.Heads, f.heads},
			{"kv-heads", &c.KVHeads, f.kvHeads}, {"ffn", &c.FFN, f.ffn}, {"vocab", &c.Vocab, f.vocab}} {
			if changed(s.name) {
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
			return w, nil, usage(fmt.Errorf("a custom shape needs %s as well", strings.Join(missing, ", ")))
		}
	}

	if changed("framework") {
		w.Framework = f.framework
	}
	if changed("task") {
		w.Task = f.task
	}
	if changed("precision") {
		w.Precision = f.precision
	}
	if changed("optimizer") {
		w.Optimizer = f.optimizer
	}
	if changed("strategy") {
		w.Strategy = f.strategy
	}
	ints := []struct {
		name string
		dst  *int
		v    int
	}{
		{"batch-size", &w.MicroBatch, f.batch}, {"seq-len", &w.SeqLen, f.seqLen}, {"image-size", &w.ImageSize, f.imageSize},
		{"grad-accum", &w.GradAccum, f.gradAccum}, {"lora-rank", &w.LoRARank, f.loraRank}, {"gpus", &w.GPUs, f.gpus},
		{"tp", &w.TP, f.tp}, {"context-len", &w.ContextLen, f.contextLen}, {"sequences", &w.Sequences, f.sequences},
		{"gen-tokens", &w.GenTokens, f.genTokens},
	}
	for _, i := range ints {
		if changed(i.name) {
			if i.v <= 0 && i.name != "gen-tokens" {
				return w, nil, usage(fmt.Errorf("--%s must be ≥ 1, got %d", i.name, i.v))
			}
			*i.dst = i.v
		}
	}
	if changed("checkpointing") {
		w.Checkpointing = model.Bool(f.checkpointing)
	}
	if changed("flash-attention") {
		w.FlashAttention = model.Bool(f.flash)
	}
	if changed("lora-targets") {
		w.LoRATargets = f.loraTargets
	}
	if changed("dataset-samples") {
		w.DatasetSamples, w.DatasetTokens = f.datasetSamples, 0
	}
	if changed("dataset-tokens") {
		w.DatasetTokens, w.DatasetSamples = f.datasetTokens, 0
	}
	if changed("dataset-samples") && changed("dataset-tokens") {
		return w, nil, usage(errors.New("give --dataset-samples or --dataset-tokens, not both"))
	}
	if changed("epochs") {
		if !(f.epochs > 0) {
			return w, nil, usage(fmt.Errorf("--epochs must be > 0, got %v", f.epochs))
		}
		w.Epochs = f.epochs
	}
	if changed("mfu") {
		if !(f.mfu > 0 && f.mfu <= 1) {
			return w, nil, usage(fmt.Errorf("--mfu must be in (0, 1], got %v (0.4 means 40%% of peak)", f.mfu))
		}
		w.MFU = f.mfu
	}
	f.est.apply(fs, &w)
	// With several GPUs and no strategy, DDP; Defaults does this too.
	if changed("gpus") {
		w.AutoGPUs = false
	}
	if changed("gpus") && !changed("strategy") && w.GPUs > 1 && (w.Strategy == "" || w.Strategy == model.Single) {
		w.Strategy = model.DDP
	}
	if err := f.serve.apply(fs, &w); err != nil {
		return w, nil, err
	}
	if changed("strategy") && f.strategy == model.Single && w.GPUs/max(w.TP, 1) > 1 {
		warnings = append(warnings, fmt.Sprintf("--strategy single with %d GPUs: estimating as ddp (data parallel)", w.GPUs))
	}
	return w, warnings, nil
}

// ignoredFlags warns about flags that do not apply to the resolved
// workload w.
func ignoredFlags(fs *pflag.FlagSet, w *model.Workload) []string {
	changed := fs.Changed
	var warnings []string
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
	} {
		if changed(ig.flag) && ig.when {
			warnings = append(warnings, fmt.Sprintf("--%s ignored: %s", ig.flag, ig.why))
		}
	}
	for _, n := range serveFlagNames {
		if changed(n) && task != model.TaskInference {
			warnings = append(warnings, fmt.Sprintf("--%s ignored: it is for --task inference", n))
		}
	}
	return append(warnings, ignoredEstimatorFlags(fs, w)...)
}

// flagName maps a TOML key from a model.FieldError to its flag.
// Every flag is its key with dashes: batch_size → --batch-size.
func flagName(key string) string { return "--" + strings.ReplaceAll(key, "_", "-") }
