package serve

import (
	"slices"

	"github.com/gpuplan/gpuplan/model"
)

// LoRA is a LoRA adapter served on the base model (vllm serve
// --enable-lora --max-lora-rank R --max-loras N --lora-modules
// NAME=PATH): vLLM reserves GPU slots for the adapters' weights when it
// loads the model (LoRABytes), which the KV cache then does without.
type LoRA struct {
	// Name is the adapter's name in the API: requests that name it as
	// their model get the adapter, those that name the base do not.
	Name string
	// Rank is the adapter's rank r as trained; MaxRank is vLLM's
	// --max-lora-rank for it (MaxLoRARank): the slots are that wide.
	Rank, MaxRank int
	// MaxLoRAs is vLLM's --max-loras: the adapters one batch may hold,
	// each with its own slot; 1, vLLM's default, for one adapter.
	MaxLoRAs int
}

// MaxLoRARanks are the values vLLM's --max-lora-rank accepts: LoRAConfig's
// MaxLoRARanks = Literal[1, 8, 16, 32, 64, 128, 256, 320, 512], default 16
// (vllm-project/vllm @ 01230b40128e, vllm/config/lora.py).
var MaxLoRARanks = []int{1, 8, 16, 32, 64, 128, 256, 320, 512}

// DefaultMaxLoRAs is vLLM's --max-loras default, "Max number of LoRAs in a
// single batch": LoRAConfig.max_loras = Field(default=1, ge=1)
// (vllm/config/lora.py, as above).
const DefaultMaxLoRAs = 1

// MaxLoRARank is the smallest --max-lora-rank vLLM accepts that holds an
// adapter of rank r (MaxLoRARanks: an adapter of rank 24 needs 32, as vLLM
// refuses to load an adapter whose rank is above max_lora_rank); ok is
// false above 512, which vLLM cannot serve.
func MaxLoRARank(r int) (int, bool) {
	i, _ := slices.BinarySearch(MaxLoRARanks, max(r, 1))
	if i == len(MaxLoRARanks) {
		return 0, false
	}
	return MaxLoRARanks[i], true
}

// LoRABytes returns the GPU memory, in bytes, that vLLM reserves on one
// GPU of a tp × pp replica of a for l: for every linear layer it wraps, a
// stacked A and B buffer of l.MaxLoRAs slots at l.MaxRank, in the
// model's dtype (elem bytes an element: lora_dtype "auto" is the model's
// dtype, LoRAConfig.verify_with_model_config), allocated as the model
// loads, so vLLM counts them in "Model loading took" and the KV cache is
// what is left after them (vllm/v1/worker/gpu_model_runner.py load_model:
// load_lora_model inside the DeviceMemoryProfiler). 0 when l is nil.
//
// The buffers (vllm-project/vllm, vllm/lora/layers: base_linear.py @
// 01235a494f17 BaseLinearLayerWithLoRA.create_lora_weights,
// column_parallel_linear.py @ 0163de2b7c0f MergedColumnParallelLinearWithLoRA
// and MergedQKVParallelLinearWithLoRA): lora_a_stacked is max_loras ×
// max_lora_rank × input_size per output slice, lora_b_stacked max_loras ×
// output_size × max_lora_rank per slice. A column-parallel layer keeps its
// whole input and its share of the output under tensor parallelism (the
// q, k, v slices of qkv_proj, the gate and up slices of gate_up_proj, each
// with its own A), a row-parallel one (o_proj, down_proj) its share of the
// input and the whole output (RowParallelLinearWithLoRA: input_size_per_partition):
// "only half of the LoRA computation is sharded" unless
// --fully-sharded-loras, which is not written.
//
// vLLM wraps every linear layer of the model, whatever the adapter
// targets ("In vLLM, all linear layers support LoRA":
// vllm/lora/utils.py get_supported_lora_modules, LoRAModelManager
// _create_lora_modules @ 01533aa8f9c0 when no --lora-target-modules is
// given, which gpuplan does not write): the attention projections and the
// MLP of every layer on the GPU (layers ÷ pp), an MoE's routed experts
// each with its own slots as FusedMoEWithLoRA stacks them (w13 and w2 per
// local expert). Left out: the embedding and LM-head slots that models
// listing embedding_modules add (vocabulary × rank each, about 10 MB a
// slot at rank 16 for a 152k vocabulary), and an MLA model's attention,
// counted as grouped-query attention of its heads.
func LoRABytes(a *model.Architecture, l *LoRA, tp, pp int, elem float64) float64 {
	if l == nil || !a.HasShape() {
		return 0
	}
	tp, pp = max(tp, 1), max(pp, 1)
	r, slots := float64(max(l.MaxRank, 1)), float64(max(l.MaxLoRAs, 1))
	h := float64(a.Hidden)
	d := float64(a.HeadDim)
	if d == 0 {
		d = h / float64(max(a.Heads, 1))
	}
	kvh := a.KVHeads
	if kvh == 0 {
		kvh = a.Heads
	}
	q := float64(a.Heads) * d / float64(tp)
	kv := float64(max(kvh/tp, 1)) * d // a KV head is replicated when TP exceeds the KV heads
	// column: an A of r × h per slice, a B of r × its output share;
	// row: an A of r × its input share, a B of r × h.
	attn := 3*r*h + r*(q+2*kv) + r*q + r*h
	mlp := func(f float64) float64 {
		if f <= 0 {
			return 0
		}
		n := 1.0 // output slices of the up projection: gate and up when gated
		if a.GatedMLP {
			n = 2
		}
		return n*r*h + r*n*f/float64(tp) + r*f/float64(tp) + r*h
	}
	layers := float64(decoderLayers(a))
	total := layers * (attn + mlp(float64(a.FFN)))
	if a.Experts > 1 {
		denseLayers := float64(min(a.DenseLayers, decoderLayers(a)))
		denseFFN := float64(a.DenseFFN)
		if denseFFN == 0 {
			denseFFN = float64(a.FFN)
		}
		moe := float64(a.Experts+a.SharedExperts) * mlp(float64(a.FFN))
		total = layers*attn + (layers-denseLayers)*moe + denseLayers*mlp(denseFFN)
	}
	return slots * total / float64(pp) * elem
}
