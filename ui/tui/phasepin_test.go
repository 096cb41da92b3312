package tui

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/plan"
)

// TestOpenedPhaseExportsItsOffer: a phase opened from the plan page
// (enter) exports for its pinned offer, as gpuplan export --config PLAN
// --phase NAME does, not for the ranking's best; the dialog says whose
// offer it is. A phase whose offer these answers do not rank says plainly,
// in the footer and the dialog, that the export is the ranking's pick.
func TestOpenedPhaseExportsItsOffer(t *testing.T) {
	// The phase pinned to the second offer of the ranking, not the best.
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), ctrlO, down)
	second := m.offers.selected()
	best := m.res.best()
	if second == nil || best == nil || second == best {
		t.Fatalf("want two offers: %v %v", second, best)
	}
	m = drive(t, m, runes("a"), enter)
	if len(m.plan.plan.Phases) != 1 || m.plan.plan.Phases[0].Instance != second.Instance.Type {
		t.Fatalf("phase %+v, want %s", m.plan.plan.Phases, second.Instance.Type)
	}
	m = drive(t, m, enter) // open the phase: its answers are the questions'
	if m.screen != screenWizard {
		t.Fatalf("screen %v:\n%s", m.screen, screenText(m))
	}
	m = drive(t, m, ctrlE)
	if m.dialog == nil || m.dialog.offer == nil {
		t.Fatalf("no export dialog:\n%s", screenText(m))
	}
	if o := m.dialog.offer; o.Instance.Type != second.Instance.Type || o.Region != second.Region || o.Pricing != second.Pricing {
		t.Errorf("export for %s %s %s, want the phase's %s %s %s", o.Instance.Type, o.Region, o.Pricing, second.Instance.Type, second.Region, second.Pricing)
	}
	if s := m.dialog.cfg.Selection; s == nil || s.InstanceType != second.Instance.Type {
		t.Errorf("[selection] %+v, want %s", s, second.Instance.Type)
	}
	if s := screenText(m); !strings.Contains(s, `for phase "fine-tune"'s offer`) {
		t.Errorf("the dialog does not say whose offer:\n%s", s)
	}

	// A phase whose offer the ranking lacks: the ranking's pick, said so.
	p := plan.Plan{Phases: []plan.Phase{{Name: "serve", Provider: "aws", Instance: "no-such-type", Region: "us-east-1",
		Instances: 1, USDPerHour: 1, Months: 1, Answers: plan.Answers{"model": "llama-3.1-8b", "task": "inference"}}}}
	r := start(t, newTestApp(t, testCatalog(t), Options{Plan: &p}), size(120, 40), ctrlT, enter)
	if s := screenText(r); !strings.Contains(s, `phase "serve"'s offer aws no-such-type us-east-1 is not among`) {
		t.Errorf("the footer does not say the phase's offer is not ranked:\n%s", s)
	}
	// Opened with --config PLAN --phase serve: the same pin, said the same way.
	c, err := p.Phases[0].ConfigFromAnswers()
	if err != nil {
		t.Fatal(err)
	}
	named := start(t, newTestApp(t, testCatalog(t), Options{Config: &c, Plan: &p, Phase: "serve", PhaseNamed: true}), size(120, 40))
	if named.keptPhase != "serve" || !strings.Contains(named.footer.status, `phase "serve"'s offer aws no-such-type us-east-1 is not among`) {
		t.Errorf("--phase serve: kept %q, status %q", named.keptPhase, named.footer.status)
	}
	if named = drive(t, named, ctrlE); named.dialog == nil || !strings.Contains(named.dialog.note, `not phase "serve"'s offer`) {
		t.Errorf("--phase serve: the dialog does not say the export is not the phase's offer:\n%s", screenText(named))
	}
	r = drive(t, r, ctrlE)
	if r.dialog == nil {
		t.Fatalf("no export dialog:\n%s", screenText(r))
	}
	if s := screenText(r); !strings.Contains(r.dialog.note, `not phase "serve"'s offer aws no-such-type`) || !strings.Contains(s, "for the ranking's pick") {
		t.Errorf("the dialog does not say the export is not the phase's offer:\n%s", screenText(r))
	}
}

// TestPhasePin: the pin of a phase without pricing is on-demand, and
// answers without pricing take the phase's (a spot phase ranks spot).
func TestPhasePin(t *testing.T) {
	for _, tc := range []struct {
		phase, answers, wantSel, wantSearch model.Pricing
	}{
		{"", "", model.OnDemand, model.OnDemand},
		{model.Spot, "", model.Spot, model.Spot},
		{model.Spot, model.OnDemand, model.Spot, model.OnDemand}, // the answers' own word stands
	} {
		ph := plan.Phase{Name: "x", Provider: "aws", Instance: "g5.xlarge", Region: "us-east-1", Pricing: tc.phase, Instances: 2}
		c, err := (&plan.Phase{Name: "x", Answers: plan.Answers{"model": "llama-3.1-8b"}}).ConfigFromAnswers()
		if err != nil {
			t.Fatal(err)
		}
		c.Search.Pricing = tc.answers
		sel, _ := phasePin(nil, &c, &ph)
		if sel == nil || sel.Pricing != tc.wantSel || sel.Instances != 2 || sel.InstanceType != "g5.xlarge" || c.Search.Pricing != tc.wantSearch || c.Selection != nil {
			t.Errorf("%+v: pin %+v, search pricing %q", tc, sel, c.Search.Pricing)
		}
	}
	if sel, _ := phasePin(nil, new(config.Config), &plan.Phase{Name: "x"}); sel != nil {
		t.Errorf("a phase without an offer pins %+v", sel)
	}
}

// TestPlanPageCellsAsPlan: the plan page's pricing and duration cells are
// gpuplan plan's: a phase without pricing reads on-demand (not blank), one
// month reads "1 month" (not "1 months"), as report.WritePlan prints them.
func TestPlanPageCellsAsPlan(t *testing.T) {
	p := plan.Plan{Phases: []plan.Phase{
		{Name: "serve", Provider: "aws", Instance: "g5.xlarge", Region: "us-east-1", Instances: 1, USDPerHour: 1, Months: 1,
			Answers: plan.Answers{"model": "llama-3.1-8b", "task": "inference"}},
		{Name: "serve-b", Provider: "aws", Instance: "g5.xlarge", Region: "us-east-1", Instances: 1, USDPerHour: 1, Months: 6, HoursPerMonth: 200,
			Answers: plan.Answers{"model": "llama-3.1-8b", "task": "inference"}},
	}}
	m := start(t, newTestApp(t, testCatalog(t), Options{Plan: &p}), size(120, 40), ctrlT)
	rows := map[string]string{}
	for _, l := range strings.Split(screenText(m), "\n") {
		if f := strings.Fields(strings.TrimLeft(l, "›✗~ ")); len(f) > 0 && (f[0] == "serve" || f[0] == "serve-b") {
			rows[f[0]] = strings.Join(f, " ")
		}
	}
	for name, want := range map[string]string{
		"serve":   "aws g5.xlarge us-east-1 on-demand $1.00 1 month $730",
		"serve-b": "aws g5.xlarge us-east-1 on-demand $1.00 6 months × 200 h $1,200",
	} {
		if rows[name] != name+" "+want {
			t.Errorf("row %q, want %q:\n%s", rows[name], name+" "+want, screenText(m))
		}
	}
}

// TestServingPanelNamesPhasePin: a serving phase opened on an offer that
// is not the best: the panel names it ("Picked offer"), since ctrl+e
// exports it, as the training panel does.
func TestServingPanelNamesPhasePin(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), tab, down, tab) // task: inference
	if m.res.serve == nil || len(m.res.rec.Offers) < 2 {
		t.Fatalf("want a serving ranking of two offers or more:\n%s", screenText(m))
	}
	o := m.res.rec.Offers[1]
	p := plan.Plan{Phases: []plan.Phase{{Name: "serve", Provider: o.Instance.Provider, Instance: o.Instance.Type, Region: o.Region,
		Pricing: o.Pricing, Instances: o.Instances, USDPerHour: o.USDPerHour, Months: 1, Answers: plan.Answers{"model": "llama-3.1-8b", "task": "inference"}}}}
	r := start(t, newTestApp(t, testCatalog(t), Options{Plan: &p}), size(120, 40), ctrlT, enter)
	if r.panel.chosen == nil {
		t.Fatalf("the phase's offer is not the one chosen:\n%s", screenText(r))
	}
	if s := screenText(r); !strings.Contains(s, `Picked offer · phase "serve"'s`) || !strings.Contains(s, o.Instance.Provider+" "+o.Instance.Type) {
		t.Errorf("the serving panel does not name the phase's offer %s %s:\n%s", o.Instance.Provider, o.Instance.Type, s)
	}
	if r = drive(t, r, ctrlE); r.dialog == nil || r.dialog.offer == nil || r.dialog.offer.Instance.Type != o.Instance.Type || r.dialog.offer.Region != o.Region {
		t.Errorf("ctrl+e: not the phase's offer")
	}
}
