package launch

import (
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
