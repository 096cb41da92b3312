package report

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"golang.org/x/text/language"
)

// TestSpotLineSaysWhenNoSaving: a spot job whose expected cost with
// interruptions reaches its on-demand cost says spot saves nothing there
// (walk45b: $148 expected against $142 on-demand said nothing); one below
// it names the on-demand cost alone.
func TestSpotLineSaysWhenNoSaving(t *testing.T) {
	const note = "spot saves nothing on this job"
	for _, c := range []struct {
		name           string
		expected, onDe float64
		want           bool
	}{
		{"dearer than on-demand", 148, 142, true},
		{"equal", 142, 142, true},
		{"cheaper", 90, 142, false},
		{"no on-demand price", 148, 0, false},
	} {
		e := decide.SpotEstimate{ExpectedUSD: c.expected, OnDemandUSD: c.onDe, ExpectedHours: 3.5}
		for _, lang := range []language.Tag{language.English, language.SimplifiedChinese} {
			line := SpotLineIn(i18n.New(lang), &e, decide.SpotAssumptions{})
			got := strings.Contains(line, note) || strings.Contains(line, "省不了钱")
			if got != c.want {
				t.Errorf("%s (%s): %q: says no saving %v, want %v", c.name, lang, line, got, c.want)
			}
		}
	}
}
