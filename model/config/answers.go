package config

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"

	"github.com/gpuplan/gpuplan/model/show"
)

// answerKey is an answer's key: "batch_size" (a [workload] key) or a
// table and key, "search.pricing", "serve.requests_per_sec",
// "workload.custom.layers".
var answerKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9_]+(\.[a-z0-9_]+){0,2}$`) })

// answerTables are the configuration tables an answer may name, with the
// raw type whose field types say how a typed value is written in TOML.
var answerTables = map[string]reflect.Type{
	"workload":        reflect.TypeFor[rawWorkload](),
	"workload.custom": reflect.TypeFor[rawCustom](),
	"search":          reflect.TypeFor[rawSearch](),
	"serve":           reflect.TypeFor[rawServe](),
}

// AnswersTOML writes answers (key → value as typed: a plan phase's) as a
// configuration file (schema_version, [workload], [search], [serve]), each
// value as the
// configuration file would hold it: counts typed as "100M" become
// numbers (config.ParseQuantity, token counts config.ParseTokens, as the
// flags read them), lists typed as
// "q_proj,v_proj" arrays, the rest strings. The key says the table; a bare
// key is a [workload] key. Decode then checks every value, so a
// phase is read by the same decoder as a configuration file. Errors are
// *Error under the key "answers.KEY".
func AnswersTOML(answers map[string]string) ([]byte, error) {
	tables := map[string][]string{}
	keys := make([]string, 0, len(answers))
	for k := range answers {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := answers[k]
		if !answerKey().MatchString(k) {
			return nil, Errorf("answers."+show.Printable(k), "not a key: want a configuration key such as batch_size or search.pricing")
		}
		if strings.ContainsFunc(v, show.Unprintable) {
			return nil, Errorf("answers."+k, "%q has control characters", show.Printable(v))
		}
		table, key := "workload", k
		if i := strings.LastIndexByte(k, '.'); i >= 0 {
			table, key = k[:i], k[i+1:]
		}
		rt, ok := answerTables[table]
		if !ok {
			names := slices.Sorted(func(yield func(string) bool) {
				for n := range answerTables {
					if !yield(n) {
						return
					}
				}
			})
			return nil, Errorf("answers."+k, "unknown table %q; answers name a key of %s (a bare key is a workload key)", table, strings.Join(names, ", "))
		}
		tables[table] = append(tables[table], key+" = "+answerValue(rt, key, v))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "schema_version = %d\n", SchemaVersion)
	for _, t := range []string{"workload", "workload.custom", "search", "serve"} {
		if len(tables[t]) == 0 && t != "workload" {
			continue
		}
		fmt.Fprintf(&b, "\n[%s]\n", t)
		for _, line := range tables[t] {
			b.WriteString(line + "\n")
		}
	}
	return []byte(b.String()), nil
}

// tokenKeys are the answer keys that count tokens, read by ParseTokens
// (vLLM's 8K = 8192, 8k = 8000) as the command line reads their flags,
// where other counts read by ParseQuantity (88k samples = 88000).
var tokenKeys = map[string]bool{
	"seq_len": true, "context_len": true, "gen_tokens": true,
	"max_model_len": true, "prompt_tokens": true, "output_tokens": true, "max_num_batched_tokens": true,
}

// answerValue writes typed value v of key in the table of raw type rt as
// a TOML value. Unknown keys are written as strings; Decode names
// them with "did you mean".
func answerValue(rt reflect.Type, key, v string) string {
	var ft reflect.Type
	for i := range rt.NumField() {
		if tag, _, _ := strings.Cut(rt.Field(i).Tag.Get("toml"), ","); tag == key {
			ft = rt.Field(i).Type
		}
	}
	s := strings.TrimSpace(v)
	if flagTextTypes[ft] {
		return tomlString(v) // read by its flag's parser: "auto", "none", 8K alike
	}
	if tokenKeys[key] {
		if n, err := ParseTokens(s); err == nil { // as the flags read them: 8K is 8192
			return strconv.Itoa(n)
		}
	}
	switch ft {
	case reflect.TypeFor[tInt](), reflect.TypeFor[tFloat](), reflect.TypeFor[tCount]():
		if x, err := ParseQuantity(s); err == nil {
			return strconv.FormatFloat(x, 'g', -1, 64)
		}
	case reflect.TypeFor[tBool]():
		if s == "true" || s == "false" {
			return s
		}
	case reflect.TypeFor[tGPUs]():
		if n, err := strconv.Atoi(s); err == nil {
			return strconv.Itoa(n)
		}
	case reflect.TypeFor[tStrings]():
		var q []string
		for e := range strings.SplitSeq(strings.Trim(s, "[]"), ",") {
			if e = strings.Trim(strings.TrimSpace(e), `"'`); e != "" {
				q = append(q, tomlString(e))
			}
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	return tomlString(v) // the decoder says what was wanted
}

// tomlString quotes s as a TOML basic string (control characters were
// refused before).
func tomlString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// PhaseAnswers returns c's workload and search as a phase's answers (key
// → value as typed), the inverse of AnswersTOML and Decode: what
// Encode writes in [workload] (bare keys), [workload.custom],
// [search] and [serve], each value as text (lists comma-separated). The
// estimate, selection and launch sections are not answers and are left
// out.
func PhaseAnswers(c *Config) (map[string]string, error) {
	b, err := Encode(&Config{Workload: c.Workload, Search: c.Search})
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	if _, err := toml.Decode(string(b), &doc); err != nil {
		return nil, err
	}
	out := map[string]string{}
	var walk func(prefix string, t map[string]any)
	walk = func(prefix string, t map[string]any) {
		for k, v := range t {
			key := prefix + k
			switch x := v.(type) {
			case map[string]any:
				walk(key+".", x)
			case string:
				if x != "" {
					out[key] = x
				}
			case int64:
				out[key] = strconv.FormatInt(x, 10)
			case float64:
				out[key] = strconv.FormatFloat(x, 'g', -1, 64)
				if key == "serve.tpot_ms" && x == 0 {
					// Encode's tpot_ms = 0.0, no TPOT target: an answer is
					// the flag's text, where "0" is refused as --tpot-ms 0
					// is (walk52), and "none" says it.
					out[key] = "none"
				}
			case bool:
				out[key] = strconv.FormatBool(x)
			case []any:
				if len(x) == 0 {
					continue // no list: the default
				}
				s := make([]string, len(x))
				for i, e := range x {
					s[i] = fmt.Sprint(e)
				}
				out[key] = strings.Join(s, ",")
			}
		}
	}
	for _, table := range []string{"workload", "search", "serve"} {
		if t, ok := doc[table].(map[string]any); ok {
			prefix := table + "."
			if table == "workload" {
				prefix = "" // a bare key is a workload key
			}
			walk(prefix, t)
		}
	}
	return out, nil
}
