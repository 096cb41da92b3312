package data

import (
	"strings"
	"testing"
)

// A model's default_optimizer names an optimizer gpuplan knows and cites
// its recipe (optimizer_source); either alone is refused.
func TestModelDefaultOptimizer(t *testing.T) {
	base := func() rawModel {
		return rawModel{Key: "cnn", Name: "CNN", Family: "cnn", Params: 25e6, PublishedParams: 25e6, ParamsSource: "paper",
			ForwardGMACs: 4, ImageSize: 224, ActivationMiBPerSample: 40, Source: "paper", AsOf: "2026-11-30"}
	}
	tests := []struct {
		name, opt, src, err string
	}{
		{"none: AdamW later", "", "", ""},
		{"sgd-momentum with its recipe", "sgd-momentum", "torchvision references/classification", ""},
		{"an optimizer without a source", "sgd-momentum", "", "missing optimizer_source"},
		{"a source without an optimizer", "", "torchvision", "optimizer"},
		{"an unknown optimizer", "lamb", "paper", "lamb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := base()
			r.DefaultOptimizer, r.OptimizerSource = tt.opt, tt.src
			a, err := r.validate()
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("validate: %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("validate: %v, want an error naming %q", err, tt.err)
			case tt.err == "" && string(a.DefaultOptimizer) != tt.opt:
				t.Errorf("DefaultOptimizer = %q, want %q", a.DefaultOptimizer, tt.opt)
			}
		})
	}
}
