package data

import (
	"math"
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// GPUResolver maps one SkyPilot accelerator to a GPU key of the catalog.
// accel is the AcceleratorName as written ("A100-80GB", "H100", "RTX PRO
// Server 6000"), memMiB the memory per GPU from GpuInfo (0 when unknown) and
// instanceType the row's type ("p5.48xlarge"; for GCP the machine type). ok
// is false when the accelerator is not a GPU of the catalog; the row is then
// skipped with a warning.
type GPUResolver func(accel string, memMiB float64, instanceType string) (key string, ok bool)

// CatalogGPUResolver returns the GPUResolver for a catalog:
//
//  1. accel is looked up as a key or alias with c.GPU; failing that, in
//     skyPilotGPUNames, SkyPilot's names mapped to gpuplan's keys, when that
//     key is in the catalog.
//  2. GPUs sold in several memory sizes or form factors (A100 40/80 GB,
//     V100 16/32 GB, H100 PCIe/SXM/NVL) are told apart by memMiB first (the
//     member whose memory is within 12%, a margin that covers what drivers
//     report, e.g. 22888 MiB on a "24 GB" A10G, and separates 80 from
//     94 GB), then by the form factor accel names (formOf: "PCIe" or
//     "SXM" in it), else by the instance type's name (h100Form, a100PCIe),
//     then the GPU accel itself names, then the family's first member.
//     The accelerator's word comes before the type's: Hyperstack's
//     n3-H100x8-NVLink is an "H100-80G-PCIe-NVLink", eight PCIe cards
//     joined in pairs by NVLink bridges, not the SXM board its type name
//     suggested (new-user walk: it ranked first for --nvlink as h100-sxm).
//  3. Any other GPU whose memMiB is more than 12% off the catalog's is a
//     different card (a 48 GB RTX 4090, a 16 GB "RTX4060" that is a 4060 Ti)
//     and is not resolved.
//
// The resolver remembers each accelerator's GPU and family (a catalog
// file names a few dozen over 100,000 rows), so c must not change while
// it is in use.
func CatalogGPUResolver(c *model.Catalog) GPUResolver {
	type found struct {
		g    *model.GPU
		fam  []*model.GPU
		form accelForm
	}
	seen := map[string]found{}
	return func(accel string, memMiB float64, instanceType string) (string, bool) {
		f, ok := seen[accel]
		if !ok {
			f.g = lookupGPU(c, accel)
			if f.g != nil {
				f.fam, f.form = gpuFamily(c, f.g.Key), formOf(accel)
			}
			seen[strings.Clone(accel)] = f
		}
		g := f.g
		if g == nil {
			return "", false
		}
		if fam := f.fam; len(fam) > 1 {
			return pickInFamily(fam, g, memMiB, instanceType, f.form)
		}
		if memMiB > 0 && !memoryFits(g, memMiB) {
			return "", false
		}
		return g.Key, true
	}
}

// skyPilotGPUNames maps SkyPilot's AcceleratorName values (normalised by
// normGPUName) to gpuplan GPU keys, for catalogs whose gpus.toml lacks the
// alias. Sources: SkyPilot's catalogs/v8/common/accelerators.csv and the
// clouds' instance pages (Lambda's "RTX6000" is the Turing Quadro RTX 6000;
// GCP's "H100-MEGA" is the H100 SXM of a3-megagpu; "H100-NVLINK" stays
// on h100-sxm, gpus.toml's alias, although NVLink alone does not make an
// SXM board: see h100Form).
var skyPilotGPUNames = map[string]string{
	"a100": "a100-40gb", "a10080gb": "a100-80gb", "a10080gbsxm": "a100-80gb",
	"a10": "a10", "a10g": "a10g", "a40": "a40", "a800": "a800-80gb",
	"b200": "b200", "b300": "b300", "gb200": "gb200", "gb300": "gb300", "gh200": "gh200",
	"h100": "h100-sxm", "h100sxm": "h100-sxm", "h100mega": "h100-sxm", "h100nvlink": "h100-sxm",
	"h100pcie": "h100-pcie", "h100nvl": "h100-nvl", "h200": "h200", "h200sxm": "h200",
	"l4": "l4", "l40": "l40", "l40s": "l40s", "t4": "t4", "t4g": "t4g",
	"v100": "v100-16gb", "v10032gb": "v100-32gb", "p100": "p100", "p4": "p4", "k80": "k80", "m60": "m60",
	"mi300x": "mi300x", "mi355x": "mi355x", "mi25": "mi25", "radeonmi25": "mi25",
	"radeonprov520":    "radeon-pro-v520",
	"rtxproserver6000": "rtx-pro-6000", "rtxpro6000": "rtx-pro-6000", "rtxpro6000s": "rtx-pro-6000", "rtxpro6000ws": "rtx-pro-6000",
	"rtx6000": "quadro-rtx-6000", "rtx6000ada": "rtx-6000-ada",
	"a6000": "rtx-a6000", "rtxa6000": "rtx-a6000", "a5000": "rtx-a5000", "rtxa5000": "rtx-a5000",
	"a4000": "rtx-a4000", "rtxa4000": "rtx-a4000", "a2000": "rtx-a2000", "rtxa2000": "rtx-a2000",
	"rtx3060": "rtx-3060", "rtx3070": "rtx-3070", "rtx3080": "rtx-3080", "rtx3090": "rtx-3090",
	"rtx4060": "rtx-4060", "rtx4070": "rtx-4070", "rtx4090": "rtx-4090", "rtx5090": "rtx-5090",
	"m4000": "quadro-m4000", "p4000": "quadro-p4000",
	// Hyperstack's names (its n3-* flavors: "A100-80G-PCIe", "H100-80G-SXM5";
	// the -NVLink flavors are PCIe cards joined by NVLink bridges).
	"a10080gpcie": "a100-pcie-80gb", "a10080gpcienvlink": "a100-pcie-80gb",
	"h10080gpcie": "h100-pcie", "h10080gpcienvlink": "h100-pcie", "h10080gsxm5": "h100-sxm",
	// Lium's "RTXPRO6000-WK" is the Workstation Edition.
	"rtxpro6000wk": "rtx-pro-6000-ws",
}

// gpuFamilies are the GPUs one SkyPilot name covers; the first member is the
// default when neither memory nor the instance name tells.
var gpuFamilies = [][]string{
	{"a100-40gb", "a100-80gb", "a100-pcie-40gb", "a100-pcie-80gb"},
	{"h100-sxm", "h100-pcie", "h100-nvl"},
	{"v100-16gb", "v100-32gb"},
}

// normGPUName folds case, spaces and separators: "RTX PRO Server 6000" →
// "rtxproserver6000".
func normGPUName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		switch r {
		case '-', '_', ' ', '/', '.':
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func lookupGPU(c *model.Catalog, accel string) *model.GPU {
	if strings.TrimSpace(accel) == "" {
		return nil
	}
	if g, err := c.GPU(accel); err == nil {
		return g
	}
	if key, ok := skyPilotGPUNames[normGPUName(accel)]; ok {
		if g, err := c.GPU(key); err == nil && g.Key == key {
			return g
		}
	}
	return nil
}

// gpuFamily returns the members of key's family present in the catalog.
func gpuFamily(c *model.Catalog, key string) []*model.GPU {
	for _, fam := range gpuFamilies {
		if !slices.Contains(fam, key) {
			continue
		}
		var out []*model.GPU
		for _, k := range fam {
			if g, err := c.GPU(k); err == nil && g.Key == k {
				out = append(out, g)
			}
		}
		return out
	}
	return nil
}

// accelForm is the form factor an accelerator name states.
type accelForm uint8

const (
	formUnstated accelForm = iota
	formPCIe               // "PCIe" in the name: a PCIe card, whatever bridges join it
	formSXM                // "SXM" in the name: a module on an SXM baseboard
)

// formOf returns the form factor accel names: Hyperstack's "A100-80G-PCIe",
// "H100-80G-PCIe-NVLink" (PCIe cards; the NVLink is a bridge) and
// "H100-80G-SXM5", RunPod's "A100-80GB-SXM", "H100-SXM".
func formOf(accel string) accelForm {
	n := normGPUName(accel)
	switch {
	case strings.Contains(n, "pcie"):
		return formPCIe
	case strings.Contains(n, "sxm"):
		return formSXM
	}
	return formUnstated
}

// pcieCard reports whether g is a PCIe card: its interconnect is PCIe or
// its key says so (the catalog's keys name the PCIe member of a family:
// a100-pcie-80gb, h100-pcie).
func pcieCard(g *model.GPU) bool { return g.Interconnect == "pcie" || strings.Contains(g.Key, "pcie") }

func pickInFamily(fam []*model.GPU, g *model.GPU, memMiB float64, instanceType string, form accelForm) (string, bool) {
	var buf [8]*model.GPU // families have at most four members: no allocation per row
	cands := fam
	if memMiB > 0 {
		cands = buf[:0]
		for _, m := range fam {
			if memoryFits(m, memMiB) {
				cands = append(cands, m)
			}
		}
	}
	switch len(cands) {
	case 0:
		return "", false
	case 1:
		return cands[0].Key, true
	}
	if form != formUnstated {
		// The accelerator names the form factor: the type's name is not
		// read (n3-H100x8-NVLink is "H100-80G-PCIe-NVLink").
		var pickBuf [8]*model.GPU
		pick := pickBuf[:0]
		for _, m := range cands {
			if pcieCard(m) == (form == formPCIe) {
				pick = append(pick, m)
			}
		}
		if len(pick) > 0 {
			cands = pick
		}
		return pickNamed(cands, g), true
	}
	// The names are read only for the family they can decide (once per
	// row of a 100,000-row file).
	if strings.HasPrefix(g.Key, "h100") {
		if form := h100Form(instanceType); form != "" {
			for _, m := range cands {
				if m.Key == form {
					return form, true
				}
			}
		}
	}
	if g.Key == "a100-40gb" || g.Key == "a100-80gb" {
		pcie := a100PCIe(instanceType)
		// SXM unless the name says PCIe; memory already chose 40 or 80 GB.
		var pickBuf [8]*model.GPU
		pick := pickBuf[:0]
		for _, m := range cands {
			if strings.Contains(m.Key, "pcie") == pcie {
				pick = append(pick, m)
			}
		}
		if len(pick) > 0 {
			cands = pick
		}
	}
	return pickNamed(cands, g), true
}

// pickNamed returns the key of g when it is among cands, else of the
// candidate of g's memory, else of the first.
func pickNamed(cands []*model.GPU, g *model.GPU) string {
	for _, m := range cands {
		if m == g {
			return g.Key
		}
	}
	for _, m := range cands { // the other form factor of the size accel names
		if m.MemoryGiB == g.MemoryGiB {
			return m.Key
		}
	}
	return cands[0].Key
}

// memoryFits reports whether memMiB is the memory of g: within 12% of the
// vendor's figure or 5% of the driver-reported one.
func memoryFits(g *model.GPU, memMiB float64) bool {
	vendor := g.MemoryGiB * 1024
	if vendor <= 0 {
		return true
	}
	if math.Abs(memMiB-vendor) <= 0.12*vendor {
		return true
	}
	u := g.UsableMemoryMiB
	return u > 0 && math.Abs(memMiB-u) <= 0.05*u
}

// h100Form tells the H100 form factor from an instance type name, or "":
//   - "pcie" in the name: PCIe (Lambda gpu_1x_h100_pcie, Fluidstack
//     H100_PCIE_80GB);
//   - "sxm" or "mega" in the name: SXM (Lambda *_h100_sxm5, Vast H100_SXM,
//     GCP a3-megagpu), as are AWS p5, GCP a3, Azure ND H100 v5 and OCI
//     BM.GPU.H100 (HGX H100 8-GPU boards);
//   - "nvl" in the name: H100 NVL (Vast H100_NVL), as is Azure NC H100 v5
//     (Standard_NC40ads_H100_v5, Standard_NC80adis_H100_v5: "NVIDIA H100 NVL"
//     on Microsoft Learn's NCads H100 v5 size page).
//
// "nvlink" tells nothing: SXM boards use NVLink, and so do PCIe cards
// joined by NVLink bridges (Hyperstack's n3-H100x8-NVLink is
// "H100-80G-PCIe-NVLink"; Fluidstack's H100_NVLINK_80GB::8 has its shape).
func h100Form(instanceType string) string {
	t := strings.ReplaceAll(strings.ToLower(instanceType), "nvlink", "")
	switch {
	case strings.Contains(t, "pcie"):
		return "h100-pcie"
	case strings.Contains(t, "sxm"), strings.Contains(t, "mega"),
		strings.HasPrefix(t, "p5."), strings.HasPrefix(t, "p5e"), strings.HasPrefix(t, "a3-"),
		strings.HasPrefix(t, "standard_nd") && strings.Contains(t, "h100"),
		strings.HasPrefix(t, "bm.gpu.h100"):
		return "h100-sxm"
	case strings.Contains(t, "nvl"),
		strings.HasPrefix(t, "standard_nc") && !strings.HasPrefix(t, "standard_ncc") && strings.HasSuffix(t, "_h100_v5"):
		return "h100-nvl"
	}
	return ""
}

// a100PCIe tells an A100 PCIe card from an SXM module by the instance
// type's name: "pci" in it (Fluidstack A100_PCIE_80GB, Vast 1x-A100_PCIE,
// Cudo *-a100-pcie) or Azure NC A100 v4 (Standard_NC24/48/96ads_A100_v4:
// "NC A100 v4 series is powered by NVIDIA A100 PCIe GPU", Microsoft Learn
// nca100v4-series-summary; catalog audit #5).
func a100PCIe(instanceType string) bool {
	t := strings.ToLower(instanceType)
	return strings.Contains(t, "pci") || strings.HasPrefix(t, "standard_nc") && strings.HasSuffix(t, "_a100_v4")
}
