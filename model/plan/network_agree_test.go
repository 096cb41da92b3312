package plan

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// TestNetworkOneRule (issue #30): one multi-node job on an instance type
// without a network figure gets the same hours from estimate --phase
// (Compute after OnType and Catalog.FillNetwork), recommend (Recommend on
// that type) and plan (CheckJobHours on a phase pinned to it). A type
// that documents a GPU fabric (InfiniBand, RDMA, EFA) but no figure is
// timed at Catalog.DefaultNetwork, here the 400 Gbps of the catalog's one
// other 8-GPU g80 type with a sourced figure; a type that documents
// neither (a reseller's single-node VMs, rented one by one) at the
// conservative AssumedNetworkGbps (model.NetworkNoFabric): the median of
// InfiniBand nodes timed such offers too fast (new-user walk: 16 H200 on
// two primeintellect VMs as fast as on two EFA-joined p5en). With
// --network-gbps given, all three use it instead.
func TestNetworkOneRule(t *testing.T) {
	cat := modeltest.Catalog()
	cat.Instances = append(cat.Instances, model.Instance{Provider: "p3", Type: "net.8", GPU: "g80", GPUCount: 8, VCPUs: 192, MemoryGiB: 2048,
		Interconnect: "nvswitch", NetworkGbps: 400, Source: "test fixture", AsOf: "2026-12-02",
		Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 200}}})
	for i := range cat.GPUs { // NVLink inside the node, so collectives are timed
		if cat.GPUs[i].Key == "g80" {
			cat.GPUs[i].InterconnectGBps = 900
		}
	}
	cat.Index()
	g80, err := cat.GPU("g80")
	if err != nil {
		t.Fatal(err)
	}
	huge := func() *model.Instance {
		for i := range cat.Instances {
			if cat.Instances[i].Type == "huge.8" {
				return &cat.Instances[i]
			}
		}
		t.Fatal("no huge.8")
		return nil
	}
	base := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 1, SeqLen: 4096, GPUs: 16, Strategy: model.FSDP,
		Checkpointing: model.Bool(true), DatasetTokens: 1e8}, Model: modeltest.Llama31_8B}
	base.Defaults()

	// estimate without an instance type keeps the catalog's median.
	{
		we := base
		cat.FillNetwork(&we, g80)
		if we.NetworkGbps != 400 || we.NetworkFrom != model.NetworkCatalog {
			t.Fatalf("estimate's network without a type %g Gbps from %q, want 400 from catalog", we.NetworkGbps, we.NetworkFrom)
		}
		// The figure matters: at the assumed 10 Gbps the job is slower.
		e, _ := model.Compute(we, g80)
		wa := base
		wa.NetworkGbps, wa.NetworkFrom = model.AssumedNetworkGbps, model.NetworkNoFabric
		if ea, _ := model.Compute(wa, g80); ea.Hours < 1.5*e.Hours {
			t.Fatalf("at 10 Gbps %g h, at 400 Gbps %g h: the network does not matter to this job, the test cannot fail", ea.Hours, e.Hours)
		}
	}

	for _, tt := range []struct {
		name     string
		given    float64 // --network-gbps; 0: none
		fabric   string  // huge.8's documented fabric
		wantGbps float64
		wantFrom model.NetworkSource
	}{
		{"fabric without a figure: catalog median", 0, "infiniband", 400, model.NetworkCatalog},
		{"no fabric: assumed Ethernet", 0, "", model.AssumedNetworkGbps, model.NetworkNoFabric},
		{"given", 100, "", 100, model.NetworkGiven},
	} {
		t.Run(tt.name, func(t *testing.T) {
			huge().Fabric = tt.fabric
			w := base
			w.NetworkGbps = tt.given
			// estimate --phase
			we := OnType(huge(), w)
			cat.FillNetwork(&we, g80)
			if we.NetworkGbps != tt.wantGbps || we.NetworkFrom != tt.wantFrom {
				t.Fatalf("estimate's network %g Gbps from %q, want %g from %q", we.NetworkGbps, we.NetworkFrom, tt.wantGbps, tt.wantFrom)
			}
			e, err := model.Compute(we, g80)
			if err != nil || e.Hours <= 0 {
				t.Fatalf("Compute: %v, %g h", err, e.Hours)
			}

			// recommend
			rec, err := model.Recommend(w, cat, model.Query{Providers: []string{"p2"}, AllowMultiNode: true})
			if err != nil {
				t.Fatal(err)
			}
			var o *model.Offer
			for i := range rec.Offers {
				if x := &rec.Offers[i]; x.Instance.Type == "huge.8" && x.Instances == 2 {
					o = x
				}
			}
			if o == nil {
				t.Fatalf("no 2 × huge.8 offer among %d", len(rec.Offers))
			}
			if o.JobHours != e.Hours || o.Estimate.TimeBand != e.TimeBand {
				t.Errorf("recommend on 2 × huge.8: %g h %v, estimate %g h %v", o.JobHours, o.Estimate.TimeBand, e.Hours, e.TimeBand)
			}
			if !o.AssumesNetwork() || o.NetworkGbps() != tt.wantGbps {
				t.Errorf("offer assumes network %v at %g Gbps, want true at %g", o.AssumesNetwork(), o.NetworkGbps(), tt.wantGbps)
			}
			if ws := strings.Join(o.Warnings(), "\n"); !strings.Contains(ws, fmt.Sprintf("the catalog has no network figure for huge.8; timed at %.0f Gbps per node", tt.wantGbps)) {
				t.Errorf("warnings do not name the figure:\n%s", ws)
			}

			// plan: job_hours at the estimate passes; far below it is
			// noted with the estimate's own hours.
			check := func(hours float64) []model.Message {
				ph := Phase{Name: "train", Provider: "p2", Instance: "huge.8", Region: "us-east-1", Pricing: model.OnDemand, Instances: 2, USDPerHour: 160,
					JobHours: hours, Answers: Answers{"gpus": "16"}}
				return CheckJobHours(cat, &Plan{Phases: []Phase{ph}}, Scenario{PhaseScenarioFor(&ph, w, model.Query{}, cat)}, nil)
			}
			if notes := check(e.Hours); len(notes) != 0 {
				t.Errorf("job_hours = the estimate's %g h: notes %v", e.Hours, notes)
			}
			notes := check(e.Hours / 10)
			want := fmt.Sprintf("but the estimate on p2 huge.8 ×2 is %.3g h (90%% range %.3g–%.3g h)", e.Hours, e.TimeBand[0], e.TimeBand[1])
			if len(notes) != 1 || !strings.Contains(notes[0].String(), want) {
				t.Errorf("job_hours a tenth of the estimate: notes %v, want one containing %q", notes, want)
			}
		})
	}
}
