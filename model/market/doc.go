// Package market browses the cloud GPU market without a workload: the
// filters of gpuplan offers and of the configurator's browse screen (GPU
// specs such as H100:8, VRAM ranges, providers, regions, pricing mode,
// interconnect), the rows they select with each type's cheapest region,
// sort orders and groups with their price ranges; and where the catalog's
// prices came from (embedded, catalog update, overlays) and how old they
// are (CatalogProvenance).
//
// It imports only model (the catalog and its price lookup,
// model.Catalog.Price); rendering the rows (tables, JSON, CSV, Markdown)
// is ui/report's, reading the command line's words into a query
// ui/cli/offerargs'. Like model it is plain Go: no terminal UI, no file or
// network access. Filter errors match ErrBadFilter and carry a
// model.Message the UI translates.
package market
