package cli

import (
	"cmp"
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
}

// resolver turns a model name, config.json or safetensors path into an
// architecture; main wires the data package's readers in.
type resolver struct {
	catalog     *model.Catalog
	hfConfig    func(path string) (model.Architecture, model.Precision, []string, error)
	safetensors func(path string) (float64, []string, error)
}

// build returns the workload the flags describe over base (from --config;
// zero for none): flags set on the command line win, and model flags
// replace the base's model. Warnings are for the user, not errors.
func (f *workloadFlags) build(fs *pflag.FlagSet, r *resolver, base model.Workload) (model.Workload, []string, error) {
	w := base
	var warnings []string
	changed := fs.Changed
	shapeFlags := []string{"layers", "hidden", "heads", "kv-heads", "ffn", "vocab", "family"}
	anyShape := false
	for _, n := range shapeFlags {
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
	var hfPrecision model.Precision
	switch {
	case changed("model"):
		a, err := r.catalog.Model(f.model)
		if err != nil {
			return w, nil, usage(fmt.Errorf("--model: %w", err))
		}
		w.Model = *a
	case changed("hf-config"):
		if r.hfConfig == nil {
			return w, nil, usage(errors.New("--hf-config is not available in this build"))
		}
		a, p, ws, err := r.hfConfig(f.hfConfig)
		if err != nil {
			return w, nil, usage(fmt.Errorf("--hf-config: %w", err))
		}
		w.Model, hfPrecision = a, p
		warnings = append(warnings, ws...)
	case changed("params"):
		if f.params < 1 || f.params > model.MaxParams {
			return w, nil, usage(fmt.Errorf("--params must be between 1 and %.0e, got %g", model.MaxParams, f.params))
		}
		w.Model = model.Architecture{Family: model.FamilyDecoder, Params: f.params}
	case anyShape:
		if w.Model.Key == "" && w.Model.Params == 0 && !w.Model.HasShape() {
			w.Model = model.Architecture{Family: model.FamilyDecoder}
		}
	case w.Model.Family == "" && w.Model.Params == 0 && !changed("safetensors"):
		return w, nil, usage(errors.New("no model: give --model KEY (list: gpuplan catalog models), --params N, --hf-config PATH or --safetensors PATH"))
	}
	if changed("safetensors") {
		if r.safetensors == nil {
			return w, nil, usage(errors.New("--safetensors is not available in this build"))
		}
		n, ws, err := r.safetensors(f.safetensors)
		if err != nil {
			return w, nil, usage(fmt.Errorf("--safetensors: %w", err))
		}
		warnings = append(warnings, ws...)
		switch {
		case w.Model.Family == "":
			w.Model = model.Architecture{Family: model.FamilyDecoder, Params: n}
		case w.Model.HasShape():
			// The shape (config.json or catalog) gives activations and FLOPs;
			// the headers count the checkpoint. More parameters in the headers go
			// to ExtraParams (MoE active counts survive); fewer usually means
			// packed quantized weights, so the shape's count stays.
			formula := w.Model.ParamCount()
			from := "the config.json shape"
			if !changed("hf-config") {
				from = "the catalog's " + w.Model.Key
			}
			if n > formula {
				w.Model.ExtraParams += n - formula
			}
			if d := (n - formula) / formula; d > 0.01 || d < -0.01 {
				keep := "the checkpoint's count"
				if n < formula {
					keep = "the shape's count (a smaller checkpoint is usually packed quantized weights)"
				}
				warnings = append(warnings, fmt.Sprintf("--safetensors counts %s parameters, %s %s; using %s",
					model.FormatCount(n), from, model.FormatCount(formula), keep))
			}
		default:
			w.Model.Params = n
		}
	}
	if anyShape {
		a := &w.Model
		if changed("family") {
			fam, err := model.ParseFamily(f.family)
			if err != nil {
				return w, nil, usage(fmt.Errorf("--family: %w", err))
			}
			a.Family = fam
		}
		setInt := func(name string, dst *int, v int) {
			if changed(name) {
				*dst = v
			}
		}
		setInt("layers", &a.Layers, f.layers)
		setInt("hidden", &a.Hidden, f.hidden)
		setInt("heads", &a.Heads, f.heads)
		setInt("kv-heads", &a.KVHeads, f.kvHeads)
		setInt("ffn", &a.FFN, f.ffn)
		setInt("vocab", &a.Vocab, f.vocab)
		if a.FFN == 0 && a.Hidden > 0 {
			a.FFN = 4 * a.Hidden
		}
		if a.Vocab == 0 && a.Family.Transformer() && a.Family != model.FamilyViT {
			a.Vocab = 32000
		}
		if a.Key != "" && !changed("params") { // a catalog model with a changed shape is a custom model
			a.Key, a.Name, a.Params, a.PublishedParams = "", "custom "+a.Name, 0, 0
		}
		if changed("layers") && a.Family == model.FamilyEncoderDecoder && a.DecoderLayers == 0 {
			a.DecoderLayers = a.Layers
		}
		if changed("params") && !a.HasShape() {
			missing := []string{}
			for _, m := range []struct {
				n string
				v int
			}{{"--layers", a.Layers}, {"--hidden", a.Hidden}, {"--heads", a.Heads}} {
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
	} else if hfPrecision != "" && w.Precision == "" { // the checkpoint's format: model.FromCheckpoint's rule
		task, p, note := model.FromCheckpoint(cmp.Or(w.Task, model.TaskTrain), hfPrecision)
		if task != cmp.Or(w.Task, model.TaskTrain) {
			w.Task = task
		}
		if w.Precision = p; note != "" {
			warnings = append(warnings, note)
		}
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
	// Flags that do not apply to this workload are ignored: say so.
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
	// With several GPUs and no strategy, DDP; Defaults does this too.
	if changed("gpus") && !changed("strategy") && w.GPUs > 1 && (w.Strategy == "" || w.Strategy == model.Single) {
		w.Strategy = model.DDP
	}
	if changed("strategy") && f.strategy == model.Single && w.GPUs/max(w.TP, 1) > 1 {
		warnings = append(warnings, fmt.Sprintf("--strategy single with %d GPUs: estimating as ddp (data parallel)", w.GPUs))
	}
	return w, warnings, nil
}

// flagName maps a TOML key from a model.FieldError to its flag.
// Every flag is its key with dashes: batch_size → --batch-size.
func flagName(key string) string { return "--" + strings.ReplaceAll(key, "_", "-") }
