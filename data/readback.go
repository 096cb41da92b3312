package data

import (
	"errors"

	"github.com/gpuplan/gpuplan/model"
)

// CheckOverlay reads the overlay file at path as LoadWith reads every
// overlay — through safeio (a regular file, at most safeio.Overlay.MaxBytes
// bytes), decoded, validated and merged over the embedded catalog — and
// returns what LoadWith would refuse, or nil. catalog update calls it on
// the file it wrote before that file replaces the previous one, so an
// overlay the reader refuses (which would stop every later command) is
// never installed.
func CheckOverlay(path string) error {
	_, err := OverlayCatalog(path)
	return err
}

// OverlayCatalog is the embedded catalog with the one overlay at path
// merged over it, read as CheckOverlay reads it (not indexed): catalog
// update compares a fetch with the overlay it replaces through it, so a
// price cut in steps, each under the guard's bound, is still caught.
func OverlayCatalog(path string) (*model.Catalog, error) {
	base := sharedCatalog() // read only: merge writes into c and f's arrays
	f, _, err := readOverlay(path, base, len(base.Instances))
	if err != nil {
		return nil, err
	}
	var errs []error
	var c model.Catalog
	merge(&c, append(baseFiles(base), f), &errs)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return &c, nil
}
