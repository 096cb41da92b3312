package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// recommend --task inference (walk52) named Lambda's first price region,
// "lambda gpu_1x_gh200 asia-northeast-1", where training's recommend says
// "any of 17 regions": a serving offer is the type at its cheapest price,
// which Lambda's catalog gives in each of 17 regions without saying which
// offer the type. The table, the best line, the near misses and the JSON
// say so as training's do; a region narrowed to one (--regions) is named.
func TestServeRecommendSaysAnyOfRegions(t *testing.T) {
	args := []string{"recommend", "--model", "qwen3-8b", "--task", "inference", "--providers", "lambda,aws", "--limit", "0"}
	code, out, stderr := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	var lambda, aws int
	for l := range strings.SplitSeq(out, "\n") {
		switch {
		case strings.HasPrefix(l, "lambda "):
			lambda++
			if !strings.Contains(l, " any of 17 regions ") {
				t.Errorf("row %q, want any of 17 regions", l)
			}
		case strings.HasPrefix(l, "aws "):
			aws++
			if strings.Contains(l, "any of") {
				t.Errorf("row %q: AWS's regions are places", l)
			}
		case strings.HasPrefix(l, "best: lambda ") && !strings.Contains(l, " in any of 17 regions: "):
			t.Errorf("best line %q, want in any of 17 regions", l)
		case strings.HasPrefix(l, "  lambda ") && strings.Contains(l, "asia-northeast-1"):
			t.Errorf("near miss %q names the first price region", l)
		}
	}
	if lambda == 0 || aws == 0 {
		t.Fatalf("want lambda and aws rows, got %d and %d:\n%s", lambda, aws, out)
	}
	if !strings.Contains(out, "any of N regions (lambda): ") {
		t.Errorf("no note under the table says what any of N regions means:\n%s", out)
	}

	code, out, stderr = runCLI(t, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("--json: exit %d:\n%s", code, stderr)
	}
	var doc struct {
		Offers []struct {
			Provider           string `json:"provider"`
			Region             string `json:"region"`
			RegionsUnconfirmed bool   `json:"regions_unconfirmed"`
			RegionLabel        string `json:"region_label"`
		} `json:"offers"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	for _, o := range doc.Offers {
		want := o.Provider == "lambda"
		if o.RegionsUnconfirmed != want || want && o.RegionLabel != "any of 17 regions" || !want && o.RegionLabel != "" || o.Region == "" {
			t.Errorf("%s offer: region %q, regions_unconfirmed %v, region_label %q; want the catalog region, %v and any of 17 regions for lambda only",
				o.Provider, o.Region, o.RegionsUnconfirmed, o.RegionLabel, want)
		}
	}

	// One region asked for: the offer is in that region, named.
	code, out, stderr = runCLI(t, "recommend", "--model", "qwen3-8b", "--task", "inference", "--providers", "lambda", "--regions", "us-east-1", "--limit", "3")
	if code != 0 {
		t.Fatalf("--regions: exit %d:\n%s", code, stderr)
	}
	if strings.Contains(out, "any of") || !strings.Contains(out, "best: lambda ") || !strings.Contains(out, " in us-east-1: ") {
		t.Errorf("--regions us-east-1: want the region named, not any of N:\n%s", out)
	}
}
