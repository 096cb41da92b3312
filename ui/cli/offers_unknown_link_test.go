package cli

import (
	"strings"
	"testing"
)

// TestOffersUnknownInterconnect: a multi-GPU row whose catalog entry does
// not state the interconnect (Prime Intellect's DataCrunch 8×H100) shows
// "?" rather than a blank, and --nvlink says how many such rows it left
// out instead of dropping them silently.
func TestOffersUnknownInterconnect(t *testing.T) {
	code, out, errs := runCLI(t, "offers", "H100:8", "--regions", "europe", "--providers", "primeintellect,nebius")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var unknown int
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "primeintellect") {
			if !strings.Contains(l, " ? ") {
				t.Errorf("row without a stated interconnect shows no '?': %q", l)
			}
			unknown++
		}
	}
	if unknown == 0 {
		t.Skip("no primeintellect 8×H100 in Europe in this catalog")
	}
	code, out, errs = runCLI(t, "offers", "H100:8", "--regions", "europe", "--providers", "primeintellect,nebius", "--nvlink")
	if code != 0 || strings.Contains(out, "primeintellect") {
		t.Fatalf("--nvlink: exit %d, unknown rows kept:\n%s", code, out)
	}
	if !strings.Contains(errs, "with an unknown interconnect") {
		t.Errorf("--nvlink does not say it left out %d unknown-interconnect rows: %q", unknown, errs)
	}
}
