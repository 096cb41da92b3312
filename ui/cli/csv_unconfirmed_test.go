package cli

import (
	"encoding/csv"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestOffersCSVUnconfirmedRegions (a new user's walk): the CSV put
// Lambda's "any of 17 regions" row in Japan, asia and OCI's in Morocco,
// africa, and had no column to tell; it ends with JSON's region_label and
// regions_unconfirmed now, the earlier columns unchanged.
func TestOffersCSVUnconfirmedRegions(t *testing.T) {
	code, out, errs := runCLI(t, "offers", "H100:8", "--providers", "lambda,oci,aws", "-o", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) < 3 {
		t.Fatalf("csv: %v, %d records", err, len(recs))
	}
	head := recs[0]
	wantTail := []string{"country", "city", "continent", "held", "region_label", "regions_unconfirmed"}
	if !slices.Equal(head[len(head)-len(wantTail):], wantTail) || head[0] != "provider" || head[19] != "region" {
		t.Fatalf("header %q; want the old columns first, then %q", head, wantTail)
	}
	col := func(name string) int { return slices.Index(head, name) }
	seen := map[string]bool{}
	for _, r := range recs[1:] {
		p, label, unconfirmed := r[0], r[col("region_label")], r[col("regions_unconfirmed")]
		seen[p] = true
		switch p {
		case "lambda", "oci":
			if unconfirmed != "true" || !strings.HasPrefix(label, "any of ") {
				t.Errorf("%s row: region_label %q, regions_unconfirmed %q; want \"any of N regions\", true", p, label, unconfirmed)
			}
		case "aws":
			if unconfirmed != "false" || label != r[col("region")] {
				t.Errorf("aws row: region_label %q, regions_unconfirmed %q; want the region, false", label, unconfirmed)
			}
		}
	}
	if !seen["lambda"] || !seen["oci"] || !seen["aws"] {
		t.Errorf("providers seen %v; want lambda, oci and aws", seen)
	}
}

// TestRecommendCSVUnconfirmedRegions (a walk): recommend -o csv, said to
// be as offers -o csv, had no regions_unconfirmed column, so Lambda's 17
// rows read as 17 confirmed regions. It ends with it now.
func TestRecommendCSVUnconfirmedRegions(t *testing.T) {
	code, out, errs := runCLI(t, "recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--providers", "lambda,aws", "-o", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) < 3 {
		t.Fatalf("csv: %v, %d records", err, len(recs))
	}
	head := recs[0]
	if head[len(head)-1] != "regions_unconfirmed" || head[len(head)-2] != "continent" {
		t.Fatalf("header %q; want the old columns, then regions_unconfirmed", head)
	}
	seen := map[string]bool{}
	for _, r := range recs[1:] {
		want := strconv.FormatBool(r[0] == "lambda")
		seen[r[0]] = true
		if got := r[len(r)-1]; got != want {
			t.Errorf("%s %s %s: regions_unconfirmed %q, want %s", r[0], r[1], r[2], got, want)
		}
	}
	if !seen["lambda"] || !seen["aws"] {
		t.Errorf("providers seen %v; want lambda and aws", seen)
	}
}
