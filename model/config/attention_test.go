package config

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// A flash-attention answer for a CNN is dropped with one warning line;
// for a transformer it is kept without a word (issue 17).
func TestFlashAttentionForCNN(t *testing.T) {
	cat := &model.Catalog{Models: []model.Architecture{modeltest.ResNet50, modeltest.Llama31_8B}}
	cat.Index()
	for _, tt := range []struct {
		model    string
		flash    *bool
		warn     bool
		wantNil  bool
		wantTrue bool
	}{
		{"resnet50", model.Bool(true), true, true, false},
		{"resnet50", model.Bool(false), true, true, false},
		{"resnet50", nil, false, true, false},
		{"llama-3.1-8b", model.Bool(false), false, false, false},
		{"llama-3.1-8b", model.Bool(true), false, false, true},
	} {
		a := WorkloadAnswers{Settings: model.Settings{FlashAttention: tt.flash}, Model: tt.model}
		w, ws, err := a.Workload(cat, Readers{})
		if err != nil {
			t.Fatalf("%s: %v", tt.model, err)
		}
		warned := false
		for _, s := range ws {
			if strings.Contains(s, "flash attention ignored") && strings.Contains(s, "without attention layers") {
				warned = true
			}
		}
		if warned != tt.warn {
			t.Errorf("%s flash=%v: warned %v, want %v (%q)", tt.model, tt.flash, warned, tt.warn, ws)
		}
		if (w.FlashAttention == nil) != tt.wantNil || w.FlashAttention != nil && *w.FlashAttention != tt.wantTrue {
			t.Errorf("%s flash=%v: FlashAttention %v after Workload", tt.model, tt.flash, w.FlashAttention)
		}
	}
	if HasAttention := model.FamilyCNN.HasAttention(); HasAttention {
		t.Error("a CNN has attention layers")
	}
	for _, f := range []model.Family{model.FamilyDecoder, model.FamilyEncoder, model.FamilyEncoderDecoder, model.FamilyViT, model.FamilyUNet} {
		if !f.HasAttention() {
			t.Errorf("%s has no attention layers", f)
		}
	}
}
