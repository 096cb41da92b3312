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
