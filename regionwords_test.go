package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestRegionsCountryCode: a country code in --regions, in any case, is
// the regions in that country, as --country is (walk49: --regions US
// returned RunPod's and Prime Intellect's regions named "US" alone, 91
// rows against --country us's 354 from 13 providers; --regions de was
// refused with "did you mean DE", which then gave 3 rows and no AWS
// eu-central-1 or GCP europe-west3).
func TestRegionsCountryCode(t *testing.T) {
	rows := func(args ...string) []string {
		var out []string
		for _, r := range offersJSON(t, append([]string{"offers", "--all-regions"}, args...)...).Rows {
			out = append(out, fmt.Sprintf("%s/%s %s", r.Provider, r.InstanceType, r.Region))
		}
		slices.Sort(out)
		return out
	}
	for _, tt := range []struct {
		code     string
		contains []string // regions other providers name in their own way
	}{
		{"us", []string{"aws/", " us-east-1", "gcp/", "runpod/"}},
		{"de", []string{" eu-central-1", " europe-west3"}},
	} {
		want := rows("--country", tt.code)
		for _, w := range tt.contains {
			if !slices.ContainsFunc(want, func(r string) bool { return strings.Contains(r, w) }) {
				t.Fatalf("--country %s lists nothing with %q: the test's premise is gone", tt.code, w)
			}
		}
		for _, regions := range []string{tt.code, strings.ToUpper(tt.code)} {
			if got := rows("--regions", regions); !slices.Equal(got, want) {
				t.Errorf("--regions %s lists %d rows, --country %s %d: want the same", regions, len(got), tt.code, len(want))
			}
		}
	}
}

// TestRegionWordsOneWording: offers and recommend say the same mistake in
// the same words, and name the fix a user means (walk49: "europ" got
// "Europe-, Europe-EE or Europe-NO" from offers and quoted others from
// recommend, never the continent; "--country uk" was DK, HK or SK from
// offers and nothing from recommend; UK, USA, England, Great Britain,
// Korea, UAE, Holland, Czech Republic and turkey were refused).
func TestRegionWordsOneWording(t *testing.T) {
	recommend := []string{"recommend", "--model", "llama-3.1-8b", "--task", "qlora"}
	tests := []struct {
		flag, value, want string
	}{
		{"--regions", "europ", `--regions: unknown region "europ"; did you mean the continent europe?`},
		{"--regions", "germany", `--regions: unknown region "germany", which is a country: write --country DE (or --regions europe, its continent)`},
		{"--regions", "mars-1", `--regions: unknown region "mars-1" (regions are names such as us-east-1`},
		{"--country", "europe", `--country: unknown country "europe", which is a continent: write --regions europe`},
		{"--country", "germanie", `--country: unknown country "germanie"; did you mean Germany (DE)`},
	}
	for _, tt := range tests {
		var lines []string
		for _, args := range [][]string{{"offers"}, recommend} {
			code, out, errs := runArgs(t, append(args, tt.flag, tt.value)...)
			if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, tt.want) {
				t.Errorf("%s %s %s: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", args[0], tt.flag, tt.value, code, out, errs, tt.want)
			}
			lines = append(lines, errs)
		}
		if lines[0] != lines[1] {
			t.Errorf("%s %s: offers says %q, recommend %q: want one wording", tt.flag, tt.value, lines[0], lines[1])
		}
	}
	for _, name := range []string{"UK", "USA", "England", "Great Britain", "Korea", "UAE", "Holland", "Czech Republic", "turkey", "Türkiye"} {
		for _, args := range [][]string{{"offers", "--json"}, append(recommend, "--json", "--limit", "1")} {
			if code, _, errs := runArgs(t, append(args, "--country", name)...); code != 0 && !strings.Contains(errs, "no offer") {
				t.Errorf("%s --country %q: exit %d: %s", args[0], name, code, errs)
			}
		}
	}
}
