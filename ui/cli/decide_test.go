package cli

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestParseFinishBy(t *testing.T) {
	now := time.Date(2027, 1, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"36h", 36, true},
		{"90m", 1.5, true},
		{"3d", 72, true},
		{"2w", 336, true},
		{"1.5d", 36, true},
		{"2027-01-03", 36, true},                // midnight UTC, 36 h after noon on the 1st
		{"2027-01-02T00:00:00+01:00", 11, true}, // 23:00 UTC on the 1st
		{"2026-12-31", 0, false},                // passed: refused (attack round 15)
		{"", 0, false},
		{"-3h", 0, false},
		{"0d", 0, false},
		{"soon", 0, false},
		{"1e9w", 0, false},
	}
	for _, tt := range tests {
		got, err := ParseFinishBy(tt.in, now)
		if (err == nil) != tt.ok || tt.ok && got != tt.want {
			t.Errorf("ParseFinishBy(%q) = %g, %v; want %g, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func FuzzParseFinishBy(f *testing.F) {
	for _, s := range []string{"36h", "3d", "2w", "2027-01-31", "2027-01-02T00:00:00+01:00", "1e400d", "NaNd", "-0w", "9999999999h"} {
		f.Add(s)
	}
	now := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		h, err := ParseFinishBy(s, now)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("multi-line error %q", err)
			}
			return
		}
		if math.IsNaN(h) || math.IsInf(h, 0) {
			t.Errorf("ParseFinishBy(%q) = %g, want a finite number of hours", s, h)
		}
	})
}
