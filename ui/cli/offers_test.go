package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/data/synthcsv"
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

// TestCountsGrouped: the human report groups counts of 1,000 and more as
// it groups prices, in both languages; JSON keeps numbers (trial 15 N8:
// "100207 offers", "aws: 14387 offers", "(100000 types)").
func TestCountsGrouped(t *testing.T) {
	p := filepath.Join(t.TempDir(), "aws", "vms.csv")
	if err := synthcsv.WriteFile(p, 2000, 7); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "offers", "--catalog", p, "--providers", "aws", "--json")
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errs)
	}
	var res struct {
		Rows []json.RawMessage `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("--json: %v", err)
	}
	rows := res.Rows
	n := len(rows)
	if n < 2000 {
		t.Fatalf("%d offers with a 2,000-type overlay", n)
	}
	for _, tc := range []struct {
		lang string
		want []string
	}{
		{"en", []string{model.Grouped(n) + " offers (cheapest region per type)", "aws: " + model.Grouped(n) + " offers, ", "(2,000 types)"}},
		{"zh-CN", []string{model.Grouped(n) + " 个报价（每种规格取最便宜地域）", "aws：" + model.Grouped(n) + " 个报价，", "（2,000 种规格）"}},
	} {
		_, flat, errs := runCLI(t, "offers", "--lang", tc.lang, "--catalog", p, "--providers", "aws")
		_, grouped, _ := runCLI(t, "offers", "--lang", tc.lang, "--catalog", p, "--providers", "aws", "--group-by", "provider")
		for _, w := range tc.want {
			if !strings.Contains(flat+grouped, w) {
				t.Errorf("%s: no %q in the report (stderr %q); its last lines:\n%s", tc.lang, w, errs, lastLines(flat, 3))
			}
		}
	}
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(l[max(len(l)-n, 0):], "\n")
}
