package tui

import (
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/plan"
	"github.com/gpuplan/gpuplan/model/show"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/report"
)

// defaultPlanExport is where the plan is exported unless it was opened
// from a file.
const defaultPlanExport = "./gpuplan-plan.toml"

// planView is the plan being built: phases added from the offers ("a"),
// each the answers at the time and the offer chosen, with their costs and
// the total (plan.Plan.Cost). Held by pointer: app is copied on every
// update.
type planView struct {
	plan   plan.Plan
	path   string // where it was opened from; "" for defaultPlanExport
	cursor int
	back   screen // the screen esc returns to

	// The name prompt of a phase being added: its name, and for a service
	// (no job time) how many months it runs.
	pending *plan.Phase
	name    textinput.Model
	months  textinput.Model
	focus   int // 0 name, 1 months
	err     string

	lang      *i18n.Printer // the screen's language; nil is English
	dirty     bool          // phases changed since opening or the last plan export
	exporting bool          // the export dialog open is the plan's

	// deleted are the phases deleted since the last one added, the last
	// on top: u puts them back one by one (undoDelete). Adding a phase
	// empties it, so each phase goes back to the place it left and a
	// name taken since cannot come back twice; it holds at most
	// plan.MaxPhases, the phases the plan had.
	deleted []deletedPhase

	// check is Options.CheckPlan; notes and marks its answer for the
	// phases as they are, worked out when the page is drawn after a
	// change (checked false), as gpuplan plan says them.
	check   func(*plan.Plan) ([]string, []plan.PhaseCost)
	notes   []string
	marks   []plan.PhaseCost
	checked bool
}

// deletedPhase is a phase deleted from the plan, to put back with u: the
// phase, where it was, and whether the plan had changes to export before
// it went (a plan opened from a file, one phase deleted and put back, is
// the file again: q asks nothing).
type deletedPhase struct {
	phase plan.Phase
	at    int
	dirty bool
}

// checkPlan fills notes and marks for the phases as they are.
func (v *planView) checkPlan() {
	if v.checked || v.check == nil {
		return
	}
	v.checked = true
	v.notes, v.marks = nil, nil
	if len(v.plan.Phases) > 0 {
		v.notes, v.marks = v.check(&v.plan)
	}
}

// exported is told of a file written: the plan's export makes it clean.
func (v *planView) exported() {
	if v.exporting {
		v.dirty, v.exporting = false, false
		for i := range v.deleted {
			v.deleted[i].dirty = true // the file lacks them: putting one back is a change to export
		}
	}
}

// prompting reports whether the name prompt has the keys.
func (v *planView) prompting() bool { return v.pending != nil }

// newPhase is the phase the answers and offer o make: the answers as
// typed (config.PhaseAnswers, which ConfigFromAnswers reads back), the
// offer, and the job's hours from the estimate; inference is a service
// (its "job" is the time per million tokens, not a duration) and runs
// for months, asked in the prompt, as does a job without a dataset.
func newPhase(a *answers, cat *model.Catalog, o *model.Offer) (plan.Phase, error) {
	c, err := a.config()
	if err != nil {
		return plan.Phase{}, model.Msg("fix the answers first: %v", err) // a message: the footer says it in the reader's language
	}
	asked := c
	if !c.Workload.Task.Training() {
		asked.Workload.Epochs = 0 // each request once: not asked
	}
	if a.servingLLM(cat) {
		// Serving an LLM asks for no dataset, GPU count, job budget or
		// deadline (wizard.go): answers left from another task's job, such
		// as a LoRA phase's, do not belong to the serve phase; its GPUs
		// are the offer's.
		w, s := &asked.Workload, &asked.Search
		w.DatasetSamples, w.DatasetTokens, w.GPUs, w.AutoGPUs, w.Strategy = 0, 0, 0, false, ""
		s.BudgetJob, s.DeadlineHours, s.MaxGPUs, s.AllowMultiNode = 0, 0, 0, false
	}
	ans, err := config.PhaseAnswers(&asked)
	if err != nil {
		return plan.Phase{}, err
	}
	if !c.Workload.Task.Training() {
		delete(ans, "checkpointing") // a training switch, not asked
	}
	if a.servingLLM(cat) {
		delete(ans, "search.allow_multi_node") // no Distribution page; false is the default
		delete(ans, "flash_attention")         // vLLM picks its attention backend
	}
	for k, s := range ans {
		// Numbers as the user types them: counts 50M, not 5e+07, and a
		// budget 1000000, not 1e+06; the same decoder reads both.
		v, err := strconv.ParseFloat(s, 64)
		switch {
		case err != nil:
		case k == "dataset_samples" || k == "dataset_tokens" || k == "custom.params":
			ans[k] = fmtCount(v)
		case strings.ContainsAny(s, "eE"):
			ans[k] = strconv.FormatFloat(v, 'f', -1, 64)
		}
	}
	p := plan.Phase{Answers: ans, Provider: o.Instance.Provider, Instance: o.Instance.Type, Region: o.Region,
		Pricing: o.Pricing, Instances: max(o.Instances, 1), USDPerHour: phaseRound(o.USDPerHour, 6)}
	if o.HasJob && c.Workload.Task != model.TaskInference {
		p.JobHours = max(phaseRound(o.JobHours, 5), plan.MinJobHours) // a job of seconds: what the plan file takes
	} else {
		p.Months = 1
		if h := c.Search.HoursPerMonth; h > 0 && h < model.HoursPerMonth {
			p.HoursPerMonth = max(h, plan.MinHoursPerMonth)
		}
	}
	return p, nil
}

// phaseReopens reports why phase p, alone in a plan, would not reopen
// from the plan file (plan.Decode's bounds: a job of more than
// plan.MaxJobHours, say); nil when it would. Its name is a stand-in: the
// prompt asks for it next, and checks it there. The files its answers
// name (a config.json) are left to the export, with a stand-in name:
// they must be in the plan's folder, which the export names.
func phaseReopens(p plan.Phase) error {
	p.Name = "phase"
	p.Answers = maps.Clone(p.Answers)
	for k, v := range p.Answers {
		switch strings.TrimPrefix(k, "workload.") {
		case "hf_config", "safetensors":
			if v != "" {
				p.Answers[k] = filepath.Base(filepath.FromSlash(v))
			}
		}
	}
	return planReopens(&plan.Plan{Phases: []plan.Phase{p}})
}

// planReopens reports why pl, exported, would not reopen (plan.Encode
// writes what plan.Decode refuses: a bound, a name); nil when it would.
func planReopens(pl *plan.Plan) error {
	b, err := plan.Encode(pl)
	if err == nil {
		_, err = plan.Decode(b)
	}
	return err
}

// phaseRound rounds v to n significant digits, as the export writes prices.
func phaseRound(v float64, n int) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	f, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', n, 64), 64)
	return f
}

// defaultPhaseName names a phase by its task ("fine-tune", "serve",
// "train"), numbered when the plan has one of that name already.
func (v *planView) defaultPhaseName(task model.Task) string {
	base := "fine-tune"
	switch {
	case task == model.TaskInference:
		base = "serve"
	case task == model.TaskTrain:
		base = "train"
	}
	name := base
	for n := 2; v.has(name); n++ {
		name = fmt.Sprintf("%s %d", base, n)
	}
	return name
}

// has reports whether the plan has a phase of that name once normalised
// or one that looks like it (plan.LookAlike, as plan.Decode compares them).
func (v *planView) has(name string) bool { return v.lookAlike(name) != "" }

// lookAlike is the name of the plan's phase that looks like name, or "".
func (v *planView) lookAlike(name string) string {
	for i := range v.plan.Phases {
		if plan.LookAlike(v.plan.Phases[i].Name, name) {
			return v.plan.Phases[i].Name
		}
	}
	return ""
}

// startAdd opens the prompt for phase p.
func (v *planView) startAdd(p plan.Phase, task model.Task) tea.Cmd {
	v.pending = &p
	v.err = ""
	v.name = textinput.New()
	v.name.Prompt = v.lang.T("name: ")
	v.name.CharLimit = 40
	v.name.SetValue(v.defaultPhaseName(task))
	v.months = textinput.New()
	v.months.Prompt = v.lang.T("months: ")
	v.months.CharLimit = 6
	v.months.SetValue(strconv.FormatFloat(p.Months, 'g', -1, 64))
	v.focus = 0
	v.months.Blur()
	return v.name.Focus()
}

// promptKey handles a key while the prompt is open: enter records the
// phase, esc drops it, tab moves between name and months.
func (v *planView) promptKey(msg tea.KeyPressMsg) tea.Cmd {
	service := v.pending.Months > 0
	switch msg.String() {
	case "esc":
		v.pending, v.err = nil, ""
		return nil
	case "tab", "shift+tab", "down", "up":
		if service {
			v.focus = 1 - v.focus
			if v.focus == 0 {
				v.months.Blur()
				return v.name.Focus()
			}
			v.name.Blur()
			return v.months.Focus()
		}
		return nil
	case "enter":
		return v.commit()
	}
	return v.toField(msg)
}

// paste gives a bracketed paste (sanitised by typedSafe) to the focused
// field of the prompt: the name or the months.
func (v *planView) paste(msg tea.PasteMsg) tea.Cmd { return v.toField(msg) }

// toField passes msg to the prompt's focused field.
func (v *planView) toField(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	if v.focus == 0 {
		v.name, cmd = v.name.Update(msg)
	} else {
		v.months, cmd = v.months.Update(msg)
	}
	return cmd
}

// commit checks the prompt and adds the phase; a bad name or months stays
// in the prompt with the reason.
func (v *planView) commit() tea.Cmd {
	p := *v.pending
	p.Name = strings.TrimSpace(v.name.Value())
	switch {
	case p.Name == "":
		v.err = v.lang.T("give the phase a name, such as fine-tune or serve")
		return nil
	case strings.ContainsFunc(p.Name, show.Unprintable):
		v.err = v.lang.T("the name has control characters")
		return nil
	case strings.ContainsFunc(p.Name, plan.Invisible):
		v.err = v.lang.T("the name has an invisible character (zero-width, BOM, soft hyphen…)")
		return nil
	case show.MarkStack(p.Name) >= 0:
		v.err = v.lang.T("the name stacks combining marks on a letter (more than 4, or one twice): delete them")
		return nil
	case plan.CheckScripts("name", p.Name) != nil:
		v.err = v.lang.T("the name mixes scripts (a Cyrillic or Greek letter among Latin ones?): write it in one script")
		return nil
	case v.has(p.Name):
		v.err = v.lang.Sprintf("the plan has a phase %q already: give another name", v.lookAlike(p.Name))
		return nil
	}
	if p.Months > 0 {
		m, err := strconv.ParseFloat(strings.TrimSpace(v.months.Value()), 64)
		if err != nil || !(m >= plan.MinMonths && m <= plan.MaxMonths) {
			v.err = v.lang.T("months: a number of months in [0.001, 120], such as 6")
			return nil
		}
		p.Months = m
	}
	if len(v.plan.Phases) >= plan.MaxPhases {
		v.err = v.lang.Sprintf("a plan has at most %d phases", plan.MaxPhases)
		return nil
	}
	v.plan.Phases = append(v.plan.Phases, p)
	v.dirty, v.checked = true, false
	v.cursor = len(v.plan.Phases) - 1
	v.pending, v.err = nil, ""
	v.deleted = nil // the undo is of the deletes since the last phase added
	return nil
}

// listKey handles a key on the plan's list: ↑/↓ move, k.Delete (d,
// delete) deletes the phase under the cursor, k.Undo (u) puts the last
// deleted back.
//
// Backspace deletes nothing: the name prompt opens on this page, and a
// backspace meant for the name, pressed after enter added the phase,
// deleted it. k9s deleted resources on backspace until users lost some
// "trying to delete mistyped characters in filter" and it moved delete
// to its own key (github.com/derailed/k9s issues 21, pull 45); u is
// vi's undo (vimhelp.org/undo.txt.html, "u Undo [count] changes").
func (v *planView) listKey(msg tea.KeyPressMsg, k *planKeys) {
	switch {
	case msg.String() == "up" || msg.String() == "k":
		v.cursor = max(v.cursor-1, 0)
	case msg.String() == "down" || msg.String() == "j":
		v.cursor = min(v.cursor+1, max(len(v.plan.Phases)-1, 0))
	case key.Matches(msg, k.Delete):
		v.deletePhase()
	case key.Matches(msg, k.Undo):
		v.undoDelete()
	}
}

// deletePhase deletes the phase under the cursor, kept for undoDelete.
func (v *planView) deletePhase() {
	i := v.cursor
	if i < 0 || i >= len(v.plan.Phases) {
		return
	}
	v.deleted = append(v.deleted, deletedPhase{phase: v.plan.Phases[i], at: i, dirty: v.dirty})
	v.plan.Phases = slices.Delete(v.plan.Phases, i, i+1)
	v.dirty, v.checked = true, false
	v.cursor = min(v.cursor, max(len(v.plan.Phases)-1, 0))
}

// undoDelete puts the last phase deleted back where it was, the cursor on
// it, and the plan's changes as they were before it went; false when
// there is none to put back.
func (v *planView) undoDelete() bool {
	n := len(v.deleted)
	if n == 0 {
		return false
	}
	d := v.deleted[n-1]
	v.deleted = v.deleted[:n-1]
	at := min(max(d.at, 0), len(v.plan.Phases))
	v.plan.Phases = slices.Insert(v.plan.Phases, at, d.phase)
	v.cursor, v.dirty, v.checked = at, d.dirty, false
	return true
}

// canUndo reports whether u has a phase to put back.
func (v *planView) canUndo() bool { return len(v.deleted) > 0 }

// view draws the plan: a row per phase (offer, pricing, duration, cost),
// the total, and the prompt when a phase is being added. The pricing and
// duration cells are gpuplan plan's (report.PhasePricing, PhaseDuration).
func (v *planView) view(st *report.Styles, width int) string {
	var b strings.Builder
	title := v.lang.T("Plan")
	if v.plan.Name != "" {
		title = v.lang.Sprintf("Plan: %s", printable(v.plan.Name)) // 计划：, not 计划: (tui37)
	}
	b.WriteString(st.Heading.Render(title) + "\n")
	if len(v.plan.Phases) == 0 && v.pending == nil {
		b.WriteString(st.Muted.Render(strings.Join(wrapLines(v.lang.T("no phases yet: on the offers (ctrl+o) or an offer's details, a adds the offer with the current answers as a phase"), width), "\n")) + "\n")
	}
	costs := make([]string, len(v.plan.Phases))
	total, totalOK := 0.0, true
	for i := range v.plan.Phases {
		c, err := v.plan.Phases[i].Cost()
		if err != nil {
			costs[i], totalOK = "?", false
			continue
		}
		costs[i] = report.USD(c.USD)
		if c.CommitmentUSD > 0 && c.CommitmentUSD >= c.USD {
			costs[i] += v.lang.T(" (term)")
		}
		total += c.USD
	}
	// The cells of each column, with the phases' marks as gpuplan plan
	// marks them: ✗ a miss, ~ borderline, the why below.
	n := len(v.plan.Phases)
	names, pricings, usdHs, durs := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	v.checkPlan()
	var marked []string
	for i := range v.plan.Phases {
		p := &v.plan.Phases[i]
		names[i], pricings[i], usdHs[i], durs[i] = printable(p.Name), report.PhasePricing(v.lang, p), report.USDHour(p.USDPerHour), report.PhaseDuration(v.lang, p)
		if i >= len(v.marks) || v.marks[i].Targets.IsZero() {
			continue
		}
		sign := "✗"
		if v.marks[i].Borderline {
			sign = "~"
		}
		names[i] = sign + " " + names[i]
		marked = append(marked, v.lang.Sprintf("%s phase %q: %s", sign, p.Name, v.lang.Message(v.marks[i].Targets)))
	}
	offerCol := "offer"
	if v.lang.Chinese() { // the catalogue's "offer" is the counting noun of "%d offers" (个报价)
		offerCol = v.lang.T("plan column offer")
	}
	cols := planColumns(width, [planCols][]string{
		colName:    append([]string{v.lang.T("phase")}, names...),
		colOffer:   {offerCol},
		colPricing: append([]string{v.lang.T("pricing")}, pricings...),
		colUSDH:    append([]string{v.lang.T("$/h")}, usdHs...),
		colDur:     append([]string{v.lang.T("duration")}, durs...),
		colCost:    append([]string{v.lang.T("cost")}, costs...),
	})
	nameW, offerW := cols[colName], cols[colOffer]
	cell := func(s string, w int) string { return report.PadRight(report.Truncate(s, w), w) } // the phases' cells are cut below
	right := func(s string, w int) string { return strings.Repeat(" ", max(w-ansi.StringWidth(s), 0)) + s }
	row := func(mark, name, offer, pricing, usdH, dur, cost string) string {
		return fmt.Sprintf("%s%s %s %s %s %s %s", mark, cell(name, nameW), cell(offer, offerW), cell(pricing, cols[colPricing]),
			right(usdH, cols[colUSDH]), cell(dur, cols[colDur]), right(cost, cols[colCost]))
	}
	if len(v.plan.Phases) > 0 {
		b.WriteString(st.Muted.Render(row("  ", v.lang.T("phase"), offerCol, v.lang.T("pricing"), v.lang.T("$/h"), v.lang.T("duration"), v.lang.T("cost"))) + "\n")
	}
	// The offer cell is "provider instance region ×N": the instance types
	// are cut as a column (cutColumn) to what the widest provider, region
	// and instance count leave, the region dropped when that is under 8
	// cells; the count is never dropped (a cut "gcp g2-s…-4…" lost the
	// ×2 of a phase renting two; tui39).
	offers, insts := make([]string, n), make([]string, n)
	provW, regionW, countW := 0, 0, 0
	for i := range v.plan.Phases {
		p := &v.plan.Phases[i]
		insts[i] = printable(p.Instance)
		provW = max(provW, ansi.StringWidth(printable(p.Provider)))
		region := report.RegionIn(v.lang, p.Region) // "location not stated" for a placeholder
		if p.Instances > 1 {
			count := fmt.Sprintf(" ×%d", p.Instances)
			region += count
			countW = max(countW, ansi.StringWidth(count))
		}
		regionW = max(regionW, ansi.StringWidth(printable(region)))
	}
	instW := offerW - provW - 1 - regionW - 1
	withRegion := instW >= 8
	if !withRegion {
		instW = offerW - provW - 1 - countW
	}
	cutColumn(insts, max(instW, 4), false)
	for i := range v.plan.Phases {
		p := &v.plan.Phases[i]
		offer := printable(p.Provider) + " " + insts[i]
		if withRegion {
			offer += " " + printable(report.RegionIn(v.lang, p.Region))
		}
		if p.Instances > 1 {
			offer += fmt.Sprintf(" ×%d", p.Instances)
		}
		offers[i] = strings.TrimSpace(offer)
	}
	cutColumn(names, nameW, false)
	for i := range v.plan.Phases {
		mark := "  "
		if i == v.cursor && v.pending == nil {
			mark = "› "
		}
		line := row(mark, names[i], offers[i], pricings[i], usdHs[i], durs[i], costs[i])
		if i == v.cursor && v.pending == nil {
			line = st.TableSelected.Render(line)
		}
		b.WriteString(line + "\n")
	}
	if len(v.plan.Phases) > 0 {
		t := "?"
		if totalOK {
			t = report.USD(total)
		}
		for _, n := range append(marked, v.notes...) {
			b.WriteString(st.Warn.Render(strings.Join(wrapLines(printable(n), width), "\n")) + "\n")
		}
		b.WriteString(st.Heading.Render(v.lang.T("Total ")) + t + "\n")
	}
	if n := len(v.deleted); n > 0 && v.pending == nil {
		line := printable(v.lang.Sprintf("deleted phase %q · u: undo", v.deleted[n-1].phase.Name))
		b.WriteString(st.Muted.Render(strings.Join(wrapLines(line, width), "\n")) + "\n")
	}
	if v.pending != nil {
		p := v.pending
		b.WriteString("\n" + st.Heading.Render(v.lang.T("Add a phase")) + st.Muted.Render(" · "+strings.Join([]string{p.Provider + " " + p.Instance + " " + report.RegionIn(v.lang, p.Region), report.PhasePricing(v.lang, p), v.lang.Sprintf("%s/h", report.USDHour(p.USDPerHour))}, v.lang.T(", "))) + "\n")
		b.WriteString("  " + v.name.View() + "\n")
		if p.Months > 0 {
			b.WriteString("  " + v.months.View() + st.Muted.Render(v.lang.T(" (a service: how long it runs)")) + "\n")
		} else {
			b.WriteString(st.Muted.Render(v.lang.Sprintf("  a job of %s on this offer", report.HoursIn(v.lang, p.JobHours))) + "\n")
		}
		if v.err != "" {
			b.WriteString("  " + st.Warn.Render("✗ "+v.err) + "\n")
		}
		hint := v.lang.T("enter adds · esc cancels")
		if p.Months > 0 {
			hint = v.lang.T("tab moves · ") + hint
		}
		b.WriteString(st.Muted.Render("  "+hint) + "\n")
	}
	return b.String()
}

// The plan page's columns, in the order of its rows.
const (
	colName = iota
	colOffer
	colPricing
	colUSDH
	colDur
	colCost
	planCols
)

// planColumns are the widths, in display cells (ansi.StringWidth: a
// CJK character is two), of the plan page's columns for a row of width
// cells; cells[k] are column k's header and cells. At 80 columns the
// row is 80 cells (name 12, offer 22, pricing 11, $/h 7, duration 12,
// cost 9, and 7 of mark and spaces); from wideWidth the name, the
// duration and the cost have room, and the offer what the width leaves,
// up to 44 cells (a row of 113 at 100 columns lost its cost column to
// the frame's cut; tui37). The $/h, the duration and the cost are never
// cut (a cut "作业 4… 小时" lost its number, a cut header read "费"):
// their columns take the cells they need, as does the pricing ("1
// 年预留实例" is 12 cells), from the offer. When that leaves the offer
// under 12 cells the name column gives up what its names do not use,
// then the pricing its cells past 11, then the name down to 8 (names
// cut by cutColumn). At 80 columns in Chinese a reserved phase's
// "$3,888（整个期限）" and "3 个月 × 200 h" made a row of 81 cells and
// the frame cut every cost ("$9,46"; tui39).
func planColumns(width int, cells [planCols][]string) [planCols]int {
	need := func(k int) int {
		w := 0
		for _, c := range cells[k] {
			w = max(w, ansi.StringWidth(c))
		}
		return w
	}
	w := [planCols]int{colName: 12, colOffer: 22, colPricing: 11, colUSDH: 7, colDur: 12, colCost: 9}
	if width >= wideWidth {
		w[colName], w[colOffer], w[colDur], w[colCost] = 14, 44, 18, 12
	}
	offerMax, pricingW := w[colOffer], w[colPricing]
	for _, k := range []int{colPricing, colUSDH, colDur, colCost} {
		w[k] = max(w[k], need(k))
	}
	const marks, offerMin = 2 + 5, 12 // the row's mark and the spaces between its six cells
	offer := func() int {
		return width - marks - w[colName] - w[colPricing] - w[colUSDH] - w[colDur] - w[colCost]
	}
	give := func(k, floor int) { // column k gives the offer what it lacks, down to floor
		if short := offerMin - offer(); short > 0 && w[k] > floor {
			w[k] -= min(short, w[k]-floor)
		}
	}
	give(colName, need(colName))
	give(colPricing, pricingW)
	give(colName, 8)
	w[colOffer] = max(min(offerMax, offer()), 4)
	return w
}

// planKeys are the plan's own keys, in the footer's help on its screens.
type planKeys struct {
	Add, Open, Edit, Delete, Undo key.Binding
}

func defaultPlanKeys() planKeys {
	return planKeys{
		Add:    key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "add to plan")),
		Open:   key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "plan")),
		Edit:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open phase")),
		Delete: key.NewBinding(key.WithKeys("d", "delete"), key.WithHelp("d", "delete")),
		Undo:   key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "undo")),
	}
}

// enable turns the plan keys on for screen s: a on the offers and an
// offer's details, enter, d and (with a phase to put back, undo) u on the
// plan, not in the name prompt, where they are letters; ctrl+t opens the
// plan once it has a phase (a shows it when adding the first), from all
// but the browser.
func (k *planKeys) enable(s screen, dialog, prompt bool, phases int, undo bool) {
	list := !dialog && !prompt && s == screenPlan
	k.Add.SetEnabled(!dialog && (s == screenOffers || s == screenDetail))
	k.Delete.SetEnabled(list && phases > 0)
	k.Undo.SetEnabled(list && undo)
	k.Edit.SetEnabled(list && phases > 0) // in the prompt, enter adds
	k.Open.SetEnabled(!dialog && s != screenPlan && s != screenBrowse && phases > 0)
}

// addPhase opens the prompt to add offer o (nil: nothing to add) with the
// current answers.
func (m app) addPhase(o *model.Offer) (tea.Model, tea.Cmd) {
	if o == nil {
		return m, nil
	}
	if err := m.answersError(); err != nil {
		// A phase is the answers as ranked: answers that rank nothing
		// are no phase, whatever row is left on screen.
		m.footer.say(errTextIn(m.lang, model.Msg("fix the answers first: %v", err)), true)
		return m, nil
	}
	p, err := newPhase(m.a, m.cat, o)
	if err == nil {
		err = phaseReopens(p)
	}
	if err != nil {
		if p.JobHours > plan.MaxJobHours {
			// The plan file's bound (job_hours); a job this long is a
			// typo'd dataset or epochs more often than a plan.
			m.footer.say(m.lang.Sprintf("the job takes %s, longer than a plan's phase may (%s): a smaller dataset or fewer epochs plans it",
				report.HoursIn(m.lang, p.JobHours), report.HoursIn(m.lang, plan.MaxJobHours)), true)
			return m, nil
		}
		m.footer.say(errTextIn(m.lang, err), true) // in the reader's language, as the panel's errors
		return m, nil
	}
	m.plan.back = m.screen
	m.screen = screenPlan
	cmd := m.plan.startAdd(p, m.a.Task)
	m.layout()
	return m, cmd
}

// toPlan shows the plan.
func (m app) toPlan() (tea.Model, tea.Cmd) {
	if m.screen != screenPlan {
		m.plan.back = m.screen
	}
	m.screen = screenPlan
	m.footer.say("", false)
	m.layout()
	return m, nil
}

// planKey is a key on the plan screen (the prompt has them all while
// open).
func (m app) planKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if m.plan.prompting() {
		cmd := m.plan.promptKey(msg)
		if !m.plan.prompting() && key.Matches(msg, m.keys.Back) && m.plan.back != screenPlan {
			// Esc drops the phase: back where a was pressed (the offers or
			// an offer's details), not on to the plan.
			m.screen = m.plan.back
			m.layout()
			return m, cmd
		}
		if !m.plan.prompting() && m.plan.err == "" && len(m.plan.plan.Phases) > 0 {
			m.footer.say(m.planCountNote(), false)
		}
		m.layout()
		return m, cmd
	}
	if key.Matches(msg, m.keys.Back) {
		m.screen = m.plan.back
		if m.screen == screenPlan {
			m.screen = screenWizard
		}
		m.layout()
		return m, nil
	}
	if key.Matches(msg, m.keys.Plan.Edit) {
		return m.openPhase(m.plan.cursor)
	}
	before := len(m.plan.plan.Phases)
	m.plan.listKey(msg, &m.keys.Plan)
	if len(m.plan.plan.Phases) != before { // a phase deleted or put back: the count and any "exported to" are stale
		m.footer.say(m.planCountNote(), false)
	}
	m.layout()
	return m, nil
}

// openPhase opens phase i of the plan in the configurator: its answers
// become the questions' (as gpuplan --config PLAN.toml --phase NAME
// opens them), the plan stays as it is. A phase that names a
// configuration file instead says how to open that file.
func (m app) openPhase(i int) (tea.Model, tea.Cmd) {
	if i < 0 || i >= len(m.plan.plan.Phases) {
		return m, nil
	}
	ph := &m.plan.plan.Phases[i]
	if len(ph.Answers) == 0 {
		if ph.Config == "" {
			// It said "keeps its answers in : open it with gpuplan --config "
			// (tui37): gpuplan plan prices such a phase, with nothing to ask.
			m.footer.say(m.lang.Sprintf("phase %q has no answers to open (neither [phase.answers] nor config): the plan keeps its offer and price alone", ph.Name), true)
			return m, nil
		}
		// The file is the plan folder's (plan.Phase.ConfigPath), and
		// --config PLAN --phase NAME opens it with the phase's offer, as
		// the configurator opened this plan.
		file, how := ph.Config, "gpuplan --config "+shellWord(ph.Config)
		if m.plan.path != "" {
			file = ph.ConfigPath(filepath.Dir(m.plan.path))
			how = "gpuplan --config " + shellWord(m.plan.path) + " --phase " + shellWord(ph.Name)
		}
		m.footer.say(printable(m.lang.Sprintf("phase %q keeps its answers in %s: open it with %s", ph.Name, file, how)), true)
		return m, nil
	}
	c, err := ph.ConfigFromAnswers()
	if err != nil {
		m.footer.say(errTextIn(m.lang, err), true)
		return m, nil
	}
	if m.plan.path != "" {
		c.Workload.RelativeTo(filepath.Dir(m.plan.path))
	}
	pin, note := phasePin(m.cat, &c, ph)
	m.a = answersFromConfig(m.cat, &c)
	// The phase's offer is the one chosen (the panel, ctrl+o, ctrl+e) while
	// these answers rank it, as gpuplan export --config PLAN --phase NAME
	// exports it; apply says so when they do not.
	m.kept, m.keptKey, m.keptGone, m.keptPhase = pin, m.a.key(), false, ""
	m.panel.chosenExported = false
	if pin != nil {
		m.keptPhase = ph.Name
	}
	m.wiz = newWizard(m.a, m.cat, m.hf.check(), m.theme, m.wiz.width, m.wiz.height, m.lang)
	m.screen = screenWizard
	m.footer.say(m.lang.Sprintf("opened phase %q: its answers are the questions'", ph.Name), false)
	if !note.IsZero() {
		m.footer.say(printable(m.lang.Message(note)), false) // the answers' other GPU count, as estimate --phase says it
	}
	m.layout()
	return m, tea.Batch(m.wiz.form.Init(), m.recompute())
}

// phaseVerdict is what gpuplan plan marks the opened phase's row with
// (Options.CheckPlan, the plan page's ✗ or ~ line: a job borderline or
// not fitting on its pinned offer, a service missing or borderline on
// its targets there), for the export dialog of its pinned offer: the
// line in the screen's language, and the note gpuplan export --config
// PLAN --phase NAME writes in the files' headers ("note: phase "serve":
// borderline on its pinned offer: …"), which the configurator's files
// lacked (tui37). Empty when the phase is unmarked, or no longer in the
// plan on the offer kept.
func (m app) phaseVerdict() (line string, notes []model.Message) {
	if m.keptPhase == "" || m.kept == nil {
		return "", nil
	}
	m.plan.checkPlan()
	for i := range m.plan.plan.Phases {
		ph := &m.plan.plan.Phases[i]
		if ph.Name != m.keptPhase || ph.Provider != m.kept.Provider || ph.Instance != m.kept.InstanceType || ph.Region != m.kept.Region {
			continue
		}
		if i >= len(m.plan.marks) || m.plan.marks[i].Targets.IsZero() {
			return "", nil
		}
		mark := m.plan.marks[i]
		sign := "✗"
		if mark.Borderline {
			sign = "~"
		}
		return printable(m.lang.Sprintf("%s phase %q: %s", sign, ph.Name, m.lang.Message(mark.Targets))), []model.Message{model.Msg("phase %q: %v", ph.Name, mark.Targets)}
	}
	return "", nil
}

// shellWord is s as one word a POSIX shell reads back as s: as it is
// when it holds only characters no shell treats specially, else in
// single quotes (a phase named "fine tune").
func shellWord(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./+:=@%,", r))
	}) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// phasePin is the pinned offer of a plan's phase ph, to be kept as the
// offer chosen (app.kept) while the answers of c, the phase's, rank it;
// c loses any selection of its own (the phase's file's). A phase without
// pricing is on-demand (the plan file's default, as gpuplan plan shows
// it), and answers that name no pricing take the phase's, as gpuplan
// export --phase prices the pin (its exportQuery): a spot phase ranks
// spot offers, its own among them. A job phase is on its offer's GPUs as
// rented (phaseOnOffer). nil when the phase names no offer; note is
// plan.JobOnOffer's when the answers name another GPU count.
func phasePin(cat *model.Catalog, c *config.Config, ph *plan.Phase) (_ *config.Selection, note model.Message) {
	c.Selection = nil
	if ph == nil {
		return nil, note
	}
	// The phase's offer as every --phase command takes it (plan.Phase.Configure).
	sel := ph.Configure(config.Config{}).Selection
	if sel == nil {
		return nil, note
	}
	if c.Search.Pricing == "" {
		c.Search.Pricing = sel.Pricing
	}
	if cat != nil {
		note = phaseOnOffer(cat, c, ph)
	}
	return sel, note
}

// phaseOnOffer puts the answers c of job phase ph on the GPUs its offer
// rents, as gpuplan plan, estimate --phase and export --phase take the
// phase (plan.JobOnOffer, plan.OnPhaseOffer): the instance type's GPUs ×
// the phase's instances, on several instances when it rents more than
// one, so that the ranking of the answers has the phase's offer as it is
// rented. A phase renting 2 × p4d.24xlarge was ranked on one 8-GPU p4d
// (the answers' gpus = "auto"), another job (walk37). Answers left to
// gpuplan (auto) on a phase renting one instance keep auto: it takes
// whole instances, the phase's one among them. The note is
// plan.JobOnOffer's when the answers name another count.
func phaseOnOffer(cat *model.Catalog, c *config.Config, ph *plan.Phase) (note model.Message) {
	if !c.Workload.Task.Training() {
		return note // serving: the pinned offer is vLLM's plan on it (plan.PinnedServing)
	}
	in, n := plan.PhaseOffer(cat, ph)
	nodes := max(ph.Instances, 1)
	if in == nil || nodes == 1 && c.Workload.GPUsAuto() || c.Workload.GPUs == n && !c.Workload.AutoGPUs && (nodes == 1 || c.Search.AllowMultiNode) {
		return note
	}
	if w, _, err := c.Workload.Resolve(cat, config.Readers{}); err == nil {
		ps := plan.PhaseScenarioFor(ph, w, c.Query(), cat)
		if job, ok, err := plan.JobOnOffer(cat, ph, &ps); ok && err == nil {
			note = job.Note
		}
	}
	c.Workload.GPUs, c.Workload.AutoGPUs = n, false
	if c.Workload.Strategy == model.Single {
		c.Workload.Strategy = model.DDP // as plan.OnOfferGPUs on several GPUs
	}
	if nodes > 1 {
		c.Search.AllowMultiNode = true
	}
	if c.Search.MaxGPUs > 0 && c.Search.MaxGPUs < n {
		c.Search.MaxGPUs = 0 // the ranking's cap, not the plan's (plan.JobOnOffer)
	}
	return note
}

// planCountNote is the footer line that counts the plan's phases.
func (m app) planCountNote() string {
	switch n := len(m.plan.plan.Phases); n {
	case 0:
		return m.lang.T("the plan has no phases yet: a on an offer adds one")
	case 1:
		return m.lang.Sprintf("%s in the plan: ctrl+e exports the plan in one TOML", m.lang.T("1 phase"))
	default:
		return m.lang.Sprintf("%s in the plan: ctrl+e exports the plan in one TOML", m.lang.Sprintf("%d phases", n))
	}
}

// openPlanExport opens the export dialog for the whole plan: one TOML
// with every phase (plan.Encode) that gpuplan plan and gpuplan
// --config reopen.
func (m app) openPlanExport() (tea.Model, tea.Cmd) {
	if len(m.plan.plan.Phases) == 0 {
		m.footer.say(m.lang.T("the plan has no phases yet: a on an offer adds one"), true)
		return m, nil
	}
	if err := planReopens(&m.plan.plan); err != nil {
		m.footer.say(errTextIn(m.lang, err), true)
		return m, nil
	}
	path := m.plan.path
	if path == "" || !typable(path) {
		path = defaultPlanExport
	}
	pl := m.plan.plan // the plan as it is now: later additions do not change this export
	pl.Phases = slices.Clone(pl.Phases)
	m.dialog = newExportDialog(path, config.Config{}, nil, launch.FormatTOML, m.theme, m.dialogWidth(), m.lang, nil, &pl)
	m.plan.exporting = true
	return m, m.dialog.init()
}
