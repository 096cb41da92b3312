package plan

import (
	"github.com/gpuplan/gpuplan/model"
)

// JobHoursSlack is how far outside the estimate's 90% range of the job's
// time (model.Estimate.TimeBand, TimeCalibration's out-of-sample band) a
// phase's job_hours may sit before CheckJobHours says so: below half the
// range's fast end or above twice its slow end. The band already holds
// the estimator's error on the calibration cases; the factor 2 past it
// leaves room for what the band does not time and a plan may rightly
// count, such as spot interruptions (decide's expected_hours) and
// checkpoint restarts, so what is flagged is a figure that is not this
// job's on this offer (attack round 10: job_hours = 0.001 for a job of
// about 20.6 h priced it at a cent, unflagged).
const JobHoursSlack = 2.0

// CheckJobHours compares each job phase's job_hours with the estimate of
// its own scenario (sc[i], PhaseScenarioFor) on its pinned offer: the
// offer of the phase's instance type, region and instance count among
// model.Recommend's. It returns one note per phase whose job_hours is
// below TimeBand[0]/JobHoursSlack or above TimeBand[1]×JobHoursSlack, in
// phase order. A service, a serving phase, a job the engine cannot time
// (no dataset) or one whose pinned offer it does not rank (another
// instance count, a type the catalog lacks) is not compared. The plan
// still prices with its own hours: these are notes, as Check's.
func CheckJobHours(cat *model.Catalog, pl *Plan, sc Scenario) []model.Message {
	var out []model.Message
	for i := range sc {
		if i >= len(pl.Phases) {
			break
		}
		ph, s := &pl.Phases[i], &sc[i]
		if ph.JobHours <= 0 || ph.Months > 0 || s.Serve != nil || s.Workload.Task == model.TaskInference {
			continue
		}
		rec, err := model.Recommend(s.Workload, cat, s.Query)
		if err != nil {
			continue
		}
		for j := range rec.Offers {
			o := &rec.Offers[j]
			if o.Instance == nil || o.Instance.Type != ph.Instance || o.Region != ph.Region || o.Instances != max(ph.Instances, 1) {
				continue
			}
			if !o.HasJob || o.Estimate == nil {
				break
			}
			lo, hi := o.Estimate.TimeBand[0], o.Estimate.TimeBand[1]
			if lo <= 0 || hi <= 0 {
				break
			}
			if ph.JobHours < lo/JobHoursSlack || ph.JobHours > hi*JobHoursSlack {
				out = append(out, model.Msg("phase %q: job_hours = %g, but the estimate on %s %s is %.3g h (90%% range %.3g–%.3g h): the plan prices the phase on its own hours; check job_hours (gpuplan estimate --config PLAN --phase NAME times it)",
					ph.Name, ph.JobHours, ph.Provider, ph.Instance, o.JobHours, lo, hi))
			}
			break
		}
	}
	return out
}
