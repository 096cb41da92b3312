package report

import (
	"encoding/csv"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

func TestCSVCell(t *testing.T) {
	for in, want := range map[string]string{
		"":                     "",
		"p5.48xlarge":          "p5.48xlarge",
		"=HYPERLINK(\"x\")":    "'=HYPERLINK(\"x\")",
		"+1+cmd":               "'+1+cmd",
		"-1+cmd|' /C calc'!A0": "'-1+cmd|' /C calc'!A0",
		"@SUM(A1)":             "'@SUM(A1)",
		"\tx":                  "'\tx",
		"\rx":                  "'\rx",
		"-5.5":                 "-5.5", // a negative headroom stays a number
		"+3":                   "+3",
		"-Inf":                 "'-Inf",
		"-0x1p3":               "'-0x1p3",
	} {
		if got := CSVCell(in); got != want {
			t.Errorf("CSVCell(%q) = %q, want %q", in, got, want)
		}
	}
}

// Every CSV writer neutralises formulas in names from files (re-attack 5:
// recommend -o csv wrote =HYPERLINK(...) raw while offers prefixed it).
func TestCSVWritersNeutraliseFormulas(t *testing.T) {
	const bad = "=HYPERLINK(\"http://x\",\"y\")"
	rec := &model.Recommendation{Offers: []model.Offer{{
		Instance: &model.Instance{Provider: "lambda", Type: bad}, Region: "@us", GPU: &model.GPU{Key: "+g"},
		GPUs: 1, Pricing: "on_demand", USDPerHour: 1, HeadroomPct: -5,
	}}}
	c := &model.Catalog{
		GPUs:   []model.GPU{{Key: "h100", Name: bad, Vendor: "nvidia", Source: "-2+3"}},
		Models: []model.Architecture{{Key: "m", Name: bad, Family: "@f"}},
	}
	for name, write := range map[string]func(*strings.Builder) error{
		"recommend":      func(b *strings.Builder) error { return WriteRecommendCSV(b, rec, 0) },
		"catalog gpus":   func(b *strings.Builder) error { return WriteCatalogGPUsCSV(b, c) },
		"catalog models": func(b *strings.Builder) error { return WriteCatalogModelsCSV(b, c) },
	} {
		var b strings.Builder
		if err := write(&b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		recs, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
		if err != nil || len(recs) != 2 {
			t.Fatalf("%s: %d records, %v:\n%s", name, len(recs), err, b.String())
		}
		if !strings.Contains(b.String(), `'=HYPERLINK(`) {
			t.Errorf("%s: formula not neutralised:\n%s", name, b.String())
		}
		for _, cell := range recs[1] {
			if cell != "" && strings.ContainsRune("=+@\t\r", rune(cell[0])) || strings.HasPrefix(cell, "-") && cell != "-5.0" {
				t.Errorf("%s: cell %q starts a formula", name, cell)
			}
		}
	}
}

// recommend -o csv names where each price comes from, as offers -o csv
// does (issue 29): the source, as_of and origin of the region's price,
// the overlay's when one patched it, else the instance's.
func TestRecommendCSVProvenance(t *testing.T) {
	in := &model.Instance{Provider: "aws", Type: "g6.xlarge", GPU: "l4", GPUCount: 1, Source: "catalog source", AsOf: "2026-11-30", Origin: "embedded",
		Prices: []model.RegionPrice{
			{Region: "us-east-1", OnDemandUSD: 0.8},
			{Region: "us-west-2", OnDemandUSD: 0.7, Patch: &model.PricePatch{Source: "=cmd|' /C calc'!A0", Origin: "/home/u/.config/gpuplan/catalog.d/deal.toml", AsOf: "2026-12-01"}},
		}}
	rec := &model.Recommendation{Offers: []model.Offer{
		{Instance: in, Region: "us-east-1", GPU: &model.GPU{Key: "l4"}, GPUs: 1, Pricing: "on_demand", USDPerHour: 0.8, HeadroomPct: 12,
			Geo: model.RegionGeo{Region: "us-east-1", Country: "US", City: "Ashburn", Continent: "north-america"}},
		{Instance: in, Region: "us-west-2", GPU: &model.GPU{Key: "l4"}, GPUs: 1, Pricing: "on_demand", USDPerHour: 0.7, HeadroomPct: 12},
	}}
	var b strings.Builder
	if err := WriteRecommendCSV(&b, rec, 0); err != nil {
		t.Fatal(err)
	}
	// country, city and continent, as offers -o csv has them (walk49);
	// empty where the catalog does not know the region; then
	// regions_unconfirmed (false: aws's regions are where the type is).
	const want = `provider,instance_type,region,gpu,gpus,instances,pricing,usd_per_hour,usd_per_month,job_hours,job_usd,headroom_pct,source,as_of,origin,strategy,vram_need_gib,verdict,country,city,continent,regions_unconfirmed
aws,g6.xlarge,us-east-1,l4,1,1,on_demand,0.8,0,,,12.0,catalog source,2026-11-30,embedded,,0,,US,Ashburn,north-america,false
aws,g6.xlarge,us-west-2,l4,1,1,on_demand,0.7,0,,,12.0,'=cmd|' /C calc'!A0,2026-12-01,/home/u/.config/gpuplan/catalog.d/deal.toml,,0,,,,,false
`
	if b.String() != want {
		t.Errorf("recommend CSV:\n%s\nwant\n%s", b.String(), want)
	}
}

// recommend -o csv says the layout each offer runs, its VRAM need and
// verdict (walk48: two B200s that need FSDP read as gpus=2 alone), and
// rounds as the JSON does: $53.52/h × 730 h = $39,069.60 a month (the
// float product prints 39069.600000000006), 0.12139 h (4 digits below an hour: report.RoundHours), $6.4968, 127.5 GiB.
func TestRecommendCSVLayoutAndRounding(t *testing.T) {
	in := &model.Instance{Provider: "lambda", Type: "gpu_8x_b200_sxm6", GPU: "b200", GPUCount: 8, Source: "s", AsOf: "2026-11-30", Origin: "embedded",
		Prices: []model.RegionPrice{{Region: "europe-central-1", OnDemandUSD: 53.52}}}
	rec := &model.Recommendation{Offers: []model.Offer{{Instance: in, Region: "europe-central-1", GPU: &model.GPU{Key: "b200"}, GPUs: 8, Instances: 1,
		Pricing: model.OnDemand, Strategy: model.FSDP, USDPerHour: 53.52, MonthlyUSD: 53.52 * 730, HasJob: true,
		JobHours: 0.1213895846297095, JobUSD: 6.496770569382053, NeedBytes: 127.5 * model.GiB, HeadroomPct: 36.4, Verdict: model.VerdictFits}}}
	var b strings.Builder
	if err := WriteRecommendCSV(&b, rec, 0); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for i, k := range recs[0] {
		got[k] = recs[1][i]
	}
	for k, v := range map[string]string{"usd_per_hour": "53.52", "usd_per_month": "39069.6", "job_hours": "0.1214", "job_usd": "6.5",
		"strategy": string(model.FSDP), "vram_need_gib": "127.5", "verdict": string(model.VerdictFits), "headroom_pct": "36.4"} {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
}
