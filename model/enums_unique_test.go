package model

import (
	"slices"
	"testing"
)

// TestEnumListsNameEachOnce: a list of valid values (what ParseEnum and
// the flags print after "want") names each value once, and Precisions is
// the union of the training and inference ones. A new user's --precision
// fp64 read "want amp-bf16, amp-fp16, bf16, fp16, fp32, tf32, fp8, fp16,
// int8 or int4".
func TestEnumListsNameEachOnce(t *testing.T) {
	lists := map[string][]string{
		"Precisions": EnumNames(Precisions), "TrainingPrecisions": EnumNames(TrainingPrecisions),
		"InferencePrecisions": EnumNames(InferencePrecisions), "Tasks": EnumNames(Tasks),
		"Frameworks": EnumNames(Frameworks), "Optimizers": EnumNames(Optimizers), "Strategies": EnumNames(Strategies),
		"PricingModes": EnumNames(PricingModes), "SortKeys": EnumNames(SortKeys), "Families": EnumNames(Families),
		"Trainers": EnumNames(Trainers), "ZeroGrads": EnumNames(ZeroGrads), "OutputsAll": EnumNames(OutputsAll),
	}
	for name, l := range lists {
		for i, v := range l {
			if slices.Contains(l[:i], v) {
				t.Errorf("%s names %q twice: %v", name, v, l)
			}
		}
	}
	for _, p := range slices.Concat(TrainingPrecisions, InferencePrecisions) {
		if !slices.Contains(Precisions, p) {
			t.Errorf("Precisions lacks %q", p)
		}
	}
	if len(Precisions) != 9 { // amp-bf16 amp-fp16 bf16 fp16 fp32 tf32 fp8 int8 int4
		t.Errorf("Precisions: %v, want the 9 of training and inference", Precisions)
	}
}
