package tui

import (
	"slices"
	"testing"
)

// The region question offers the continents of the chosen providers'
// regions, kept across provider changes like prefixes (issue 31 #1: there
// was no way to say "Europe").
func TestRegionContinents(t *testing.T) {
	cat := embeddedCatalog(t)
	names, by := regionsOf(cat, []string{"nebius", "fluidstack"})
	got := regionContinents(cat, names, by)
	if want := []string{"europe", "north-america"}; !slices.Equal(got, want) {
		t.Errorf("continents of nebius and fluidstack = %v, want %v", got, want)
	}
	if !isRegionPattern("europe") || !isRegionPattern("eu") || isRegionPattern("eu-north1") {
		t.Error("continents are kept as typed, region names are not")
	}
	if got := pruneRegions(cat, []string{"aws"}, []string{"europe", "eu-north1", "eu-west-1"}); !slices.Equal(got, []string{"europe", "eu-west-1"}) {
		t.Errorf("pruneRegions for aws = %v, want the continent and aws's region", got)
	}
}
