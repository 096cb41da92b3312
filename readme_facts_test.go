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

// TestREADMECatalogFacts keeps "Where the data comes from" true of the
// embedded catalog: the GPU and model counts, the list of GPU keys, the
// instance types and regions per provider, and the snapshot's date. Edit
// the README when the catalog changes; the failure says what it should read.
func TestREADMECatalogFacts(t *testing.T) {
	b, err := os.ReadFile("README.md")
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
			t.Fatalf("README has no %q", pattern)
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	if got, want := number("\\(`gpus\\.toml`, (\\d+) entries\\)"), len(cat.GPUs); got != want {
		t.Errorf("README: gpus.toml has %d entries; the catalog has %d", got, want)
	}
	if got, want := number("\\(`models\\.toml`, (\\d+) architectures\\)"), len(cat.Models); got != want {
		t.Errorf("README: models.toml has %d architectures; the catalog has %d", got, want)
	}

	m := regexp.MustCompile("(?s)GPU keys: `([^`]*)`").FindStringSubmatch(readme)
	if m == nil {
		t.Fatal("README has no GPU keys list")
	}
	var want []string
	for _, g := range cat.GPUs {
		want = append(want, g.Key)
	}
	if got := strings.Fields(m[1]); !slices.Equal(got, want) {
		t.Errorf("README's GPU keys:\n%s\nthe catalog's, in its order:\n%s", strings.Join(got, " "), strings.Join(want, " "))
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
				t.Errorf("README: %s has %s instance types; the catalog has %d", p, cells[i+1], types[p])
			}
			if n, _ := strconv.Atoi(cells[i+2]); n != len(regions[p]) {
				t.Errorf("README: %s has %s regions; the catalog has %d", p, cells[i+2], len(regions[p]))
			}
		}
	}
	for p := range types {
		if !seen[p] {
			t.Errorf("README's provider table has no row for %s", p)
		}
	}

	// Providers were read on different days: the README names each date.
	for d := range asOf {
		if !strings.Contains(readme, "as of "+d+" ") {
			t.Errorf("README does not say \"as of %s\": an instance row's as_of", d)
		}
	}
}
