package launch

import (
	"fmt"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// skyPilotNames are SkyPilot's AcceleratorName for gpuplan GPU keys where
// the catalog's first alias is not it. SkyPilot checks that accelerators
// matches instance_type, so the name must be SkyPilot's own. Source: the
// AcceleratorName column of SkyPilot's catalogs (v8, the rows kept in
// data/testdata/skypilot): every H100 form factor is "H100" (Lambda
// gpu_1x_h100_pcie, Azure Standard_NC40ads_H100_v5 with the H100 NVL, Vast
// 1x-H100_NVL), the 40 GB A100 is "A100", the 16 GB V100 "V100".
var skyPilotNames = map[string]string{
	"h100-sxm":  "H100",
	"h100-pcie": "H100",
	"h100-nvl":  "H100",
	"a100-40gb": "A100",
	"a100-80gb": "A100-80GB",
	"v100-16gb": "V100",
	"v100-32gb": "V100-32GB",
}

// SkyPilotAccelerator returns the accelerator name SkyPilot uses for g on
// an instance type: GCP's "H100-MEGA" for the a3-megagpu machines and
// Fluidstack's "H100-NVLINK" for its H100_NVLINK types (the names in
// SkyPilot's catalogs, as data/skypilot_gcp.go and skypilot_gpus.go record),
// the table above, else the catalog's first alias, which the SkyPilot
// importer took from the AcceleratorName column. Not checked against
// SkyPilot: Fluidstack's name for its PCIe H100.
func SkyPilotAccelerator(g *model.GPU, provider, instanceType string) string {
	switch {
	case provider == "gcp" && strings.HasPrefix(instanceType, "a3-megagpu"):
		return "H100-MEGA"
	case provider == "fluidstack" && strings.HasPrefix(instanceType, "H100_NVLINK"):
		return "H100-NVLINK"
	}
	if n, ok := skyPilotNames[g.Key]; ok {
		return n
	}
	if len(g.Aliases) > 0 {
		return g.Aliases[0]
	}
	return strings.ToUpper(g.Key)
}

// instanceAccelerator returns SkyPilot's accelerator name for the
// instance: the name the catalog kept from SkyPilot's own row
// (Instance.SkyPilotAccelerator, e.g. Cudo "H100-SXM", Vast "RTXA6000"),
// which is what SkyPilot checks accelerators against. Only when the row has
// none (an overlay without skypilot_accelerator) does it fall back to the
// per-GPU table, and guessed says so.
func instanceAccelerator(in *model.Instance, g *model.GPU) (name string, guessed bool) {
	if in.SkyPilotAccelerator != "" {
		return in.SkyPilotAccelerator, false
	}
	return SkyPilotAccelerator(g, in.Provider, in.Type), true
}

// gcpAttachable is which GCP machine-type families SkyPilot pairs with an
// accelerator, from sky/catalog/gcp_catalog.py _ACC_INSTANCE_TYPE_DICTS
// and check_accelerator_attachable_to_host (as quoted in the launch audit,
// shared/research/launch-audit.md §1.1): A100 only on a2-highgpu-*,
// A100-80GB on a2-ultragpu-*, L4 on g2-standard-*, H100 on a3-highgpu-*,
// H100-MEGA on a3-megagpu-8g, H200 on a3-ultragpu-8g, B200 on
// a4-highgpu-8g. Every other GPU attaches to N1 VMs only. A prefix ending
// in '-' matches a family; otherwise the machine type must be equal.
var gcpAttachable = map[string][]string{
	"A100":      {"a2-highgpu-"},
	"A100-80GB": {"a2-ultragpu-"},
	"L4":        {"g2-standard-"},
	"H100":      {"a3-highgpu-"},
	"H100-MEGA": {"a3-megagpu-8g"},
	"H200":      {"a3-ultragpu-8g"},
	"B200":      {"a4-highgpu-8g"},
}

// SkyPilotRefuses returns why SkyPilot would refuse to launch accelerator
// on instanceType (as the provider spells it), or "" when it accepts it.
// Only GCP pairs accelerators with machine types by a fixed table; the
// other clouds check accelerators against the instance's catalog row,
// which Instance.SkyPilotAccelerator already is.
func SkyPilotRefuses(provider, instanceType, accelerator string) string {
	if provider != "gcp" {
		return ""
	}
	families, ok := gcpAttachable[accelerator]
	if !ok {
		families = []string{"n1-"}
	}
	for _, f := range families {
		if instanceType == f || (strings.HasSuffix(f, "-") && strings.HasPrefix(instanceType, f)) {
			return ""
		}
	}
	return fmt.Sprintf("SkyPilot's GCP catalog attaches %s only to %s machine types, not to %s (sky/catalog/gcp_catalog.py, check_accelerator_attachable_to_host)",
		accelerator, strings.Join(families, " or "), instanceType)
}
