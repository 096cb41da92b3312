package cli

import (
	"errors"
	"fmt"
	"os"
	"sort"

	"github.com/spf13/cobra"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/probe"
	"github.com/gpuplan/gpuplan/ui/internal/atomicfile"
	"github.com/gpuplan/gpuplan/ui/report"
	"github.com/gpuplan/gpuplan/ui/termsafe"
)

// Probes is what the probe commands read and keep; main wires data/probes.
type Probes struct {
	// ReadResult reads a probe result file (bounded, regular files only)
	// and checks it (probe.Parse).
	ReadResult func(path string) (*probe.Result, error)
	// Dir is the directory kept probes live in (the XDG data directory).
	Dir func() (string, error)
	// Keep writes a run's cases to dir and returns the file; already is
	// true, and nothing is written, when the run was kept before.
	Keep func(dir string, s *probe.Suite, r *probe.Result) (path string, already bool, err error)
	// Load reads the kept cases of dir, with a warning per file left out.
	Load func(dir string) (*probe.Suite, []model.Message)
}

func newProbeCmd(env *Env, overlays *[]string) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "probe",
		Short: "Read back a probe run (gpuplan export --format probe): compare it with the estimate, keep it, export the kept ones",
		Long: `The probe script (gpuplan export --format probe) runs a few steps of the plan on the
rented GPU and prints one JSON line. probe compare sets each measured figure beside
gpuplan's estimate of the same workload, with the error and whether it fell inside
the printed range (90%); probe add keeps the run in your data directory as calibration
cases of the suite's format, and estimate, recommend and the configurator then show,
beside their estimate, the estimate corrected by your runs on the same GPU, model
family and recipe; probe export writes the kept cases, ready to contribute.`,
		Example: `  gpuplan export --model llama-3.1-8b --task qlora --batch-size 1 --seq-len 2048 --instance aws/g5.2xlarge --format probe -o gpuplan-probe.py
  python3 gpuplan-probe.py > result.json          # on the rented GPU
  gpuplan probe compare result.json
  gpuplan probe add result.json
  gpuplan probe export -o my-cases.toml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return usage(model.Msg("say what to do: gpuplan probe compare|add|export (see gpuplan probe --help)"))
		},
	}
	cmd.AddCommand(newProbeCompareCmd(env, overlays), newProbeAddCmd(env, overlays), newProbeExportCmd(env, overlays))
	return cmd
}

// probesOf returns env's probe store or a usage error for builds without one.
func probesOf(env *Env) (*Probes, error) {
	if env.Probes == nil || env.Probes.ReadResult == nil || env.Probes.Dir == nil || env.Probes.Keep == nil || env.Probes.Load == nil {
		return nil, model.Msg("this build keeps no probes")
	}
	return env.Probes, nil
}

// readProbe reads the result file named by args[0]; every error is a
// usage error naming the file: exit 2.
func readProbe(env *Env, path string) (*probe.Result, error) {
	ps, err := probesOf(env)
	if err != nil {
		return nil, err
	}
	r, err := ps.ReadResult(path)
	if err != nil {
		return nil, usage(model.Msg("%s: %v", path, err))
	}
	return r, nil
}

func newProbeCompareCmd(env *Env, overlays *[]string) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "compare RESULT.json",
		Short: "Set a probe run's measured figures beside gpuplan's estimate, term by term",
		Example: `  gpuplan probe compare result.json
  gpuplan probe compare result.json --json`,
		Args: exactlyOneFile("compare"),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := readProbe(env, args[0])
			if err != nil {
				return err
			}
			cat, warnings, err := env.LoadCatalog(*overlays)
			if err != nil {
				return err
			}
			c, _, _, notKept, err := checkProbe(r, cat, args[0])
			if err != nil && !notKept {
				return err
			}
			printWarningsIn(env.lang, env.Stderr, append(warnings, fileWarnings(args[0], r.DeviceWarnings(cat))...))
			if asJSON {
				return writeJSON(env.Stdout, report.NewProbeJSON(c))
			}
			rd, _ := renderer(env, env.Stdout)
			return report.WriteProbeComparison(env.Stdout, rd, c)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object instead of the table")
	return cmd
}

func newProbeAddCmd(env *Env, overlays *[]string) *cobra.Command {
	return &cobra.Command{
		Use:     "add RESULT.json",
		Short:   "Keep a probe run in your data directory as calibration cases, to correct close estimates",
		Example: `  gpuplan probe add result.json`,
		Args:    exactlyOneFile("add"),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := readProbe(env, args[0])
			if err != nil {
				return err
			}
			ps, _ := probesOf(env)
			cat, warnings, err := env.LoadCatalog(*overlays)
			if err != nil {
				return err
			}
			_, s, kept, _, err := checkProbe(r, cat, args[0]) // a run this gpuplan cannot estimate would correct nothing
			if err != nil {
				return err
			}
			warnings = append(warnings, fileWarnings(args[0], r.DeviceWarnings(cat))...)
			dir, err := ps.Dir()
			if err != nil {
				return model.Msg("the data directory: %v", err)
			}
			path, already, err := ps.Keep(dir, s, r)
			if err != nil {
				return model.Msg("keeping %s: %v", args[0], err)
			}
			printWarningsIn(env.lang, env.Stderr, warnings)
			if already {
				env.lang.Fprintf(env.Stdout, "already kept in %s\n", termsafe.String(path))
				return nil
			}
			env.lang.Fprintf(env.Stdout, "kept %d cases of %s in %s\n", len(s.Case), termsafe.String(probe.RunID(r)), termsafe.String(path))
			writeKept(env, kept)
			return nil
		},
	}
}

// checkProbe is probe compare's and probe add's one check of result r
// read from path: probe.Compare (the result against its plan), then the
// cases add keeps, each estimated again (probe.Prepare: within
// probe.MinRatio–MaxRatio of the estimate, and physical). A result add
// does not keep (serving, --cpu-smoke, out of memory: probe.ErrNotKept)
// is compared without them, notKept set with add's error. Compare printed what
// add refused, samples_per_second = 1e-300 as an error of 300 digits
// (attack r29b F5). Every error is a usage error naming path.
func checkProbe(r *probe.Result, cat *model.Catalog, path string) (c *probe.Comparison, s *probe.Suite, kept []probe.Kept, notKept bool, err error) {
	c, err = probe.Compare(r, cat)
	if err != nil {
		return nil, nil, nil, false, usage(model.Msg("%s: %v", path, err))
	}
	s, err = probe.Cases(r)
	if err != nil {
		return c, nil, nil, errors.Is(err, probe.ErrNotKept), usage(model.Msg("%s: %v", path, err))
	}
	kept, errs := probe.Prepare(s, cat)
	if len(errs) > 0 {
		return nil, nil, nil, false, usage(model.Msg("%s: %v", path, errs[0]))
	}
	return c, s, kept, false, nil
}

// writeKept prints each kept case against this gpuplan's estimate.
func writeKept(env *Env, kept []probe.Kept) {
	for _, k := range kept {
		c := k.Case
		// Ratio is true ÷ estimated; the suite reports estimated ÷ true − 1.
		errPct := (1/k.Ratio - 1) * 100
		within := env.lang.T("within it")
		if abs(errPct) > c.Tolerance*100 {
			within = env.lang.T("outside it")
		}
		env.lang.Fprintf(env.Stdout, "  %s %s %.5g %s: gpuplan's estimate is off by %+.1f%% (the suite's tolerance %.0f%%: %s)\n",
			termsafe.String(c.Kind), termsafe.String(c.Quantity), c.Published, termsafe.String(c.Unit), errPct, c.Tolerance*100, within) // a kept file is read back
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func newProbeExportCmd(env *Env, overlays *[]string) *cobra.Command {
	var output string
	var force bool
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write your kept probe runs as calibration cases of the suite's format, with their quotes",
		Example: `  gpuplan probe export
  gpuplan probe export -o my-cases.toml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkOutputPath(output); err != nil {
				return err
			}
			ps, err := probesOf(env)
			if err != nil {
				return err
			}
			dir, err := ps.Dir()
			if err != nil {
				return model.Msg("the data directory: %v", err)
			}
			s, warnings := ps.Load(dir)
			printWarningsIn(env.lang, env.Stderr, warnings)
			if len(s.Case) == 0 {
				return usage(model.Msg("no kept probes in %s; gpuplan probe add RESULT.json keeps one", dir))
			}
			runs := map[string]bool{}
			for _, c := range s.Case {
				runs[c.Settings.Model+"\x00"+c.Quote] = true
			}
			header := []string{
				fmt.Sprintf("gpuplan probe export: %s of %s kept in %s", model.Count(len(s.Case), "case"), model.Count(len(runs), "probe run"), dir),
				"the calibration suite's format (data/testdata/calibration/cases.toml): [[arch]] tables first, then the [[case]] tables;",
				"each quote is the probe's JSON line, each source its GPU, software versions and date",
			}
			sort.SliceStable(s.Case, func(i, j int) bool { return s.Case[i].ID < s.Case[j].ID })
			out, err := s.Encode(header)
			if err != nil {
				return err
			}
			if output == "-" {
				_, err := env.Stdout.Write(out)
				return err
			}
			if err := atomicfile.WriteFileAtomicMode(output, out, 0o644, force); err != nil {
				if errors.Is(err, atomicfile.ErrFileExists) {
					return usage(model.Msg("%s exists; pass --force to overwrite it", output))
				}
				return usage(model.Msg("-o: %v", err))
			}
			env.lang.Fprintf(env.Stderr, "gpuplan: wrote %d cases to %s\n", len(s.Case), termsafe.String(output))
			return nil
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "-", "file to write; - writes to stdout")
	cmd.Flags().BoolVar(&force, "force", false, "overwrite the output file if it exists")
	return cmd
}

// exactlyOneFile refuses anything but one RESULT.json argument.
func exactlyOneFile(verb string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != 1 {
			return usage(model.Msg("give one result file: gpuplan probe %s RESULT.json (the probe script's output)", verb))
		}
		return nil
	}
}

// keptProbes loads and prepares the user's kept probes against cat, once
// per command; nil without a store or kept cases. Files and cases left out
// are warnings.
func keptProbes(env *Env, cat *model.Catalog) ([]probe.Kept, []model.Message) {
	ps, err := probesOf(env)
	if err != nil {
		return nil, nil
	}
	dir, err := ps.Dir()
	if err != nil {
		return nil, nil
	}
	if _, err := os.Stat(dir); err != nil {
		return nil, nil // nothing kept: the common case costs one stat
	}
	s, warnings := ps.Load(dir)
	kept, errs := probe.Prepare(s, cat)
	for _, e := range errs {
		warnings = append(warnings, model.Msg("kept probe %v; not used", e))
	}
	return kept, warnings
}

// probeLine is the correction line for e, "" when no kept probe is close.
func probeLine(env *Env, e *model.Estimate, kept []probe.Kept) (string, *report.ProbeCorrectionJSON) {
	if len(kept) == 0 {
		return "", nil
	}
	c := probe.Correct(e, kept)
	return report.ProbeCorrectionLine(env.lang, &c), report.NewProbeCorrectionJSON(&c)
}

// estimateProbe is the correction of e by the kept probes close to it:
// the line the report ends with, its JSON, and warnings about kept files.
func estimateProbe(env *Env, cat *model.Catalog, e *model.Estimate) (string, *report.ProbeCorrectionJSON, []model.Message) {
	if e.GPU == nil || !e.Workload.Task.Training() {
		return "", nil, nil
	}
	kept, warnings := keptProbes(env, cat)
	line, j := probeLine(env, e, kept)
	return line, j, warnings
}

// estimateProbeJSON is estimate --json with the correction.
type estimateProbeJSON struct {
	report.EstimateJSON
	ProbeCorrection *report.ProbeCorrectionJSON `json:"probe_correction"`
}

// withProbe adds the correction to estimate's JSON as "probe_correction";
// without one the report is as it was.
func withProbe(j report.EstimateJSON, c *report.ProbeCorrectionJSON) any {
	if c == nil {
		return j
	}
	return estimateProbeJSON{j, c}
}

// writeProbeLine ends a text report with the correction line, if any.
func writeProbeLine(env *Env, line string) error {
	if line == "" {
		return nil
	}
	_, err := env.lang.Fprintf(env.Stdout, "\nKept probes: %s\n", line)
	return err
}

// recommendProbes are the corrections of the ranked offers by the kept
// probes close to them: one per GPU type among the first limit offers (0:
// all), for that type's best-ranked offer, whose estimate (GPU count and
// strategy) the correction scales.
func recommendProbes(env *Env, cat *model.Catalog, rec *model.Recommendation, limit int) ([]string, []report.ProbeCorrectionJSON, []model.Message) {
	if len(rec.Offers) == 0 {
		return nil, nil, nil
	}
	kept, warnings := keptProbes(env, cat)
	if len(kept) == 0 {
		return nil, nil, warnings
	}
	var lines []string
	var js []report.ProbeCorrectionJSON
	seen := map[string]bool{}
	for i := range rec.Offers {
		if limit > 0 && i == limit {
			break
		}
		o := &rec.Offers[i]
		if o.GPU == nil || o.Estimate == nil || seen[o.GPU.Key] {
			continue
		}
		seen[o.GPU.Key] = true
		line, j := probeLine(env, o.Estimate, kept)
		if line == "" {
			continue
		}
		lines = append(lines, line+" "+env.lang.Sprintf("(for %s/%s)", o.Instance.Provider, o.Instance.Type))
		js = append(js, *j)
	}
	return lines, js, warnings
}

// recommendProbeJSON is recommend --json with the corrections.
type recommendProbeJSON struct {
	report.RecommendJSON
	ProbeCorrections []report.ProbeCorrectionJSON `json:"probe_corrections"`
}

// withProbes adds the corrections to recommend's JSON as
// "probe_corrections"; without any the report is as it was.
func withProbes(j report.RecommendJSON, js []report.ProbeCorrectionJSON) any {
	if len(js) == 0 {
		return j
	}
	return recommendProbeJSON{j, js}
}

// fileWarnings prefixes each warning with the file it is about.
func fileWarnings(path string, ws []model.Message) []model.Message {
	out := make([]model.Message, len(ws))
	for i, w := range ws {
		out[i] = model.Msg("%s: %v", path, w)
	}
	return out
}
