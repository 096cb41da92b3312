package cli

import (
	"strings"
	"testing"
)

// TestArmLegendSaysItOnce (a new user's walk): the offers footer read
// "arm64: arm64 host: wheels and images must be arm64."
func TestArmLegendSaysItOnce(t *testing.T) {
	_, out, _ := runCLI(t, "offers", "--providers", "aws")
	if !strings.Contains(out, "\narm64: the host's CPU is arm64; wheels and images must be arm64.") || strings.Contains(out, "arm64: arm64") {
		t.Errorf("offers' arm64 legend:\n%s", out[max(0, strings.Index(out, "\narm64:")):])
	}
}
