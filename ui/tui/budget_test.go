package tui

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// The configurator asks for a job budget beside the monthly one, and a
// file's search.budget_job comes back on export.
func TestJobBudgetAnswer(t *testing.T) {
	cat := testCatalog(t)
	cfg := &config.Config{}
	cfg.Workload.Model = defaultModel
	cfg.Search.BudgetJob = 250
	a := answersFromConfig(cat, cfg)
	if a.BudgetJob != "250" {
		t.Fatalf("job budget answer %q, want 250", a.BudgetJob)
	}
	c, err := a.config()
	if err != nil || c.Search.BudgetJob != 250 {
		t.Errorf("config: budget_job %v, err %v; want 250", c.Search.BudgetJob, err)
	}
	a.BudgetJob = "-3"
	if _, err := a.config(); err == nil {
		t.Error("a job budget of -3 was accepted")
	}
	m := toPage(t, start(t, newTestApp(t, cat, Options{}), size(120, 40)), "Price")
	if !strings.Contains(screenText(m), "Job budget (USD)") {
		t.Errorf("no job budget question on the Price page:\n%s", screenText(m))
	}
}

// Serving an LLM has no job: its Price page asks neither the job budget
// nor the deadline (trial M7), and the page count stays as it was.
func TestServingPriceAsksNoJobLimits(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), enter, down, enter) // task: inference
	if m.a.Task != model.TaskInference || !m.a.servingLLM(m.cat) {
		t.Fatalf("task %s, model %s: not serving an LLM", m.a.Task, m.a.Model)
	}
	m = toPage(t, m, "Price")
	text := screenText(m)
	if strings.Contains(text, "Job budget") || strings.Contains(text, "Deadline") || !strings.Contains(text, "Hours per month") {
		t.Errorf("the serving Price page:\n%s", text)
	}
	if pos, total := m.wiz.position(m.wiz.focusedPage()); pos != total {
		t.Errorf("Price is page %d of %d, want the last", pos, total)
	}
	m = drive(t, m, enter, enter, enter) // pricing, monthly budget, hours per month: the last question
	if m.screen != screenOffers {
		t.Errorf("enter on hours per month did not finish the questions:\n%s", screenText(m))
	}
}

// The two Price pages' Pricing selects answer one question: a choice on
// one shows on the other.
func TestPricePagesShareThePricing(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	n := 0
	for i, p := range m.wiz.pages {
		if p.title == "Price" {
			m.wiz.form.build(i)
			n++
		}
	}
	if n != 2 || len(m.wiz.pricing) != 2 {
		t.Fatalf("%d Price pages, %d Pricing selects; want 2 and 2", n, len(m.wiz.pricing))
	}
	m.a.Pricing = model.Spot
	m.wiz.sync()
	for i, s := range m.wiz.pricing {
		if v, _ := s.Hovered(); v != model.Spot {
			t.Errorf("Pricing select %d shows %q after the answer became spot", i, v)
		}
	}
}
