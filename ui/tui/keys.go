package tui

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/table"

	"github.com/gpuplan/gpuplan/ui/i18n"
)

// keyMap is the configurator's keys; bindings that do nothing on the
// current screen are disabled so that the help never lies.
type keyMap struct {
	Back                 key.Binding
	Export, Offers       key.Binding
	Open, Sort, Provider key.Binding
	Help, Quit           key.Binding
	Lang                 key.Binding // on the full help: the other language (lang.go)
	Table                table.KeyMap
	Browse               key.Binding // opens the market browser (browse.go)
	Market               browseKeys  // the browser's own keys
	browseShort          bool        // Browse is in the short help (the first page, the offers)
	notice               bool        // the catalog's warnings show: the help is anyKey and Quit only (ShortHelp)
	Regions              key.Binding // the offers list: expand or collapse "+N regions"
	Plan                 planKeys    // add to plan, open the plan, delete a phase, undo (phases.go)
	// Guide are help-only bindings for the full help (?): keys huh or
	// the views handle that the focused field's own help leaves out (tab
	// and shift+tab on a select, x and ctrl+a off the lists that take
	// them, ctrl+t before the plan has a phase), and Scroll, in the short
	// help too, while an offer's detail is longer than the screen.
	Guide  []key.Binding
	Scroll key.Binding
	// form holds the focused field's own keys (huh's: tab/enter next,
	// shift+tab back, ↑/↓, / to search), shown first in the help.
	form []key.Binding
	// lang translates the help texts forScreen sets (nil: English).
	lang *i18n.Printer
}

// localKeys is defaultKeys with the help texts in p's language (the keys
// themselves stay as typed).
func localKeys(p *i18n.Printer) keyMap {
	k := defaultKeys()
	k.lang = p
	if p == nil {
		return k
	}
	if p.Chinese() {
		k.Lang.SetHelp("L", "English")
	}
	t := &k.Table
	for i := range k.Guide {
		h := k.Guide[i].Help()
		k.Guide[i].SetHelp(h.Key, p.T(h.Desc))
	}
	k.Scroll.SetHelp(k.Scroll.Help().Key, p.T(k.Scroll.Help().Desc))
	for _, b := range []*key.Binding{&k.Back, &k.Export, &k.Offers, &k.Open, &k.Sort, &k.Provider, &k.Help, &k.Quit, &k.Browse, &k.Regions,
		&k.Market.Accept, &k.Market.Edit, &k.Market.Pick, &k.Market.Sort, &k.Market.SortBack, &k.Market.Group, &k.Market.Regions, &k.Market.ClearGPU,
		&k.Market.Up, &k.Market.Down, &k.Market.PageUp, &k.Market.PageDown, &k.Plan.Add, &k.Plan.Open, &k.Plan.Edit, &k.Plan.Delete, &k.Plan.Undo,
		&t.LineUp, &t.LineDown, &t.PageUp, &t.PageDown, &t.HalfPageUp, &t.HalfPageDown, &t.GotoTop, &t.GotoBottom} {
		h := b.Help()
		b.SetHelp(h.Key, p.T(h.Desc))
	}
	// "regions" is also a column title (地域数, how many regions); the r
	// key expands and collapses the "+N regions" rows.
	k.Regions.SetHelp(k.Regions.Help().Key, p.T("regions (expand or collapse)"))
	return k
}

func defaultKeys() keyMap {
	return keyMap{
		Back:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Export:   key.NewBinding(key.WithKeys("ctrl+e"), key.WithHelp("ctrl+e", "export")),
		Offers:   key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "all offers")),
		Open:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "details")),
		Sort:     key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort")),
		Provider: key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "provider filter")),
		Help:     key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		// Named in the language it switches to, as language menus are.
		Lang:    key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "简体中文")),
		Quit:    key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Table:   table.DefaultKeyMap(),
		Browse:  key.NewBinding(key.WithKeys("ctrl+b"), key.WithHelp("ctrl+b", "browse")),
		Market:  defaultBrowseKeys(),
		Regions: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "regions")),
		Plan:    defaultPlanKeys(),
		Guide: []key.Binding{
			key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next question")),
			key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous question")),
			key.NewBinding(key.WithKeys("x"), key.WithHelp("x/space", "choose (providers, regions)")),
			key.NewBinding(key.WithKeys("ctrl+a"), key.WithHelp("ctrl+a", "choose all (providers, regions)")),
			// a works on the offers and an offer's detail (Plan.Add, listed
			// there); on the questions the help says where, so that ctrl+t's
			// line does not name a key the help lists nowhere.
			key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "add a phase (on an offer: ctrl+o)")),
			key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "plan (a adds its first phase)")),
		},
		Scroll: key.NewBinding(key.WithKeys("up", "down", "pgup", "pgdown"), key.WithHelp("↑↓", "scroll")),
	}
}

// guide enables the full help's guide keys (Guide) for the screen:
// the questions' keys on the questions, unless the field's own help has
// them (a list of choices says x and ctrl+a itself); a (where to press
// it) on the questions; ctrl+t while the
// plan has no phase (then Plan.Open is off); Scroll while an offer's
// detail runs past the screen.
func (k *keyMap) guide(s screen, dialog, multi, planEmpty, overflow bool) {
	wizard := s == screenWizard && !dialog
	for i := range k.Guide {
		on := wizard
		switch i {
		case 2, 3:
			on = wizard && !multi
		case 4: // a: on the questions; the offers and a detail list Plan.Add itself
			on = wizard
		case 5:
			on = planEmpty && !dialog && (s == screenWizard || s == screenOffers || s == screenDetail)
		}
		// Not a key the field's own help already lists: huh's shift+tab
		// "back" and the guide's "previous question" were both in the
		// Where page's help (walk49).
		for _, b := range k.form {
			if on && b.Enabled() && b.Help().Key == k.Guide[i].Help().Key {
				on = false
			}
		}
		k.Guide[i].SetEnabled(on)
	}
	k.Scroll.SetEnabled(s == screenDetail && !dialog && overflow)
}

// anyKey is any key over the catalog's warnings (notice.go), which closes
// them, for the help to show: no key matches it (app.key closes the box
// on whatever comes). Built when asked, while they show: the keyMap is
// copied with the app on every message.
func (k keyMap) anyKey() key.Binding {
	return key.NewBinding(key.WithKeys("any"), key.WithHelp(k.lang.T("any key"), k.lang.T("close the warnings")))
}

// browseKeys are the market browser's keys; letters go to its filter
// line, so none is a letter.
// Accept (enter on the line) and Pick (enter on the list) share enter:
// one is on at a time (app.layout), as is Edit, / on the list.
type browseKeys struct {
	Accept, Edit                                   key.Binding
	Pick, Sort, SortBack, Group, Regions, ClearGPU key.Binding
	Up, Down, PageUp, PageDown                     key.Binding
}

func defaultBrowseKeys() browseKeys {
	return browseKeys{
		Accept:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "accept filter")),
		Edit:     key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "edit filter")),
		Pick:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "pick GPU")),
		Sort:     key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "sort")),
		SortBack: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "sort back")),
		Group:    key.NewBinding(key.WithKeys("ctrl+g"), key.WithHelp("ctrl+g", "group")),
		Regions:  key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "all regions")),
		ClearGPU: key.NewBinding(key.WithKeys("ctrl+x"), key.WithHelp("ctrl+x", "clear the pick")),
		Up:       key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "up")),
		Down:     key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
	}
}

// enable turns the browser's keys on or off; ClearGPU only while the
// request has a GPU limit.
func (b *browseKeys) enable(on, limited bool) {
	for _, k := range []*key.Binding{&b.Accept, &b.Edit, &b.Pick, &b.Sort, &b.SortBack, &b.Group, &b.Regions, &b.Up, &b.Down, &b.PageUp, &b.PageDown} {
		k.SetEnabled(on)
	}
	b.ClearGPU.SetEnabled(on && limited)
}

// forScreen enables the bindings that work on screen s; typing means a
// text field has the focus, where q and ? are letters; filtering that
// esc belongs to a list's search.
func (k *keyMap) forScreen(s screen, typing, filtering, dialog bool) {
	wizard, offers, detail := s == screenWizard, s == screenOffers, s == screenDetail
	k.Back.SetEnabled(!wizard || dialog || !filtering)
	switch {
	case dialog:
		k.Back.SetHelp("esc", k.lang.T("cancel"))
	case wizard:
		k.Back.SetHelp("esc", k.lang.T("previous page"))
	default:
		k.Back.SetHelp("esc", k.lang.T("back"))
	}
	k.Offers.SetEnabled(wizard && !dialog)
	k.Browse.SetEnabled((wizard || offers) && !dialog)
	k.Regions.SetEnabled(offers && !dialog)
	k.Open.SetEnabled(offers && !dialog)
	k.Sort.SetEnabled(offers && !dialog)
	k.Provider.SetEnabled(offers && !dialog)
	k.Export.SetEnabled(!dialog)
	k.Help.SetEnabled(!typing && !dialog)
	k.Quit.SetEnabled(!dialog)
	if typing || dialog {
		k.Quit.SetHelp("ctrl+c", k.lang.T("quit"))
	} else {
		k.Quit.SetHelp("q", k.lang.T("quit"))
	}
	for _, b := range []*key.Binding{&k.Table.LineUp, &k.Table.LineDown, &k.Table.PageUp, &k.Table.PageDown,
		&k.Table.HalfPageUp, &k.Table.HalfPageDown, &k.Table.GotoTop, &k.Table.GotoBottom} {
		b.SetEnabled((offers || detail) && !dialog)
	}
}

// ShortHelp is the footer's line: the field's own keys, then ours.
func (k keyMap) ShortHelp() []key.Binding {
	if k.notice {
		return []key.Binding{k.anyKey(), k.Quit}
	}
	out := append([]key.Binding{}, k.form...)
	m, browse := &k.Market, k.Browse
	if !k.browseShort {
		browse = key.NewBinding(key.WithDisabled())
	}
	return append(out, k.Back, m.Accept, m.Pick, m.Edit, m.Sort, m.Group, m.Regions, m.ClearGPU, k.Scroll, k.Open, k.Sort, k.Provider, k.Plan.Add, k.Plan.Edit, k.Plan.Delete, k.Plan.Undo, k.Offers, browse, k.Plan.Open, k.Export, k.Help, k.Quit)
}

// FullHelp is the ? view: columns of related keys. (Over the warnings
// it is never shown: ? closes them like any key. No branch for them here:
// FullHelp stays small enough to inline, its slices on the stack.)
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		k.form,
		k.Guide,
		{k.Back, k.Offers, k.Browse, k.Export, k.Help, k.Lang, k.Quit},
		{k.Open, k.Sort, k.Provider, k.Regions},
		{k.Plan.Add, k.Plan.Open, k.Plan.Edit, k.Plan.Delete, k.Plan.Undo},
		{k.Market.Accept, k.Market.Pick, k.Market.Edit, k.Market.Sort, k.Market.SortBack, k.Market.Group, k.Market.Regions, k.Market.ClearGPU},
		{k.Scroll, k.Table.LineUp, k.Table.LineDown, k.Table.PageUp, k.Table.PageDown, k.Table.GotoTop, k.Table.GotoBottom},
	}
}

// translate returns copies of huh's field keys (bs) with their help in
// k's language.
func (k *keyMap) translate(bs []key.Binding) []key.Binding {
	if k.lang == nil {
		return bs
	}
	out := make([]key.Binding, len(bs))
	for i, b := range bs {
		h := b.Help()
		b.SetHelp(h.Key, k.lang.T(h.Desc))
		out[i] = b
	}
	return out
}
