package plan

import (
	"cmp"

	"github.com/gpuplan/gpuplan/model"
)

// Search returns q, a search for offers that run the phase's job, priced
// as the phase is: its pricing mode (on-demand when left out, as the plan
// prices it), its hours a month, and several nodes when it rents several
// instances. The provider, region and instance type are not pinned: it
// is the search gpuplan recommend --config PLAN --phase NAME runs, which
// the plan's checks send a phase that does not fit its offer to (walk37:
// it ranked on-demand offers for a spot phase).
func (p *Phase) Search(q model.Query) model.Query {
	q.Pricing = cmp.Or(p.Pricing, model.OnDemand)
	if p.HoursPerMonth > 0 {
		q.HoursPerMonth = p.HoursPerMonth
	}
	if p.Instances > 1 {
		q.AllowMultiNode = true
		q.MaxNodes = max(q.MaxNodes, p.Instances)
	}
	return q
}

// SearchNote says what Search ranks for the phase and how to keep to its
// own offer; zero when the phase names none.
func (p *Phase) SearchNote() model.Message {
	if p.Provider == "" || p.Instance == "" {
		return model.Message{}
	}
	where := p.Provider
	keep := "--providers " + p.Provider
	if p.Region != "" {
		where += " " + p.Region
		keep += " --regions " + p.Region
	}
	return model.Msg("phase %q: offers ranked as the phase is priced (%s), on every provider the search allows; the phase rents %s in %s (%s keeps to it)",
		p.Name, model.Msg(string(cmp.Or(p.Pricing, model.OnDemand))), p.Instance, where, keep)
}
