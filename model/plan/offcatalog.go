package plan

import "github.com/gpuplan/gpuplan/model"

// MarkOffCatalog marks each phase whose instance type cat lacks (Check
// warns of it) by what the estimator says of it on the answers' GPUs, as
// estimate --phase estimates such a phase ("is not in the catalog, so
// this estimate is on the answers' GPU count"): when the phase alone has
// no offer on its provider and region (Eval, as Savings leaves it out),
// costs[i].Targets and Refused are set, so the row is ✗, the Total
// leaves it out and gpuplan plan exits 1, as for a catalog type that
// does not run it (walk3: a 70B full fine-tune pinned on gcp
// g2-standard-8 was in the Total, unmarked, while the savings said it was
// left out of every total). A phase the estimator runs there is left
// unmarked and priced as written. costs may be shorter than the plan.
func MarkOffCatalog(cat *model.Catalog, pl *Plan, sc Scenario, costs []PhaseCost) {
	eval := Eval(cat, nil)
	for i := range sc {
		if i >= len(pl.Phases) || i >= len(costs) || costs[i].Refused {
			continue
		}
		ph := &pl.Phases[i]
		if ph.Provider == "" || ph.Instance == "" || instanceOf(cat, ph) != nil {
			continue
		}
		if _, ok := eval(Scenario{sc[i]}); ok {
			continue
		}
		where := ph.Provider
		if ph.Region != "" {
			where += " " + ph.Region
		}
		costs[i].Targets = model.Msg("cannot run on the answers' %v: its offer %s %s is not in the catalog, so it is estimated on them, and no %s offer runs it there",
			model.CountMsg(max(sc[i].Workload.GPUs, 1), "GPU"), ph.Provider, offerName(ph), where)
		costs[i].Borderline, costs[i].Refused = false, true
	}
}

// instanceOf is the instance type cat lists for phase ph (its provider
// and instance), nil when it lists none: Check, PhaseOffer and
// MarkOffCatalog look the type up alike.
func instanceOf(cat *model.Catalog, ph *Phase) *model.Instance {
	for k := range cat.Instances {
		if c := &cat.Instances[k]; c.Provider == ph.Provider && c.Type == ph.Instance {
			return c
		}
	}
	return nil
}
