package plan

import (
	"cmp"

	"github.com/gpuplan/gpuplan/model"
)

// CheckDuration says, in phase order, when a phase's length is not the
// kind its task has: a training job (fine-tune, LoRA, QLoRA, pre-train)
// given months is priced as a service, months × hours_per_month (730 h
// a month) billed hours, and its job is not timed against them; an
// inference phase given job_hours is priced as a job of those hours,
// which nothing checks (CheckJobHours times training jobs). The schema
// allows both (a phase is a job or a service, docs/schemas.md "Plan
// file"): a GPU rented for months of experiments, a batch of
// inference, so these are notes, not refusals (walk35: a LoRA phase with
// months = 2 was priced as 1,460 h, silently). sc[i] is phase i's
// scenario (PhaseScenarioFor); a phase without one is not looked at.
func CheckDuration(pl *Plan, sc Scenario) []model.Message {
	var out []model.Message
	for i := range sc {
		if i >= len(pl.Phases) {
			break
		}
		ph, t := &pl.Phases[i], sc[i].Workload.Task
		switch {
		case ph.Months > 0 && t.Training():
			out = append(out, model.Msg("phase %q trains (task %s) but gives months = %g: it is priced as a service, %g h on its offer, and the job's own hours are not checked; give job_hours for a job (gpuplan estimate --config PLAN --phase NAME times it), or keep months to rent the offer that long",
				ph.Name, string(t), ph.Months, billedHours(ph)))
		case ph.JobHours > 0 && t == model.TaskInference:
			out = append(out, model.Msg("phase %q is an inference phase but gives job_hours = %g: it is priced as a job of those hours, which are not checked against an estimate; a service is months (and hours_per_month when it does not run all month)",
				ph.Name, ph.JobHours))
		}
	}
	return out
}

// CheckTerm says, in phase order, how a reserved phase that runs past its
// term is billed: every month of it at 730 h, used or not (Phase.Cost: a
// job's hours, a service's months × 730 h), at the committed rate, as
// though the commitment ran on month by month; providers sell whole
// terms, so the months past the first are a second commitment (another
// whole term at this rate) or another pricing mode (walk37: a 10,000 h
// job on reserved-1y, past its 8,760 h term, said nothing of it).
func CheckTerm(pl *Plan) []model.Message {
	var out []model.Message
	for i := range pl.Phases {
		ph := &pl.Phases[i]
		term := model.TermMonths(ph.Pricing)
		c, err := ph.Cost()
		if term == 0 || err != nil || c.Hours <= model.CommitmentHours(ph.Pricing) {
			continue
		}
		out = append(out, model.Msg("phase %q is billed %.0f h on %s, past its %d-month term (%.0f h): priced at the committed rate for every month it runs, %.3g months of 730 h; a commitment is sold a whole term at a time, so the months past the first term need a second one (another %d months owed) or another pricing mode",
			ph.Name, c.Hours, model.Msg(string(ph.Pricing)), term, model.CommitmentHours(ph.Pricing), c.Hours/model.HoursPerMonth, term))
	}
	return out
}

// billedHours is the hours Phase.Cost bills ph for (a commitment's 730 h
// a month), months × hours_per_month when it cannot price it.
func billedHours(ph *Phase) float64 {
	if c, err := ph.Cost(); err == nil {
		return c.Hours
	}
	return ph.Months * cmp.Or(ph.HoursPerMonth, model.HoursPerMonth)
}
