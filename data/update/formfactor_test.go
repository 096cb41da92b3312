package update

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
)

// TestImportPCIeNVLinkIsPCIe: a refresh of Hyperstack's file (the one the
// embedded catalog was generated from) maps "H100-80G-PCIe-NVLink"
// (n3-H100x8-NVLink: eight H100 PCIe cards joined in pairs by NVLink
// bridges) to the PCIe GPU, not to the SXM module the type's "NVLink"
// suggested (new-user walk: it topped `offers H100:8 --nvlink` as
// h100-sxm), and no accelerator named PCIe resolves to a module.
func TestImportPCIeNVLinkIsPCIe(t *testing.T) {
	base, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	body, err := os.ReadFile(filepath.Join("testdata", "v8", "hyperstack", "vms.csv"))
	if err != nil {
		t.Fatal(err)
	}
	insts, _, err := importCSV(body, "https://mirror.test/v8/hyperstack/vms.csv", "hyperstack", base)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"n3-H100x8-NVLink": "h100-pcie", "n3-A100x8-NVLink": "a100-pcie-80gb", "n3-H100-SXM5x8": "h100-sxm"}
	for _, in := range insts {
		if w, ok := want[in.Type]; ok {
			if in.GPU != w {
				t.Errorf("%s (%s): GPU %s, want %s", in.Type, in.SkyPilotAccelerator, in.GPU, w)
			}
			delete(want, in.Type)
		}
		g, err := base.GPU(in.GPU)
		if err != nil {
			t.Fatalf("%s: %v", in.Type, err)
		}
		if strings.Contains(strings.ToLower(in.SkyPilotAccelerator), "pcie") && g.Interconnect != "pcie" {
			t.Errorf("%s: accelerator %s resolved to %s, an %s module", in.Type, in.SkyPilotAccelerator, g.Key, g.Interconnect)
		}
	}
	if len(want) > 0 {
		t.Errorf("types not in the file: %v", want)
	}
}
