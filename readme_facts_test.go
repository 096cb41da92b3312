package main

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
)

// catalogFactsFile is the page of the manual that gives the catalog's
// counts and tables.
const catalogFactsFile = "docs/data.md"

// TestREADMECatalogFacts keeps "Where the data comes from" (docs/data.md)
// true of the embedded catalog: the GPU and model counts, the list of GPU
// keys, the instance types and regions per provider, and the snapshot's
// date. Edit the page when the catalog changes; the failure says what it
// should read.
func TestREADMECatalogFacts(t *testing.T) {
	b, err := os.ReadFile(catalogFactsFile)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	number := func(pattern string) int {
		t.Helper()
		m := regexp.MustCompile(pattern).FindStringSubmatch(readme)
		if m == nil {
			t.Fatalf("%s has no %q", catalogFactsFile, pattern)
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	if got, want := number("\\(`gpus\\.toml`, (\\d+) entries\\)"), len(cat.GPUs); got != want {
		t.Errorf("%s: gpus.toml has %d entries; the catalog has %d", catalogFactsFile, got, want)
	}
	if got, want := number("\\(`models\\.toml`, (\\d+) architectures\\)"), len(cat.Models); got != want {
		t.Errorf("%s: models.toml has %d architectures; the catalog has %d", catalogFactsFile, got, want)
	}

	m := regexp.MustCompile("(?s)GPU keys: `([^`]*)`").FindStringSubmatch(readme)
	if m == nil {
		t.Fatalf("%s has no GPU keys list", catalogFactsFile)
	}
	var want []string
	for _, g := range cat.GPUs {
		want = append(want, g.Key)
	}
	if got := strings.Fields(m[1]); !slices.Equal(got, want) {
		t.Errorf("%s's GPU keys:\n%s\nthe catalog's, in its order:\n%s", catalogFactsFile, strings.Join(got, " "), strings.Join(want, " "))
	}

	// The provider table: "| aws | 62 | 23 | | nebius | 17 | 3 |", a
	// provider's name may be followed by a note, a count by a remark.
	types, regions, asOf := map[string]int{}, map[string]map[string]bool{}, map[string]bool{}
	for _, in := range cat.Instances {
		types[in.Provider]++
		if regions[in.Provider] == nil {
			regions[in.Provider] = map[string]bool{}
		}
		for _, p := range in.Prices {
			regions[in.Provider][p.Region] = true
		}
		asOf[in.AsOf] = true
	}
	lead := regexp.MustCompile(`^([a-z]+|\d+)\b`)
	seen := map[string]bool{}
	for _, line := range strings.Split(readme, "\n") {
		if !strings.HasPrefix(line, "| ") {
			continue
		}
		// Cells in threes (provider, types, regions), an empty cell between.
		var cells []string
		for _, c := range strings.Split(strings.Trim(line, "|"), "|") {
			if c = strings.TrimSpace(c); c != "" {
				cells = append(cells, lead.FindString(c))
			}
		}
		for i := 0; i+2 < len(cells); i += 3 {
			p := cells[i]
			if types[p] == 0 {
				break
			}
			seen[p] = true
			if n, _ := strconv.Atoi(cells[i+1]); n != types[p] {
				t.Errorf("%s: %s has %s instance types; the catalog has %d", catalogFactsFile, p, cells[i+1], types[p])
			}
			if n, _ := strconv.Atoi(cells[i+2]); n != len(regions[p]) {
				t.Errorf("%s: %s has %s regions; the catalog has %d", catalogFactsFile, p, cells[i+2], len(regions[p]))
			}
		}
	}
	for p := range types {
		if !seen[p] {
			t.Errorf("%s's provider table has no row for %s", catalogFactsFile, p)
		}
	}

	if len(asOf) != 1 {
		t.Fatalf("instance rows carry %d as_of dates; %s names one", len(asOf), catalogFactsFile)
	}
	for d := range asOf {
		if !strings.Contains(readme, "Prices as of "+d+" (") {
			t.Errorf("%s does not say \"Prices as of %s (\": the instance rows' as_of", catalogFactsFile, d)
		}
	}
}
