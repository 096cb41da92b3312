package model

import (
	"errors"
	"math"
)

// Norm is the normalisation layer type; it sets the parameters per norm.
type Norm string

// Norm types, spelled as in TOML.
const (
	LayerNorm Norm = "layernorm" // weight and bias: 2·h parameters; the default
	RMSNorm   Norm = "rmsnorm"   // weight only: h parameters
)

// Head is the task head a model carries on its last hidden states in
// place of a language-model head, as a Hugging Face config.json's
// architectures names it; spelled as in JSON output.
type Head string

// Heads. The zero value is a model's usual output: a causal LM's head over
// the vocabulary, an encoder's bare model (or its MLM head when
// pre-training), ViT's classifier.
const (
	// HeadSequenceClassification is an XForSequenceClassification head:
	// one class score vector per sequence (transformers
	// modeling_layers.py GenericForSequenceClassification, which the
	// Llama-style decoders subclass; BertForSequenceClassification).
	HeadSequenceClassification Head = "sequence-classification"
	// HeadTokenClassification is an XForTokenClassification head: class
	// scores at every position (GenericForTokenClassification,
	// BertForTokenClassification).
	HeadTokenClassification Head = "token-classification"
)

// Architecture describes a model. Transformers (Family.Transformer) are
// described by their shape and their parameter count comes from ParamCount;
// CNNs and U-Nets carry their published parameter count and per-sample
// forward MACs and activation bytes, measured at ImageSize.
//
// Fields are in the units of the Hugging Face config.json they mirror: counts,
// not bytes. Zero means "not applicable" unless the comment says otherwise.
type Architecture struct {
	Key     string   // catalog key, lowercase and hyphenated: "llama-3.1-8b"
	Name    string   // display name: "Llama 3.1 8B"
	Aliases []string // other spellings people type: "meta-llama/Llama-3.1-8B"
	// FineTunes are the Hugging Face ids among Aliases that name another
	// model of this architecture, a distill or fine-tune released under
	// its own name ("deepseek-ai/DeepSeek-R1-Distill-Qwen-7B" of Qwen2.5
	// 7B): one resolved by them says whose architecture it is
	// (FineTuneNote).
	FineTunes []string
	Family    Family

	// Params is the parameter count. For transformers it is derived by
	// ParamCount when zero; when set it overrides the formula (used for
	// --params with no shape, and for CNNs and U-Nets).
	Params float64
	// PublishedParams is the count the model's authors published, kept to
	// check the formula against (within 1%); not used in estimates.
	PublishedParams float64

	// Transformer shape. For encoder-decoders Layers is the encoder depth and
	// DecoderLayers the decoder depth; decoder layers add cross-attention.
	Layers        int
	DecoderLayers int
	Hidden        int // model width h (d_model)
	Heads         int // query heads a
	KVHeads       int // key/value heads (GQA/MQA); 0 means Heads
	HeadDim       int // per-head size; 0 means Hidden/Heads
	FFN           int // MLP inner size (per expert for MoE)
	GatedMLP      bool
	Vocab         int // vocabulary size; for ViT the number of classes
	Tied          bool
	// Head is a classification head that replaces the LM head (see
	// headParams): no vocabulary logits, no lm_head weight, tied or not;
	// "" for the model's usual output. Only decoders and encoders carry
	// one (Validate).
	Head Head
	// Labels is the classification Head's output width, config.json
	// num_labels or the size of id2label (transformers
	// configuration_utils.py PretrainedConfig: "if self.id2label is None:
	// self._create_id_label_maps(num_labels if num_labels is not None
	// else 2)"). Read only with Head.
	Labels        int
	Norm          Norm
	NormsPerLayer int  // norms per block: 2 (pre-attention, pre-MLP) unless set
	LinearBias    bool // every linear layer has a bias (GPT-2, BERT)
	// FusedQKV is whether one Linear computes queries, keys and values
	// (transformers GPT2Attention.c_attn, GPT-NeoX/Falcon/BLOOM
	// query_key_value, Phi3Attention.qkv_proj, LitGPT's
	// CausalSelfAttention.qkv). False, the Hugging Face majority, is three
	// Linears (BERT query/key/value, Llama q_proj/k_proj/v_proj); it only
	// matters under torch.autocast, where each one saves its own 16-bit
	// copy of the block's input (see autocastRecasts).
	FusedQKV bool
	// FusedGateUp is whether a gated MLP's gate and up projections are one
	// Linear (transformers Phi3MLP.gate_up_proj); false for Llama's
	// gate_proj and up_proj. Read only with GatedMLP.
	FusedGateUp bool
	QKVBias     bool // only the query/key/value projections have biases (Qwen2)
	// LearnedPositions is the number of rows of a learned absolute position
	// table (GPT-2: 1024, BERT: 512); 0 for rotary or relative positions.
	LearnedPositions int
	TokenTypes       int  // BERT's segment embeddings (2)
	Pooler           bool // BERT's pooler: one h×h dense layer with bias
	Experts          int  // MoE experts per layer; 0 or 1 means dense
	ExpertsPerToken  int  // MoE experts active per token (top-k)
	// SharedExperts are MLPs of FFN size that every token runs in each MoE
	// layer besides its routed experts (DeepSeek-V3 n_shared_experts,
	// modeling_deepseek_v3.py DeepseekV3MoE.shared_experts; Llama 4's one
	// Llama4TextMoe.shared_expert). Read only with Experts > 1.
	SharedExperts int
	// DenseLayers are layers of an MoE model whose MLP is one dense MLP of
	// DenseFFN instead of experts (DeepSeek-V3 first_k_dense_replace;
	// Llama 4 Maverick's layers outside moe_layers, whose MLP is
	// intermediate_size_mlp; Qwen3-MoE mlp_only_layers). Where they sit
	// does not change a count. Read only with Experts > 1.
	DenseLayers int
	DenseFFN    int // the dense layers' MLP inner size; 0 means FFN
	// QKNorm is an RMSNorm of HeadDim on the queries and one on the keys
	// in every attention block (transformers modeling_qwen3.py
	// Qwen3Attention.q_norm/k_norm, modeling_gemma3.py): 2·HeadDim
	// parameters per layer.
	QKNorm bool
	// Multi-head latent attention (DeepSeek-V2, arXiv 2405.04434, §2.1;
	// transformers modeling_deepseek_v3.py DeepseekV3Attention), used
	// when KVLoRARank > 0: keys and values are projected down to a
	// KVLoRARank latent plus a shared RopeHeadDim rotary key
	// (kv_a_proj_with_mqa), normalised (kv_a_layernorm) and projected up
	// per head to the no-rope key (HeadDim − RopeHeadDim) and the value
	// (VHeadDim) by kv_b_proj; queries likewise through a QLoRARank latent
	// when QLoRARank > 0 (q_a_proj, q_a_layernorm, q_b_proj), else one
	// q_proj. HeadDim is the query/key head size (qk_nope_head_dim +
	// qk_rope_head_dim); VHeadDim 0 means HeadDim. vLLM caches only the
	// latent and the rotary key per token and layer.
	QLoRARank, KVLoRARank, RopeHeadDim, VHeadDim int
	// QuantMethod is a quantized checkpoint's method as its config.json
	// names it (quantization_config.quant_method: "gptq", "awq",
	// "bitsandbytes", "fp8", "mxfp4"), "" when none is known; serving labels int4 weights
	// by it (GPTQ, bitsandbytes, else AWQ) and serves a catalog model's
	// released fp8 or mxfp4 checkpoint as released.
	QuantMethod string
	// QuantBits are the weight bits of a quantized release named by its
	// id (Release): 4 or 8; 0 when not known.
	QuantBits int
	// Release is the Hugging Face id of a quantized release of a catalog
	// model when the model was named by it ("Qwen/Qwen3-32B-AWQ",
	// Catalog.Model): the catalog entry's architecture, with the
	// release's QuantMethod and QuantBits; "" for the entry itself.
	Release string
	// WeightBlockSize is a block-quantized fp8 checkpoint's
	// quantization_config.weight_block_size, [n, k]: one float32 scale per
	// n×k block of each quantized weight (DeepSeek-V3/R1: [128, 128]);
	// zeros for per-tensor or per-channel scales, or no quantization.
	WeightBlockSize [2]int
	// UnquantizedAttnLayers and UnquantizedMLPLayers are the decoder
	// layers' worth of attention and of MLP linear weights that a
	// quantized checkpoint keeps at its 16-bit dtype (config.json
	// quantization_config modules_to_not_convert, ignored_layers, ignore:
	// Meta's Llama 3.1 405B FP8 quantizes only the MLPs, fbgemm_fp8); 0
	// when every layer's linears are quantized. See
	// UnquantizedLinearParams.
	UnquantizedAttnLayers, UnquantizedMLPLayers float64
	// VisionParams are a multimodal checkpoint's vision tower and
	// projector (Gemma 3's SigLIP encoder, Llama 4's vision model): they
	// are resident, so ParamCount counts them, but text tokens do not run
	// them, so ActiveParams and the FLOPs per token leave them out.
	VisionParams float64
	// ExtraParams are parameters the shape formula does not model, e.g.
	// Whisper's convolutional front end; the catalog documents each. It may
	// be negative to remove what the formula over-counts (missing biases).
	ExtraParams float64
	// Dropout is whether training applies dropout (config.json
	// hidden_dropout_prob, attention_dropout, resid_pdrop… above 0): its
	// masks are kept for backward. Llama-style models have none.
	Dropout bool
	// ModelType is the Hugging Face config.json model_type ("llama",
	// "gpt_neox", "opt", "gpt2", "distilbert"), which selects the modeling
	// code's own eager attention where it saves more or less than the
	// generic formula (see implementationSaves); "" is the generic one.
	// "torchvision_vit" is torchvision's VisionTransformer, whose
	// attention is torch.nn.MultiheadAttention (see mhaOutputCopy).
	ModelType string
	// Activation is the MLP activation as config.json names it
	// (hidden_act, activation_function): "gelu_new" (GPT-2's tanh formula
	// written in Python ops) and "relu" save differently from a single
	// GeLU kernel; "" is a GeLU (or SiLU for gated MLPs).
	Activation string
	// ParallelResidual is GPT-NeoX's use_parallel_residual (GPT-J,
	// Falcon's parallel_attn): attention and MLP read the same block
	// input, so both norms save one tensor.
	ParallelResidual bool
	// MaxPositions bounds the sequence length (max_position_embeddings;
	// from a config.json with a RoPE scaling, the length vLLM derives from
	// it: data/hf ropePositions).
	MaxPositions int
	// RopeTheta is the rotary embedding's base (config.json rope_theta,
	// or rope_parameters.rope_theta in transformers v5); 0 when unknown or
	// the model has no RoPE. A RoPE scaling vLLM is told to apply
	// (--hf-overrides '{"rope_parameters": {…}}') replaces the model's RoPE
	// parameters whole, so it must carry the base (model/serve
	// RopeScaling).
	RopeTheta float64
	// RopeOriginal is the context a RoPE scaling multiplies when the
	// model's card gives one other than MaxPositions: Qwen3's
	// config.json says 40960 positions, its card "natively supports
	// context lengths of up to 32,768 tokens" and extends them with YaRN
	// from original_max_position_embeddings 32768 (factor 4: 131,072).
	// 0: MaxPositions.
	RopeOriginal int
	// SlidingWindow is the tokens a sliding-window attention layer
	// attends to, itself and the SlidingWindow − 1 before it (config.json
	// sliding_window: gpt-oss 128, Gemma 3 1024 (512 for 1B), Gemma 2
	// 4096, Mistral 7B v0.1 4096); 0 when every layer attends to the whole
	// context. It has no parameters; it bounds the KV cache those layers
	// keep: vLLM's hybrid KV cache manager frees their blocks outside the
	// window (model/serve KVLayout), transformers' DynamicSlidingWindowLayer
	// keeps their last SlidingWindow − 1 tokens (kvCache).
	SlidingWindow int
	// SlidingLayers is how many of the (decoder) layers attend to a
	// SlidingWindow; the others attend to the whole context. config.json
	// says which by layer_types ("sliding_attention"), by
	// sliding_window_pattern (Gemma 3: every 6th layer global, so 52 of
	// Gemma 3 27B's 62 layers slide) or, with neither, by its model type's
	// default (Gemma 2 and gpt-oss alternate) or by applying the window to
	// every layer (Mistral 7B v0.1). 1 to the decoder layers when
	// SlidingWindow is set, else 0.
	SlidingLayers int
	// EncoderSeqLen fixes the encoder's length for encoder-decoders whose
	// input is not text (Whisper: 1500 audio frames); 0 means SeqLen.
	EncoderSeqLen int

	// Vision: PatchSize for ViT (tokens = (ImageSize/PatchSize)² + 1), and for
	// CNN and U-Net the per-sample figures at ImageSize pixels square.
	PatchSize              int
	Channels               int     // input channels; 3 unless set
	ForwardGMACs           float64 // multiply-accumulates per sample, 10⁹ (FLOPs = 2 × MACs)
	ActivationMiBPerSample float64 // activations kept for backward, MiB per sample at 16-bit
	ImageSize              int     // reference resolution of the vision figures, pixels

	DefaultBatch     int // micro-batch per GPU the configurator starts with
	DefaultSeqLen    int // tokens per sample
	DefaultImageSize int // pixels square
	// DefaultOptimizer is the optimizer of the model's published training
	// recipe (ResNet's torchvision reference: SGD with momentum), the
	// workload's default; "" leaves gpuplan's, AdamW. OptimizerSource
	// names the recipe.
	DefaultOptimizer Optimizer
	OptimizerSource  string

	Source       string // where the shape comes from (config.json, paper)
	ParamsSource string // where PublishedParams comes from
	AsOf         string // YYYY-MM-DD
}

// ErrInvalidArchitecture is wrapped by every Architecture.Validate error.
var ErrInvalidArchitecture = errors.New("invalid architecture")

// EffectiveHeadDim returns the per-head size: HeadDim when set, else
// Hidden / Heads; 0 without heads.
func (a *Architecture) EffectiveHeadDim() int {
	if a.HeadDim > 0 {
		return a.HeadDim
	}
	if a.Heads > 0 {
		return a.Hidden / a.Heads
	}
	return 0
}

// EffectiveKVHeads returns the key/value heads (GQA/MQA): KVHeads when
// set, else Heads.
func (a *Architecture) EffectiveKVHeads() int {
	if a.KVHeads > 0 {
		return a.KVHeads
	}
	return a.Heads
}

func (a *Architecture) normsPerLayer() int {
	if a.NormsPerLayer > 0 {
		return a.NormsPerLayer
	}
	return 2
}

func (a *Architecture) normParams() float64 {
	if a.Norm == RMSNorm {
		return float64(a.Hidden)
	}
	return 2 * float64(a.Hidden) // LayerNorm, the default
}

// wrapperTypes are the multimodal config.json model_types whose
// text_config gpuplan reads as the model (data/hf visionTowers): the
// wrapper's model_type by its language model's. Gemma 3 4B, 12B and 27B
// are Gemma3ForConditionalGeneration, "model_type": "gemma3" over a
// text_config "gemma3_text" (their config.json files, data/hf/testdata);
// Llama 4 Scout and Maverick "llama4" over "llama4_text".
var wrapperTypes = map[string]string{"gemma3_text": "gemma3", "llama4_text": "llama4"}

// CheckpointModelType is the model_type at the top of a's config.json,
// the one vLLM reads (hf_config.model_type: its float16 refusal,
// vllm/config/model.py _check_valid_dtype; its RoPE rule,
// _get_and_verify_max_len): a multimodal checkpoint's own type where a
// carries a vision tower (VisionParams) over a language model of a
// wrapped type, else ModelType, which names the language model's
// modeling code. A new user's walk: --weight-format fp16 on Gemma 3 12B
// said vLLM refuses float16 "for gemma3_text models"; its config.json,
// and vLLM, say gemma3.
func (a *Architecture) CheckpointModelType() string {
	if w, ok := wrapperTypes[a.ModelType]; ok && a.VisionParams > 0 {
		return w
	}
	return a.ModelType
}

// PositionLimit returns the longest sequence the model can run at all,
// in tokens: the positions of a learned absolute position table
// (LearnedPositions > 0), bounded by MaxPositions when set (RoBERTa's and
// OPT's tables hold 2 offset rows beyond them); 0 when the positions are
// rotary, relative or ALiBi, or not known.
//
// A learned table is an nn.Embedding of max_position_embeddings rows that
// each token's position indexes (transformers modeling_gpt2.py GPT2Model:
// "self.wpe = nn.Embedding(config.max_position_embeddings,
// self.embed_dim)", forward "position_embeds = self.wpe(position_ids)";
// modeling_bert.py BertEmbeddings: "self.position_embeddings =
// nn.Embedding(config.max_position_embeddings, config.hidden_size)" and
// its position_ids and token_type_ids buffers of that length, sliced to
// the input), so a longer input fails: GPT-2 with an index out of range,
// BERT with a size mismatch. Rotary and ALiBi models run past their
// trained length, worse (MaxPositions then bounds a warning, not the run).
func (a *Architecture) PositionLimit() int {
	if a.LearnedPositions <= 0 {
		return 0
	}
	if a.MaxPositions > 0 {
		return min(a.MaxPositions, a.LearnedPositions)
	}
	return a.LearnedPositions
}

// HasShape reports whether the transformer shape (layers, hidden size,
// heads) is known, so that the shape formulas apply.
func (a *Architecture) HasShape() bool {
	return a.Family.Transformer() && a.Layers > 0 && a.Hidden > 0 && a.Heads > 0
}

// attnParams returns one attention block's parameters: the query, key,
// value and output projections, with GQA/MQA key/value widths, their
// biases, and the query/key norms (QKNorm); multi-head latent attention
// has its own projections (mlaParams).
func (a *Architecture) attnParams() float64 {
	p := a.attnLinear()
	if a.KVLoRARank == 0 {
		qd := float64(a.Heads * a.EffectiveHeadDim())
		kvd := float64(a.EffectiveKVHeads() * a.EffectiveHeadDim())
		switch {
		case a.LinearBias:
			p += qd + 2*kvd + float64(a.Hidden)
		case a.QKVBias:
			p += qd + 2*kvd
		}
	} else {
		p += float64(a.KVLoRARank + a.QLoRARank) // kv_a_layernorm, q_a_layernorm (RMSNorm weights)
	}
	if a.QKNorm {
		p += 2 * float64(a.EffectiveHeadDim())
	}
	return p
}

// attnLinear returns one attention block's projection weights, without
// biases or norms. Multi-head latent attention (see Architecture.KVLoRARank),
// with h the width, a heads, d the query/key head size, r the rotary part,
// v the value head size:
//
//	q_a_proj h·QLoRARank + q_b_proj QLoRARank·a·d   (or q_proj h·a·d)
//	kv_a_proj_with_mqa h·(KVLoRARank + r) + kv_b_proj KVLoRARank·a·(d − r + v)
//	o_proj a·v·h
func (a *Architecture) attnLinear() float64 {
	h := float64(a.Hidden)
	if a.KVLoRARank > 0 {
		heads, d, r, v := float64(a.Heads), float64(a.EffectiveHeadDim()), float64(a.RopeHeadDim), float64(a.vHeadDim())
		q := h * heads * d
		if a.QLoRARank > 0 {
			q = float64(a.QLoRARank) * (h + heads*d)
		}
		kv := h*float64(a.KVLoRARank+a.RopeHeadDim) + float64(a.KVLoRARank)*heads*(d-r+v)
		return q + kv + heads*v*h
	}
	qd := float64(a.Heads * a.EffectiveHeadDim())
	kvd := float64(a.EffectiveKVHeads() * a.EffectiveHeadDim())
	return 2*h*qd + 2*h*kvd
}

func (a *Architecture) vHeadDim() int {
	if a.VHeadDim > 0 {
		return a.VHeadDim
	}
	return a.EffectiveHeadDim()
}

// mlpParams returns the parameters of one MLP of inner size f: two
// matrices, or three for a gated (SwiGLU/GeGLU) MLP, with biases when
// LinearBias.
func (a *Architecture) mlpParams(f int) float64 {
	h, ff := float64(a.Hidden), float64(f)
	if a.GatedMLP {
		p := 3 * h * ff
		if a.LinearBias {
			p += 2*ff + h
		}
		return p
	}
	p := 2 * h * ff
	if a.LinearBias {
		p += ff + h
	}
	return p
}

// mlpLinear returns the weights of one MLP of inner size f, without biases.
func (a *Architecture) mlpLinear(f int) float64 {
	if a.GatedMLP {
		return 3 * float64(a.Hidden) * float64(f)
	}
	return 2 * float64(a.Hidden) * float64(f)
}

// experts returns the FFN-sized MLPs resident in an MoE layer: routed
// plus shared experts; 1 for a dense model.
func (a *Architecture) experts() int {
	if a.Experts > 1 {
		return a.Experts + a.SharedExperts
	}
	return 1
}

// ActiveExperts returns the FFN-sized MLPs a token runs in an MoE layer:
// its top-k routed experts plus the shared ones; 1 for a dense model.
func (a *Architecture) ActiveExperts() int {
	if a.Experts > 1 && a.ExpertsPerToken > 0 {
		return a.ExpertsPerToken + a.SharedExperts
	}
	return 1
}

// denseLayers returns the layers with a dense MLP in an MoE model.
func (a *Architecture) denseLayers() int {
	if a.Experts > 1 {
		return min(a.DenseLayers, a.Layers)
	}
	return 0
}

func (a *Architecture) denseFFN() int {
	if a.DenseFFN > 0 {
		return a.DenseFFN
	}
	return a.FFN
}

// mlpStack returns the MLP parameters of all Layers blocks with e
// FFN-sized MLPs in each MoE layer, per(f) being one MLP of inner size f:
// dense models L·per(FFN); MoE models e·per(FFN) in each MoE layer and
// per(DenseFFN) in each dense one.
func (a *Architecture) mlpStack(e int, per func(f int) float64) float64 {
	dense := a.denseLayers()
	return float64(a.Layers-dense)*float64(e)*per(a.FFN) + float64(dense)*per(a.denseFFN())
}

// blocksParams returns the Layers blocks' parameters with e FFN-sized MLPs
// in each MoE layer: attention, norms and MLPs, plus each MoE layer's
// router (h × experts, no bias).
func (a *Architecture) blocksParams(e int) float64 {
	l := float64(a.Layers)
	p := l*(a.attnParams()+float64(a.normsPerLayer())*a.normParams()) + a.mlpStack(e, a.mlpParams)
	if a.Experts > 1 {
		p += float64(a.Layers-a.denseLayers()) * float64(a.Hidden*a.Experts)
	}
	return p
}

// layerParams returns one block's parameters with e FFN-sized MLPs in each
// MoE layer: the mean over the blocks, so that Layers × layerParams is
// the blocks' total also when some layers are dense (DenseLayers).
func (a *Architecture) layerParams(e int) float64 {
	if a.Layers == 0 {
		return 0
	}
	return a.blocksParams(e) / float64(a.Layers)
}

// largestLayerParams returns the largest block with every expert resident:
// an MoE layer when the model mixes dense and MoE layers, the unit FSDP
// and ZeRO-3 gather whole.
func (a *Architecture) largestLayerParams() float64 {
	if a.denseLayers() == 0 {
		return a.layerParams(a.experts())
	}
	base := a.attnParams() + float64(a.normsPerLayer())*a.normParams()
	moe := float64(a.experts())*a.mlpParams(a.FFN) + float64(a.Hidden*a.Experts)
	return base + max(moe, a.mlpParams(a.denseFFN()))
}

// embeddingParams returns the input embedding tables: tokens (or ViT's
// patch projection and class token), learned positions and token types.
func (a *Architecture) embeddingParams() float64 {
	h := float64(a.Hidden)
	if a.Family == FamilyViT {
		c := a.Channels
		if c == 0 {
			c = 3
		}
		patch := float64(c*a.PatchSize*a.PatchSize)*h + h // conv projection with bias
		return patch + h + float64(a.LearnedPositions)*h  // + class token
	}
	return float64(a.Vocab)*h + float64(a.LearnedPositions+a.TokenTypes)*h
}

// headParams returns the output head: the LM head when untied, or ViT's
// classifier (with bias), or a classification Head, plus BERT's pooler.
//
// A classification head is one Linear of hidden × Labels in place of the
// LM head, which the model then does not have, tied or not:
//
//   - decoders' sequence classification without bias (transformers
//     modeling_layers.py GenericForSequenceClassification: "self.score =
//     nn.Linear(config.hidden_size, self.num_labels, bias=False)"; GPT-2,
//     GPT-J, GPT-NeoX, OPT, BLOOM and Falcon write the same score);
//   - token classification with bias (GenericForTokenClassification:
//     "self.score = nn.Linear(config.hidden_size, config.num_labels)";
//     BertForTokenClassification's and RobertaForTokenClassification's
//     classifier, whose base model has no pooler: add_pooling_layer=False);
//   - encoders' sequence classification with bias, after the pooler
//     (BertForSequenceClassification: "self.classifier =
//     nn.Linear(config.hidden_size, config.num_labels)"; RoBERTa's
//     RobertaClassificationHead has a dense h×h layer with bias in place
//     of the pooler, the same count).
//
// The importer says which models have a pooler (Pooler) and counts heads
// the formula does not model (ModernBERT's ModernBertPredictionHead) in
// ExtraParams.
func (a *Architecture) headParams() float64 {
	h := float64(a.Hidden)
	var p float64
	switch {
	case a.Head != "":
		p = float64(a.Labels) * h
		if a.Head == HeadTokenClassification || a.Family != FamilyDecoder {
			p += float64(a.Labels) // bias
		}
	case a.Family == FamilyViT:
		p = float64(a.Vocab)*h + float64(a.Vocab)
	case a.Family == FamilyEncoder:
		// Encoders are counted as the bare model (BertModel): the MLM
		// head's decoder is tied to the embeddings, task heads are tiny.
	case !a.Tied:
		p = float64(a.Vocab) * h
	}
	if a.Pooler {
		p += h*h + h
	}
	return p
}

// stackParams returns all blocks plus the final norms, with e FFN-sized
// MLPs in each MoE layer. For post-norm encoders (BERT) there is no final
// norm, but the embedding LayerNorm has the same size, so the count is
// unchanged.
func (a *Architecture) stackParams(e int) float64 {
	p := a.blocksParams(e) + a.normParams()
	if a.Family == FamilyEncoderDecoder {
		cross := a.attnParams() + a.normParams()
		p += float64(a.DecoderLayers)*(a.layerParams(e)+cross) + a.normParams()
	}
	return p
}

// ParamCount returns the total parameter count: Params when set, else the
// shape formula. Tied embeddings count once; MoE counts every expert (all
// are resident in memory); a vision tower (VisionParams) is counted.
//
// The formula sums the modules of the Hugging Face implementation: per block
// the attention projections (q: h×a·d, k and v: h×kv·d, o: a·d×h; or
// multi-head latent attention's, see attnLinear), the MLP (2 or 3 matrices
// of h×ffn, per routed and shared expert, plus the router; dense layers of
// an MoE model one MLP of DenseFFN), and the norms; then embeddings,
// learned positions, the untied LM head and final norms (method of
// Narayanan et al., 2021, "Efficient Large-Scale Language Model Training on
// GPU Clusters", §5.1, generalised to GQA, gated MLPs and MoE).
func (a *Architecture) ParamCount() float64 {
	if a.Params > 0 || !a.HasShape() {
		return a.Params
	}
	return a.embeddingParams() + a.stackParams(a.experts()) + a.headParams() + a.ExtraParams + a.VisionParams
}

// ActiveParams returns the parameters used per text token: for MoE only
// the routed experts of ExpertsPerToken and the shared ones in each MoE
// layer, and never a vision tower; otherwise ParamCount.
func (a *Architecture) ActiveParams() float64 {
	if !a.HasShape() || a.Params > 0 {
		return a.ParamCount()
	}
	return a.embeddingParams() + a.stackParams(a.ActiveExperts()) + a.headParams() + a.ExtraParams
}

// ReportedActiveParams returns the parameters active per token as the
// model's publisher counts them, the figure reports print beside the
// total: ActiveParams, which counts the input embedding and the LM head,
// as Mistral (Mixtral 8x7B "uses 12.9B parameters per token"), Qwen,
// DeepSeek and Meta count their active parameters; except gpt-oss
// (ModelType "gpt_oss"), whose model card counts the unembedding but not
// the input embedding: of "Embed + Unembed" 1.16B only the unembedding is
// in its "Active Parameters", 3.61B (20b) and 5.13B (120b) (OpenAI,
// "gpt-oss-120b & gpt-oss-20b Model Card", arXiv 2508.10925, Table 1).
// Estimates use neither: the FLOPs per token leave the embedding lookup
// out for every model.
func (a *Architecture) ReportedActiveParams() float64 {
	n := a.ActiveParams()
	if a.ModelType == "gpt_oss" && a.HasShape() && !a.Tied && a.Head == "" {
		n -= float64(a.Vocab) * float64(a.Hidden)
	}
	return n
}

// LinearParams returns the parameters of the blocks' linear layers (the
// weights QLoRA stores in NF4 and int8/int4 inference quantizes), without
// biases, norms, routers, embeddings, the LM head or a vision tower.
// Without a shape it estimates them as ParamCount minus a 2% allowance for
// embeddings and norms.
func (a *Architecture) LinearParams() float64 {
	if !a.HasShape() {
		return 0.98 * a.ParamCount()
	}
	attn := a.attnLinear()
	p := float64(a.Layers)*attn + a.mlpStack(a.experts(), a.mlpLinear)
	if a.Family == FamilyEncoderDecoder {
		p += float64(a.DecoderLayers) * (2*attn + float64(a.experts())*a.mlpLinear(a.FFN))
	}
	if a.Params > 0 { // explicit count with a shape: scale to it
		full := a.embeddingParams() + a.stackParams(a.experts()) + a.headParams() + a.ExtraParams + a.VisionParams
		if full > 0 {
			p *= a.Params / full
		}
	}
	return p
}

// UnquantizedLinearParams returns the linear weights a quantized
// checkpoint keeps at 16 bits: UnquantizedAttnLayers layers of attention
// projections and UnquantizedMLPLayers layers of the mean layer's MLP
// linears (all of an MoE layer's experts), scaled to an explicit count as
// LinearParams is; never more than LinearParams. 0 without a shape.
func (a *Architecture) UnquantizedLinearParams() float64 {
	if !a.HasShape() || a.UnquantizedAttnLayers <= 0 && a.UnquantizedMLPLayers <= 0 {
		return 0
	}
	mlp := a.mlpStack(a.experts(), a.mlpLinear) / float64(a.Layers)
	p := a.UnquantizedAttnLayers*a.attnLinear() + a.UnquantizedMLPLayers*mlp
	if a.Params > 0 {
		full := a.embeddingParams() + a.stackParams(a.experts()) + a.headParams() + a.ExtraParams + a.VisionParams
		if full > 0 {
			p *= a.Params / full
		}
	}
	return min(p, a.LinearParams())
}

// ExpertLinearParams returns the linear weights of the routed experts of
// an MoE's MoE layers (LinearParams' MLP part in those layers; dense
// layers' MLPs, attention, routers, embeddings and head excluded), 0 for a
// dense model or one without a shape: the weights an MXFP4 checkpoint
// such as gpt-oss quantizes (config.json quantization_config
// modules_to_not_convert: self_attn, mlp.router, embed_tokens, lm_head).
func (a *Architecture) ExpertLinearParams() float64 {
	if !a.HasShape() || a.experts() <= 1 {
		return 0
	}
	p := float64(a.Layers-a.denseLayers()) * float64(a.experts()) * a.mlpLinear(a.FFN)
	if a.Params > 0 { // explicit count with a shape: scale to it, as LinearParams
		full := a.embeddingParams() + a.stackParams(a.experts()) + a.headParams() + a.ExtraParams + a.VisionParams
		if full > 0 {
			p *= a.Params / full
		}
	}
	return p
}

// RoutedExpertLinearParams returns the linear weights of the routed
// experts alone (ExpertLinearParams without the shared experts, which
// are MLPs of the same FFN size): the weights a current transformers
// stores as 3-D parameters of one experts module per MoE layer
// (integrations/moe.py use_experts_implementation, "Collection of expert
// weights stored as 3D tensors": Mixtral, Qwen3-MoE, DeepSeek-V3; gpt-oss
// GptOssExperts and Llama 4 Llama4TextExperts were always so), where the
// shared experts and dense MLPs stay nn.Linear modules. 0 for a dense
// model or one without a shape.
func (a *Architecture) RoutedExpertLinearParams() float64 {
	if a.Experts <= 1 {
		return 0
	}
	return a.ExpertLinearParams() * float64(a.Experts) / float64(a.experts())
}

// embeddingTable returns the input-embedding and LM-head parameters, which
// cost memory but whose lookups cost no matmul FLOPs.
func (a *Architecture) embeddingTable() float64 {
	if !a.HasShape() || a.Family == FamilyViT {
		return 0
	}
	return float64(a.Vocab+a.LearnedPositions+a.TokenTypes) * float64(a.Hidden)
}

// TotalLayers returns all transformer blocks (encoder plus decoder).
func (a *Architecture) TotalLayers() int { return a.Layers + a.DecoderLayers }

// Validate reports the first shape problem: missing or negative sizes,
// heads that do not divide the width, more active experts than experts.
// Errors wrap ErrInvalidArchitecture.
func (a *Architecture) Validate() error {
	bad := func(format string, args ...any) error {
		return Errorf(ErrInvalidArchitecture, format, args...)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{
		{"params", a.Params}, {"layers", float64(a.Layers)}, {"decoder_layers", float64(a.DecoderLayers)},
		{"hidden", float64(a.Hidden)}, {"heads", float64(a.Heads)}, {"kv_heads", float64(a.KVHeads)},
		{"head_dim", float64(a.HeadDim)}, {"ffn", float64(a.FFN)}, {"vocab", float64(a.Vocab)},
		{"experts", float64(a.Experts)}, {"experts_per_token", float64(a.ExpertsPerToken)},
		{"forward_gmacs", a.ForwardGMACs}, {"activation_mib_per_sample", a.ActivationMiBPerSample},
		{"max_positions", float64(a.MaxPositions)}, {"rope_theta", a.RopeTheta}, {"rope_original_positions", float64(a.RopeOriginal)},
		{"encoder_seq_len", float64(a.EncoderSeqLen)}, {"patch_size", float64(a.PatchSize)},
		{"image_size", float64(a.ImageSize)}, {"channels", float64(a.Channels)},
		{"learned_positions", float64(a.LearnedPositions)}, {"token_types", float64(a.TokenTypes)},
		{"norms_per_layer", float64(a.NormsPerLayer)}, {"shared_experts", float64(a.SharedExperts)},
		{"dense_layers", float64(a.DenseLayers)}, {"dense_ffn", float64(a.DenseFFN)}, {"q_lora_rank", float64(a.QLoRARank)},
		{"kv_lora_rank", float64(a.KVLoRARank)}, {"rope_head_dim", float64(a.RopeHeadDim)}, {"v_head_dim", float64(a.VHeadDim)},
		{"vision_params", a.VisionParams}, {"labels", float64(a.Labels)},
		{"sliding_window", float64(a.SlidingWindow)}, {"sliding_layers", float64(a.SlidingLayers)},
	} {
		if f.v < 0 || math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return bad("%s must be ≥ 0, got %v", f.name, f.v)
		}
	}
	if a.Params > MaxParams {
		return bad("params %.3g is above the %.0e limit", a.Params, MaxParams)
	}
	switch a.Head {
	case "":
	case HeadSequenceClassification, HeadTokenClassification:
		if a.Family != FamilyDecoder && a.Family != FamilyEncoder {
			return bad("a %s head needs a decoder or an encoder, got a %s", a.Head, a.Family)
		}
		if a.Labels < 1 || a.Labels > 1<<24 {
			return bad("a %s head needs labels 1–16777216, got %d", a.Head, a.Labels)
		}
	default:
		return bad("head %q: want sequence-classification or token-classification", a.Head)
	}
	switch {
	case !a.Family.Transformer():
		if a.Params < 1 {
			return bad("a %s needs params ≥ 1", a.Family)
		}
		return nil
	case a.Params < 1 && !a.HasShape():
		return bad("give params, or layers, hidden and heads")
	case !a.HasShape():
		return nil
	}
	if a.Layers > 1000 || a.Hidden > 1<<20 || a.Heads > 1<<14 || a.Vocab > 1<<24 || a.FFN > 1<<22 {
		return bad("shape out of range (layers ≤ 1000, hidden ≤ 1048576, heads ≤ 16384, vocab ≤ 16777216, ffn ≤ 4194304)")
	}
	if a.HeadDim == 0 && a.Hidden%a.Heads != 0 {
		return bad("hidden %d is not a multiple of heads %d; give head_dim", a.Hidden, a.Heads)
	}
	if a.KVHeads > 0 && a.Heads%a.KVHeads != 0 {
		return bad("heads %d is not a multiple of kv_heads %d", a.Heads, a.KVHeads)
	}
	if a.FFN == 0 {
		return bad("ffn must be > 0 when the shape is given")
	}
	if a.Experts > 1 && (a.ExpertsPerToken < 1 || a.ExpertsPerToken > a.Experts) {
		return bad("experts_per_token must be 1–%d, got %d", a.Experts, a.ExpertsPerToken)
	}
	if (a.SharedExperts > 0 || a.DenseLayers > 0 || a.DenseFFN > 0) && a.Experts < 2 {
		return bad("shared_experts, dense_layers and dense_ffn need experts ≥ 2")
	}
	if a.DenseLayers > a.Layers || a.SharedExperts > 1<<10 || a.DenseFFN > 1<<22 {
		return bad("dense_layers must be ≤ layers (%d), shared_experts ≤ 1024, dense_ffn ≤ 4194304", a.Layers)
	}
	if a.QLoRARank > 0 || a.RopeHeadDim > 0 || a.VHeadDim > 0 {
		if a.KVLoRARank == 0 {
			return bad("q_lora_rank, rope_head_dim and v_head_dim describe multi-head latent attention: give kv_lora_rank")
		}
	}
	if a.KVLoRARank > 0 && (a.HeadDim == 0 || a.RopeHeadDim >= a.HeadDim || a.KVLoRARank > 1<<16 || a.QLoRARank > 1<<16 || a.VHeadDim > 1<<16) {
		return bad("multi-head latent attention needs head_dim (qk_nope_head_dim + qk_rope_head_dim) above rope_head_dim, and ranks and v_head_dim ≤ 65536")
	}
	if a.VisionParams > MaxParams {
		return bad("vision_params %.3g is above the %.0e limit", a.VisionParams, MaxParams)
	}
	if a.Family == FamilyEncoderDecoder && a.DecoderLayers < 1 {
		return bad("an encoder-decoder needs decoder_layers ≥ 1")
	}
	if err := a.validateSlidingWindow(); err != nil {
		return err
	}
	if a.Family == FamilyViT && a.PatchSize < 1 {
		return bad("a vit needs patch_size ≥ 1")
	}
	if math.IsNaN(a.ExtraParams) || math.IsInf(a.ExtraParams, 0) {
		return bad("extra_params must be finite, got %v", a.ExtraParams)
	}
	if p := a.ParamCount(); p > MaxParams || p < 1 {
		return bad("shape gives %.3g parameters; want 1 to %.0e", p, MaxParams)
	}
	return nil
}

// MaxSlidingWindow bounds SlidingWindow: 2³⁰ tokens, far above any
// context a model is served at (Phi-4-mini's config.json gives 262144, twice
// its positions), so that window arithmetic cannot overflow.
const MaxSlidingWindow = 1 << 30

// validateSlidingWindow checks the sliding-window shape: a window and the
// layers that slide go together, on a decoder's layers, and not with
// multi-head latent attention, which vLLM does not run with a window
// (vllm/model_executor/layers/attention: "MLA is not supported for
// slidingwindow").
func (a *Architecture) validateSlidingWindow() error {
	bad := func(format string, args ...any) error {
		return Errorf(ErrInvalidArchitecture, format, args...)
	}
	switch {
	case a.SlidingWindow == 0 && a.SlidingLayers == 0:
		return nil
	case a.Family != FamilyDecoder:
		return bad("sliding_window and sliding_layers describe a decoder's attention, not a %s's", a.Family)
	case a.SlidingWindow < 1 || a.SlidingWindow > MaxSlidingWindow:
		return bad("sliding_layers needs sliding_window 1–%d, got %d", MaxSlidingWindow, a.SlidingWindow)
	case a.SlidingLayers < 1 || a.SlidingLayers > a.Layers:
		return bad("sliding_window needs sliding_layers 1–%d (the layers), got %d", a.Layers, a.SlidingLayers)
	case a.KVLoRARank > 0:
		return bad("sliding_window with kv_lora_rank: vLLM runs multi-head latent attention without a sliding window")
	}
	return nil
}

// FullAttentionLayers returns the decoder layers that attend to the
// whole context: all of them but SlidingLayers (an encoder-decoder's
// DecoderLayers, a decoder's Layers).
func (a *Architecture) FullAttentionLayers() int {
	n := a.Layers
	if a.Family == FamilyEncoderDecoder {
		n = a.DecoderLayers
	}
	if a.SlidingWindow > 0 {
		n -= min(a.SlidingLayers, n)
	}
	return n
}

// MaxParams bounds accepted parameter counts: 10¹⁴ is 50× the largest
// published dense model, so larger values are typos (e.g. bytes for params).
const MaxParams = 1e14
