package report

import (
	"testing"

	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// TestAssumedNetworkNote: the line names the multi-node training offers
// whose type has no network figure (each type once, the first four then a
// count), and is empty when every multi-node offer has a figure, for
// single-node offers, and for serving.
func TestAssumedNetworkNote(t *testing.T) {
	offer := func(typ string, instances int, gbps float64, task model.Task) model.Offer {
		est := &model.Estimate{}
		est.Workload.Task = task
		return model.Offer{Instances: instances, Instance: &model.Instance{Type: typ, NetworkGbps: gbps}, Estimate: est}
	}
	ft := model.TaskFinetune
	p := i18n.New(language.English)
	for _, c := range []struct {
		name   string
		offers []model.Offer
		want   string
	}{
		{"none", []model.Offer{offer("p5.48xlarge", 2, 3200, ft), offer("x", 1, 0, ft)}, ""},
		{"inference", []model.Offer{offer("x", 2, 0, model.TaskInference)}, ""},
		{"two of one type", []model.Offer{offer("a", 2, 0, ft), offer("a", 3, 0, ft), offer("p5.48xlarge", 2, 3200, ft)},
			"! 2 offers timed at an assumed 10 Gbps between nodes (no network figure in the catalog for a): their cross-node time may be far too long"},
		{"six types", []model.Offer{offer("a", 2, 0, ft), offer("b", 2, 0, ft), offer("c", 2, 0, ft), offer("d", 2, 0, ft), offer("e", 2, 0, ft), offer("f", 2, 0, ft)},
			"! 6 offers timed at an assumed 10 Gbps between nodes (no network figure in the catalog for a, b, c, d and 2 more): their cross-node time may be far too long"},
	} {
		if got := AssumedNetworkNote(p, c.offers); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
		if got := AssumedNetworkNoteShort(p, c.offers); (got == "") != (c.want == "") {
			t.Errorf("%s: short note %q", c.name, got)
		}
	}
}
