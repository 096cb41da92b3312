package config

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// The estimator v2 keys of [workload] (issue 13) survive encode → decode,
// and bad values name their key.
func TestConfigRecipeKeys(t *testing.T) {
	for name, w := range map[string]WorkloadAnswers{
		"all set": {Settings: model.Settings{Task: model.TaskQLoRA, Recipe: model.RecipeDeepSpeed, Loss: model.LossChunked, QuantType: model.QuantFP4, DoubleQuant: model.Bool(false)}, Model: "llama"},
		"dq on":   {Settings: model.Settings{Task: model.TaskQLoRA, QuantType: model.QuantNF4, DoubleQuant: model.Bool(true)}, Model: "llama"},
		"autos":   {Settings: model.Settings{Recipe: model.RecipeAuto, Loss: model.LossAuto}, Model: "llama"},
		"pure16":  {Settings: model.Settings{Recipe: model.RecipePure16, Loss: model.LossFused}, Model: "llama"},
	} {
		t.Run(name, func(t *testing.T) {
			c := Config{Workload: w}
			b, err := Encode(&c)
			if err != nil {
				t.Fatalf("Encode: %v", err)
			}
			got, err := Decode(b)
			if err != nil {
				t.Fatalf("Decode: %v\n%s", err, b)
			}
			if !reflect.DeepEqual(got, c) {
				t.Errorf("round trip differs:\n got %+v\nwant %+v\n%s", got.Workload, c.Workload, b)
			}
			if w.Recipe == model.RecipeAuto && strings.Contains(string(b), "recipe =") {
				t.Errorf("auto recipe written:\n%s", b)
			}
		})
	}
}

func TestDecodeConfigRecipeErrors(t *testing.T) {
	const head = "schema_version = 1\n[workload]\nmodel = \"x\"\n"
	for _, tc := range []struct{ in, key, msg string }{
		{head + "recipe = \"autocats\"\n", "workload.recipe", "want auto, autocast, fsdp-mixed, deepspeed, pure16 or fp32"},
		{head + "loss = 3\n", "workload.loss", "want a string"},
		{head + "loss = \"fusde\"\n", "workload.loss", "hf-fp32, fused, chunked or native"},
		{head + "quant_type = \"int4\"\n", "workload.quant_type", "nf4 or fp4"},
		{head + "double_quant = \"yes\"\n", "workload.double_quant", "want true or false"},
		{head + "recpie = \"fp32\"\n", "workload.recpie", `did you mean "recipe"?`},
	} {
		_, err := Decode([]byte(tc.in))
		var ce *Error
		if !errors.As(err, &ce) || ce.Key != tc.key || !strings.Contains(ce.Msg.String(), tc.msg) {
			t.Errorf("Decode(%q) = %v; want key %s and %q", tc.in, err, tc.key, tc.msg)
		}
	}
	// Aliases are read as their recipe: amp is torch.autocast.
	c, err := Decode([]byte(head + "recipe = \"amp\"\nloss = \"liger\"\n"))
	if err != nil || c.Workload.Recipe != model.RecipeAutocast || c.Workload.Loss != model.LossChunked {
		t.Errorf("aliases: %+v, %v", c.Workload, err)
	}
}
