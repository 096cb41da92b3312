package data

import (
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// skyPilotClouds are the folder names SkyPilot reads a vms.csv from, so
// the clouds a <cloud>/vms.csv overlay may name: the catalogs/v8
// folders of skypilot-org/skypilot-catalog (aws, cudo, daytona, gcp,
// hyperbolic, hyperstack, jarvislabs, lambda, lium, mithril, nebius, oci,
// primeintellect, runpod, seeweb, shadeform, spheron, vast, verda, yotta),
// its v6 folders the embedded catalog still reads (do, fluidstack,
// paperspace: their rows' source in data/catalog/instances), its v7
// folder simplepod (embedded too, though the stored copy of SkyPilot's
// sky/catalog has no simplepod reader), and the read_catalog("<cloud>/vms.csv")
// or get_catalog_path calls of skypilot-org/skypilot sky/catalog/
// (azure_catalog.py, ibm_catalog.py, scp_catalog.py, vsphere_catalog.py,
// ppio_catalog.py, modal_catalog.py, latitude_catalog.py,
// quantacloud_catalog.py; cloudrift and novita from their
// data_fetchers). Kubernetes, SSH and Slurm have no vms.csv.
var skyPilotClouds = []string{
	"aws", "azure", "cloudrift", "cudo", "daytona", "do", "fluidstack", "gcp", "hyperbolic", "hyperstack",
	"ibm", "jarvislabs", "lambda", "latitude", "lium", "mithril", "modal", "nebius", "novita", "oci",
	"paperspace", "ppio", "primeintellect", "quantacloud", "runpod", "scp", "seeweb", "shadeform", "simplepod", "spheron",
	"vast", "verda", "vsphere", "yotta",
}

// csvCloud is the cloud a vms.csv overlay at p is for: the name of the
// folder that holds it, as in SkyPilot's layout
// (~/.sky/catalogs/v8/aws/vms.csv → aws), whichever way p is written
// (vms.csv in ~/.sky/catalogs/v8/aws is aws too). A file not named
// vms.csv, or in a folder that is not a cloud SkyPilot knows
// (skyPilotClouds: Downloads/vms.csv), is refused with how to fix it,
// so no folder quietly becomes a cloud that exports would then name.
func csvCloud(p string) (string, error) {
	if filepath.Base(p) != "vms.csv" {
		return "", model.Msg("catalog %s: a SkyPilot catalog is a file named vms.csv in a folder named for its cloud (<cloud>/vms.csv, e.g. ~/.sky/catalogs/v8/aws/vms.csv); copy it there", p)
	}
	dir := filepath.Dir(p)
	if abs, err := filepath.Abs(p); err == nil {
		dir = filepath.Dir(abs)
	}
	folder := filepath.Base(dir)
	cloud := strings.ToLower(folder)
	if !slices.Contains(skyPilotClouds, cloud) {
		return "", model.Msg("catalog %s: the folder %q is not a cloud SkyPilot knows, and the folder names the cloud; copy the file to <cloud>/vms.csv (e.g. aws/vms.csv, as in ~/.sky/catalogs/v8/aws/vms.csv)", p, folder)
	}
	return cloud, nil
}

// readCSVOverlay reads a SkyPilot vms.csv overlay for the cloud its
// folder names (csvCloud). Rows become complete instance entries whose
// origin is the file, so they replace the embedded prices of the same
// instance types region by region. room is the number of instances
// merged before this file at most (see merge); size is the file's size
// in bytes; date (YYYY-MM-DD) dates its rows, as a vms.csv has no date.
func readCSVOverlay(p string, r io.Reader, size int64, date string, base *model.Catalog, room int) (catalogFile, []model.Message, error) {
	provider, err := csvCloud(p)
	if err != nil {
		return catalogFile{}, nil, err
	}
	// Types are distinct and complete, from p (Origin, Source) and dated
	// by the file: merge takes them as they are.
	insts, backing, warnings, err := readSkyPilotCSVAsOf(r, p, provider, CatalogGPUResolver(base), room, size, date)
	if err != nil {
		return catalogFile{}, warnings, err
	}
	f := catalogFile{name: p, origin: p, full: insts, backing: backing, room: room, date: date}
	if len(f.full) == 0 {
		if len(warnings) == 0 {
			return catalogFile{}, warnings, model.Msg("catalog %s: no GPU instances found", p)
		}
		// Every row was skipped: the reasons, or the error says nothing
		// the user can act on (the warnings are not printed with it).
		shown := warnings[:min(len(warnings), shownPerKind)]
		reasons := shown[0]
		for _, w := range shown[1:] {
			reasons = model.Msg("%v; %v", reasons, w)
		}
		if n := len(warnings) - len(shown); n > 0 {
			reasons = model.Msg("%v; and %d more", reasons, n)
		}
		return catalogFile{}, warnings, model.Msg("catalog %s: no GPU instances found; every row was skipped: %v", p, reasons)
	}
	return f, warnings, nil
}
