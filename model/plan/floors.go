package plan

import (
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// checkGivenZero refuses a usd_per_hour, hours_per_month, job_hours or months the file
// writes out as 0 (or 0.0): the decoder cannot tell it from the key left
// out (for hours_per_month the whole month, 730 h, which it would silently
// become); checkBounds
// (bounds.go) holds the ranges of every figure, so the file as written
// (raw: rawPhases) is read only for the keys each phase gives.
func checkGivenZero(raw []map[string]any, phases []Phase) error {
	given := func(i int, k string) bool {
		if i >= len(raw) {
			return false
		}
		_, ok := raw[i][k]
		return ok
	}
	for i := range phases {
		if given(i, "hours_per_month") && phases[i].HoursPerMonth == 0 {
			return config.Errorf(phaseKey(i, phases[i].Name, "hours_per_month"), "must be %g–%g hours a month, got 0; leave the key out for the whole month (730 h)", MinHoursPerMonth, float64(config.MaxHoursPerMonth))
		}
		// usd_per_hour = 0 would read as left out, which Cost says is
		// missing: the file gives it, as 0.
		if given(i, "usd_per_hour") && phases[i].USDPerHour == 0 {
			return config.Errorf(phaseKey(i, phases[i].Name, "usd_per_hour"), "must be %g–%g USD per hour, got 0", MinUSDPerHour, MaxUSDPerHour)
		}
		// job_hours = 0.0 or months = 0.0 would otherwise read as left out,
		// and Cost say "give job_hours or months, not both or neither" of a
		// key the file gives.
		for _, f := range []struct {
			k        string
			v        float64
			min, max float64
			unit     model.Message
		}{
			{"job_hours", phases[i].JobHours, MinJobHours, MaxJobHours, model.Msg("hours")},
			{"months", phases[i].Months, MinMonths, MaxMonths, model.Msg("months")},
		} {
			if given(i, f.k) && f.v == 0 {
				return config.Errorf(phaseKey(i, phases[i].Name, f.k), "must be %g–%g %v (or left out), got %v", f.min, f.max, f.unit, f.v)
			}
		}
	}
	return nil
}
