package cli

import (
	"strings"
	"testing"
)

// TestOffersUnstatedAndPartialRegions (new-user walk): Daytona's GPU rows,
// whose source names no place ("earth"), say "location not stated", and a
// geographic filter leaves them out; Vast's ", CN, AS" prints as "CN, AS".
func TestOffersUnstatedAndPartialRegions(t *testing.T) {
	code, out, stderr := runCLI(t, "offers", "--providers", "daytona")
	if code != 0 {
		t.Fatalf("offers --providers daytona: exit %d: %s", code, stderr)
	}
	if strings.Contains(out, "earth") || !strings.Contains(out, "location not stated") {
		t.Errorf("daytona rows: want \"location not stated\", not \"earth\":\n%s", out)
	}
	for _, f := range [][]string{{"--regions", "europe"}, {"--country", "us"}} {
		_, out, _ = runCLI(t, append([]string{"offers", "--providers", "daytona,aws"}, f...)...)
		if strings.Contains(out, "daytona") {
			t.Errorf("offers %v keeps a daytona row of no stated location:\n%s", f, out)
		}
	}
	code, out, stderr = runCLI(t, "offers", "--providers", "vast", "--all-regions")
	if code != 0 {
		t.Fatalf("offers --providers vast: exit %d: %s", code, stderr)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, " , ") || strings.Contains(l, "  , ") {
			t.Errorf("a region with an empty part is printed with its comma: %q", l)
		}
	}
	if !strings.Contains(out, "CN, AS") {
		t.Errorf("want the Vast region \", CN, AS\" as \"CN, AS\":\n%s", out)
	}
}

// TestRecommendMarketplacesFlag: docs/cli.md says --marketplaces works as in
// offers; recommend must take it and rank marketplace offers.
func TestRecommendMarketplacesFlag(t *testing.T) {
	args := []string{"recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--limit", "0", "--json"}
	code, without, stderr := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("recommend: exit %d: %s", code, stderr)
	}
	code, with, stderr := runCLI(t, append(args, "--marketplaces")...)
	if code != 0 {
		t.Fatalf("recommend --marketplaces: exit %d: %s", code, stderr)
	}
	if strings.Contains(without, `"provider": "vast"`) || !strings.Contains(with, `"provider": "vast"`) {
		t.Errorf("vast offers: without the flag %v, with it %v; want false, true",
			strings.Contains(without, `"provider": "vast"`), strings.Contains(with, `"provider": "vast"`))
	}
}

// TestOffersOCIRegionNote: OCI rows say their region availability is not
// published (the regions are where OCI's one price applies): a row naming
// one region in its note, a row of several as "any of N regions", which a
// line under the table explains (walk49).
func TestOffersOCIRegionNote(t *testing.T) {
	code, out, stderr := runCLI(t, "offers", "--providers", "oci")
	if code != 0 {
		t.Fatalf("offers --providers oci: exit %d: %s", code, stderr)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "oci ") && !strings.Contains(l, "region availability not published") && !strings.Contains(l, "any of 3 regions") {
			t.Errorf("oci row without the note: %q", l)
		}
	}
	if !strings.Contains(out, "any of N regions (oci): the catalog lists each type in every region at one price; which regions offer a type is not published") {
		t.Errorf("no line under the table explains \"any of N regions\":\n%s", out)
	}
}

// TestUnconfirmedRegionsLabel (walk49): a provider whose catalog regions
// say where a price applies, not where a type is offered (Lambda: SkyPilot's
// fetcher lists every type in 17 hard-coded regions; OCI), names several
// regions by count, never by the first of them ("asia-northeast-1 +16"
// read as Tokyo), in offers, recommend and their JSON; a region filter
// that leaves one names it.
func TestUnconfirmedRegionsLabel(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		want     []string
		dontWant []string
	}{
		{"offers lambda", []string{"offers", "--providers", "lambda", "H100:8"},
			[]string{"any of 17 regions", "any of N regions (lambda): the catalog lists"}, []string{"asia-northeast-1"}},
		{"offers oci", []string{"offers", "--providers", "oci", "H100:8"},
			[]string{"any of 3 regions", "any of N regions (oci): the catalog lists"}, []string{"af-casablanca-1"}},
		{"offers lambda in de", []string{"offers", "--providers", "lambda", "H100:8", "--country", "de"},
			[]string{"europe-central-1 (DE)", "region availability not published"}, []string{"any of"}},
		{"offers aws keeps +N", []string{"offers", "--providers", "aws", "H100:8"},
			[]string{"us-east-1 (US) +2"}, []string{"any of"}},
		{"recommend lambda", []string{"recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--providers", "lambda", "--limit", "2"},
			[]string{"any of 17 regions  1×", "best: lambda gpu_1x_rtx6000 in any of 17 regions:", "any of N regions (lambda): the catalog lists each type",
				"Commitment lambda gpu_1x_rtx6000 in any of 17 regions:"}, []string{"asia-northeast-1 +16", "in asia-northeast-1:"}},
		{"recommend lambda zh-CN", []string{"--lang", "zh-CN", "recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--providers", "lambda", "--limit", "2"},
			[]string{"17 个地域中任一"}, []string{"asia-northeast-1", "any of"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := runCLI(t, tt.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("want %q in:\n%s", w, out)
				}
			}
			for _, w := range tt.dontWant {
				if strings.Contains(out, w) {
					t.Errorf("do not want %q in:\n%s", w, out)
				}
			}
		})
	}

	type row struct {
		Provider           string   `json:"provider"`
		Region             string   `json:"region"`
		Regions            []string `json:"regions"`
		RegionsUnconfirmed *bool    `json:"regions_unconfirmed"`
		RegionLabel        *string  `json:"region_label"`
	}
	m, _ := runCLIJSON[struct{ Rows []row }](t, []string{"offers", "--json"}, "--providers", "lambda,aws,daytona", "H100:8")
	seen := map[string]bool{}
	for _, r := range m.Rows {
		seen[r.Provider] = true
		if r.RegionsUnconfirmed == nil || r.RegionLabel == nil {
			t.Fatalf("%s row without regions_unconfirmed or region_label: %+v", r.Provider, r)
		}
		want, label := r.Provider == "lambda", r.Region
		switch r.Provider {
		case "lambda":
			label = "any of 17 regions"
		case "daytona":
			label = "location not stated"
		}
		if *r.RegionsUnconfirmed != want || *r.RegionLabel != label {
			t.Errorf("%s: regions_unconfirmed %v, region_label %q; want %v, %q", r.Provider, *r.RegionsUnconfirmed, *r.RegionLabel, want, label)
		}
	}
	if !seen["lambda"] || !seen["aws"] || !seen["daytona"] {
		t.Errorf("providers seen %v, want lambda, aws and daytona", seen)
	}
	type offer struct {
		Provider           string `json:"provider"`
		RegionsUnconfirmed *bool  `json:"regions_unconfirmed"`
	}
	rec, _ := runCLIJSON[struct{ Offers []offer }](t, []string{"recommend", "--json", "--model", "llama-3.1-8b", "--task", "qlora", "--limit", "0"}, "--providers", "lambda,aws")
	for _, o := range rec.Offers {
		if got := o.RegionsUnconfirmed != nil && *o.RegionsUnconfirmed; got != (o.Provider == "lambda") {
			t.Errorf("recommend --json: %s offer regions_unconfirmed %v", o.Provider, got)
			break
		}
	}
}
