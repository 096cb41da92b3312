package cli

import (
	"github.com/spf13/pflag"

	"github.com/gpuplan/gpuplan/model"
)

// ignoredEstimatorFlags warns about estimator flags that do not apply to w.
func ignoredEstimatorFlags(fs *pflag.FlagSet, w *model.Workload) []model.Message {
	var warnings []model.Message
	train := w.Task.Training() || w.Task == ""
	for _, ig := range []struct {
		flag string
		when bool
		why  string
	}{
		{"recipe", !train, "inference has no training recipe"},
		{"loss", !train || w.Model.Family.Vision(), "it is for training language models"},
		{"quant-type", w.Task != model.TaskQLoRA, "only qlora quantizes the base to 4 bits"},
		{"double-quant", w.Task != model.TaskQLoRA, "only qlora quantizes the base to 4 bits"},
	} {
		if fs.Changed(ig.flag) && ig.when {
			warnings = append(warnings, model.Msg("--%s ignored: %v", ig.flag, model.Msg(ig.why)))
		}
	}
	return warnings
}

// suggestValue is an enum flag whose error suggests the closest valid
// value ("did you mean"), then lists them all. "auto" stands for the
// zero value.
type suggestValue[T ~string] struct {
	v     *T
	parse func(string) (T, error)
	valid []T // zero value first, shown as "auto"
}

func (e suggestValue[T]) names() []string {
	s := make([]string, len(e.valid))
	for i, v := range e.valid {
		s[i] = string(v)
		if v == "" {
			s[i] = "auto"
		}
	}
	return s
}

func (e suggestValue[T]) String() string {
	if e.v == nil || *e.v == "" {
		return ""
	}
	return string(*e.v)
}

func (e suggestValue[T]) Set(s string) error {
	v, err := e.parse(s)
	if err == nil {
		*e.v = v
		return nil
	}
	names := e.names()
	// "auto" is left out of the suggestions: it is contained in
	// "autocats" and would win over "autocast".
	if c := model.Closest(s, names[1:], 1); len(c) > 0 {
		return model.Msg("did you mean %q? want %v", c[0], model.OrMsg(names))
	}
	return model.Msg("want %v", model.OrMsg(names))
}

func (e suggestValue[T]) Type() string { return "string" }
