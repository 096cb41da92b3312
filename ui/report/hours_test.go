package report

import (
	"math"
	"testing"

	"github.com/gpuplan/gpuplan/ui/i18n"
	"golang.org/x/text/language"
)

// TestHoursUnits: each unit Hours picks, the same in HoursIn and in
// hoursMsg (the answers' lines), English and Chinese. A --finish-by date
// thousands of years off reads in whole years (walk48: "8e+03 years").
func TestHoursUnits(t *testing.T) {
	const year = 24 * 365
	zh := i18n.New(language.SimplifiedChinese)
	for _, tt := range []struct {
		h      float64
		en, zh string
	}{
		{0, "—", "—"},
		{math.NaN(), "—", "—"},
		{0.25, "15 min", "15 分钟"},
		{12.34, "12.3 h", "12.3 小时"},
		{100, "4.2 days", "4.2 天"},
		{3 * year, "3.0 years", "3.0 年"},
		{7973.4 * year, "7973 years", "7973 年"},
		{2e9 * year, "2e+09 years", "2e+09 年"},
	} {
		if got := Hours(tt.h); got != tt.en {
			t.Errorf("Hours(%g) = %q, want %q", tt.h, got, tt.en)
		}
		if got := hoursMsg(tt.h).String(); got != tt.en {
			t.Errorf("hoursMsg(%g) = %q, want %q", tt.h, got, tt.en)
		}
		if got := HoursIn(zh, tt.h); got != tt.zh {
			t.Errorf("HoursIn(zh, %g) = %q, want %q", tt.h, got, tt.zh)
		}
	}
}
