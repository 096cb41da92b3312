package plan

import (
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/show"
)

// Bounds of a plan phase's money, durations and instances, as the
// configuration file bounds its own: MaxUSDPerHour is
// search.max_price_hour's ceiling (USD per hour for the whole deployment),
// MaxJobHours is search.deadline_hours's, a service runs at most MaxMonths
// (ten years: beyond any price list's life, and the configurator's own
// limit), and a phase rents at most model.MaxGPUs instances
// (selection.instances's bound).
//
// The floors keep a typo or a hostile file (job_hours = 1e-300, a
// subnormal) from pricing a phase at nothing: MinUSDPerHour is a tenth of
// a cent an hour, below any price list's row; MinJobHours (3.6 s) and
// MinMonths (about 44 minutes) are below the shortest billing a provider
// charges (a minute), and MinHoursPerMonth (3.6 s a month) is any
// configuration's search.hours_per_month that is not absurd. 0 leaves a
// field out (a job has no
// months, a service no job_hours; 0 hours_per_month is the whole month).
const (
	MaxUSDPerHour    = 1e7
	MaxJobHours      = 1e7
	MaxMonths        = 120
	MinUSDPerHour    = 0.001
	MinJobHours      = 0.001
	MinMonths        = 0.001
	MinHoursPerMonth = 0.001
)

// checkBounds refuses a phase's usd_per_hour, job_hours, months or
// hours_per_month that is neither 0 (left out) nor a finite number within
// its bounds, and an instance count outside 1–model.MaxGPUs for a phase
// that names an offer (0–model.MaxGPUs without one); key names the phase's
// field. Each error is one line naming the key, the range and the value.
func checkBounds(p *Phase, key func(string) string) error {
	for _, f := range []struct {
		k        string
		v        float64
		min, max float64
		unit     model.Message
	}{
		{"usd_per_hour", p.USDPerHour, MinUSDPerHour, MaxUSDPerHour, model.Msg("USD per hour")},
		{"job_hours", p.JobHours, MinJobHours, MaxJobHours, model.Msg("hours")},
		{"months", p.Months, MinMonths, MaxMonths, model.Msg("months")},
		{"hours_per_month", p.HoursPerMonth, MinHoursPerMonth, config.MaxHoursPerMonth, model.Msg("hours a month")},
	} {
		if f.v != 0 && !(f.v >= f.min && f.v <= f.max) { // NaN fails both
			return config.Errorf(key(f.k), "must be %g–%g %v (or left out), got %v", f.min, f.max, f.unit, f.v)
		}
	}
	if p.Provider != "" || p.Instance != "" {
		if p.Instances < 1 || p.Instances > model.MaxGPUs {
			return config.Errorf(key("instances"), "must be 1–%d for the offer %s %s, got %d", model.MaxGPUs, show.Printable(p.Provider), show.Printable(p.Instance), p.Instances)
		}
	} else if p.Instances < 0 || p.Instances > model.MaxGPUs {
		return config.Errorf(key("instances"), "must be 0–%d, got %d", model.MaxGPUs, p.Instances)
	}
	return nil
}
