package data

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// readCSVOverlay reads a SkyPilot vms.csv overlay. The provider is the
// name of the file's directory, as in SkyPilot's catalog layout
// (~/.sky/catalogs/v8/aws/vms.csv → aws). Rows become complete instance
// entries whose origin is the file, so they replace the embedded prices
// of the same instance types region by region. room is the number of
// instances merged before this file at most (see merge); size is the
// file's size in bytes.
func readCSVOverlay(p string, r io.Reader, size int64, base *model.Catalog, room int) (catalogFile, []string, error) {
	provider := strings.ToLower(filepath.Base(filepath.Dir(p)))
	if filepath.Base(p) != "vms.csv" || !keyPattern().MatchString(provider) || provider == "." {
		return catalogFile{}, nil, fmt.Errorf("catalog %s: a SkyPilot catalog must keep SkyPilot's layout <provider>/vms.csv (e.g. ~/.sky/catalogs/v8/aws/vms.csv): the folder names the provider", p)
	}
	// Types are distinct and complete, from p (Origin, Source) and dated
	// as the catalog they update: merge takes them as they are.
	insts, backing, warnings, err := readSkyPilotCSVAsOf(r, p, provider, CatalogGPUResolver(base), room, size, base.AsOf)
	if err != nil {
		return catalogFile{}, warnings, err
	}
	f := catalogFile{name: p, origin: p, full: insts, backing: backing, room: room}
	if len(f.full) == 0 {
		return catalogFile{}, warnings, fmt.Errorf("catalog %s: no GPU instances found", p)
	}
	if !slices.ContainsFunc(base.Instances, func(in model.Instance) bool { return in.Provider == provider }) {
		// A file saved as Downloads/vms.csv would otherwise quietly become
		// a cloud called "downloads", and exports would name it.
		warnings = append(warnings, fmt.Sprintf("catalog %s: its %d instance types are added as a new provider %q, named by the folder; if that is not the cloud's name, keep SkyPilot's layout <cloud>/vms.csv (e.g. aws/vms.csv)", p, len(f.full), provider))
	}
	return f, warnings, nil
}
