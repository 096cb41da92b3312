package cli

import (
	"strings"
	"testing"
)

// TestOffersUnknownInterconnect: a multi-GPU row whose catalog entry does
// not state the interconnect (Prime Intellect's DataCrunch 8×H100) shows
// "not stated" rather than a blank or a bare "?" (new-user walk), and --nvlink says how many such rows it left
// out instead of dropping them silently.
func TestOffersUnknownInterconnect(t *testing.T) {
	code, out, errs := runCLI(t, "offers", "H100:8", "--regions", "europe", "--providers", "primeintellect,nebius")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var unknown int
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "primeintellect") {
			if !strings.Contains(l, " not stated ") || strings.Contains(l, " ? ") {
				t.Errorf("row without a stated interconnect does not say \"not stated\": %q", l)
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
	if !strings.Contains(errs, "whose interconnect is not stated") {
		t.Errorf("--nvlink does not say it left out %d unknown-interconnect rows: %q", unknown, errs)
	}
}

// TestWalkUnknownLinksSayNotStated: the rows the new-user walk found with
// "?" (Lambda 2×/4× H100 SXM, DigitalOcean 8× H100, RunPod 2×/4× MI300X)
// say "not stated": no provider page found states their interconnect.
func TestWalkUnknownLinksSayNotStated(t *testing.T) {
	for _, c := range []struct{ provider, typ string }{
		{"lambda", "gpu_2x_h100_sxm5"}, {"lambda", "gpu_4x_h100_sxm5"},
		{"do", "gpu-h100x8-640gb"}, {"runpod", "2x_MI300X_SECURE"}, {"runpod", "4x_MI300X_SECURE"},
	} {
		code, out, errs := runCLI(t, "offers", "--providers", c.provider, "--all")
		if code != 0 {
			t.Fatalf("offers --providers %s: exit %d: %s", c.provider, code, errs)
		}
		found := false
		for _, l := range strings.Split(out, "\n") {
			if f := strings.Fields(l); len(f) > 1 && f[1] == c.typ {
				found = true
				if !strings.Contains(l, " not stated ") || strings.Contains(l, " ? ") {
					t.Errorf("%s %s: want \"not stated\" as its interconnect: %q", c.provider, c.typ, l)
				}
			}
		}
		if !found {
			t.Errorf("%s %s not listed:\n%s", c.provider, c.typ, out)
		}
	}
}
