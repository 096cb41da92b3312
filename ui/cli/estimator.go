package cli

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/gpuplan/gpuplan/model"
)

// estimatorFlags are the estimator v2 settings (issue 13): the training
// recipe, the loss implementation and QLoRA's 4-bit format. Each is a
// model.WorkloadAnswers field, and a [workload] key with underscores.
type estimatorFlags struct {
	recipe      model.Recipe
	loss        model.Loss
	quantType   model.QuantType
	doubleQuant bool
}

func (f *estimatorFlags) register(fs *pflag.FlagSet) {
	fs.Var(suggestValue[model.Recipe]{&f.recipe, model.ParseRecipe, model.Recipes}, "recipe",
		"training recipe the memory follows: autocast, fsdp-mixed, deepspeed, pure16 or fp32 (default: from precision and strategy)")
	fs.Var(suggestValue[model.Loss]{&f.loss, model.ParseLoss, model.Losses}, "loss",
		"LM loss implementation: hf-fp32 (Hugging Face's fp32 upcast), fused, chunked (Liger, Cut Cross-Entropy) or native (default hf-fp32)")
	fs.Var(suggestValue[model.QuantType]{&f.quantType, model.ParseQuantType, model.QuantTypes}, "quant-type",
		"qlora: bitsandbytes 4-bit type nf4 or fp4 (default nf4)")
	fs.BoolVar(&f.doubleQuant, "double-quant", false, "qlora: quantize the 4-bit absmax constants again; =false for a bare load_in_4bit (default true)")
}

// apply copies the flags given on the command line onto w.
func (f *estimatorFlags) apply(fs *pflag.FlagSet, w *model.WorkloadAnswers) {
	if fs.Changed("recipe") {
		w.Recipe = f.recipe
	}
	if fs.Changed("loss") {
		w.Loss = f.loss
	}
	if fs.Changed("quant-type") {
		w.QuantType = f.quantType
	}
	if fs.Changed("double-quant") {
		w.DoubleQuant = model.Bool(f.doubleQuant)
	}
}

// ignoredEstimatorFlags warns about estimator flags that do not apply to w.
func ignoredEstimatorFlags(fs *pflag.FlagSet, w *model.Workload) []string {
	var warnings []string
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
			warnings = append(warnings, fmt.Sprintf("--%s ignored: %s", ig.flag, ig.why))
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
		return fmt.Errorf("did you mean %q? want %s", c[0], model.OrList(names))
	}
	return fmt.Errorf("want %s", model.OrList(names))
}

func (e suggestValue[T]) Type() string { return "string" }
