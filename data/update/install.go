package update

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/data/safeio"
	"github.com/gpuplan/gpuplan/model"
)

// ErrOverlayTooLarge is wrapped when an overlay would be larger than a
// catalog overlay may be (safeio.Overlay.MaxBytes, the reader's own cap).
var ErrOverlayTooLarge = errors.New("overlay too large")

// install writes b as dir/name: into a temporary file in dir, which is
// read back through the catalog's reader (data.CheckOverlay: the same size
// cap, decoder and checks every later command applies) and only then
// renamed over the previous file, so an overlay every later command would
// refuse is never installed and the previous one stays byte for byte.
// Files are opened through an os.Root on dir, so nothing outside dir is
// created, replaced or removed, whatever name or symbolic link is there.
func install(dir, name string, b []byte) error {
	if max := safeio.Overlay.MaxBytes; int64(len(b)) > max {
		return model.Errorf(ErrOverlayTooLarge, "%d KiB, above the %d KiB a catalog overlay may have (the source lists far more than a price list holds; check it)", (len(b)+1023)>>10, max>>10)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	var rnd [8]byte
	rand.Read(rnd[:])
	// Not *.toml: the loader reads every *.toml of the directory, and a
	// temporary file left by a crash must not be one.
	tmp := ".update-" + hex.EncodeToString(rnd[:]) + ".tmp"
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	defer root.Remove(tmp) // after a rename: nothing there
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := data.CheckOverlay(filepath.Join(dir, tmp)); err != nil {
		// Named as the file it would have become, not the temporary one.
		msg := strings.ReplaceAll(err.Error(), filepath.Join(dir, tmp), filepath.Join(dir, name))
		return model.Msg("the overlay written does not read back, so it was not installed: %s", msg)
	}
	return root.Rename(tmp, name)
}

// removeIn removes dir/name (through an os.Root on dir).
func removeIn(dir, name string) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	return root.Remove(name)
}
