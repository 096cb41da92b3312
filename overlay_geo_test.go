package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// negotiatedOverlay is docs/data.md's own "negotiated price" example.
const negotiatedOverlay = `schema_version = 1

[[instance]]
provider = "aws"
type = "p4d.24xlarge"
source = "our 2026 enterprise agreement"
prices = [{ region = "us-east-1", on_demand = 19.80 }]
`

// TestOverlayKeepsGeography: an overlay that patches one price leaves the
// regions' geography alone, wherever the overlay comes from (walk49: any
// overlay turned every --country and continent filter off, 355 rows → 0,
// because the merged catalog was built without the region table). An
// overlay's own rows in regions the provider's table knows get their place.
func TestOverlayKeepsGeography(t *testing.T) {
	csv := "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n" +
		`gpu_1x_a10,A10,1.0,30.0,200.0,1.29,europe-central-1,"{'Gpus': [{'Name': 'A10', 'Manufacturer': 'NVIDIA', 'Count': 1.0, 'MemoryInfo': {'SizeInMiB': 24576}}], 'TotalGpuMemoryInMiB': 24576}",` + "\n"
	update, err := os.ReadFile("data/update/testdata/golden/skypilot-lambda.toml")
	if err != nil {
		t.Fatal(err)
	}
	// place puts the overlay where its kind of overlay lives and returns
	// the extra flags that name it.
	type place func(t *testing.T, config, data string) []string
	write := func(t *testing.T, p, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name  string
		place place
	}{
		{"--catalog TOML", func(t *testing.T, _, _ string) []string {
			p := filepath.Join(t.TempDir(), "neg.toml")
			write(t, p, negotiatedOverlay)
			return []string{"--catalog", p}
		}},
		{"--catalog SkyPilot vms.csv", func(t *testing.T, _, _ string) []string {
			p := filepath.Join(t.TempDir(), "lambda", "vms.csv")
			write(t, p, csv)
			return []string{"--catalog", p}
		}},
		{"catalog.d TOML", func(t *testing.T, config, _ string) []string {
			write(t, filepath.Join(config, "gpuplan", "catalog.d", "neg.toml"), negotiatedOverlay)
			return nil
		}},
		{"catalog update's overlay", func(t *testing.T, _, data string) []string {
			write(t, filepath.Join(data, "gpuplan", "catalog.d", "skypilot-lambda.toml"), string(update))
			return nil
		}},
	}
	count := func(t *testing.T, extra []string, args ...string) marketOut {
		t.Helper()
		return offersJSON(t, append(args, extra...)...)
	}
	base := map[string]int{}
	for _, f := range [][]string{{"--country", "us"}, {"--regions", "europe"}} {
		base[f[0]] = len(count(t, nil, append([]string{"offers"}, f...)...).Rows)
		if base[f[0]] == 0 {
			t.Fatalf("offers %v without an overlay: no rows", f)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			config, data := t.TempDir(), t.TempDir()
			extra := tt.place(t, config, data)
			// offersJSON sets XDG_DATA_HOME itself: run with ours.
			for _, f := range [][]string{{"--country", "us"}, {"--regions", "europe"}} {
				t.Setenv("XDG_CONFIG_HOME", config)
				t.Setenv("XDG_DATA_HOME", data)
				code, out, errs := run2(t, append(append([]string{"offers"}, f...), append(extra, "--json")...)...)
				if code != 0 {
					t.Fatalf("offers %v: exit %d: %s", f, code, errs)
				}
				m := decodeMarket(t, out)
				// A price patch may move one row's cheapest region, never
				// empty the listing.
				if n := len(m.Rows); n < base[f[0]]-1 {
					t.Errorf("offers %v with the overlay: %d rows, want about %d as without it", f, n, base[f[0]])
				}
				for _, r := range m.Rows {
					if r.Country == "" && r.Continent == "" {
						t.Errorf("offers %v: %s/%s %s has no country or continent", f, r.Provider, r.InstanceType, r.Region)
						break
					}
				}
			}
			code, out, errs := run2(t, append([]string{"recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--country", "de"}, extra...)...)
			if code != 0 || !strings.Contains(out, "eu-central-1") {
				t.Errorf("recommend --country de with the overlay: exit %d, %s\n%s", code, errs, out)
			}
		})
	}
	// The vms.csv's own row in europe-central-1 is placed by Lambda's table.
	t.Run("overlay row in a known region", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "lambda", "vms.csv")
		write(t, p, csv)
		m := offersJSON(t, "offers", "--providers", "lambda", "--catalog", p, "--regions", "europe-central-1", "A10")
		if len(m.Rows) == 0 || m.Rows[0].Country != "DE" {
			t.Errorf("lambda A10 in europe-central-1 from a vms.csv: rows %+v, want country DE", m.Rows)
		}
	})
}

func decodeMarket(t *testing.T, out string) marketOut {
	t.Helper()
	var m marketOut
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// run2 is runArgs without its fresh XDG_CONFIG_HOME.
func run2(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb strings.Builder
	code := run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}
