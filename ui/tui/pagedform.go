package tui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
)

// pagedForm is the questions as one huh.Form per page, each built when
// its page first comes on screen. huh builds a form's groups whole:
// huh.NewGroup draws every field of its page to measure it (with huh's
// default theme, built anew for each measure, as a group's theme can only
// be set afterwards), and Form.Init draws every group again. With one
// form of all the pages, the first frame drew every page (hidden ones
// too) to show one: ≈ 30 ms of a cold start on the 2-core VM of docs/speed.md.
//
// It moves between pages as a huh.Form moves between groups (Form.Update
// on huh's nextGroupMsg and prevGroupMsg): pages that do not apply are
// skipped, a page whose field has an error is not left, leaving the last
// page that applies completes the form. Each page's fields get the
// position they would have in one form of every page (place), so their
// keys are the same: shift+tab back on a page's first field, enter to
// finish only on the last page.
//
// Each page's form but the first (see first) has an empty group before
// the page and one after it. huh moves onto them where one form of every
// page would move to the page before or after (whatever the key, a
// filter set or not), and completes a form, for good, only past its last
// group; Update notices the move, steps the page's form back onto the
// page, and moves pages.
type pagedForm struct {
	w      *wizard
	forms  []*huh.Form   // per page; nil until the page is built
	starts []huh.Field   // each page form's empty first group's field
	ends   []huh.Field   // each page form's empty last group's field
	shown  []bool        // the page has been on screen
	cur    int           // the page on screen
	laid   [3]int        // the page, first and last page that apply, as place last set them
	State  huh.FormState // huh.StateCompleted once the last page that applies is left forward
}

func newPagedForm(w *wizard) *pagedForm {
	n := len(w.pages)
	p := &pagedForm{w: w, forms: make([]*huh.Form, n), starts: make([]huh.Field, n), ends: make([]huh.Field, n), shown: make([]bool, n), laid: [3]int{-1, -1, -1}}
	p.build(0)
	return p
}

// form is the page on screen's form.
func (p *pagedForm) form() *huh.Form { return p.forms[p.cur] }

// build makes page i's form unless it is made; the fields register
// themselves with the wizard (inputs, checks) as they are built. The
// first page's form is made again around the fields it had (first), so
// that they come back as they were left, a filter set on a list kept, as
// on every other page.
func (p *pagedForm) build(i int) {
	if p.forms[i] != nil {
		return
	}
	w := p.w
	fs := w.fields[i]
	var filters []filterKeys // of the fields made again
	if fs == nil {
		fs = w.pages[i].fields(false)
		for _, f := range fs {
			f.WithTheme(w.theme) // before NewGroup measures them: huh builds a theme per call otherwise
		}
	} else {
		filters = make([]filterKeys, len(fs))
		for j, f := range fs {
			filters[j] = filterKeysOf(f)
		}
	}
	w.fields[i] = fs
	w.groups[i] = huh.NewGroup(fs...) // the header names the page
	w.sizedAt[i] = -1                 // a new group: sized when on screen
	groups := []*huh.Group{w.groups[i]}
	p.starts[i], p.ends[i] = nil, nil
	if !p.first(i) {
		p.starts[i], p.ends[i] = huh.NewConfirm(), huh.NewConfirm()
		groups = []*huh.Group{huh.NewGroup(p.starts[i]), w.groups[i], huh.NewGroup(p.ends[i])}
	}
	p.forms[i] = huh.NewForm(groups...).WithShowHelp(false).WithShowErrors(false).WithKeyMap(w.keys).WithTheme(w.theme)
	for j, k := range filters {
		k.restore(fs[j], w.keys)
	}
	if p.starts[i] != nil {
		p.forms[i].NextGroup() // onto the page: what is drawn and asked before Init (show) is the page
	}
}

// filterKeys is how a select's filter keys stand: huh enables them as
// its filter opens, is set and is cleared, and a form's WithKeyMap, on
// a field made again, resets them (the filter itself stays in the field).
type filterKeys struct{ filtering, set bool }

// filterKeysOf reads f's: not filtering, esc clears a set filter.
func filterKeysOf(f huh.Field) filterKeys {
	s, _, ok := asSelect(f)
	if !ok {
		return filterKeys{}
	}
	if s.GetFiltering() {
		return filterKeys{filtering: true}
	}
	for _, b := range s.KeyBinds() {
		if b.Enabled() && slices.Contains(b.Keys(), "esc") {
			return filterKeys{set: true}
		}
	}
	return filterKeys{}
}

// restore gives f its filter keys back, as huh.Select's setFiltering
// sets them, over the form's keys.
func (k filterKeys) restore(f huh.Field, keys *huh.KeyMap) {
	if !k.filtering && !k.set {
		return // as WithKeyMap leaves them
	}
	own := *keys
	own.Select.Filter.SetEnabled(!k.filtering)
	own.Select.SetFilter.SetEnabled(k.filtering)
	own.Select.ClearFilter.SetEnabled(k.set)
	f.WithKeyMap(&own)
}

// first reports whether page i is the first page and always asked: no
// page is before it, and its fields register nothing with the wizard, so
// its form has no empty groups (two huh.NewGroup calls, ≈ 1 ms of a cold
// start): leaving it forward completes the form, which is built again,
// around the same fields, for a return.
func (p *pagedForm) first(i int) bool { return i == 0 && p.w.pages[0].hide == nil }

// show puts page i on screen, built and with its selected field focused,
// as huh does with a group it moves to (Group.Init through Form.Init). A
// page shown for the first time is entered at its first field, or at its
// last when moving back (back), as if it had been walked through.
func (p *pagedForm) show(i int, back bool) tea.Cmd {
	fresh := p.forms[i] == nil || !p.shown[i] // the first page is built before it is shown
	p.build(i)
	p.shown[i] = true
	p.cur = i
	f := p.forms[i]
	cmd := f.Init()
	p.place(true)
	if fs := p.w.fields[i]; fresh && back {
		last := len(fs) - 1
		for last > 0 && fs[last].Skip() {
			last--
		}
		for range fs {
			if f.GetFocusedField() == fs[last] {
				break
			}
			cmd = tea.Batch(cmd, f.NextField())
		}
	}
	return cmd
}

// applies reports whether page i applies to the answers (huh's hidden group).
func (p *pagedForm) applies(i int) bool {
	h := p.w.pages[i].hide
	return h == nil || !h()
}

// Init shows the first page that applies from the one on screen on.
func (p *pagedForm) Init() tea.Cmd {
	for i := p.cur; i < len(p.forms); i++ {
		if p.applies(i) {
			return p.show(i, false)
		}
	}
	return p.show(p.cur, false)
}

// Update passes msg to the page on screen; one of the page form's empty
// groups taking the focus means the page was left (huh's nextGroupMsg,
// prevGroupMsg): the form steps back onto the page, for a return (its
// focus is redone then), and the page before or after is shown.
//
// A key's focus moves are made before Update returns (settle), so that
// the next key, read with it, goes to the field it moved to.
func (p *pagedForm) Update(msg tea.Msg) tea.Cmd {
	cmd := p.update(msg)
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		cmd = settle(cmd, p.update)
	}
	return cmd
}

func (p *pagedForm) update(msg tea.Msg) tea.Cmd {
	if p.State != huh.StateNormal {
		return nil
	}
	f := p.form()
	_, cmd := f.Update(msg)
	if f.State == huh.StateCompleted { // the first page left forward: its form is done for good
		p.forms[p.cur] = nil
		return tea.Batch(cmd, p.next())
	}
	switch focused := f.GetFocusedField(); {
	case focused == p.ends[p.cur]:
		f.PrevGroup()
		return tea.Batch(cmd, p.next())
	case focused == p.starts[p.cur] && focused != nil:
		f.NextGroup()
		return tea.Batch(cmd, p.prev())
	}
	_, key := msg.(tea.KeyPressMsg) // huh set the fields' positions for its own form
	p.place(key)
	return cmd
}

// next moves to the next page that applies, or completes the form.
func (p *pagedForm) next() tea.Cmd {
	for i := p.cur + 1; i < len(p.forms); i++ {
		if p.applies(i) {
			return p.show(i, false)
		}
	}
	p.State = huh.StateCompleted
	return nil
}

// prev moves to the page before that applies; on the first, it stays
// (huh re-enters the group).
func (p *pagedForm) prev() tea.Cmd {
	for i := p.cur - 1; i >= 0; i-- {
		if p.applies(i) {
			return p.show(i, true)
		}
	}
	return p.show(p.cur, false)
}

// NextGroup is huh.Form.NextGroup over the pages: not while the page's
// field has an error; past the last page that applies, the form completes.
func (p *pagedForm) NextGroup() tea.Cmd {
	if p.State != huh.StateNormal || len(p.form().Errors()) > 0 {
		return nil
	}
	return p.next()
}

// PrevGroup is huh.Form.PrevGroup over the pages: not while the page's
// field has an error; on the first page that applies it stays.
func (p *pagedForm) PrevGroup() tea.Cmd {
	if p.State != huh.StateNormal || len(p.form().Errors()) > 0 {
		return nil
	}
	return p.prev()
}

// goTo shows page i whatever the answers on the page on screen (the
// configurator's own moves: back past an invalid answer, to the last
// page after the offers).
func (p *pagedForm) goTo(i int) tea.Cmd {
	p.State = huh.StateNormal
	return p.show(i, false)
}

// place gives the page's fields the positions one form of every page
// would (huh.Form.UpdateFieldPositions): their keys follow (Prev off on
// the first field of the first page that applies, Submit only on the
// last field of the last). again: huh has just set its own.
func (p *pagedForm) place(again bool) {
	first, last := -1, -1
	for i := range p.forms {
		if p.applies(i) {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if laid := [3]int{p.cur, first, last}; laid != p.laid || again {
		p.laid = laid
	} else {
		return
	}
	fs := p.w.fields[p.cur]
	firstField, lastField := 0, 0
	for _, f := range fs { // huh: the first and last fields that are not skipped
		if !f.Skip() || len(fs) == 1 {
			break
		}
		firstField++
	}
	for i := len(fs) - 1; i >= 0; i-- {
		lastField = i
		if !fs[i].Skip() || len(fs) == 1 {
			break
		}
	}
	for i, f := range fs {
		f.WithPosition(huh.FieldPosition{Group: p.cur, Field: i, FirstField: firstField, LastField: lastField, FirstGroup: first, LastGroup: last})
	}
}

func (p *pagedForm) View() string               { return p.form().View() }
func (p *pagedForm) GetFocusedField() huh.Field { return p.form().GetFocusedField() }
func (p *pagedForm) Errors() []error            { return p.form().Errors() }
func (p *pagedForm) KeyBinds() []key.Binding    { return p.form().KeyBinds() }
