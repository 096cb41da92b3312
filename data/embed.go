package data

import (
	"io/fs"

	"github.com/gpuplan/gpuplan/model"
)

//go:generate go run ./internal/genembed

// LoadTOML decodes, validates and merges the catalog's TOML under fsys
// (catalog/gpus.toml, catalog/models.toml, catalog/discounts.toml,
// catalog/instances/*.toml), with the same decoder as overlays. `go
// generate ./data` compiles its result into catalog_gen.go, which Load
// returns; start-up never calls it.
func LoadTOML(fsys fs.FS) (*model.Catalog, error) { return load(fsys) }
