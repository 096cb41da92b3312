package tui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/plan"
)

// undoPhases is a plan of phases a, b, c (their offers and prices do
// not matter to the list's keys).
func undoPhases(names ...string) []plan.Phase {
	out := make([]plan.Phase, len(names))
	for i, n := range names {
		out[i] = plan.Phase{Name: n, Provider: "lambda", Instance: "gpu_1x_a100_sxm4", Region: "us-east-1", Instances: 1, USDPerHour: 1.29, JobHours: 2}
	}
	return out
}

// listMsg is the key a step of TestPlanListUndo names.
func listMsg(s string) tea.KeyPressMsg {
	switch s {
	case "delete":
		return tea.KeyPressMsg{Code: tea.KeyDelete}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	}
	return runes(s)
}

// TestPlanListUndo: the plan list's keys on phases a, b, c. d and delete
// delete the phase under the cursor, backspace deletes nothing (it is the
// name prompt's key; k9s issue 21), u puts the last deleted back at its
// place with the cursor on it and the plan's changes as they were before
// it went; adding a phase ("+NAME", the prompt's enter) ends the undo; an
// export ("export") makes a phase put back a change to export.
func TestPlanListUndo(t *testing.T) {
	tests := []struct {
		name   string
		cursor int
		dirty  bool // before the keys
		steps  []string
		want   []string
		cursorWant,
		undos int
		dirtyWant bool
	}{
		{name: "d deletes b under the cursor: a c, cursor on c", cursor: 1, steps: []string{"d"},
			want: []string{"a", "c"}, cursorWant: 1, undos: 1, dirtyWant: true},
		{name: "delete deletes as d", cursor: 0, steps: []string{"delete"},
			want: []string{"b", "c"}, cursorWant: 0, undos: 1, dirtyWant: true},
		{name: "backspace deletes nothing", cursor: 1, steps: []string{"backspace"},
			want: []string{"a", "b", "c"}, cursorWant: 1},
		{name: "d then u: b back at 1, cursor on it, clean again", cursor: 1, steps: []string{"d", "u"},
			want: []string{"a", "b", "c"}, cursorWant: 1},
		{name: "d, cursor moved up, u: the cursor goes to b", cursor: 1, steps: []string{"d", "up", "u"},
			want: []string{"a", "b", "c"}, cursorWant: 1},
		{name: "d on a plan with changes, u: still changed", cursor: 1, dirty: true, steps: []string{"d", "u"},
			want: []string{"a", "b", "c"}, cursorWant: 1, dirtyWant: true},
		{name: "u with nothing to undo: nothing", cursor: 2, steps: []string{"u"},
			want: []string{"a", "b", "c"}, cursorWant: 2},
		{name: "u twice after one d: the second does nothing", cursor: 0, steps: []string{"d", "u", "u"},
			want: []string{"a", "b", "c"}, cursorWant: 0},
		{name: "d at the end: cursor on the new last, b", cursor: 2, steps: []string{"d"},
			want: []string{"a", "b"}, cursorWant: 1, undos: 1, dirtyWant: true},
		{name: "d at the end, u: c back at 2, the end", cursor: 2, steps: []string{"d", "u"},
			want: []string{"a", "b", "c"}, cursorWant: 2},
		{name: "d d d from the end: empty plan, cursor 0", cursor: 2, steps: []string{"d", "d", "d"},
			want: []string{}, cursorWant: 0, undos: 3, dirtyWant: true},
		{name: "d d d, u u u: a b c in order, cursor on a, the last put back", cursor: 0, steps: []string{"d", "d", "d", "u", "u", "u"},
			want: []string{"a", "b", "c"}, cursorWant: 0},
		{name: "d c, d b, u: a b, cursor on b; one more to undo", cursor: 2, steps: []string{"d", "d", "u"},
			want: []string{"a", "b"}, cursorWant: 1, undos: 1, dirtyWant: true},
		{name: "d b, then add x: a c x; u has nothing to put back", cursor: 1, steps: []string{"d", "+x", "u"},
			want: []string{"a", "c", "x"}, cursorWant: 2, dirtyWant: true},
		{name: "add x, then d x, u: a b c x, cursor on x", cursor: 0, steps: []string{"+x", "d", "u"},
			want: []string{"a", "b", "c", "x"}, cursorWant: 3, dirtyWant: true},
		{name: "d b, add b again, u: no second b", cursor: 1, steps: []string{"d", "+b", "u"},
			want: []string{"a", "c", "b"}, cursorWant: 2, dirtyWant: true},
		{name: "d b, export, u: b back, a change the file lacks", cursor: 1, steps: []string{"d", "export", "u"},
			want: []string{"a", "b", "c"}, cursorWant: 1, dirtyWant: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := &planView{plan: plan.Plan{Phases: undoPhases("a", "b", "c")}, cursor: tt.cursor, dirty: tt.dirty, checked: true}
			k := defaultPlanKeys()
			for _, s := range tt.steps {
				switch {
				case strings.HasPrefix(s, "+"): // a phase added as the prompt adds it
					v.startAdd(undoPhases("new")[0], model.TaskTrain)
					v.name.SetValue(s[1:])
					v.commit()
					if v.prompting() {
						t.Fatalf("adding %q: %s", s[1:], v.err)
					}
				case s == "export":
					v.exporting = true
					v.exported()
				default:
					v.listKey(listMsg(s), &k)
				}
			}
			var got []string
			for _, p := range v.plan.Phases {
				got = append(got, p.Name)
			}
			if !slices.Equal(got, tt.want) || v.cursor != tt.cursorWant || len(v.deleted) != tt.undos || v.dirty != tt.dirtyWant {
				t.Errorf("%v: phases %q, cursor %d, %d to undo, dirty %v; want %q, cursor %d, %d to undo, dirty %v",
					tt.steps, got, v.cursor, len(v.deleted), v.dirty, tt.want, tt.cursorWant, tt.undos, tt.dirtyWant)
			}
			changed := slices.ContainsFunc(tt.steps, func(s string) bool { return s == "d" || s == "delete" || s[0] == '+' })
			if v.checked == changed {
				t.Errorf("%v: checked %v after the keys, want %v (asked again after a change)", tt.steps, v.checked, !changed)
			}
		})
	}
}

// TestPlanUndoPage: on the configurator's plan page (opened from a
// file), d says "deleted phase NAME · u: undo" and the help shows u undo;
// u puts the phase back with gpuplan plan's mark (the check asked again),
// the line and u gone, and q quits without asking: the plan is the
// file's again.
func TestPlanUndoPage(t *testing.T) {
	b, err := os.ReadFile("testdata/plan39.toml")
	if err != nil {
		t.Fatal(err)
	}
	pl, err := plan.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	checks := 0
	check := func(p *plan.Plan) ([]string, []plan.PhaseCost) { // marks the train phase, wherever it is
		checks++
		marks := make([]plan.PhaseCost, len(p.Phases))
		for i := range p.Phases {
			if p.Phases[i].Name == "train" {
				marks[i].Targets, marks[i].Borderline = model.Msg("borderline on its pinned offer: %v", model.Msg("TPOT")), true
			}
		}
		return nil, marks
	}
	m := start(t, newTestApp(t, testCatalog(t), Options{Plan: &pl, PlanPath: "plan.toml", CheckPlan: check}), size(120, 40), ctrlT)
	if s := screenText(m); m.plan.cursor != 0 || !strings.Contains(s, "~ train") || strings.Contains(s, "u undo") {
		t.Fatalf("the plan before d:\n%s", s)
	}
	m = drive(t, m, runes("d"))
	s := screenText(m)
	if len(m.plan.plan.Phases) != len(pl.Phases)-1 || !strings.Contains(s, `deleted phase "train" · u: undo`) || !strings.Contains(s, "u undo") || !m.plan.dirty {
		t.Fatalf("after d: %d phases, dirty %v:\n%s", len(m.plan.plan.Phases), m.plan.dirty, s)
	}
	before := checks
	m = drive(t, m, runes("u"))
	s = screenText(m)
	if len(m.plan.plan.Phases) != len(pl.Phases) || m.plan.plan.Phases[0].Name != "train" || m.plan.cursor != 0 || !strings.Contains(s, "› ~ train") {
		t.Errorf("after u: phases %+v, cursor %d:\n%s", m.plan.plan.Phases, m.plan.cursor, s)
	}
	if checks == before {
		t.Errorf("after u the plan was not checked again")
	}
	if strings.Contains(s, "deleted phase") || strings.Contains(s, "u undo") || m.keys.Plan.Undo.Enabled() {
		t.Errorf("after u the undo is still offered:\n%s", s)
	}
	if _, cmd := m.Update(runes("q")); cmd == nil || run(cmd) != tea.Quit() {
		t.Errorf("q after d and u asks before quitting: the plan is the file's")
	}
	m = drive(t, m, runes("u")) // nothing left to undo: u does nothing
	if len(m.plan.plan.Phases) != len(pl.Phases) || m.plan.dirty {
		t.Errorf("a second u: %d phases, dirty %v", len(m.plan.plan.Phases), m.plan.dirty)
	}
}

// TestPlanUndoHelp: u undo is in the plan page's help only while a phase
// can be put back, not while the name prompt has the keys, and d delete
// phase not in the prompt either (d is a letter of the name there).
func TestPlanUndoHelp(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), msgs(size(120, 40), twoPhases())...) // the serve phase's prompt
	if s := screenText(m); strings.Contains(s, "d delete •") || strings.Contains(s, "u undo") {
		t.Errorf("the prompt's help offers d or u:\n%s", s)
	}
	m = drive(t, m, enter, runes("d"))
	if s := screenText(m); !strings.Contains(s, "d delete • u undo") {
		t.Errorf("after d the help lacks u undo:\n%s", s)
	}
	m = drive(t, m, runes("?"))
	if s := screenText(m); !strings.Contains(s, "u     undo") {
		t.Errorf("the full help lacks u undo:\n%s", s)
	}
	m = drive(t, m, runes("?"), esc, runes("a")) // back to the offers, another phase: the undo ends
	if s := screenText(m); !m.plan.prompting() || strings.Contains(s, "u undo") || strings.Contains(s, "deleted phase") {
		t.Errorf("the prompt offers the undo:\n%s", s)
	}
	m = drive(t, m, enter)
	if s := screenText(m); strings.Contains(s, "u undo") || strings.Contains(s, "deleted phase") || m.plan.canUndo() {
		t.Errorf("after adding a phase the undo is offered:\n%s", s)
	}
}

// TestPlanUndoGolden is the plan page at 80×24 after d on the serve
// phase of TestPlanGolden's two, in English and Chinese: the "deleted
// phase" line under the total, u undo in the help.
func TestPlanUndoGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		lang language.Tag
	}{{"en", language.English}, {"zh-CN", language.SimplifiedChinese}} {
		t.Run(tc.name+"/80x24", func(t *testing.T) {
			t.Parallel()
			m := start(t, newTestApp(t, testCatalog(t), Options{Lang: tc.lang}), msgs(size(80, 24), twoPhases(), enter, runes("d"))...)
			if m.screen != screenPlan || len(m.plan.plan.Phases) != 1 {
				t.Fatalf("screen %v, %d phases:\n%s", m.screen, len(m.plan.plan.Phases), screenText(m))
			}
			view := m.View().Content
			checkFits(t, view, 80, 24)
			golden.RequireEqual(t, []byte(ansi.Strip(view)))
		})
	}
}

// TestPlanExportAsksBeforeOverwriting: ctrl+e on a plan opened from a
// file proposes that file, and, as every export (writeConfig without
// overwrite, then the overwrite question), asks before writing over it:
// the file is unchanged until "overwrite" is answered.
func TestPlanExportAsksBeforeOverwriting(t *testing.T) {
	b, err := os.ReadFile("testdata/plan39.toml")
	if err != nil {
		t.Fatal(err)
	}
	pl, err := plan.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "plan.toml")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	m := start(t, newTestApp(t, testCatalog(t), Options{Plan: &pl, PlanPath: path}), size(120, 40), ctrlT, runes("d"), ctrlE)
	if m.dialog == nil || m.dialog.path != path {
		t.Fatalf("ctrl+e proposes %v, want %s:\n%s", m.dialog, path, screenText(m))
	}
	m = drive(t, m, enter, enter) // the TOML, the proposed name
	if m.dialog == nil || m.dialog.kind != dialogExportOverwrite {
		t.Fatalf("no overwrite question:\n%s", screenText(m))
	}
	if got, _ := os.ReadFile(path); string(got) != string(b) {
		t.Fatalf("the file was written before the question")
	}
	m = drive(t, m, runes("n"))
	if got, _ := os.ReadFile(path); string(got) != string(b) || !m.plan.dirty {
		t.Errorf("no to overwriting: file changed %v, dirty %v", string(got) != string(b), m.plan.dirty)
	}
}
