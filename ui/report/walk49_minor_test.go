package report

import (
	"testing"

	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model/market"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// TestPerGPUCell (walk49): per-GPU host figures print with one decimal at
// most in the tables: Hyperbolic's 224 vCPUs and 2165 GiB over 3 GPUs read
// 74.7 and 721.7, not 74.666667 and 721.666667.
func TestPerGPUCell(t *testing.T) {
	for _, tt := range []struct {
		v    float64
		want string
	}{
		{224.0 / 3, "74.7"},
		{2165.0 / 3, "721.7"},
		{1900.0 / 8, "237.5"},
		{26, "26"},
		{0, "0"},
	} {
		if got := perGPUCell(tt.v); got != tt.want {
			t.Errorf("perGPUCell(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

// TestMarketGroupLineRegion (walk49): --group-by region heads a group of
// placeholder regions as the tables write them, not "earth:" or
// "default:"; other keys pass through.
func TestMarketGroupLineRegion(t *testing.T) {
	zh := i18n.New(language.SimplifiedChinese)
	for _, tt := range []struct {
		key   string
		lang  *i18n.Printer
		start string
	}{
		{"earth", nil, "location not stated: "},
		{"default", nil, "location not stated: "},
		{"earth", zh, "未说明地点："},
		{"us-east-1", nil, "us-east-1: "},
		{"h100-sxm", nil, "h100-sxm: "},
	} {
		g := &market.Group{Key: tt.key, Rows: []int{0}, MinUSDPerHour: 1, MaxUSDPerHour: 1, MinUSDPerGPUHour: 1, MaxUSDPerGPUHour: 1}
		if got := MarketGroupLine(tt.lang, g); len(got) < len(tt.start) || got[:len(tt.start)] != tt.start {
			t.Errorf("MarketGroupLine(%q) = %q, want it to start %q", tt.key, got, tt.start)
		}
	}
}
