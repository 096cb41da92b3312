package launch_test

import (
	"slices"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
)

// The QLoRA flags follow the estimated 4-bit format: a bare
// load_in_4bit (FP4, no double quantization) must not be launched as NF4
// with nested quantization, which stores fewer bytes than were costed.
func TestQLoRAQuantArgs(t *testing.T) {
	for _, tc := range []struct {
		name   string
		q      model.QuantType
		dq     *bool
		typ    string
		nested bool
	}{
		{"default is the QLoRA recipe", model.QuantAuto, nil, "nf4", true},
		{"fp4 without double quant", model.QuantFP4, model.Bool(false), "fp4", false},
		{"nf4 without double quant", model.QuantNF4, model.Bool(false), "nf4", false},
		{"fp4 with double quant", model.QuantFP4, model.Bool(true), "fp4", true},
	} {
		c := cases[0]
		c.w.QuantType, c.w.DoubleQuant = tc.q, tc.dq
		p := plan(t, c, launch.Options{})
		i := slices.Index(p.ScriptArgs, "--bnb_4bit_quant_type")
		if i < 0 || i+1 >= len(p.ScriptArgs) || p.ScriptArgs[i+1] != tc.typ {
			t.Errorf("%s: args %q, want --bnb_4bit_quant_type %s", tc.name, p.ScriptArgs, tc.typ)
		}
		if got := slices.Contains(p.ScriptArgs, "--use_bnb_nested_quant"); got != tc.nested {
			t.Errorf("%s: --use_bnb_nested_quant present = %v, want %v", tc.name, got, tc.nested)
		}
	}
}
