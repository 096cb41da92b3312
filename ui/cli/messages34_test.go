package cli

import (
	"strings"
	"testing"
)

// TestRefusalsSayTheBound: a new user's refusals that named the wrong
// bound or a flag given: --batch-size 1e300 says the flag's own bound
// (1048576, as 1e14 does), not int64's; --layers 0 says --layers must
// be ≥ 1, not that --layers is missing; TP × PP past --gpus says the
// GPUs one replica needs; an empty --gpu is refused as an empty --model is.
func TestRefusalsSayTheBound(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"estimate", "--model", "llama-3.1-8b", "--batch-size", "1e300"}, `--batch-size "1e300": out of range: at most 1048576`},
		{[]string{"estimate", "--model", "llama-3.1-8b", "--grad-accum", "1e300"}, `--grad-accum "1e300": out of range: at most 1048576`},
		{[]string{"estimate", "--params", "7B", "--layers", "0"}, "--layers: must be ≥ 1, got 0"},
		{[]string{"estimate", "--params", "7B", "--layers", "32", "--hidden", "4096"}, "a custom shape needs --heads as well"},
		{[]string{"estimate", "--model", "llama-3.1-70b", "--task", "inference", "--gpu", "h100-sxm", "--tp", "2", "--pp", "2", "--gpus", "2"}, "one replica is TP × PP = 2 × 2 = 4 GPUs, more than --gpus 2"},
		{[]string{"estimate", "--model", "llama-3.1-70b", "--task", "inference", "--gpu", "h100-sxm", "--tp", "4", "--gpus", "2"}, "--tp 4 is more than --gpus 2"},
		{[]string{"estimate", "--model", "llama-3.1-8b", "--gpu", ""}, "--gpu '': no GPU named"},
		{[]string{"recommend", "--model", "llama-3.1-8b", "--gpu", ""}, "--gpu '': no GPU named"},
	} {
		code, _, errs := runCLI(t, tc.args...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%q: exit %d, %q; want 2 saying %q", tc.args, code, errs, tc.want)
		}
	}
}
