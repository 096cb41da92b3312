package update

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
)

// newProviders are the providers added in 2026-12 that catalog update
// fetches by default. Their fixtures under testdata/v8 are the very files
// the embedded catalog was generated from (skypilot-org/skypilot-catalog,
// the commits named in data/internal/gencatalog/tables.go).
var newProviders = []string{"hyperstack", "jarvislabs", "seeweb", "verda", "daytona", "shadeform", "primeintellect"}

// TestRunNewProviders: each provider's file reads back to the embedded
// catalog: the same types, none added or removed, no price moved, and the
// overlay loads.
func TestRunNewProviders(t *testing.T) {
	for _, p := range newProviders {
		t.Run(p, func(t *testing.T) {
			if !contains(DefaultProviders, p) {
				t.Errorf("%s is not fetched by default", p)
			}
			s := server(t, nil)
			dir := t.TempDir()
			sum, err := Run(context.Background(), Options{Client: s.Client(), Dir: dir, Sources: []string{s.URL + "/good"}, Providers: []string{p}, Now: fixedNow})
			if err != nil {
				t.Fatal(err)
			}
			ps := sum.Providers[0]
			base, _ := data.Load()
			n := 0
			for i := range base.Instances {
				if base.Instances[i].Provider == p && base.Instances[i].Retired == "" {
					n++
				}
			}
			// The embedded catalog adds hand rows no SkyPilot file has (none
			// for these providers), so the counts are equal.
			if ps.Types != n || len(ps.Added) != 0 || len(ps.Removed) != 0 || len(ps.Moved) != 0 {
				t.Errorf("%d types (embedded %d), added %v, removed %v, moved %v", ps.Types, n, ps.Added, ps.Removed, ps.Moved)
			}
			b, err := os.ReadFile(filepath.Join(dir, "skypilot-"+p+".toml"))
			if err != nil || !strings.Contains(string(b), "provider = \""+p+"\"") {
				t.Fatalf("overlay: %v\n%.300s", err, b)
			}
		})
	}
}

// TestRunNewProvidersFailures: the failure cases of TestRunFailures for
// each new provider's file: each keeps the previous overlay and says why.
func TestRunNewProvidersFailures(t *testing.T) {
	for _, p := range newProviders {
		body, err := os.ReadFile(filepath.Join("testdata", "v8", p, "vms.csv"))
		if err != nil {
			t.Fatal(err)
		}
		file := string(body)
		lines := strings.SplitAfter(file, "\n")
		header := lines[0]
		serve := func(s string) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(s)) }
		}
		tooMany := func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "rate limited", http.StatusTooManyRequests)
		}
		// The Price column renamed (SpotPrice stays: the header is split).
		cols := strings.Split(strings.TrimRight(header, "\r\n"), ",")
		for i, c := range cols {
			if c == "Price" {
				cols[i] = "PriceUSD"
			}
		}
		renamed := strings.Join(cols, ",") + "\n" + file[len(header):]
		// A Currency column at the end of every line, CNY on the data rows.
		var cny strings.Builder
		for i, l := range lines {
			if l == "" {
				continue
			}
			l = strings.TrimSuffix(l, "\n")
			if i == 0 {
				cny.WriteString(l + ",Currency\n")
			} else {
				cny.WriteString(l + ",CNY\n")
			}
		}
		downURL := refusedURL(t)
		tests := []struct {
			name     string
			override map[string]http.HandlerFunc
			sources  func(base string) []string
			want     string
		}{
			{"429 and no mirror", map[string]http.HandlerFunc{"/raw/": tooMany}, func(b string) []string { return []string{b + "/raw"} }, "HTTP 429 Too Many Requests"},
			{"truncated", map[string]http.HandlerFunc{"/bad/": serve(file[:len(file)/2])}, func(b string) []string { return []string{b + "/bad"} }, "truncated file"},
			{"renamed column", map[string]http.HandlerFunc{"/bad/": serve(renamed)}, func(b string) []string { return []string{b + "/bad"} }, "Price"},
			{"non-USD", map[string]http.HandlerFunc{"/bad/": serve(cny.String())}, func(b string) []string { return []string{b + "/bad"} }, "prices in CNY, want USD"},
			{"network down", nil, func(string) []string { return []string{downURL} }, "connection refused"},
			{"drops more than half", map[string]http.HandlerFunc{"/bad/": serve(header + lines[len(lines)-2])}, func(b string) []string { return []string{b + "/bad"} }, ""},
		}
		for _, tt := range tests {
			t.Run(p+"/"+tt.name, func(t *testing.T) {
				s := server(t, tt.override)
				dir := t.TempDir()
				old := filepath.Join(dir, "skypilot-"+p+".toml")
				os.WriteFile(old, []byte("# previous overlay\n"), 0o644)
				_, err := Run(context.Background(), Options{Client: s.Client(), Dir: dir, Sources: tt.sources(s.URL), Providers: []string{p}, Now: fixedNow})
				b, _ := os.ReadFile(old)
				if err == nil || !strings.Contains(err.Error(), "previous overlay kept") || string(b) != "# previous overlay\n" {
					t.Fatalf("Run() = %v; overlay now %q; want an error and the previous overlay kept", err, b)
				}
				if tt.want != "" && !strings.Contains(err.Error(), tt.want) {
					t.Errorf("Run() = %v, want %q", err, tt.want)
				}
				if tt.name == "drops more than half" && !errors.Is(err, ErrDropped) && !strings.Contains(err.Error(), "no GPU instance types") {
					t.Errorf("Run() = %v, want ErrDropped (or no GPU row at all)", err)
				}
			})
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
