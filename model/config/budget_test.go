package config

import (
	"strings"
	"testing"
)

// search.budget_job decodes, validates, reaches the query and is written
// back on export.
func TestJobBudgetConfigKey(t *testing.T) {
	c, err := Decode([]byte("schema_version = 1\n[workload]\nmodel = \"llama-3.1-8b\"\n[search]\nbudget_job = 250\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Search.BudgetJob != 250 || c.Search.Query(false).BudgetJobUSD != 250 {
		t.Errorf("budget_job = %v, query %v; want 250", c.Search.BudgetJob, c.Search.Query(false).BudgetJobUSD)
	}
	out, err := Encode(&c)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "budget_job = 250") {
		t.Errorf("export lost budget_job:\n%s", out)
	}
	for _, bad := range []string{"-5", "0", "1e11"} {
		if _, err := Decode([]byte("schema_version = 1\n[workload]\nmodel = \"llama-3.1-8b\"\n[search]\nbudget_job = " + bad + "\n")); err == nil || !strings.Contains(err.Error(), "budget_job") {
			t.Errorf("budget_job = %s: error %v, want one naming search.budget_job", bad, err)
		}
	}
}
