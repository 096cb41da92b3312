package model

import "testing"

// TestVRAMShortDecimals: a near miss prints one decimal, or two when one
// would show the need and the usable memory alike (walk48: 45.22 GiB
// needed against 45.16 usable read "needs 45.2 …, has 45.2").
func TestVRAMShortDecimals(t *testing.T) {
	for _, tt := range []struct {
		need, usable float64 // GiB
		want         string
	}{
		{45.22, 45.16, "needs 45.22 GiB per GPU, has 45.16 GiB usable"},
		{45.26, 45.16, "needs 45.3 GiB per GPU, has 45.2 GiB usable"},
		{80.5, 75.2, "needs 80.5 GiB per GPU, has 75.2 GiB usable"},
	} {
		if got := vramShort(tt.need*GiB, tt.usable*GiB).String(); got != tt.want {
			t.Errorf("vramShort(%g, %g) = %q, want %q", tt.need, tt.usable, got, tt.want)
		}
	}
}
