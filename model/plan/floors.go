package plan

import (
	"bytes"
	"fmt"

	"github.com/BurntSushi/toml"

	"github.com/gpuplan/gpuplan/model/config"
)

// Floors of a phase's price and billed hours: the maxima are checkBounds'
// (bounds.go); these refuse figures too small to be meant. A tenth of a
// cent an hour is far below any GPU offer of the catalog (its cheapest
// are marketplace hosts at a few cents), and a service billed under an
// hour a month is not a service; 1e-300 in either printed costs of 300
// digits.
const (
	MinUSDPerHour    = 0.001
	MinHoursPerMonth = 1
)

// checkFloors refuses a phase's usd_per_hour below MinUSDPerHour (0 is
// Cost's to refuse, with its own message) and a hours_per_month the file
// gives below MinHoursPerMonth — 0.0 written out included, which the
// decoder cannot tell from the key left out (the whole month, 730 h), so
// b is read again for the keys each phase gives.
func checkFloors(b []byte, phases []Phase) error {
	var raw struct {
		Phase []map[string]any `toml:"phase"`
	}
	if _, err := toml.NewDecoder(bytes.NewReader(b)).Decode(&raw); err != nil {
		return nil // Decode reported it
	}
	for i := range phases {
		p := &phases[i]
		key := func(k string) string { return fmt.Sprintf("phase[%d].%s", i, k) }
		if p.USDPerHour > 0 && p.USDPerHour < MinUSDPerHour {
			return config.Errorf(key("usd_per_hour"), "must be ≥ %g (a tenth of a cent an hour), got %v", MinUSDPerHour, p.USDPerHour)
		}
		given := false
		if i < len(raw.Phase) {
			_, given = raw.Phase[i]["hours_per_month"]
		}
		if given && !(p.HoursPerMonth >= MinHoursPerMonth) {
			return config.Errorf(key("hours_per_month"), "must be ≥ %d hour a month, got %v; leave the key out for the whole month (730 h)", MinHoursPerMonth, p.HoursPerMonth)
		}
	}
	return nil
}
