package probe_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model/probe"
)

// A gradient or optimizer-state reading under half of what the plan's
// trainable parameters need is refused (attack round 13: 1 byte each for
// a LoRA of 13.6M trainable parameters was kept and corrected memory
// ×0.487). The QLoRA plan of qlora-a10g.json: 13,631,488 trainable
// parameters (rank 16 on q k v o of Llama 3.1 8B) with fp32 gradients
// under autocast, 54,525,952 bytes, and AdamW's two fp32 states,
// 109,051,904 bytes.
func TestStatesFloor(t *testing.T) {
	cat := catalog(t)
	for _, tc := range []struct {
		name          string
		grads, states float64
		want          string // "" when kept
	}{
		{"as measured", 56623104, 109051904, ""},
		{"gradients half exactly", 27262976, 109051904, ""},
		{"gradients 1 byte", 1, 109051904, "measured.gradients_bytes: 1 is less than half the 54525952 bytes the plan's 1.36e+07 trainable parameters need on each GPU"},
		{"gradients just under half", 27262975, 109051904, "measured.gradients_bytes: 27262975"},
		{"optimizer states 1 byte", 56623104, 1, "measured.optimizer_states_bytes: 1 is less than half the 109051904 bytes"},
	} {
		r := parse(t, "qlora-a10g.json")
		r.Measured.Gradients, r.Measured.OptimizerStates = &tc.grads, &tc.states
		c, err := probe.Compare(r, cat)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			} else if g := c.Estimate.States.Gradients; g != 54525952 {
				t.Errorf("%s: the plan's gradients are %.0f bytes, want 54525952", tc.name, g)
			}
			continue
		}
		if !errors.Is(err, probe.ErrResult) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want ErrResult with %q", tc.name, err, tc.want)
		}
	}
}
