package plan

import "testing"

// TestHours3: three significant figures, never an exponent (walk38: a
// range printed "271–1.16e+03 h").
func TestHours3(t *testing.T) {
	for _, tt := range []struct {
		h    float64
		want string
	}{{1160.4, "1160"}, {271.2, "271"}, {12.34, "12.3"}, {0.285, "0.285"}, {3, "3"}, {25000, "25000"}} {
		if got := hours3(tt.h); got != tt.want {
			t.Errorf("hours3(%g) = %q, want %q", tt.h, got, tt.want)
		}
	}
}
