package tui

import (
	"io"

	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/model/plan"
	"github.com/gpuplan/gpuplan/model/probe"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// Options are what the configurator needs besides the catalog. The
// command line fills them; tests pass fakes.
type Options struct {
	// Config holds the answers to start from (gpuplan --config FILE); nil
	// starts from the defaults.
	Config *config.Config
	// ConfigPath is where Config was read; it becomes the default export
	// path. Empty means ./gpuplan.toml.
	ConfigPath string
	// Plan is the plan to start from (gpuplan --config PLAN.toml), read
	// from PlanPath, its default export path; nil starts with none.
	Plan     *plan.Plan
	PlanPath string
	// CheckPlan says what the catalog says of a plan, as gpuplan plan
	// prints it: warnings (in the screen's language) and, per phase, its
	// mark (PhaseCost.Targets and Borderline: ✗ a job that does not fit
	// its offer or a service that misses its targets, ~ borderline); the
	// plan page shows them under its phases. nil: none shown.
	CheckPlan func(p *plan.Plan) (warnings []string, marks []plan.PhaseCost)
	// Phase is the phase of Plan whose answers Config holds (gpuplan
	// --config PLAN.toml [--phase NAME]); PhaseNamed says --phase named
	// it. Unnamed, the status line says which phase was opened.
	Phase      string
	PhaseNamed bool
	// Accessible asks the questions as plain prompts and prints the
	// answer as text (ACCESSIBLE=1, TERM=dumb): no redrawing screen.
	Accessible bool
	// ReadHFConfig reads a Hugging Face config.json (file or directory),
	// as config.Readers.HFConfig; nil when this build cannot, and the model
	// list then has no entry for it.
	ReadHFConfig func(path string, task model.Task) (model.Architecture, model.Precision, []model.Message, error)

	In  io.Reader // keys (stdin)
	Out io.Writer // results and the accessible summary (stdout)
	// Err is where the screen is drawn (stderr), so stdout stays clean.
	Err io.Writer
	// Getenv reads the environment (NO_COLOR); nil means os.Getenv.
	Getenv func(string) string

	// PriceNote is what the header says about the prices besides the
	// catalog date (market.Provenance: "+2 overlays", "prices 120 days old:
	// gpuplan catalog update"); "" says nothing more.
	PriceNote string
	// Warnings are the catalog's load warnings (overlays: a provider named
	// by its folder, prices patched, …) in the screens' language. The
	// configurator shows them in a notice over its first screen, which any
	// key closes; the command line prints them before it starts, so they
	// are on the terminal after it quits too.
	Warnings []string
	// SpotRate is the spot interruption rate of an instance type in a
	// region (data.SpotRates); nil leaves out the spot estimates.
	SpotRate func(provider, region, instanceType string) decide.InterruptionRate
	// Probes are the user's kept probe runs (gpuplan probe add) with their
	// residuals: the panel shows an estimate corrected by those close to
	// it (same GPU, family and recipe) beside the estimate; nil shows none.
	Probes []probe.Kept
	// Lang is the language of the screens (a --lang flag or config key,
	// through i18n.Resolve); the zero tag (language.Und) follows the
	// environment, i18n.Detect(Getenv). Request values (option values,
	// exported files) stay English.
	Lang language.Tag

	// lang, when set, is the printer used instead of Lang's (tests: an
	// i18n.NewTracing printer that records the untranslated keys).
	lang *i18n.Printer
	// width and height are the terminal's when Run could read them, so
	// the first frame is laid out for it, not redone when Bubble Tea's
	// tea.WindowSizeMsg says the same; 0 until that message.
	width, height int
}

// printer is the message printer for opts.Lang (nil prints English).
func (opts Options) printer() *i18n.Printer {
	if opts.lang != nil {
		return opts.lang
	}
	tag := opts.Lang
	if tag == language.Und {
		getenv := opts.Getenv
		if getenv == nil {
			return nil // tests and embedders without an environment: English
		}
		tag = i18n.Detect(getenv)
	}
	return i18n.New(tag)
}
