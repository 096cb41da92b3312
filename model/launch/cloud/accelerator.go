package cloud

import (
	"fmt"
	"slices"
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

// InstanceAccelerator returns SkyPilot's accelerator name for the
// instance: the name the catalog kept from SkyPilot's own row
// (Instance.SkyPilotAccelerator, e.g. Cudo "H100-SXM", Vast "RTXA6000"),
// which is what SkyPilot checks accelerators against. Only when the row has
// none (an overlay without skypilot_accelerator) does it fall back to the
// per-GPU table, and guessed says so.
func InstanceAccelerator(in *model.Instance, g *model.GPU) (name string, guessed bool) {
	if in.SkyPilotAccelerator != "" {
		return in.SkyPilotAccelerator, false
	}
	return SkyPilotAccelerator(g, in.Provider, in.Type), true
}

// gcpAttachable is SkyPilot's sky/catalog/gcp_catalog.py
// _ACC_INSTANCE_TYPE_DICTS (accelerator → count → machine types), which
// check_accelerator_attachable_to_host enforces: these accelerators attach
// only to the listed machine types; every other GPU attaches only to the
// N1 host families (_DEFAULT_HOST_VM_FAMILY: n1-standard, n1-highmem,
// n1-highcpu).
var gcpAttachable = map[string]map[int][]string{
	"A100":      {1: {"a2-highgpu-1g"}, 2: {"a2-highgpu-2g"}, 4: {"a2-highgpu-4g"}, 8: {"a2-highgpu-8g"}, 16: {"a2-megagpu-16g"}},
	"A100-80GB": {1: {"a2-ultragpu-1g"}, 2: {"a2-ultragpu-2g"}, 4: {"a2-ultragpu-4g"}, 8: {"a2-ultragpu-8g"}},
	"L4": {1: {"g2-standard-4", "g2-standard-8", "g2-standard-12", "g2-standard-16", "g2-standard-32"},
		2: {"g2-standard-24"}, 4: {"g2-standard-48"}, 8: {"g2-standard-96"}},
	"H100":      {1: {"a3-highgpu-1g"}, 2: {"a3-highgpu-2g"}, 4: {"a3-highgpu-4g"}, 8: {"a3-highgpu-8g"}},
	"H100-MEGA": {8: {"a3-megagpu-8g"}},
	"H200":      {8: {"a3-ultragpu-8g"}},
	"B200":      {8: {"a4-highgpu-8g"}},
}

// SkyPilotRefuses returns why SkyPilot would refuse to launch count ×
// accelerator on instanceType (as the provider spells it), or "" when it
// accepts it. Only GCP pairs accelerators with machine types by a fixed
// table; the other clouds check accelerators against the instance's
// catalog row, which Instance.SkyPilotAccelerator already is.
func SkyPilotRefuses(provider, instanceType, accelerator string, count int) string {
	if provider != "gcp" {
		return ""
	}
	byCount, ok := gcpAttachable[accelerator]
	if !ok {
		for _, fam := range []string{"n1-standard-", "n1-highmem-", "n1-highcpu-"} {
			if strings.HasPrefix(instanceType, fam) {
				return ""
			}
		}
		return fmt.Sprintf("SkyPilot attaches %s on GCP only to N1 machine types, not to %s (sky/catalog/gcp_catalog.py, _DEFAULT_HOST_VM_FAMILY)", accelerator, instanceType)
	}
	if slices.Contains(byCount[count], instanceType) {
		return ""
	}
	return fmt.Sprintf("SkyPilot's GCP catalog attaches %s:%d only to %s, not to %s (sky/catalog/gcp_catalog.py, _ACC_INSTANCE_TYPE_DICTS)",
		accelerator, count, strings.Join(byCount[count], ", "), instanceType)
}

// skyPilotGPUCounts are the instance types whose GPUs per node in
// SkyPilot's catalog differ from the provider's, keyed by cloud and
// instance type as the provider spells it, with SkyPilot's count:
//
//   - azure Standard_ND96isr_H100_v5: AcceleratorCount 12 in SkyPilot's
//     catalogs/v6 and v8 azure/vms.csv (v8 read in the fork
//     coopslarhette/skypilot-catalog @ 20291d7eda23); Microsoft Learn, ND
//     H100 v5 series: 8 H100 GPUs (an HGX H100 8-GPU board), which the
//     catalog keeps (data/internal/gencatalog fixes).
//
// model/launch's tests check the table against SkyPilot's rows kept in
// testdata/skypilot_accelerators.csv for every instance type of the
// embedded catalog.
var skyPilotGPUCounts = map[[2]string]int{
	{"azure", "Standard_ND96isr_H100_v5"}: 12,
}

// SkyPilotGPUCount returns the GPUs per node SkyPilot's catalog gives
// instanceType (as the provider spells it): ours unless the catalogs
// disagree (skyPilotGPUCounts). SkyPilot refuses a task whose accelerators
// count differs from its catalog's ("Infeasible resource demands found":
// sky/clouds/cloud.py _check_instance_type_accelerators_combination
// compares name and count), and with instance_type alone it infers the
// accelerators from its catalog (sky/resources.py, the accelerators
// property) and sets $SKYPILOT_NUM_GPUS_PER_NODE to that count (SkyPilot
// docs, environment variables: "the same as the count in accelerators").
// So where they disagree a SkyPilot file names the instance type without
// accelerators and pins the processes per node from the plan.
func SkyPilotGPUCount(provider, instanceType string, ours int) int {
	if n, ok := skyPilotGPUCounts[[2]string{provider, instanceType}]; ok {
		return n
	}
	return ours
}
