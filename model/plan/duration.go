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
				ph.Name, string(t), ph.Months, ph.Months*cmp.Or(ph.HoursPerMonth, model.HoursPerMonth)))
		case ph.JobHours > 0 && t == model.TaskInference:
			out = append(out, model.Msg("phase %q is an inference phase but gives job_hours = %g: it is priced as a job of those hours, which are not checked against an estimate; a service is months (and hours_per_month when it does not run all month)",
				ph.Name, ph.JobHours))
		}
	}
	return out
}
