package tui

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
)

// burst sends msgs to m one after another without running the commands
// each returns in between, as the program handles keys that arrive in
// one read (fast typing, a paste, tmux send-keys): their commands'
// messages reach Update only after every key of the batch. Then it
// runs those commands, as drive does.
func burst(tb testing.TB, m tea.Model, msgs ...tea.Msg) app {
	tb.Helper()
	var cmds []tea.Cmd
	for _, msg := range msgs {
		var cmd tea.Cmd
		m, cmd = m.Update(msg)
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if cmd != nil {
			m = step(tb, m, cmd)
		}
	}
	return m.(app)
}

// A key that arrives with tab in one batch goes to the field tab moved
// to, not to the one tab left: huh moves the focus by a command
// (huh.NextField), whose message the program handled after the keys
// already read, so tab+down changed the framework and tab+backspace
// cut the batch size while the focus moved on.
func TestKeysAfterTabInOneBatch(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	framework, task := m.a.Framework, m.a.Task
	m = burst(t, m, tab, down)
	if m.a.Framework != framework {
		t.Errorf("tab+down on Framework: framework %s → %s, want it kept", framework, m.a.Framework)
	}
	if m.a.Task == task {
		t.Errorf("tab+down on Framework: task still %s, want the next task", task)
	}
	if s, _, ok := asSelect(m.wiz.form.GetFocusedField()); !ok || s.GetValue() != m.a.Task {
		t.Errorf("focus is not on Task after tab")
	}

	m = toPage(t, m, "Batch and length")
	batch, length := m.a.Batch, m.a.Length
	m = burst(t, m, tab, tea.KeyPressMsg{Code: tea.KeyBackspace})
	if m.a.Batch != batch {
		t.Errorf("tab+backspace on the batch size: %q → %q, want it kept", batch, m.a.Batch)
	}
	if want := length[:len(length)-1]; m.a.Length != want {
		t.Errorf("tab+backspace on the batch size: length %q → %q, want %q", length, m.a.Length, want)
	}

	// Enter on a page's last field and a key in the same batch: the key
	// goes to the next page.
	m = start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	model := m.a.Model
	m = burst(t, m, tab, enter, down)
	if got := focusedTitle(m); got != "Model" {
		t.Errorf("tab, enter, down: page %q, want Model", got)
	}
	if m.a.Task != task {
		t.Errorf("tab, enter, down: task %s → %s, want it kept", task, m.a.Task)
	}
	if m.a.Model == model {
		t.Errorf("tab, enter, down: model still %s, want the next one", model)
	}
}

// TestFocusMovesKnown keeps settle honest across huh and Bubble Tea
// upgrades: the command a huh form returns for tab, inside a batch or
// not, is found and its move made at once; other commands are kept.
func TestFocusMovesKnown(t *testing.T) {
	var a, b string
	form := huh.NewForm(huh.NewGroup(huh.NewInput().Value(&a), huh.NewInput().Value(&b)))
	form.Init()
	_, cmd := form.Update(tab)
	other := func() tea.Msg { return refreshMsg{} }
	for _, c := range []tea.Cmd{cmd, tea.Batch(other, cmd, tea.Batch(other, cmd))} {
		var moves int
		rest := settle(c, func(msg tea.Msg) tea.Cmd {
			if msg != huh.NextField() {
				t.Errorf("settle passed on %T, want huh's next-field message", msg)
			}
			moves++
			return nil
		})
		if moves == 0 {
			t.Errorf("tab's focus move (%s) was not found: update focusMoves or batchFunc", funcName(c))
		}
		if rest != nil && strings.Contains(funcName(rest), batchFunc) {
			if msg, ok := rest().(tea.BatchMsg); ok && slices.ContainsFunc(msg, func(c tea.Cmd) bool { return focusMoves[funcName(c)] }) {
				t.Error("a focus move was left in the batch")
			}
		}
	}
	if moves := 0; settle(tea.Batch(other, other), func(tea.Msg) tea.Cmd { moves++; return nil }) == nil || moves > 0 {
		t.Error("settle dropped or ran commands that move no focus")
	}
}
