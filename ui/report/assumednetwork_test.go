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
	// A type without a figure is timed at 10 Gbps (assumed), for type
	// "v" at 10 Gbps as it names no fabric (model.NoFabricNetwork), for
	// type "m" at 2400 Gbps, the catalog's median (model.InstanceHost).
	// The note says which way each figure errs: the slowest documented
	// long, a median of other types' fabrics short (new-user walk: the
	// median was said to make times "far too long").
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
		case typ == "v":
			est.Host = model.InstanceHost(in, g, model.AssumedNetworkGbps, model.NetworkNoFabric)
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
			"! 2 offers timed without a network figure in the catalog (a): at 10 Gbps (assumed) between nodes; the assumed figure is the slowest the catalog documents, so their cross-node time errs long, far too long if the provider joins them with InfiniBand or RDMA (--network-gbps)"},
		{"catalog median", []model.Offer{offer("m", 2, 0, ft), offer("p5.48xlarge", 2, 3200, ft)},
			"! 1 offer timed without a network figure in the catalog (m): at 2400 Gbps (catalog median) between nodes; a catalog median is other types' fabric, so their cross-node time is too short if theirs is slower (--network-gbps)"},
		{"no fabric", []model.Offer{offer("v", 2, 0, ft), offer("p5.48xlarge", 2, 3200, ft)},
			"! 1 offer timed without a network figure in the catalog (v): at 10 Gbps (assumed: no fabric documented) between nodes; the assumed figure is the slowest the catalog documents, so their cross-node time errs long, far too long if the provider joins them with InfiniBand or RDMA (--network-gbps)"},
		{"both", []model.Offer{offer("m", 2, 0, ft), offer("a", 2, 0, ft)},
			"! 2 offers timed without a network figure in the catalog (m, a): at 2400 Gbps (catalog median), 10 Gbps (assumed) between nodes; the assumed figure is the slowest the catalog documents, so their cross-node time errs long, far too long if the provider joins them with InfiniBand or RDMA; a catalog median is other types' fabric, so their cross-node time is too short if theirs is slower (--network-gbps)"},
		{"six types", []model.Offer{offer("a", 2, 0, ft), offer("b", 2, 0, ft), offer("c", 2, 0, ft), offer("d", 2, 0, ft), offer("e", 2, 0, ft), offer("f", 2, 0, ft)},
			"! 6 offers timed without a network figure in the catalog (a, b, c, d and 2 more): at 10 Gbps (assumed) between nodes; the assumed figure is the slowest the catalog documents, so their cross-node time errs long, far too long if the provider joins them with InfiniBand or RDMA (--network-gbps)"},
	} {
		if got := AssumedNetworkNote(p, c.offers); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
		if got := AssumedNetworkNoteShort(p, c.offers); (got == "") != (c.want == "") {
			t.Errorf("%s: short note %q", c.name, got)
		}
	}
}
