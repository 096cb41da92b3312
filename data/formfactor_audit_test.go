package data

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestFormFactorAudit pins the rows the form-factor audit after the
// new-user walk (Hyperstack's H100-80G-PCIe-NVLink filed as h100-sxm on
// NVSwitch) corrected, each from the source its row now cites.
func TestFormFactorAudit(t *testing.T) {
	cat, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ provider, typ, gpu, interconnect string }{
		// Fluidstack's H100 and A100 types have the vCPUs and memory of
		// Hyperstack's PCIe flavors; this one is n3-H100x8-NVLink's shape.
		{"fluidstack", "H100_NVLINK_80GB::8", "h100-pcie", "pcie"},
		// Scaleway's H100-1-80G and H100-2-80G are H100 PCIe (its docs);
		// its SXM types have 32 vCPUs per 2 GPUs, not 24 per GPU.
		{"shadeform", "scaleway_H100", "h100-pcie", ""},
		{"shadeform", "scaleway_H100x2", "h100-pcie", "pcie"},
		// The SXM boards keep NVSwitch.
		{"hyperstack", "n3-H100-SXM5x8", "h100-sxm", "nvswitch"},
		{"lambda", "gpu_8x_h100_sxm5", "h100-sxm", "nvswitch"},
	} {
		var found bool
		for i := range cat.Instances {
			in := &cat.Instances[i]
			if in.Provider != tt.provider || in.Type != tt.typ {
				continue
			}
			found = true
			if in.GPU != tt.gpu || in.Interconnect != tt.interconnect {
				t.Errorf("%s/%s: %s, interconnect %q; want %s, %q", tt.provider, tt.typ, in.GPU, in.Interconnect, tt.gpu, tt.interconnect)
			}
		}
		if !found {
			t.Errorf("%s/%s not in the catalog", tt.provider, tt.typ)
		}
	}
}

// TestHGXInterconnectStated: 8-GPU SXM hosts whose NVSwitch a provider's
// own material states carry it, with that source (new-user walk: p4de
// showed "not stated + efa" and was warned as lacking NVLink).
func TestHGXInterconnectStated(t *testing.T) {
	cat, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ provider, typ, quote string }{
		{"aws", "p4d.24xlarge", "8 A100 40GB with NVSwitch"},
		{"aws", "p4de.24xlarge", "'600 GB/s NVSwitch'"},
	} {
		var in *model.Instance
		for i := range cat.Instances {
			if c := &cat.Instances[i]; c.Provider == tt.provider && c.Type == tt.typ {
				in = c
			}
		}
		if in == nil {
			t.Fatalf("%s/%s not in the catalog", tt.provider, tt.typ)
		}
		if in.Interconnect != "nvswitch" || !strings.Contains(in.Source, tt.quote) {
			t.Errorf("%s/%s: interconnect %q, source %q; want nvswitch quoting %s", tt.provider, tt.typ, in.Interconnect, in.Source, tt.quote)
		}
	}
}
