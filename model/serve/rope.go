package serve

import (
	"cmp"
	"math"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// RopeScaling is a RoPE scaling vLLM is told to apply to a model whose
// config.json has none, to serve past its positions: YaRN (Peng et al.,
// 2023, "YaRN: Efficient Context Window Extension of Large Language
// Models"), the method Qwen's model cards give for Qwen3 past 32,768
// tokens. vLLM takes it as --hf-overrides '{"rope_parameters": {"rope_type":
// "yarn", "factor": F, "original_max_position_embeddings": N,
// "rope_theta": θ}}' (vLLM docs, features/context_extension: "The
// --rope-scaling parameter used in older versions of vLLM is no longer
// supported. Please use the --hf-overrides method with rope_parameters
// instead"; vllm-project/vllm#28006 removed --rope-scaling and
// --rope-theta, #28542 renamed rope_scaling to rope_parameters, and
// examples/features/context_extension/context_extension_offline.py @
// 41c5903d049b80b83a6e570f52f0f55e31316e49 extends Qwen/Qwen3-0.6B so).
// The override replaces the model's RoPE parameters whole (ModelConfig
// ._apply_dict_overrides sets the attribute), so it carries the model's
// rope_theta. The zero value is none: the model's own positions.
type RopeScaling struct {
	Type     string  // "yarn", the one type planned (RopeTypes)
	Factor   float64 // the multiplier of the positions, above 1
	Original int     // original_max_position_embeddings; 0: the model's (RopeOriginal, else MaxPositions)
}

// RopeTypes are the RoPE scaling types gpuplan plans: YaRN, the type
// vLLM's context-extension example and Qwen's model cards use. vLLM
// multiplies the positions for linear and dynamic too
// (_get_and_verify_max_len), but no model card gpuplan carries extends
// its context with them.
var RopeTypes = []string{"yarn"}

// MaxRopeFactor bounds a --rope-scaling factor: a policy bound above
// every published one (DeepSeek-V3's 40, gpt-oss's 32, Qwen's 4); a
// longer context is a model of its own, not a scaling of this one.
const MaxRopeFactor = 64

// IsZero reports whether r asks for no scaling.
func (r RopeScaling) IsZero() bool { return r == RopeScaling{} }

// String is r as the flag and the [serve] key write it: "yarn:4", with
// the original positions when given ("yarn:4:32768"); "" for none.
func (r RopeScaling) String() string {
	if r.IsZero() {
		return ""
	}
	s := r.Type + ":" + strconv.FormatFloat(r.Factor, 'f', -1, 64)
	if r.Original > 0 {
		s += ":" + strconv.Itoa(r.Original)
	}
	return s
}

// ParseRopeScaling reads TYPE:FACTOR[:ORIGINAL] ("yarn:4",
// "yarn:2:32768", ORIGINAL also as "32K", 32768), or "none" (or "") for
// no scaling. The errors say what is valid, with a did-you-mean for the
// type.
func ParseRopeScaling(s string) (RopeScaling, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "none") {
		return RopeScaling{}, nil
	}
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return RopeScaling{}, model.Msg("rope scaling %q: want TYPE:FACTOR or TYPE:FACTOR:ORIGINAL, such as yarn:4 or yarn:4:32768, or none", s)
	}
	typ, err := model.ParseEnum(parts[0], model.Msg("rope scaling type"), RopeTypes, nil)
	if err != nil {
		return RopeScaling{}, err
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(parts[1]), 64)
	if err != nil || !(f > 1 && f <= MaxRopeFactor) {
		return RopeScaling{}, model.Msg("rope scaling factor %q: want a number above 1 and at most %d, such as 4 (yarn:4)", parts[1], MaxRopeFactor)
	}
	r := RopeScaling{Type: typ, Factor: f}
	if len(parts) == 3 {
		n, ok := positionsCount(parts[2])
		if !ok {
			return RopeScaling{}, model.Msg("rope scaling original positions %q: want a whole number of tokens from 1 to %d, such as 32768 or 32K", parts[2], model.MaxSeqLen)
		}
		r.Original = n
	}
	if r.Original > 0 && float64(r.Original)*f > model.MaxSeqLen {
		return RopeScaling{}, model.Msg("rope scaling %q: %d × %g positions is above %d", s, r.Original, f, model.MaxSeqLen)
	}
	return r, nil
}

// positionsCount reads a token count as the token flags do: 32768, 32K
// (× 1024) or 32k (× 1000).
func positionsCount(s string) (int, bool) {
	s = strings.TrimSpace(s)
	mult := 1
	switch {
	case strings.HasSuffix(s, "K"):
		s, mult = strings.TrimSuffix(s, "K"), 1024
	case strings.HasSuffix(s, "k"):
		s, mult = strings.TrimSuffix(s, "k"), 1000
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > model.MaxSeqLen/mult {
		return 0, false
	}
	return n * mult, true
}

// original is the positions r multiplies for a: r.Original
// when given, else the model card's native context (RopeOriginal, Qwen3's
// 32768), else its positions.
func (r RopeScaling) original(a *model.Architecture) int {
	return cmp.Or(r.Original, a.RopeOriginal, a.MaxPositions)
}

// Positions is the max_model_len vLLM derives for a with r applied:
// original_max_position_embeddings × factor for a yarn
// (_get_and_verify_max_len, int() of the product); a's MaxPositions for
// none.
func (r RopeScaling) Positions(a *model.Architecture) int {
	if r.IsZero() {
		return a.MaxPositions
	}
	return int(math.Floor(float64(r.original(a)) * r.Factor))
}

// RopeOn says why vLLM cannot serve a with a RoPE scaling gpuplan writes,
// or zero: a model without rotary positions (a learned position table,
// an encoder-decoder), Gemma 3, whose factor vLLM does not apply ("Gemma3's
// max_model_len (128K) is already scaled by RoPE scaling",
// _get_and_verify_max_len), or a model whose rope_theta gpuplan does not
// know, which the override must carry (the catalog has it for the models
// whose cards extend them; a config.json given with --hf-config says it).
func RopeOn(a *model.Architecture) model.Message {
	switch {
	case a.LearnedPositions > 0 || encDec(a) || !a.Family.Generative():
		return model.Msg("%s has no rotary positions to scale (vLLM's RoPE scaling is for RoPE decoders)", modelName(a))
	case strings.Contains(a.CheckpointModelType(), "gemma3"):
		return model.Msg("vLLM applies no RoPE factor to Gemma 3 (model type %s): its %d positions already count its scaling", a.CheckpointModelType(), a.MaxPositions)
	case a.RopeTheta <= 0:
		return model.Msg("gpuplan does not know %s's rope_theta, which vLLM's --hf-overrides rope_parameters must carry (they replace the model's whole); give its config.json with --hf-config", modelName(a))
	case a.MaxPositions <= 0 && a.RopeOriginal <= 0:
		return model.Msg("%s states no positions for a RoPE scaling to multiply", modelName(a))
	}
	return model.Message{}
}

// RopeFactorFor is the smallest whole YaRN factor that gives a at least
// n positions, and the original positions it multiplies (a's
// RopeOriginal, else MaxPositions); 0 when none up to MaxRopeFactor
// does or a takes none (RopeOn).
func RopeFactorFor(a *model.Architecture, n int) (factor, original int) {
	if !RopeOn(a).IsZero() {
		return 0, 0
	}
	original = cmp.Or(a.RopeOriginal, a.MaxPositions)
	factor = max((n+original-1)/original, 2)
	if factor > MaxRopeFactor {
		return 0, 0
	}
	return factor, original
}

// modelName names a in a sentence: its name, else its key, else "the model".
func modelName(a *model.Architecture) string {
	return cmp.Or(a.Name, a.Key, "the model")
}
