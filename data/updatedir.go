package data

import (
	"os"
	"path/filepath"
)

// UpdateDir returns the directory `gpuplan catalog update` writes its
// dated overlays to and LoadWith reads first: $XDG_DATA_HOME/gpuplan/
// catalog.d, else ~/.local/share/gpuplan/catalog.d (XDG Base Directory
// Specification defaults).
func UpdateDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "gpuplan", "catalog.d"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "share", "gpuplan", "catalog.d"), nil
}

// updatedOverlays lists the *.toml files of UpdateDir, sorted; none when
// the directory is missing.
func updatedOverlays() []string {
	dir, err := UpdateDir()
	if err != nil {
		return nil
	}
	m, _ := filepath.Glob(filepath.Join(dir, "*.toml"))
	return m // Glob sorts
}
