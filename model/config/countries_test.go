package config

import (
	"slices"
	"strings"
	"testing"
)

// TestSearchCountries (walk54): [search] countries holds --country, so
// that a file gpuplan export writes under it reloads into the same search
// (its launch files fail over within the countries); the key reads back
// as written, reaches the query, and an unknown country is refused with
// the key.
func TestSearchCountries(t *testing.T) {
	const head = "schema_version = 1\n[workload]\nmodel = \"llama-3.1-8b\"\ntask = \"qlora\"\n[search]\n"
	for _, tt := range []struct {
		name, line string
		want       []string
		err        string
	}{
		{"ISO codes", `countries = ["us", "de"]`, []string{"us", "de"}, ""},
		{"English names", `countries = ["united states", "holland"]`, []string{"united states", "holland"}, ""},
		{"none", ``, nil, ""},
		{"unknown country", `countries = ["atlantis"]`, nil, `search.countries: unknown country "atlantis"`},
		{"a continent is no country", `countries = ["europe"]`, nil, `search.countries: unknown country "europe"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Decode([]byte(head + tt.line + "\n"))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Decode: %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(c.Search.Countries, tt.want) || !slices.Equal(c.Query().Countries, tt.want) {
				t.Errorf("countries %q, query %q, want %q", c.Search.Countries, c.Query().Countries, tt.want)
			}
			b, err := Encode(&c)
			if err != nil {
				t.Fatal(err)
			}
			back, err := Decode(b)
			if err != nil || !slices.Equal(back.Search.Countries, tt.want) {
				t.Errorf("encoded and decoded: %q (%v), want %q\n%s", back.Search.Countries, err, tt.want, b)
			}
			if strings.Contains(string(b), "countries") != (len(tt.want) > 0) {
				t.Errorf("countries written %v, want %v:\n%s", !(len(tt.want) > 0), len(tt.want) > 0, b)
			}
		})
	}
}
