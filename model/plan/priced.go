package plan

import (
	"math"

	"github.com/gpuplan/gpuplan/model"
)

// Priced is the check gpuplan plan holds a plan to before it shows it,
// and every other reader of a plan file (the configurator's --config
// PLAN.toml) with it, so one file is refused alike everywhere: each
// phase priced (Cost: usd_per_hour given, job_hours or months, not
// both), and a total that is a finite number of dollars. It returns
// Cost's phases and total; the error wraps ErrInvalid and names the
// phase, as Cost's does. What the catalog says of the phases' offers
// (Check) is a note, not a refusal: the plan prices with its own
// figures.
func (pl *Plan) Priced() (phases []PhaseCost, totalUSD float64, err error) {
	phases, totalUSD, err = pl.Cost()
	if err != nil {
		return nil, 0, err
	}
	if math.IsInf(totalUSD, 0) || math.IsNaN(totalUSD) {
		// Decode's bounds keep a file's total finite; a plan built in
		// code is held to the same.
		return nil, 0, model.Errorf(ErrInvalid, "the total is not a finite number of dollars; check usd_per_hour, job_hours and months")
	}
	return phases, totalUSD, nil
}
