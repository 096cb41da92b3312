package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/gpuplan/gpuplan/data/safeio"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/plan"
	"github.com/gpuplan/gpuplan/model/serve"
	"github.com/gpuplan/gpuplan/ui/report"
)

// readPlan reads and decodes a plan file ([[phase]] tables); "-" reads
// standard input, as --config - does. Errors name the file and the key
// and exit with status 2.
func readPlan(path string, in io.Reader) (plan.Plan, error) {
	var b []byte
	var err error
	if path == stdinPath {
		if in == nil {
			return plan.Plan{}, usage(model.Msg("plan -: standard input is not available here; give a file"))
		}
		if b, err = io.ReadAll(io.LimitReader(in, safeio.Plan.MaxBytes+1)); err == nil && int64(len(b)) > safeio.Plan.MaxBytes {
			return plan.Plan{}, usage(model.Msg("plan -: standard input is above the %d KiB limit for a plan", safeio.Plan.MaxBytes>>10))
		}
		if err == nil {
			err = safeio.CheckTOMLDepth(b)
		}
	} else {
		b, err = safeio.ReadTOML(path, safeio.Plan)
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return plan.Plan{}, usage(model.Msg("%s: %v", path, err))
	}
	p, err := plan.Decode(b)
	if err != nil {
		return plan.Plan{}, usage(model.Msg("%s: %v", path, err))
	}
	return p, nil
}

func newPlanCmd(env *Env) *cobra.Command {
	var asJSON, noSavings bool
	cmd := &cobra.Command{
		Use:   "plan FILE",
		Short: "Price a plan in phases: each phase's cost and the total",
		Long: `plan reads a TOML file of [[phase]] tables (fine-tune on one offer, then serve on
another for some months), and prints what each phase and the whole plan cost. A
phase is a job (job_hours) or a service (months, and hours_per_month when it does
not run all month); a 1- or 3-year commitment bills 730 h every month of the
phase, used or not, and at least its whole term.

Then what saves the most on the whole plan: each single change (pricing mode,
GPU type, region, precision, LoRA/QLoRA, checkpointing and batch) applied to
every phase it applies to, the phases priced by the estimator on their own
provider, region and GPU type (a change of the workload stays on that pinned
offer; recommend re-prices it on the whole catalog), ranked by dollars saved. Phases need [phase.answers] (or config) for it.`,
		Example: `  gpuplan plan plan.toml
  gpuplan plan plan.toml --json`,
		Args: fileArg("plan", "PLAN.toml"),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := readPlan(args[0], cmd.InOrStdin())
			if err != nil {
				return err
			}
			if err := checkPhaseConfigs(args[0], &p); err != nil {
				return err
			}
			phases, total, err := p.Priced() // the configurator's --config PLAN holds the file to it too (runTUI)
			if err != nil {
				return usage(model.Msg("%s: %v", args[0], err))
			}
			// The plan prices with its own figures; what the catalog says
			// otherwise of its offers is noted, not refused (a negotiated
			// price is the user's to give).
			overlays, _ := cmd.Flags().GetStringArray("catalog")
			cat, _, catErr := env.LoadCatalog(overlays)
			var warnings []model.Message
			if catErr == nil {
				if err := checkPlanModels(cat, args[0], &p); err != nil {
					return err
				}
				if err := checkPlanServing(env, cat, args[0], &p); err != nil {
					return err
				}
				warnings = planNotes(env, cat, args[0], &p, phases)
				printWarningsIn(env.lang, env.Stderr, warnings)
			}
			var base float64
			var savings []plan.Saving
			var leftOut []string // phases the savings leave out (plan.Savings)
			savingsErr := catErr
			if !noSavings && catErr == nil {
				base, savings, leftOut, savingsErr = planSavings(env, cat, args[0], &p)
			}
			if asJSON {
				j := report.NewPlanJSON(&p, phases, total)
				j.Warnings = append(j.Warnings, model.Strings(warnings)...)
				if !noSavings {
					cannotRun := slices.DeleteFunc(report.CannotRunPhases(&p, phases), func(n string) bool { return slices.Contains(leftOut, n) })
					j.Savings = report.NewPlanSavingsJSON(base, report.PlanOwnWithout(&p, phases, leftOut), len(cannotRun) == 0, savings, leftOut, savingsErr)
				}
				if err := writeJSON(env.Stdout, j); err != nil {
					return err
				}
				return planRefused(args[0], &p, phases)
			}
			r, _ := renderer(env, env.Stdout)
			if err := report.WritePlan(env.Stdout, r, &p, phases, total); err != nil {
				return err
			}
			if !noSavings {
				if err := report.WritePlanSavings(env.Stdout, r, report.PlanOwnWithout(&p, phases, leftOut), base,
					report.CannotRunPhases(&p, phases), leftOut, savings, savingsErr); err != nil {
					return err
				}
			}
			return planRefused(args[0], &p, phases)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object instead of the table")
	cmd.Flags().BoolVar(&noSavings, "no-savings", false, "leave out what saves the most on the whole plan")
	return cmd
}

// planRefused is the error gpuplan plan exits 1 with, after its table
// or JSON, when a phase of the plan read from path cannot run on its
// pinned offer (plan.PhaseCost.Refused: the job or model does not fit
// or run there, marked ✗ with the reason); nil when every phase runs,
// if only at the estimate or short of its serving targets. A plan whose
// phases cannot run exited 0, priced as if they could.
func planRefused(path string, p *plan.Plan, costs []plan.PhaseCost) error {
	var names []string
	for i := range costs {
		if costs[i].Refused && i < len(p.Phases) {
			names = append(names, strconv.Quote(p.Phases[i].Name))
		}
	}
	switch {
	case len(names) == 0:
		return nil
	case len(names) == 1:
		return model.Msg("%s: phase %s cannot run on its pinned offer (marked ✗): pick an offer that runs it (gpuplan recommend --config PLAN --phase NAME)", path, names[0])
	}
	return model.Msg("%s: %d of %d phases cannot run on their pinned offers (marked ✗: %v): pick offers that run them (gpuplan recommend --config PLAN --phase NAME)", path, len(names), len(p.Phases), model.AndMsg(names))
}

// checkPlanModels refuses a phase whose answers, or the configuration
// file it names, name a model the catalog lacks, as recommend --config
// --phase does: exit 2 when the plan (read from path) is read, not a note
// inside the savings (re-attack 5; issue 29 for the file).
func checkPlanModels(cat *model.Catalog, path string, p *plan.Plan) error {
	for i := range p.Phases {
		ph := &p.Phases[i]
		c, ok, err := phaseConfig(path, ph)
		if err != nil {
			return err // checkPhaseConfigs read it; names the phase
		}
		if !ok || c.Workload.Model == "" {
			continue // Decode checked the answers; a custom model has none
		}
		if _, err := cat.Model(c.Workload.Model); err != nil {
			var ce *config.Error
			if !errors.As(config.AsError(err), &ce) {
				return usage(model.Msg("%s: %v", path, err))
			}
			if len(ph.Answers) > 0 {
				ce.Key = fmt.Sprintf("phase %q answers.model", ph.Name)
				return usage(model.Msg("%s: %v", path, ce))
			}
			ce.Key = "workload.model"
			return usage(model.Msg("%s: phase %q config %s: %v", path, ph.Name, ph.ConfigPath(filepath.Dir(path)), ce))
		}
	}
	return nil
}

// checkPlanServing refuses a phase whose workload estimate --phase
// refuses (model.Workload.Validate's field errors), and a serving phase
// whose request estimate --phase refuses (plan.PhaseScenario.ServingError: prompt plus output
// tokens over the context, say), in estimate's words, so plan does not
// price a phase no server runs. A plan the engine cannot read is left to
// the savings, which say why.
func checkPlanServing(env *Env, cat *model.Catalog, path string, p *plan.Plan) error {
	sc, err := planScenario(env, cat, path, p)
	if err != nil {
		return nil
	}
	for i := range sc {
		// A workload estimate --phase refuses (gen_tokens on a classifier,
		// walk54: plan priced it and its savings said only "no offers")
		// is refused here in its words, under the phase's key.
		var fe *model.FieldError
		if err := sc[i].Workload.Validate(); errors.As(err, &fe) {
			ph := &p.Phases[i]
			if len(ph.Answers) > 0 {
				return usage(model.Msg("%s: %v", path, &config.Error{Key: fmt.Sprintf("phase %q answers.%s", ph.Name, fe.Field), Msg: fe.Msg}))
			}
			return usage(model.Msg("%s: phase %q config %s: %v", path, ph.Name, ph.ConfigPath(filepath.Dir(path)), config.AsError(err)))
		}
		// A TP the heads refuse is said first, as estimate --phase says
		// it, listing the sizes that pass up to the largest node of the
		// phase's GPU (serveLoad's rule), not 16 and 32, which are refused
		// next as more than a node (a new user's walk: a phase on a
		// g6e.xlarge listed them).
		var err error
		if sv := sc[i].Serve; sv != nil && sv.TP > 0 {
			gpu := ""
			if in, _ := plan.PhaseOffer(cat, &p.Phases[i]); in != nil {
				gpu = in.GPU
			}
			err = serve.TPOn(&sc[i].Workload.Model, sv.TP, largestNodeFor(cat, gpu))
		}
		if err == nil {
			err = sc[i].ServingError()
		}
		if err != nil {
			var ke *model.KindError
			if errors.As(err, &ke) {
				err = ke.Msg
			}
			return usage(model.Msg("%s: phase %q: serving: %v", path, p.Phases[i].Name, err))
		}
	}
	return nil
}

// planNotes is what the catalog says of the plan read from path, as
// gpuplan plan prints it and the configurator's plan page shows it: its
// offers checked (plan.Check), each serving phase's verdict on its pinned
// offer and each job phase on its offer as rented (plan.CheckJobHours,
// which marks a job that does not fit; plan.MarkOffCatalog, a phase on a
// type the catalog lacks that nothing runs on the answers' GPUs), marked
// in costs, and a length
// that is not its task's kind (plan.CheckDuration), and a reserved phase
// past its term (plan.CheckTerm). A phase the
// engine cannot read is neither marked nor compared: the savings say why.
func planNotes(env *Env, cat *model.Catalog, path string, p *plan.Plan, costs []plan.PhaseCost) []model.Message {
	warnings := append(plan.Check(cat, p), plan.CheckTerm(p)...)
	if sc, links, err := planScenarioLinked(env, cat, path, p); err == nil {
		for i := range links {
			if i < len(costs) {
				costs[i].Serves = links[i]
			}
		}
		markPinnedServing(cat, sc, p, costs)
		warnings = append(warnings, plan.CheckJobHours(cat, p, sc, costs)...)
		plan.MarkOffCatalog(cat, p, sc, costs) // on the answers' GPUs, as the savings leave it out
		warnings = append(warnings, plan.CheckDuration(p, sc)...)
	}
	return warnings
}

// markPinnedServing fills in each serving phase's verdict on its pinned
// offer (plan.PhaseScenario.PinnedServeNote), so a row whose offer is
// borderline or late against the phase's targets says so (issue 31: the
// example plan's 2×T4 crossed the 100 ms TPOT target unmarked). A phase
// the engine cannot read is left unmarked: the savings say why.
func markPinnedServing(cat *model.Catalog, pl plan.Scenario, p *plan.Plan, costs []plan.PhaseCost) {
	for i := range pl {
		if i < len(costs) {
			costs[i].Targets, costs[i].Borderline, costs[i].Refused = pl[i].PinnedServeNote(cat, p.Phases[i].Instance, p.Phases[i].Instances)
		}
	}
}
