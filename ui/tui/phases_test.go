package tui

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/plan"
	"github.com/gpuplan/gpuplan/ui/report"
)

var ctrlT = ctrl('t')

// twoPhases are the keys that plan "fine-tune with QLoRA, then serve for
// 6 months" from the first frame: the offers, a on the best, enter keeps
// the name "fine-tune"; back to the questions, task inference; the
// offers, a, months 6, enter.
func twoPhases() []tea.Msg {
	return msgs(ctrlO, runes("a"), enter, esc, esc, tab, down, tab, ctrlO, runes("a"), tab, clearLine, typed("6"))
}

// TestPlanGolden is the plan view at 80×24 and 120×40 from the fixed
// test catalog: both phases deleted, the prompt for the serving phase, then
// both phases with the total.
func TestPlanGolden(t *testing.T) {
	screens := []struct {
		name string
		keys []tea.Msg
	}{
		{"emptied", msgs(twoPhases(), enter, runes("d"), runes("d"))}, // the hint wraps at 80 columns, not cut
		{"prompt", twoPhases()},
		{"two-phases", msgs(twoPhases(), enter)},
	}
	for _, sc := range screens {
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s/%dx%d", sc.name, sz[0], sz[1]), func(t *testing.T) {
				t.Parallel()
				m := start(t, newTestApp(t, testCatalog(t), Options{}), append([]tea.Msg{size(sz[0], sz[1])}, sc.keys...)...)
				if m.screen != screenPlan {
					t.Fatalf("screen %v, want the plan:\n%s", m.screen, screenText(m))
				}
				view := m.View().Content
				checkFits(t, view, sz[0], sz[1])
				golden.RequireEqual(t, []byte(ansi.Strip(view)))
			})
		}
	}
}

// TestPlanPhases: the phases hold the answers and offers they were added
// with, the plan's total is the sum of the phases' costs, and the export
// reopens exactly (file → decode → encode gives the same bytes), with
// each phase's answers read back as the request it was.
func TestPlanPhases(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), append([]tea.Msg{size(120, 40)}, msgs(twoPhases(), enter)...)...)
	ph := m.plan.plan.Phases
	if len(ph) != 2 || ph[0].Name != "fine-tune" || ph[1].Name != "serve" {
		t.Fatalf("phases %+v", ph)
	}
	if ph[0].JobHours <= 0 || ph[0].Months != 0 || ph[0].Answers["task"] != "qlora" {
		t.Errorf("fine-tune: %+v", ph[0])
	}
	if ph[1].Months != 6 || ph[1].JobHours != 0 || ph[1].Answers["task"] != "inference" {
		t.Errorf("serve: %+v", ph[1])
	}
	// the total line is Σ job hours × $/h + 6 × 730 h × $/h
	want := ph[0].JobHours*ph[0].USDPerHour + 6*730*ph[1].USDPerHour
	if s := screenText(m); !strings.Contains(s, "Total "+report.USD(want)) {
		t.Errorf("total %s not shown:\n%s", report.USD(want), s)
	}

	path := filepath.Join(t.TempDir(), "plan.toml")
	m = drive(t, m, msgs(ctrlE, enter, replace(path), enter)...)
	if m.dialog != nil || m.plan.dirty {
		t.Fatalf("export: dialog %v, dirty %v:\n%s", m.dialog != nil, m.plan.dirty, screenText(m))
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	again, err := plan.Encode(&p)
	if err != nil || !bytes.Equal(again, b) {
		t.Errorf("the export does not round-trip (%v):\n%s\nwant\n%s", err, again, b)
	}
	for i := range p.Phases {
		c, err := p.Phases[i].ConfigFromAnswers()
		if err != nil {
			t.Fatalf("phase %q: %v", p.Phases[i].Name, err)
		}
		if want := []model.Task{model.TaskQLoRA, model.TaskInference}[i]; c.Workload.Task != want || c.Workload.Model != "llama-3.1-8b" {
			t.Errorf("phase %q reads back as %s %s", p.Phases[i].Name, c.Workload.Model, c.Workload.Task)
		}
	}

	// Reopened (gpuplan --config plan.toml): the plan view lists both.
	r := start(t, newTestApp(t, testCatalog(t), Options{Plan: &p, PlanPath: path}), size(120, 40), ctrlT)
	if s := screenText(r); r.screen != screenPlan || !strings.Contains(s, "fine-tune") || !strings.Contains(s, "serve") || !strings.Contains(s, "6 months") {
		t.Errorf("reopened plan:\n%s", s)
	}
}

// TestPlanPrompt: a name taken or empty, or months that are not a
// number, keep the prompt open with the reason; esc drops the phase and
// goes back to the offers; d on the plan deletes one.
func TestPlanPrompt(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), msgs(size(120, 40), ctrlO, runes("a"), enter, esc, runes("a"), clearLine, typed("fine-tune"), enter)...)
	if !m.plan.prompting() || !strings.Contains(screenText(m), `has a phase "fine-tune" already`) {
		t.Errorf("a taken name was accepted:\n%s", screenText(m))
	}
	// A name that only looks different (Cyrillic е for e), or mixes
	// scripts, is refused as the plan file would be (issue 29 L5).
	m = drive(t, m, msgs(clearLine, typed("fin\u0435-tune"), enter)...)
	if !m.plan.prompting() || !strings.Contains(screenText(m), "mixes scripts") {
		t.Errorf("a mixed-script name was accepted:\n%s", screenText(m))
	}
	// A letter under a stack of combining marks (issue 29, item 2).
	m = drive(t, m, msgs(clearLine, typed("serve\u0336\u0337\u0338\u0335\u0334"), enter)...)
	if !m.plan.prompting() || !strings.Contains(screenText(m), "stacks combining marks") {
		t.Errorf("a name under a stack of marks was accepted:\n%s", screenText(m))
	}
	m = drive(t, m, msgs(clearLine, typed("fine\u2010tune"), enter)...)
	if !m.plan.prompting() || !strings.Contains(screenText(m), `has a phase "fine-tune" already`) {
		t.Errorf("a look-alike name was accepted:\n%s", screenText(m))
	}
	m = drive(t, m, clearLine, enter)
	if !m.plan.prompting() || !strings.Contains(screenText(m), "give the phase a name") {
		t.Errorf("an empty name was accepted:\n%s", screenText(m))
	}
	m = drive(t, m, esc) // back to the offers the prompt was opened on (issue 31)
	if m.plan.prompting() || len(m.plan.plan.Phases) != 1 || m.screen != screenOffers {
		t.Errorf("esc: prompting %v, %d phases, screen %v", m.plan.prompting(), len(m.plan.plan.Phases), m.screen)
	}
	m = drive(t, m, ctrlT, runes("d"))
	if len(m.plan.plan.Phases) != 0 {
		t.Errorf("d left %d phases", len(m.plan.plan.Phases))
	}
	// serving: months must be a number of months
	m = start(t, newTestApp(t, testCatalog(t), Options{}), append([]tea.Msg{size(120, 40)}, msgs(twoPhases()[3:10], tab, clearLine, typed("six"), enter)...)...)
	if !m.plan.prompting() || !strings.Contains(screenText(m), "months: a number of months") {
		t.Errorf("months \"six\" accepted:\n%s", screenText(m))
	}
}

// TestPlanTeatest runs the program: add two phases, export the plan.
func TestPlanTeatest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plan.toml")
	tm := teatest.NewTestModel(t, newTestApp(t, testCatalog(t), Options{}), teatest.WithInitialTermSize(120, 40))
	sc := newScreen(tm, 120, 40)
	await(t, sc, "page 1 of 13")
	keys(tm, ctrlO)
	await(t, sc, "a add to plan")
	keys(tm, runes("a"))
	await(t, sc, "Add a phase")
	keys(tm, enter)
	await(t, sc, "1 phase in the plan")
	keys(tm, esc, esc)
	await(t, sc, "page 1 of 13")
	keys(tm, enter)
	await(t, sc, "┃ Task")
	keys(tm, down, tab) // QLoRA → inference (serving)
	await(t, sc, "page 2 of")
	keys(tm, ctrlO)
	await(t, sc, "$/Mtok out")
	keys(tm, runes("a"))
	await(t, sc, "months:")
	keys(tm, tab, clearLine)
	tm.Type("6")
	keys(tm, enter)
	await(t, sc, "2 phases in the plan")
	keys(tm, ctrlE)
	await(t, sc, "gpuplan TOML")
	keys(tm, enter)
	await(t, sc, "┃ Export to")
	keys(tm, clearLine)
	tm.Type(path)
	keys(tm, enter)
	await(t, sc, "exported to")
	_ = tm.Quit()
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(app)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.Decode(b)
	if err != nil || len(p.Phases) != 2 || p.Phases[1].Months != 6 || final.plan.dirty {
		t.Errorf("exported plan: %v, %+v, dirty %v", err, p, final.plan.dirty)
	}
}

// TestPlanPageWidths (tui37): the plan page's rows fit every width from
// 80 columns on, the cost column kept; from wideWidth (100) to 112
// columns a row was 113 cells and the frame cut the cost off.
func TestPlanPageWidths(t *testing.T) {
	for _, w := range []int{80, 99, 100, 104, 112, 113, 120, 160} {
		m := start(t, newTestApp(t, testCatalog(t), Options{}), append([]tea.Msg{size(w, 40)}, msgs(twoPhases(), enter)...)...)
		view := ansi.Strip(m.plan.view(m.st, w))
		checkFits(t, view, w, 40)
		lines := strings.Split(view, "\n")
		if len(lines) < 4 || !strings.HasSuffix(strings.TrimSpace(lines[1]), "cost") || !strings.Contains(lines[2], "$") || !strings.HasSuffix(strings.TrimSpace(lines[3]), report.USD(mustCost(t, &m.plan.plan.Phases[1]))) {
			t.Errorf("%d columns: the rows lack their cost:\n%s", w, view)
		}
	}
}

// mustCost is what phase p costs.
func mustCost(t *testing.T, p *plan.Phase) float64 {
	t.Helper()
	c, err := p.Cost()
	if err != nil {
		t.Fatal(err)
	}
	return c.USD
}
