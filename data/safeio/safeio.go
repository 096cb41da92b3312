package safeio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Kind is a kind of input file: its name in errors and its size cap.
type Kind struct {
	Name     string // e.g. "catalog overlay"
	MaxBytes int64
}

// The kinds of files gpuplan reads. Caps are far above real files and far
// below what would hurt: a config or overlay is a few KiB (the largest
// embedded catalog file, gcp.toml, is 60 KB), SkyPilot's
// largest vms.csv (AWS, every zone) a few tens of MiB.
var (
	Config  = Kind{"config", 1 << 20}          // gpuplan.toml (--config)
	Overlay = Kind{"catalog overlay", 1 << 20} // --catalog and catalog.d TOML
	CSV     = Kind{"SkyPilot CSV", 128 << 20}  // vms.csv
	// HFConfig is a Hugging Face config.json; the largest known (Phi-3's
	// long-RoPE factor lists) is ~10 KiB.
	HFConfig = Kind{"config.json", 4 << 20}
	// SafetensorsIndex is model.safetensors.index.json; DeepSeek-V3's, with
	// ~90,000 tensors, is under 10 MiB.
	SafetensorsIndex = Kind{"safetensors index", 64 << 20}
)

// ErrNotRegular is wrapped when a path names something other than a
// regular file (after symlinks): a directory, FIFO, socket or device.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is wrapped when a file is above its Kind's cap.
var ErrTooLarge = errors.New("file too large")

// Open opens path for reading without blocking and returns it only when it
// is a regular file. A FIFO opened with O_NONBLOCK returns at once instead
// of waiting for a writer; fstat on the open file (not a stat before the
// open, which a rename could race) decides. The error does not repeat the
// path, so callers prefix their own context.
func Open(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, nil, unwrapPath(err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, unwrapPath(err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%w: %s; give a file", ErrNotRegular, describeMode(fi.Mode()))
	}
	return f, fi, nil
}

// ReadFile reads the regular file at path, at most k.MaxBytes of it.
// Errors say what was wrong without repeating path.
func ReadFile(path string, k Kind) ([]byte, error) {
	f, fi, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > k.MaxBytes {
		return nil, tooLarge(k)
	}
	// A regular file can still grow while read (or lie in Size, as /proc
	// files do): read one byte past the cap to notice.
	b, err := io.ReadAll(io.LimitReader(f, k.MaxBytes+1))
	if err != nil {
		return nil, unwrapPath(err)
	}
	if int64(len(b)) > k.MaxBytes {
		return nil, tooLarge(k)
	}
	return b, nil
}

func tooLarge(k Kind) error {
	return fmt.Errorf("%w: above the %s limit for a %s", ErrTooLarge, sizeString(k.MaxBytes), k.Name)
}

func sizeString(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

func describeMode(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "is a directory"
	case m&fs.ModeNamedPipe != 0:
		return "is a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "is a socket"
	case m&fs.ModeCharDevice != 0:
		return "is a character device"
	case m&fs.ModeDevice != 0:
		return "is a device"
	}
	return "is a special file"
}

// unwrapPath drops a *PathError's operation and path, which callers print
// themselves.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
