package data

import (
	"math"
	"strings"
	"testing"
)

// TestT4MemoryBandwidth: the T4's memory bandwidth is its product brief's
// (table 2 "Memory Specifications": maximum memory clock 5001 MHz, memory
// bus width 256 bits, "Peak Memory bandwidth Up to 320 GBytes/s"), not the
// 300 GB/s the catalog once had "as recalled" (TRIAL.md L8): 256 bits ÷ 8
// × 5001 MHz × 2 (GDDR6 moves data on both edges) = 320.06 GB/s, stated as
// 320. The T4G row takes the T4's figures and says it assumes so.
func TestT4MemoryBandwidth(t *testing.T) {
	cat, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	const fromClock = 256.0 / 8 * 5001e6 * 2 / 1e9 // GB/s
	for _, tt := range []struct {
		key  string
		want float64
		cite string // what the row's source must say
	}{
		{"t4", 320, "Peak Memory bandwidth Up to 320 GBytes/s"},
		{"t4g", 320, "memory bandwidth copied from the NVIDIA T4"},
	} {
		g, err := cat.GPU(tt.key)
		if err != nil {
			t.Fatal(err)
		}
		if g.MemoryBandwidthGBps != tt.want || math.Abs(fromClock-tt.want) > 0.5 {
			t.Errorf("%s: %v GB/s, want %v (the clock and bus give %.2f)", tt.key, g.MemoryBandwidthGBps, tt.want, fromClock)
		}
		if !strings.Contains(g.Source, tt.cite) || g.AsOf < "2026-12-01" {
			t.Errorf("%s: source %q (as of %s) does not cite %q", tt.key, g.Source, g.AsOf, tt.cite)
		}
	}
}
