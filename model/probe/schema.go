package probe

import (
	"fmt"
	"strings"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/show"
)

// Schema is the version of the probe's JSON line this package reads.
const Schema = 1

// Settings are a training workload as the calibration suite spells it
// (data/testdata/calibration/cases.toml, calCase in data/calibration_test.go):
// the probe script echoes them as its result's "plan", and a kept case
// carries them, so a measurement becomes a suite case key for key. Model
// is a catalog key, or the Arch's key for a model outside the catalog.
type Settings struct {
	Model         string   `toml:"model" json:"model"`
	GPU           string   `toml:"gpu" json:"gpu"`
	GPUs          int      `toml:"gpus" json:"gpus"`
	Task          string   `toml:"task" json:"task"`
	Precision     string   `toml:"precision" json:"precision"`
	Strategy      string   `toml:"strategy,omitempty" json:"strategy,omitempty"`
	TP            int      `toml:"tp,omitempty,omitzero" json:"tp,omitempty"`
	Framework     string   `toml:"framework,omitempty" json:"framework,omitempty"`
	OffloadOpt    bool     `toml:"offload_optimizer,omitempty" json:"offload_optimizer,omitempty"`
	OffloadParams bool     `toml:"offload_params,omitempty" json:"offload_params,omitempty"`
	OptInBwd      bool     `toml:"optimizer_in_backward,omitempty" json:"optimizer_in_backward,omitempty"`
	ChannelsLast  bool     `toml:"channels_last,omitempty" json:"channels_last,omitempty"`
	Recipe        string   `toml:"recipe,omitempty" json:"recipe,omitempty"`
	Loss          string   `toml:"loss,omitempty" json:"loss,omitempty"`
	Optimizer     string   `toml:"optimizer,omitempty" json:"optimizer,omitempty"`
	Batch         int      `toml:"batch" json:"batch"`
	GradAccum     int      `toml:"grad_accum,omitempty,omitzero" json:"grad_accum,omitempty"`
	SeqLen        int      `toml:"seq_len,omitempty,omitzero" json:"seq_len,omitempty"`
	ImageSize     int      `toml:"image_size,omitempty,omitzero" json:"image_size,omitempty"`
	Flash         *bool    `toml:"flash,omitempty" json:"flash,omitempty"`
	Checkpointing *bool    `toml:"checkpointing,omitempty" json:"checkpointing,omitempty"`
	LoRARank      int      `toml:"lora_rank,omitempty,omitzero" json:"lora_rank,omitempty"`
	LoRATargets   []string `toml:"lora_targets,omitempty" json:"lora_targets,omitempty"`
	LoRADropout   float64  `toml:"lora_dropout,omitempty,omitzero" json:"lora_dropout,omitempty"`
	QuantType     string   `toml:"quant_type,omitempty" json:"quant_type,omitempty"`
	DoubleQuant   *bool    `toml:"double_quant,omitempty" json:"double_quant,omitempty"`
	// Torch is the PyTorch release, major.minor (model.TorchVersion;
	// empty: model.DefaultTorch); Trainer the training library
	// (model.Trainer; empty: hf).
	Torch   string `toml:"torch,omitempty" json:"torch,omitempty"`
	Trainer string `toml:"trainer,omitempty" json:"trainer,omitempty"`
	// ZeroGrad is where the loop calls optimizer.zero_grad()
	// (model.ZeroGrad; empty: after-step).
	ZeroGrad string `toml:"zero_grad,omitempty" json:"zero_grad,omitempty"`
	// Outputs is how long the loop holds the model's outputs
	// (model.Outputs; empty: dropped).
	Outputs string `toml:"outputs,omitempty" json:"outputs,omitempty"`
}

// Arch is a model outside the catalog in the suite's [[arch]] keys
// (calArch in data/calibration_test.go: the catalog's model keys of
// data/catalog/models.toml) plus the shape fields a config.json model may
// have beyond them; the suite's [[arch]] export keeps the former.
type Arch struct {
	Key     string `toml:"key" json:"key"`
	Family  string `toml:"family" json:"family"`
	Layers  int    `toml:"layers" json:"layers"`
	Hidden  int    `toml:"hidden" json:"hidden"`
	Heads   int    `toml:"heads" json:"heads"`
	FFN     int    `toml:"ffn,omitempty,omitzero" json:"ffn,omitempty"`
	Vocab   int    `toml:"vocab,omitempty,omitzero" json:"vocab,omitempty"`
	Norm    string `toml:"norm,omitempty" json:"norm,omitempty"`
	Tied    bool   `toml:"tied_embeddings,omitempty" json:"tied_embeddings,omitempty"`
	KVHeads int    `toml:"kv_heads,omitempty,omitzero" json:"kv_heads,omitempty"`
	Gated   bool   `toml:"gated_mlp,omitempty" json:"gated_mlp,omitempty"`

	LinearBias       bool    `toml:"linear_bias,omitempty" json:"linear_bias,omitempty"`
	QKVBias          bool    `toml:"qkv_bias,omitempty" json:"qkv_bias,omitempty"`
	FusedQKV         bool    `toml:"fused_qkv,omitempty" json:"fused_qkv,omitempty"`
	FusedGateUp      bool    `toml:"fused_gate_up,omitempty" json:"fused_gate_up,omitempty"`
	LearnedPositions int     `toml:"learned_positions,omitempty,omitzero" json:"learned_positions,omitempty"`
	MaxPositions     int     `toml:"max_positions,omitempty,omitzero" json:"max_positions,omitempty"`
	PatchSize        int     `toml:"patch_size,omitempty,omitzero" json:"patch_size,omitempty"`
	Channels         int     `toml:"channels,omitempty,omitzero" json:"channels,omitempty"`
	ImageSize        int     `toml:"image_size,omitempty,omitzero" json:"image_size,omitempty"`
	NormsPerLayer    int     `toml:"norms_per_layer,omitempty,omitzero" json:"norms_per_layer,omitempty"`
	Dropout          bool    `toml:"dropout,omitempty" json:"dropout,omitempty"`
	ExtraParams      float64 `toml:"extra_params,omitempty,omitzero" json:"extra_params,omitempty"`
	HeadDim          int     `toml:"head_dim,omitempty,omitzero" json:"head_dim,omitempty"`
	ModelType        string  `toml:"model_type,omitempty" json:"model_type,omitempty"`
	Activation       string  `toml:"activation,omitempty" json:"activation,omitempty"`
	ParallelResidual bool    `toml:"parallel_residual,omitempty" json:"parallel_residual,omitempty"`
	Source           string  `toml:"source,omitempty" json:"source,omitempty"`

	// Beyond the suite's [[arch]] keys.
	DecoderLayers   int     `toml:"decoder_layers,omitempty,omitzero" json:"decoder_layers,omitempty"`
	Experts         int     `toml:"experts,omitempty,omitzero" json:"experts,omitempty"`
	ExpertsPerToken int     `toml:"experts_per_token,omitempty,omitzero" json:"experts_per_token,omitempty"`
	Params          float64 `toml:"params,omitempty,omitzero" json:"params,omitempty"`
}

// SuiteOnly reports whether the suite's [[arch]] keys say all of a: the
// suite's calibration test rebuilds the architecture from them alone.
func (a *Arch) SuiteOnly() bool {
	return a.DecoderLayers == 0 && a.Experts == 0 && a.ExpertsPerToken == 0 && a.Params == 0
}

// ArchOf returns a as the probe's Arch, keyed by key.
func ArchOf(key string, a *model.Architecture) *Arch {
	return &Arch{Key: key, Family: string(a.Family), Layers: a.Layers, Hidden: a.Hidden, Heads: a.Heads, FFN: a.FFN,
		Vocab: a.Vocab, Norm: string(a.Norm), Tied: a.Tied, KVHeads: a.KVHeads, Gated: a.GatedMLP,
		LinearBias: a.LinearBias, QKVBias: a.QKVBias, FusedQKV: a.FusedQKV, FusedGateUp: a.FusedGateUp,
		LearnedPositions: a.LearnedPositions, MaxPositions: a.MaxPositions, PatchSize: a.PatchSize, Channels: a.Channels,
		ImageSize: a.ImageSize, NormsPerLayer: a.NormsPerLayer, Dropout: a.Dropout, ExtraParams: a.ExtraParams,
		HeadDim: a.HeadDim, ModelType: a.ModelType, Activation: a.Activation, ParallelResidual: a.ParallelResidual,
		Source: a.Source, DecoderLayers: a.DecoderLayers, Experts: a.Experts, ExpertsPerToken: a.ExpertsPerToken,
		Params: a.Params}
}

// Architecture returns a as a model architecture, as the calibration test
// builds its [[arch]] entries (data/calibration_test.go prepareCases).
func (a *Arch) Architecture() (model.Architecture, error) {
	fam, err := model.ParseFamily(a.Family)
	if err != nil {
		return model.Architecture{}, model.Msg("arch.family: %v", err)
	}
	out := model.Architecture{Key: a.Key, Name: a.Key, Family: fam, Layers: a.Layers, Hidden: a.Hidden, Heads: a.Heads,
		FFN: a.FFN, Vocab: a.Vocab, Norm: model.Norm(a.Norm), Tied: a.Tied, KVHeads: a.KVHeads, GatedMLP: a.Gated,
		LinearBias: a.LinearBias, QKVBias: a.QKVBias, FusedQKV: a.FusedQKV, FusedGateUp: a.FusedGateUp,
		LearnedPositions: a.LearnedPositions, MaxPositions: a.MaxPositions, PatchSize: a.PatchSize, Channels: a.Channels,
		ImageSize: a.ImageSize, NormsPerLayer: a.NormsPerLayer, Dropout: a.Dropout, ExtraParams: a.ExtraParams,
		HeadDim: a.HeadDim, ModelType: a.ModelType, Activation: a.Activation, ParallelResidual: a.ParallelResidual,
		Source: a.Source, DecoderLayers: a.DecoderLayers, Experts: a.Experts, ExpertsPerToken: a.ExpertsPerToken,
		Params: a.Params}
	if err := out.Validate(); err != nil {
		return out, model.Msg("arch %s: %v", show.Printable(a.Key), err)
	}
	return out, nil
}

// SettingsFor returns the suite's keys for w, the workload as estimated
// (after Defaults and any precision fallback), on GPU gpu: the resolved
// recipe, and the loss for a decoder LM. model is the catalog key, or the
// key of an Arch for a model outside it.
func SettingsFor(w *model.Workload, gpu, modelKey string) Settings {
	s := Settings{Model: modelKey, GPU: gpu, GPUs: w.GPUs, Task: string(w.Task), Precision: string(w.Precision),
		Optimizer: string(w.Optimizer), Batch: w.MicroBatch, GradAccum: w.GradAccum, ImageSize: w.ImageSize,
		Flash: model.Bool(w.Flash()), LoRARank: w.LoRARank, LoRADropout: w.LoRADropout}
	if w.Strategy != model.Single {
		s.Strategy = string(w.Strategy)
	}
	if w.TP > 1 {
		s.TP = w.TP
	}
	if w.Framework != "" && w.Framework != model.PyTorch {
		s.Framework = string(w.Framework)
	}
	s.OffloadOpt, s.OffloadParams, s.OptInBwd, s.ChannelsLast = w.OffloadOptimizer, w.OffloadParams, w.OptimizerInBackward, w.ChannelsLast
	if !w.Torch.IsZero() && w.Torch != model.DefaultTorch {
		s.Torch = w.Torch.String()
	}
	if w.Trainer != "" && w.Trainer != model.TrainerHF {
		s.Trainer = string(w.Trainer)
	}
	if w.ZeroGrad != "" && w.ZeroGrad != model.ZeroGradAfterStep {
		s.ZeroGrad = string(w.ZeroGrad)
	}
	if w.Outputs != "" && w.Outputs != model.OutputsDropped {
		s.Outputs = string(w.Outputs)
	}
	if !w.Model.Family.Vision() {
		s.SeqLen = w.SeqLen
	}
	if !w.Model.Family.HasAttention() {
		s.Flash = nil
	}
	if w.Task.Training() {
		s.Recipe = string(w.TrainingRecipe())
		s.Checkpointing = model.Bool(w.Ckpt())
	} else {
		s.Optimizer = ""
	}
	if w.Model.Family == model.FamilyDecoder && w.Task.Training() {
		s.Loss = string(w.LossImpl())
	}
	if w.Task.Adapters() {
		s.LoRATargets = append([]string(nil), w.LoRATargets...)
	}
	if w.Task == model.TaskQLoRA {
		q, dq := w.FourBit()
		s.QuantType, s.DoubleQuant = string(q), model.Bool(dq)
	}
	return s
}

// Workload returns the workload s describes, the GPU it ran on and its
// architecture, as the calibration test's runCase builds them
// (data/calibration_test.go): the model from arch when its key is the
// model's, else from the catalog. Errors name the key that is wrong.
func (s *Settings) Workload(cat *model.Catalog, arch *Arch) (model.Workload, *model.GPU, error) {
	var a model.Architecture
	switch {
	case arch != nil && arch.Key == s.Model:
		var err error
		if a, err = arch.Architecture(); err != nil {
			return model.Workload{}, nil, err
		}
	default:
		m, err := cat.Model(s.Model)
		if err != nil {
			return model.Workload{}, nil, model.Msg("model: %v", err)
		}
		a = *m
	}
	g, err := cat.GPU(s.GPU)
	if err != nil {
		return model.Workload{}, nil, model.Msg("gpu: %v", err)
	}
	w := model.Workload{
		Settings: model.Settings{MicroBatch: s.Batch, GradAccum: s.GradAccum, SeqLen: s.SeqLen, ImageSize: s.ImageSize,
			GPUs: s.GPUs, FlashAttention: s.Flash, Checkpointing: s.Checkpointing, LoRARank: s.LoRARank,
			LoRATargets: append([]string(nil), s.LoRATargets...), DoubleQuant: s.DoubleQuant, TP: s.TP,
			Switches: model.Switches{OffloadOptimizer: s.OffloadOpt, OffloadParams: s.OffloadParams, OptimizerInBackward: s.OptInBwd, ChannelsLast: s.ChannelsLast}},
		Model:       a,
		LoRADropout: s.LoRADropout,
	}
	parse := []struct {
		key string
		f   func() error
	}{
		{"torch", func() error { return optional(s.Torch, model.ParseTorchVersion, &w.Torch) }},
		{"trainer", func() error { return optional(s.Trainer, model.ParseTrainer, &w.Trainer) }},
		{"zero_grad", func() error { return optional(s.ZeroGrad, model.ParseZeroGrad, &w.ZeroGrad) }},
		{"outputs", func() error { return optional(s.Outputs, model.ParseOutputs, &w.Outputs) }},
		{"framework", func() error { return optional(s.Framework, model.ParseFramework, &w.Framework) }},
		{"task", func() (err error) { w.Task, err = model.ParseTask(s.Task); return }},
		{"precision", func() (err error) { w.Precision, err = model.ParsePrecision(s.Precision); return }},
		{"strategy", func() error { return optional(s.Strategy, model.ParseStrategy, &w.Strategy) }},
		{"optimizer", func() error { return optional(s.Optimizer, model.ParseOptimizer, &w.Optimizer) }},
		{"recipe", func() (err error) { w.Recipe, err = model.ParseRecipe(s.Recipe); return }},
		{"loss", func() (err error) { w.Loss, err = model.ParseLoss(s.Loss); return }},
		{"quant_type", func() (err error) { w.QuantType, err = model.ParseQuantType(s.QuantType); return }},
	}
	for _, p := range parse {
		if err := p.f(); err != nil {
			return w, nil, model.Msg("%s: %v", p.key, err)
		}
	}
	w.Defaults()
	if err := w.Validate(); err != nil {
		return w, nil, err
	}
	return w, g, nil
}

// Recipe is the training recipe s runs: its recipe key, else the one
// model.Workload.TrainingRecipe picks for its precision and strategy.
func (s *Settings) recipe() string {
	if s.Recipe != "" && s.Recipe != "auto" {
		return s.Recipe
	}
	w := model.Workload{}
	w.Precision, _ = model.ParsePrecision(s.Precision)
	if s.Strategy != "" {
		w.Strategy, _ = model.ParseStrategy(s.Strategy)
	}
	return string(w.TrainingRecipe())
}

// describe is s in a few words for tables: "qlora amp-bf16 batch 2 × 2048".
func (s *Settings) describe() string {
	parts := []string{s.Model, s.Task, s.Precision}
	if s.SeqLen > 0 {
		parts = append(parts, fmt.Sprintf("batch %d × %d", s.Batch, s.SeqLen))
	} else {
		parts = append(parts, fmt.Sprintf("batch %d", s.Batch))
	}
	if s.GPUs > 1 {
		parts = append(parts, fmt.Sprintf("%d GPUs %s", s.GPUs, s.Strategy))
	}
	return strings.Join(parts, " ")
}

// optional parses v into dst with parse when v is given; an empty v
// leaves dst at its default.
func optional[T any](v string, parse func(string) (T, error), dst *T) error {
	if v == "" {
		return nil
	}
	x, err := parse(v)
	if err != nil {
		return err
	}
	*dst = x
	return nil
}
