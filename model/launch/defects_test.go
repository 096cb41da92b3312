package launch_test

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/launch/cloud"
)

// The named defects of issue 18 (the round-2 launch audit), one test
// each, on the embedded catalog's own rows.

func catalogOffer(t *testing.T, provider, typ string, nodes int, pricing model.Pricing) (*model.Catalog, *model.Offer) {
	t.Helper()
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	for i := range cat.Instances {
		in := &cat.Instances[i]
		if in.Provider != provider || in.Type != typ {
			continue
		}
		g, err := cat.GPU(in.GPU)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range in.Prices {
			if pricing == model.Spot && p.SpotUSD > 0 || pricing == model.OnDemand && p.OnDemandUSD > 0 {
				return cat, sweepOffer(in, g, nodes, pricing, p.Region)
			}
		}
	}
	t.Fatalf("%s/%s with a %s price is not in the catalog", provider, typ, pricing)
	return nil, nil
}

func render(t *testing.T, p *launch.Plan, f launch.Format) string {
	t.Helper()
	b, err := p.Render(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// GCP N1 GPU types were exported as instance_type n1-standard-8+1xT4.
func TestDefectGCPN1InstanceType(t *testing.T) {
	cat, o := catalogOffer(t, "gcp", "n1-standard-8+1xT4", 1, model.OnDemand)
	p, err := launch.NewPlan(o.Estimate.Workload, o, launch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	task, bad := validateSkyPilot(t, []byte(render(t, p, launch.FormatSkyPilot)), newSkyCatalog(cat))
	if len(bad) > 0 || task.Resources.InstanceType != "n1-standard-8" || task.Resources.Accelerators != "T4:1" {
		t.Errorf("instance_type %q accelerators %q, want n1-standard-8 and T4:1; %v", task.Resources.InstanceType, task.Resources.Accelerators, bad)
	}
	d, kbad := validateK8s(t, []byte(render(t, p, launch.FormatK8s)))
	if len(kbad) > 0 || d.Jobs[0].Spec.Template.Spec.NodeSelector["node.kubernetes.io/instance-type"] != "n1-standard-8" {
		t.Errorf("k8s: %v %v", kbad, d.Jobs[0].Spec.Template.Spec.NodeSelector)
	}
}

// Accelerator names came from one table per GPU instead of SkyPilot's name
// for the instance (Cudo H100 vs H100-SXM, A6000 vs RTXA6000, …): every
// catalog row whose SkyPilot name differs from the table's gets its own.
func TestDefectAcceleratorPerInstance(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	differ := 0
	for i := range cat.Instances {
		in := &cat.Instances[i]
		g, err := cat.GPU(in.GPU)
		if err != nil || len(in.Prices) == 0 {
			continue
		}
		if cloud.SkyPilotAccelerator(g, in.Provider, in.Type) == in.SkyPilotAccelerator {
			continue
		}
		differ++
		o := sweepOffer(in, g, 1, model.OnDemand, in.Prices[0].Region)
		p, err := launch.NewPlan(o.Estimate.Workload, o, launch.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if p.Accelerator != in.SkyPilotAccelerator || p.AcceleratorGuessed {
			t.Errorf("%s/%s: accelerator %q, SkyPilot's is %q", in.Provider, in.Type, p.Accelerator, in.SkyPilotAccelerator)
		}
	}
	if differ < 10 {
		t.Errorf("only %d rows where the per-GPU table is wrong; the audit found 52", differ)
	}
}

// Fluidstack types such as A100_PCIE_80GB::1 are not valid label values:
// no instance-type node selector, and the header says so.
func TestDefectInvalidLabelValue(t *testing.T) {
	_, o := catalogOffer(t, "fluidstack", "A100_PCIE_80GB::1", 1, model.OnDemand)
	p, err := launch.NewPlan(o.Estimate.Workload, o, launch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := render(t, p, launch.FormatK8s)
	d, bad := validateK8s(t, []byte(out))
	if len(bad) > 0 || d.Jobs[0].Spec.Template.Spec.NodeSelector != nil || !strings.Contains(out, "no node selector") {
		t.Errorf("%v\n%s", bad, out)
	}
}

// Multi-node jobs ignored the network: 2 × p5.48xlarge gets network_tier
// best, 32 EFA devices on Kubernetes and the libfabric variables.
func TestDefectMultiNodeNetwork(t *testing.T) {
	cat, o := catalogOffer(t, "aws", "p5.48xlarge", 2, model.Spot)
	p, err := launch.NewPlan(o.Estimate.Workload, o, launch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Network != (cloud.Network{Tier: "best", EFA: 32}) {
		t.Errorf("network %+v, want best with 32 EFA devices (SkyPilot EFA_DEVICE_COUNT)", p.Network)
	}
	task, bad := validateSkyPilot(t, []byte(render(t, p, launch.FormatSkyPilot)), newSkyCatalog(cat))
	if len(bad) > 0 || task.Resources.NetworkTier != "best" {
		t.Errorf("SkyPilot network_tier %q: %v", task.Resources.NetworkTier, bad)
	}
	for _, c := range containersOf(t, []byte(render(t, p, launch.FormatK8s))) {
		if q := c.Resources.Limits[cloud.EFAResource]; q.Value() != 32 {
			t.Errorf("EFA limit %s, want 32", q.String())
		}
	}
	for _, f := range []launch.Format{launch.FormatTorchrun, launch.FormatDocker} {
		if out := render(t, p, f); !strings.Contains(out, "FI_PROVIDER=efa") {
			t.Errorf("%s lacks FI_PROVIDER=efa:\n%s", f, out)
		}
	}
	// Lambda has no fabric SkyPilot can ask for: no network_tier, and a note.
	_, o = catalogOffer(t, "lambda", "gpu_8x_h100_sxm5", 2, model.OnDemand)
	if p, err = launch.NewPlan(o.Estimate.Workload, o, launch.Options{}); err != nil {
		t.Fatal(err)
	}
	if p.Network.Tier != "" || !strings.Contains(strings.Join(p.Notes(), "\n"), "NCCL may fall back to TCP") {
		t.Errorf("lambda network %+v, notes %q", p.Network, p.Notes())
	}
}

// One pinned offer, no failover: equivalent alternatives become ordered
// candidates; spot gets job_recovery and a checkpoint bucket placeholder.
func TestDefectFailoverAndSpot(t *testing.T) {
	cat, o := catalogOffer(t, "aws", "p5.48xlarge", 2, model.Spot)
	var alts []*model.Offer
	for _, r := range []string{"us-west-2", "us-east-2"} {
		a := *o
		a.Region = r
		alts = append(alts, &a)
	}
	odd := *o
	odd.Instances, odd.GPUs = 4, 32 // not equivalent: other node count
	alts = append(alts, &odd)
	p, err := launch.NewPlan(o.Estimate.Workload, o, launch.Options{Alternatives: alts})
	if err != nil {
		t.Fatal(err)
	}
	task, bad := validateSkyPilot(t, []byte(render(t, p, launch.FormatSkyPilot)), newSkyCatalog(cat))
	for _, m := range bad {
		t.Error(m)
	}
	r := task.Resources
	if len(r.Ordered) != 3 || r.Ordered[0].Region != o.Region || r.Ordered[1].Region != "us-west-2" || r.Cloud != "" {
		t.Errorf("ordered %+v", r.Ordered)
	}
	if r.JobRecovery == nil || *r.JobRecovery.Strategy != "EAGER_NEXT_REGION" {
		t.Errorf("job_recovery %+v", r.JobRecovery)
	}
	if fm := task.FileMounts[launch.CheckpointDir]; fm.Name != launch.PlaceholderBucket || fm.Mode != "MOUNT" {
		t.Errorf("file_mounts %+v", task.FileMounts)
	}
	if !strings.Contains(strings.Join(p.ScriptArgs, " "), "--output_dir "+launch.CheckpointDir+"/") {
		t.Errorf("spot output_dir is not on the bucket: %q", p.ScriptArgs)
	}
}

// Kubernetes targeted PyTorchJob only and launch lines carried no model,
// dataset or Hugging Face wiring.
func TestDefectModelDatasetHF(t *testing.T) {
	p := plan(t, cases[2], launch.Options{ModelID: "meta-llama/Llama-3.1-8B-Instruct", Dataset: "trl-lib/Capybara"})
	if p.K8sKind != launch.KindTrainJob {
		t.Errorf("default Kubernetes kind %s, want TrainJob", p.K8sKind)
	}
	for _, f := range launch.Formats {
		out := render(t, p, f)
		want := []string{"meta-llama/Llama-3.1-8B-Instruct", "trl-lib/Capybara", "HF_HOME"}
		if f == launch.FormatTOML {
			want = want[:2]
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s lacks %s", f, w)
			}
		}
		if f != launch.FormatTOML && !strings.Contains(out, "HF_TOKEN") {
			t.Errorf("%s has no HF_TOKEN wiring", f)
		}
	}
}

// TestNetworkFor: the fabric per provider and type, from SkyPilot's
// EFA_DEVICE_COUNT (sky/provision/aws/constants.py) and Azure's size names
// (r = RDMA capable); one node needs none.
func TestNetworkFor(t *testing.T) {
	for _, tc := range []struct {
		provider, typ string
		nodes         int
		want          cloud.Network
	}{
		{"aws", "p5.48xlarge", 1, cloud.Network{}},
		{"aws", "p5.48xlarge", 2, cloud.Network{Tier: "best", EFA: 32}},
		{"aws", "p4d.24xlarge", 4, cloud.Network{Tier: "best", EFA: 4}},
		{"aws", "p5en.48xlarge", 2, cloud.Network{Tier: "best", EFA: 16}},
		{"aws", "p6-b200.48xlarge", 2, cloud.Network{Tier: "best", EFA: 8}},
		{"aws", "g6e.48xlarge", 2, cloud.Network{Tier: "best", EFA: 4}},
		{"aws", "g5.2xlarge", 2, cloud.Network{}}, // no EFA: SkyPilot would refuse network_tier best
		{"gcp", "a3-megagpu-8g", 2, cloud.Network{Tier: "best"}},
		{"nebius", "gpu-h100-sxm", 2, cloud.Network{Tier: "best"}},
		{"azure", "Standard_ND96isr_H100_v5", 2, cloud.Network{InfiniBand: true}},
		{"azure", "Standard_ND96asr_v4", 2, cloud.Network{InfiniBand: true}},
		{"azure", "Standard_NC80adis_H100_v5", 2, cloud.Network{}},
		{"lambda", "gpu_8x_h100_sxm5", 2, cloud.Network{}},
	} {
		if got := cloud.NetworkFor(tc.provider, tc.typ, tc.nodes); got != tc.want {
			t.Errorf("NetworkFor(%s, %s, %d) = %+v, want %+v", tc.provider, tc.typ, tc.nodes, got, tc.want)
		}
	}
}
