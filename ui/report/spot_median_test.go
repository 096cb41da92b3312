package report

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"golang.org/x/text/language"
)

// TestSpotLineMeanAboveP90: when interruptions are rare (P(N = 0) ≥ 0.9,
// decide.SpotExpectedCost), P10, the median and P90 are the job without
// an interruption and the mean is above P90. The Spot line then names the
// mean as such, gives the median and says what one interruption adds, so
// "$5.28 (P10–P90 $5.27–$5.27)" no longer reads as a bug; a mean inside
// its range keeps the plain line.
func TestSpotLineMeanAboveP90(t *testing.T) {
	for _, c := range []struct {
		name string
		e    decide.SpotEstimate
		want []string // in the English line
		not  []string
	}{
		{
			// verda 1B200.30V in FIN-03 (the brief's command): 3.1 h at $1.71/h,
			// μ ≈ 0.001 interruptions, each losing 0.92 h (restart 10 min + (τ+δ)/2 with τ = 1.5 h):
			// the count is 0 at P10, P50 and P90 ($5.27) and the mean $5.28.
			name: "rare interruptions: mean above P90",
			e: decide.SpotEstimate{ExpectedUSD: 5.2759, P10USD: 5.2712, P50USD: 5.2712, P90USD: 5.2712,
				ExpectedHours: 3.0853, LostHoursPerInterrupt: 0.92, ExpectedInterruptions: 0.00094, InterruptionsPerHour: 0.000306},
			want: []string{"expected $5.28 (a mean above P90: median $5.27, P10–P90 $5.27–$5.27; most runs are not interrupted, a rare interruption adds 55 min) in 3.1 h"},
		},
		{
			// TestSpotExpectedCost's first case at $1.5/h: P10 101 h = $151.50, P90 103.52 h = $155.28,
			// mean 102.29 h = $153.43: inside, the plain line.
			name: "mean inside P10–P90",
			e: decide.SpotEstimate{ExpectedUSD: 153.43325906420904, P10USD: 151.5, P50USD: 153.39, P90USD: 155.28,
				ExpectedHours: 102.28883937613935, LostHoursPerInterrupt: 1.26, ExpectedInterruptions: 1.0229, InterruptionsPerHour: 0.01},
			want: []string{"expected $153 (P10–P90 $152–$155) in 4.3 days"},
			not:  []string{"median", "a mean above"},
		},
		{
			// Above P90 by less than a cent: both print $5.27, nothing to explain.
			name: "mean above P90 by less than a cent",
			e:    decide.SpotEstimate{ExpectedUSD: 5.2712, P10USD: 5.2710, P50USD: 5.2710, P90USD: 5.2710, ExpectedHours: 3.08, LostHoursPerInterrupt: 0.92},
			want: []string{"expected $5.27 (P10–P90 $5.27–$5.27)"},
			not:  []string{"median"},
		},
	} {
		en := SpotLineIn(i18n.New(language.English), &c.e, decide.SpotAssumptions{})
		for _, w := range c.want {
			if !strings.Contains(en, w) {
				t.Errorf("%s: %q\nwant %q in it", c.name, en, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(en, w) {
				t.Errorf("%s: %q\nwant no %q", c.name, en, w)
			}
		}
		zh := SpotLineIn(i18n.New(language.SimplifiedChinese), &c.e, decide.SpotAssumptions{})
		if got, want := strings.Contains(zh, "中位数"), strings.Contains(en, "median"); got != want {
			t.Errorf("%s: zh-CN %q: names the median %v, English %v", c.name, zh, got, want)
		}
	}
}
