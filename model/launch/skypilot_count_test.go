package launch_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/launch/cloud"
)

// TestSkyPilotGPUCountTable: launch's table of per-node GPU counts
// SkyPilot's catalog disagrees with holds every such instance type of the
// embedded catalog, checked against SkyPilot's rows in
// testdata/skypilot_accelerators.csv, and nothing else.
func TestSkyPilotGPUCountTable(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	rows := skyPilotAccelerators(t)
	checked, differ := 0, 0
	for i := range cat.Instances {
		in := &cat.Instances[i]
		typ := launch.ProviderInstanceType(in.Provider, in.Type)
		own := rows[[2]string{in.Provider, typ}]
		want := in.GPUCount
		if len(own) > 0 {
			checked++
			if float64(in.GPUCount) != own[0].count {
				want = int(own[0].count)
				differ++
			}
		}
		if got := cloud.SkyPilotGPUCount(in.Provider, typ, in.GPUCount); got != want {
			t.Errorf("%s/%s: SkyPilotGPUCount = %d, SkyPilot's catalog says %d (gpuplan %d)", in.Provider, typ, got, want, in.GPUCount)
		}
	}
	t.Logf("%d instance types checked against SkyPilot's rows, %d counted otherwise by SkyPilot", checked, differ)
	if checked < 150 || differ == 0 {
		t.Errorf("only %d types checked, %d differing: the fixture or the catalog changed", checked, differ)
	}
}

// TestSkyPilotNDH100v5 is the case: Azure ND H100 v5 has 8 H100s
// (Microsoft Learn) and SkyPilot's catalog says 12, so H100:8 is refused
// ("Infeasible resource demands") and, with the count left to SkyPilot,
// $SKYPILOT_NUM_GPUS_PER_NODE would start 12 ranks on 8 GPUs. The file
// names the instance type alone and pins torchrun to the plan's 8
// processes per node; SkyPilot's rules (validateSkyPilot) accept it.
func TestSkyPilotNDH100v5(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	var in *model.Instance
	for i := range cat.Instances {
		if c := &cat.Instances[i]; c.Provider == "azure" && c.Type == "Standard_ND96isr_H100_v5" {
			in = c
		}
	}
	if in == nil || in.GPUCount != 8 {
		t.Fatalf("the catalog's Standard_ND96isr_H100_v5: %+v", in)
	}
	g, err := cat.GPU(in.GPU)
	if err != nil {
		t.Fatal(err)
	}
	for _, nodes := range []int{1, 2} {
		w := model.Workload{Settings: model.Settings{Task: model.TaskLoRA, Strategy: model.DDP, MicroBatch: 2, GradAccum: 1, SeqLen: 2048, GPUs: 8 * nodes}, Model: llama8B}
		w.Defaults()
		o := &model.Offer{Instance: in, GPU: g, Region: in.Prices[0].Region, Pricing: model.OnDemand, Instances: nodes, GPUs: 8 * nodes,
			Strategy: w.Strategy, USDPerHour: 1, Estimate: &model.Estimate{Workload: w, Params: 8e9}}
		p, err := launch.NewPlan(w, o, launch.Options{})
		if err != nil {
			t.Fatal(err)
		}
		sky, err := p.SkyPilot()
		if err != nil {
			t.Fatalf("%d nodes: %v", nodes, err)
		}
		task, bad := validateSkyPilot(t, sky, newSkyCatalog(cat))
		for _, b := range bad {
			t.Errorf("%d nodes: %s", nodes, b)
		}
		r := task.Resources
		if r.Accelerators != "" || r.InstanceType != "Standard_ND96isr_H100_v5" {
			t.Errorf("%d nodes: instance_type %q accelerators %q; want the instance type alone", nodes, r.InstanceType, r.Accelerators)
		}
		perNode := skyGPUsPerNode(t, r.skyOffer)
		if perNode != 12 {
			t.Errorf("SkyPilot would count %d GPUs per node; the fixture says 12", perNode)
		}
		cmds := torchrunCommands(t, task.Run, runEnv(fmt.Sprintf("SKYPILOT_NUM_GPUS_PER_NODE=%d", perNode)))
		if len(cmds) != 1 {
			t.Fatalf("%d torchrun commands", len(cmds))
		}
		if opts, _, _, _ := splitTorchrun(t, cmds[0]); opts["--nproc-per-node"] != "8" {
			t.Errorf("%d nodes: --nproc-per-node=%s on a node of 8 H100s", nodes, opts["--nproc-per-node"])
		}
		if !strings.Contains(string(sky), "SkyPilot's catalog gives Standard_ND96isr_H100_v5 12 GPUs per node, the provider 8") {
			t.Errorf("the header does not say why:\n%s", sky)
		}
	}
}
