package plan

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model/config"
)

// Figures too small to be meant are refused when the plan is read
// (attack test 3, L4: usd_per_hour or hours_per_month 1e-300 printed
// costs of 300 digits; hours_per_month = 0.0 was billed as 730 h): the
// ranges are checkBounds', and a 0 written out is checkGivenZero's.
func TestDecodeRefusesTinyFigures(t *testing.T) {
	const head = "schema_version = 1\n[[phase]]\nname = \"serve\"\nmonths = 6.0\n"
	tests := []struct {
		name, phase, want string // want "" is accepted
	}{
		{"tiny price", "usd_per_hour = 1e-300\n", "phase \"serve\" usd_per_hour: must be 0.001–1e+07 USD per hour (or left out), got 1e-300"},
		{"price at the floor", "usd_per_hour = 0.001\n", ""},
		{"tiny hours a month", "usd_per_hour = 1.0\nhours_per_month = 1e-300\n", "phase \"serve\" hours_per_month: must be 0.001–744 hours a month (or left out), got 1e-300"},
		{"zero hours a month written out", "usd_per_hour = 1.0\nhours_per_month = 0.0\n", "phase \"serve\" hours_per_month: must be 0.001–744 hours a month, got 0; leave the key out for the whole month (730 h)"},
		{"one hour a month", "usd_per_hour = 1.0\nhours_per_month = 1.0\n", ""},
		{"hours a month left out", "usd_per_hour = 1.0\n", ""},
		// Attack test 4: a 0 written out read as left out, and the error
		// said "give job_hours or months, not both or neither".
		{"zero months written out", "usd_per_hour = 1.0\nmonths = 0.0\n", "phase \"serve\" months: must be 0.001–120 months (or left out), got 0"},
		{"zero job hours written out", "usd_per_hour = 1.0\njob_hours = 0.0\n", "phase \"serve\" job_hours: must be 0.001–1e+07 hours (or left out), got 0"},
		// walk36b: a price written as 0 read as left out; as a string,
		// the TOML decoder's Go types; a pricing typo had no phase name
		// and no suggestion.
		{"zero price written out", "usd_per_hour = 0\n", "phase \"serve\" usd_per_hour: must be 0.001–1e+07 USD per hour, got 0"},
		{"price as a string", "usd_per_hour = \"1.006\"\n", "phase \"serve\" usd_per_hour: must be a number such as 1.006, got a string"},
		{"hours a month as a string", "usd_per_hour = 1.0\nhours_per_month = \"200\"\n", "phase \"serve\" hours_per_month: must be a number such as 200, got a string"},
		{"pricing typo", "usd_per_hour = 1.0\npricing = \"spott\"\n", "phase \"serve\" pricing: \"spott\": did you mean \"spot\"? want one of on-demand, spot, reserved-1y, reserved-3y"},
	}
	for _, tt := range tests {
		_, err := Decode([]byte(head + tt.phase))
		if tt.name == "zero months written out" {
			_, err = Decode([]byte(strings.Replace(head, "months = 6.0", "job_hours = 5.0", 1) + tt.phase))
		}
		var ce *config.Error
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (!errors.As(err, &ce) || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: %v\nwant %s", tt.name, err, tt.want)
		}
	}
}
