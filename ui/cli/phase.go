package cli

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/gpuplan/gpuplan/data/safeio"
	"github.com/gpuplan/gpuplan/model"
)

// addPhaseFlag adds --phase NAME, which picks a phase of a plan given with
// --config (a file of [[phase]] tables, as gpuplan plan reads); it
// completes the phase names of the --config file.
func addPhaseFlag(cmd *cobra.Command) {
	cmd.Flags().String("phase", "", "with --config PLAN.toml: the phase whose answers are the request (names: gpuplan plan PLAN.toml)")
	_ = cmd.RegisterFlagCompletionFunc("phase", func(cmd *cobra.Command, _ []string, s string) ([]cobra.Completion, cobra.ShellCompDirective) {
		path, _ := cmd.Flags().GetString("config")
		if path == "" || path == stdinPath {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		b, err := safeio.ReadTOML(path, safeio.Config)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		p, err := model.DecodePlan(b)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return list(s, p.PhaseNames())
	})
}

// readFromFileCmd is readFromFileIn that also takes a plan: when the
// --config file holds [[phase]] tables, the phase --phase names is the
// file (its answers through model.PlanPhase.ConfigFromAnswers, the same
// decoder as a configuration, or the configuration file it names);
// without --phase the error lists the phases. --phase on a configuration
// that is no plan is an error too.
func readFromFileCmd(cmd *cobra.Command, path string, in io.Reader) (fromFile, error) {
	phase, _ := cmd.Flags().GetString("phase") // "" when the command has no --phase
	if path == "" {
		if phase != "" {
			return fromFile{}, usage(fmt.Errorf("--phase picks a phase of a plan: give the plan with --config PLAN.toml"))
		}
		return fromFile{}, nil
	}
	var b []byte
	if path == stdinPath {
		if in == nil {
			return readFromFileIn(path, in)
		}
		var err error
		if b, err = io.ReadAll(io.LimitReader(in, safeio.Config.MaxBytes+1)); err != nil {
			return readFromFileIn(path, bytes.NewReader(b))
		}
		in = bytes.NewReader(b) // readFromFileIn reads the same bytes
		if safeio.CheckTOMLDepth(b) != nil || int64(len(b)) > safeio.Config.MaxBytes {
			return readFromFileIn(path, in) // says what is wrong
		}
	} else {
		var err error
		if b, err = safeio.ReadTOML(path, safeio.Config); err != nil {
			return readFromFileIn(path, in) // says what is wrong
		}
	}
	if !model.IsPlan(b) {
		if phase != "" {
			return fromFile{}, usage(fmt.Errorf("--phase %s: %s has no [[phase]] tables; it is a configuration, read without --phase", model.Printable(phase), path))
		}
		return readFromFileIn(path, in)
	}
	pl, err := model.DecodePlan(b)
	if err != nil {
		return fromFile{}, usage(fmt.Errorf("%s: %w", path, err))
	}
	ph, err := pl.Phase(phase)
	if err != nil {
		return fromFile{}, usage(fmt.Errorf("%s: %w", path, err))
	}
	if len(ph.Answers) == 0 && ph.Config != "" {
		if path == stdinPath {
			return fromFile{}, usage(fmt.Errorf("--config -: phase %q names the file %q, which is relative to a plan on disk; give the plan as a file", ph.Name, ph.Config))
		}
		return readFromFile(filepath.Join(filepath.Dir(path), ph.Config))
	}
	c, err := ph.ConfigFromAnswers()
	if err != nil {
		return fromFile{}, usage(fmt.Errorf("%s: %w", path, err))
	}
	if path != stdinPath {
		c.Workload.RelativeTo(filepath.Dir(path))
	}
	return fromFile{path: path, cfg: &c}, nil
}
