package model

import (
	"strings"
	"testing"
)

// Trap (issue 17): the budget was only per month (price × 730 h), so a
// one-off job lost offers that are cheaper for the job. A per-job budget
// caps JobUSD; offers without a job time (no dataset) pass it.
func TestJobBudget(t *testing.T) {
	for _, tc := range []struct {
		name  string
		q     Query
		o     Offer
		kind  RejectKind
		words string
	}{
		{"under the job budget", Query{BudgetJobUSD: 100}, Offer{HasJob: true, JobUSD: 80, MonthlyUSD: 50000}, "", ""},
		{"over the job budget", Query{BudgetJobUSD: 100}, Offer{HasJob: true, JobUSD: 150}, RejectJobBudget, "$150.00 for the job is above the $100.00 job budget"},
		{"no job time: not judged", Query{BudgetJobUSD: 100}, Offer{MonthlyUSD: 50000}, "", ""},
		// the monthly budget still applies beside it: $40/h × 730 h = $29,200
		{"monthly budget beside it", Query{BudgetJobUSD: 100, BudgetMonthUSD: 10000}, Offer{HasJob: true, JobUSD: 20, MonthlyUSD: 29200}, RejectBudget, "$29,200/month"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &matcher{q: tc.q}
			kind, why := m.limits(&tc.o)
			if kind != tc.kind || !strings.Contains(why.String(), tc.words) {
				t.Errorf("limits = %q, %q; want %q with %q", kind, why, tc.kind, tc.words)
			}
		})
	}
}
