package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// noTemps fails when a temporary file was left in dir.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gpuplan.toml")

	if err := WriteFileAtomic(path, []byte("one"), false); err != nil {
		t.Fatalf("new file: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "one" {
		t.Errorf("content = %q, want one", b)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o644 {
		t.Errorf("mode = %v, want 0644", info.Mode().Perm())
	}

	// An existing file is never clobbered without consent.
	err := WriteFileAtomic(path, []byte("two"), false)
	if !errors.Is(err, ErrFileExists) {
		t.Fatalf("existing file without overwrite: error = %v, want ErrFileExists", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "one" {
		t.Errorf("content after refused write = %q, want one", b)
	}

	// With consent it is replaced and keeps its permissions.
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(path, []byte("three"), true); err != nil {
		t.Fatalf("overwrite: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "three" {
		t.Errorf("content after overwrite = %q, want three", b)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Errorf("mode after overwrite = %v, want 0600 kept", info.Mode().Perm())
	}
	noTemps(t, dir)
}

func TestWriteFileAtomicErrors(t *testing.T) {
	dir := t.TempDir()
	if err := WriteFileAtomic(filepath.Join(dir, "missing", "gpuplan.toml"), []byte("x"), false); err == nil ||
		!strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing directory: error = %v, want one saying it does not exist", err)
	}
	if err := WriteFileAtomic(dir, []byte("x"), true); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory as file: error = %v", err)
	}
	noTemps(t, dir)
}

func TestWriteFileAtomicReadOnlyDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	if f, err := os.CreateTemp(dir, "probe"); err == nil { // root ignores permissions
		f.Close()
		os.Remove(f.Name())
		if runtime.GOOS != "linux" {
			t.Skip("running as a user who can write to read-only directories")
		}
		dir = "/sys" // read-only to root too
	}
	path := filepath.Join(dir, "gpuplan.toml")
	err := WriteFileAtomic(path, []byte("x"), false)
	if err == nil || !strings.Contains(err.Error(), "cannot write in "+dir) {
		t.Errorf("read-only directory: error = %v, want one naming the directory", err)
	}
	if _, statErr := os.Stat(path); statErr == nil {
		t.Errorf("%s was created", path)
	}
}

// TestExportFormats: the export dialog writes what gpuplan export writes:
// the configuration TOML with the offer's [launch] section, or a launch file.
