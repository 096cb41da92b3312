package plan

import (
	"bytes"
	"errors"
	"math"

	"github.com/BurntSushi/toml"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/show"
)

// rawPhases reads b's [[phase]] tables as written, for the checks only
// the bytes allow (checkInstances, checkGivenZero); nil when b does not
// parse, which Decode reports.
func rawPhases(b []byte) []map[string]any {
	var raw struct {
		Phase []map[string]any `toml:"phase"`
	}
	if _, err := toml.NewDecoder(bytes.NewReader(b)).Decode(&raw); err != nil {
		return nil
	}
	return raw.Phase
}

// checkInstances refuses, with a line naming the key, a phase that names
// an offer (provider or instance) and leaves instances out, and an
// instances that is not a whole number, as written (raw: rawPhases).
// Read typed, a missing instances is 0 ("must be 1–131072 …, got 0") and
// instances = 1.5 the TOML decoder's Go wording ("incompatible types:
// TOML value has type float64; destination has type integer"); walk35
// met both. Decode runs it first, so the command line and the
// configurator say the same.
func checkInstances(raw []map[string]any) error {
	for i, ph := range raw {
		name, _ := ph["name"].(string)
		key := phaseKey(i, name, "instances")
		v, ok := ph["instances"]
		if !ok {
			provider, _ := ph["provider"].(string)
			instance, _ := ph["instance"].(string)
			if provider == "" && instance == "" {
				continue // no offer: Decode takes 0
			}
			return config.Errorf(key, "missing: give how many instances of the offer %s %s the phase rents (instances = 1 for one; 1–%d), usd_per_hour being for all of them", show.Printable(provider), show.Printable(instance), model.MaxGPUs)
		}
		switch n := v.(type) {
		case int64:
			// Decode checks the range.
		case float64:
			if n == math.Trunc(n) && !math.IsInf(n, 0) && math.Abs(n) <= model.MaxGPUs {
				return config.Errorf(key, "must be a whole number, written without a decimal point: instances = %d", int64(n))
			}
			return config.Errorf(key, "must be a whole number of instances (1–%d), got %v", model.MaxGPUs, n)
		default:
			return config.Errorf(key, "must be a whole number of instances (1–%d), got %s", model.MaxGPUs, model.DescribeTOML(v))
		}
	}
	return nil
}

// planNumbers are a phase's figures that are numbers, each with one the
// error gives as an example.
var planNumbers = []struct{ key, example string }{
	{"usd_per_hour", "1.006"}, {"job_hours", "12"}, {"months", "6"}, {"hours_per_month", "200"},
}

// checkNumbers refuses, with a line naming the phase and the key, a
// phase's usd_per_hour, job_hours, months or hours_per_month written as
// anything but a number, as written (raw: rawPhases): read typed,
// usd_per_hour = "1.006" was the TOML decoder's "incompatible types: TOML
// value has type string; destination has type float" (walk36b). Decode
// runs it when the typed decode fails.
func checkNumbers(raw []map[string]any) error {
	for i, ph := range raw {
		name, _ := ph["name"].(string)
		for _, f := range planNumbers {
			v, ok := ph[f.key]
			if !ok {
				continue
			}
			switch v.(type) {
			case int64, float64:
				continue
			}
			return config.Errorf(phaseKey(i, name, f.key), "must be a number such as %s, got %v", f.example, tomlKind(v))
		}
	}
	return nil
}

// planStrings are a phase's text keys, each with what the error gives as
// an example of it.
var planStrings = []struct{ key, example string }{
	{"name", `"fine-tune"`}, {"config", `"tune.toml"`}, {"provider", `"aws"`}, {"instance", `"g5.xlarge"`},
	{"region", `"us-east-1"`}, {"pricing", `"on-demand", "spot", "reserved-1y"`},
}

// checkStrings refuses, with a line naming the phase and the key, a
// phase's name, config, provider, instance, region or pricing written as
// anything but a string, as written (raw: rawPhases): read typed,
// pricing = 3 was the TOML decoder's "incompatible types: TOML value has
// type int64; destination has type string", at the line of the file's
// last pricing (walk37). Decode runs it when the typed decode fails.
func checkStrings(raw []map[string]any) error {
	for i, ph := range raw {
		name, _ := ph["name"].(string)
		for _, f := range planStrings {
			v, ok := ph[f.key]
			if !ok {
				continue
			}
			if _, ok := v.(string); ok {
				continue
			}
			return config.Errorf(phaseKey(i, name, f.key), "want a string such as %s, got %v", f.example, tomlKind(v))
		}
	}
	return nil
}

// checkRawAnswers refuses, naming the phase, an answer the typed decode
// refuses (flattenAnswers: a value not written as a quoted string, too
// deep): the TOML library placed such an error at the file's last
// [phase.answers], whichever phase held it (walk38: "phase.answers (line
// 64)" for a grad_accum = 8 on line 17). Decode runs it when the typed
// decode fails.
func checkRawAnswers(raw []map[string]any) error {
	for i, ph := range raw {
		a, ok := ph["answers"].(map[string]any)
		if !ok {
			continue
		}
		if err := flattenAnswers(Answers{}, "", a, 1); err != nil { // as UnmarshalTOML
			name, _ := ph["name"].(string)
			var m model.Message
			if !errors.As(err, &m) {
				m = model.Msg("%v", err)
			}
			return &config.Error{Key: phaseKey(i, name, "answers"), Msg: m}
		}
	}
	return nil
}
