package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// PlanJSON is the --json output of gpuplan plan: each phase as written
// with its cost, and the total.
type PlanJSON struct {
	Name     string          `json:"name,omitempty"`
	Phases   []PlanPhaseJSON `json:"phases"`
	TotalUSD float64         `json:"total_usd"`
}

// PlanPhaseJSON is one phase and its cost (model.PhaseCost).
type PlanPhaseJSON struct {
	model.PlanPhase
	BilledHours   float64 `json:"billed_hours"`
	USD           float64 `json:"usd"`
	CommitmentUSD float64 `json:"commitment_usd,omitempty"`
}

// NewPlanJSON builds the JSON view of a priced plan.
func NewPlanJSON(p *model.Plan, costs []model.PhaseCost, total float64) PlanJSON {
	out := PlanJSON{Name: p.Name, TotalUSD: Round(total, 2)}
	for i := range costs {
		out.Phases = append(out.Phases, PlanPhaseJSON{PlanPhase: p.Phases[i], BilledHours: Round(costs[i].Hours, 3),
			USD: Round(costs[i].USD, 2), CommitmentUSD: Round(costs[i].CommitmentUSD, 2)})
	}
	return out
}

// WritePlan prints each phase (offer, duration, billed hours, cost) and
// the total.
func WritePlan(out io.Writer, r *Renderer, p *model.Plan, costs []model.PhaseCost, total float64) error {
	st := NewStyles(r)
	var b strings.Builder
	if p.Name != "" {
		fmt.Fprintf(&b, "%s\n", st.Title.Render(model.Printable(p.Name)))
	}
	rows := make([][]string, len(costs))
	for i, c := range costs {
		ph := &p.Phases[i]
		offer := strings.TrimSpace(fmt.Sprintf("%s %s %s", ph.Provider, ph.Instance, ph.Region))
		if ph.Instances > 1 {
			offer += fmt.Sprintf(" ×%d", ph.Instances)
		}
		dur := Hours(ph.JobHours) + " job"
		if ph.Months > 0 {
			dur = fmt.Sprintf("%g months", ph.Months)
			if ph.HoursPerMonth > 0 {
				dur += fmt.Sprintf(" × %g h", ph.HoursPerMonth)
			}
		}
		cost := USD(c.USD)
		if c.CommitmentUSD > 0 && c.CommitmentUSD >= c.USD {
			cost += " (whole term)"
		}
		rows[i] = []string{model.Printable(ph.Name), Truncate(model.Printable(offer), 44), string(ph.Pricing), USD(ph.USDPerHour), dur, strings.TrimSuffix(fmt.Sprintf("%.1f", c.Hours), ".0"), cost}
	}
	fmt.Fprintf(&b, "%s\n", plainTable([]string{"phase", "offer", "pricing", "$/h", "duration", "billed h", "cost"}, rows, map[int]bool{3: true, 5: true, 6: true}))
	fmt.Fprintf(&b, "%s %s\n", st.Heading.Render("Total"), USD(total))
	_, err := io.WriteString(r.Writer(out), b.String())
	return err
}
