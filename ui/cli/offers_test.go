package cli

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/model"
)

func TestPriceNote(t *testing.T) {
	cat := func(origins ...[2]string) *model.Catalog {
		c := &model.Catalog{}
		for i, o := range origins {
			c.Instances = append(c.Instances, model.Instance{Provider: "p", Type: string(rune('a' + i)), Origin: o[0], AsOf: o[1]})
		}
		return c
	}
	day := func(s string) func() time.Time {
		return func() time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	}
	upd := func() (string, error) { return "/d/gpuplan/catalog.d", nil }
	tests := []struct {
		name string
		c    *model.Catalog
		now  string
		want string
	}{
		{"embedded, fresh", cat([2]string{"embedded", "2026-11-30"}), "2026-12-01", ""},
		{"embedded, 91 days", cat([2]string{"embedded", "2026-11-30"}), "2027-03-01", "(stale: gpuplan catalog update)"},
		{"updated and two overlays", cat([2]string{"embedded", "2026-11-30"}, [2]string{"/d/gpuplan/catalog.d/skypilot-aws.toml", "2027-02-27"},
			[2]string{"/c/a.toml", "2026-01-01"}, [2]string{"/c/b.toml", "2026-01-01"}), "2027-03-01", "(updated 2027-02-27, +2 overlays)"},
	}
	for _, tt := range tests {
		env := &Env{Now: day(tt.now), UpdateDir: upd}
		if got := priceNote(env, tt.c); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestOffersMarketplaces: offers leaves marketplaces out unless named, as
// recommend does, and says how many it hid; recommend says it left them
// out (new-user trial: offers showed Vast, recommend did not).
func TestOffersMarketplaces(t *testing.T) {
	count := func(args ...string) (n int, vast bool, out, errs string) {
		t.Helper()
		code, out, errs := runCLI(t, append([]string{"offers", "RTX4090", "-o", "csv"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")[1:]
		for _, l := range lines {
			vast = vast || strings.HasPrefix(l, "vast,")
		}
		return len(lines), vast, out, errs
	}
	nAll, vastAll, _, errsAll := count("--marketplaces")
	nDef, vastDef, _, errsDef := count()
	nVast, _, _, errsVast := count("--providers", "vast")
	if !vastAll || vastDef || nVast == 0 || nDef+nVast != nAll {
		t.Fatalf("rows: default %d (vast %v), --marketplaces %d (vast %v), --providers vast %d; want vast only when asked, default + vast = all", nDef, vastDef, nAll, vastAll, nVast)
	}
	want := fmt.Sprintf("gpuplan: note: %d marketplace offers hidden (--providers vast, or --marketplaces)\n", nVast)
	if errsDef != want || errsAll != "" || errsVast != "" {
		t.Errorf("notes: default %q (want %q), --marketplaces %q, --providers vast %q", errsDef, want, errsAll, errsVast)
	}
	// The table says it in its footer, on stdout.
	if _, out, _ := runCLI(t, "offers", "RTX4090"); !strings.HasSuffix(out, strings.TrimPrefix(want, "gpuplan: note: ")) {
		t.Errorf("table lacks the footer %q:\n%s", want, out)
	}
	const left = "Marketplace offers (vast) left out: their prices change by the hour; --providers vast ranks them.\n"
	if _, out, _ := runCLI(t, "recommend", "--model", "bert-large"); !strings.Contains(out, left) {
		t.Errorf("recommend does not say it left marketplaces out:\n%s", out)
	}
	if _, out, _ := runCLI(t, "recommend", "--model", "bert-large", "--providers", "vast,aws"); strings.Contains(out, left) {
		t.Error("recommend --providers vast,aws says it left marketplaces out")
	}
}
