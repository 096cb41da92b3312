package config

import (
	"math"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// countSuffixes are the decimal multipliers people write after counts:
// 7B parameters, 1.2M images, 2T tokens.
var countSuffixes = []struct {
	s string
	m float64
}{
	{"k", 1e3}, {"m", 1e6}, {"b", 1e9}, {"g", 1e9}, {"t", 1e12}, {"p", 1e15},
}

// ParseQuantity parses a count such as "7e9", "7B", "110M", "1.2k",
// "1_000_000" or "1,281,167". Suffixes are decimal (k 10³, M 10⁶, B/G 10⁹,
// T 10¹², P 10¹⁵), case-insensitive. The result is finite and ≥ 0; the
// error wraps model.ErrBadQuantity and says what is accepted.
func ParseQuantity(s string) (float64, error) {
	t, ok := Thousands(strings.TrimSpace(s))
	if !ok {
		return 0, model.Errorf(model.ErrBadQuantity, "%q: a comma only groups thousands (1,000,000); give one number", s)
	}
	if t == "" {
		return 0, model.Errorf(model.ErrBadQuantity, "empty; want a number such as 7e9, 7B or 110M")
	}
	mult := 1.0
	low := strings.ToLower(t)
	for _, c := range countSuffixes {
		if strings.HasSuffix(low, c.s) && len(low) > len(c.s) {
			mult = c.m
			t = t[:len(t)-len(c.s)]
			break
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, model.Errorf(model.ErrBadQuantity, "%q is not a number; want e.g. 7e9, 7B, 110M or 1.2T", s)
	}
	v *= mult
	if v < 0 || math.IsInf(v, 0) {
		return 0, model.Errorf(model.ErrBadQuantity, "%q must be a finite number ≥ 0", s)
	}
	return v, nil
}

// byteUnits maps unit suffixes to bytes: binary for KiB–TiB, decimal for
// kB–TB (GPU vendors' "GB" of memory are GiB, which is why we want it said).
var byteUnits = []struct {
	s string
	m float64
}{
	{"kib", model.KiB}, {"mib", model.MiB}, {"gib", model.GiB}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12}, {"b", 1},
}

// ParseBytes parses a size such as "40GiB", "80 GB", "512MiB" or "1e9"
// (bytes). GiB/MiB are binary, GB/MB decimal. The error wraps
// model.ErrBadQuantity.
func ParseBytes(s string) (float64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	mult := 1.0
	for _, u := range byteUnits {
		if strings.HasSuffix(t, u.s) && len(t) > len(u.s) {
			mult = u.m
			t = strings.TrimSpace(t[:len(t)-len(u.s)])
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return 0, model.Errorf(model.ErrBadQuantity, "%q is not a size; want e.g. 40GiB, 80GB or 512MiB", s)
	}
	v *= mult
	if math.IsInf(v, 0) {
		return 0, model.Errorf(model.ErrBadQuantity, "%q is too large", s)
	}
	return v, nil
}

// tokenSuffixes are vLLM's multipliers of token counts
// (vllm/engine/arg_utils.py human_readable_int, which --max-model-len and
// --max-num-batched-tokens take): lowercase decimal (k 10³, m 10⁶, g 10⁹,
// t 10¹²), uppercase binary (K 2¹⁰, M 2²⁰, G 2³⁰, T 2⁴⁰).
var tokenSuffixes = map[byte]struct {
	mult   float64
	binary bool
}{
	'k': {1e3, false}, 'm': {1e6, false}, 'g': {1e9, false}, 't': {1e12, false},
	'K': {1 << 10, true}, 'M': {1 << 20, true}, 'G': {1 << 30, true}, 'T': {1 << 40, true},
}

// ParseTokens parses a token count — a sequence length, a context, a
// prompt or an output — as vLLM's human_readable_int reads
// --max-model-len (vllm/engine/arg_utils.py): a lowercase suffix is
// decimal ("8k" 8000, "25.6k" 25600), an uppercase one binary ("8K" 8192,
// "128K" 131072, whole numbers only: "1.5K" is refused, as vLLM does);
// otherwise a plain number ("4096", "2e3", "1_000"). The one token parser
// of the command line, the configurator and configuration and plan files,
// so "1k" means the same everywhere. The result is a whole number ≥ 0
// within int32; the error wraps model.ErrBadQuantity.
func ParseTokens(s string) (int, error) {
	t, ok := Thousands(strings.TrimSpace(s))
	if !ok {
		return 0, model.Errorf(model.ErrBadQuantity, "%q: a comma only groups thousands (32,768); give one token count", s)
	}
	mult, binary := 1.0, false
	if n := len(t); n > 1 {
		if suf, ok := tokenSuffixes[t[n-1]]; ok {
			mult, binary, t = suf.mult, suf.binary, t[:n-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	switch {
	case err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0:
		return 0, model.Errorf(model.ErrBadQuantity, "%q is not a token count; want e.g. 4096, 8K (8192) or 8k (8000)", s)
	case binary && v != math.Trunc(v):
		return 0, model.Errorf(model.ErrBadQuantity, "%q: a binary suffix (K, M) takes a whole number, as vLLM does; write %s or a decimal suffix", s, strings.ToLower(s))
	}
	v *= mult
	switch {
	case v > math.MaxInt32:
		// No bound is named: each field has its own, smaller one, which
		// a count within int32 meets its check for (walk36b: "at most
		// 2147483647" beside a sequence length's 16777216).
		return 0, model.Errorf(model.ErrBadQuantity, "%q is too many tokens", s)
	case v != math.Trunc(v):
		return 0, model.Errorf(model.ErrBadQuantity, "%q is not a whole number of tokens", s)
	}
	return int(v), nil
}

// Thousands removes the digit separators of s: underscores anywhere, and
// commas only where they group thousands in the whole part ("1,000,000",
// "88,000"). ok is false for any other comma: "1,2" (two values, or a
// decimal comma), which read as 12 when every comma was dropped (a new
// user's walk: --batch-size 1,2 ran a batch of 12, --seq-len 20,48 2048).
func Thousands(s string) (string, bool) {
	s = strings.ReplaceAll(s, "_", "")
	if !strings.Contains(s, ",") {
		return s, true
	}
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	j := i
	for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ',') {
		j++
	}
	if strings.Contains(s[j:], ",") {
		return s, false
	}
	groups := strings.Split(s[i:j], ",")
	if len(groups[0]) < 1 || len(groups[0]) > 3 {
		return s, false
	}
	for _, g := range groups[1:] {
		if len(g) != 3 {
			return s, false
		}
	}
	return s[:i] + strings.Join(groups, "") + s[j:], true
}
