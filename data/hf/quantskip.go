package hf

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// quantSkipKeys are the quantization_config keys that list modules a
// quantized checkpoint keeps unquantized, as vLLM reads them:
// modules_to_not_convert (fbgemm_fp8: FBGEMMFp8Config.from_config,
// vllm/model_executor/layers/quantization/fbgemm_fp8.py; also awq, mxfp4
// and bitsandbytes), ignored_layers (fp8: Fp8Config.from_config,
// quantization/fp8.py), ignore (compressed-tensors:
// CompressedTensorsConfig.from_config, entries "re:REGEX" or exact names,
// compressed_tensors/utils.py should_ignore_layer) and exclude_modules
// (modelopt: ModelOptFp8Config, quantization/modelopt.py).
var quantSkipKeys = []string{"modules_to_not_convert", "ignored_layers", "ignore", "exclude_modules"}

// quantSkip is the list of unconverted modules of a quantization_config,
// the lists of every key in quantSkipKeys together.
func (f *fields) quantSkip() []string {
	var all []string
	for _, k := range quantSkipKeys {
		all = append(all, f.texts(k)...)
	}
	return all
}

// unconverted returns the layer-equivalents of attention and of MLP
// linear weights that a checkpoint with skip (quantSkip) keeps at its
// 16-bit dtype: each decoder layer's q_proj, k_proj, v_proj and o_proj,
// weighted by their sizes (heads × head_dim rows for q and o, KV heads ×
// head_dim for k and v), and its gate_proj, up_proj and down_proj (a
// third each; half each for an ungated MLP), matched as vLLM matches a
// layer's prefix against the list (quantization/utils/quant_utils.py
// is_layer_skipped: the fused qkv_proj and gate_up_proj count through
// their shards). An entry matches a module when it names it or a module
// that contains it ("model.layers.0.mlp", "self_attn": transformers'
// fbgemm_fp8 and mxfp4 integrations skip by name inside the module path),
// as a glob with "*" (gpt-oss: "model.layers.*.self_attn"), or as
// compressed-tensors' "re:" regular expression. The layer path before
// "layers." is dropped, so a multimodal checkpoint's
// "model.language_model.layers.3…" names layer 3. lm_head and embeddings
// are 16-bit in every costing already.
func unconverted(a *model.Architecture, skip []string) (attn, mlp float64) {
	if len(skip) == 0 || a.Layers < 1 || a.Layers*len(skip) > maxSkipWork {
		return 0, 0
	}
	var match []func(string) bool
	for _, e := range skip {
		for _, x := range expandFused(e) {
			if m := skipMatcher(x); m != nil {
				match = append(match, m)
			}
		}
	}
	hit := func(name string) bool {
		for _, m := range match {
			if m(name) {
				return true
			}
		}
		return false
	}
	hd := float64(a.EffectiveHeadDim())
	q, kv := float64(a.Heads)*hd, float64(a.EffectiveKVHeads())*hd
	attnParts := []struct {
		name string
		w    float64
	}{{"q_proj", q}, {"k_proj", kv}, {"v_proj", kv}, {"o_proj", q}}
	attnSum := 2*q + 2*kv
	mlpParts := []string{"gate_proj", "up_proj", "down_proj"}
	if !a.GatedMLP {
		mlpParts = []string{"up_proj", "down_proj"}
	}
	for i := range a.Layers {
		layer := "model.layers." + strconv.Itoa(i) + "."
		for _, p := range attnParts {
			if attnSum > 0 && hit(layer+"self_attn."+p.name) {
				attn += p.w / attnSum
			}
		}
		for _, p := range mlpParts {
			if hit(layer + "mlp." + p) {
				mlp += 1 / float64(len(mlpParts))
			}
		}
	}
	return attn, mlp
}

// maxSkipWork bounds the matching a hostile config.json can ask for
// (layers × entries, each tried on 7 projections): Llama 3.1 405B FP8's
// 126 layers and a list of about 500 modules are 63,000. Beyond it every
// linear is costed as quantized.
const maxSkipWork = 1 << 20

// expandFused spells a fused projection by its shards, as vLLM's
// packed_modules_mapping does (qkv_proj: q, k, v; gate_up_proj: gate, up).
func expandFused(e string) []string {
	switch {
	case strings.HasSuffix(e, "qkv_proj"):
		b := strings.TrimSuffix(e, "qkv_proj")
		return []string{b + "q_proj", b + "k_proj", b + "v_proj"}
	case strings.HasSuffix(e, "gate_up_proj"):
		b := strings.TrimSuffix(e, "gate_up_proj")
		return []string{b + "gate_proj", b + "up_proj"}
	}
	return []string{e}
}

// skipMatcher returns a matcher of module names for one skip entry (see
// unconverted), or nil for an entry that cannot match a layer's linear.
func skipMatcher(e string) func(string) bool {
	if re, ok := strings.CutPrefix(e, "re:"); ok {
		r, err := regexp.Compile(re)
		if err != nil {
			return nil
		}
		return func(name string) bool { return r.MatchString(name) }
	}
	e = strings.TrimSuffix(strings.TrimSpace(e), ".weight")
	if i := strings.Index(e, "layers."); i > 0 {
		e = "model." + e[i:]
	}
	if strings.Contains(e, "*") {
		parts := strings.Split(e, "*")
		for i := range parts {
			parts[i] = regexp.QuoteMeta(parts[i])
		}
		r := regexp.MustCompile("(^|\\.)" + strings.Join(parts, "[^.]*") + "($|\\.)")
		return func(name string) bool { return r.MatchString(name) }
	}
	if e == "" {
		return nil
	}
	return func(name string) bool {
		return name == e || strings.HasPrefix(name, e+".") || strings.HasSuffix(name, "."+e) || strings.Contains(name, "."+e+".")
	}
}
