package update

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
)

// directServer serves the Azure pages under /az/api/retail/prices (page 2
// when the query has $skip) and the OCI files under /oci/; override maps a
// path prefix to a handler that wins.
func directServer(t *testing.T, override map[string]http.HandlerFunc) *httptest.Server {
	t.Helper()
	var s *httptest.Server
	s = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for prefix, h := range override {
			if strings.HasPrefix(r.URL.Path, prefix) {
				h(w, r)
				return
			}
		}
		var file string
		switch {
		case r.URL.Path == "/az/api/retail/prices":
			file = "testdata/azure/page1.json"
			if r.URL.Query().Get("$skip") != "" {
				file = "testdata/azure/page2.json"
			}
		case strings.HasPrefix(r.URL.Path, "/oci/"):
			file = filepath.Join("testdata", "oci", filepath.Base(r.URL.Path))
		default:
			http.NotFound(w, r)
			return
		}
		b, err := os.ReadFile(file)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(strings.ReplaceAll(string(b), "{{BASE}}", s.URL+"/az")))
	}))
	t.Cleanup(s.Close)
	return s
}

func ociAt(base string) []OCISource {
	return []OCISource{{Products: base + "/products.json", Shapes: base + "/shapes.json"}}
}

// loadOverlay reads the catalog with file as its only fetched overlay.
func loadOverlay(t *testing.T, file string) *model.Catalog {
	t.Helper()
	home := t.TempDir()
	t.Setenv("XDG_DATA_HOME", home)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	gp := filepath.Join(home, "gpuplan", "catalog.d")
	os.MkdirAll(gp, 0o755)
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(gp, filepath.Base(file)), b, 0o644)
	c, _, err := data.LoadWith(nil)
	if err != nil {
		t.Fatalf("the overlay does not load: %v", err)
	}
	return c
}

func findInst(c *model.Catalog, provider, typ string) *model.Instance {
	for i := range c.Instances {
		if in := &c.Instances[i]; in.Provider == provider && in.Type == typ {
			return in
		}
	}
	return nil
}

func regionPrice(in *model.Instance, region string) (model.RegionPrice, bool) {
	for _, p := range in.Prices {
		if p.Region == region {
			return p, true
		}
	}
	return model.RegionPrice{}, false
}

func checkGolden(t *testing.T, got []byte, base, name string) {
	t.Helper()
	got = []byte(strings.ReplaceAll(string(got), base, "https://mirror.test"))
	golden := filepath.Join("testdata", "golden", name)
	if *updateGolden {
		os.WriteFile(golden, got, 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("overlay differs from %s (go test ./data/update -update):\n%s", golden, got)
	}
}

func TestAzureGolden(t *testing.T) {
	s := directServer(t, nil)
	dir := t.TempDir()
	sum, err := Run(context.Background(), Options{Client: s.Client(), Dir: dir, AzureSources: []string{s.URL + "/az/api/retail/prices"},
		Providers: []string{"azure"}, Force: true, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "azure-retail.toml")
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, got, s.URL, "azure-retail.toml")
	az := sum.Providers[0]
	// Two pages: NC24ads, ND96isr_H100, ND96isr_H200 (new) on page 1,
	// NC48ads, NC80adis, ND96isr_MI300X (new) on page 2; NC6s_v3 is
	// retired, NV6ads_A10_v5 (a GPU partition) has no shape.
	if az.Types != 6 || !slices.Equal(az.Added, []string{"Standard_ND96isr_H200_v5", "Standard_ND96isr_MI300X_v5"}) {
		t.Errorf("azure: %d types, added %v; want 6, ND96isr_H200_v5 and ND96isr_MI300X_v5", az.Types, az.Added)
	}
	// 7.346 → 9.554 is +30% (catalog audit #11's third-party figure).
	if len(az.Moved) != 1 || az.Moved[0] != (PriceMove{"Standard_NC48ads_A100_v4", "eastus", 7.346, 9.554, false}) {
		t.Errorf("moved = %+v, want NC48ads_A100_v4 eastus 7.346 → 9.554", az.Moved)
	}
	// The sample of the summary in docs/data.md.
	text := strings.NewReplacer(s.URL+"/az", "https://prices.azure.com", dir, "~/.local/share/gpuplan/catalog.d").Replace(sum.Text())
	if want := `azure: 6 types from https://prices.azure.com/api/retail/prices → ~/.local/share/gpuplan/catalog.d/azure-retail.toml
  added 2, removed 15, prices moved >10%: 1 on demand, 0 spot
    added: Standard_ND96isr_H200_v5, Standard_ND96isr_MI300X_v5
    removed: Standard_NC16as_T4_v3, Standard_NC40ads_H100_v5, Standard_NC4as_T4_v3 and 12 more
  new regions (2, none in the catalog before): swedencentral, westeurope
  Standard_NC48ads_A100_v4 eastus: $7.35 → $9.55/h (+30%)
  guards: 7 region prices checked, none held back
  note: 1 N-series sizes have no shape in the catalog or the fetcher's table and were left out: Standard_NV6ads_A10_v5
  note: 1 retired sizes still priced, left retired: Standard_NC6s_v3
`; text != want {
		t.Errorf("summary (docs/data.md sample):\n%s\nwant:\n%s", text, want)
	}
	warn := strings.Join(model.Strings(az.Warnings), "\n")
	for _, w := range []string{"Standard_NV6ads_A10_v5", "retired sizes still priced, left retired: Standard_NC6s_v3"} {
		if !strings.Contains(warn, w) {
			t.Errorf("warnings %q lack %q", warn, w)
		}
	}
	c := loadOverlay(t, file)
	nc := findInst(c, "azure", "Standard_NC24ads_A100_v4")
	for _, tc := range []struct {
		region   string
		od, spot float64
		why      string
	}{
		{"eastus", 3.673, 0.444433, "Linux pay-as-you-go and spot; Windows 3.857 and Low Priority 0.7346 dropped"},
		{"westeurope", 4.1, 0, "the newest meter (2024) over the 2021 one at 3.9; DevTestConsumption 3.5 dropped"},
	} {
		p, ok := regionPrice(nc, tc.region)
		if !ok || p.OnDemandUSD != tc.od || p.SpotUSD != tc.spot || !strings.HasSuffix(p.Patched().Origin, "azure-retail.toml") {
			t.Errorf("NC24ads_A100_v4 %s = %+v, want on-demand %v spot %v from azure-retail.toml (%s)", tc.region, p, tc.od, tc.spot, tc.why)
		}
	}
	if nc.GPU != "a100-pcie-80gb" {
		t.Errorf("the patch lost the catalog's GPU: %s", nc.GPU)
	}
	h200 := findInst(c, "azure", "Standard_ND96isr_H200_v5")
	if h200 == nil || h200.GPU != "h200" || h200.GPUCount != 8 || h200.VCPUs != 96 || h200.MemoryGiB != 1850 || !strings.Contains(h200.Source, "aspire.dev") {
		t.Errorf("new ND96isr_H200_v5 = %+v, want 8 × h200, 96 vCPU, 1850 GiB citing aspire.dev", h200)
	}
}

func TestOCIGolden(t *testing.T) {
	s := directServer(t, nil)
	dir := t.TempDir()
	stale := filepath.Join(dir, "skypilot-oci.toml") // what an earlier version wrote for OCI
	os.WriteFile(stale, []byte("# old SkyPilot OCI overlay\n"), 0o644)
	sum, err := Run(context.Background(), Options{Client: s.Client(), Dir: dir, OCISources: ociAt(s.URL + "/oci"),
		Providers: []string{"oci"}, Force: true, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "oci-pricelist.toml")
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, got, s.URL, "oci-pricelist.toml")
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("skypilot-oci.toml kept beside oci-pricelist.toml (stat: %v)", err)
	}
	oci := sum.Providers[0]
	if oci.Types != 4 || !slices.Equal(oci.Added, []string{"VM.GPU.L40S.1"}) || len(oci.Moved) != 0 {
		t.Errorf("oci: %d types, added %v, moved %v; want 4, VM.GPU.L40S.1, none", oci.Types, oci.Added, oci.Moved)
	}
	text := strings.NewReplacer(s.URL+"/oci/products.json", DefaultOCISources[0].Products, dir, "~/.local/share/gpuplan/catalog.d").Replace(sum.Text())
	if want := `oci: 4 types from https://apexapps.oracle.com/pls/apex/cetools/api/v1/products/ → ~/.local/share/gpuplan/catalog.d/oci-pricelist.toml
  added 1, removed 18, prices moved >10%: 0 on demand, 0 spot
    added: VM.GPU.L40S.1
    removed: BM.GPU.A10.4, BM.GPU.A100-v2.8, BM.GPU.B200.8 and 15 more
  guards: 12 region prices checked, none held back
  note: 1 GPU shapes without a known GPU, price or size left out: BM.GPU.X99.8
  note: removed skypilot-oci.toml: OCI now comes from Oracle's price list
`; text != want {
		t.Errorf("summary:\n%s\nwant:\n%s", text, want)
	}
	if w := strings.Join(model.Strings(oci.Warnings), "\n"); !strings.Contains(w, "BM.GPU.X99.8") {
		t.Errorf("warnings %q do not name the unknown BM.GPU.X99.8", w)
	}
	c := loadOverlay(t, file)
	for _, tc := range []struct {
		typ      string
		od, spot float64
		why      string
	}{
		{"BM.GPU.H100.8", 80, 0, "$10 per GPU-hour × 8, not preemptible"},
		{"VM.GPU.A10.1", 2, 1, "$2 × 1, preemptible at 50%"},
		{"BM.GPU.MI300X.8", 48, 0, "$6 × 8"},
		{"VM.GPU.L40S.1", 3.5, 1.75, "new: $3.5 × 1, preemptible at 50%"},
	} {
		in := findInst(c, "oci", tc.typ)
		if in == nil {
			t.Errorf("%s missing", tc.typ)
			continue
		}
		p, ok := regionPrice(in, "us-ashburn-1")
		if !ok || p.OnDemandUSD != tc.od || p.SpotUSD != tc.spot {
			t.Errorf("%s us-ashburn-1 = %+v, want %v / spot %v (%s)", tc.typ, p, tc.od, tc.spot, tc.why)
		}
	}
	// 15 OCPUs are 30 vCPUs on x86; 240 GB from the estimator.
	if l := findInst(c, "oci", "VM.GPU.L40S.1"); l.VCPUs != 30 || l.MemoryGiB != 240 || l.GPU != "l40s" {
		t.Errorf("VM.GPU.L40S.1 = %d vCPU, %v GiB, %s; want 30, 240, l40s", l.VCPUs, l.MemoryGiB, l.GPU)
	}
}

// TestDirectFailures: the failure cases of the SkyPilot fetcher, for the
// Azure and OCI fetchers; each keeps the previous overlay and says why.
func TestDirectFailures(t *testing.T) {
	page1, _ := os.ReadFile("testdata/azure/page1.json")
	products, _ := os.ReadFile("testdata/oci/products.json")
	shapes, _ := os.ReadFile("testdata/oci/shapes.json")
	serve := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }
	}
	tooMany := func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "rate limited", http.StatusTooManyRequests)
	}
	loop := func(w http.ResponseWriter, r *http.Request) { // a NextPageLink to itself, forever
		w.Write([]byte(`{"Items": [], "NextPageLink": "http://` + r.Host + `/loop/api/retail/prices?$skip=1"}`))
	}
	elsewhere := serve(`{"Items": [], "NextPageLink": "https://attacker.example/api/retail/prices?$skip=100"}`)
	one := `{"Items": [` + strings.SplitN(strings.SplitN(string(page1), `"Items": [`, 2)[1], "},", 2)[0] + `}], "NextPageLink": null}`
	downURL := refusedURL(t)
	tests := []struct {
		name, provider string
		override       map[string]http.HandlerFunc
		azure          func(base string) []string
		oci            func(base string) []OCISource
		force          bool
		want           string // error fragment; "" = success
	}{
		{"azure 429 then mirror", "azure", map[string]http.HandlerFunc{"/raw/": tooMany}, func(b string) []string { return []string{b + "/raw/prices", b + "/az/api/retail/prices"} }, nil, true, ""},
		{"azure 429 and no mirror", "azure", map[string]http.HandlerFunc{"/raw/": tooMany}, func(b string) []string { return []string{b + "/raw/prices"} }, nil, false, "HTTP 429 Too Many Requests"},
		{"azure truncated JSON", "azure", map[string]http.HandlerFunc{"/bad/": serve(string(page1[:len(page1)/2]))}, func(b string) []string { return []string{b + "/bad/prices"} }, nil, false, "malformed JSON"},
		{"azure renamed field", "azure", map[string]http.HandlerFunc{"/bad/": serve(strings.ReplaceAll(string(page1), `"armSkuName"`, `"armSku"`))}, func(b string) []string { return []string{b + "/bad/prices"} }, nil, false, `no "armSkuName"`},
		{"azure renamed Items", "azure", map[string]http.HandlerFunc{"/bad/": serve(strings.Replace(string(page1), `"Items"`, `"items_v2"`, 1))}, func(b string) []string { return []string{b + "/bad/prices"} }, nil, false, `no "Items" array`},
		{"azure non-USD", "azure", map[string]http.HandlerFunc{"/bad/": serve(strings.ReplaceAll(string(page1), `"USD"`, `"EUR"`))}, func(b string) []string { return []string{b + "/bad/prices"} }, nil, false, `prices in "EUR", want USD`},
		{"azure network down", "azure", nil, func(string) []string { return []string{downURL + "/prices"} }, nil, false, "connection refused"},
		{"azure drops more than half", "azure", map[string]http.HandlerFunc{"/bad/": serve(one)}, func(b string) []string { return []string{b + "/bad/prices"} }, nil, false, "lists 1 of the catalog's 19 azure types"},
		{"azure pages that loop", "azure", map[string]http.HandlerFunc{"/loop/": loop}, func(b string) []string { return []string{b + "/loop/api/retail/prices"} }, nil, false, "the pages loop"},
		{"azure NextPageLink to another host", "azure", map[string]http.HandlerFunc{"/bad/": elsewhere}, func(b string) []string { return []string{b + "/bad/prices"} }, nil, false, "leaves 127.0.0.1"},
		{"oci 429 then mirror", "oci", map[string]http.HandlerFunc{"/raw/": tooMany}, nil, func(b string) []OCISource { return append(ociAt(b+"/raw"), ociAt(b+"/oci")...) }, true, ""},
		{"oci 429 and no mirror", "oci", map[string]http.HandlerFunc{"/raw/": tooMany}, nil, func(b string) []OCISource { return ociAt(b + "/raw") }, false, "HTTP 429 Too Many Requests"},
		{"oci truncated price list", "oci", map[string]http.HandlerFunc{"/bad/products.json": serve(string(products[:len(products)/2])), "/bad/shapes.json": serve(string(shapes))}, nil, func(b string) []OCISource { return ociAt(b + "/bad") }, false, "price list: malformed JSON"},
		{"oci renamed field", "oci", map[string]http.HandlerFunc{"/bad/products.json": serve(strings.ReplaceAll(string(products), `"partNumber"`, `"part"`)), "/bad/shapes.json": serve(string(shapes))}, nil, func(b string) []OCISource { return ociAt(b + "/bad") }, false, `no "partNumber"`},
		{"oci non-USD", "oci", map[string]http.HandlerFunc{"/bad/products.json": serve(strings.ReplaceAll(string(products), `"USD"`, `"GBP"`)), "/bad/shapes.json": serve(string(shapes))}, nil, func(b string) []OCISource { return ociAt(b + "/bad") }, false, `prices in "GBP", want USD`},
		{"oci network down", "oci", nil, nil, func(string) []OCISource { return ociAt(downURL) }, false, "connection refused"},
		{"oci drops more than half", "oci", nil, nil, func(b string) []OCISource { return ociAt(b + "/oci") }, false, "lists 3 of the catalog's 21 oci types"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := directServer(t, tt.override)
			dir := t.TempDir()
			old := overlayFile(dir, tt.provider)
			os.WriteFile(old, []byte("# previous overlay\n"), 0o644)
			var slept []time.Duration
			o := Options{Client: s.Client(), Dir: dir, Providers: []string{tt.provider}, Force: tt.force, Now: fixedNow, MaxPages: 3,
				Sleep: func(_ context.Context, d time.Duration) { slept = append(slept, d) }}
			if tt.azure != nil {
				o.AzureSources = tt.azure(s.URL)
			}
			if tt.oci != nil {
				o.OCISources = tt.oci(s.URL)
			}
			_, err := Run(context.Background(), o)
			b, _ := os.ReadFile(old)
			if strings.HasPrefix(tt.name, "azure 429") && !slices.Equal(slept, []time.Duration{3 * time.Second, 6 * time.Second}) {
				t.Errorf("waits before the retries %v, want 3s then 6s", slept)
			}
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Run() = %v", err)
				}
				if string(b) == "# previous overlay\n" {
					t.Error("overlay not rewritten")
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "previous overlay kept") {
				t.Errorf("Run() error = %v, want %q and 'previous overlay kept'", err, tt.want)
			}
			if string(b) != "# previous overlay\n" {
				t.Errorf("previous overlay replaced:\n%s", b)
			}
			if strings.Contains(tt.name, "more than half") && !errors.Is(err, ErrDropped) {
				t.Errorf("error %v does not wrap ErrDropped", err)
			}
		})
	}
}

// BenchmarkLoadWithUpdates: loading the catalog with the overlays one
// update writes (the golden azure, oci, gcp and lambda files), as every
// command does after `catalog update`.
func BenchmarkLoadWithUpdates(b *testing.B) {
	home := b.TempDir()
	b.Setenv("XDG_DATA_HOME", home)
	b.Setenv("XDG_CONFIG_HOME", b.TempDir())
	gp := filepath.Join(home, "gpuplan", "catalog.d")
	os.MkdirAll(gp, 0o755)
	for _, f := range []string{"azure-retail.toml", "oci-pricelist.toml", "skypilot-gcp.toml", "skypilot-lambda.toml"} {
		body, err := os.ReadFile(filepath.Join("testdata", "golden", f))
		if err != nil {
			b.Fatal(err)
		}
		os.WriteFile(filepath.Join(gp, f), body, 0o644)
	}
	for b.Loop() {
		if _, _, err := data.LoadWith(nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAzureSkipFallback: a full page of 100 items without a NextPageLink
// (the API's 2023-03 defect) is followed by $skip=100 until a short page.
func TestAzureSkipFallback(t *testing.T) {
	item := func(sku, region string) string {
		return `{"currencyCode":"USD","retailPrice":1.5,"armRegionName":"` + region + `","armSkuName":"` + sku +
			`","skuName":"x","productName":"Virtual Machines","unitOfMeasure":"1 Hour","type":"Consumption"}`
	}
	var full []string
	for i := range 100 {
		full = append(full, item("Standard_NC4as_T4_v3", "region"+strconv.Itoa(i)))
	}
	var skips []string
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		skip := r.URL.Query().Get("$skip")
		skips = append(skips, skip)
		if skip == "" {
			w.Write([]byte(`{"Items":[` + strings.Join(full, ",") + `],"NextPageLink":""}`))
			return
		}
		w.Write([]byte(`{"Items":[` + item("Standard_NC8as_T4_v3", "eastus") + `],"NextPageLink":""}`))
	}))
	defer s.Close()
	sum, err := Run(context.Background(), Options{Client: s.Client(), Dir: t.TempDir(), AzureSources: []string{s.URL + "/prices"},
		Providers: []string{"azure"}, Force: true, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(skips, []string{"", "100"}) || sum.Providers[0].Types != 2 {
		t.Errorf("requests with $skip %q, %d types; want \"\" then 100, 2 types", skips, sum.Providers[0].Types)
	}
}

// TestAzure429Retry: a page that answers 429 once is retried after 3 s on
// the same source, and the update succeeds.
func TestAzure429Retry(t *testing.T) {
	n := 0
	var s *httptest.Server
	s = directServer(t, map[string]http.HandlerFunc{"/flaky/": func(w http.ResponseWriter, r *http.Request) {
		if n++; n == 1 {
			http.Error(w, "rate limited", http.StatusTooManyRequests)
			return
		}
		r.URL.Path = "/az/api/retail/prices"
		s.Config.Handler.ServeHTTP(w, r)
	}})
	var slept []time.Duration
	_, err := Run(context.Background(), Options{Client: s.Client(), Dir: t.TempDir(), AzureSources: []string{s.URL + "/flaky/prices"},
		Providers: []string{"azure"}, Force: true, Now: fixedNow, Sleep: func(_ context.Context, d time.Duration) { slept = append(slept, d) }})
	if err != nil || !slices.Equal(slept, []time.Duration{3 * time.Second}) {
		t.Errorf("Run() = %v after waits %v; want success after one 3s wait", err, slept)
	}
}
