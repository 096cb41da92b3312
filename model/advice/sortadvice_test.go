package advice

import (
	"slices"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestSortAdviceOrder: fit advice is printed in the documented order
// (docs/cli.md, smallestSet): ✓ before ~ before ✗; among those that fit,
// fewer GPUs, then mixed precision kept before pure bf16, then fewer
// changes; then the smaller total. The cases are the verification
// walk's: a ~ on 2 GPUs listed before a ✓ on 4 (Mistral 7B's LoRA on a
// T4), pure bf16 at 45.69 GiB before 8-bit AdamW at 51.92 GiB, both ✓ on
// 16 H100.
func TestSortAdviceOrder(t *testing.T) {
	w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, GPUs: 1, Precision: model.AMPBF16}}
	on := func(name string, gpus int, verdict model.FitVerdict, total float64, pure bool, changes int) Advice {
		v := w
		v.GPUs = gpus
		if pure {
			v.Precision = model.BF16
		}
		return Advice{Change: name, Workload: v, Total: total * model.GiB, Fits: verdict != model.VerdictNoFit, Verdict: verdict, changes: changes}
	}
	fits, border, no := model.VerdictFits, model.VerdictBorderline, model.VerdictNoFit
	for _, tt := range []struct {
		name string
		in   []Advice
		want []string
	}{
		{"✓ over 4 GPUs before ~ over 2, before ✗ on 1", []Advice{
			on("~ zero3 2", 2, border, 11.93, false, 2), on("✗ ckpt", 1, no, 17.85, false, 1), on("~ fsdp 2", 2, border, 12.34, false, 2), on("✓ zero3 4", 4, fits, 8.51, false, 2),
		}, []string{"✓ zero3 4", "~ zero3 2", "~ fsdp 2", "✗ ckpt"}},
		{"on as many GPUs, 8-bit AdamW (51.92) before pure bf16 (45.69)", []Advice{
			on("bf16", 16, fits, 45.69, true, 1), on("adamw-8bit", 16, fits, 51.92, false, 1),
		}, []string{"adamw-8bit", "bf16"}},
		{"fewer GPUs before mixed precision: pure bf16 on 1 before 8-bit AdamW on 2", []Advice{
			on("adamw-8bit over 2", 2, fits, 30, false, 2), on("bf16", 1, fits, 40, true, 1),
		}, []string{"bf16", "adamw-8bit over 2"}},
		{"one change before a combination on as many GPUs, though larger", []Advice{
			on("combine 2", 1, fits, 10, false, 2), on("ckpt", 1, fits, 12, false, 1), on("combine 3", 1, fits, 9, false, 3),
		}, []string{"ckpt", "combine 2", "combine 3"}},
		{"✗ by total, pure bf16 or not", []Advice{
			on("✗ ckpt", 1, no, 20, false, 1), on("✗ bf16", 1, no, 18, true, 1),
		}, []string{"✗ bf16", "✗ ckpt"}},
	} {
		a := slices.Clone(tt.in)
		sortAdvice(a, w)
		var got []string
		for i := range a {
			got = append(got, a[i].Change)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
