package cli

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/ui/report"
)

// TestJobHoursNotZero (a new user's walk): a fine-tune of seconds read
// "job_hours": 0 in recommend --json (0.25 s rounded to 3 decimals of an
// hour) beside the table's "1 min"; job hours keep 4 significant digits
// below an hour, in JSON and CSV (report.RoundHours).
func TestJobHoursNotZero(t *testing.T) {
	base := []string{"recommend", "--model", "bert-base", "--task", "finetune", "--dataset-samples", "100", "--epochs", "1", "--limit", "3"}
	doc, _ := runCLIJSON[report.RecommendJSON](t, base, "--json")
	if len(doc.Offers) == 0 {
		t.Fatal("no offers")
	}
	for _, o := range doc.Offers {
		for name, v := range map[string]*float64{"job_hours": o.JobHours, "job_hours_low": o.JobHoursLow, "job_hours_high": o.JobHoursHigh} {
			if v == nil || !(*v > 0) || *v > 0.01 {
				t.Errorf("%s %s: %s = %v, want a few seconds in hours, not 0", o.Provider, o.InstanceType, name, v)
			}
		}
		if c := o.JobCostUSD; c == nil || !(*c > 0) { // a fraction of a cent, as the table's $0.0000096
			t.Errorf("%s %s: job_cost_usd = %v, want its fraction of a cent, not 0", o.Provider, o.InstanceType, c)
		}
	}
	code, out, errs := runCLI(t, append(base, "-o", "csv")...)
	if code != 0 {
		t.Fatalf("-o csv: exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	col := -1
	for i, h := range strings.Split(lines[0], ",") {
		if h == "job_hours" {
			col = i
		}
	}
	if col < 0 || len(lines) < 2 {
		t.Fatalf("csv without job_hours or rows:\n%s", out)
	}
	if f := strings.Split(lines[1], ","); f[col] == "0" || f[col] == "" {
		t.Errorf("csv job_hours = %q, want a few seconds in hours, not 0", f[col])
	}
}
