package hf

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// maxRopeFactor bounds a config.json's RoPE scaling factor: a policy
// bound far above the published ones (gpt-oss 32, DeepSeek-V3 40, Llama
// 3.2 32), under which positions × factor stays a count.
const maxRopeFactor = 1 << 16

// ropePositions returns the positions vLLM derives for a model from its
// config.json's RoPE scaling, and its rotary base: vllm/config/model.py
// _get_and_verify_max_len at 18ec6629253632af0a384f2ffbb8c6b28af322e7.
// positions is the model's max_position_embeddings (or the like) as the
// mapping read it. vLLM reads rope_parameters (transformers v5, which
// moves a legacy rope_scaling there: patch_rope_parameters in
// vllm/transformers_utils/config.py), a dict or one per layer type
// (nested); a legacy "type" key is "rope_type", "su" is "longrope" and
// "mrope" "default" (patch_legacy_rope_type). Then, unless the model type
// contains "gemma3" ("Gemma3's max_model_len (128K) is already scaled by
// RoPE scaling, so we skip applying the scaling factor again"), for a
// rope_type other than su, longrope and llama3 the positions are
// multiplied by its factor, and a yarn's start from its
// original_max_position_embeddings: Qwen3 with "rope_type": "yarn",
// "factor": 4.0, "original_max_position_embeddings": 32768 serves 131,072
// tokens, where its max_position_embeddings says 40,960. llama3 (Llama
// 3.1) and longrope (Phi) keep max_position_embeddings, which already
// counts their scaling. A yarn without original_max_position_embeddings
// starts from positions. theta is rope_theta (or rotary_emb_base,
// patch_rope_parameters' other spelling), else the rope parameters' own
// (rope_parameters.rope_theta in transformers v5, the full-attention
// layers' when nested); 0 when none is given. original is the positions
// the scaling multiplied (the yarn's original_max_position_embeddings,
// else positions), model.Architecture.RopeOriginal, so a --rope-scaling
// given on top, whose --hf-overrides replace the whole rope_parameters,
// multiplies what the model was trained on, not the scaled 131,072 (a new
// user's walk: yarn:2 on Qwen3's card config wrote an original of
// 131072); 0 when nothing is scaled.
func (f *fields) ropePositions(modelType string, positions int) (int, float64, int) {
	theta := f.float("rope_theta", "rotary_emb_base")
	params := f.ropeParams()
	for _, p := range params {
		if theta == 0 {
			theta = p.theta
		}
	}
	if len(params) == 0 || strings.Contains(modelType, "gemma3") {
		return positions, theta, 0
	}
	derived, factor, scaled := float64(positions), 1.0, false
	for _, p := range params {
		switch p.typ {
		case "su", "longrope", "llama3":
			continue
		}
		if p.factor > 0 {
			factor, scaled = p.factor, true
		}
		if p.typ == "yarn" && p.original > 0 {
			derived, scaled = float64(p.original), true
		}
	}
	if !scaled {
		return positions, theta, 0
	}
	n := math.Floor(derived * factor) // vLLM's int(derived_max_model_len)
	if n < 1 || n > maxField {
		f.fail("rope_scaling: %d positions × factor %g is out of range (1–%d)", positions, factor, maxField)
		return positions, theta, 0
	}
	return int(n), theta, int(derived)
}

// ropeParam is one RoPE parameter set of a config.json.
type ropeParam struct {
	typ      string  // rope_type, legacy names patched ("su" is "longrope", "mrope" "default")
	factor   float64 // 0 when not given
	original int     // original_max_position_embeddings, 0 when not given
	theta    float64 // rope_theta inside the parameters (transformers v5), 0 when not given
}

// ropeParams reads rope_parameters, else rope_scaling: one set, or one per
// layer type when every value is an object (transformers v5's nested
// form, "full_attention" first); nil when neither is given.
func (f *fields) ropeParams() []ropeParam {
	k, v, ok := f.lookup([]string{"rope_parameters", "rope_scaling"})
	if !ok {
		return nil
	}
	obj, err := decodeObject(v, false)
	if err != nil {
		f.fail("%s: want an object, got %s", k, describe(v))
		return nil
	}
	nested := len(obj) > 0
	for _, x := range obj {
		if t := bytes.TrimSpace(x); len(t) == 0 || t[0] != '{' {
			nested = false
		}
	}
	if !nested {
		p, ok := f.ropeParam(k, obj)
		if !ok {
			return nil
		}
		return []ropeParam{p}
	}
	var out []ropeParam
	for _, layer := range slices.Sorted(maps.Keys(obj)) {
		sub, err := decodeObject(obj[layer], false)
		if err != nil {
			f.fail("%s.%s: want an object, got %s", k, layer, describe(obj[layer]))
			return nil
		}
		p, ok := f.ropeParam(k+"."+layer, sub)
		if !ok {
			return nil
		}
		if layer == "full_attention" {
			out = append([]ropeParam{p}, out...)
		} else {
			out = append(out, p)
		}
	}
	return out
}

// ropeParam reads one parameter set, named k in errors.
func (f *fields) ropeParam(k string, obj map[string]json.RawMessage) (ropeParam, bool) {
	sub := &fields{raw: obj}
	p := ropeParam{typ: sub.text("rope_type", "type")}
	switch p.typ {
	case "su":
		p.typ = "longrope"
	case "mrope":
		p.typ = "default"
	}
	p.factor = sub.float("factor")
	p.original = sub.int(0, "original_max_position_embeddings")
	p.theta = sub.float("rope_theta")
	for _, e := range sub.errs {
		f.fail("%s: %v", k, e)
	}
	switch {
	case len(sub.errs) > 0:
		return ropeParam{}, false
	case p.factor < 0 || p.factor > maxRopeFactor:
		f.fail("%s: factor must be 0–%d, got %g", k, maxRopeFactor, p.factor)
		return ropeParam{}, false
	}
	return p, true
}

// float returns the number at the first present key, or 0; a value that
// is no finite number ≥ 0 is an error naming the key.
func (f *fields) float(keys ...string) float64 {
	k, v, ok := f.lookup(keys)
	if !ok {
		return 0
	}
	x, err := strconv.ParseFloat(string(bytes.TrimSpace(v)), 64)
	if err != nil || x < 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		f.fail("%s: want a number ≥ 0, got %s", k, describe(v))
		return 0
	}
	return x
}
