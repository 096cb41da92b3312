package launch

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestTRLOptim: each optimizer maps to the Trainer's --optim of the same
// implementation (transformers training_args.py OptimizerNames); the
// fused AdamW is ADAMW_TORCH_FUSED, "adamw_torch_fused".
func TestTRLOptim(t *testing.T) {
	for _, tt := range []struct {
		o    model.Optimizer
		want string
	}{
		{model.AdamW, "adamw_torch"}, {model.Adam, "adamw_torch"}, {model.AdamWFused, "adamw_torch_fused"},
		{model.AdamW8bit, "adamw_bnb_8bit"}, {model.PagedAdamW, "paged_adamw_32bit"}, {model.PagedAdamW8bit, "paged_adamw_8bit"},
		{model.Adafactor, "adafactor"}, {model.SGD, "sgd"}, {model.SGDMomentum, "sgd"},
	} {
		if got := trlOptim(tt.o); got != tt.want {
			t.Errorf("trlOptim(%s) = %q, want %q", tt.o, got, tt.want)
		}
	}
}
