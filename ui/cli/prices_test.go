package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// labOverlay is a one-instance catalog overlay with gpu_count and the
// on-demand price as given.
func labOverlay(t *testing.T, gpuCount, onDemand string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "lab.toml")
	doc := `schema_version = 1
provider = "lab"
[[instance]]
type = "rack-1"
gpu = "a100-80gb"
gpu_count = ` + gpuCount + `
vcpus = 128
memory_gib = 1024
source = "our lab"
as_of = 2026-11-01
prices = [{ region = "basement", on_demand = ` + onDemand + ` }]
`
	if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOverlayTypeErrorIsFriendly: an overlay's value of the wrong type
// reads like a config file's, in one line, exit 2 (new-user trial, L9:
// "incompatible types: TOML value has type string; destination has type
// integer").
func TestOverlayTypeErrorIsFriendly(t *testing.T) {
	p := labOverlay(t, `"8"`, "1.0")
	code, _, errs := runCLI(t, "offers", "--catalog", p)
	want := "gpuplan: " + p + ":6: instance.gpu_count: want a whole number such as 8, got a string; fix the file, or leave it out of --catalog\n"
	if code != ExitUsage || errs != want {
		t.Errorf("exit %d, stderr %q; want exit %d, %q", code, errs, ExitUsage, want)
	}
}

// TestOffersPriceColumns: every price cell of the offers table follows
// one rule (USDPerHour): four decimals below $1, two from $1; an
// overlay's 0.000001 USD/h is not printed as $0 (new-user trial, L9).
func TestOffersPriceColumns(t *testing.T) {
	code, out, errs := runCLI(t, "offers", "--providers", "aws,lambda,oci")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	price := regexp.MustCompile(`^(≥?\$0\.\d{4}|≥?\$[1-9][\d,]*\.\d{2}|—)$`)
	lines := strings.Split(out, "\n")
	header := strings.Fields(lines[0])
	if len(header) < 8 || header[5] != "$/h" || header[7] != "spot" { // "VRAM GiB" is two fields
		t.Fatalf("header %q", lines[0])
	}
	rows := 0
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		if len(f) < 10 || !strings.Contains(l, "$") {
			continue
		}
		rows++
		// provider, instance, count×, gpu, VRAM, (total), $/h, $/GPU-h, spot
		for _, cell := range f[6:9] {
			if !price.MatchString(cell) {
				t.Errorf("price %q breaks the column rule in %q", cell, l)
			}
		}
	}
	if rows < 50 {
		t.Errorf("%d rows checked:\n%s", rows, out)
	}
	_, out, _ = runCLI(t, "offers", "--trust-overlay", "--catalog", labOverlay(t, "8", "0.000001"), "--providers", "lab") // held by the guards otherwise
	if !strings.Contains(out, "$0.0000010") {
		t.Errorf("a 0.000001 USD/h price is not shown as such:\n%s", out)
	}
}
