package plan

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/show"
)

// checkAnswers decodes the answers of every phase that has them
// (Phase.ConfigFromAnswers, the configuration file's own decoder), so a
// bad answer (batch_size = "0", an unknown key, search.pricing = "free")
// is an error naming the phase and the key when the plan is read, not a
// note inside the savings that --no-savings drops. A phase's config file
// is the caller's to read (model reads no files).
func checkAnswers(phases []Phase) error {
	for i := range phases {
		if len(phases[i].Answers) == 0 {
			continue
		}
		if _, err := phases[i].ConfigFromAnswers(); err != nil {
			return err
		}
	}
	return nil
}

// Answers is a phase's answers, key → value as typed: "batch_size" → "8",
// "search.pricing" → "spot". In TOML a dotted key (search.pricing = "spot"
// in [phase.answers]) is a nested table; Answers reads it back as its
// dotted key, so the quoted and the dotted spelling both work (issue 29:
// the docs show the dotted one, which was refused with a type error).
// Tables nest at most MaxAnswerDepth keys deep (workload.custom.params is
// the deepest configuration key); every value is a string, as typed
// (numbers, true/false and lists are read as typed: asTyped).
type Answers map[string]string

// MaxAnswerDepth bounds the keys of one dotted answer.
const MaxAnswerDepth = 3

// UnmarshalTOML flattens the [phase.answers] table (see Answers). A value
// that is not a string, a table nested deeper than MaxAnswerDepth or a key
// given both quoted and dotted is an error naming the key.
func (a *Answers) UnmarshalTOML(v any) error {
	t, ok := v.(map[string]any)
	if !ok {
		return config.BadValue("want a table of answers such as batch_size = \"8\"")
	}
	out := Answers{}
	if err := flattenAnswers(out, "", t, 1); err != nil {
		return err
	}
	*a = out
	return nil
}

func flattenAnswers(out Answers, prefix string, t map[string]any, depth int) error {
	for _, k := range slices.Sorted(maps.Keys(t)) { // the same key at fault every time
		key := k
		if prefix != "" {
			key = prefix + "." + k
		}
		switch v := t[k].(type) {
		case map[string]any:
			if depth >= MaxAnswerDepth {
				return config.BadValue("answer %q nests deeper than %d keys; answers name configuration keys such as search.pricing", quoted(key), MaxAnswerDepth)
			}
			if err := flattenAnswers(out, key, v, depth+1); err != nil {
				return err
			}
		default:
			typed, ok := asTyped(v)
			if !ok {
				return config.BadValue("answer %q: want a value as typed (%s = \"…\"), a number, true or false, or a list of them, got %s", quoted(key), show.Printable(key), tomlKind(v))
			}
			if _, dup := out[key]; dup {
				return config.BadValue("answer %q is given twice, quoted and dotted: keep one", quoted(key))
			}
			out[key] = typed
		}
	}
	return nil
}

// asTyped is a decoded TOML value as the configurator types it: a string
// as it is, a number in plain decimal (batch_size = 8 as "8", as [workload]
// writes it, so a key copied from a configuration file works here too: a
// new user's walk), true or false, and a list comma-separated (the
// answers' form of providers = ["aws", "gcp"]). ok is false for a date, a
// table in a list, or a list element holding a comma, which the
// comma-separated form could not keep apart.
func asTyped(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case int64:
		return strconv.FormatInt(v, 10), true
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return "", false
		}
		return strconv.FormatFloat(v, 'f', -1, 64), true
	case bool:
		return strconv.FormatBool(v), true
	case []any:
		parts := make([]string, 0, len(v))
		for _, e := range v {
			if _, list := e.([]any); list {
				return "", false
			}
			s, ok := asTyped(e)
			if !ok || strings.Contains(s, ",") {
				return "", false
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, ","), true
	}
	return "", false
}

// tomlKind names the TOML type of a decoded value, for an error.
func tomlKind(v any) model.Message {
	switch v.(type) {
	case string:
		return model.Msg("a string")
	case map[string]any:
		return model.Msg("a table")
	case int64:
		return model.Msg("a whole number")
	case float64:
		return model.Msg("a number")
	case bool:
		return model.Msg("true or false")
	case []any, []map[string]any:
		return model.Msg("an array")
	}
	return model.Msg("a date or time")
}
