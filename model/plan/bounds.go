package plan

import (
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// Bounds of a plan phase's money and durations, as the configuration file
// bounds its own (checkFloat): MaxUSDPerHour is search.max_price_hour's
// ceiling (USD per hour for the whole deployment), MaxJobHours is
// search.deadline_hours's, and a service runs at most MaxMonths (ten
// years: beyond any price list's life, and the configurator's own limit).
const (
	MaxUSDPerHour = 1e7
	MaxJobHours   = 1e7
	MaxMonths     = 120
)

// checkBounds refuses a phase's usd_per_hour, job_hours, months or
// hours_per_month that is not a finite number in [0, its bound]; key names
// the phase's field.
func checkBounds(p *Phase, key func(string) string) error {
	for _, f := range []struct {
		k      string
		v, max float64
	}{
		{"usd_per_hour", p.USDPerHour, MaxUSDPerHour}, {"job_hours", p.JobHours, MaxJobHours},
		{"months", p.Months, MaxMonths}, {"hours_per_month", p.HoursPerMonth, model.HoursPerMonth},
	} {
		if err := config.CheckFloat(key(f.k), f.v, f.max); err != nil {
			return err
		}
	}
	return nil
}
