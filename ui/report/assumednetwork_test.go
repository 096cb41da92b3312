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
	// A type without a figure is timed at 10 Gbps (assumed) or, for
	// type "m", at 2400 Gbps, the catalog's median (model.InstanceHost).
	offer := func(typ string, instances int, gbps float64, task model.Task) model.Offer {
		est := &model.Estimate{}
		est.Workload.Task = task
		in := &model.Instance{Type: typ, GPUCount: 8, NetworkGbps: gbps}
		g := &model.GPU{}
		switch {
		case gbps > 0:
			est.Host = model.HostOf(in, g)
		case typ == "m":
			est.Host = model.InstanceHost(in, g, 2400, model.NetworkCatalog)
		default:
			est.Host = model.InstanceHost(in, g, model.AssumedNetworkGbps, model.NetworkAssumedSource)
		}
		return model.Offer{Instances: instances, Instance: in, Estimate: est}
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
			"! 2 offers timed without a network figure in the catalog (a): at 10 Gbps (assumed) between nodes; an assumed figure may make their cross-node time far too long (--network-gbps)"},
		{"catalog median", []model.Offer{offer("m", 2, 0, ft), offer("p5.48xlarge", 2, 3200, ft)},
			"! 1 offer timed without a network figure in the catalog (m): at 2400 Gbps (catalog median) between nodes"},
		{"both", []model.Offer{offer("m", 2, 0, ft), offer("a", 2, 0, ft)},
			"! 2 offers timed without a network figure in the catalog (m, a): at 2400 Gbps (catalog median), 10 Gbps (assumed) between nodes; an assumed figure may make their cross-node time far too long (--network-gbps)"},
		{"six types", []model.Offer{offer("a", 2, 0, ft), offer("b", 2, 0, ft), offer("c", 2, 0, ft), offer("d", 2, 0, ft), offer("e", 2, 0, ft), offer("f", 2, 0, ft)},
			"! 6 offers timed without a network figure in the catalog (a, b, c, d and 2 more): at 10 Gbps (assumed) between nodes; an assumed figure may make their cross-node time far too long (--network-gbps)"},
	} {
		if got := AssumedNetworkNote(p, c.offers); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
		if got := AssumedNetworkNoteShort(p, c.offers); (got == "") != (c.want == "") {
			t.Errorf("%s: short note %q", c.name, got)
		}
	}
}
