package tui

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// The configurator asks for a job budget beside the monthly one, and a
// file's search.budget_job comes back on export.
func TestJobBudgetAnswer(t *testing.T) {
	cat := testCatalog(t)
	cfg := &model.Config{}
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
