package model

import "testing"

// TestRegionShown: a region naming no place is said to be unstated, and a
// Vast.ai name with an empty part loses the empty part (new-user walk:
// "earth" read as a place, ", CN, AS" began with a comma).
func TestRegionShown(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"earth", "location not stated"},
		{", CN, AS", "CN, AS"},
		{", US, NA +2", "US, NA +2"},
		{"Bavaria, DE, EU", "Bavaria, DE, EU"},
		{"Hong Kong, , AS", "Hong Kong, AS"},
		{"us-east-1", "us-east-1"},
		{"Europe-PL", "Europe-PL"},
	} {
		if got := RegionShown(c.in); got != c.want {
			t.Errorf("RegionShown(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if !RegionUnstated("earth") || RegionUnstated("us") {
		t.Error("RegionUnstated: earth is the placeholder, us is a place")
	}
}
