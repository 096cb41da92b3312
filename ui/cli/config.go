package cli

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpuplan/gpuplan/data/safeio"
	"github.com/gpuplan/gpuplan/model"
)

// readConfig reads and decodes an exported configuration. Errors name the
// file and the key and exit with status 2.
func readConfig(path string) (model.Config, error) {
	b, err := safeio.ReadTOML(path, safeio.Config) // regular file, size and nesting capped, never blocks
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return model.Config{}, usage(fmt.Errorf("--config %s: %w", path, err))
	}
	c, err := model.DecodeConfig(b)
	if err != nil {
		return model.Config{}, usage(fmt.Errorf("%s: %w", path, err))
	}
	return c, nil
}

// configBase returns the workload and search of --config FILE, the base
// that command-line flags override; zero values without the flag.
type configBase struct {
	path     string
	cfg      *model.Config
	workload model.Workload
	warnings []string
}

// loadConfigBase reads --config when given: the workload without defaults
// (flags and Compute apply them) and the config itself.
func loadConfigBase(path string, r *resolver) (configBase, error) {
	if path == "" {
		return configBase{}, nil
	}
	c, err := readConfig(path)
	if err != nil {
		return configBase{}, err
	}
	w, ws, err := c.Workload.Workload(r.catalog, r.hfConfig)
	if err != nil {
		return configBase{}, usage(fmt.Errorf("%s: %w", path, err))
	}
	return configBase{path: path, cfg: &c, workload: w, warnings: ws}, nil
}

// check validates the workload built from the file and the flags. A
// problem with a value that came from the file names the file and key,
// since there is no flag to blame.
func (b *configBase) check(w model.Workload, fs *pflag.FlagSet) error {
	if b.cfg == nil {
		return nil
	}
	w.Defaults()
	err := w.Validate()
	var fe *model.FieldError
	if err == nil || errors.As(err, &fe) && fs.Changed(flagName(fe.Field)[2:]) {
		return nil // no error, or one the flag check will report by flag name
	}
	return usage(fmt.Errorf("%s: %w", b.path, model.AsConfigError(err)))
}

// autoGPUs reports whether recommend picks the GPU count: --gpus wins, then
// the file's gpus ("auto" or absent), else yes.
func (b *configBase) autoGPUs(fs *pflag.FlagSet) bool {
	switch {
	case fs.Changed("gpus"):
		return false
	case b.cfg != nil:
		return b.cfg.Workload.AutoGPUs || b.cfg.Workload.GPUs == 0
	}
	return true
}

// loadWorkload is the start of estimate and recommend: the catalog, the
// --config file as a base, the workload flags over it, checked. Warnings
// are the catalog's, the file's and the flags', in that order.
func loadWorkload(cmd *cobra.Command, env *Env, overlays []string, wf *workloadFlags, configPath string) (*model.Catalog, model.Workload, configBase, []string, error) {
	cat, warnings, err := env.LoadCatalog(overlays)
	if err != nil {
		return nil, model.Workload{}, configBase{}, nil, err
	}
	res := &resolver{cat, env.ReadHFConfig, env.ReadSafetensors}
	cb, err := loadConfigBase(configPath, res)
	if err != nil {
		return nil, model.Workload{}, configBase{}, nil, err
	}
	warnings = append(warnings, cb.warnings...)
	w, ws, err := wf.build(cmd.Flags(), res, cb.workload)
	if err != nil {
		return nil, model.Workload{}, configBase{}, nil, err
	}
	if err := cb.check(w, cmd.Flags()); err != nil {
		return nil, model.Workload{}, configBase{}, nil, err
	}
	return cat, w, cb, append(warnings, ws...), nil
}
