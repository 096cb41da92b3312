package cli

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpuplan/gpuplan/data/safeio"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/plan"
)

// readConfig reads and decodes an exported configuration; its file paths
// are taken relative to its directory. Errors name the file and the key and
// exit with status 2.
func readConfig(path string) (config.Config, error) {
	b, err := safeio.ReadTOML(path, safeio.Config) // regular file, size and nesting capped, never blocks
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return config.Config{}, usage(model.Msg("--config %s: %v", path, err))
	}
	c, err := config.Decode(b)
	if err != nil {
		return config.Config{}, usage(model.Msg("%s: %v", path, err))
	}
	c.Workload.RelativeTo(filepath.Dir(path))
	return c, nil
}

// fromFile is --config FILE, the base that command-line flags override;
// zero without the flag.
type fromFile struct {
	path string
	cfg  *config.Config
	// req is the file's request with the flags over it (workload sets
	// it), for query.
	req config.WorkloadAnswers
	// phase is the plan's phase the file is (--phase); nil for a
	// configuration.
	phase *plan.Phase
	// plan is the plan file the phase is from (path is the configuration
	// file the phase names, when it names one); "" for a configuration.
	plan string
	// whole is that plan, every phase (the phase that trains what this
	// one serves: plan.LinkTrained); nil for a configuration.
	whole *plan.Plan
}

// readFromFile reads --config when given.
func readFromFile(path string) (fromFile, error) {
	if path == "" {
		return fromFile{}, nil
	}
	c, err := readConfig(path)
	if err != nil {
		return fromFile{}, err
	}
	return fromFile{path: path, cfg: &c}, nil
}

// request is the file's workload request, zero without a file.
func (b *fromFile) request() config.WorkloadAnswers {
	if b.cfg == nil {
		return config.WorkloadAnswers{}
	}
	return b.cfg.Workload
}

// selection returns the configuration's picked offer, or nil.
func (b *fromFile) selection() *config.Selection {
	if b.cfg == nil {
		return nil
	}
	return b.cfg.Selection
}

// resolve turns the request into a workload; an error names the flag when
// a flag set the key, else the file and the key.
func (b *fromFile) resolve(req config.WorkloadAnswers, cat *model.Catalog, rd config.Readers, fs *pflag.FlagSet) (model.Workload, []model.Message, error) {
	w, ws, err := req.WorkloadMessages(cat, rd)
	if err == nil {
		return w, ws, b.check(w, fs)
	}
	var ce *config.Error
	if errors.As(err, &ce) {
		if flag := flagName(strings.TrimPrefix(ce.Key, "workload.")); fs.Changed(flag[2:]) {
			return w, nil, usage(model.Msg("%s: %s", flag, ce.Msg))
		}
	}
	if b.path != "" {
		return w, nil, usage(model.Msg("%s: %v", b.path, err))
	}
	return w, nil, usage(err)
}

// check validates the workload built from the file and the flags. A
// problem with a value that came from the file names the file and key,
// since there is no flag to blame.
func (b *fromFile) check(w model.Workload, fs *pflag.FlagSet) error {
	if b.cfg == nil {
		return nil
	}
	w.Defaults()
	err := w.Validate()
	var fe *model.FieldError
	if err == nil || errors.As(err, &fe) && fs.Changed(flagName(fe.Field)[2:]) {
		return nil // no error, or one the flag check will report by flag name
	}
	return usage(model.Msg("%s: %v", b.path, config.AsError(err)))
}

// query is the search of the request as the configurator reads it too
// (config.Config.Query): the file's [search], auto GPUs and a named
// strategy kept, from the file and the flags over it (workload sets them
// first). The search flags go over it (queryFlags.query).
func (b *fromFile) query() model.Query {
	c := config.Config{Workload: b.req}
	if b.cfg != nil {
		c.Search = b.cfg.Search
	}
	return c.Query()
}

// workload is the one path from flags and file to a workload: the file's
// request, the flags over it, resolved and checked. Warnings are the
// file's and the flags', in that order.
func (b *fromFile) workload(fs *pflag.FlagSet, cat *model.Catalog, rd config.Readers, wf *workloadFlags) (model.Workload, []model.Message, error) {
	req, warnings, err := wf.request(fs, cat, b.request())
	if err != nil {
		return model.Workload{}, nil, err
	}
	b.req = req
	w, ws, err := b.resolve(req, cat, rd, fs)
	if err != nil {
		return model.Workload{}, nil, err
	}
	return w, append(append(ws, warnings...), ignoredFlags(fs, &w)...), nil
}

// loadWorkload is the start of estimate and recommend: the catalog, the
// --config file as a base, the workload flags over it, checked. Warnings
// are the catalog's, the file's and the flags', in that order.
func loadWorkload(cmd *cobra.Command, env *Env, overlays []string, wf *workloadFlags, configPath string) (*model.Catalog, model.Workload, fromFile, []model.Message, error) {
	cat, warnings, err := env.LoadCatalog(overlays)
	if err != nil {
		return nil, model.Workload{}, fromFile{}, nil, err
	}
	ff, err := readFromFileCmd(cmd, configPath, cmd.InOrStdin())
	if err != nil {
		return nil, model.Workload{}, fromFile{}, nil, err
	}
	ff.phaseGPU(cat) // phase.go
	w, ws, err := ff.workload(cmd.Flags(), cat, env.Readers, wf)
	if err != nil {
		return nil, model.Workload{}, fromFile{}, nil, err
	}
	return cat, w, ff, append(warnings, ws...), nil
}
