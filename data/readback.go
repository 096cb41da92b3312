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
	base := sharedCatalog() // read only: merge writes into c and f's arrays
	f, _, err := readOverlay(path, base, len(base.Instances))
	if err != nil {
		return err
	}
	var errs []error
	var c model.Catalog
	merge(&c, append(baseFiles(base), f), &errs)
	return errors.Join(errs...)
}
