package update

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/data"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/golden/*.toml")

// The fixtures under testdata/v8 are real SkyPilot rows: lambda/vms.csv is
// every us-east-1 row of skypilot-org/skypilot-catalog catalogs/v8/lambda/
// vms.csv @ 0f407038 with ONE price changed by hand (gpu_8x_h100_sxm5
// 31.92 → 27.92, to exercise the "moved" summary); gcp/vms.csv is the
// DWS extract of catalogs/v8/gcp/vms.csv @ 006059e0 used in data's tests.

var fixedNow = func() time.Time { return time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC) }

// server serves testdata/v8 under /good/v8/...; handler overrides per path.
func server(t *testing.T, override map[string]http.HandlerFunc) *httptest.Server {
	t.Helper()
	fs := http.StripPrefix("/good", http.FileServer(http.Dir("testdata")))
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for prefix, h := range override {
			if strings.HasPrefix(r.URL.Path, prefix) {
				h(w, r)
				return
			}
		}
		if strings.HasPrefix(r.URL.Path, "/good/") {
			fs.ServeHTTP(w, r)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func TestRunGolden(t *testing.T) {
	s := server(t, nil)
	dir := t.TempDir()
	var done []string
	var bytes int64
	sum, err := Run(context.Background(), Options{
		Client: s.Client(), Dir: dir, Sources: []string{s.URL + "/good"}, Providers: []string{"lambda", "gcp"},
		Force: true, Now: fixedNow, Progress: func(p Progress) {
			if p.Done {
				done = append(done, fmt.Sprintf("%s %d/%d %v", p.Provider, p.Index+1, p.Total, p.Err))
			}
			if p.Provider == "lambda" {
				bytes = max(bytes, p.Bytes)
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"lambda 1/2 <nil>", "gcp 2/2 <nil>"}; !slices.Equal(done, want) {
		t.Errorf("progress when done %q, want %q", done, want)
	}
	if fi, err := os.Stat("testdata/v8/lambda/vms.csv"); err != nil || bytes != fi.Size() {
		t.Errorf("lambda progress reached %d bytes, want the file's size", bytes)
	}
	for _, p := range []string{"lambda", "gcp"} {
		got, err := os.ReadFile(filepath.Join(dir, "skypilot-"+p+".toml"))
		if err != nil {
			t.Fatal(err)
		}
		got = []byte(strings.ReplaceAll(string(got), s.URL, "https://mirror.test"))
		golden := filepath.Join("testdata", "golden", "skypilot-"+p+".toml")
		if *updateGolden {
			os.MkdirAll(filepath.Dir(golden), 0o755)
			os.WriteFile(golden, got, 0o644)
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s overlay differs from %s (go test ./data/update -update)", p, golden)
		}
	}
	lam := sum.Providers[0]
	if lam.Types != 22 || len(lam.Added) != 0 || len(lam.Removed) != 0 {
		t.Errorf("lambda: %d types, added %v, removed %v; want 22, none, none", lam.Types, lam.Added, lam.Removed)
	}
	if len(lam.Moved) != 1 || lam.Moved[0].Type != "gpu_8x_h100_sxm5" || lam.Moved[0].From != 31.92 || lam.Moved[0].To != 27.92 {
		t.Errorf("lambda moved = %+v, want gpu_8x_h100_sxm5 us-east-1 31.92 → 27.92 (12.5%%)", lam.Moved)
	}
	// The loader reads the overlays and each patched price names its file.
	// A data directory of the test's own: the parent of t.TempDir() is
	// shared with every process on the machine (/tmp/gpuplan may be
	// anything there).
	xdg := t.TempDir()
	t.Setenv("XDG_DATA_HOME", xdg)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	gp := filepath.Join(xdg, "gpuplan", "catalog.d")
	if err := os.MkdirAll(gp, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"lambda", "gcp"} {
		b, err := os.ReadFile(filepath.Join(dir, "skypilot-"+p+".toml"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(gp, "skypilot-"+p+".toml"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, _, err := data.LoadWith(nil)
	if err != nil {
		t.Fatal(err)
	}
	// A type the fetch no longer lists (gcp a2-highgpu-1g is not in the DWS
	// extract, and --force accepted the drop) is marked missing since the
	// fetch (not retired: the provider said nothing), so recommend stops
	// ranking it at its old embedded price; listings still show it.
	gone := false
	for _, in := range c.Instances {
		if in.Provider == "gcp" && in.Type == "a2-highgpu-1g" {
			gone = true
			if in.MissingSince != "2026-12-01" || !strings.Contains(in.MissingSource, "not in the latest fetch") || in.Retired != "" || in.Offered() {
				t.Errorf("removed a2-highgpu-1g: missing since %q (%q), retired %q; want missing since 2026-12-01, not in the latest fetch, not retired, not offered", in.MissingSince, in.MissingSource, in.Retired)
			}
		}
	}
	if !gone || !slices.Contains(sum.Providers[1].Removed, "a2-highgpu-1g") {
		t.Errorf("a2-highgpu-1g in catalog %v, removed by the update %v", gone, sum.Providers[1].Removed)
	}
	for _, in := range c.Instances {
		if in.Provider != "lambda" || in.Type != "gpu_8x_h100_sxm5" {
			continue
		}
		for _, p := range in.Prices {
			if p.Region == "us-east-1" && (p.OnDemandUSD != 27.92 || !strings.HasSuffix(p.Patched().Origin, "skypilot-lambda.toml") || !strings.Contains(p.Patched().Source, "fetched 2026-12-01T09:30:00Z")) {
				t.Errorf("us-east-1 price %+v, want 27.92 from skypilot-lambda.toml", p)
			}
		}
		if in.GPU != "h100-sxm" || in.Interconnect != "nvswitch" {
			t.Errorf("patch lost the embedded corrections: gpu %s, interconnect %s", in.GPU, in.Interconnect)
		}
	}
}

// TestRunFailures: each failure keeps the previous overlay and says why.
func TestRunFailures(t *testing.T) {
	lambda, err := os.ReadFile("testdata/v8/lambda/vms.csv")
	if err != nil {
		t.Fatal(err)
	}
	serve := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }
	}
	tooMany := func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "rate limited", http.StatusTooManyRequests)
	}
	lines := strings.SplitAfter(string(lambda), "\n")
	downURL := refusedURL(t)
	tests := []struct {
		name     string
		override map[string]http.HandlerFunc
		sources  func(base string) []string
		force    bool
		want     string // error fragment; "" = success
		wantURL  string // suffix of the URL used
	}{
		{"429 then mirror", map[string]http.HandlerFunc{"/raw/": tooMany}, func(b string) []string { return []string{b + "/raw", b + "/good"} }, false, "", "/good/v8/lambda/vms.csv"},
		{"429 and no mirror", map[string]http.HandlerFunc{"/raw/": tooMany}, func(b string) []string { return []string{b + "/raw"} }, false, "HTTP 429 Too Many Requests", ""},
		{"truncated CSV", map[string]http.HandlerFunc{"/bad/": serve(strings.Join(lines[:5], "") + lines[5][:40])}, func(b string) []string { return []string{b + "/bad"} }, false, "truncated file", ""},
		{"renamed column", map[string]http.HandlerFunc{"/bad/": serve(strings.Replace(string(lambda), ",Price,", ",PriceUSD,", 1))}, func(b string) []string { return []string{b + "/bad"} }, false, "Price", ""},
		{"non-USD", map[string]http.HandlerFunc{"/bad/": serve(strings.Replace(strings.ReplaceAll(string(lambda), ",us-east-1,", ",us-east-1,CNY,"), ",Region,", ",Region,Currency,", 1))}, func(b string) []string { return []string{b + "/bad"} }, false, "prices in CNY, want USD", ""},
		{"network down", nil, func(string) []string { return []string{downURL} }, false, "connection refused", ""},
		{"drops more than half", map[string]http.HandlerFunc{"/bad/": serve(strings.Join(lines[:4], ""))}, func(b string) []string { return []string{b + "/bad"} }, false, "lists 3 of the catalog's 22 lambda types", ""},
		{"drops more than half, forced", map[string]http.HandlerFunc{"/bad/": serve(strings.Join(lines[:4], ""))}, func(b string) []string { return []string{b + "/bad"} }, true, "", "/bad/v8/lambda/vms.csv"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := server(t, tt.override)
			dir := t.TempDir()
			old := filepath.Join(dir, "skypilot-lambda.toml")
			os.WriteFile(old, []byte("# previous overlay\n"), 0o644)
			sum, err := Run(context.Background(), Options{Client: s.Client(), Dir: dir, Sources: tt.sources(s.URL), Providers: []string{"lambda"}, Force: tt.force, Now: fixedNow})
			b, _ := os.ReadFile(old)
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "previous overlay kept") {
					t.Errorf("Run() error = %v, want %q and 'previous overlay kept'", err, tt.want)
				}
				if string(b) != "# previous overlay\n" {
					t.Errorf("previous overlay replaced:\n%s", b)
				}
				if tt.name == "drops more than half" && !errors.Is(err, ErrDropped) {
					t.Errorf("error %v does not wrap ErrDropped", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Run() = %v", err)
			}
			if got := sum.Providers[0].URL; !strings.HasSuffix(got, tt.wantURL) {
				t.Errorf("used %s, want …%s", got, tt.wantURL)
			}
			if string(b) == "# previous overlay\n" {
				t.Error("overlay not rewritten")
			}
		})
	}
}

// A failed provider says whether a previous overlay was kept, and the
// summary leaves the error itself to Run's error, printed once.
func TestRunFailureSummary(t *testing.T) {
	downURL := refusedURL(t)
	for _, kept := range []bool{true, false} {
		dir := t.TempDir()
		if kept {
			os.WriteFile(filepath.Join(dir, "skypilot-lambda.toml"), []byte("# previous overlay\n"), 0o644)
		}
		sum, err := Run(context.Background(), Options{Dir: dir, Sources: []string{downURL}, Providers: []string{"lambda"}, Now: fixedNow})
		want := map[bool]string{true: "previous overlay kept", false: "no previous overlay"}[kept]
		if err == nil || !strings.Contains(err.Error(), "("+want+")") {
			t.Errorf("kept=%v: Run() error = %v, want %q", kept, err, want)
		}
		if got := sum.Text(); got != "lambda: failed, "+want+"\n" {
			t.Errorf("kept=%v: Text() = %q, want %q", kept, got, "lambda: failed, "+want+"\n")
		}
	}
}

// The summary names the regions a file prices that the catalog has for
// none of the provider's types: their count and the first few (issue 29:
// a mirror could add made-up regions unseen).
func TestRunNamesNewRegions(t *testing.T) {
	b, err := os.ReadFile("testdata/v8/lambda/vms.csv")
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.SplitAfter(string(b), "\n")
	// Four rows repeated in four new regions; the original rows stay.
	extra := ""
	for i, r := range []string{"mars-north-1", "ap-moon-1", "zz-void-7", "eu-atlantis-2"} {
		extra += strings.Replace(rows[1+i], ",us-east-1,", ","+r+",", 1)
	}
	csv := string(b) + extra
	s := server(t, map[string]http.HandlerFunc{"/new/v8/lambda/vms.csv": func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, csv) }})
	sum, err := Run(context.Background(), Options{Client: s.Client(), Dir: t.TempDir(), Sources: []string{s.URL + "/new"}, Providers: []string{"lambda"}, Force: true, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sum.Providers[0].NewRegions, []string{"ap-moon-1", "eu-atlantis-2", "mars-north-1", "zz-void-7"}; !slices.Equal(got, want) {
		t.Errorf("new regions %v, want %v", got, want)
	}
	const want = "  new regions (4, none in the catalog before): ap-moon-1, eu-atlantis-2, mars-north-1 and 1 more\n"
	if text := sum.Text(); strings.Count(text, want) != 1 {
		t.Errorf("summary lacks %q:\n%s", want, text)
	}
}
