package model

// Bounds of a plan phase's money and durations, as the configuration file
// bounds its own (checkFloat): MaxPlanUSDPerHour is search.max_price_hour's
// ceiling (USD per hour for the whole deployment), MaxPlanJobHours is
// search.deadline_hours's, and a service runs at most MaxPlanMonths (ten
// years: beyond any price list's life, and the configurator's own limit).
const (
	MaxPlanUSDPerHour = 1e7
	MaxPlanJobHours   = 1e7
	MaxPlanMonths     = 120
)

// checkPlanBounds refuses a phase's usd_per_hour, job_hours, months or
// hours_per_month that is not a finite number in [0, its bound]; key names
// the phase's field.
func checkPlanBounds(p *PlanPhase, key func(string) string) error {
	for _, f := range []struct {
		k      string
		v, max float64
	}{
		{"usd_per_hour", p.USDPerHour, MaxPlanUSDPerHour}, {"job_hours", p.JobHours, MaxPlanJobHours},
		{"months", p.Months, MaxPlanMonths}, {"hours_per_month", p.HoursPerMonth, HoursPerMonth},
	} {
		if err := checkFloat(key(f.k), f.v, f.max); err != nil {
			return err
		}
	}
	return nil
}
