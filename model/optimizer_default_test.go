package model

import "testing"

// Issue 31 item 9: ResNet-50 defaulted to AdamW, where torchvision's
// ImageNet reference recipe (references/classification/README.md and
// train.py --opt sgd, --momentum 0.9) trains ResNets with SGD and
// momentum. A model's recipe's optimizer is the default; a set one wins;
// a model without a recipe gets AdamW.
func TestDefaultOptimizer(t *testing.T) {
	resnet := Architecture{Family: FamilyCNN, Params: 25.557032e6, DefaultOptimizer: SGDMomentum}
	tests := []struct {
		name string
		w    Workload
		want Optimizer
	}{
		{"ResNet-50: the recipe's SGD with momentum", Workload{Model: resnet}, SGDMomentum},
		{"ResNet-50 with adamw asked: adamw", Workload{Settings: Settings{Optimizer: AdamW}, Model: resnet}, AdamW},
		{"no recipe: AdamW", Workload{Model: Architecture{Family: FamilyDecoder, Params: 7e9}}, AdamW},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := tt.w
			w.Defaults()
			if w.Optimizer != tt.want {
				t.Errorf("Defaults() optimizer = %s, want %s", w.Optimizer, tt.want)
			}
		})
	}
}
