// Package probes keeps the user's probe measurements: it reads a probe
// script's result file (bounded, regular files only), keeps its cases as
// one TOML file of the calibration suite's format per run under the user's
// data directory, and loads them back. The format and the math are
// model/probe's; this package is the file I/O.
package probes

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/gpuplan/gpuplan/data/safeio"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/probe"
	"github.com/gpuplan/gpuplan/model/show"
)

// Result is the kind of a probe result file: one JSON line of a few KB,
// capped at 1 MiB so the script's messages saved with it (2>&1) fit.
var Result = safeio.Kind{Name: "probe result", MaxBytes: 1 << 20}

// Kept is the kind of a kept-case file: a run's three cases and their
// quotes are a few KB.
var Kept = safeio.Kind{Name: "kept probe", MaxBytes: 256 << 10}

// MaxFiles bounds the kept files Load reads: more is a directory filled by
// mistake, not a user's runs.
const MaxFiles = 1000

// Dir returns the directory kept probes live in: $XDG_DATA_HOME/gpuplan/
// probes, else ~/.local/share/gpuplan/probes (XDG Base Directory
// Specification defaults), beside catalog update's catalog.d.
func Dir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "gpuplan", "probes"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "share", "gpuplan", "probes"), nil
}

// ReadResult reads and checks a probe result file. The error says what is
// wrong without repeating path; it wraps probe.ErrResult for content.
func ReadResult(path string) (*probe.Result, error) {
	b, err := safeio.ReadFile(path, Result)
	if err != nil {
		return nil, err
	}
	return probe.Parse(b)
}

// ErrKept is wrapped when the run is kept already.
var ErrKept = errors.New("kept already")

// Keep writes the run's cases to dir as <run id>.toml, creating dir. A
// file is never overwritten: the same run kept twice wraps ErrKept. It
// returns the file's path.
func Keep(dir string, s *probe.Suite, r *probe.Result) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, probe.RunID(r)+".toml")
	body, err := s.Encode([]string{"kept by gpuplan probe add: " + r.Summary()})
	if err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, ".keep-*.toml")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(body); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	// A hard link fails when the name exists: no clobbering, and no reader
	// sees a partial file.
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return path, model.Errorf(ErrKept, "%s", path)
		}
		return "", err
	}
	return path, nil
}

// Load reads every kept file of dir (none when it does not exist) into
// one suite. A file that is not a regular file, too large, not the
// suite's format, or names a key twice is left out with a warning naming
// it; so are the files past MaxFiles.
func Load(dir string) (*probe.Suite, []model.Message) {
	var out probe.Suite
	var warnings []model.Message
	names, err := filepath.Glob(filepath.Join(dir, "*.toml"))
	if err != nil || len(names) == 0 {
		return &out, nil
	}
	sort.Strings(names)
	if len(names) > MaxFiles {
		warnings = append(warnings, model.Msg("%s: %d kept probes, reading the first %d", dir, len(names), MaxFiles))
		names = names[:MaxFiles]
	}
	archs, ids := map[string]bool{}, map[string]bool{}
	for _, name := range names {
		s, err := readKept(name)
		if err != nil {
			warnings = append(warnings, model.Msg("%s: %v; left out", name, err))
			continue
		}
		dup := ""
		for _, c := range s.Case {
			if ids[c.ID] {
				dup = c.ID
			}
		}
		if dup != "" {
			warnings = append(warnings, model.Msg("%s: case %s is kept in another file too; left out", name, show.Printable(dup)))
			continue
		}
		for _, c := range s.Case {
			ids[c.ID] = true
		}
		for _, a := range s.Arch {
			if !archs[a.Key] {
				archs[a.Key] = true
				out.Arch = append(out.Arch, a)
			}
		}
		out.Case = append(out.Case, s.Case...)
	}
	return &out, warnings
}

// readKept reads one kept file strictly: the suite's keys and nothing else.
func readKept(path string) (*probe.Suite, error) {
	b, err := safeio.ReadTOML(path, Kept)
	if err != nil {
		return nil, err
	}
	var s probe.Suite
	md, err := toml.NewDecoder(bytes.NewReader(b)).Decode(&s)
	if err != nil {
		return nil, err
	}
	if u := md.Undecoded(); len(u) > 0 {
		keys := make([]string, len(u))
		for i, k := range u {
			keys[i] = k.String()
		}
		return nil, model.Msg("unknown keys %s", show.Printable(strings.Join(keys, ", ")))
	}
	if err := s.Check(); err != nil {
		return nil, err
	}
	return &s, nil
}
