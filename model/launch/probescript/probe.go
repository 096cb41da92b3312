package probescript

import (
	"cmp"
	"crypto/sha256"
	_ "embed" // the probe script's template
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf16"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/probe"
	"github.com/gpuplan/gpuplan/model/show"
)

// probeTemplate is the script; the plan goes into its marker line as one
// JSON string literal.
//
//go:embed probe.py
var probeTemplate string

// probeMarker is the template's line that receives the plan.
const probeMarker = `PLAN = json.loads("{}")  # gpuplan: the plan, one JSON string literal`

// probeSpec is the plan as the script reads it (PLAN): what to build, how
// to train or serve it, and the suite's keys it echoes in its result.
type probeSpec struct {
	Schema   int                `json:"schema"`
	Kind     string             `json:"kind"` // "train" or "serve"
	Name     string             `json:"name"`
	Summary  string             `json:"summary"`
	Workload any                `json:"workload"` // probe.Settings or probe.ServeSettings, echoed as the result's "plan"
	Arch     *probe.Arch        `json:"arch,omitempty"`
	Build    *probeBuild        `json:"build,omitempty"`
	Train    *probeTrain        `json:"train,omitempty"`
	Serve    *probeServe        `json:"serve,omitempty"`
	Launch   []string           `json:"launch_args,omitempty"` // the launch files' script arguments
	Estimate map[string]float64 `json:"estimate"`              // gpuplan's figures at export, for the script's summary
}

// probeBuild says how to build the model with random weights.
type probeBuild struct {
	Builder       string         `json:"builder"` // "transformers" or "torchvision"
	HFModelType   string         `json:"hf_model_type"`
	HFHead        string         `json:"hf_head"` // causal-lm, masked-lm, seq-cls, seq2seq-lm, image-cls
	HFConfig      map[string]any `json:"hf_config"`
	CheckpointKey string         `json:"checkpoint_key"` // names QLoRA's random checkpoint directory
	Torchvision   string         `json:"torchvision"`
	NumClasses    int            `json:"num_classes"`
	Vocab         int            `json:"vocab"`
	Norm          string         `json:"norm"` // the smoke model's
	GatedMLP      bool           `json:"gated_mlp"`
}

// probeTrain is the recipe, as the launch files run it.
type probeTrain struct {
	Training      bool            `json:"training"` // false: forward passes only (batch inference)
	Precision     string          `json:"precision"`
	Recipe        string          `json:"recipe"`
	LoadDtype     string          `json:"load_dtype"` // TRL --dtype: what the weights are loaded in
	Autocast      string          `json:"autocast"`   // torch.autocast dtype, "" for none (Trainer --bf16/--fp16)
	GradScaler    bool            `json:"grad_scaler"`
	TF32          bool            `json:"tf32"`
	Optimizer     string          `json:"optimizer"`
	Strategy      string          `json:"strategy"`
	DeepSpeed     json.RawMessage `json:"deepspeed,omitempty"` // the DeepSpeed config as the launch files write it (launch.DeepSpeedFile)
	Checkpointing bool            `json:"checkpointing"`
	Attention     string          `json:"attention"` // transformers attn_implementation: sdpa or eager
	Loss          string          `json:"loss"`      // the estimate's LM loss; "" for a model's own
	MicroBatch    int             `json:"micro_batch"`
	GradAccum     int             `json:"grad_accum"`
	SeqLen        int             `json:"seq_len"`
	EncoderSeqLen int             `json:"encoder_seq_len"`
	ImageSize     int             `json:"image_size"`
	GPUs          int             `json:"gpus"`
	Nodes         int             `json:"nodes"`
	ProcsPerNode  int             `json:"procs_per_node"`
	LoRA          *probeLoRA      `json:"lora"`
	QLoRA         *probeQuant     `json:"qlora"`
	// ChannelsLast converts a torchvision model and its images to
	// torch.channels_last (model.Switches.ChannelsLast), as the estimate
	// assumes; omitted when off, PyTorch's NCHW default.
	ChannelsLast bool `json:"channels_last,omitempty"`
}

// probeLoRA is TRL's get_peft_config with the launch files' flags: rank
// and targets from --lora_r and --lora_target_modules, alpha and dropout
// at TRL ModelConfig's defaults (lora_alpha 32, lora_dropout 0.05;
// trl/trainer/model_config.py @ f2cd57710ae3).
type probeLoRA struct {
	R        int      `json:"r"`
	Alpha    int      `json:"alpha"`
	Dropout  float64  `json:"dropout"`
	Targets  []string `json:"targets"`
	TaskType string   `json:"task_type"`
}

// TRL ModelConfig's LoRA defaults, which the launch files leave as they are.
const (
	trlLoRAAlpha   = 32
	trlLoRADropout = 0.05
)

// probeQuant is QLoRA's BitsAndBytesConfig as TRL's get_quantization_config
// builds it from --bnb_4bit_quant_type and --use_bnb_nested_quant.
type probeQuant struct {
	QuantType   string `json:"quant_type"`
	DoubleQuant bool   `json:"double_quant"`
}

// probeServe is the vllm serve command of the serving files and the load
// the plan assumed for one node.
type probeServe struct {
	ModelID string   `json:"model_id"`
	Argv    []string `json:"argv"` // Serve.ServerArgs: each server's engine flags
	// Servers are the CUDA_VISIBLE_DEVICES of each vllm serve when the
	// serving files start one per replica (Serve.OneServerPerReplica, an
	// MoE model's replicas sharing a node: Serve.ReplicaGPUs); omitted for
	// the one vllm serve of every other plan, which sees all GPUs.
	Servers      []string `json:"servers,omitempty"`
	PromptTokens int      `json:"prompt_tokens"`
	OutputTokens int      `json:"output_tokens"`
	Concurrency  int      `json:"concurrency"` // requests in flight on the node
	MaxModelLen  int      `json:"max_model_len"`
	Vocab        int      `json:"vocab"`
	// Pip is what the refusal says to install when vLLM is missing: vllm,
	// or on a GPU whose last CUDA line is 12 a release before v0.20.0
	// (launch.VoltaVLLMRequirement), as the serving files install it.
	Pip string `json:"pip"`
}

// Train returns the probe script for the training plan p: a self-contained Python
// file that builds the model from its shape with random weights, applies
// the recipe the launch files run (precision and autocast, optimizer,
// activation checkpointing, attention kernel, LoRA/QLoRA through PEFT and
// bitsandbytes, FSDP or DeepSpeed under torchrun), times warm-up and
// measured steps on synthetic batches of the planned shape and prints one
// JSON line (see model/probe.Result). The plan is one JSON string literal
// that the script parses with json.loads; the other plan text is in
// comments made printable. The error wraps ErrPlan when the plan has no
// estimate, or its model or recipe has no probe (see probeFor).
func Train(p *launch.Plan) ([]byte, error) {
	if err := p.CheckText(); err != nil {
		return nil, err
	}
	spec, err := trainSpec(p)
	if err != nil {
		return nil, err
	}
	var header []string
	for _, l := range p.HeaderLines() {
		if !strings.HasPrefix(l, "note: replace ") { // the placeholders are the launch files'; the probe reads no dataset or weights
			header = append(header, l)
		}
	}
	header = append(header, probeUsage(spec.Train.GPUs, spec.Train.ProcsPerNode, spec.Train.Nodes)...)
	return renderProbe(header, spec)
}

// probeUsage is how to run the script, for its header.
func probeUsage(gpus, procs, nodes int) []string {
	run := "python3 gpuplan-probe.py > result.json"
	switch {
	case nodes > 1:
		run = fmt.Sprintf("on each of the %d nodes: torchrun --nnodes=%d --nproc-per-node=%d --rdzv-backend=c10d --rdzv-endpoint=$HEAD_IP:%d gpuplan-probe.py > result.json",
			nodes, nodes, procs, launch.DefaultPort)
	case gpus > 1:
		run = fmt.Sprintf("torchrun --standalone --nnodes=1 --nproc-per-node=%d gpuplan-probe.py > result.json", procs)
	}
	return []string{
		"probe: runs a few steps of this plan on the GPU and prints one JSON line; run it as",
		"  " + run,
		"then read it back with gpuplan probe compare result.json, and keep it with gpuplan probe add result.json",
		"python3 gpuplan-probe.py --cpu-smoke checks the script on a CPU; --plan prints what it runs",
	}
}

func trainSpec(p *launch.Plan) (*probeSpec, error) {
	e := p.Estimate
	if e == nil || p.GPU == nil {
		return nil, model.Errorf(launch.ErrPlan, "the plan has no estimate to probe")
	}
	w := &e.Workload
	a := &w.Model
	if p.Precision == model.FP8 {
		return nil, model.Errorf(launch.ErrPlan, "probe: fp8 training needs Transformer Engine or torchao in the script, and the launch files pass --bf16; probe --precision amp-bf16 instead")
	}
	if p.Precision == model.INT8 || p.Precision == model.INT4 {
		return nil, model.Errorf(launch.ErrPlan, "probe: %s weights are served, not run in batches; probe a serving plan (--task inference on a decoder) instead", p.Precision)
	}
	build, err := probeBuildFor(a, w)
	if err != nil {
		return nil, err
	}
	modelKey, arch := a.Key, (*probe.Arch)(nil)
	if modelKey == "" {
		modelKey = "probe-" + shapeHash(a)[:12]
		arch = probe.ArchOf(modelKey, a)
	}
	t := &probeTrain{
		Training:  p.Task.Training(),
		Precision: string(p.Precision), LoadDtype: p.LoadDtype(), Optimizer: string(w.Optimizer),
		Strategy: string(p.Strategy), Checkpointing: p.Checkpointing, Attention: "eager",
		MicroBatch: p.MicroBatch, GradAccum: p.GradAccum, SeqLen: launch.TextLength(w), ImageSize: w.ImageSize, ChannelsLast: w.ChannelsLast,
		GPUs: p.GPUs(), Nodes: p.Nodes, ProcsPerNode: p.ProcsPerNode, TF32: p.Precision == model.TF32,
	}
	switch {
	case !a.Family.HasAttention():
		t.Attention = ""
	case w.Flash():
		t.Attention = "sdpa" // transformers' default attn_implementation, which the launch files leave as it is
	}
	if !t.Training {
		t.Optimizer, t.Checkpointing, t.GradAccum = "", false, 1
		t.LoadDtype = map[model.Precision]string{model.BF16: "bfloat16", model.FP16: "float16"}[p.Precision]
		if t.LoadDtype == "" {
			t.LoadDtype = "float32"
		}
	}
	if t.Training {
		t.Recipe = string(w.TrainingRecipe())
		t.Loss = string(p.Loss)
	}
	if a.Family == model.FamilyEncoderDecoder && a.EncoderSeqLen > 0 {
		t.EncoderSeqLen = a.EncoderSeqLen
	}
	// Trainer's --bf16/--fp16: torch.autocast in that dtype, with a
	// GradScaler for fp16 (transformers Trainer, accelerate native AMP);
	// pure fp16 weights (recipe pure16) train without either.
	switch p.Precision {
	case model.AMPBF16, model.BF16:
		t.Autocast = "bfloat16"
	case model.AMPFP16:
		t.Autocast, t.GradScaler = "float16", true
	}
	if p.Precision == model.FP16 && !p.Task.Adapters() {
		t.Autocast, t.GradScaler = "", false
	}
	if p.Task.Adapters() && (p.Precision == model.FP16 || p.Precision == model.AMPFP16) {
		t.Autocast, t.GradScaler = "float16", true
	}
	if !t.Training {
		t.Autocast, t.GradScaler = "", false
	}
	if p.ZeRO() > 0 {
		t.DeepSpeed = json.RawMessage(p.DeepSpeedConfig())
		t.GradScaler = false // DeepSpeed scales fp16 losses itself
	}
	loraDropout := w.LoRADropout
	if p.Task.Adapters() {
		if build.HFHead != "causal-lm" || !llamaNames(build.HFModelType) {
			return nil, model.Errorf(launch.ErrPlan, "probe: the launch files target Llama's module names (%s); %s (%s) has other names, so neither the launch files nor the probe would find the adapters' targets",
				strings.Join(loraModules(p), " "), show.Printable(p.Model), build.HFModelType)
		}
		t.LoRA = &probeLoRA{R: p.LoRARank, Alpha: trlLoRAAlpha, Dropout: trlLoRADropout, Targets: loraModules(p), TaskType: "CAUSAL_LM"}
		loraDropout = trlLoRADropout
	}
	if p.Task == model.TaskQLoRA {
		if p.Strategy == model.FSDP || p.ZeRO() == 3 {
			// FSDP and ZeRO-3 flatten the 4-bit weights with the rest only when
			// bitsandbytes stores them in the compute dtype
			// (bnb_4bit_quant_storage; the launch files pass TRL's
			// --bnb_4bit_quant_storage): the probe does not build that sharded
			// model, so it refuses rather than time another one.
			return nil, model.Errorf(launch.ErrPlan, "probe: QLoRA sharded by %s (4-bit weights stored as %s) is not probed; probe it on one GPU or with ddp",
				p.Strategy, p.LoadDtype())
		}
		t.QLoRA = &probeQuant{QuantType: string(p.QuantType), DoubleQuant: p.DoubleQuant}
	}
	settings := probe.SettingsFor(w, p.GPU.Key, modelKey)
	settings.Precision = string(p.Precision)
	settings.LoRADropout = loraDropout
	est := map[string]float64{
		"torch_allocated_bytes": e.TorchAllocated, "torch_reserved_bytes": e.TorchReserved,
		"nvidia_smi_bytes": e.Memory.Total(), "memory_band_lo_bytes": e.MemoryBand[0], "memory_band_hi_bytes": e.MemoryBand[1],
		"weights_bytes": e.States.Weights, "gradients_bytes": e.States.Gradients, "optimizer_states_bytes": e.States.OptimizerStates,
		"params": e.Params, "trainable_params": e.TrainableParams, "samples_per_second": e.SamplesPerSecond,
	}
	return &probeSpec{Schema: probe.Schema, Kind: "train", Name: p.Name, Summary: p.Summary(), Workload: settings,
		Arch: arch, Build: build, Train: t, Launch: p.ScriptArgs, Estimate: est}, nil
}

// loraModules are the adapters' module names the launch files pass
// (derivedArgs: q → q_proj, Llama/Mistral/Qwen names).
func loraModules(p *launch.Plan) []string {
	out := make([]string, len(p.LoRATargets))
	for i, t := range p.LoRATargets {
		out[i] = t + "_proj"
	}
	return out
}

// llamaNames reports model types whose modules are named q_proj … down_proj.
func llamaNames(t string) bool {
	switch t {
	case "llama", "mistral", "qwen2", "mixtral", "gemma2":
		return true
	}
	return false
}

// torchvisionNames maps catalog keys to torchvision.models builders.
var torchvisionNames = map[string]string{
	"resnet18": "resnet18", "resnet50": "resnet50", "resnet101": "resnet101", "resnet152": "resnet152",
	"efficientnet-b0": "efficientnet_b0", "efficientnet-b7": "efficientnet_b7",
}

// probeBuildFor chooses how the script builds a: a transformers model type
// whose config takes the estimate's shape (decoders as Llama, Qwen2,
// Mixtral, Gemma 2, Phi-3 or GPT-2 by their norm, MLP, biases and experts;
// BERT, RoBERTa, T5 and ViT), or a torchvision classifier. The error wraps
// ErrPlan for models the script cannot build (YOLO, U-Nets, Whisper).
func probeBuildFor(a *model.Architecture, w *model.Workload) (*probeBuild, error) {
	name := show.Printable(launch.ModelName(a))
	if a.Family == model.FamilyCNN || a.Family == model.FamilyUNet {
		tv, ok := torchvisionNames[a.Key]
		if !ok {
			return nil, model.Errorf(launch.ErrPlan, "probe: no builder for %s: the probe builds torchvision's ResNets and EfficientNets (%s), not YOLO or U-Nets",
				name, strings.Join(sortedKeys(torchvisionNames), ", "))
		}
		return &probeBuild{Builder: "torchvision", Torchvision: tv, NumClasses: 1000, HFConfig: map[string]any{}}, nil
	}
	if !a.HasShape() {
		return nil, model.Errorf(launch.ErrPlan, "probe: %s has no transformer shape (layers, hidden, heads) to build", name)
	}
	b := &probeBuild{Builder: "transformers", Vocab: a.Vocab, Norm: string(a.Norm), GatedMLP: a.GatedMLP}
	maxPos := max(a.MaxPositions, w.SeqLen, w.ContextLen)
	dec := map[string]any{
		"hidden_size": a.Hidden, "intermediate_size": a.FFN, "num_hidden_layers": a.Layers,
		"num_attention_heads": a.Heads, "num_key_value_heads": cmp.Or(a.KVHeads, a.Heads), "vocab_size": a.Vocab,
		"tie_word_embeddings": a.Tied, "max_position_embeddings": maxPos,
	}
	if a.HeadDim > 0 {
		dec["head_dim"] = a.HeadDim
	}
	drop := 0.0
	if a.Dropout {
		drop = 0.1
	}
	switch a.Family {
	case model.FamilyDecoder:
		b.HFHead = "causal-lm"
		switch {
		case a.Experts > 1:
			b.HFModelType = "mixtral"
			dec["num_local_experts"], dec["num_experts_per_tok"] = a.Experts, max(a.ExpertsPerToken, 1)
		case a.NormsPerLayer == 4 && a.Norm == model.RMSNorm:
			b.HFModelType = "gemma2"
		case a.FusedQKV && a.FusedGateUp && a.Norm == model.RMSNorm:
			b.HFModelType = "phi3"
		case a.QKVBias && a.GatedMLP && a.Norm == model.RMSNorm:
			b.HFModelType = "qwen2"
		case a.GatedMLP && a.Norm == model.RMSNorm:
			b.HFModelType = "llama"
		case !a.GatedMLP && a.Norm != model.RMSNorm:
			b.HFModelType = "gpt2"
			dec = map[string]any{"n_embd": a.Hidden, "n_layer": a.Layers, "n_head": a.Heads, "n_inner": a.FFN,
				"n_positions": maxPos, "vocab_size": a.Vocab, "tie_word_embeddings": a.Tied,
				"resid_pdrop": drop, "embd_pdrop": drop, "attn_pdrop": drop}
		default:
			return nil, model.Errorf(launch.ErrPlan, "probe: no transformers model type has %s's shape (%s norm, gated MLP %v)", name, a.Norm, a.GatedMLP)
		}
		b.HFConfig = dec
	case model.FamilyEncoder:
		b.HFModelType = "roberta"
		typeVocab, pos := 1, max(a.LearnedPositions+2, maxPos+2) // RoBERTa's positions start after the padding index
		if a.TokenTypes > 0 {
			b.HFModelType, typeVocab, pos = "bert", a.TokenTypes, max(a.LearnedPositions, maxPos)
		}
		b.HFHead = "seq-cls"
		if w.Task == model.TaskTrain {
			b.HFHead = "masked-lm" // pre-training: the vocabulary logits the estimate counts (countsLogits)
		}
		b.HFConfig = map[string]any{"hidden_size": a.Hidden, "num_hidden_layers": a.Layers, "num_attention_heads": a.Heads,
			"intermediate_size": a.FFN, "vocab_size": a.Vocab, "max_position_embeddings": pos, "type_vocab_size": typeVocab,
			"hidden_dropout_prob": drop, "attention_probs_dropout_prob": drop, "num_labels": 2}
	case model.FamilyEncoderDecoder:
		if a.EncoderSeqLen > 0 || a.LearnedPositions > 0 {
			return nil, model.Errorf(launch.ErrPlan, "probe: no builder for %s: the probe builds T5-style text encoder-decoders, not audio models", name)
		}
		ff := "relu"
		if a.GatedMLP {
			ff = "gated-gelu"
		}
		b.HFModelType, b.HFHead = "t5", "seq2seq-lm"
		b.HFConfig = map[string]any{"d_model": a.Hidden, "d_ff": a.FFN, "num_layers": a.Layers, "num_decoder_layers": max(a.DecoderLayers, a.Layers),
			"num_heads": a.Heads, "d_kv": cmp.Or(a.HeadDim, a.Hidden/a.Heads), "vocab_size": a.Vocab, "feed_forward_proj": ff,
			"tie_word_embeddings": a.Tied, "dropout_rate": drop}
	case model.FamilyViT:
		b.HFModelType, b.HFHead, b.NumClasses = "vit", "image-cls", max(a.Vocab, 1)
		b.HFConfig = map[string]any{"hidden_size": a.Hidden, "num_hidden_layers": a.Layers, "num_attention_heads": a.Heads,
			"intermediate_size": a.FFN, "image_size": w.ImageSize, "patch_size": max(a.PatchSize, 1), "num_labels": max(a.Vocab, 1),
			"hidden_dropout_prob": drop, "attention_probs_dropout_prob": drop, "qkv_bias": true}
	default:
		return nil, model.Errorf(launch.ErrPlan, "probe: no builder for the %s family", a.Family)
	}
	cfg, _ := json.Marshal(b.HFConfig)
	sum := sha256.Sum256(append([]byte(b.HFModelType+"\n"), cfg...))
	b.CheckpointKey = hex.EncodeToString(sum[:])[:16]
	return b, nil
}

// shapeHash names a model outside the catalog by its shape.
func shapeHash(a *model.Architecture) string {
	j, _ := json.Marshal(probe.ArchOf("", a))
	sum := sha256.Sum256(j)
	return hex.EncodeToString(sum[:])
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// Serve returns the serving probe script for s: it starts vllm serve as
// the serving files do, reads vLLM's KV-cache figures from its log and
// /metrics, and times a closed loop of the planned prompt and output
// lengths at the concurrency the plan gives one node. The servers are the
// serving script's: one vllm serve with the engine flags (ServerArgs:
// VLLMArgs, with --data-parallel-size for a dense model's engines sharing
// the node), or for an MoE model whose replicas share the node one vllm
// serve per replica on its own GPUs (OneServerPerReplica, ReplicaGPUs),
// without --data-parallel-size, which would tie their expert layers into
// one group and so measure a deployment the files do not run; the load
// then goes to the servers in turn, as the load balancer the files ask
// for would send it, so the node's throughput and the concurrency keep
// their meaning.
// The error wraps ErrPlan when the deployment has no plan (NewServe sets
// it) or its values are not text.
func Serve(s *launch.Serve) ([]byte, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	if s.Plan == nil || s.Arch == nil || s.Plan.Offer.GPU == nil {
		return nil, model.Errorf(launch.ErrPlan, "the deployment has no serving plan to probe")
	}
	sp, a := s.Plan, s.Arch
	modelKey, arch := a.Key, (*probe.Arch)(nil)
	if modelKey == "" {
		modelKey = "probe-" + shapeHash(a)[:12]
		arch = probe.ArchOf(modelKey, a)
	}
	v := s.Serving
	conc := max(sp.Perf.Batch*s.ReplicasPerNode, 1) // the plan's steady state on one node
	settings := probe.ServeSettings{Model: modelKey, GPU: sp.Offer.GPU.Key, Provider: s.Provider, InstanceType: s.CatalogType,
		GPUsPerNode: s.GPUsPerInstance, WeightFormat: string(v.WeightFormat), KVCacheDType: string(v.KVCacheDType),
		MaxModelLen: v.MaxModelLen, GPUMemoryUtilization: v.GPUMemoryUtilization, MaxNumSeqs: v.MaxNumSeqs,
		MaxNumBatchedTokens: v.MaxNumBatchedTokens, TP: s.TP, PP: s.PP, ReplicasPerNode: s.ReplicasPerNode,
		PromptTokens: v.PromptTokens, OutputTokens: v.OutputTokens, Concurrency: conc}
	est := map[string]float64{
		"kv_cache_tokens": float64(sp.Memory.KVTokens), "kv_cache_bytes": sp.Memory.KVCache, "weights_bytes": sp.Memory.Weights,
		"max_concurrency": sp.Memory.MaxConcurrency, "ttft_seconds": sp.Perf.TTFTSec, "tpot_seconds": sp.Perf.TPOTSec,
		"output_tokens_per_second": sp.Perf.OutputTokensPerSec * float64(s.ReplicasPerNode),
	}
	spec := &probeSpec{Schema: probe.Schema, Kind: "serve", Name: s.Name, Workload: settings, Arch: arch, Estimate: est,
		Serve: &probeServe{ModelID: s.ModelID, Argv: s.ServerArgs(), PromptTokens: max(v.PromptTokens, 1), OutputTokens: max(v.OutputTokens, 1),
			Concurrency: conc, MaxModelLen: v.MaxModelLen, Vocab: a.Vocab, Pip: "vllm"}}
	if s.LastCUDA != "" {
		spec.Serve.Pip = "'" + launch.VoltaVLLMRequirement + "'"
	}
	starts := "probe: starts vllm serve with the serving files' flags on this node, reads vLLM's KV-cache size from its log and /metrics,"
	if s.OneServerPerReplica() {
		for i := range s.ReplicasPerNode {
			spec.Serve.Servers = append(spec.Serve.Servers, s.ReplicaGPUs(i))
		}
		starts = fmt.Sprintf("probe: starts the serving script's %d vllm serve on this node, one per replica on GPUs %s (no --data-parallel-size: an MoE model), sends the requests to them in turn, reads the first one's KV-cache size from its log and /metrics,",
			s.ReplicasPerNode, strings.Join(spec.Serve.Servers, " / "))
	}
	lines := s.HeaderLines()
	spec.Summary = lines[0]
	lines = append(lines, starts,
		fmt.Sprintf("and times %d concurrent requests of %d prompt and %d output tokens; run it as", conc, v.PromptTokens, v.OutputTokens),
		"  python3 gpuplan-probe.py > result.json",
		"then gpuplan probe compare result.json; python3 gpuplan-probe.py --cpu-smoke checks the script on a CPU")
	return renderProbe(lines, spec)
}

// renderProbe writes the script: the shebang and a fixed coding line (so
// no comment below can declare another source encoding), the header as
// printable comments, then the template with the spec as one JSON string
// literal. The literal is the spec's JSON made ASCII (\u escapes, surrogate
// pairs for astral runes) and then encoded as a JSON string: every escape
// JSON writes (\" \\ \n \uXXXX …) means the same in a Python string
// literal, so Python's json.loads reads back exactly the spec.
func renderProbe(header []string, spec *probeSpec) ([]byte, error) {
	inner, err := json.Marshal(spec)
	if err != nil {
		return nil, model.Errorf(launch.ErrPlan, "probe: %v", err)
	}
	lit, err := json.Marshal(string(asciiJSON(inner)))
	if err != nil {
		return nil, model.Errorf(launch.ErrPlan, "probe: %v", err)
	}
	if strings.Count(probeTemplate, probeMarker) != 1 {
		panic("probescript: probe.py lost its plan marker line")
	}
	var b strings.Builder
	b.WriteString("#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n")
	b.WriteString(launch.CommentBlock(header))
	b.WriteString(strings.Replace(probeTemplate, probeMarker,
		`PLAN = json.loads(`+string(lit)+`)  # gpuplan: the plan, one JSON string literal`, 1))
	return []byte(b.String()), nil
}

// asciiJSON rewrites JSON text so every rune past '~' (they only occur in
// strings: JSON escapes control characters itself) is a \uXXXX escape,
// astral runes as UTF-16 surrogate pairs.
func asciiJSON(b []byte) []byte {
	var out strings.Builder
	for _, r := range string(b) {
		switch {
		case r < 0x7f: // DEL too is escaped: the literal is printable ASCII
			out.WriteByte(byte(r))
		case r <= 0xFFFF:
			fmt.Fprintf(&out, `\u%04x`, r)
		default:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&out, `\u%04x\u%04x`, r1, r2)
		}
	}
	return []byte(out.String())
}
