package tui

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// The recipe, loss and 4-bit answers survive a file → answers → file
// round trip; for inference they are not written.
func TestEstimatorAnswersRoundTrip(t *testing.T) {
	cat := testCatalog(t)
	for name, w := range map[string]config.WorkloadAnswers{
		"qlora fp4 no dq":    {Settings: model.Settings{Task: model.TaskQLoRA, Recipe: model.RecipePure16, Loss: model.LossChunked, QuantType: model.QuantFP4, DoubleQuant: model.Bool(false)}, Model: "llama-3.1-8b"},
		"finetune deepspeed": {Settings: model.Settings{Task: model.TaskFinetune, Recipe: model.RecipeDeepSpeed, Loss: model.LossFused}, Model: "llama-3.1-8b"},
		"qlora defaults":     {Settings: model.Settings{Task: model.TaskQLoRA}, Model: "llama-3.1-8b"},
	} {
		t.Run(name, func(t *testing.T) {
			a := answersFromConfig(cat, &config.Config{Workload: w})
			c, err := a.config()
			if err != nil {
				t.Fatal(err)
			}
			got := c.Workload
			want := []any{w.Recipe, w.Loss, w.QuantType, w.DoubleQuant}
			if !reflect.DeepEqual([]any{got.Recipe, got.Loss, got.QuantType, got.DoubleQuant}, want) {
				t.Errorf("round trip: recipe %q loss %q quant %q dq %v; want %v", got.Recipe, got.Loss, got.QuantType, got.DoubleQuant, want)
			}
		})
	}
	a := answersFromConfig(cat, &config.Config{Workload: config.WorkloadAnswers{Settings: model.Settings{Task: model.TaskInference}, Model: "llama-3.1-8b"}})
	a.Recipe, a.QuantType = model.RecipeFP32, model.QuantFP4
	if c, err := a.config(); err != nil || c.Workload.Recipe != "" || c.Workload.QuantType != "" {
		t.Errorf("inference writes recipe %q quant %q (%v)", c.Workload.Recipe, c.Workload.QuantType, err)
	}
}

// The 4-bit page is asked for QLoRA only; choosing FP4 without double
// quantization there changes the estimate's weights, and the panel shows
// the recipe, the band, both PyTorch totals and the peak phase.
func TestEstimatorPagesAndPanel(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)) // first frame: QLoRA of Llama 3.1 8B
	text := screenText(m)
	for _, want := range []string{"recipe autocast · loss hf-fp32 · nf4 + double quant", "90% range", "peak at", "torch allocated"} {
		if !strings.Contains(text, want) {
			t.Errorf("panel lacks %q:\n%s", want, text)
		}
	}
	before := m.res.est.Memory.Weights
	m = toPage(t, m, "4-bit base")
	m = drive(t, m, down, enter, left, enter) // FP4, double quantization off
	if m.a.QuantType != model.QuantFP4 || m.a.DoubleQuant {
		t.Fatalf("answers quant %q dq %v", m.a.QuantType, m.a.DoubleQuant)
	}
	if !m.res.ok() || !(m.res.est.Memory.Weights > before) {
		t.Errorf("FP4 without double quantization: weights %.4g B, want more than NF4+DQ's %.4g B (%v)", m.res.est.Memory.Weights, before, m.res.err)
	}
	// A full fine-tune has no 4-bit page.
	a := m.a
	a.Task = model.TaskFinetune
	for _, p := range m.wiz.pages {
		if p.title == "4-bit base" && !p.hide() {
			t.Error("the 4-bit page is shown for a full fine-tune")
		}
		if p.title == "Recipe and loss" && p.hide() {
			t.Error("the recipe page is hidden for a full fine-tune")
		}
	}
}
