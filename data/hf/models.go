package hf

import (
	"encoding/json"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// mapping fills a from a config.json's fields and returns delta: the
// parameters the transformers modules have beyond model.Architecture's
// shape formula (negative when they have fewer). Shape keys (width, depth,
// heads, MLP size, vocabulary) are required; other absent keys take the
// defaults of the model's transformers Config class.
type mapping func(f *fields, a *model.Architecture) (delta float64)

// mappings holds the model_types read exactly, with legacy spellings.
var mappings = map[string]mapping{
	"llama":           llama,
	"mistral":         llama, // no biases; sliding window has no parameters
	"mixtral":         mixtral,
	"qwen2":           qwen2,
	"qwen3":           qwen3,
	"qwen3_moe":       qwen3MoE,
	"gemma":           gemma,
	"gemma2":          gemma2,
	"gemma3_text":     gemma3Text,
	"llama4_text":     llama4Text,
	"gpt_oss":         gptOss,
	"deepseek_v3":     deepseekV3,
	"smollm3":         smollm3,
	"modernbert":      modernBERT,
	"phi3":            phi3,
	"phi":             phi,
	"gpt2":            gpt2,
	"gpt_neox":        gptNeoX,
	"gptj":            gptJ,
	"falcon":          falcon(false),
	"RefinedWebModel": falcon(false), // falcon-7b's legacy config
	"RefinedWeb":      falcon(true),  // falcon-40b's legacy config (new decoder architecture)
	"opt":             opt,
	"bloom":           bloom,
	"bert":            bert,
	"roberta":         roberta,
	"distilbert":      distilbert,
	"xlm-roberta":     roberta,
	"t5":              t5(true),
	"mt5":             t5(false),
	"whisper":         whisper,
}

// Projections: model.Architecture.FusedQKV and FusedGateUp are set where
// the transformers modeling file computes queries, keys and values (or a
// gated MLP's gate and up) with one Linear; every other model_type, and
// generic, keeps the separate projections of the majority (modeling_llama.py
// q_proj/k_proj/v_proj and gate_proj/up_proj, modeling_bert.py
// query/key/value, modeling_t5.py q/k/v and wi_0/wi_1, modeling_whisper.py,
// modeling_opt.py, modeling_gptj.py and modeling_phi.py q_proj/k_proj/v_proj),
// which costs more under torch.autocast: the safe side for an unknown one.

// decoderShape reads the keys most decoders share under Llama's names.
func decoderShape(f *fields, a *model.Architecture) {
	a.Hidden = f.need("hidden_size")
	a.Layers = f.need("num_hidden_layers")
	a.Heads = f.need("num_attention_heads")
	a.KVHeads = f.count(0, "num_key_value_heads") // absent: multi-head attention
	a.HeadDim = f.count(0, "head_dim")            // absent: hidden_size / heads
	a.FFN = f.need("intermediate_size")
	a.Vocab = f.need("vocab_size")
	a.MaxPositions = f.int(0, "max_position_embeddings")
}

// llamaStyle is a pre-norm decoder with RMSNorm, a gated MLP and no biases
// unless attention_bias (q, k, v and o) or mlp_bias (gate, up, down) say so.
// Extra: o_proj biases when only attention_bias is set (L·h), the MLP's
// biases when only mlp_bias is set (L·(2·ffn + h)).
func llamaStyle(f *fields, a *model.Architecture, tiedDefault bool) (delta float64) {
	decoderShape(f, a)
	a.GatedMLP = true
	a.Norm = model.RMSNorm
	a.Tied = f.bool(tiedDefault, "tie_word_embeddings")
	attnBias, mlpBias := f.bool(false, "attention_bias"), f.bool(false, "mlp_bias")
	l, h, ffn := float64(a.Layers), float64(a.Hidden), float64(a.FFN)
	switch {
	case attnBias && mlpBias:
		a.LinearBias = true
	case attnBias:
		a.QKVBias = true
		delta += l * h
	case mlpBias:
		delta += l * (2*ffn + h)
	}
	return delta
}

// llama also reads mistral: untied unless the config says so.
func llama(f *fields, a *model.Architecture) float64 { return llamaStyle(f, a, false) }

// phi3 is Llama's shape with fused projections (modeling_phi3.py
// Phi3Attention.qkv_proj, Phi3MLP.gate_up_proj), which hold the same
// parameter count as separate ones.
func phi3(f *fields, a *model.Architecture) float64 {
	d := llamaStyle(f, a, false)
	a.FusedQKV, a.FusedGateUp = true, true
	return d
}

// mixtral is Mistral with num_local_experts gated MLPs per layer, of which
// num_experts_per_tok run per token; the formula adds the router (h ×
// experts, no bias).
func mixtral(f *fields, a *model.Architecture) float64 {
	d := llamaStyle(f, a, false)
	a.Experts = f.need("num_local_experts")
	a.ExpertsPerToken = f.need("num_experts_per_tok")
	return d
}

// qwen2 always has q, k and v biases (o_proj and the MLP have none).
func qwen2(f *fields, a *model.Architecture) float64 {
	d := llamaStyle(f, a, false)
	a.QKVBias = true
	return d
}

// qwen3 drops Qwen2's q/k/v biases and adds q_norm and k_norm, RMSNorms of
// head_dim (default 128) on queries and keys (QKNorm).
func qwen3(f *fields, a *model.Architecture) float64 {
	d := llamaStyle(f, a, false)
	if a.HeadDim == 0 {
		a.HeadDim = 128
	}
	a.QKNorm = true
	return d
}

// qwen3MoE is Qwen3 with num_experts MLPs of moe_intermediate_size per
// layer, num_experts_per_tok of them per token, no shared expert and a
// router without bias (modeling_qwen3_moe.py Qwen3MoeSparseMoeBlock).
// Layer i is dense (one MLP of intermediate_size) when it is in
// mlp_only_layers or (i+1) is not a multiple of decoder_sparse_step
// (Qwen3MoeDecoderLayer).
func qwen3MoE(f *fields, a *model.Architecture) float64 {
	d := qwen3(f, a)
	dense := a.FFN
	a.FFN = f.need("moe_intermediate_size")
	a.Experts = f.need("num_experts")
	a.ExpertsPerToken = f.need("num_experts_per_tok")
	step := f.int(1, "decoder_sparse_step")
	only := map[int]bool{}
	for _, i := range f.ints("mlp_only_layers") {
		only[i] = true
	}
	for i := range a.Layers {
		if only[i] || step < 1 || (i+1)%step != 0 {
			a.DenseLayers++
		}
	}
	if a.DenseLayers > 0 {
		a.DenseFFN = dense
	}
	return d
}

// llama4Text reads Llama 4's language model (modeling_llama4.py
// Llama4TextModel): Llama attention (head_dim default 128; the L2 query/key
// norm has no weights), and in each layer of moe_layers (default every
// interleave_moe_layer_step-th, counting from step−1) num_local_experts
// gated MLPs of intermediate_size (Llama4TextExperts), a router without
// bias and one shared expert of the same size (Llama4TextMoe); the other
// layers have one dense MLP of intermediate_size_mlp.
func llama4Text(f *fields, a *model.Architecture) float64 {
	d := llamaStyle(f, a, false)
	if a.HeadDim == 0 {
		a.HeadDim = 128
	}
	a.Experts = f.need("num_local_experts")
	a.ExpertsPerToken = f.need("num_experts_per_tok")
	a.SharedExperts = 1
	moe := len(f.ints("moe_layers"))
	if !f.has("moe_layers") {
		step := f.int(1, "interleave_moe_layer_step")
		moe = 0
		for i := step - 1; step > 0 && i < a.Layers; i += step {
			moe++
		}
	}
	a.DenseLayers = max(a.Layers-moe, 0)
	if a.DenseLayers > 0 {
		a.DenseFFN = f.need("intermediate_size_mlp")
	}
	return d
}

// gptOss (modeling_gpt_oss.py): attention with q, k, v and o biases
// (attention_bias, default true) and one learned sink logit per head
// (GptOssAttention.sinks); in every layer num_local_experts gated MLPs of
// intermediate_size with biases (GptOssExperts: gate_up_proj and its bias
// of 2·ffn, down_proj and its bias of h), stored as one gate/up
// projection, and a router with a bias (GptOssTopKRouter). Extra: the
// router biases and sinks, L·(experts + heads); without attention_bias
// minus the attention biases the formula counts.
func gptOss(f *fields, a *model.Architecture) float64 {
	decoderShape(f, a)
	a.GatedMLP, a.FusedGateUp = true, true
	a.Norm = model.RMSNorm
	a.Tied = f.bool(false, "tie_word_embeddings")
	a.LinearBias = true
	a.Experts = f.need("num_local_experts")
	a.ExpertsPerToken = f.need("num_experts_per_tok", "experts_per_token")
	if a.HeadDim == 0 && a.Heads > 0 {
		a.HeadDim = a.Hidden / a.Heads
	}
	d := float64(a.Layers) * float64(a.Experts+a.Heads)
	if !f.bool(true, "attention_bias") {
		kv := a.KVHeads
		if kv == 0 {
			kv = a.Heads
		}
		d -= float64(a.Layers) * float64((a.Heads+2*kv)*a.HeadDim+a.Hidden)
	}
	return d
}

// deepseekV3 (modeling_deepseek_v3.py): multi-head latent attention
// (q_lora_rank, kv_lora_rank, qk_nope_head_dim + qk_rope_head_dim per
// query/key head, v_head_dim), the first first_k_dense_replace layers with
// one MLP of intermediate_size, the others n_routed_experts MLPs of
// moe_intermediate_size plus n_shared_experts shared ones and a router
// (DeepseekV3TopkRouter.weight; e_score_correction_bias is a buffer).
// Extra: with attention_bias, the biases of q_a_proj, kv_a_proj_with_mqa
// and o_proj. The multi-token-prediction layer of the checkpoint
// (num_nextn_predict_layers) is not loaded by transformers and not counted.
func deepseekV3(f *fields, a *model.Architecture) float64 {
	a.Hidden = f.need("hidden_size")
	a.Layers = f.need("num_hidden_layers")
	a.Heads = f.need("num_attention_heads")
	a.KVHeads = a.Heads // every head gets its own key and value from the latent
	a.Vocab = f.need("vocab_size")
	a.MaxPositions = f.int(0, "max_position_embeddings")
	a.RopeHeadDim = f.need("qk_rope_head_dim")
	a.HeadDim = f.need("qk_nope_head_dim") + a.RopeHeadDim
	a.VHeadDim = f.need("v_head_dim")
	a.KVLoRARank = f.need("kv_lora_rank")
	a.QLoRARank = f.int(0, "q_lora_rank") // null: one q_proj (DeepSeek-V2-Lite)
	a.GatedMLP = true
	a.Norm = model.RMSNorm
	a.Tied = f.bool(false, "tie_word_embeddings")
	a.FFN = f.need("moe_intermediate_size")
	a.Experts = f.need("n_routed_experts")
	a.ExpertsPerToken = f.need("num_experts_per_tok")
	a.SharedExperts = f.int(0, "n_shared_experts")
	a.DenseLayers = min(f.int(0, "first_k_dense_replace"), a.Layers)
	if a.DenseLayers > 0 {
		a.DenseFFN = f.need("intermediate_size")
	}
	if f.bool(false, "attention_bias") {
		return float64(a.Layers) * float64(a.QLoRARank+a.KVLoRARank+a.RopeHeadDim+a.Hidden)
	}
	return 0
}

// smollm3 is Llama with tied embeddings by default; the layers that skip
// rotary positions (no_rope_layers) have no parameters of their own.
func smollm3(f *fields, a *model.Architecture) float64 { return llamaStyle(f, a, true) }

// gemma is Llama with a GeGLU MLP, tied embeddings by default and head_dim
// 256 by default, which need not equal hidden_size/heads (gemma-7b: 16 ×
// 256 = 4096 ≠ 3072).
func gemma(f *fields, a *model.Architecture) float64 {
	d := llamaStyle(f, a, true)
	if a.HeadDim == 0 {
		a.HeadDim = 256
	}
	return d
}

// gemma2 adds a norm after attention and after the MLP: four per layer.
func gemma2(f *fields, a *model.Architecture) float64 {
	d := gemma(f, a)
	a.NormsPerLayer = 4
	return d
}

// gemma3Text is Gemma 2's layer with q_norm and k_norm of head_dim
// (modeling_gemma3.py Gemma3Attention). The published configs leave most
// keys to Gemma3TextConfig's defaults (configuration_gemma3.py:
// vocab_size 262208, 8 heads, 4 KV heads, head_dim 256, 131072 positions,
// tied), so only hidden_size, num_hidden_layers and intermediate_size are
// required.
func gemma3Text(f *fields, a *model.Architecture) float64 {
	a.Hidden = f.need("hidden_size")
	a.Layers = f.need("num_hidden_layers")
	a.FFN = f.need("intermediate_size")
	a.Heads = f.int(8, "num_attention_heads")
	a.KVHeads = f.count(4, "num_key_value_heads")
	a.HeadDim = f.int(256, "head_dim")
	a.Vocab = f.int(262208, "vocab_size")
	a.MaxPositions = f.int(131072, "max_position_embeddings")
	a.GatedMLP = true
	a.Norm = model.RMSNorm
	a.NormsPerLayer = 4
	a.QKNorm = true
	a.Tied = f.bool(true, "tie_word_embeddings")
	if f.bool(false, "attention_bias") {
		a.QKVBias = true
		return float64(a.Layers) * float64(a.Hidden)
	}
	return 0
}

// modernBERT counts ModernBertModel (modeling_modernbert.py): token
// embeddings and their LayerNorm, pre-norm layers with one Wqkv and one Wo
// projection and a GeGLU MLP whose Wi computes gate and up at once, a
// final LayerNorm; rotary positions, no pooler, the MLM decoder tied.
// Biases on linears only with attention_bias and mlp_bias, on LayerNorms
// only with norm_bias (all false by default). Extra, signed: the norms
// have h (not the formula's 2h) parameters without norm_bias, and layer 0
// has no attention norm (attn_norm is nn.Identity): 2L+1 norms against the
// formula's 2L + 1 of 2h; biases of one projection kind only; with a
// classification head, its ModernBertPredictionHead.
func modernBERT(f *fields, a *model.Architecture) float64 {
	a.Family = model.FamilyEncoder
	a.Hidden = f.need("hidden_size")
	a.Layers = f.need("num_hidden_layers")
	a.Heads = f.need("num_attention_heads")
	a.FFN = f.need("intermediate_size")
	a.Vocab = f.need("vocab_size")
	a.MaxPositions = f.int(8192, "max_position_embeddings")
	a.Norm = model.LayerNorm
	a.GatedMLP, a.FusedQKV, a.FusedGateUp = true, true, true
	a.Tied = true
	h, l, ffn := float64(a.Hidden), float64(a.Layers), float64(a.FFN)
	norm := h
	if f.bool(false, "norm_bias") {
		norm = 2 * h
	}
	d := (2*l+1)*norm - (4*l+2)*h
	attnBias, mlpBias := f.bool(false, "attention_bias"), f.bool(false, "mlp_bias")
	switch {
	case attnBias && mlpBias:
		a.LinearBias = true
	case attnBias:
		d += l * 4 * h
	case mlpBias:
		d += l * (2*ffn + h)
	}
	if a.Head != "" {
		// ModernBertForSequenceClassification and
		// ...ForTokenClassification put ModernBertPredictionHead before
		// the classifier: "self.dense = nn.Linear(config.hidden_size,
		// config.hidden_size, config.classifier_bias)" and "self.norm =
		// nn.LayerNorm(config.hidden_size, eps=config.norm_eps,
		// bias=config.norm_bias)" (classifier_bias false by default).
		d += h*h + norm
		if f.bool(false, "classifier_bias") {
			d += h
		}
	}
	return d
}

// phi (phi-1, phi-1.5, phi-2): parallel attention and MLP behind one
// LayerNorm, biases on every linear layer, untied. Extra: the lm_head bias
// (vocab), and with qk_layernorm a LayerNorm of head_dim on queries and keys
// (L·2·2·head_dim).
func phi(f *fields, a *model.Architecture) float64 {
	decoderShape(f, a)
	a.Norm = model.LayerNorm
	a.NormsPerLayer = 1
	a.LinearBias = true
	a.Tied = f.bool(false, "tie_word_embeddings")
	var d float64
	if a.Head == "" { // PhiForSequenceClassification has a score, no lm_head
		d = float64(a.Vocab)
	}
	if f.bool(false, "qk_layernorm") && a.Heads > 0 {
		hd := a.HeadDim
		if hd == 0 {
			hd = a.Hidden / a.Heads
		}
		d += float64(a.Layers) * 4 * float64(hd)
	}
	return d
}

// gpt2: learned positions (n_positions), LayerNorm, biases everywhere
// (Conv1D layers), tied LM head, MLP of n_inner (default 4·h), one
// query/key/value projection (modeling_gpt2.py GPT2Attention.c_attn). The
// checkpoint's attn.bias causal masks are buffers, not parameters.
func gpt2(f *fields, a *model.Architecture) float64 {
	a.Hidden = f.need("n_embd", "hidden_size")
	a.Layers = f.need("n_layer", "num_hidden_layers")
	a.Heads = f.need("n_head", "num_attention_heads")
	a.FFN = f.int(4*a.Hidden, "n_inner")
	a.Vocab = f.need("vocab_size")
	a.LearnedPositions = f.int(1024, "n_positions", "max_position_embeddings")
	a.MaxPositions = a.LearnedPositions
	a.Norm = model.LayerNorm
	a.LinearBias = true
	a.FusedQKV = true
	a.Tied = f.bool(true, "tie_word_embeddings")
	return 0
}

// gptNeoX (GPT-NeoX-20B, Pythia): rotary (partial rotary has no
// parameters), two LayerNorms per layer whether or not the residual is
// parallel, untied embed_in/embed_out, one query_key_value projection
// (modeling_gpt_neox.py GPTNeoXAttention), biases everywhere unless
// attention_bias is false. Extra: the MLP biases in that case (L·(ffn+h)).
func gptNeoX(f *fields, a *model.Architecture) float64 {
	decoderShape(f, a)
	a.KVHeads, a.HeadDim = 0, 0 // GPT-NeoX has neither key
	a.Norm = model.LayerNorm
	a.FusedQKV = true
	a.Tied = f.bool(false, "tie_word_embeddings")
	if f.bool(true, "attention_bias") {
		a.LinearBias = true
		return 0
	}
	return float64(a.Layers) * float64(a.FFN+a.Hidden)
}

// gptJ: parallel attention and MLP behind one LayerNorm (ln_1), rotary,
// q/k/v/out projections without bias, fc_in/fc_out with bias, untied
// lm_head with bias. Extra: the MLP biases (L·(ffn+h)) and the lm_head bias
// (vocab).
func gptJ(f *fields, a *model.Architecture) float64 {
	a.Hidden = f.need("n_embd", "hidden_size")
	a.Layers = f.need("n_layer", "num_hidden_layers")
	a.Heads = f.need("n_head", "num_attention_heads")
	a.FFN = f.int(4*a.Hidden, "n_inner")
	a.Vocab = f.need("vocab_size")
	a.MaxPositions = f.int(0, "n_positions", "max_position_embeddings")
	a.Norm = model.LayerNorm
	a.NormsPerLayer = 1
	a.Tied = f.bool(false, "tie_word_embeddings")
	d := float64(a.Layers) * float64(a.FFN+a.Hidden)
	if a.Head == "" { // GPTJForSequenceClassification: "self.score = nn.Linear(config.n_embd, self.num_labels, bias=False)", no lm_head
		d += float64(a.Vocab)
	}
	return d
}

// falcon reads both the current keys (model_type "falcon",
// num_attention_heads, num_hidden_layers, num_kv_heads) and the legacy
// RefinedWebModel (falcon-7b) and RefinedWeb (falcon-40b) ones (n_head,
// n_layer, n_head_kv). newArch is the default of new_decoder_architecture:
// true for RefinedWeb, whose code always had the 40B layout.
//
// Key/value heads: num_kv_heads with the new decoder architecture, 1 with
// multi_query, else all heads. Layer norms (LayerNorm with bias): two per
// layer when attention and MLP are sequential (input_layernorm,
// post_attention_layernorm) or num_ln_in_parallel_attn is 2 (ln_attn,
// ln_mlp; the default with the new architecture), else one
// (input_layernorm). Biases only when bias is true; ALiBi has no parameters;
// tied by default. No extra parameters. One query_key_value projection
// (modeling_falcon.py FalconAttention).
func falcon(newArch bool) mapping {
	return func(f *fields, a *model.Architecture) float64 {
		legacy := f.has("n_head") || f.has("n_layer")
		a.Hidden = f.need("hidden_size", "n_embed")
		a.Layers = f.need("num_hidden_layers", "n_layer")
		a.Heads = f.need("num_attention_heads", "n_head")
		a.Vocab = f.need("vocab_size")
		a.FFN = f.int(4*a.Hidden, "ffn_hidden_size")
		a.MaxPositions = f.int(2048, "max_position_embeddings") // FalconConfig default; RW models trained at 2048
		a.Norm = model.LayerNorm
		a.FusedQKV = true
		a.LinearBias = f.bool(false, "bias")
		a.Tied = f.bool(true, "tie_word_embeddings")
		newArch := f.bool(newArch, "new_decoder_architecture")
		multiQuery := f.bool(!legacy, "multi_query") // FalconConfig: true; RWConfig: false
		switch {
		case newArch:
			a.KVHeads = f.count(a.Heads, "num_kv_heads", "n_head_kv")
		case multiQuery:
			a.KVHeads = 1
		}
		lnParallel := 1
		if newArch {
			lnParallel = 2
		}
		if !f.bool(true, "parallel_attn") || f.int(lnParallel, "num_ln_in_parallel_attn") == 2 {
			a.NormsPerLayer = 2
		} else {
			a.NormsPerLayer = 1
		}
		return 0
	}
}

// opt: learned positions with 2 offset rows (max_position_embeddings+2),
// LayerNorm, biases everywhere (enable_bias), tied LM head. Extra, signed:
// with word_embed_proj_dim p ≠ h (OPT-350m) the token embedding (and an
// untied head) is vocab×p instead of vocab×h and project_in/project_out add
// 2·p·h; without do_layer_norm_before (or with _remove_final_layer_norm)
// there is no final layer norm (−2h); layer_norm_elementwise_affine false
// removes every norm's parameters.
func opt(f *fields, a *model.Architecture) float64 {
	a.Hidden = f.need("hidden_size")
	a.Layers = f.need("num_hidden_layers")
	a.Heads = f.need("num_attention_heads")
	a.FFN = f.need("ffn_dim")
	a.Vocab = f.need("vocab_size")
	a.MaxPositions = f.int(2048, "max_position_embeddings")
	a.LearnedPositions = a.MaxPositions + 2
	a.Norm = model.LayerNorm
	a.LinearBias = f.bool(true, "enable_bias")
	a.Tied = f.bool(true, "tie_word_embeddings")
	h, v := float64(a.Hidden), float64(a.Vocab)
	var d float64
	if p := float64(f.int(a.Hidden, "word_embed_proj_dim")); p != h {
		d += v*(p-h) + 2*p*h
		switch {
		case a.Head != "":
			// OPTForSequenceClassification: "self.score =
			// nn.Linear(config.word_embed_proj_dim, self.num_labels,
			// bias=False)", not the formula's hidden × labels.
			d += float64(a.Labels) * (p - h)
		case !a.Tied:
			d += v * (p - h)
		}
	}
	finalNorm := f.bool(true, "do_layer_norm_before") && !f.bool(false, "_remove_final_layer_norm")
	if !finalNorm {
		d -= 2 * h
	}
	if !f.bool(true, "layer_norm_elementwise_affine") {
		norms := 2 * float64(a.Layers)
		if finalNorm {
			norms++
		}
		d -= norms * 2 * h
	}
	return d
}

// bloom: ALiBi (no position parameters), LayerNorm, biases everywhere, MLP
// of 4·h, tied, one query_key_value projection (modeling_bloom.py
// BloomAttention). Extra: word_embeddings_layernorm after the embedding (2h).
func bloom(f *fields, a *model.Architecture) float64 {
	a.Hidden = f.need("hidden_size", "n_embed")
	a.Layers = f.need("n_layer", "num_hidden_layers")
	a.Heads = f.need("n_head", "num_attention_heads")
	a.Vocab = f.need("vocab_size")
	a.FFN = 4 * a.Hidden
	a.Norm = model.LayerNorm
	a.LinearBias = true
	a.FusedQKV = true
	a.Tied = f.bool(true, "tie_word_embeddings")
	return 2 * float64(a.Hidden)
}

// bert counts BertModel: token, position and token-type embeddings and
// their LayerNorm (which stands in for the formula's final norm), post-norm
// layers with biases everywhere, and the pooler. Task heads (MLM, NSP) are
// not counted, and Tied keeps the formula from adding an LM head; a
// classification head is (model.Architecture.Head), without the pooler
// for token classification.
func bert(f *fields, a *model.Architecture) float64 {
	a.Family = model.FamilyEncoder
	a.Hidden = f.need("hidden_size")
	a.Layers = f.need("num_hidden_layers")
	a.Heads = f.need("num_attention_heads")
	a.FFN = f.need("intermediate_size")
	a.Vocab = f.need("vocab_size")
	a.LearnedPositions = f.int(512, "max_position_embeddings")
	a.MaxPositions = a.LearnedPositions
	a.TokenTypes = f.int(2, "type_vocab_size")
	a.Norm = model.LayerNorm
	a.LinearBias = true
	// BertForTokenClassification builds "BertModel(config,
	// add_pooling_layer=False)"; BertForSequenceClassification keeps the
	// pooler (model.Architecture.headParams counts the classifier).
	a.Pooler = a.Head != model.HeadTokenClassification
	a.Tied = true
	if pt := f.text("position_embedding_type"); pt != "" && pt != "absolute" {
		// relative_key(_query) adds a (2·max_positions−1)×head_dim table per layer.
		return float64(a.Layers) * float64(2*a.LearnedPositions-1) * float64(a.Hidden/max(a.Heads, 1))
	}
	return 0
}

// roberta (and xlm-roberta) count RobertaModel, built as BertModel: the
// position table's max_position_embeddings rows include the padding offset
// (514 = 512 + 2), so 2 fewer positions are usable; type_vocab_size is 1.
// RobertaForSequenceClassification drops the pooler ("RobertaModel(config,
// add_pooling_layer=False)") for RobertaClassificationHead, whose dense
// h×h layer with bias counts as the pooler did, then out_proj (the
// formula's classifier).
func roberta(f *fields, a *model.Architecture) float64 {
	d := bert(f, a)
	a.TokenTypes = f.int(1, "type_vocab_size")
	if a.MaxPositions > 2 {
		a.MaxPositions -= 2
	}
	return d
}

// distilbert counts DistilBertModel (transformers
// models/distilbert/modeling_distilbert.py): token and position embeddings
// (no token types) and their LayerNorm, which stands in for the formula's
// final norm, then post-norm layers of q_lin, k_lin, v_lin and out_lin and
// an MLP of lin1 and lin2 (hidden_dim), all with biases, and two
// LayerNorms (sa_layer_norm, output_layer_norm). The position table,
// Embeddings.position_embeddings = "nn.Embedding(config.max_position_embeddings,
// config.dim)", is built whether sinusoidal_pos_embds fills it with fixed
// values or not: it counts, and its rows bound the sequence
// (model.Architecture.PositionLimit). DistilBertForSequenceClassification
// adds pre_classifier, "nn.Linear(config.dim, config.dim)", counted as
// BERT's pooler, before its classifier; DistilBertForTokenClassification
// has the classifier only. The MLM head (vocab_transform,
// vocab_layer_norm, a vocab_projector tied to the word embeddings) is not
// counted, as for BERT. Absent keys take DistilBertConfig's defaults
// (configuration_distilbert.py: max_position_embeddings 512); its
// attribute_map names the shape keys dim, n_layers and n_heads.
func distilbert(f *fields, a *model.Architecture) float64 {
	a.Family = model.FamilyEncoder
	a.Hidden = f.need("dim")
	a.Layers = f.need("n_layers")
	a.Heads = f.need("n_heads")
	a.FFN = f.need("hidden_dim")
	a.Vocab = f.need("vocab_size")
	a.LearnedPositions = f.int(512, "max_position_embeddings")
	a.MaxPositions = a.LearnedPositions
	a.Norm = model.LayerNorm
	a.LinearBias = true
	a.Pooler = a.Head == model.HeadSequenceClassification
	a.Tied = true
	return 0
}

// t5 (and mt5, untied by default): encoder-decoder with RMS-style layer
// norms (weight only), no biases, attention width num_heads × d_kv, a ReLU
// or gated (feed_forward_proj "gated-gelu") MLP, one shared embedding and
// an LM head tied to it unless tie_word_embeddings is false. Relative
// positions set no hard limit, but the released configs say the length
// the model was trained at (n_positions 512: t5-base, t5-large; not a
// T5Config attribute, a key kept from the original release), which bounds
// the sequence length as the catalog's T5 entries do (max_positions 512);
// without the key nothing does. Extra: the relative_attention_bias
// tables of the first encoder and first decoder layer (2·buckets·heads).
func t5(tiedDefault bool) mapping {
	return func(f *fields, a *model.Architecture) float64 {
		a.Family = model.FamilyEncoderDecoder
		a.Hidden = f.need("d_model")
		a.Layers = f.need("num_layers")
		a.DecoderLayers = f.int(a.Layers, "num_decoder_layers")
		a.Heads = f.need("num_heads")
		a.HeadDim = f.need("d_kv")
		a.FFN = f.need("d_ff")
		a.Vocab = f.need("vocab_size")
		a.GatedMLP = strings.HasPrefix(f.text("feed_forward_proj"), "gated-")
		a.Norm = model.RMSNorm
		a.Tied = f.bool(tiedDefault, "tie_word_embeddings")
		a.MaxPositions = f.int(0, "n_positions")
		return 2 * float64(f.int(32, "relative_attention_num_buckets")) * float64(a.Heads)
	}
}

// whisper counts WhisperForConditionalGeneration: encoder layers (heads,
// ffn from the encoder_ keys), decoder layers with cross-attention, learned
// decoder positions (max_target_positions, which also bounds the output
// length), LayerNorm, biases everywhere but k_proj, proj_out tied to the
// token embedding. Extra, signed: the conv front end (conv1: mel×h×3 + h,
// conv2: h×h×3 + h), the encoder's position table (max_source_positions×h),
// minus the k_proj biases the formula counts (one h per attention: L + 2·D),
// plus the decoder MLPs' difference when decoder_ffn_dim ≠ encoder_ffn_dim.
//
// The encoder's length is fixed, whatever the audio: WhisperEncoder.forward
// refuses input features of any length but max_source_positions ×
// conv1.stride × conv2.stride mel frames (transformers
// models/whisper/modeling_whisper.py: "Whisper expects the mel input
// features to be of length …"; conv1 has stride 1, conv2 stride 2, both
// kernel 3 and padding 1), so the encoder always runs max_source_positions
// positions (1500 by WhisperConfig's default,
// models/whisper/configuration_whisper.py: 30 s of audio, 3000 frames
// halved). That is EncoderSeqLen, as the catalog's entries set it; the
// sequence length the user gives is the decoder's.
func whisper(f *fields, a *model.Architecture) float64 {
	a.Family = model.FamilyEncoderDecoder
	a.Hidden = f.need("d_model")
	a.Layers = f.need("encoder_layers", "num_hidden_layers")
	a.DecoderLayers = f.need("decoder_layers")
	a.Heads = f.need("encoder_attention_heads")
	f.need("decoder_attention_heads") // the width is d_model either way
	a.FFN = f.need("encoder_ffn_dim")
	decFFN := f.need("decoder_ffn_dim")
	a.Vocab = f.need("vocab_size")
	a.LearnedPositions = f.int(448, "max_target_positions")
	a.MaxPositions = a.LearnedPositions
	a.Norm = model.LayerNorm
	a.LinearBias = true
	a.Tied = f.bool(true, "tie_word_embeddings")
	h := float64(a.Hidden)
	mel := float64(f.int(80, "num_mel_bins"))
	a.EncoderSeqLen = f.int(1500, "max_source_positions")
	src := float64(a.EncoderSeqLen)
	d := mel*h*3 + h + h*h*3 + h + src*h
	d -= float64(a.Layers+2*a.DecoderLayers) * h
	d += float64(a.DecoderLayers) * (2*h + 1) * float64(decFFN-a.FFN) // fc1, fc2 and fc1's bias
	return d
}

// generic reads an unknown model_type through the keys most configs share,
// as a pre-norm decoder: RMSNorm and a gated MLP when the config has
// rms_norm_eps (Llama style), LayerNorm and a plain MLP of 4·h otherwise;
// mixture of experts from num_local_experts, num_experts or
// n_routed_experts; tied per tie_word_embeddings (default true, as in
// transformers' PretrainedConfig). Encoder-decoders (is_encoder_decoder)
// get decoder_layers; masked-LM architectures are read as encoders.
// The count is an estimate: nothing model-specific is known.
func generic(f *fields, a *model.Architecture) float64 {
	a.Hidden = f.need("hidden_size", "n_embd", "d_model", "n_embed", "dim")
	a.Layers = f.need("num_hidden_layers", "n_layer", "num_layers", "n_layers", "encoder_layers")
	a.Heads = f.need("num_attention_heads", "n_head", "num_heads", "n_heads", "encoder_attention_heads")
	a.KVHeads = f.count(0, "num_key_value_heads", "num_kv_heads", "n_head_kv", "multi_query_group_num")
	a.HeadDim = f.count(0, "head_dim", "d_kv")
	a.Vocab = f.need("vocab_size")
	a.Tied = f.bool(true, "tie_word_embeddings")
	a.MaxPositions = f.int(0, "max_position_embeddings", "n_positions", "max_sequence_length", "seq_length")
	if learnedPositions(f) {
		a.LearnedPositions = a.MaxPositions
	}
	if f.has("rms_norm_eps") {
		a.Norm, a.GatedMLP = model.RMSNorm, true
	} else {
		a.Norm = model.LayerNorm
	}
	a.FFN = f.int(4*a.Hidden, "intermediate_size", "ffn_dim", "d_ff", "n_inner", "ffn_hidden_size", "encoder_ffn_dim")
	if e := f.int(0, "num_local_experts", "num_experts", "n_routed_experts"); e > 1 {
		a.Experts = e
		a.ExpertsPerToken = f.need("num_experts_per_tok", "moe_topk", "top_k")
		a.FFN = f.int(a.FFN, "moe_intermediate_size", "expert_intermediate_size")
	}
	switch {
	case f.bool(false, "attention_bias") && f.bool(false, "mlp_bias"):
		a.LinearBias = true
	case f.bool(false, "attention_bias", "qkv_bias"):
		a.QKVBias = true
	}
	if f.bool(false, "is_encoder_decoder") {
		a.Family = model.FamilyEncoderDecoder
		a.DecoderLayers = f.int(a.Layers, "decoder_layers", "num_decoder_layers")
	} else if archs := f.architectures(); len(archs) > 0 && strings.HasSuffix(archs[0], "ForMaskedLM") {
		a.Family = model.FamilyEncoder
	}
	return 0
}

// learnedPositions reports whether a config.json read through the generic
// keys says its model has a learned absolute position table of
// max_position_embeddings rows, an nn.Embedding its positions index, so
// that the model cannot run a longer sequence
// (model.Architecture.PositionLimit):
//
//   - position_embedding_type "absolute", the key of the BERT-derived
//     configs (ELECTRA, CamemBERT, ERNIE, …) for modeling_bert.py's
//     BertEmbeddings.position_embeddings, "nn.Embedding(
//     config.max_position_embeddings, config.hidden_size)"; other values
//     (relative_key, or rotary and alibi in remote code) are not read as
//     one;
//   - model_type gpt_neo and gpt_bigcode, GPT-2-style decoders whose
//     GPTNeoModel and GPTBigCodeModel build "self.wpe =
//     nn.Embedding(config.max_position_embeddings, self.embed_dim)"
//     (modeling_gpt_neo.py, modeling_gpt_bigcode.py; GPTBigCodeConfig
//     maps max_position_embeddings to n_positions).
//
// A table with offset rows (CamemBERT's 514 for 512 positions, as
// RoBERTa's) then bounds the sequence at its rows, a little late, never
// refusing what runs.
//
// Both keys are read as they are, never failing the file: model_type was
// checked as a name already, and position_embedding_type only refines.
func learnedPositions(f *fields) bool {
	var modelType, kind string
	_ = json.Unmarshal(f.raw["model_type"], &modelType)
	_ = json.Unmarshal(f.raw["position_embedding_type"], &kind)
	return modelType == "gpt_neo" || modelType == "gpt_bigcode" || kind == "absolute"
}

// visionTowers count the vision tower and projector of the multimodal
// wrappers whose language model is read from text_config: raw is the
// wrapper's config.json, textHidden the language model's width. The result
// goes to model.Architecture.VisionParams (resident, not run per token).
var visionTowers = map[string]func(raw map[string]json.RawMessage, textHidden int) (float64, error){
	"gemma3": gemma3Vision,
	"llama4": llama4Vision,
}

// visionConfig returns the fields of the wrapper's vision_config.
func visionConfig(raw map[string]json.RawMessage) (*fields, error) {
	v, ok := raw["vision_config"]
	if !ok || isNull(v) {
		return nil, model.Msg(`missing "vision_config"`)
	}
	obj, err := decodeObject(v, false)
	if err != nil {
		return nil, model.Msg("vision_config: %v", err)
	}
	return &fields{raw: obj}, nil
}

// vitBlocks returns n pre-norm ViT blocks of width h and MLP size i with
// biases on every linear and LayerNorms with bias: q, k, v, o, fc1, fc2
// and two norms (SigLIP's SiglipEncoderLayer, Llama 4's
// Llama4VisionEncoderLayer).
func vitBlocks(n, h, i float64) float64 {
	return n * (4*(h*h+h) + (h*i + i) + (i*h + h) + 2*2*h)
}

// gemma3Vision counts Gemma3ForConditionalGeneration's vision side: a SigLIP
// vision transformer (modeling_siglip.py SiglipVisionTransformer: patch
// convolution with bias, (image_size/patch_size)² learned positions, the
// blocks, post_layernorm, and the attention-pooling head unless
// vision_use_head is false, as Gemma 3 sets it) and Gemma3MultiModalProjector
// (mm_input_projection_weight vision×text, mm_soft_emb_norm of the vision
// width). Gemma 3 4B: 416,866,032 + 2,950,272 = 419,816,304, the difference
// between KerasHub's medgemma_4b (4,300,079,472) and the language model.
func gemma3Vision(raw map[string]json.RawMessage, textHidden int) (float64, error) {
	f, err := visionConfig(raw)
	if err != nil {
		return 0, err
	}
	h := float64(f.need("hidden_size"))
	i := float64(f.need("intermediate_size"))
	n := float64(f.need("num_hidden_layers"))
	img, patch := f.need("image_size"), f.need("patch_size")
	c := float64(f.int(3, "num_channels"))
	useHead := f.bool(true, "vision_use_head")
	if len(f.errs) > 0 {
		return 0, joined(f.errs)
	}
	side := float64(img / patch)
	p := c*float64(patch*patch)*h + h + side*side*h + vitBlocks(n, h, i) + 2*h
	if useHead { // SiglipMultiheadAttentionPoolingHead: probe, MultiheadAttention, LayerNorm, MLP
		p += h + (4*h*h + 4*h) + 2*h + (h*i + i) + (i*h + h)
	}
	return p + h*float64(textHidden) + h, nil
}

// llama4Vision counts Llama4ForConditionalGeneration's vision side
// (modeling_llama4.py): Llama4VisionModel (an unfolded patch projection
// without bias, a class embedding, (image_size/patch_size)² + 1 learned
// positions, layernorm_pre and layernorm_post, the blocks, and the
// pixel-shuffle adapter Llama4VisionMLP2: fc1 intermediate_size ×
// projector_input_dim and fc2 projector_output_dim², both without bias)
// and Llama4MultiModalProjector (vision_output_dim × text width, no bias).
// Llama 4 Scout and Maverick: 871,932,416.
func llama4Vision(raw map[string]json.RawMessage, textHidden int) (float64, error) {
	f, err := visionConfig(raw)
	if err != nil {
		return 0, err
	}
	h := float64(f.need("hidden_size"))
	i := float64(f.need("intermediate_size"))
	n := float64(f.need("num_hidden_layers"))
	img, patch := f.need("image_size"), f.need("patch_size")
	c := float64(f.int(3, "num_channels"))
	in, out := float64(f.need("projector_input_dim")), float64(f.need("projector_output_dim"))
	vout := float64(f.need("vision_output_dim"))
	if len(f.errs) > 0 {
		return 0, joined(f.errs)
	}
	side := float64(img / patch)
	p := c*float64(patch*patch)*h + h + (side*side+1)*h + 2*2*h + vitBlocks(n, h, i)
	return p + i*in + out*out + vout*float64(textHidden), nil
}
