package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/data/synthcsv"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
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
		// An update older than the embedded prices (a newer gpuplan
		// installed since) is not "updated": beside "catalog 2026-12-03",
		// "updated 2026-10-01" read as a refresh.
		{"older update", cat([2]string{"embedded", "2026-12-03"}, [2]string{"/d/gpuplan/catalog.d/skypilot-aws.toml", "2026-10-01"}),
			"2026-12-05", "(older update 2026-10-01)"},
	}
	for _, tt := range tests {
		env := &Env{Now: day(tt.now), UpdateDir: upd}
		if got := priceNote(env, tt.c); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
	// The configurator's header in Chinese says it in Chinese (attack round
	// 9: "(+1 overlay)" stood in a Chinese header).
	env := &Env{Now: day("2027-03-01"), UpdateDir: upd, lang: i18n.New(language.SimplifiedChinese)}
	if got, want := priceNote(env, tests[2].c), "（2027-02-27 已更新、+2 个覆盖文件）"; got != want {
		t.Errorf("zh-CN: %q, want %q", got, want)
	}
	if got, want := priceNote(env, tests[3].c), "（较旧的更新 2026-10-01）"; got != want {
		t.Errorf("zh-CN, older update: %q, want %q", got, want)
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
			p, _, _ := strings.Cut(l, ",")
			vast = vast || slices.Contains(model.MarketplaceProviders, p)
		}
		return len(lines), vast, out, errs
	}
	// Vast, Lium, Hyperbolic and SimplePod sell per-host offers (model.MarketplaceProviders).
	const markets = "hyperbolic,lium,simplepod,vast"
	nAll, vastAll, _, errsAll := count("--marketplaces")
	nDef, vastDef, _, errsDef := count()
	nVast, _, _, errsVast := count("--providers", markets)
	if !vastAll || vastDef || nVast == 0 || nDef+nVast != nAll {
		t.Fatalf("rows: default %d (marketplaces %v), --marketplaces %d (marketplaces %v), --providers %s %d; want marketplaces only when asked, default + marketplaces = all", nDef, vastDef, nAll, vastAll, markets, nVast)
	}
	want := fmt.Sprintf("gpuplan: note: %d marketplace offers hidden (--providers %s, or --marketplaces)\n", nVast, markets)
	if errsDef != want || errsAll != "" || errsVast != "" {
		t.Errorf("notes: default %q (want %q), --marketplaces %q, --providers %s %q", errsDef, want, errsAll, markets, errsVast)
	}
	// The table says it in its footer, on stdout.
	if _, out, _ := runCLI(t, "offers", "RTX4090"); !strings.HasSuffix(out, strings.TrimPrefix(want, "gpuplan: note: ")) {
		t.Errorf("table lacks the footer %q:\n%s", want, out)
	}
	const left = "Marketplace offers (hyperbolic, lium, simplepod, vast) left out: their prices change by the hour; --providers hyperbolic,lium,simplepod,vast ranks them.\n"
	if _, out, _ := runCLI(t, "recommend", "--model", "bert-large"); !strings.Contains(out, left) {
		t.Errorf("recommend does not say it left marketplaces out:\n%s", out)
	}
	if _, out, _ := runCLI(t, "recommend", "--model", "bert-large", "--providers", "vast,aws"); strings.Contains(out, left) {
		t.Error("recommend --providers vast,aws says it left marketplaces out")
	}
}

// TestCountsGrouped: the human output groups counts of 10,000 and more
// as the configurator does, in both languages; JSON keeps numbers (trial
// 15 N8: "100207 offers", "overlay … (100000 types)"). The catalog has
// 842 instance types; the overlay adds 12,000 more (one type a row).
// The offers table's lines are ui/report's TestMarketCountLines.
func TestCountsGrouped(t *testing.T) {
	p := filepath.Join(t.TempDir(), "aws", "vms.csv")
	if err := synthcsv.WriteFile(p, 12000, 7); err != nil {
		t.Fatal(err)
	}
	_, base, _ := runCLI(t, "version", "--json")
	var v struct{ Instances int }
	if err := json.Unmarshal([]byte(base), &v); err != nil || v.Instances != 842 {
		t.Fatalf("version --json: %v, %d instances; this test counts on the catalog's 842", err, v.Instances)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"version"}, " 12,842 instance types, "},
		{[]string{"--lang", "zh-CN", "version"}, "12,842 种实例规格"},
		{[]string{"offers", "--providers", "lambda"}, "overlay " + p + " (12,000 types)"},
		{[]string{"--lang", "zh-CN", "offers", "--providers", "lambda"}, "覆盖文件 " + p + "（12,000 种规格）"},
	} {
		code, out, errs := runCLI(t, append(tc.args, "--catalog", p)...)
		if code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d, no %q in:\n%s%s", tc.args, code, tc.want, lastLines(out, 4), errs)
		}
	}
	_, js, _ := runCLI(t, "version", "--json", "--catalog", p)
	if !strings.Contains(js, `"instances": 12842`) {
		t.Errorf("version --json: %s; want the number 12842", js)
	}
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(l[max(len(l)-n, 0):], "\n")
}
