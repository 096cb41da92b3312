package model

import (
	"strings"
	"testing"
)

// TestIntraNodeWarning: a training job over several instances is warned
// about what joins the GPUs inside each node only as far as the catalog
// knows it (new-user walk): a multi-GPU type whose interconnect the
// catalog does not state (AWS p4de.24xlarge, an NVSwitch board by AWS's
// word) is said to be timed at its GPU's own link, not to lack NVLink;
// a known PCIe host is warned as before, in AMD's words for an AMD GPU
// (Infinity Fabric, xGMI), not NVIDIA's.
func TestIntraNodeWarning(t *testing.T) {
	a100 := GPU{Key: "a100-80gb", Name: "NVIDIA A100 80GB SXM4", Vendor: "nvidia", Interconnect: "nvlink", InterconnectGBps: 600}
	mi355x := GPU{Key: "mi355x", Name: "AMD Instinct MI355X", Vendor: "amd", Interconnect: "infinity-fabric", InterconnectGBps: 1075.2}
	h100pcie := GPU{Key: "h100-pcie", Name: "NVIDIA H100 PCIe 80GB", Vendor: "nvidia", Interconnect: "pcie", InterconnectGBps: 128}
	train := Workload{Settings: Settings{Task: TaskFinetune, MicroBatch: 1, SeqLen: 512, GPUs: 16}, Model: gpt2Small}
	serve := Workload{Settings: Settings{Task: TaskInference, MicroBatch: 1, SeqLen: 512, GPUs: 16}, Model: gpt2Small}
	for _, tt := range []struct {
		name      string
		in        Instance
		g         GPU
		w         Workload
		instances int
		want      string // "" when no intra-node warning
	}{
		{"p4de: interconnect not stated, timed at the A100's NVLink 600 GB/s",
			Instance{Provider: "aws", Type: "p4de.24xlarge", GPU: "a100-80gb", GPUCount: 8}, a100, train, 2,
			"multi-node training: the catalog does not state p4de.24xlarge's GPU interconnect; timed at the GPU's own link, NVLink at 600 GB/s; PCIe only inside the node would make gradient sync slower"},
		{"8 × MI355X not stated: Infinity Fabric (xGMI) 1075.2 GB/s",
			Instance{Provider: "daytona", Type: "8x-MI355X", GPU: "mi355x", GPUCount: 8}, mi355x, train, 2,
			"multi-node training: the catalog does not state 8x-MI355X's GPU interconnect; timed at the GPU's own link, Infinity Fabric (xGMI) at 1075.2 GB/s; PCIe only inside the node would make gradient sync slower"},
		{"not stated, and the GPU's link has no figure: not costed, said",
			Instance{Provider: "p", Type: "8x-MI325X", GPU: "mi325x", GPUCount: 8}, GPU{Key: "mi325x", Vendor: "amd", Interconnect: "infinity-fabric"}, train, 2,
			"multi-node training: the catalog does not state 8x-MI325X's GPU interconnect, nor the rate of its GPU's own link (Infinity Fabric (xGMI)): gradient sync is not timed"},
		{"known PCIe host: the NVIDIA warning",
			Instance{Provider: "hyperstack", Type: "n3-H100x8", GPU: "h100-pcie", GPUCount: 8, Interconnect: "pcie"}, h100pcie, train, 2,
			"multi-node training without NVLink/NVSwitch inside the node: gradient sync will be slow"},
		{"PCIe card, interconnect not stated: PCIe all the same",
			Instance{Provider: "p", Type: "pcie.8", GPU: "h100-pcie", GPUCount: 8}, h100pcie, train, 2,
			"multi-node training without NVLink/NVSwitch inside the node: gradient sync will be slow"},
		{"one MI355X per node: AMD's words",
			Instance{Provider: "daytona", Type: "1x-MI355X", GPU: "mi355x", GPUCount: 1}, mi355x, train, 16,
			"multi-node training without Infinity Fabric (xGMI) links inside the node: gradient sync will be slow"},
		{"NVSwitch board: no warning",
			Instance{Provider: "aws", Type: "p4d.24xlarge", GPU: "a100-80gb", GPUCount: 8, Interconnect: "nvswitch"}, a100, train, 2, ""},
		{"one node: no warning",
			Instance{Provider: "aws", Type: "p4de.24xlarge", GPU: "a100-80gb", GPUCount: 8}, a100, train, 1, ""},
		{"serving: no warning",
			Instance{Provider: "aws", Type: "p4de.24xlarge", GPU: "a100-80gb", GPUCount: 8}, a100, serve, 2, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := Offer{Instance: &tt.in, GPU: &tt.g, Instances: tt.instances, Estimate: &Estimate{Workload: tt.w}}
			var got []string
			for _, w := range o.Warnings() {
				if strings.Contains(w, "inside the node") || strings.Contains(w, "GPU interconnect") {
					got = append(got, w)
				}
			}
			switch {
			case tt.want == "" && len(got) > 0:
				t.Errorf("warned %q", got)
			case tt.want != "" && (len(got) != 1 || got[0] != tt.want):
				t.Errorf("warnings %q, want %q", got, tt.want)
			}
		})
	}
}
