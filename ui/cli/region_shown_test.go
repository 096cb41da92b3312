package cli

import (
	"strings"
	"testing"
)

// TestOffersUnstatedAndPartialRegions (new-user walk): Daytona's GPU rows,
// whose source names no place ("earth"), say "location not stated", and a
// geographic filter leaves them out; Vast's ", CN, AS" prints as "CN, AS".
func TestOffersUnstatedAndPartialRegions(t *testing.T) {
	code, out, stderr := runCLI(t, "offers", "--providers", "daytona")
	if code != 0 {
		t.Fatalf("offers --providers daytona: exit %d: %s", code, stderr)
	}
	if strings.Contains(out, "earth") || !strings.Contains(out, "location not stated") {
		t.Errorf("daytona rows: want \"location not stated\", not \"earth\":\n%s", out)
	}
	for _, f := range [][]string{{"--regions", "europe"}, {"--country", "us"}} {
		_, out, _ = runCLI(t, append([]string{"offers", "--providers", "daytona,aws"}, f...)...)
		if strings.Contains(out, "daytona") {
			t.Errorf("offers %v keeps a daytona row of no stated location:\n%s", f, out)
		}
	}
	code, out, stderr = runCLI(t, "offers", "--providers", "vast", "--all-regions")
	if code != 0 {
		t.Fatalf("offers --providers vast: exit %d: %s", code, stderr)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, " , ") || strings.Contains(l, "  , ") {
			t.Errorf("a region with an empty part is printed with its comma: %q", l)
		}
	}
	if !strings.Contains(out, "CN, AS") {
		t.Errorf("want the Vast region \", CN, AS\" as \"CN, AS\":\n%s", out)
	}
}

// TestRecommendMarketplacesFlag: docs/cli.md says --marketplaces works as in
// offers; recommend must take it and rank marketplace offers.
func TestRecommendMarketplacesFlag(t *testing.T) {
	args := []string{"recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--limit", "0", "--json"}
	code, without, stderr := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("recommend: exit %d: %s", code, stderr)
	}
	code, with, stderr := runCLI(t, append(args, "--marketplaces")...)
	if code != 0 {
		t.Fatalf("recommend --marketplaces: exit %d: %s", code, stderr)
	}
	if strings.Contains(without, `"provider": "vast"`) || !strings.Contains(with, `"provider": "vast"`) {
		t.Errorf("vast offers: without the flag %v, with it %v; want false, true",
			strings.Contains(without, `"provider": "vast"`), strings.Contains(with, `"provider": "vast"`))
	}
}

// TestOffersOCIRegionNote: OCI rows say their region availability is not
// published (the regions are where OCI's one price applies).
func TestOffersOCIRegionNote(t *testing.T) {
	code, out, stderr := runCLI(t, "offers", "--providers", "oci")
	if code != 0 {
		t.Fatalf("offers --providers oci: exit %d: %s", code, stderr)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "oci ") && !strings.Contains(l, "region availability not published") {
			t.Errorf("oci row without the note: %q", l)
		}
	}
}
