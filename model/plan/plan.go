package plan

import (
	"cmp"
	"errors"
	"math"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// Plan is work in phases, each on its own offer: "fine-tune on an A100,
// then serve on a T4 for 6 months". TOML: [[phase]] tables.
type Plan struct {
	Name   string  `toml:"name,omitempty" json:"name,omitempty"`
	Phases []Phase `toml:"phase" json:"phases"`
}

// Phase is one workload on one chosen offer for a duration. The workload
// is referenced, not embedded: Config names a gpuplan configuration file
// and Answers holds the configurator's answers (key → value as typed), so
// the phase reopens as it was asked.
type Phase struct {
	Name    string  `toml:"name" json:"name"`
	Config  string  `toml:"config,omitempty" json:"config,omitempty"`
	Answers Answers `toml:"answers,omitempty" json:"answers,omitempty"`

	// The offer chosen: provider, instance type, region, pricing mode and
	// instance count, with its price when chosen (USD per hour, all
	// instances) so the plan prices without the catalog.
	Provider   string        `toml:"provider" json:"provider"`
	Instance   string        `toml:"instance" json:"instance"`
	Region     string        `toml:"region" json:"region"`
	Pricing    model.Pricing `toml:"pricing" json:"pricing"`
	Instances  int           `toml:"instances" json:"instances"`
	USDPerHour float64       `toml:"usd_per_hour" json:"usd_per_hour"`

	// Duration: a job's hours (JobHours, from the estimate) or a service's
	// months (Months, billed HoursPerMonth hours a month unless
	// HoursPerMonth says fewer). Exactly one of JobHours and Months is set.
	JobHours      float64 `toml:"job_hours,omitzero" json:"job_hours,omitempty"`
	Months        float64 `toml:"months,omitzero" json:"months,omitempty"`
	HoursPerMonth float64 `toml:"hours_per_month,omitzero" json:"hours_per_month,omitempty"`
}

// ErrInvalid is wrapped by Phase.Cost and Plan.Cost for a phase that
// cannot be priced; the message names the phase.
var ErrInvalid = errors.New("invalid plan")

// PhaseCost is what one phase costs.
type PhaseCost struct {
	Name  string  `json:"name"`
	Hours float64 `json:"hours"` // billed hours
	USD   float64 `json:"usd"`
	// CommitmentUSD is the whole reserved term owed when the phase is on a
	// 1- or 3-year commitment (USDPerHour × 730 × term months); 0
	// otherwise. USD is never less: a phase shorter than its term still
	// owes the term.
	CommitmentUSD float64 `json:"commitment_usd,omitempty"`
	// Committed is set when Hours are a commitment's 730 h a month for
	// the phase's months, more than its hours_per_month: what it owes,
	// not what it runs.
	Committed bool `json:"-"`
	// Targets, when set, says how the phase's pinned offer stands against
	// its serving targets (PhaseScenario.PinnedServeNote); Borderline tells
	// a plan that meets them at the estimate only from one that misses.
	// Cost leaves both zero; the caller fills them in from the catalog.
	Targets    model.Message `json:"-"`
	Borderline bool          `json:"-"`
	// Refused is set with Targets when the phase cannot run on its
	// pinned offer at all (a job that does not fit or run there, a
	// serving phase whose model does not fit, whose replica needs a Ray
	// cluster, or whose GPU vLLM does not run on: what export --phase
	// refuses), not only misses its targets; gpuplan plan then exits 1.
	Refused bool `json:"-"`
	// Serves, when set, says what a serving phase serves besides the
	// model it names: the adapter or checkpoint a phase before it trains
	// (LinkTrained). Cost leaves it zero; the caller fills it in.
	Serves model.Message `json:"-"`
}

// Cost prices the phase: billed hours × USDPerHour, the billed hours being
// JobHours, or Months × (HoursPerMonth or 730); on a reserved term,
// Months × 730 whatever HoursPerMonth says (a commitment bills every
// month in full), and at least the whole commitment.
func (p *Phase) Cost() (PhaseCost, error) {
	bad := func(format string, a ...any) (PhaseCost, error) {
		return PhaseCost{}, model.Errorf(ErrInvalid, "phase %q: %s", p.Name, model.Msg(format, a...))
	}
	finite := func(v float64) bool { return v >= 0 && !math.IsInf(v, 0) }
	switch {
	case p.USDPerHour == 0:
		// Decode refuses usd_per_hour = 0 written out (checkGivenZero):
		// 0 here is the key left out, which "got 0" did not say (walk36b).
		return bad("usd_per_hour is missing: give what the phase's offer costs in USD per hour, for all its instances (usd_per_hour = 1.006)")
	case !finite(p.USDPerHour):
		return bad("usd_per_hour must be %g–%g USD per hour, got %g", MinUSDPerHour, MaxUSDPerHour, p.USDPerHour)
	case !finite(p.JobHours) || !finite(p.Months) || !finite(p.HoursPerMonth):
		return bad("job_hours must be %g–%g, months %g–%g and hours_per_month %g–%d (or 0, left out), got %g, %g and %g", MinJobHours, MaxJobHours, MinMonths, float64(MaxMonths), MinHoursPerMonth, config.MaxHoursPerMonth, p.JobHours, p.Months, p.HoursPerMonth)
	case (p.JobHours > 0) == (p.Months > 0):
		return bad("give job_hours (a job) or months (a service), not both or neither")
	case p.HoursPerMonth > config.MaxHoursPerMonth: // Decode's bound (bounds.go): a 31-day month
		return bad("hours_per_month must be %g–%d, got %g", MinHoursPerMonth, config.MaxHoursPerMonth, p.HoursPerMonth)
	}
	c := PhaseCost{Name: p.Name, Hours: p.JobHours}
	if p.Months > 0 {
		c.Hours = p.Months * cmp.Or(p.HoursPerMonth, model.HoursPerMonth) // 0 means the whole month
	}
	if m := model.TermMonths(p.Pricing); m > 0 {
		// A commitment is billed 730 h a month, used or not
		// (model.CommitmentHours; docs/decisions.md, commitment
		// break-even): a service of N months on one owes N × 730 h
		// whatever its hours_per_month says it runs (walk37: 18 months ×
		// 200 h on reserved-1y was billed one term, 8,760 h, where 18
		// committed months are 13,140 h). A job is billed its hours, each
		// one a committed hour: a job past the term (10,000 h on
		// reserved-1y) owes its 10,000 h, as 13.7 committed months.
		if p.Months > 0 && c.Hours < p.Months*model.HoursPerMonth {
			c.Hours, c.Committed = p.Months*model.HoursPerMonth, true
		}
		c.CommitmentUSD = p.USDPerHour * model.HoursPerMonth * float64(m)
	}
	c.USD = max(c.Hours*p.USDPerHour, c.CommitmentUSD) // and at least one whole term
	return c, nil
}

// Cost prices every phase and returns them with the total, USD. The error
// joins the problems of all phases that cannot be priced.
func (pl *Plan) Cost() (phases []PhaseCost, totalUSD float64, err error) {
	if len(pl.Phases) == 0 {
		return nil, 0, model.Errorf(ErrInvalid, "no phases: add one with [[phase]]")
	}
	var errs []error
	for i := range pl.Phases {
		c, err := pl.Phases[i].Cost()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		phases = append(phases, c)
		totalUSD += c.USD
	}
	if len(errs) > 0 {
		return nil, 0, errors.Join(errs...)
	}
	return phases, totalUSD, nil
}
