package model

import (
	"strings"
	"testing"
)

// A flash-attention answer for a CNN is dropped with one warning line;
// for a transformer it is kept without a word (issue 17).
func TestFlashAttentionForCNN(t *testing.T) {
	cat := &Catalog{Models: []Architecture{resnet50, llama31_8B}}
	cat.Index()
	for _, tt := range []struct {
		model    string
		flash    *bool
		warn     bool
		wantNil  bool
		wantTrue bool
	}{
		{"resnet50", Bool(true), true, true, false},
		{"resnet50", Bool(false), true, true, false},
		{"resnet50", nil, false, true, false},
		{"llama-3.1-8b", Bool(false), false, false, false},
		{"llama-3.1-8b", Bool(true), false, false, true},
	} {
		a := WorkloadAnswers{Settings: Settings{FlashAttention: tt.flash}, Model: tt.model}
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
	if HasAttention := FamilyCNN.HasAttention(); HasAttention {
		t.Error("a CNN has attention layers")
	}
	for _, f := range []Family{FamilyDecoder, FamilyEncoder, FamilyEncoderDecoder, FamilyViT, FamilyUNet} {
		if !f.HasAttention() {
			t.Errorf("%s has no attention layers", f)
		}
	}
}
