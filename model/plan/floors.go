package plan

import (
	"bytes"
	"fmt"

	"github.com/BurntSushi/toml"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// checkGivenZero refuses a hours_per_month the file writes out as 0 (or
// 0.0): the decoder cannot tell it from the key left out (the whole
// month, 730 h), which it would silently become; checkBounds
// (bounds.go) holds the ranges of every figure, so b is read again only
// for the keys each phase gives.
func checkGivenZero(b []byte, phases []Phase) error {
	var raw struct {
		Phase []map[string]any `toml:"phase"`
	}
	if _, err := toml.NewDecoder(bytes.NewReader(b)).Decode(&raw); err != nil {
		return nil // Decode reported it
	}
	for i := range phases {
		given := false
		if i < len(raw.Phase) {
			_, given = raw.Phase[i]["hours_per_month"]
		}
		if given && phases[i].HoursPerMonth == 0 {
			return config.Errorf(fmt.Sprintf("phase[%d].hours_per_month", i), "must be %g–%g hours a month, got 0; leave the key out for the whole month (730 h)", MinHoursPerMonth, float64(model.HoursPerMonth))
		}
	}
	return nil
}
