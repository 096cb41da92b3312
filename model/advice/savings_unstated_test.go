package advice

import (
	"strings"
	"testing"
)

// TestNoRentInUnstatedRegion: the savings list never says "rent in earth"
// (Daytona's placeholder region names no place; new-user walk).
func TestNoRentInUnstatedRegion(t *testing.T) {
	var names []string
	for _, c := range ScenarioChanges(Scenario{}, nil, []string{"earth", "us-east-1"}) {
		if c.Kind == "region" {
			names = append(names, c.Name)
		}
	}
	if strings.Join(names, "|") != "rent in us-east-1" {
		t.Errorf("region changes = %q, want only \"rent in us-east-1\"", names)
	}
}
