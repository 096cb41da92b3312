package tui

import (
	"errors"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/shlex"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/launch/probescript"
	"github.com/gpuplan/gpuplan/model/plan"
	"github.com/gpuplan/gpuplan/model/serve"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/internal/atomicfile"
	"github.com/gpuplan/gpuplan/ui/report"
)

// dialog is a small huh form shown over the screen: the export's file
// name and overwrite question, and the quit question.
type dialog struct {
	kind      dialogKind
	form      *huh.Form
	path      string        // export: the file name typed
	format    launch.Format // export: what to write
	overwrite bool          // export: the answer to "overwrite?"
	quit      bool          // quit: the answer
	err       error         // shown under the form; the answers are kept
	cfg       config.Config // export: the configuration, written by config.Encode
	plan      *plan.Plan    // export: a plan of phases instead (plan.Encode); TOML only
	offer     *model.Offer  // export: the offer the launch formats are for; nil when none fits
	out       []byte        // export: what is being written (data, or a launch file)
	width     int
	fields    []huh.Field // the form's fields (tests reach their cursors)
	// tomlPath is the name the TOML gets by default; shownFormat the format
	// the name was last set for: a name left at a format's default follows
	// the format, so the input shows the file that will be written.
	tomlPath    string
	shownFormat launch.Format
	// serving is the serving request when the answers serve an LLM: the
	// launch formats are then vLLM's (servePayload).
	serving *serve.Serving
	// noExport says why the offer's launch files are not written (its
	// serving replica spans instances: report.NotExportedIn); "" when
	// they are. The TOML is written either way.
	noExport string
	// note is a line under the title saying which offer the files are
	// for when that needs saying (app.phaseExportNote); "" for none.
	note     string
	noteWarn bool // note says the files are not for what the reader opened
	// verdict is what gpuplan plan marks the opened phase with (its ✗ or
	// ~ line, in the dialog's language), shown under note, and notes the
	// same in English for the launch files' headers (launch.Options.Notes,
	// ServeOptions.Notes), as gpuplan export --config PLAN --phase NAME
	// writes them (app.phaseVerdict); empty for none.
	verdict string
	notes   []model.Message
	lang    *i18n.Printer // the dialog's language (nil: English)
	// cat ranks the SkyPilot file's failover candidates (launch.Alternatives).
	cat *model.Catalog
	// spotRate is Options.SpotRate: a spot training file saves every τ
	// of the rate the offer's spot estimate used (launch.Options.SpotRate),
	// as gpuplan export's; nil assumes launch.FallbackSpotRate.
	spotRate func(provider, region, instanceType string) decide.InterruptionRate
	// writing: the answered dialog's file is being written; until the
	// write answers, what else reaches the dialog (a cursor blink, a key)
	// must not write it again (dialogDone).
	writing bool
}

type dialogKind int

const (
	dialogExportName dialogKind = iota
	dialogExportOverwrite
	dialogQuit
)

func dialogKeys() *huh.KeyMap {
	k := huh.NewDefaultKeyMap()
	k.Quit.SetEnabled(false)
	k.Input.AcceptSuggestion.SetEnabled(false)
	return k
}

// exportFormats are the export dialog's choices for a training offer, as
// gpuplan export names them: the Kubernetes file is a Job, a Kubeflow
// Trainer TrainJob across nodes (launch.KindTrainJob, the default; the
// configurator has no --k8s-kind).
var exportFormats = []huh.Option[launch.Format]{
	huh.NewOption("gpuplan TOML (reopen with --config)", launch.FormatTOML),
	huh.NewOption("SkyPilot task YAML", launch.FormatSkyPilot),
	huh.NewOption("torchrun script", launch.FormatTorchrun),
	huh.NewOption("docker run script", launch.FormatDocker),
	huh.NewOption("Kubernetes Job (a TrainJob across nodes)", launch.FormatK8s),
	huh.NewOption("probe script: measures the plan on the GPU", launch.FormatProbe),
}

// serveFormats are the same choices when the answers serve an LLM, named
// for what each writes then (launch.Serve.Render, probescript.Serve).
var serveFormats = []huh.Option[launch.Format]{
	huh.NewOption("gpuplan TOML (reopen with --config)", launch.FormatTOML),
	huh.NewOption("SkyServe service YAML", launch.FormatSkyPilot),
	huh.NewOption("vllm serve script", launch.FormatTorchrun),
	huh.NewOption("docker run script (vLLM image)", launch.FormatDocker),
	huh.NewOption("Kubernetes Deployment and Service", launch.FormatK8s),
	huh.NewOption("probe script: measures vLLM on the GPU", launch.FormatProbe),
}

// formatOptions are the dialog's choices in lang (the values, gpuplan
// export's names, stay): a plan exports as its TOML alone; serving
// answers list the serving files.
func formatOptions(lang *i18n.Printer, serving bool, plan bool) []huh.Option[launch.Format] {
	opts := exportFormats
	switch {
	case plan:
		opts = exportFormats[:1]
	case serving:
		opts = serveFormats
	}
	out := make([]huh.Option[launch.Format], len(opts))
	for i, o := range opts {
		out[i] = huh.NewOption(lang.T(o.Key), o.Value)
	}
	return out
}

// newExportDialog asks for the format and the file name; cfg is the
// configuration (exportConfigOf), offer the offer launch files are for
// (nil: none), serving the serving request when the answers serve an LLM,
// pl a plan of phases to export instead (TOML only).
func newExportDialog(path string, cfg config.Config, offer *model.Offer, format launch.Format, theme huh.Theme, width int, lang *i18n.Printer, serving *serve.Serving, pl *plan.Plan) *dialog {
	return newExportDialogNamed(path, "", cfg, offer, format, theme, width, lang, serving, pl)
}

// newExportDialogNamed is newExportDialog with the name typed so far
// ("": the format's default name).
func newExportDialogNamed(tomlPath, name string, cfg config.Config, offer *model.Offer, format launch.Format, theme huh.Theme, width int, lang *i18n.Printer, serving *serve.Serving, pl *plan.Plan) *dialog {
	d := &dialog{kind: dialogExportName, path: name, cfg: cfg, offer: offer, format: format, width: width, tomlPath: tomlPath, lang: lang,
		serving: serving, plan: pl}
	T := lang.T
	if d.format == "" {
		d.format = launch.FormatTOML
	}
	d.shownFormat = d.format
	if d.path == "" {
		d.path = d.nameFor(d.format) // the TOML's name, or a launch format's own
	}
	sel := newSelect[launch.Format](theme).Title(T("Format")).Options(formatOptions(lang, serving != nil, pl != nil)...).Value(&d.format).
		Validate(func(f launch.Format) error {
			if f != launch.FormatTOML && d.plan != nil {
				return errors.New(T("a plan exports as one TOML; launch files are written per offer (ctrl+e on an offer)"))
			}
			if f != launch.FormatTOML && d.offer == nil {
				return errors.New(T("no offer fits yet: only the TOML can be exported"))
			}
			if f != launch.FormatTOML && d.noExport != "" {
				return errors.New(d.noExport)
			}
			return nil
		})
	in := huh.NewInput().Title(T("Export to")).Description(T("the file to write; ~ is your home")).
		Value(&d.path).Validate(func(s string) error {
		if strings.TrimSpace(s) == "" {
			return errors.New(d.lang.Sprintf("give a file name such as %s", d.fileName()))
		}
		return nil
	})
	d.fields = []huh.Field{sel, in}
	d.form = huh.NewForm(huh.NewGroup(sel, in)).WithShowHelp(false).WithKeyMap(dialogKeys()).WithTheme(theme).WithWidth(width)
	return d
}

// again is a new name-and-format dialog with d's answers, after a failed
// or declined write.
func (d *dialog) again(theme huh.Theme) *dialog {
	n := newExportDialogNamed(d.tomlPath, d.path, d.cfg, d.offer, d.format, theme, d.width, d.lang, d.serving, d.plan)
	n.cat, n.noExport, n.spotRate, n.note, n.noteWarn = d.cat, d.noExport, d.spotRate, d.note, d.noteWarn
	n.verdict, n.notes = d.verdict, d.notes
	return n
}

// payload returns the file to write for the chosen format, its name and
// permissions: the configuration TOML (with the offer's [launch] section,
// one config.Encode call), or a launch file for the offer, as gpuplan
// export writes them.
func (d *dialog) payload() (out []byte, path string, perm fs.FileMode, err error) {
	path, perm = expandHome(strings.TrimSpace(d.path)), d.perm()
	if d.plan != nil {
		out, err := plan.Encode(d.plan)
		return out, path, perm, err
	}
	if d.offer == nil || d.offer.Estimate == nil {
		if d.format != launch.FormatTOML {
			return nil, path, perm, errors.New("no offer fits: nothing to launch")
		}
		out, err := config.Encode(&d.cfg)
		return out, path, perm, err
	}
	if d.format != launch.FormatTOML && d.noExport != "" { // the form refuses it first (its format's Validate)
		return nil, path, perm, errors.New(d.noExport)
	}
	if d.serving != nil {
		out, err := d.servePayload()
		return out, path, perm, err
	}
	if d.noExport != "" { // the TOML, without the [launch] section gpuplan export refuses to write (a --tp fine-tune)
		out, err := config.Encode(&d.cfg)
		return out, path, perm, err
	}
	opt := launch.Options{Notes: slices.Clone(d.notes), NamedAs: d.cfg.Workload.Model}
	opt.Dataset = d.cfg.LaunchDataset // the loaded file's, as gpuplan export --config trains on it
	// Every format writes what gpuplan export --config writes for the
	// file, which gives the [export] options again: its name, model id,
	// script and the rest, not the defaults beside an [export] that names
	// others (walk54: a SkyPilot file from the dialog dropped the region
	// --region had pinned, and ran "any of 17 regions").
	if err := exportLaunchOptions(d.cfg.Export, &opt); err != nil {
		return nil, path, perm, err
	}
	opt.RegionGiven, opt.Where = d.regionScope(d.offer.Region)
	if o := d.offer; o.Pricing == model.Spot && d.spotRate != nil {
		r := d.spotRate(o.Instance.Provider, o.Region, o.Instance.Type)
		opt.SpotRate = &r
	}
	search := d.cfg.Query()                // the failover candidates' bounds, as gpuplan export --config's (walk54)
	if d.format == launch.FormatSkyPilot { // as gpuplan export: the next-best equivalent offers as failover candidates
		opt.Alternatives = launch.Alternatives(d.offer.Estimate.Workload, d.cat, d.offer, search)
	}
	lp, err := launch.NewPlan(d.offer.Estimate.Workload, d.offer, opt)
	if err != nil {
		return nil, path, perm, err
	}
	if d.format == launch.FormatTOML {
		c := d.cfg
		if c.Launch, err = lp.Launch(); err != nil {
			return nil, path, perm, err
		}
		out, err := config.Encode(&c)
		return out, path, perm, err
	}
	f, err := probescript.Render(lp, d.format)
	if errors.Is(err, launch.ErrNoStack) && d.offer.GPU.Vendor == "amd" {
		// The CLI's advice (--image) names a flag the configurator lacks.
		return nil, path, perm, model.Msg("%s is an AMD GPU: no CUDA build applies, so no %s can be written for it; "+
			"export the gpuplan TOML instead, and write a ROCm image (such as rocm/pytorch) in your launch file", d.offer.GPU.Name, model.Msg(formatName(d.format)))
	}
	if errors.Is(err, launch.ErrNoEntryPoint) {
		// The CLI's advice (--script) names a flag the configurator lacks.
		return nil, path, perm, model.Msg("%v; the configurator takes no script: export the gpuplan TOML, then run gpuplan export --config FILE --script YOUR_SCRIPT --format %s", err, d.format)
	}
	if err != nil {
		return nil, path, perm, err
	}
	return f, path, perm, nil
}

// askOverwrite turns the dialog into the overwrite question.
// regionScope is what the files of an offer in region say of regions, as
// gpuplan export --config says it: given, when [export] pinned it with
// --region (exportConfigOf keeps that only on its own offer), and where,
// the regions the answers' search allows, which bound the regions a
// price region names (walk54); none without a catalog.
func (d *dialog) regionScope(region string) (given bool, where model.RegionFilter) {
	given = d.cfg.Export != nil && d.cfg.Export.Region != "" && d.cfg.Export.Region == region
	if d.cat != nil {
		search := d.cfg.Search.Query(false)
		where = search.RegionFilter(d.cat)
	}
	return given, where
}

func (d *dialog) askOverwrite(theme huh.Theme) {
	d.kind, d.overwrite, d.err, d.writing = dialogExportOverwrite, false, nil, false
	T := d.lang.T
	d.form = huh.NewForm(huh.NewGroup(
		huh.NewConfirm().Title(report.Truncate(d.lang.Sprintf("Overwrite %s?", printable(d.path)), d.width-4)).
			Description(wrapCommands(T("it exists; no keeps it and asks for another name"), d.width-4)).
			Affirmative(T("overwrite")).Negative(T("no")).Value(&d.overwrite),
	)).WithShowHelp(false).WithKeyMap(dialogKeys()).WithTheme(theme).WithWidth(d.width)
}

// newQuitDialog asks before quitting with answers not exported; launch:
// the last export was a launch file, which does not reopen the answers
// (only the gpuplan TOML does, with --config).
func newQuitDialog(theme huh.Theme, width int, lang *i18n.Printer, launch bool) *dialog {
	d := &dialog{kind: dialogQuit, width: width, lang: lang}
	T := lang.T
	title, desc := T("Quit without exporting?"), T("the answers changed since the last export; ctrl+e exports them")
	if launch {
		title, desc = T("Quit without saving the answers?"), T("a launch file does not reopen them; ctrl+e exports the gpuplan TOML, which --config reopens")
	}
	// Wrapped here: huh sizes the group before it wraps a long
	// description, and the wrapped lines pushed the buttons out of it.
	d.form = huh.NewForm(huh.NewGroup(
		huh.NewConfirm().Title(wrapCommands(title, width-4)).
			Description(wrapCommands(desc, width-4)).
			Affirmative(T("quit")).Negative(T("stay")).Value(&d.quit),
	)).WithShowHelp(false).WithKeyMap(dialogKeys()).WithTheme(theme).WithWidth(width)
	return d
}

func (d *dialog) init() tea.Cmd { return d.form.Init() }

// done reports whether the form was answered.
func (d *dialog) done() bool { return d.form.State == huh.StateCompleted }

// update passes msg to the dialog's form; a key's focus moves are made
// at once (settle), so that the keys read with it go where it moved.
func (d *dialog) update(msg tea.Msg) tea.Cmd {
	path, format := d.path, d.format
	cmd := d.step(msg)
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		cmd = settle(cmd, d.step)
	}
	if d.path != path || d.format != format {
		// The last write's error was about the name or format it had:
		// once either is edited it no longer holds, and left in place it
		// would sit under the form's own next error ("give a file name").
		d.err = nil
	}
	return cmd
}

func (d *dialog) step(msg tea.Msg) tea.Cmd {
	f, cmd := d.form.Update(msg)
	d.form = f.(*huh.Form)
	if d.followFormat() {
		f, c := d.form.Update(refreshMsg{}) // the page's view is built in Update: show the new name now
		d.form, cmd = f.(*huh.Form), tea.Batch(cmd, c)
	}
	return cmd
}

// formatFileName is launch format f's own default file name, as gpuplan
// export suggests it: a serving deployment's when the dialog's answers
// serve an LLM (launch.Format.ServeFileName: gpuplan-vllm-serve.sh for the
// vllm serve script), else a job's (launch.Format.FileName:
// gpuplan-k8s.yaml); "" for the TOML.
func (d *dialog) formatFileName(f launch.Format) string {
	if d.serving != nil {
		return f.ServeFileName()
	}
	return f.FileName()
}

// fileName is the bare file name the dialog writes by default, and
// suggests in a directory given as the name: a plan's
// (defaultPlanExport's gpuplan-plan.toml), else the format's own
// (formatFileName), or the TOML's gpuplan.toml.
func (d *dialog) fileName() string {
	if d.plan != nil {
		return filepath.Base(defaultPlanExport)
	}
	if n := d.formatFileName(d.format); n != "" {
		return n
	}
	return filepath.Base(defaultExport)
}

// nameFor is the default file name of format f, in the working directory.
func (d *dialog) nameFor(f launch.Format) string {
	if n := d.formatFileName(f); n != "" {
		return "./" + n
	}
	return d.tomlPath
}

// followFormat sets the name to the format's default when the format
// changed and the name was the old format's default (a name typed by the
// user stays), and shows it in the input; it reports a change of name.
func (d *dialog) followFormat() (changed bool) {
	if d.kind != dialogExportName || d.format == d.shownFormat {
		return false
	}
	if strings.TrimSpace(d.path) == d.nameFor(d.shownFormat) {
		changed = true
		d.path = d.nameFor(d.format)
		if in, ok := d.fields[1].(*huh.Input); ok {
			empty := "" // through empty, so the cursor lands at the end
			in.Value(&empty)
			in.Value(&d.path)
		}
	}
	d.shownFormat = d.format
	return changed
}

// toName focuses the file name (after "no" to overwriting, or a failed
// write: the format is already chosen).
func (d *dialog) toName() tea.Cmd {
	return tea.Batch(d.init(), d.form.NextField())
}

// formatName is how the dialog lists format f.
func formatName(f launch.Format) string {
	for _, o := range exportFormats {
		if o.Value == f {
			return o.Key
		}
	}
	return string(f)
}

// view draws the dialog in at most height lines: when the error under
// the form would push the border off the screen, the form loses lines
// from its top (the format list; the focus is on the name below it).
func (d *dialog) view(st *report.Styles, height int) string {
	title := map[dialogKind]string{dialogExportName: "Export", dialogExportOverwrite: "Export", dialogQuit: "Quit"}[d.kind]
	form := d.form.View()
	var errText string
	if d.err != nil {
		errText = "\n" + st.Bad.Render(wrapCommands("✗ "+printable(errTextIn(d.lang, d.err)), d.width))
	}
	var note string
	if d.note != "" && d.kind != dialogQuit {
		style := st.Muted
		if d.noteWarn {
			style = st.Warn
		}
		note = style.Render(wrapCommands(d.note, d.width)) + "\n"
	}
	if d.verdict != "" && d.kind != dialogQuit {
		note += st.Warn.Render(wrapCommands(d.verdict, d.width)) + "\n"
	}
	if room := height - st.Dialog.GetVerticalFrameSize() - 1 - lipgloss.Height(errText) + btoi(errText != "") - lipgloss.Height(note) + btoi(note != ""); room > 0 {
		if lines := strings.Split(form, "\n"); len(lines) > room {
			form = strings.Join(lines[len(lines)-room:], "\n")
		}
	}
	return st.Dialog.Render(st.Heading.Render(d.lang.T(title)) + "\n" + note + form + errText)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// flagArg is a command-line flag and its value ("--config FILE"), which
// wrapCommands keeps on one line.
var flagArg = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|\s)(gpuplan|--[a-z][a-z-]*) ([^\s-][^\s]*)`) }) // compiled on first use, not at every start

// wrapCommands wraps s at width breaking only at spaces, never inside a
// flag ("--" then "-script") nor between a flag and its value or
// "gpuplan" and its command, so a suggested command copies whole.
func wrapCommands(s string, width int) string {
	const nbsp = "\u00a0"
	glued := flagArg().ReplaceAllString(s, "$1$2"+nbsp+"$3")
	glued = flagArg().ReplaceAllString(glued, "$1$2"+nbsp+"$3") // overlapping pairs: "gpuplan export --config FILE"
	var lines []string
	line := ""
	for _, w := range strings.Split(glued, " ") { // ansi.Wordwrap breaks after a hyphen too
		switch {
		case line == "":
			line = w
		case ansi.StringWidth(line)+1+ansi.StringWidth(w) <= width:
			line += " " + w
		default:
			lines, line = append(lines, line), w
		}
	}
	lines = append(lines, line)
	out := ansi.Hardwrap(strings.Join(lines, "\n"), max(width, 1), false) // a word wider than the dialog
	return strings.ReplaceAll(out, nbsp, " ")
}

// writeConfig writes data to path in a command: no file I/O in Update.
// A directory given as path is told to take name in it (fileName).
func writeConfig(path string, data []byte, perm fs.FileMode, overwrite bool, name string) tea.Cmd {
	return func() tea.Msg {
		abs, err := filepath.Abs(path)
		if err != nil {
			abs = path
		}
		err = atomicfile.WriteFileAtomicNamed(abs, data, perm, overwrite, name)
		switch {
		case errors.Is(err, atomicfile.ErrFileExists):
			return fileExistsMsg{abs}
		case err != nil:
			return exportErrMsg{err}
		}
		return exportedMsg{abs}
	}
}

// exportConfig is the file to write: exportConfigOf encoded.
func exportConfig(a *answers, r *result, picked *model.Offer, asOf string) ([]byte, error) {
	c, err := exportConfigOf(a, r, picked, asOf)
	if err != nil {
		return nil, err
	}
	return config.Encode(&c)
}

// exportConfigOf is the configuration to write: the answers, the estimate
// and the offer picked (the one in view, else the best), checked so that
// it encodes.
func exportConfigOf(a *answers, r *result, picked *model.Offer, asOf string) (config.Config, error) {
	c, err := a.config()
	if err != nil {
		return c, model.Msg("fix the answers first: %v", err) // messages: the footer says them in the reader's language
	}
	if picked == nil {
		picked = r.best()
	}
	// Serving: the memory is vLLM's layout (the plan), not the batch
	// estimate, and an offer's "job" is a million output tokens, so neither
	// is written as a training job's; the command line's serving export
	// writes neither either.
	serving := r != nil && r.serve != nil
	if r.ok() && !serving {
		e := r.est
		if picked != nil && picked.Estimate != nil {
			e = picked.Estimate
		}
		c.Estimate = config.NewEstimateSummary(e)
	}
	if picked != nil {
		c.Selection = config.NewSelection(picked, asOf)
		if serving {
			c.Selection.JobHours, c.Selection.JobUSD = 0, 0
		}
	}
	if e := c.Export; e != nil && e.Region != "" && c.Selection != nil && c.Selection.Region != e.Region {
		// --region named the offer the file was exported on; another
		// offer is picked now, whose region nobody named: export --config
		// would pin the old one (walk53).
		e.Region = "" // c.Export is the answers' clone (answers.config)
		if e.IsZero() {
			c.Export = nil
		}
	}
	if err := c.Validate(); err != nil {
		return c, model.Msg("cannot export: %v", err)
	}
	return c, nil
}

// exportLaunchOptions sets opt from a loaded file's [export] table, the
// options gpuplan export was given, as export --config applies them
// (ui/cli applyExportOptions, exportOptions); nil leaves opt as it is.
func exportLaunchOptions(o *config.ExportOptions, opt *launch.Options) error {
	if o.IsZero() {
		return nil
	}
	opt.Name, opt.ModelID, opt.Script, opt.DiskGB = o.Name, o.ModelID, o.Script, o.DiskGB
	opt.Image, opt.Wheel, opt.Bucket, opt.OutputClaim = o.Image, o.Wheel, o.Bucket, o.K8sPVC
	if o.ScriptArgs != nil {
		words, err := shlex.Split(*o.ScriptArgs)
		if err != nil {
			return model.Msg("export.script_args: %v (quote as in a shell)", err)
		}
		opt.ScriptArgs = words // non-nil: "" passes none
	}
	switch strings.ToLower(strings.TrimSpace(o.K8sKind)) {
	case "trainjob":
		opt.Kubernetes = launch.KindTrainJob
	case "pytorchjob":
		opt.Kubernetes = launch.KindPyTorchJob
	}
	opt.CheckpointWriteBytesPerSecond = o.CheckpointWriteGBps * 1e9
	return nil
}

// perm is the permission of the file being written: scripts are executable.
func (d *dialog) perm() fs.FileMode {
	if d.format == launch.FormatTorchrun || d.format == launch.FormatDocker {
		return 0o755
	}
	return 0o644
}
