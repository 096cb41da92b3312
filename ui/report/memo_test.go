package report

import (
	"math"
	"slices"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestMessageMemo: the memo gives model.Strings' text for every message,
// the second time (a hit) as the first, and keeps only scalar arguments.
func TestMessageMemo(t *testing.T) {
	type named string
	x := 1.5
	ms := []model.Message{
		model.Msg("FlashAttention-2 needs compute capability 8.0; PyTorch falls back"),
		model.Msg("%s lacks %s: runs in %s", "NVIDIA T4", model.AMPBF16, model.AMPFP16),
		model.Msg("%s lacks %s: runs in %s", "NVIDIA V100", model.AMPBF16, model.AMPFP16),
		model.Msg("about %.0f%% (%.2f GiB)", 45.0, 18.61),
		model.Msg("value %v", 0.0),
		model.Msg("value %v", math.Copysign(0, -1)), // equal to 0 as a key
		model.Msg("value %v", math.NaN()),
		model.Msg("%v %v", named("a"), true),
		model.Msg("%v", int64(7)),
		model.Msg("%v", &x),                              // a pointer: not kept
		model.Msg("%v", []string{"a"}),                   // a slice: not kept
		model.Msg("%v %v %v %v %v", 1, 2, 3, 4, 5),       // five: an offer's borderline warning
		model.Msg("%v %v %v %v %v %v", 1, 2, 3, 4, 5, 6), // more than the key holds
		model.Msg("%v", nil),
	}
	want := model.Strings(ms)
	memo := messageMemo{}
	for round := range 2 {
		if got := memo.strings(ms); !slices.Equal(got, want) {
			t.Fatalf("round %d:\n got %q\nwant %q", round, got, want)
		}
	}
	// Kept: the scalar ones, each once; -0, NaN, the pointer, the slice,
	// the long one and nil are not.
	if got, wantN := len(memo), 8; got != wantN {
		t.Errorf("memo holds %d messages, want %d", got, wantN)
	}
	if got := messageMemo(nil).strings(nil); got == nil || len(got) != 0 {
		t.Errorf("no messages: %#v, want an empty, non-nil list (JSON [])", got)
	}
}
