package safeio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/gpuplan/gpuplan/model"
)

// Kind is a kind of input file: its name in errors and its size cap.
type Kind struct {
	Name     string // e.g. "catalog overlay"
	MaxBytes int64
}

// The kinds of files gpuplan reads. Caps are far above real files and far
// below what would hurt: a config is a few KiB and the largest embedded
// catalog file (gcp.toml) is 60 KB, while BurntSushi/toml takes seconds and
// hundreds of MB on 1 MiB of hostile but shallow TOML (230,000 keys of
// nested inline tables: 5–9 s, 300 MB, measured on the shared 2-core
// machine), so TOML is capped at 256 KiB; SkyPilot's largest vms.csv (AWS,
// every zone) is a few tens of MiB.
var (
	Config  = Kind{"config", 256 << 10}          // gpuplan.toml (--config)
	Plan    = Kind{"plan", 256 << 10}            // gpuplan plan FILE
	Overlay = Kind{"catalog overlay", 256 << 10} // --catalog and catalog.d TOML
	CSV     = Kind{"SkyPilot CSV", 128 << 20}    // vms.csv
	// HFConfig is a Hugging Face config.json; the largest known (Phi-3's
	// long-RoPE factor lists) is ~10 KiB.
	HFConfig = Kind{"config.json", 4 << 20}
	// SafetensorsIndex is model.safetensors.index.json; DeepSeek-V3's, with
	// 91,991 tensors, is 8.9 MB and Kimi-K2's 12.5 MB (hf's maxIndexBytes
	// says how they were sized).
	SafetensorsIndex = Kind{"safetensors index", 16 << 20}
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
//
// A stat before the open refuses what is plainly not a regular file without
// opening it: open(2) of a socket fails with ENXIO ("no such device or
// address", which tells the user nothing), and opening a device can act
// (a tape rewinds, /dev/watchdog arms).
//
// A regular file the kernel can poll may still never have data: reading
// /proc/kmsg waits for the next kernel message. Go parks such reads in its
// poller, where a read deadline (ReadTimeout) ends them; files that cannot
// be polled ignore the deadline (os.ErrNoDeadline).
func Open(path string) (*os.File, fs.FileInfo, error) {
	if fi, err := os.Stat(path); err != nil {
		return nil, nil, unwrapPath(err)
	} else if !fi.Mode().IsRegular() {
		return nil, nil, model.Errorf(ErrNotRegular, "%s", describeMode(fi.Mode()))
	}
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
		return nil, nil, model.Errorf(ErrNotRegular, "%s", describeMode(fi.Mode()))
	}
	_ = f.SetReadDeadline(time.Now().Add(ReadTimeout)) // os.ErrNoDeadline for ordinary files
	return f, fi, nil
}

// ReadTimeout bounds how long a pollable file (see Open) may keep a read
// waiting; ordinary files on disk are not affected.
var ReadTimeout = 2 * time.Second

// ErrStalled is wrapped when a file gave no data within ReadTimeout.
var ErrStalled = errors.New("no data")

// Stalled is the error for a read from Open's file that hit ReadTimeout
// (os.ErrDeadlineExceeded), for callers that stream the file themselves.
func Stalled() error {
	return model.Msg("%s within %v: it waits for data like a pipe; give a regular file", ErrStalled, ReadTimeout)
}

// ReadFile reads the regular file at path, at most k.MaxBytes of it.
// Errors say what was wrong without repeating path.
func ReadFile(path string, k Kind) ([]byte, error) {
	b, _, err := ReadFileInfo(path, k)
	return b, err
}

// ReadFileInfo is ReadFile that also returns the file's information as
// it was opened (its modification time dates an overlay that gives none).
func ReadFileInfo(path string, k Kind) ([]byte, fs.FileInfo, error) {
	f, fi, err := Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if fi.Size() > k.MaxBytes {
		return nil, nil, tooLarge(k)
	}
	// A regular file can still grow while read (or lie in Size, as /proc
	// files do): read one byte past the cap to notice.
	b, err := io.ReadAll(io.LimitReader(f, k.MaxBytes+1))
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return nil, nil, Stalled()
	}
	if err != nil {
		return nil, nil, unwrapPath(err)
	}
	if int64(len(b)) > k.MaxBytes {
		return nil, nil, tooLarge(k)
	}
	return b, fi, nil
}

func tooLarge(k Kind) error {
	return model.Errorf(ErrTooLarge, "above the %s limit for a %s", sizeString(k.MaxBytes), model.Msg(k.Name))
}

func sizeString(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

func describeMode(m fs.FileMode) model.Message {
	switch {
	case m.IsDir():
		return model.Msg("is a directory")
	case m&fs.ModeNamedPipe != 0:
		return model.Msg("is a FIFO (named pipe)")
	case m&fs.ModeSocket != 0:
		return model.Msg("is a socket")
	case m&fs.ModeCharDevice != 0:
		return model.Msg("is a character device")
	case m&fs.ModeDevice != 0:
		return model.Msg("is a device")
	}
	return model.Msg("is a special file")
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
