package tui

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/report"
)

// The quit dialog kept its size when its message wrapped, and huh cut
// the buttons off ("quit [ stay ]" gone) at 80 and 120 columns, in
// English and Chinese; after a launch export the message is longest.
func TestQuitDialogShowsButtons(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		for _, w := range []int{80, 120} {
			for _, launch := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s-%d-launch%v", lang, w, launch), func(t *testing.T) {
					opts := Options{}
					if lang == "zh" {
						opts = zhOptions()
					}
					m := start(t, newTestApp(t, testCatalog(t), opts), size(w, 24))
					m.a.Epochs = "7"
					m.recompute()
					if launch {
						dir := t.TempDir()
						m = drive(t, m, msgs(ctrlE, down, enter, replace(filepath.Join(dir, "sky.yaml")), enter)...)
					}
					m = drive(t, m, runes("q"))
					if m.dialog == nil || m.dialog.kind != dialogQuit {
						t.Fatalf("no quit dialog:\n%s", screenText(m))
					}
					buttons := "[ " + m.lang.T("stay") + " ]" // the focused button, inside the dialog
					if s := screenText(m); !strings.Contains(s, buttons) || !strings.Contains(s, m.lang.T("quit")+"   "+buttons) {
						t.Errorf("buttons missing:\n%s", s)
					}
				})
			}
		}
	}
}

// The Chinese plan table's header said "$/h" where every other Chinese
// table says "$/小时".
func TestPlanHeaderChinese(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), append([]tea.Msg{size(120, 40)}, msgs(twoPhases(), enter)...)...)
	p := m.plan.plan
	opts := zhOptions()
	opts.Plan = &p
	r := start(t, newTestApp(t, testCatalog(t), opts), size(120, 40), ctrlT)
	if s := screenText(r); r.screen != screenPlan || !strings.Contains(s, "$/小时") || strings.Contains(s, "$/h ") {
		t.Errorf("Chinese plan header:\n%s", s)
	}
}

// A monthly budget was ignored by serving: the panel showed an offer at
// $17,476 a month under a $10,000 budget with no word. Now a plan over
// it is a near miss naming the cost, as in the CLI.
func TestServingMonthlyBudget(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	m.a.Task, m.a.Model = model.TaskInference, "llama-3.1-8b"
	m.a.Serve.RPS = "20"
	m.recompute()
	before := screenText(m)
	m.a.Budget = "100"
	m.recompute()
	s := screenText(m)
	flat := strings.Join(strings.Fields(strings.NewReplacer("│", " ", "╭", " ", "╰", " ").Replace(s)), " ")
	if !strings.Contains(flat, "is above the $100 budget") {
		t.Errorf("no word of the budget:\n%s\nwithout it:\n%s", s, before)
	}
}

// With a deadline inside some offers' job-time range, those offers rank
// after and the CLI marks their job time "~" with a note; the panel's
// list (both layouts) and the ctrl+o table showed neither.
func TestLateOffersMarked(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := start(t, newTestApp(t, testCatalog(t), Options{}), size(sz[0], sz[1]))
			m.a.Task, m.a.Model = model.TaskLoRA, "llama-3.1-8b"
			m.a.Dataset, m.a.DatasetUnit, m.a.Epochs = "50M", "tokens", "1"
			m.recompute()
			if len(m.res.rec.Offers) == 0 || !m.res.rec.Offers[0].HasJob {
				t.Fatalf("no timed offers:\n%s", screenText(m))
			}
			m.a.Deadline = fmt.Sprintf("%.1f", m.res.rec.Offers[0].JobHours*1.05) // inside the best's range
			m.recompute()
			late := 0
			for i := range m.res.rec.Offers {
				if m.res.rec.Offers[i].Late() {
					late++
				}
			}
			if late == 0 {
				t.Fatalf("no late offer at deadline %s h", m.a.Deadline)
			}
			// The note counts the late rows, one per run of regions at one
			// price (report.CollapseRegions), in the panel and ctrl+o alike
			// (fresh-user walk: the compact panel counted every region's
			// offer, 64, where ctrl+o and recommend said 50).
			shown := m.res.shownOffers()
			starts, _ := report.RegionRuns(shown, -1)
			rows := 0
			for _, i := range starts {
				if shown[i].Late() {
					rows++
				}
			}
			if rows == late {
				t.Fatalf("no late offer in several regions at one price: the count cannot tell rows from offers")
			}
			count := fmt.Sprintf(" (%d offers)", rows)
			s := screenText(m)
			if flat := strings.Join(strings.Fields(strings.NewReplacer("│", " ").Replace(s)), " "); !strings.Contains(flat, count) {
				t.Errorf("panel: the note does not count %d late rows (%d offers):\n%s", rows, late, s)
			}
			if !lateMarked(s) || !strings.Contains(s, "chance of missing the") {
				t.Errorf("panel: no ~ note, or one that names a column without the mark (%d late):\n%s", late, s)
			}
			if !strings.Contains(s, "offers fit") && !strings.Contains(s, "Offers: ") {
				t.Errorf("panel: the note pushed out the count:\n%s", s)
			}
			m = drive(t, m, ctrlO)
			if s := screenText(m); !strings.Contains(s, count) {
				t.Errorf("ctrl+o: the note does not count %d late rows:\n%s", rows, s)
			}
			if s := screenText(m); !lateMarked(s) {
				t.Errorf("ctrl+o: no ~ note, or one that names a column without the mark:\n%s", s)
			}
		})
	}
}

// lateMarked reports whether screen s has the "~" note of late offers
// and the mark it names: on the job time ("~1.2 h"), or on the job cost
// ("~$4.56") where the job-time column was dropped (fresh-user walk: at
// 80 columns the note said "~ job time" over rows with no mark).
func lateMarked(s string) bool {
	switch {
	case strings.Contains(s, "~ job time ("):
		return regexp.MustCompile(`~[0-9.]+ (h|min)`).MatchString(s)
	case strings.Contains(s, "~ job cost ("):
		return strings.Contains(s, "~$")
	}
	return false
}

// #29: a bracketed paste into the plan's phase-name prompt was dropped;
// it is taken, bounded by the field's 40 characters, without the
// invisible and bidi characters a paste may carry.
func TestPhaseNamePaste(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), ctrlO, runes("a"), clearLine)
	if !m.plan.prompting() {
		t.Fatalf("no prompt:\n%s", screenText(m))
	}
	m = drive(t, m, tea.PasteMsg{Content: "warm\u202eup\u200b\nrun " + strings.Repeat("x", 60)})
	got := m.plan.name.Value()
	if want := ("warmup run " + strings.Repeat("x", 60))[:40]; got != want {
		t.Errorf("name after paste %q, want %q", got, want)
	}
}

// #29: text fields showed pasted or typed bidi and invisible characters
// (U+202E, U+200B) raw; they are not taken.
func TestInputDropsInvisible(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	m = toPage(t, m, "Batch and length")
	m = drive(t, m, clearLine, tea.PasteMsg{Content: "1\u202e2\u200b"}, runes("\u202e"), runes("\u2066"), runes("4"))
	if m.a.Batch != "124" {
		t.Errorf("batch %q, want 124", m.a.Batch)
	}
	if s := screenText(m); strings.ContainsAny(s, "\u202e\u200b\u2066") {
		t.Errorf("invisible characters on screen:\n%q", s)
	}
}

// #29: the CLI's tables mark a price an overlay set with "*"; the
// panel and the ctrl+o table did not.
func TestOverlayPriceMarked(t *testing.T) {
	cat := testCatalog(t)
	for i := range cat.Instances {
		cat.Instances[i].Origin, cat.Instances[i].Source = "catalog.d/prices.toml", "my quote"
	}
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		m := start(t, newTestApp(t, cat, Options{}), size(sz[0], sz[1]))
		if s := screenText(m); !strings.Contains(s, "*") {
			t.Errorf("%dx%d panel: no overlay mark:\n%s", sz[0], sz[1], s)
		}
		m = drive(t, m, ctrlO)
		if s := screenText(m); !strings.Contains(s, "*") {
			t.Errorf("%dx%d ctrl+o: no overlay mark:\n%s", sz[0], sz[1], s)
		}
	}
}
