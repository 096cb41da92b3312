package update

import (
	"bytes"
	"encoding/csv"
	"errors"
	"hash/maphash"
	"io"
	"strings"

	"github.com/gpuplan/gpuplan/data/safeio"
	"github.com/gpuplan/gpuplan/model"
)

// ErrTooManyTypes is wrapped when a source lists far more new instance
// types than the catalog has for the provider.
var ErrTooManyTypes = errors.New("too many new instance types")

// newTypesFactor and newTypesFloor bound the new types (not in the
// embedded catalog for the provider) one update may add: twice the
// provider's embedded types, or 100 when that is more. A policy choice:
// the embedded catalog has 3–93 types a provider, each the GPU types
// SkyPilot's v8 file listed, and a provider adds a few GPU types a year;
// a source listing hundreds more is a forged or broken list (attack round
// 13: 249,000 new types in 62 MB, under the 64 MiB and 250,000-row
// limits, took 1.16 GB and 18–31 s to build before the 256 KiB overlay
// cap refused it). Counted before any instance is built.
const (
	newTypesFactor = 2
	newTypesFloor  = 100
)

// maxNewTypes is how many new types a provider with embedded types may
// gain in one update.
func maxNewTypes(embedded int) int { return max(newTypesFactor*embedded, newTypesFloor) }

// minPriceBytes is the fewest bytes one region price takes in a written
// overlay besides its region's name: `  { region = "", on_demand = 1 },`
// and a newline (data.WritePricesTOML).
const minPriceBytes = len(`  { region = "", on_demand = 1 },` + "\n")

// precheckCSV scans a SkyPilot vms.csv before it is parsed, keeping a
// hash per name and nothing else, and refuses it as soon as either
//   - its GPU rows (AcceleratorName set) name more instance types than
//     current lacks than maxNewTypes(len(current)) (ErrTooManyTypes), or
//   - their distinct type and region pairs would take more than the
//     overlay cap written (ErrOverlayTooLarge): minPriceBytes and the
//     region's name each, counted as if every price were written (a
//     price the guards hold is not; a source that much of is refused
//     anyway).
//
// GCP's real rows are either a host VM (no AcceleratorName) or GPUs (no
// InstanceType), assembled by data.ReadSkyPilotCSV out of a fixed table
// of machine families, so none of them counts; a forged GCP file whose
// rows name both is counted like any other. Anything else wrong with the
// file is left to the parser.
func precheckCSV(body []byte, current map[string]*model.Instance, provider string) error {
	r := csv.NewReader(bytes.NewReader(body))
	r.FieldsPerRecord, r.ReuseRecord, r.LazyQuotes = -1, true, true
	head, err := r.Read()
	if err != nil {
		return nil
	}
	col := func(name string) int {
		for i, h := range head {
			h = strings.TrimSpace(h)
			if i == 0 {
				h = strings.TrimPrefix(h, "\ufeff")
			}
			if h == name {
				return i
			}
		}
		return -1
	}
	ti, ai, ri := col("InstanceType"), col("AcceleratorName"), col("Region")
	if ti < 0 || ai < 0 || ri < 0 {
		return nil
	}
	seed := maphash.MakeSeed()
	types, pairs := map[uint64]bool{}, map[uint64]bool{}
	limit, cap := maxNewTypes(len(current)), int(safeio.Overlay.MaxBytes)
	newTypes, est := 0, 0
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil || len(rec) <= max(ti, ai, ri) {
			return nil // the parser says what is wrong
		}
		typ, region := rec[ti], rec[ri]
		if typ == "" || rec[ai] == "" {
			continue
		}
		th := maphash.String(seed, typ)
		if !types[th] {
			types[th] = true
			if current[typ] == nil {
				if newTypes++; newTypes > limit {
					return model.Errorf(ErrTooManyTypes, "more than %d instance types the catalog does not have for %s: an update may add at most %d (twice the %d it has, or %d); check the source",
						limit, provider, limit, len(current), newTypesFloor)
				}
			}
		}
		ph := maphash.String(seed, typ+"\x00"+region)
		if !pairs[ph] {
			pairs[ph] = true
			if est += minPriceBytes + len(region); est > cap {
				return model.Errorf(ErrOverlayTooLarge, "%d type and region prices would take more than the %d KiB a catalog overlay may have (the source lists far more than a price list holds; check it)", len(pairs), cap>>10)
			}
		}
	}
}
