package tui

import (
	"cmp"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"sync/atomic"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/plan"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/report"
)

// Layout limits: below minWidth × minHeight the screen asks for more
// room; from wideWidth the panel sits beside the form, else under it.
const (
	minWidth, minHeight = 60, 20
	wideWidth           = 100
)

// screen is what fills the body.
type screen int

const (
	screenWizard screen = iota // the questions and the live panel
	screenOffers               // the table of all offers
	screenDetail               // one offer
	screenBrowse               // the market, without a workload (browse.go)
	screenPlan                 // the plan's phases (phases.go)
)

// crashInfo is a panic caught in Update, View or a command; Run reports it
// after the terminal is restored.
type crashInfo struct {
	value any
	stack []byte
}

// viewCache is the last frame View drew and the state (app.gen) it drew;
// shared by pointer across model copies.
type viewCache struct {
	gen  uint64
	view tea.View
}

// gens numbers app states (app.gen).
var gens atomic.Uint64

// crashBox holds the first crash; shared by pointer across model copies,
// since View's copy is thrown away.
type crashBox struct{ info *crashInfo }

// app is the configurator's root model, the only tea.Model: it routes keys
// to the focused component, sizes to all, results to the panel and table.
type app struct {
	// gen names the state View draws: a fresh number after each Update,
	// the same after a key the browser's full filter drops (keyDropped),
	// so View gives the frame it drew (views) at once. 200,000 keys past
	// the filter's cap each re-rendered the screen, ~1 ms a key (attack
	// round 15, finding 10).
	gen             uint64
	keyDropped      bool
	sameAsLastFrame bool // the last Update dropped a key: View may give views' frame
	views           *viewCache
	cat             *model.Catalog
	opts            Options
	a               *answers
	st              *report.Styles
	lang            *i18n.Printer // the screens' language (nil: English)
	theme           huh.Theme
	keys            keyMap
	wiz             *wizard
	panel           panel
	offers          offersView
	detail          detailView
	browse          browseView
	from            screen // the screen the browser returns to
	plan            *planView
	dialog          *dialog
	notice          *notice // the catalog's warnings over the first screen, until a key (notice.go)
	footer          footer

	screen        screen
	formErr       bool           // the footer shows a field's error
	filter        *filterSession // a select's filter is open (filter.go)
	resetShown    bool           // the footer says which answers followed a change (coherent.go)
	width, height int
	sized         bool // a window size arrived
	fullHelp      bool
	sortNote      string // the footer's "sorting by …", cleared when the result comes
	ascii         bool   // the locale is not UTF-8: the frame is drawn in ASCII

	seq      int     // of the last recompute started
	lastKey  string  // answers the last recompute was for
	res      *result // the last result applied
	savedKey string  // answers at start or at the last TOML export
	// launchOnly: a launch file (SkyPilot, script, Kubernetes) was exported
	// since the answers were last saved as TOML; it does not reopen them,
	// so quitting still asks, and says so (issue 31).
	launchOnly bool
	// exportWait: ctrl+e came while the estimate of the answers was on
	// its way (a pick in the market browser changes the GPUs at once, the
	// offers a moment later); the export opens when it is in (resultMsg),
	// so the file's [workload] and [selection] are of the same answers.
	// Any other key drops the wait.
	exportWait bool
	// exportRefused is the footer's line of ctrl+e refused for an invalid
	// answer: the form's messages leave it, the next key replaces it.
	exportRefused string
	// kept is the offer the opened file's [selection] picked (or the
	// last TOML export's): while the answers are keptKey, and the result
	// ranks it, it is the offer chosen (keptOffer): the panel shows it,
	// ctrl+o opens on it, ctrl+e exports it. keptGone: the footer said
	// once that it is no longer offered.
	kept     *config.Selection
	keptKey  string
	keptGone bool
	// keptPhase names the plan's phase whose pinned offer kept is (opened
	// from the plan page or with --phase); "" when kept is a file's
	// [selection] or an export's. While the phase's offer is not the one
	// chosen, the footer and the export dialog say the export is for the
	// ranking's pick instead (gpuplan export --config PLAN --phase NAME
	// exports the pin itself).
	keptPhase string
	async     bool // recompute in a command (false in tests)
	hf        *hfReader
	crash     *crashBox
	stops     *stopper   // ctrl+z and kill -TSTP; shared by copies
	widths    *widthMemo // of the lines of the last frames (frame.go)
}

// newApp builds the configurator with answers from opts.Config or the
// defaults, and computes the first estimate synchronously so that the
// first frame already shows an answer.
func newApp(cat *model.Catalog, opts Options, st *report.Styles, theme huh.Theme) app {
	cat.EnsureIndex() // before any command goroutine reads the lookup tables
	a := defaultAnswers(cat)
	var pin *config.Selection // a plan's phase: its pinned offer (phasePin)
	var pinNote model.Message
	if opts.Config != nil {
		c := *opts.Config
		if opts.Plan != nil {
			if i := slices.IndexFunc(opts.Plan.Phases, func(p plan.Phase) bool { return p.Name == opts.Phase }); i >= 0 {
				pin, pinNote = phasePin(cat, &c, &opts.Plan.Phases[i])
			}
		}
		a = answersFromConfig(cat, &c)
	}
	lang := opts.printer()
	m := app{cat: cat, opts: opts, a: a, st: st, lang: lang, theme: theme, keys: localKeys(lang), async: true,
		hf: &hfReader{read: opts.ReadHFConfig}, crash: &crashBox{}, stops: newStopper(), widths: newWidthMemo(), views: &viewCache{}}
	m.width, m.height = 100, 30 // until the terminal says
	if opts.width > 0 && opts.height > 0 {
		m.width, m.height = opts.width, opts.height
	}
	// width 0: the form is sized once, by the layout below
	m.wiz = newWizard(a, cat, m.hf.check(), theme, 0, 20, lang)
	m.panel = panel{st: st, lang: lang, cache: &panelCache{}, probes: opts.Probes}
	m.offers = newOffersView(st, m.keys.Table)
	m.offers.lang = lang
	m.detail = newDetailView(st, m.keys.Table)
	m.detail.lang = lang
	m.detail.dec = decider{cat: cat, rate: opts.SpotRate}
	m.browse = newBrowseView(st, cat)
	m.plan = &planView{path: opts.PlanPath, lang: lang, check: opts.CheckPlan}
	if opts.Plan != nil {
		m.plan.plan = *opts.Plan
	}
	m.footer = newFooter(st)
	if i := slices.IndexFunc(m.plan.plan.Phases, func(p plan.Phase) bool { return p.Name == opts.Phase }); opts.Phase != "" && i >= 0 {
		m.plan.cursor = i
		if !opts.PhaseNamed && len(m.plan.plan.Phases) > 1 {
			m.footer.say(lang.Sprintf("opened phase %q of %d (--phase NAME opens another; ctrl+t lists them, enter opens one)", opts.Phase, len(m.plan.plan.Phases)), false)
		}
		if !pinNote.IsZero() {
			m.footer.say(printable(lang.Message(pinNote)), false) // the answers' other GPU count, as estimate --phase says it
		}
	}
	m.browse.localize(lang)
	m.notice = newNotice(opts.Warnings)
	m.lastKey = a.key()
	m.savedKey = m.lastKey
	switch {
	case pin != nil: // the phase's pinned offer is the one chosen while it ranks (phases.go)
		m.kept, m.keptKey, m.keptPhase = pin, m.lastKey, opts.Phase
	case opts.Config != nil && opts.Config.Selection != nil && opts.Plan == nil:
		sel := *opts.Config.Selection
		m.kept, m.keptKey = &sel, m.lastKey
	}
	cfg, err := a.config()
	func() {
		defer func() {
			if r := recover(); r != nil {
				m.recordCrash(r) // reported by Run; the program quits at once
				m.res = &result{err: fmt.Errorf("internal error: %v", r)}
			}
		}()
		m.res = computeKept(cat, cfg, err, m.hf, 0, opts.SpotRate, m.keptFor(m.lastKey))
	}()
	opened := m.footer.status // "opened phase … of 2": it stays; the export dialog says when the phase's offer is not the one exported
	m.apply(m.res)
	if opened != "" && m.keptGone {
		m.footer.say(opened, false)
	}
	if m.learnHF(m.res) {
		// Opened with a config.json: the file's batch and length stand;
		// the model's defaults apply from the next change of model on.
		m.a.fill.modelKey, m.a.fill.adapters = modelHF+":"+m.a.hf.path, m.a.Task.Adapters()
		m.a.fill.vision = m.a.hf.arch.Family.Vision()
		m.lastKey = m.a.key()
		m.savedKey = m.lastKey
		if m.kept != nil {
			m.keptKey = m.lastKey
			m.panel.chosen, m.panel.chosenPhase = m.keptOffer(), m.keptPhase
		}
	}
	m.layout()
	return m
}

func (m app) Init() tea.Cmd {
	if m.crash.info != nil {
		return tea.Quit
	}
	// The background is asked once, here, and only here: the answer
	// (BackgroundColorMsg) restyles the screen when it comes; until then,
	// and on terminals that never answer, the styles are for a dark one.
	return tea.Batch(m.wiz.form.Init(), tea.RequestBackgroundColor)
}

// Update handles one message. A panic here is caught: the program quits
// cleanly and Run reports it.
func (m app) Update(msg tea.Msg) (res tea.Model, cmd tea.Cmd) {
	gen := m.gen
	defer func() {
		if r := recover(); r != nil {
			m.recordCrash(r)
			res, cmd = m, tea.Quit
		}
		if a, ok := res.(app); ok {
			if a.keyDropped { // nothing changed: the frame drawn stands
				a.keyDropped, a.sameAsLastFrame, a.gen = false, true, gen
			} else {
				a.sameAsLastFrame, a.gen = false, gens.Add(1)
			}
			res = a
		}
	}()
	if m.crash.info != nil {
		return m, tea.Quit
	}
	if msg = typedSafe(msg); msg == nil {
		return m, nil // a key that types only invisible characters
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && k.Code == tea.KeyEscape && k.Mod == tea.ModAlt {
		// Two escapes in one read ("\x1b\x1b": a quick double press, tmux
		// send-keys Escape Escape) reach us as one alt+esc, the terminal
		// convention for alt (ultraviolet's decoder reads ESC + key as
		// that key with alt). No binding here is alt+esc, so it was
		// dropped: it is two escapes, each going back one level.
		res, cmd = m.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
		res, cmd2 := res.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
		return res, tea.Batch(cmd, cmd2)
	}
	res, cmd = m.update(msg)
	next := res.(app)
	if next.keyDropped {
		return next, cmd // nothing changed (browseView.full)
	}
	next.layout() // cheap when nothing changed size
	if c := next.wiz.takePending(); c != nil {
		cmd = tea.Batch(cmd, c)
	}
	return next, cmd
}

func (m app) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height, m.sized = msg.Width, msg.Height, true
		m.layout()
		return m, nil
	case tea.BackgroundColorMsg:
		m.restyle(msg.IsDark())
		return m, nil
	case resultMsg:
		if msg.res.seq != m.seq { // older results are stale: dropped
			return m, nil
		}
		m.apply(msg.res)
		if m.learnHF(msg.res) { // a config.json was read: its model's defaults
			m.afterForm()
			return m, m.recompute()
		}
		if m.exportWait && m.dialog == nil && m.notice == nil {
			m.exportWait = false
			return m.openExport()
		}
		return m, nil
	case browsedMsg: // browse.go
		cmd := m.browse.receive(msg)
		m.layout()
		return m, cmd
	case crashMsg:
		if m.crash.info == nil {
			m.crash.info = msg.info
		}
		return m, tea.Quit
	case exportedMsg:
		if d := m.dialog; d == nil || d.format == launch.FormatTOML || d.plan != nil {
			m.savedKey, m.launchOnly = m.a.key(), false              // only the TOML reopens the answers (--config)
			if d != nil && d.plan == nil && d.cfg.Selection != nil { // what the file reopens to is the offer chosen here too
				sel := *d.cfg.Selection
				m.kept, m.keptKey, m.keptGone, m.keptPhase = &sel, m.a.key(), false, ""
				m.panel.chosen, m.panel.chosenPhase, m.panel.chosenExported = m.keptOffer(), m.keptPhase, true
			}
		} else {
			m.launchOnly = true // a launch file does not: the answers are still to save
		}
		said := m.lang.Sprintf("exported to %s", msg.path)
		if d := m.dialog; d != nil && d.plan == nil && d.offer != nil && d.offer.Verdict == model.VerdictBorderline {
			said += " · " + report.BorderlineNoteShort(m.lang, []model.Offer{*d.offer}) // the offer in the file may run out of memory
		}
		m.dialog = nil
		m.plan.exported() // phases.go
		m.footer.say(said, false)
		m.layout()
		return m, nil
	case fileExistsMsg:
		m.footer.say("", false)
		if m.dialog != nil {
			m.dialog.path = msg.path
			m.dialog.askOverwrite(m.theme)
			return m, m.dialog.init()
		}
		return m, nil
	case exportErrMsg:
		m.footer.say("", false)
		if m.dialog != nil {
			old := m.dialog
			m.dialog = old.again(m.theme)
			m.dialog.err = msg.err
			return m, m.dialog.toName()
		}
		m.footer.say(errTextIn(m.lang, msg.err), true)
		return m, nil
	case tea.KeyPressMsg:
		before, said := m.screen, m.footer.status
		next, cmd := m.key(msg)
		if n, ok := next.(app); ok && n.screen != before && n.footer.status == said && !n.footer.isErr {
			n.footer.say("", false) // what happened on the screen left ("exported to …") is not news on this one
			next = n
		}
		return next, cmd
	case tea.PasteMsg:
		if m.screen == screenPlan && m.plan.prompting() && m.dialog == nil && m.notice == nil {
			return m, m.plan.paste(msg) // the phase's name or months (bounded by their CharLimit)
		}
		if m.screen == screenBrowse && m.dialog == nil && m.notice == nil && !m.tooSmall() {
			var cmd tea.Cmd
			m.browse, cmd = m.browse.update(msg) // the filter line takes it (browse.go)
			m.layout()
			return m, cmd
		}
	}
	// Other messages are huh's own (field updates, options loaded, page
	// moves): they belong to the dialog while one is open, else the form.
	if m.dialog != nil {
		return m.dialogDone(m.dialog.update(msg))
	}
	return m.updateForm(msg)
}

func (m app) recordCrash(r any) {
	if m.crash.info == nil {
		m.crash.info = &crashInfo{value: r, stack: debug.Stack()}
	}
}

// key routes a key: dialogs first, then the keys that work everywhere,
// then the screen's own.
func (m app) key(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if msg.String() == "ctrl+z" { // as in a shell: stop here, fg comes back to the same screen
		return m, m.stops.suspend
	}
	if m.exportWait && !key.Matches(msg, m.keys.Export) { // another key: the user moved on
		m.exportWait = false
		if m.footer.status == m.lang.T(exportWaitNote) {
			m.footer.say("", false)
		}
	}
	if m.tooSmall() {
		if msg.String() == "ctrl+c" || msg.String() == "q" {
			return m, tea.Quit // nothing can be asked on a screen this small
		}
		return m, nil
	}
	if m.notice != nil && msg.String() != "ctrl+c" { // any key closes the warnings; ctrl+c still quits
		m.notice = nil
		m.layout()
		return m, nil
	}
	if m.dialog != nil {
		return m.dialogKey(msg)
	}
	if m.screen == screenPlan && m.plan.prompting() && msg.String() != "ctrl+c" { // phases.go: the name prompt takes letters
		return m.planKey(msg)
	}
	typing := m.screen == screenWizard && m.wiz.typing() || m.screen == screenBrowse // the filter line takes letters
	switch {
	case msg.String() == "ctrl+c" || key.Matches(msg, m.keys.Quit) && !typing:
		if m.a.key() == m.savedKey && !m.plan.dirty {
			return m, tea.Quit
		}
		m.dialog = newQuitDialog(m.theme, m.dialogWidth(), m.lang, m.launchOnly)
		return m, m.dialog.init()
	case key.Matches(msg, m.keys.Export):
		return m.openExport()
	case slices.Contains(m.keys.Export.Keys(), msg.String()) && m.screen != screenBrowse:
		// ctrl+e is off while an answer does not parse (layout): say
		// which, rather than nothing.
		if _, err := m.a.config(); err != nil {
			where := m.invalidPage()
			if where == "" {
				where = m.lang.T("the answers")
			}
			m.exportRefused = m.lang.Sprintf("✗ nothing exported: fix %s first (%s)", where, errIn(m.lang, err))
			m.footer.say(m.exportRefused, true)
			m.formErr = true
			return m, nil
		}
	case m.fullHelp && key.Matches(msg, m.keys.Lang) && !typing:
		return m.switchLang() // lang.go
	case key.Matches(msg, m.keys.Help) && !typing,
		msg.String() == "esc" && m.fullHelp && !(m.screen == screenWizard && m.filtering()):
		// esc closes the full help first, as huh and bubbles close an
		// overlay, and stays on the screen; an open filter keeps its esc.
		m.fullHelp = !m.fullHelp
		m.layout()
		return m, nil
	}
	if key.Matches(msg, m.keys.Browse) {
		return m.toBrowse()
	}
	if key.Matches(msg, m.keys.Plan.Open) { // phases.go
		return m.toPlan()
	}
	switch m.screen {
	case screenPlan:
		return m.planKey(msg)
	case screenBrowse:
		return m.browseKey(msg)
	case screenOffers:
		switch {
		case key.Matches(msg, m.keys.Back):
			return m.toWizard()
		case key.Matches(msg, m.keys.Open):
			if o := m.offers.selected(); o != nil {
				m.footer.say("", false)
				m.screen = screenDetail
				m.detail.show(o, m.res, m.cat.AsOf)
				m.layout()
			}
			return m, nil
		case key.Matches(msg, m.keys.Sort):
			m.a.extra.Sort = m.offers.nextSort()
			m.offers.sort, m.offers.resorted = m.a.extra.Sort, true
			m.sortNote = m.lang.Sprintf("sorting by %s…", report.SortName(m.lang, m.a.extra.Sort))
			m.footer.say(m.sortNote, false)
			return m, m.recompute()
		case key.Matches(msg, m.keys.Provider):
			m.offers.cycleProvider()
			return m, nil
		case key.Matches(msg, m.keys.Regions):
			m.offers.toggleRegions()
			return m, nil
		case key.Matches(msg, m.keys.Plan.Add):
			return m.addPhase(m.offers.selected())
		}
		var cmd tea.Cmd
		m.offers, cmd = m.offers.update(msg)
		return m, cmd
	case screenDetail:
		if key.Matches(msg, m.keys.Back) {
			m.screen = screenOffers
			m.layout()
			return m, nil
		}
		if key.Matches(msg, m.keys.Plan.Add) {
			return m.addPhase(m.detail.offer)
		}
		var cmd tea.Cmd
		m.detail, cmd = m.detail.update(msg)
		return m, cmd
	}
	switch {
	case key.Matches(msg, m.keys.Offers):
		return m.toOffers()
	case msg.String() == "esc" && !m.filtering():
		if err := m.wiz.backError(true); err != nil {
			return m.backAnyway(err)
		}
		cmd := m.wiz.form.PrevGroup()
		m.afterForm()
		return m, tea.Batch(cmd, m.recompute())
	case m.wiz.isPrev(msg) && !m.filtering():
		if err := m.wiz.backError(m.wiz.onFirstField()); err != nil {
			return m.refuseBack(err)
		}
	}
	return m.updateForm(msg)
}

// refuseBack keeps the focus on an invalid answer and says why the form
// does not move back: huh would blur the field and then refuse to leave
// the page, leaving no field focused.
func (m app) refuseBack(err error) (tea.Model, tea.Cmd) {
	m.footer.say(m.lang.Sprintf("✗ %s; fix it, or esc goes back keeping it", errIn(m.lang, err)), true)
	m.formErr = true
	return m, nil
}

// backAnyway goes to the previous page although an answer on this one
// is invalid (huh refuses to leave such a page): the form is rebuilt on
// the previous page, the answer stays as typed, and the panel and the
// footer say what to fix (export waits for it).
func (m app) backAnyway(err error) (tea.Model, tea.Cmd) {
	target := -1
	for i := m.wiz.focusedPage() - 1; i >= 0; i-- {
		if p := m.wiz.pages[i]; p.hide == nil || !p.hide() {
			target = i
			break
		}
	}
	if target < 0 {
		return m.refuseBack(err)
	}
	m.wiz = newWizard(m.a, m.cat, m.hf.check(), m.theme, m.wiz.width, m.wiz.height, m.lang)
	cmd := m.wiz.form.goTo(target)
	m.afterForm()
	m.footer.say(m.lang.Sprintf("✗ %s (kept as typed: fix it before exporting)", errIn(m.lang, err)), true)
	m.formErr = true
	m.layout()
	return m, cmd
}

// filtering reports whether esc belongs to the focused field (closing
// or clearing a search), not to us.
func (m app) filtering() bool {
	if _, ok := m.wiz.form.GetFocusedField().(*huh.Input); ok {
		return false
	}
	return m.wiz.typing()
}

func (m app) dialogKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	d := m.dialog
	if msg.String() == "ctrl+c" && d.kind == dialogQuit {
		return m, tea.Quit // asked twice
	}
	if msg.String() == "esc" || msg.String() == "ctrl+c" {
		if d.kind == dialogExportOverwrite { // back to the name, keeping it
			m.dialog = d.again(m.theme)
			return m, m.dialog.toName()
		}
		m.dialog = nil
		m.wiz.regionGen++ // options computed while the dialog was open were not delivered
		m.layout()
		return m, refresh
	}
	return m.dialogDone(d.update(msg))
}

// dialogDone acts on an answered dialog; the form answers on huh's own
// messages (a page move after enter), not only on keys.
func (m app) dialogDone(cmd tea.Cmd) (tea.Model, tea.Cmd) {
	d := m.dialog
	if !d.done() {
		return m, cmd
	}
	if d.writing { // answered and being written: one write, whatever else comes
		return m, nil
	}
	switch d.kind {
	case dialogQuit:
		if d.quit {
			return m, tea.Quit
		}
		m.dialog = nil
		m.layout()
		return m, nil
	case dialogExportOverwrite:
		if d.overwrite {
			d.writing = true
			m.footer.say(m.lang.Sprintf("writing %s…", d.path), false)
			return m, writeConfig(d.path, d.out, d.perm(), true, d.fileName())
		}
		m.dialog = d.again(m.theme)
		return m, m.dialog.toName()
	}
	out, path, perm, err := d.payload()
	if err != nil {
		m.footer.say("", false) // an "exported to" from before would mislead
		m.dialog = d.again(m.theme)
		m.dialog.err = err
		return m, m.dialog.init()
	}
	d.path, d.out, d.writing = path, out, true
	m.footer.say(m.lang.Sprintf("writing %s…", path), false)
	return m, writeConfig(path, out, perm, false, d.fileName())
}

// openExport opens the export dialog for the offer in view (or the best).
func (m app) openExport() (tea.Model, tea.Cmd) {
	if m.screen == screenPlan {
		return m.openPlanExport() // phases.go: the whole plan
	}
	m.plan.exporting = false
	if m.res == nil || m.res.seq != m.seq {
		// The result on screen is of older answers: exported now, the
		// file's [workload] (the answers) and its [selection] (that
		// result's offer) would disagree, and reloading it would show
		// another job. The export opens when the estimate is in.
		m.exportWait = true
		m.footer.say(m.lang.T(exportWaitNote), false)
		return m, nil
	}
	var picked *model.Offer
	switch m.screen {
	case screenOffers:
		picked = m.offers.selected()
	case screenDetail:
		picked = m.detail.offer
	}
	if picked != nil {
		// The offer as the current result ranks it: one shown before the
		// result changed (a sort, a late estimate) has older figures.
		if picked = m.res.same(picked); picked == nil {
			m.footer.say(m.lang.T("the offers changed since this one was shown: esc, then pick it again"), true)
			return m, nil
		}
	}
	if picked != nil {
		// An offer chosen on the offers screen or its detail whose
		// serving replica spans instances: vLLM runs it on a Ray cluster,
		// which gpuplan does not write (serve.Plan.NoExport, as recommend
		// marks it and gpuplan export refuses it). Say so, write nothing.
		if ne := notExported(m.lang, m.res, picked); ne != "" {
			m.footer.say("✗ "+ne, true)
			return m, nil
		}
	}
	chosen := picked != nil // on the offers or a detail: the reader's own pick
	if picked == nil {
		picked = m.keptOffer()
	}
	cfg, err := exportConfigOf(m.a, m.res, picked, m.cat.AsOf)
	if err != nil {
		m.footer.say(errTextIn(m.lang, err), true)
		return m, nil
	}
	path := m.opts.ConfigPath
	if path == "" || !typable(path) {
		path = defaultExport
	}
	if picked == nil {
		picked = cmp.Or(m.keptOffer(), m.res.best()) // the file's pick, while it stands
	}
	m.dialog = newExportDialog(path, cfg, picked, launch.FormatTOML, m.theme, m.dialogWidth(), m.lang, m.res.serving, nil)
	m.dialog.cat, m.dialog.spotRate = m.cat, m.opts.SpotRate
	if !chosen {
		m.dialog.note, m.dialog.noteWarn = m.phaseExportNote(picked)
	}
	if picked != nil && picked == m.keptOffer() {
		// The opened phase's pinned offer, from the questions or picked
		// on the offers: its files carry gpuplan plan's mark of the phase.
		m.dialog.verdict, m.dialog.notes = m.phaseVerdict()
	}
	if picked != nil && picked.Verdict == model.VerdictBorderline && m.dialog.verdict == "" {
		// The offer exported may run out of memory: said before it is
		// written, in recommend's words ("~ borderline: about 15% chance
		// of running out of memory"), and again once it is (exportedMsg).
		m.dialog.verdict = report.BorderlineNoteShort(m.lang, []model.Offer{*picked})
	}
	if picked != nil {
		// The form's pick (the best offer, or the file's) may be such an
		// offer: its answers still save as the TOML; a launch format says why not.
		m.dialog.noExport = notExported(m.lang, m.res, picked)
	}
	if m.footer.status == m.lang.T(exportWaitNote) {
		m.footer.say("", false)
	}
	return m, m.dialog.init()
}

// notExported says why picked's launch files are not written, as
// gpuplan export refuses them: a serving replica across instances (a Ray
// cluster, report.NotExportedIn), or a training job split with tensor
// parallelism, which the Hugging Face Trainer the files start cannot run
// (launch.TrainingTPRefusal, with the ZeRO-3 and FSDP figures; walk49);
// "" when they are.
func notExported(lang *i18n.Printer, r *result, picked *model.Offer) string {
	if ne := report.NotExportedIn(lang, servePlanFor(r, picked)); ne != "" {
		return ne
	}
	if picked != nil && picked.Estimate != nil {
		if why := launch.TrainingTPRefusal(&picked.Estimate.Workload, picked.GPU); !why.IsZero() {
			return lang.Sprintf("not exported: %s", lang.Message(why))
		}
	}
	return ""
}

// phaseExportNote says, in the export dialog opened from the questions
// after a plan's phase was opened, which offer the files are for: the
// phase's pinned offer while it is the one chosen, else plainly the
// ranking's pick and not the phase's (gpuplan export --config PLAN
// --phase NAME exports the phase's or says why not), warn then. "" when no phase was opened.
func (m app) phaseExportNote(picked *model.Offer) (note string, warn bool) {
	s := m.kept
	if m.keptPhase == "" || s == nil {
		return "", false
	}
	typ := keptType(s) // "p4d.24xlarge ×2": the instances the phase rents
	if picked != nil && picked == m.keptOffer() {
		return printable(m.lang.Sprintf("for phase %q's offer: %s %s %s", m.keptPhase, s.Provider, typ, report.RegionIn(m.lang, s.Region))), false
	}
	if picked == nil {
		return printable(m.lang.Sprintf("not for phase %q's offer %s %s %s: no offer fits these answers", m.keptPhase, s.Provider, typ, report.RegionIn(m.lang, s.Region))), true
	}
	return printable(m.lang.Sprintf("for the ranking's pick %s %s %s, not phase %q's offer %s %s %s (gpuplan export --config PLAN --phase NAME exports the phase's, or says why it cannot)",
		picked.Instance.Provider, offerType(picked), report.RegionIn(m.lang, picked.Region), m.keptPhase, s.Provider, typ, report.RegionIn(m.lang, s.Region))), true
}

// keptType is the instance type of the offer kept, ×instances when it
// rents more than one, as the plan page names a phase's offer: the
// ranking's one p4d.24xlarge and a phase's two read the same (walk37).
func keptType(s *config.Selection) string {
	if s.Instances > 1 {
		return fmt.Sprintf("%s ×%d", s.InstanceType, s.Instances)
	}
	return s.InstanceType
}

// offerType is o's instance type, ×instances when it rents more than one.
func offerType(o *model.Offer) string {
	if o.Instances > 1 {
		return fmt.Sprintf("%s ×%d", o.Instance.Type, o.Instances)
	}
	return o.Instance.Type
}

// exportWaitNote is the footer's line while ctrl+e waits for the estimate.
const exportWaitNote = "estimating the answers: the export opens when the offers are in"

func (m app) dialogWidth() int { return max(min(m.width-8, 64), 20) }

// toOffers shows the table of all offers.
func (m app) toOffers() (tea.Model, tea.Cmd) {
	m.screen = screenOffers
	m.offers.setResult(m.res)
	m.offers.where = m.invalidPage()
	if o := m.keptOffer(); o != nil {
		m.offers.refresh(o) // the cursor on the file's pick
	}
	m.layout()
	return m, nil
}

// toWizard returns to the questions. A completed form is rebuilt at its
// last page (huh forms do not reopen), with every answer kept.
func (m app) toWizard() (tea.Model, tea.Cmd) {
	m.screen = screenWizard
	m.footer.say("", false)
	var cmd tea.Cmd
	if m.wiz.form.State != huh.StateNormal {
		m.wiz = newWizard(m.a, m.cat, m.hf.check(), m.theme, m.wiz.width, m.wiz.height, m.lang)
		cmd = m.wiz.skipToEnd()
	}
	m.layout()
	return m, cmd
}

// updateForm passes msg to the form, then keeps the answers consistent
// and starts a recompute if they changed.
func (m app) updateForm(msg tea.Msg) (tea.Model, tea.Cmd) {
	page, state := m.wiz.focusedPage(), m.wiz.form.State
	if _, key := msg.(tea.KeyPressMsg); key && m.resetShown && !m.formErr { // what was reset shows until the next key
		m.footer.say("", false)
		m.resetShown = false
	}
	var cmd tea.Cmd
	if k, ok := msg.(tea.KeyPressMsg); !ok {
		cmd = m.updateFormOnly(msg)
	} else if c, handled := m.filterKey(k); handled { // filter.go
		cmd = c
	} else if c, handled := m.endKey(k); handled {
		cmd = c
	} else {
		cmd = m.updateFormOnly(msg)
	}
	m.afterForm()
	// A page whose check fails is not left forward: the form steps back
	// to it (the check reads the value huh sets on leaving, so it runs
	// after the move). Pages with a check are never the last.
	var checkErr error
	if p := m.wiz.pages[page]; p.check != nil && m.wiz.focusedPage() > page {
		if checkErr = p.check(); checkErr != nil {
			for range m.wiz.pages {
				if m.wiz.focusedPage() <= page {
					break
				}
				cmd = tea.Batch(cmd, m.wiz.form.PrevGroup())
			}
			m.afterForm()
		}
	}
	// A field's error shows in the footer, which is always on screen (huh
	// puts it under the page, which a short terminal cuts off).
	if errs := m.wiz.form.Errors(); len(errs) > 0 || checkErr != nil {
		if checkErr == nil {
			checkErr = errs[0]
		}
		// Not over ctrl+e's refusal, which says the error too, on a
		// message that is no key (the cursor's blink): the next key's.
		if _, key := msg.(tea.KeyPressMsg); key || m.exportRefused == "" || m.footer.status != m.exportRefused {
			m.footer.say("✗ "+errIn(m.lang, checkErr), true)
		}
		m.formErr = true
	} else if _, key := msg.(tea.KeyPressMsg); m.formErr && key { // the next key clears it
		m.footer.say("", false)
		m.formErr = false
	}
	if m.wiz.regionsChanged {
		m.wiz.regionsChanged = false
		cmd = tea.Batch(cmd, refresh)
	}
	if state == huh.StateNormal && m.wiz.form.State == huh.StateCompleted { // enter on the last question (once: later messages find it completed)
		m.footer.say(m.lang.T("every question answered: these are all the offers"), false)
		next, c := m.toOffers()
		return next, tea.Batch(cmd, c, m.recompute())
	}
	return m, tea.Batch(cmd, m.recompute())
}

// refresh sends refreshMsg: the form's fields see the answers just
// reconciled (the region list follows the providers at once).
func refresh() tea.Msg { return refreshMsg{} }

// afterForm reconciles dependent answers (model defaults, stale regions)
// and shows changed answers in their inputs.
func (m *app) afterForm() {
	var focused *string
	f := m.wiz.form.GetFocusedField()
	for _, b := range m.wiz.inputs {
		if huh.Field(b.field) == f {
			focused = b.value
		}
	}
	if note := resetNote(m.lang, m.a.reconcile(m.cat, focused)); note != "" {
		m.footer.say(note, false)
		m.resetShown = true
	}
	m.wiz.sync()
}

// recompute starts a recompute when the answers changed; results come
// back as resultMsg tagged with the sequence number.
func (m *app) recompute() tea.Cmd {
	k := m.a.key()
	if k == m.lastKey {
		return nil
	}
	m.lastKey = k
	m.seq++
	cfg, err := m.a.config()
	seq, cat, hf, rate, kept := m.seq, m.cat, m.hf, m.opts.SpotRate, m.keptFor(k)
	if !m.async {
		r := computeKept(cat, cfg, err, hf, seq, rate, kept)
		m.apply(r)
		if m.learnHF(r) {
			m.afterForm()
			return m.recompute()
		}
		return nil
	}
	m.panel.pending = true
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = crashMsg{&crashInfo{value: r, stack: debug.Stack()}}
			}
		}()
		return resultMsg{computeKept(cat, cfg, err, hf, seq, rate, kept)}
	}
}

// learnHF keeps the architecture a recompute read from the config.json
// the answers name, and the precision it took from its dtype, and
// reports whether either is new. The architecture is kept also when the
// workload on it does not validate: the answers then follow its defaults
// (answers.reconcile), where the previous model's length past a BERT's
// 512 learned positions left the configurator refusing the file until
// the length was typed.
func (m *app) learnHF(r *result) bool {
	path := r.cfg.Workload.HFConfig
	if m.a.Model != modelHF || path == "" || path != m.a.hfPath() || r.hfModel.Family == "" {
		return false
	}
	// The precision the estimate took from the config.json's dtype (none
	// asked for: answers.checkpointPrecision) shows on the Precision page.
	followed := r.err == nil && r.cfg.Workload.Precision == "" && r.cfg.Workload.Task == m.a.Task && m.a.followCheckpoint(&r.workload)
	if m.a.hf.path == path {
		return followed
	}
	m.a.hf.path, m.a.hf.arch = path, r.hfModel
	return true
}

// invalidPage names the first question page with an answer its field or
// page check rejects ("question page 4 of 10: Batch and length"), or "".
func (m app) invalidPage() string {
	where, _ := m.firstInvalid()
	return where
}

// answersError is why the answers rank no offer: the first question
// page's error (invalidPage), else the last estimate's; nil when none.
func (m app) answersError() error {
	if _, err := m.firstInvalid(); err != nil {
		return err
	}
	if m.res != nil && m.res.err != nil {
		return m.res.err
	}
	return nil
}

// firstInvalid is invalidPage with the error.
func (m app) firstInvalid() (string, error) {
	_, cfgErr := m.a.config()
	for i, p := range m.wiz.pages {
		if p.hide != nil && p.hide() {
			continue
		}
		if cfgErr != nil {
			m.wiz.form.build(i) // a page not shown yet may hold the answer: its fields' checks tell
		}
		err := m.wiz.pageError(i)
		if err == nil && p.check != nil {
			err = p.check()
		}
		if err != nil {
			pos, total := m.wiz.position(i)
			return m.lang.Sprintf("question page %d of %d: %s", pos, total, m.lang.T(p.title)), err
		}
	}
	return "", nil
}

// keptFor is the file's [selection] for a recompute of the answers k:
// the offer kept while k are the answers it was kept for, so the
// recompute matches it when the ranking lacks it (matchKept); nil
// otherwise, and for a plan's phase, whose pin the ranking must hold
// (gpuplan export --config PLAN --phase NAME exports it on the plan's
// terms, phaseExportNote).
func (m *app) keptFor(k string) *config.Selection {
	if m.kept == nil || m.keptPhase != "" || k != m.keptKey {
		return nil
	}
	return m.kept
}

// keptOffer is the offer kept (the file's [selection]) as the result
// on screen has it: ranked, or matched on its own when the ranking lacks
// it (result.kept); nil when there is none, the answers changed since,
// the result is not of the answers, or the offer no longer runs them.
func (m *app) keptOffer() *model.Offer {
	s, r := m.kept, m.res
	if s == nil || !r.ok() || r.seq != m.seq || m.a.key() != m.keptKey {
		return nil
	}
	for i := range r.rec.Offers {
		if o := &r.rec.Offers[i]; sameSelection(o, s) {
			return o
		}
	}
	if o := r.kept; o != nil && m.keptPhase == "" && o.Instance.Provider == s.Provider && o.Instance.Type == s.InstanceType &&
		o.Region == s.Region && o.Pricing == s.Pricing {
		return o
	}
	return nil
}

// apply shows a result in the panel and the offers table.
func (m *app) apply(r *result) {
	m.res = r
	m.panel.res, m.panel.pending = r, false
	m.panel.chosen, m.panel.chosenPhase = m.keptOffer(), m.keptPhase
	if m.kept != nil && m.panel.chosen == nil && !m.keptGone && r.ok() && r.seq == m.seq && m.a.key() == m.keptKey {
		m.keptGone = true // said once
		s := m.kept
		if m.keptPhase != "" {
			m.footer.say(printable(m.lang.Sprintf("phase %q's offer %s %s %s is not among these answers' offers: ctrl+e exports the best",
				m.keptPhase, s.Provider, keptType(s), report.RegionIn(m.lang, s.Region))), true)
		} else if !r.keptWhy.IsZero() { // the catalog has it: the job does not run there
			m.footer.say(printable(m.lang.Sprintf("the file's offer %s %s %s does not run its job (%s): the best is shown",
				s.Provider, keptType(s), report.RegionIn(m.lang, s.Region), m.lang.Message(r.keptWhy))), true)
		} else {
			m.footer.say(printable(m.lang.Sprintf("the file's offer %s %s %s is no longer offered: the best is shown", s.Provider, s.InstanceType, report.RegionIn(m.lang, s.Region))), true)
		}
	}
	if m.screen != screenWizard {
		m.offers.setResult(r)
		m.offers.where = m.invalidPage()
		if m.footer.status != "" && m.footer.status == m.sortNote {
			m.footer.say("", false)
		}
	}
}

// restyle draws for a dark or light background from now on: the styles
// every component shares are rebuilt in place, the copies some keep are
// refreshed, and the panel's cached drawing is dropped.
func (m *app) restyle(dark bool) {
	if t, ok := m.theme.(*theme); ok {
		t.dark = dark
	}
	*m.st = report.NewStyles(&report.Renderer{Dark: dark})
	m.footer.restyle()
	m.offers.restyle()
	*m.panel.cache = panelCache{}
}

func (m app) tooSmall() bool { return m.width < minWidth || m.height < minHeight }

func (m app) wide() bool { return m.width >= wideWidth }

// layout sizes every component from the terminal size; it never hands
// out negative sizes.
func (m *app) layout() {
	w, h := max(m.width, 1), max(m.height, 1)
	m.keys.form = nil
	switch {
	case m.dialog != nil:
		m.keys.form = m.keys.translate(m.dialog.form.KeyBinds())
	case m.screen == screenWizard:
		m.keys.form = m.keys.translate(m.wiz.form.KeyBinds())
	}
	wizard := m.screen == screenWizard
	prompting := m.screen == screenPlan && m.plan.prompting() && m.dialog == nil // phases.go: the name prompt takes letters
	m.keys.forScreen(m.screen, wizard && m.wiz.typing() || m.screen == screenBrowse || prompting, wizard && m.filtering(), m.dialog != nil)
	m.keys.Market.enable(m.screen == screenBrowse && m.dialog == nil, len(m.a.GPUKeys) > 0 || m.a.pick.On)
	// On the full help, not in a text field (lang.go); not under a locale
	// that is not UTF-8, whose ASCII screens cannot draw Chinese.
	m.keys.Lang.SetEnabled(m.fullHelp && m.keys.Help.Enabled() && !m.ascii)
	m.keys.browseShort = m.screen == screenOffers
	m.keys.Plan.enable(m.screen, m.dialog != nil, m.plan.prompting(), len(m.plan.plan.Phases), m.plan.canUndo()) // phases.go
	_, multi := m.wiz.form.GetFocusedField().(*huh.MultiSelect[string])
	m.keys.guide(m.screen, m.dialog != nil, multi, len(m.plan.plan.Phases) == 0,
		m.screen == screenDetail && m.detail.vp.TotalLineCount() > m.detail.vp.Height())
	if prompting {
		m.keys.Export.SetEnabled(false)
		m.keys.Back.SetHelp("esc", m.lang.T("cancel"))
	}
	if m.screen == screenWizard {
		pos, _ := m.wiz.position(m.wiz.focusedPage())
		m.keys.browseShort = pos <= 1
	}
	if m.screen == screenBrowse {
		m.keys.Export.SetEnabled(false) // nothing picked yet: enter starts from a GPU
		// Not on stale rows (a line that does not parse): enter explains instead (browseKey).
		m.keys.Market.Pick.SetEnabled(m.dialog == nil && m.browse.selected() != nil && !m.browse.stale() && m.browse.listing)
		// enter on the line accepts it (not while it does not parse: it
		// then says to fix the filter first); / on the list edits it.
		m.keys.Market.Accept.SetEnabled(m.dialog == nil && !m.browse.stale() && !m.browse.listing)
		m.keys.Market.Edit.SetEnabled(m.dialog == nil && m.browse.listing)
	}
	if _, err := m.a.config(); err != nil {
		m.keys.Export.SetEnabled(false) // an answer does not parse: nothing to export (the footer says which)
	}
	if m.screen == screenOffers && m.offers.serving {
		m.keys.Sort.SetEnabled(false) // serving offers are ranked by the question's cost only (serve.RankServing)
	}
	if m.screen == screenOffers && len(m.offers.shown) == 0 {
		for _, b := range []*key.Binding{&m.keys.Open, &m.keys.Sort, &m.keys.Provider, &m.keys.Regions} {
			b.SetEnabled(false) // nothing to open, sort or filter
		}
	}
	if m.screen == screenWizard && m.dialog == nil {
		if pos, _ := m.wiz.position(m.wiz.focusedPage()); pos <= 1 {
			m.keys.Back.SetEnabled(false) // nothing before the first page
		}
	}
	if m.keys.notice = m.notice != nil && m.dialog == nil; m.keys.notice { // any key closes the warnings, ctrl+c quits
		m.keys.Quit.SetHelp("ctrl+c", m.lang.T("quit"))
	}
	if m.fullHelp && m.dialog == nil && !prompting && !(wizard && m.filtering()) {
		m.keys.Back.SetEnabled(true) // esc closes the help first (key)
		m.keys.Back.SetHelp("esc", m.lang.T("close help"))
	}
	m.footer.setSize(w)
	bodyH := max(h-1-m.footer.height(m.keys, m.fullHelp), 1)
	if m.wide() {
		formW := min(max(w*2/5, 44), 64)
		m.wiz.setSize(formW, bodyH)
		m.panel.setSize(w-formW-1, bodyH)
	} else {
		panelH := min(max(bodyH*2/5, 8), bodyH)
		m.wiz.setSize(w, max(bodyH-panelH, 1))
		m.panel.setSize(w, panelH)
	}
	m.offers.setSize(w, bodyH)
	m.detail.setSize(w, bodyH, m.res, m.cat.AsOf)
	m.browse.setSize(w, bodyH)
}

// View is the frame in the alternate screen. Bubble Tea v2 downsamples
// its colours to the terminal's profile (none with NO_COLOR).
func (m app) View() tea.View {
	if m.sameAsLastFrame && m.views != nil && m.gen != 0 && m.views.gen == m.gen {
		return m.views.view // the state drawn last (app.gen)
	}
	v := tea.NewView(termFrame(m.render(), m.ascii))
	v.AltScreen = true
	if m.views != nil && m.gen != 0 {
		m.views.gen, m.views.view = m.gen, v
	}
	return v
}

// render draws the screen: header, body, footer; every line fits the
// terminal's width.
func (m app) render() (out string) {
	defer func() {
		if r := recover(); r != nil {
			m.recordCrash(r)
			out = m.lang.T("gpuplan hit an internal error; press any key to quit and see the report")
		}
	}()
	if !m.sized && m.width == 0 {
		return ""
	}
	if m.tooSmall() {
		msg := m.lang.Sprintf("terminal too small (needs at least %d×%d)\nnow %d×%d: enlarge it, or press q to quit", minWidth, minHeight, m.width, m.height)
		// Wrapped, never cut: the message must be readable at any size.
		text := lipgloss.NewStyle().Width(max(m.width, 1)).Align(lipgloss.Center).Render(msg)
		return lipgloss.NewStyle().MaxHeight(max(m.height, 1)).Render(
			lipgloss.Place(max(m.width, 1), max(m.height, 1), lipgloss.Center, lipgloss.Center, text))
	}
	header := m.header()
	footer := m.footer.view(m.keys, m.fullHelp)
	bodyH := max(m.height-1-lipgloss.Height(footer), 1)
	if m.dialog == nil && m.notice == nil && m.screen == screenWizard {
		if frame, ok := m.wizardFrame(header, footer, bodyH); ok {
			return frame
		}
	}
	var body string
	switch {
	case m.dialog != nil:
		body = lipgloss.Place(m.width, bodyH, lipgloss.Center, lipgloss.Center, m.dialog.view(m.st, bodyH))
	case m.notice != nil:
		body = lipgloss.Place(m.width, bodyH, lipgloss.Center, lipgloss.Center, m.notice.view(m.st, m.lang, min(m.width-4, 84), bodyH))
	case m.screen == screenOffers:
		body = m.offers.view()
	case m.screen == screenDetail:
		body = m.detail.view()
	case m.screen == screenBrowse:
		body = m.browse.view()
	case m.screen == screenPlan:
		body = m.plan.view(m.st, m.width)
	case m.wide():
		form := lipgloss.NewStyle().Width(m.wiz.width).Height(bodyH).MaxHeight(bodyH).Render(m.wiz.form.View())
		body = lipgloss.JoinHorizontal(lipgloss.Top, form, " ", m.panel.view(false))
	default:
		formH := max(bodyH-m.panel.height, 1)
		form := lipgloss.NewStyle().Width(m.width).Height(formH).MaxHeight(formH).Render(m.wiz.form.View())
		body = lipgloss.JoinVertical(lipgloss.Left, form, m.panel.view(true))
	}
	view := lipgloss.JoinVertical(lipgloss.Left, header, fitHeight(body, bodyH), footer)
	return clip(view, m.width, m.height)
}

// fitHeight gives s exactly h lines: cut, or padded with empty ones
// (JoinVertical then pads every line to the same width). A line count,
// not a Lip Gloss pass that measures every line on every keystroke.
func fitHeight(s string, h int) string {
	n := strings.Count(s, "\n") + 1
	switch {
	case n > h:
		i := 0
		for range h {
			i += strings.IndexByte(s[i:], '\n') + 1
		}
		return s[:i-1]
	case n < h:
		return s + strings.Repeat("\n", h-n)
	}
	return s
}

// clip cuts s to h lines of at most w cells.
func clip(s string, w, h int) string {
	lines := strings.Split(fitHeightMax(s, h), "\n")
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, "")
		}
	}
	return strings.Join(lines, "\n")
}

// fitHeightMax cuts s to at most h lines.
func fitHeightMax(s string, h int) string {
	if strings.Count(s, "\n")+1 > h {
		return fitHeight(s, h)
	}
	return s
}

// header is the top line: where you are, and the catalog's date.
func (m app) header() string {
	left := m.st.Header.Render("gpuplan")
	switch {
	case m.dialog != nil && m.dialog.kind == dialogQuit:
		left += m.st.Muted.Render(" · " + m.lang.T("quit"))
	case m.dialog != nil:
		left += m.st.Muted.Render(" · " + m.lang.T("export"))
	case m.screen == screenWizard:
		i := m.wiz.focusedPage()
		pos, total := m.wiz.position(i)
		left += m.st.Muted.Render(" · " + m.lang.Sprintf("question page %d of %d: %s", pos, total, m.lang.T(m.wiz.pages[i].title)))
	case m.screen == screenOffers:
		left += m.st.Muted.Render(" · " + offersTitle(m.lang))
	case m.screen == screenBrowse:
		left += m.st.Muted.Render(" · " + m.lang.T("browse the market"))
	case m.screen == screenPlan:
		left += m.st.Muted.Render(" · " + m.lang.T("plan"))
	case m.screen == screenDetail && m.detail.offer != nil:
		left += m.st.Muted.Render(printable(" · " + m.lang.Sprintf("offer %s %s", m.detail.offer.Instance.Provider, m.detail.offer.Instance.Type)))
	}
	if limit := m.a.scope(m.cat, m.lang); limit != "" && m.screen != screenBrowse && m.dialog == nil { // browse.go
		left += m.st.Warn.Render(" · " + m.lang.Sprintf("%s only", limit))
	}
	right := m.st.Muted.Render(m.lang.Sprintf("catalog %s", m.cat.AsOf))
	if m.opts.PriceNote != "" {
		right = m.st.Muted.Render(printable(m.lang.Sprintf("catalog %s", m.cat.AsOf) + " " + m.opts.PriceNote))
	}
	if m.panel.pending {
		right = m.st.Muted.Render(m.lang.T("updating…")+" ") + right
	}
	gap := m.width - lipgloss.Width(left) - lipgloss.Width(right)
	if gap < 1 {
		return report.Truncate(left, m.width)
	}
	return left + strings.Repeat(" ", gap) + right
}

// offersTitle names the offers screen in the header: "offers"; in
// Chinese 全部报价, since the catalogue's "offers" is the counting noun
// of "%d offers" (个报价).
func offersTitle(lang *i18n.Printer) string {
	if lang.Chinese() {
		return lang.T("all offers")
	}
	return "offers"
}
