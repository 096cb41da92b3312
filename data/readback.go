package data

import (
	"errors"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// CheckOverlay reads the overlay file at path as LoadWith reads every
// overlay — through safeio (a regular file, at most safeio.Overlay.MaxBytes
// bytes), decoded, its names and spot markets checked, merged over the
// embedded catalog (loadFiles, the same code) — and returns what a later
// command would refuse, or nil: what LoadWith refuses, and an entry that
// redefines an embedded one (model.Catalog.Redefined), which the command
// line refuses unless --trust-overlay. catalog update calls it on the
// file it wrote before that file replaces the previous one, so an overlay
// that would stop every later command is never installed (attack r29: a
// mirror's retired p3.2xlarge with 62 GiB was written as a new type, and
// every command then refused "redefines the embedded entry").
func CheckOverlay(path string) error {
	c, err := OverlayCatalog(path)
	if err != nil {
		return err
	}
	var errs []error
	for i := range c.Redefined {
		errs = append(errs, unreadable(&c.Redefined[i]))
	}
	return errors.Join(errs...)
}

// unreadable says why an overlay holding r would stop later commands.
func unreadable(r *model.Redefinition) model.Message {
	if r.Takes != "" {
		return model.Msg("catalog %s: %s %q is named %q, which reads as the embedded %s %q; every command would refuse the file without --trust-overlay",
			r.Origin, model.Msg(r.Kind), r.Key, r.Name, model.Msg(r.Kind), r.Takes)
	}
	return model.Msg("catalog %s: %s %q redefines the embedded entry (%s); every command would refuse the file without --trust-overlay",
		r.Origin, model.Msg(r.Kind), r.Key, strings.Join(r.Changes, ", "))
}

// OverlayCatalog is the embedded catalog with the one overlay at path
// merged over it, read as LoadWith reads it (loadFiles; not indexed),
// with its redefinitions in Redefined: catalog update compares a fetch
// with the overlay it replaces through it, so a price cut in steps, each
// under the guard's bound, is still caught. The file is read whole, as a
// hand-written overlay is: its prices the embedded catalog has newer are
// not left out (LoadWith leaves them out of catalog update's files), so
// the comparison sees every price the previous fetch wrote.
func OverlayCatalog(path string) (*model.Catalog, error) {
	c, _, err := loadFiles([]string{path}, 0, nil)
	return c, err
}
