package report

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestSizedTableNoteNamesDemotedTypes: the note names every oversized
// type ranked below a row whose figure is higher (it named the first
// oversized type and left a second, below a dearer row, unexplained: a
// walk, 2026-12-06), a type in several regions once, at most three and a
// count; with none so ranked, the first oversized type shown.
func TestSizedTableNoteNamesDemotedTypes(t *testing.T) {
	offer := func(typ string, count, sized int, usd float64) model.Offer {
		return model.Offer{Instance: &model.Instance{Type: typ, GPUCount: count}, Instances: 1, SizedGPUs: sized, USDPerHour: usd}
	}
	sized := offer("g6.xlarge", 1, 1, 1.00)
	const one = "p5en.48xlarge rents 8 GPUs where 1 would run the job: a host sized to the job ranks first unless the bigger one costs 10% less"
	for _, tt := range []struct {
		name   string
		offers []model.Offer
		sort   model.SortKey
		want   string
	}{
		{"none oversized", []model.Offer{sized}, model.SortPrice, ""},
		{"one, not below a dearer row", []model.Offer{sized, offer("p5en.48xlarge", 8, 1, 1.05)}, model.SortPrice, one},
		{"one below a dearer row", []model.Offer{sized, offer("p5en.48xlarge", 8, 1, 0.95)}, model.SortPrice, one},
		{"two below dearer rows, one in two regions", []model.Offer{
			offer("A100x1", 1, 1, 3.81), offer("p5en.48xlarge", 8, 1, 3.79), offer("A100x1", 1, 1, 4.19),
			offer("p5en.48xlarge", 8, 1, 3.79), offer("NC96ads", 4, 1, 3.81), offer("p4d", 8, 1, 9)}, model.SortPrice,
			"p5en.48xlarge, NC96ads rent more GPUs than the job needs: a host sized to it ranks first unless the bigger one costs 10% less"},
		{"five", []model.Offer{offer("x", 1, 1, 10), offer("a", 8, 1, 9.5), offer("b", 8, 2, 9.5), offer("c", 4, 1, 9.5), offer("d", 2, 1, 9.5), offer("e", 2, 1, 9.5)}, model.SortPrice,
			"a, b, c and 2 more rent more GPUs than the job needs: a host sized to it ranks first unless the bigger one costs 10% less"},
		{"time", []model.Offer{offer("p5en.48xlarge", 8, 1, 1)}, model.SortTime, ""},
	} {
		if got := SizedTableNote(nil, tt.offers, tt.sort); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}
