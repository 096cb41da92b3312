package data

import (
	"fmt"

	"github.com/gpuplan/gpuplan/model"
)

// readCSVOverlay reads a SkyPilot vms.csv overlay.
func readCSVOverlay(p string, b []byte, base *model.Catalog) (catalogFile, []string, error) {
	return catalogFile{}, nil, fmt.Errorf("catalog %s: SkyPilot CSV catalogs are not supported yet", p)
}
