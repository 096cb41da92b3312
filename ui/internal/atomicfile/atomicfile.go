// Package atomicfile writes files so that readers see the old content or
// the new, never half; both the CLI export and the configurator use it.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gpuplan/gpuplan/model"
)

// ErrFileExists is returned by WriteFileAtomic when the file exists and
// overwriting was not allowed; ask the user, then call again with overwrite.
var ErrFileExists = errors.New("file exists")

// WriteFileAtomic writes data to path so that readers see the old file or
// the new one, never half of it: a temporary file in the same directory is
// written, synced to disk and then moved into place, and the directory is
// synced. Without overwrite an existing file is never replaced: the move is
// a hard link, which fails when path exists (O_EXCL semantics, with no
// window between check and write), and the error wraps ErrFileExists. On
// any error no temporary file is left behind. A replaced file keeps its
// permissions; a new one gets 0644.
func WriteFileAtomic(path string, data []byte, overwrite bool) error {
	return WriteFileAtomicMode(path, data, 0o644, overwrite)
}

// WriteFileAtomicMode is WriteFileAtomic with the permissions of a new file
// (scripts want 0755). Only regular files are replaced: a directory, a
// symbolic link, a FIFO or a device at path is an error, overwrite or not.
func WriteFileAtomicMode(path string, data []byte, perm fs.FileMode, overwrite bool) (err error) {
	return WriteFileAtomicNamed(path, data, perm, overwrite, "gpuplan.toml")
}

// WriteFileAtomicNamed is WriteFileAtomicMode whose refusal of a
// directory at path suggests the file name name in it (the format's own
// default, such as gpuplan-k8s.yaml for a Kubernetes manifest).
func WriteFileAtomicNamed(path string, data []byte, perm fs.FileMode, overwrite bool, name string) (err error) {
	if path == "" {
		return model.Msg("no file name given") // messages: the configurator shows them translated
	}
	dir := filepath.Dir(path)
	info, statErr := os.Lstat(path)
	switch {
	case statErr == nil && info.IsDir():
		return model.Msg("%s is a directory; give a file name such as %s", path, filepath.Join(path, name))
	case statErr == nil && info.Mode()&fs.ModeSymlink != 0:
		return model.Msg("%s is a symbolic link; write to the file it points to instead", path)
	case statErr == nil && !info.Mode().IsRegular():
		// What it is in words: the mode string (Dcrw-rw-rw- for /dev/full)
		// read as noise (walk49).
		return model.Msg("%s %v, not a regular file; pick another name", path, specialKind(info.Mode()))
	case statErr == nil && !overwrite:
		return fmt.Errorf("%s: %w", path, ErrFileExists)
	}
	if d, err := os.Stat(dir); err != nil || !d.IsDir() {
		return model.Msg("directory %s does not exist; create it or pick another place", dir)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("cannot write in %s: %w", dir, unwrapPath(err))
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	mode := perm
	if statErr == nil {
		mode = info.Mode().Perm()
	}
	if err := tmp.Chmod(mode); err != nil {
		return fmt.Errorf("write %s: %w", path, unwrapPath(err))
	}
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, unwrapPath(err))
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, unwrapPath(err))
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, unwrapPath(err))
	}
	if overwrite {
		err = os.Rename(tmp.Name(), path)
	} else {
		err = os.Link(tmp.Name(), path)
		switch {
		case errors.Is(err, fs.ErrExist):
			return fmt.Errorf("%s: %w", path, ErrFileExists)
		case err != nil:
			// No hard links here (some network and FAT file systems):
			// check again just before the rename.
			if _, statErr := os.Lstat(path); statErr == nil {
				return fmt.Errorf("%s: %w", path, ErrFileExists)
			}
			err = os.Rename(tmp.Name(), path)
		default:
			os.Remove(tmp.Name())
		}
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, unwrapPath(err))
	}
	if d, err := os.Open(dir); err == nil { // make the rename durable
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// unwrapPath drops the *PathError wrapper, whose temp-file path would
// only confuse: the message names the user's path instead.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// specialKind says what a file that is not regular is, as safeio says it.
func specialKind(m fs.FileMode) model.Message {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return model.Msg("is a FIFO (named pipe)")
	case m&fs.ModeSocket != 0:
		return model.Msg("is a socket")
	case m&(fs.ModeDevice|fs.ModeCharDevice) != 0:
		return model.Msg("is a device")
	}
	return model.Msg("is a special file")
}
