package update

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/data/safeio"
	"github.com/gpuplan/gpuplan/model"
)

// The hostile-server suite: local servers (httptest, 127.0.0.1 only)
// answering as an attacker or a broken mirror would. Each case must end
// with one error saying what was wrong and the previous overlay kept byte
// for byte. The limits are shrunk so the suite takes about a second; a
// safety context of 20 s turns a hang into a failure (ErrStalled or
// ErrDeadline is asserted, never a time).

// fastLimits are Limits small enough for tests: a 500 ms window at 600 B/s
// (300 bytes a window), 2 s a provider.
var fastLimits = Limits{Connect: time.Second, Provider: 2 * time.Second, Window: 500 * time.Millisecond, MinRate: 600}

const previous = "# previous overlay\n"

// hostileRun runs one provider's update against srcs with fastLimits and a
// previous overlay in a fresh directory, and returns the error and what the
// previous overlay holds afterwards.
func hostileRun(t *testing.T, o Options) (Summary, error, string) {
	t.Helper()
	if o.Dir == "" {
		o.Dir = t.TempDir()
	}
	old := overlayFile(o.Dir, o.Providers[0])
	if err := os.WriteFile(old, []byte(previous), 0o644); err != nil {
		t.Fatal(err)
	}
	if o.Limits == (Limits{}) {
		o.Limits = fastLimits
	}
	o.Now = fixedNow
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second) // a hang fails, it does not block the suite
	defer cancel()
	sum, err := Run(ctx, o)
	if ctx.Err() != nil {
		t.Fatalf("Run did not return within the safety timeout: %v", err)
	}
	b, _ := os.ReadFile(old)
	left, _ := filepath.Glob(filepath.Join(o.Dir, ".update-*"))
	if len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
	return sum, err, string(b)
}

// wantRefused checks err wraps target, names the previous overlay kept,
// and that the overlay is byte for byte what it was.
func wantRefused(t *testing.T, err error, target error, fragment, got string) {
	t.Helper()
	if !errors.Is(err, target) || !strings.Contains(err.Error(), fragment) || !strings.Contains(err.Error(), "previous overlay kept") {
		t.Errorf("error = %v\nwant %v with %q and 'previous overlay kept'", err, target, fragment)
	}
	if got != previous {
		t.Errorf("previous overlay replaced:\n%.300s", got)
	}
}

// dripServer answers 200 and then writes every tick bytes per tick until
// the client goes away.
func dripServer(t *testing.T, bytes int, tick time.Duration) *httptest.Server {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		chunk := []byte(strings.Repeat("x", bytes))
		for {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(tick):
				if _, err := w.Write(chunk); err != nil {
					return
				}
				w.(http.Flusher).Flush()
			}
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func TestHostileSlowDrip(t *testing.T) {
	s := dripServer(t, 1, 20*time.Millisecond) // 50 bytes/s, under 2000
	_, err, got := hostileRun(t, Options{Sources: []string{s.URL}, Providers: []string{"lambda"}})
	wantRefused(t, err, ErrStalled, "does not answer or drips", got)
}

func TestHostileNoAnswer(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // accepts, never answers
	}))
	t.Cleanup(s.Close)
	for _, p := range []string{"lambda", "azure", "oci"} {
		t.Run(p, func(t *testing.T) {
			_, err, got := hostileRun(t, Options{Sources: []string{s.URL}, AzureSources: []string{s.URL + "/prices"},
				OCISources: ociAt(s.URL), Providers: []string{p}})
			wantRefused(t, err, ErrStalled, "does not answer or drips", got)
		})
	}
}

// A server fast enough for the rate but never done hits the provider's
// deadline.
func TestHostileEndlessBody(t *testing.T) {
	s := dripServer(t, 200, 10*time.Millisecond) // 20 KB/s: passes the rate, never ends
	l := fastLimits
	l.Provider = 500 * time.Millisecond
	_, err, got := hostileRun(t, Options{Sources: []string{s.URL}, Providers: []string{"lambda"}, Limits: l})
	wantRefused(t, err, ErrDeadline, "ran past its 500ms", got)
}

// A source cut by the provider's deadline answered, too slowly: the next
// provider it is not asked for says so, not "did not answer" (re-attack 5,
// finding 11).
func TestHostileSlowSourceSaysSo(t *testing.T) {
	s := dripServer(t, 200, 10*time.Millisecond)
	l := fastLimits
	l.Provider = 500 * time.Millisecond
	sum, _, _ := hostileRun(t, Options{Sources: []string{s.URL}, Providers: []string{"lambda", "nebius"}, Limits: l})
	if len(sum.Providers) != 2 || !errors.Is(sum.Providers[1].Err, ErrSkipped) ||
		!strings.Contains(sum.Providers[1].Err.Error(), s.URL+": not asked: it did not finish in 500ms for lambda") {
		t.Errorf("second provider: %+v, want skipped: it did not finish in 500ms", sum.Providers)
	}
}

// A NextPageLink back at a page already read is a loop: refused when it
// repeats, after two fetches, not after the page cap.
func TestHostileSelfPageLink(t *testing.T) {
	page1, _ := os.ReadFile("testdata/azure/page1.json")
	items := strings.SplitN(strings.SplitN(string(page1), `"Items": [`, 2)[1], `"NextPageLink"`, 2)[0]
	var n atomic.Int64
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		fmt.Fprintf(w, `{"Items": [%s "NextPageLink": "http://%s/prices?page=2"}`, items, r.Host)
	}))
	t.Cleanup(s.Close)
	_, err, got := hostileRun(t, Options{AzureSources: []string{s.URL + "/prices"}, Providers: []string{"azure"}, MaxPages: 50})
	wantRefused(t, err, err, "points back at page 2: the pages loop", got)
	if n.Load() != 2 {
		t.Errorf("%d pages fetched, want 2", n.Load())
	}
}

// Pages that never end: a NextPageLink to the next page, forever, each
// page full. The page cap or the provider's deadline ends it.
func TestHostileEndlessPages(t *testing.T) {
	page1, _ := os.ReadFile("testdata/azure/page1.json")
	items := strings.SplitN(strings.SplitN(string(page1), `"Items": [`, 2)[1], `"NextPageLink"`, 2)[0]
	var n atomic.Int64
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := n.Add(1)
		fmt.Fprintf(w, `{"Items": [%s "NextPageLink": "http://%s/prices?$skip=%d"}`, items, r.Host, i*100)
	}))
	t.Cleanup(s.Close)
	_, err, got := hostileRun(t, Options{AzureSources: []string{s.URL + "/prices"}, Providers: []string{"azure"}, MaxPages: 50})
	wantRefused(t, err, err, "more than 50 pages", got)
	if n.Load() != 50 {
		t.Errorf("%d pages fetched, want 50 (the cap)", n.Load())
	}
	_, err, got = hostileRun(t, Options{AzureSources: []string{s.URL + "/prices"}, Providers: []string{"azure"},
		Limits: Limits{Connect: time.Second, Provider: 300 * time.Millisecond, Window: 150 * time.Millisecond, MinRate: 2000}})
	if !errors.Is(err, ErrDeadline) && !strings.Contains(fmt.Sprint(err), "more than 1000 pages") {
		t.Errorf("error = %v, want the deadline or the page cap", err)
	}
	if got != previous {
		t.Errorf("previous overlay replaced")
	}
}

// Redirects stay on the host asked unless the user allows another; the
// source recorded is where the file finally came from.
func TestHostileRedirect(t *testing.T) {
	good := server(t, nil)
	var offHits atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		offHits.Add(1)
		http.Redirect(w, r, good.URL+"/good"+r.URL.Path, http.StatusFound)
	}))
	t.Cleanup(other.Close)
	redirector := server(t, map[string]http.HandlerFunc{
		"/off/": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+strings.TrimPrefix(r.URL.Path, "/off"), http.StatusFound)
		},
		"/file/": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Location", "file:///etc/passwd")
			w.WriteHeader(http.StatusFound)
		},
		"/same/": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/good"+strings.TrimPrefix(r.URL.Path, "/same"), http.StatusMovedPermanently)
		},
	})
	t.Run("off-host refused", func(t *testing.T) {
		_, err, got := hostileRun(t, Options{Sources: []string{redirector.URL + "/off"}, Providers: []string{"lambda"}})
		wantRefused(t, err, ErrRedirect, "redirects to another host", got)
		if offHits.Load() != 0 {
			t.Errorf("the other host was asked %d times", offHits.Load())
		}
	})
	t.Run("second hop blames the host that redirected", func(t *testing.T) {
		// redirector → other (allowed) → good (not): other redirected, not
		// the host first asked (attack round 13).
		oh := strings.TrimPrefix(other.URL, "http://")
		_, err, got := hostileRun(t, Options{Sources: []string{redirector.URL + "/off"}, Providers: []string{"lambda"}, AllowRedirects: []string{oh}})
		wantRefused(t, err, ErrRedirect, oh+" redirects to another host", got)
	})
	t.Run("file: refused without an empty --allow-redirect", func(t *testing.T) {
		_, err, got := hostileRun(t, Options{Sources: []string{redirector.URL + "/file"}, Providers: []string{"lambda"}})
		wantRefused(t, err, ErrRedirect, `redirects to "file:///etc/passwd", not an http(s) URL with a host`, got)
		if err != nil && strings.Contains(err.Error(), "--allow-redirect") {
			t.Errorf("suggests --allow-redirect for a file: URL: %v", err)
		}
	})
	t.Run("same host followed, final URL recorded", func(t *testing.T) {
		sum, err, got := hostileRun(t, Options{Sources: []string{redirector.URL + "/same"}, Providers: []string{"lambda"}})
		if err != nil {
			t.Fatal(err)
		}
		want := redirector.URL + "/good/v8/lambda/vms.csv"
		if sum.Providers[0].URL != want || !strings.Contains(got, "source = \""+want+" fetched") {
			t.Errorf("source %q, want the final URL %q in the summary and the overlay", sum.Providers[0].URL, want)
		}
	})
	t.Run("allowed host followed", func(t *testing.T) {
		u, _ := url.Parse(other.URL)
		g, _ := url.Parse(good.URL)
		sum, err, _ := hostileRun(t, Options{Sources: []string{redirector.URL + "/off"}, Providers: []string{"lambda"}, AllowRedirects: []string{u.Host, g.Host}})
		if err != nil {
			t.Fatal(err)
		}
		if want := good.URL + "/good/v8/lambda/vms.csv"; sum.Providers[0].URL != want {
			t.Errorf("source %q, want %q", sum.Providers[0].URL, want)
		}
	})
	t.Run("azure and oci too", func(t *testing.T) {
		for _, p := range []string{"azure", "oci"} {
			_, err, got := hostileRun(t, Options{AzureSources: []string{redirector.URL + "/off/prices"}, OCISources: ociAt(redirector.URL + "/off"), Providers: []string{p}})
			wantRefused(t, err, ErrRedirect, "redirects to another host", got)
		}
	})
}

// lambdaWith is the lambda fixture with extra rows.
func lambdaWith(t *testing.T, extra ...string) string {
	b, err := os.ReadFile("testdata/v8/lambda/vms.csv")
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + strings.Join(extra, "")
}

const h100Info = `"{'Gpus': [{'Name': 'H100', 'Manufacturer': 'NVIDIA', 'Count': 8.0, 'MemoryInfo': {'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 81920}"`

// A mirror listing thousands of extra types is refused before they are
// built: more new types than maxNewTypes (lambda has 22, so 100).
func TestHostileOversizedOverlay(t *testing.T) {
	var rows []string
	for i := range 3000 {
		rows = append(rows, fmt.Sprintf("gpu_8x_h100_x%04d,H100,8.0,208.0,1800.0,23.92,us-east-1,%s,\n", i, h100Info))
	}
	body := lambdaWith(t, rows...)
	s := server(t, map[string]http.HandlerFunc{"/big/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }})
	_, err, got := hostileRun(t, Options{Sources: []string{s.URL + "/big"}, Providers: []string{"lambda"}})
	wantRefused(t, err, ErrTooManyTypes, "more than 100 instance types the catalog does not have for lambda: an update may add at most 100 (twice the 22 it has, or 100)", got)
	// 100 new types pass that bound: written.
	body = lambdaWith(t, rows[:100]...)
	s = server(t, map[string]http.HandlerFunc{"/ok/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }})
	if _, err, _ := hostileRun(t, Options{Sources: []string{s.URL + "/ok"}, Providers: []string{"lambda"}}); err != nil {
		t.Errorf("100 new types: %v", err)
	}
}

// Attack round 13: 249,000 new types in 62 MB, under the 64 MiB and
// 250,000-row limits, were built (1.16 GB, 18–31 s) and rendered into a
// 137 MB overlay before the 256 KiB cap refused it. Here 30,000 of them
// (7.6 MB): refused before any is built, allocating under three times
// the answer, its own read included (the read buffer grows by doubling:
// 15 MB in all; building the types first took 96 MB).
func TestHostileManyNewTypes(t *testing.T) {
	var b strings.Builder
	b.WriteString(lambdaWith(t))
	for i := range 30000 {
		fmt.Fprintf(&b, "gpu_1x_a10_%d_%s,A10,1,30,200,1.%02d,us-east-1,,\n", i, strings.Repeat("x", 200), 29+i%50)
	}
	body := []byte(b.String())
	s := server(t, map[string]http.HandlerFunc{"/amp/": func(w http.ResponseWriter, r *http.Request) { w.Write(body) }})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err, got := hostileRun(t, Options{Sources: []string{s.URL + "/amp"}, Providers: []string{"lambda"}})
	runtime.ReadMemStats(&after)
	wantRefused(t, err, ErrTooManyTypes, "more than 100 instance types the catalog does not have for lambda", got)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 3*uint64(len(body)) {
		t.Errorf("allocated %d MB refusing a %d MB answer, want under three times it", alloc>>20, len(body)>>20)
	}
}

// Few types in very many regions: refused before parsing when their type
// and region pairs alone would pass the overlay cap.
func TestHostileManyRegions(t *testing.T) {
	var rows []string
	for i := range 20000 { // 20,000 × (35 + 14) bytes ≈ 957 KiB
		rows = append(rows, fmt.Sprintf("gpu_1x_a10,A10,1.0,30.0,200.0,1.29,us-east-%05d,,\n", i))
	}
	body := lambdaWith(t, rows...)
	s := server(t, map[string]http.HandlerFunc{"/reg/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }})
	_, err, got := hostileRun(t, Options{Sources: []string{s.URL + "/reg"}, Providers: []string{"lambda"}})
	wantRefused(t, err, ErrOverlayTooLarge, "type and region prices would take more than the 256 KiB a catalog overlay may have", got)
}

// writeOverlay stops once past the cap instead of rendering everything.
func TestWriteOverlayStopsAtCap(t *testing.T) {
	insts := make([]model.Instance, 100000)
	for i := range insts {
		insts[i] = model.Instance{Provider: "lambda", Type: fmt.Sprintf("t%06d", i), GPU: "a10", GPUCount: 1, VCPUs: 1, MemoryGiB: 1,
			Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 1}}}
	}
	var b bytes.Buffer
	err := writeOverlay(&b, "lambda", "https://mirror.test/v8/lambda/vms.csv", "Data: test.", fixedNow(), insts, nil, nil)
	if !errors.Is(err, ErrOverlayTooLarge) {
		t.Fatalf("error = %v, want ErrOverlayTooLarge", err)
	}
	if max := safeio.Overlay.MaxBytes; int64(b.Len()) > max+1024 {
		t.Errorf("rendered %d bytes, want it stopped within an instance of %d", b.Len(), max)
	}
}

// A fake cheap price — a new 8×H100 type at $0.05/h, and a known type cut
// to a cent in one region — is held back: not written, so never ranked,
// and said in the summary.
func TestHostileFakeCheapPrices(t *testing.T) {
	body := strings.Replace(lambdaWith(t, "gpu_8x_h100_cheap,H100,8.0,208.0,1800.0,0.05,us-east-1,"+h100Info+",\n"),
		"gpu_1x_h100_sxm5,H100,1.0,26.0,225.0,4.29,", "gpu_1x_h100_sxm5,H100,1.0,26.0,225.0,0.01,", 1)
	s := server(t, map[string]http.HandlerFunc{"/fake/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }})
	dir := t.TempDir()
	sum, err, got := hostileRun(t, Options{Dir: dir, Sources: []string{s.URL + "/fake"}, Providers: []string{"lambda"}})
	if err != nil {
		t.Fatal(err)
	}
	ps := sum.Providers[0]
	if len(ps.Held) != 2 || ps.Held[0].Type != "gpu_8x_h100_cheap" && ps.Held[1].Type != "gpu_8x_h100_cheap" {
		t.Fatalf("held %v, want gpu_8x_h100_cheap and gpu_1x_h100_sxm5 us-east-1", ps.Held)
	}
	if strings.Contains(got, "gpu_8x_h100_cheap") || strings.Contains(got, "0.01") || strings.Contains(got, "0.05") {
		t.Errorf("a held price was written:\n%s", got)
	}
	for _, w := range []string{
		"guards: 2 of 23 region prices held back (not written, so never ranked):\n",
		"    lambda/gpu_1x_h100_sxm5 us-east-1: on-demand $0.0100 per GPU-hour is below half the lowest on-demand price the catalog lists for h100-sxm ($1.29 per GPU-hour, any provider): a fake or mistyped price?\n",
		"    lambda/gpu_8x_h100_cheap us-east-1: on-demand $0.0063 per GPU-hour is below half the lowest on-demand price the catalog lists for h100-sxm ($1.29 per GPU-hour, any provider): a fake or mistyped price?\n",
	} {
		if !strings.Contains(sum.Text(), w) {
			t.Errorf("summary lacks %q:\n%s", w, sum.Text())
		}
	}
	// What every later command loads: no cheap type, and the known type
	// keeps its embedded price in that region.
	c := loadOverlay(t, filepath.Join(dir, "skypilot-lambda.toml"))
	if findInst(c, "lambda", "gpu_8x_h100_cheap") != nil {
		t.Error("the fake type reached the catalog")
	}
	base, _ := data.Load()
	want, _ := regionPrice(findInst(base, "lambda", "gpu_1x_h100_sxm5"), "us-east-1")
	if p, _ := regionPrice(findInst(c, "lambda", "gpu_1x_h100_sxm5"), "us-east-1"); p.OnDemandUSD != want.OnDemandUSD {
		t.Errorf("gpu_1x_h100_sxm5 us-east-1 at %v, want the catalog's %v kept", p.OnDemandUSD, want.OnDemandUSD)
	}
}

// A price list cutting a type the catalog already prices by 69%
// (gpu_8x_h100_sxm5 $31.92 → $10, $1.25 per GPU-hour: above the
// below-floor guard's half of $1.29, the lowest on-demand H100 price) is
// held back by the same-type rule "price-cut", --force or not, and the
// catalog's price is kept (attack test M1 cut it to $3.30, which the
// below-floor guard now holds first: TestHostileFakeH100AnyProvider).
func TestHostileDeepPriceCut(t *testing.T) {
	body := strings.Replace(lambdaWith(t), "gpu_8x_h100_sxm5,H100,8.0,208.0,1800.0,27.92,", "gpu_8x_h100_sxm5,H100,8.0,208.0,1800.0,10.00,", 1)
	if !strings.Contains(body, ",10.00,") {
		t.Fatal("fixture: gpu_8x_h100_sxm5 row not found")
	}
	s := server(t, map[string]http.HandlerFunc{"/cut/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }})
	for _, force := range []bool{false, true} {
		dir := t.TempDir()
		sum, err, got := hostileRun(t, Options{Dir: dir, Sources: []string{s.URL + "/cut"}, Providers: []string{"lambda"}, Force: force})
		if err != nil {
			t.Fatal(err)
		}
		ps := sum.Providers[0]
		if len(ps.Held) != 1 || ps.Held[0].Type != "gpu_8x_h100_sxm5" || ps.Held[0].Rule != "price-cut" {
			t.Fatalf("force %v: held %v, want gpu_8x_h100_sxm5 us-east-1 by price-cut", force, ps.Held)
		}
		// 10 / 8 = 1.25 per GPU-hour against 31.92 / 8 = 3.99: 68.67% less.
		want := "    lambda/gpu_8x_h100_sxm5 us-east-1: on-demand $1.25 per GPU-hour is under half the catalog's $3.99 per GPU-hour for this type and region (69% less): a fake or mistyped price? If the provider did cut it, write the price in an overlay by hand and pass --trust-overlay\n"
		if !strings.Contains(sum.Text(), "guards: 1 of 22 region prices held back (not written, so never ranked):\n") || !strings.Contains(sum.Text(), want) {
			t.Errorf("force %v: summary lacks the held cut %q:\n%s", force, want, sum.Text())
		}
		if strings.Contains(got, "= 10.0") || strings.Contains(got, "= 10,") {
			t.Errorf("force %v: the cut price was written:\n%s", force, got)
		}
		c := loadOverlay(t, filepath.Join(dir, "skypilot-lambda.toml"))
		if p, _ := regionPrice(findInst(c, "lambda", "gpu_8x_h100_sxm5"), "us-east-1"); p.OnDemandUSD != 31.92 {
			t.Errorf("force %v: gpu_8x_h100_sxm5 us-east-1 at %v, want the catalog's 31.92 kept", force, p.OnDemandUSD)
		}
	}
}

// Provider names are checked against the known set before anything is
// asked or written: an unknown name, a path, a name given twice.
func TestHostileProviderNames(t *testing.T) {
	var hits atomic.Int64
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte(lambdaWith(t)))
	}))
	t.Cleanup(s.Close)
	top := t.TempDir()
	dir := filepath.Join(top, "a", "b", "catalog.d") // not created yet
	for _, tc := range []struct{ name, want string }{
		{"cudo", `unknown provider "cudo"`},
		{"x/../../evil", `unknown provider "x/../../evil"`},
		{"../../../../../../tmp/evil", `unknown provider "../../../../../../tmp/evil"`},
		{"lambda\x1b]0;pwned\x07", `unknown provider "lambda\x1b]0;pwned\a"`},
		{"", `unknown provider ""`},
	} {
		_, err := Run(context.Background(), Options{Dir: dir, Sources: []string{s.URL}, Providers: []string{"lambda", tc.name}, Now: fixedNow})
		if !errors.Is(err, ErrUnknownProvider) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error = %v, want %s", tc.name, err, tc.want)
		}
	}
	if _, err := Run(context.Background(), Options{Dir: dir, Sources: []string{s.URL}, Providers: []string{"lambda", "lambda"}}); err == nil {
		t.Error("a provider given twice was accepted")
	}
	if hits.Load() != 0 {
		t.Errorf("the server was asked %d times", hits.Load())
	}
	var made []string
	filepath.WalkDir(top, func(p string, _ os.DirEntry, _ error) error {
		if p != top {
			made = append(made, p)
		}
		return nil
	})
	if len(made) > 0 {
		t.Errorf("created %v", made)
	}
}

// --source is a SkyPilot mirror: azure and oci, which it cannot serve,
// are refused when asked for, and left out (with a note) by default,
// never fetched from their public endpoints.
func TestHostileSourceCoversEveryFetcher(t *testing.T) {
	var hits atomic.Int64
	s := server(t, nil)
	counting := &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		hits.Add(1)
		if r.URL.Host != strings.TrimPrefix(s.URL, "http://") {
			return nil, fmt.Errorf("asked %s", r.URL.Host)
		}
		return http.DefaultTransport.RoundTrip(r)
	})}
	for _, p := range []string{"azure", "oci"} {
		_, err := Run(context.Background(), Options{Client: counting, Dir: t.TempDir(), Sources: []string{s.URL + "/good"}, Providers: []string{p}})
		if !errors.Is(err, ErrNoMirror) {
			t.Errorf("%s with a mirror: error = %v, want ErrNoMirror", p, err)
		}
	}
	if hits.Load() != 0 {
		t.Errorf("%d requests for providers the mirror cannot serve", hits.Load())
	}
	sum, err := Run(context.Background(), Options{Client: counting, Dir: t.TempDir(), Sources: []string{s.URL + "/good"}, Force: true, Now: fixedNow})
	var asked []string
	for _, p := range sum.Providers {
		asked = append(asked, p.Provider)
	}
	if strings.Join(asked, ",") != "aws,gcp,lambda,nebius,hyperstack,jarvislabs,seeweb,verda,daytona,shadeform,primeintellect" || !strings.HasPrefix(sum.Text(), "note: azure and oci not fetched: a --source mirror serves SkyPilot's files") {
		t.Errorf("default providers with a mirror: %v (error %v), summary:\n%s", asked, err, sum.Text())
	}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// An overlay the reader refuses is not installed: the previous one stays.
func TestInstallReadsBack(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "skypilot-lambda.toml"), []byte(previous), 0o644)
	err := install(dir, "skypilot-lambda.toml", []byte("schema_version = 1\n[[instance]]\ntype = \"x\"\ngpu = \"no-such-gpu\"\n"))
	b, _ := os.ReadFile(filepath.Join(dir, "skypilot-lambda.toml"))
	if err == nil || !strings.Contains(err.Error(), "does not read back, so it was not installed") || string(b) != previous {
		t.Errorf("install of a bad overlay: %v; file now %q", err, b)
	}
	// A symbolic link in the overlay's place is replaced, never followed.
	outside := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(outside, []byte("victim\n"), 0o644)
	os.Remove(filepath.Join(dir, "skypilot-lambda.toml"))
	os.Symlink(outside, filepath.Join(dir, "skypilot-lambda.toml"))
	good := "schema_version = 1\nprovider = \"lambda\"\n[[instance]]\ntype = \"gpu_1x_a10\"\nsource = \"test\"\nas_of = 2026-12-01\nprices = [{ region = \"us-east-1\", on_demand = 0.75 }]\n"
	if err := install(dir, "skypilot-lambda.toml", []byte(good)); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "victim\n" {
		t.Errorf("the link's target was written: %q", b)
	}
}

// A source whose every price the guards hold back, or that lists no type,
// writes nothing and keeps the previous overlay.
func TestHostileNothingLeft(t *testing.T) {
	head := "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n"
	cheap := head + "gpu_8x_h100_sxm5,H100,8.0,208.0,1800.0,0.05,us-east-1," + h100Info + ",\n"
	s := server(t, map[string]http.HandlerFunc{
		"/cheap/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(cheap)) },
		"/empty/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(head)) },
	})
	_, err, got := hostileRun(t, Options{Sources: []string{s.URL + "/cheap"}, Providers: []string{"lambda"}, Force: true})
	wantRefused(t, err, ErrAllHeld, "the guards held back all 1 region prices", got)
	_, err, got = hostileRun(t, Options{Sources: []string{s.URL + "/empty"}, Providers: []string{"lambda"}, Force: true})
	if err == nil || !strings.Contains(err.Error(), "no data rows after the header") || got != previous {
		t.Errorf("an empty file: %v; overlay %q", err, got)
	}
}

// A password in a --source URL (https://user:secret@host/...) is never
// shown nor written: not in an error naming the URL, a redirect's
// refusal, the summary or the overlay's source (issue 29 L2).
func TestHostileUserinfoRedacted(t *testing.T) {
	s := server(t, map[string]http.HandlerFunc{
		"/off/": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "https://user:secret@elsewhere.example/x", http.StatusFound)
		},
	})
	withUser := func(path string) string {
		u, _ := url.Parse(s.URL + path)
		u.User = url.UserPassword("user", "secret")
		return u.String()
	}
	for _, path := range []string{"/missing", "/off"} {
		_, err, _ := hostileRun(t, Options{Sources: []string{withUser(path)}, Providers: []string{"lambda"}})
		if err == nil || strings.Contains(err.Error(), "secret") {
			t.Errorf("%s: error %v: want one, without the password", path, err)
		}
		if err != nil && path == "/missing" && (!strings.Contains(err.Error(), "//xxxxx@") || strings.Contains(err.Error(), "user")) {
			t.Errorf("%s: error %v: want the URL with its user information redacted (//xxxxx@)", path, err)
		}
	}
	// Attack test 4, N4: a token given as the user name alone was shown
	// (url.URL.Redacted hides passwords only), in the request's error too.
	for _, src := range []string{"http://S3CRETPW@127.0.0.1:1/x", s.URL[:7] + "S3CRETPW@" + s.URL[7:] + "/missing"} {
		_, err, _ := hostileRun(t, Options{Sources: []string{src}, Providers: []string{"lambda"}})
		if err == nil || strings.Contains(err.Error(), "S3CRETPW") || !strings.Contains(err.Error(), "//xxxxx@") {
			t.Errorf("%s: error %v: want one with //xxxxx@ and without the token", src, err)
		}
	}
	dir := t.TempDir()
	sum, err, _ := hostileRun(t, Options{Dir: dir, Sources: []string{withUser("/good")}, Providers: []string{"lambda"}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "skypilot-lambda.toml"))
	if strings.Contains(sum.Text(), "secret") || strings.Contains(string(b), "secret") {
		t.Errorf("the password was shown or written:\n%s\n%s", sum.Text(), b)
	}
}

// The price-cut guard compares a fetch with the embedded catalog and with
// the overlay it replaces, so a cut made in steps is caught (issue 29 item
// 7): successive halvings of a known type (each under half of the embedded
// price after the first), a known type raised and then cut by more than
// half, and a type the embedded catalog lacks, added at $30 and then cut
// to $8 (73% less, $1.00 per GPU-hour: above the below-floor guard's
// $0.645).
func TestHostileCumulativeCut(t *testing.T) {
	const row = "gpu_8x_h100_sxm5,H100,8.0,208.0,1800.0,27.92,"
	newRow := func(price string) string {
		return "gpu_8x_h100_new,H100,8.0,208.0,1800.0," + price + ",us-east-1," + h100Info + ",\n"
	}
	var body atomic.Value
	s := server(t, map[string]http.HandlerFunc{"/steps/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body.Load().(string))) }})
	run := func(dir string, price, added string) ProviderSummary {
		t.Helper()
		b := strings.Replace(lambdaWith(t, newRow(added)), row, "gpu_8x_h100_sxm5,H100,8.0,208.0,1800.0,"+price+",", 1)
		body.Store(b)
		sum, err := Run(context.Background(), Options{Dir: dir, Sources: []string{s.URL + "/steps"}, Providers: []string{"lambda"}, Limits: fastLimits, Now: fixedNow})
		if err != nil {
			t.Fatal(err)
		}
		return sum.Providers[0]
	}
	held := func(ps ProviderSummary, typ string) bool {
		for _, g := range ps.Held {
			if g.Type == typ && g.Rule == "price-cut" {
				return true
			}
		}
		return false
	}
	t.Run("halved twice", func(t *testing.T) {
		dir := t.TempDir()
		if ps := run(dir, "17.00", "30.00"); held(ps, "gpu_8x_h100_sxm5") { // 47% under 31.92: passes
			t.Fatalf("first step held: %v", ps.Held)
		}
		if ps := run(dir, "9.00", "30.00"); !held(ps, "gpu_8x_h100_sxm5") {
			t.Errorf("second step (72%% under the embedded $31.92) not held: %v", ps.Held)
		}
	})
	t.Run("raised, then cut", func(t *testing.T) {
		dir := t.TempDir()
		run(dir, "60.00", "30.00")
		if ps := run(dir, "25.00", "30.00"); !held(ps, "gpu_8x_h100_sxm5") { // 58% under the previous $60
			t.Errorf("a cut of 58%% from the previous overlay not held: %v", ps.Held)
		}
	})
	t.Run("added, then cut", func(t *testing.T) {
		dir := t.TempDir()
		if ps := run(dir, "27.92", "30.00"); held(ps, "gpu_8x_h100_new") || len(ps.Held) > 0 {
			t.Fatalf("first step held: %v", ps.Held)
		}
		ps := run(dir, "27.92", "8.00")
		if !held(ps, "gpu_8x_h100_new") {
			t.Fatalf("a 73%% cut of a type the previous overlay added not held: %v", ps.Held)
		}
		// Held, so not written: a new type left with no price is not added.
		got, _ := os.ReadFile(filepath.Join(dir, "skypilot-lambda.toml"))
		if strings.Contains(string(got), "gpu_8x_h100_new") {
			t.Errorf("the cut price of gpu_8x_h100_new was written:\n%.3000s", got)
		}
	})
}

// A price list adding a new type at under a third of what the provider
// asks for the same GPU (8×H100 at $10/h next to Lambda's $31.92; attack
// test 3 H1 used $3.30, which the below-floor guard now holds first) is
// held back by "below-peer": the price-cut guard compares a type only
// with itself, and the below-floor guard's half of the cheapest on-demand
// H100 anywhere ($0.645) is lower still.
func TestHostileNewTypeBelowPeers(t *testing.T) {
	body := lambdaWith(t, "gpu_8x_h100_sxm5b,H100,8.0,208.0,1800.0,10.00,us-east-1,"+h100Info+",\n")
	s := server(t, map[string]http.HandlerFunc{"/peer/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }})
	dir := t.TempDir()
	sum, err, got := hostileRun(t, Options{Dir: dir, Sources: []string{s.URL + "/peer"}, Providers: []string{"lambda"}})
	if err != nil {
		t.Fatal(err)
	}
	ps := sum.Providers[0]
	if len(ps.Held) != 1 || ps.Held[0].Type != "gpu_8x_h100_sxm5b" || ps.Held[0].Rule != "below-peer" {
		t.Fatalf("held %v, want gpu_8x_h100_sxm5b us-east-1 by below-peer", ps.Held)
	}
	// 10 / 8 = $1.25 against the embedded gpu_8x_h100_sxm5's 31.92 / 8
	// = $3.99, Lambda's cheapest H100 SXM per GPU-hour: 0.313 < 0.4.
	for _, w := range []string{
		"guards: 1 of 23 region prices held back (not written, so never ranked):\n",
		"    lambda/gpu_8x_h100_sxm5b us-east-1: on-demand $1.25 per GPU-hour is under 40% of the $3.99 per GPU-hour lambda asks for the same h100-sxm in gpu_8x_h100_sxm5: a fake or mistyped price?\n",
	} {
		if !strings.Contains(sum.Text(), w) {
			t.Errorf("summary lacks %q:\n%s", w, sum.Text())
		}
	}
	if strings.Contains(got, "gpu_8x_h100_sxm5b") {
		t.Errorf("the held type was written:\n%s", got)
	}
	if findInst(loadOverlay(t, filepath.Join(dir, "skypilot-lambda.toml")), "lambda", "gpu_8x_h100_sxm5b") != nil {
		t.Error("the fake type reached the catalog")
	}
}

// A type name with a Cyrillic х among Latin letters (gpu_8х_h100_sxm5,
// which reads as Lambda's own type) refuses the file, as any name the
// catalog could not hold does (attack test 3 H1).
func TestHostileMixedScriptType(t *testing.T) {
	body := lambdaWith(t, "gpu_8\u0445_h100_sxm5,H100,8.0,208.0,1800.0,3.30,us-east-1,"+h100Info+",\n")
	s := server(t, map[string]http.HandlerFunc{"/cyr/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }})
	_, err, got := hostileRun(t, Options{Sources: []string{s.URL + "/cyr"}, Providers: []string{"lambda"}})
	if err == nil || !strings.Contains(err.Error(), "InstanceType: mixes Latin and Cyrillic letters (U+0445 at byte 5)") || !strings.Contains(err.Error(), "previous overlay kept") {
		t.Errorf("error = %v, want the mixed-script type refused", err)
	}
	if got != previous {
		t.Errorf("previous overlay replaced:\n%.300s", got)
	}
}

// Rows priced 0 or 1e-300 (under the catalog's precision) were dropped
// without a word while every other row left out got a note (attack test 3,
// L6): the summary counts them.
func TestHostileZeroPricesNoted(t *testing.T) {
	a10 := `gpu_1x_a10,A10,1.0,30.0,200.0,%s,us-west-1,"{'Gpus': [{'Name': 'A10', 'Manufacturer': 'NVIDIA', 'Count': 1.0, 'MemoryInfo': {'SizeInMiB': 24576}}], 'TotalGpuMemoryInMiB': 24576}",` + "\n"
	body := lambdaWith(t, fmt.Sprintf(a10, "0"), fmt.Sprintf(a10, "1e-300"))
	s := server(t, map[string]http.HandlerFunc{"/zero/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }})
	sum, err, _ := hostileRun(t, Options{Sources: []string{s.URL + "/zero"}, Providers: []string{"lambda"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "/zero/v8/lambda/vms.csv:24: rows priced 0 or under $0.000001 (the catalog's precision) skipped (2 rows)\n"
	if !strings.Contains(sum.Text(), "  note: ") || !strings.Contains(sum.Text(), want) {
		t.Errorf("summary lacks %q:\n%s", want, sum.Text())
	}
}

// A mirror that does not answer for one provider is not asked for the
// next: they are skipped with a line each, so a silent or dripping
// --source costs one stall window, not one per provider (attack test 3,
// L5: 13 providers × 30 s one after another).
func TestHostileSilentSourceGivenUp(t *testing.T) {
	var hits atomic.Int64
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		<-r.Context().Done() // accepts, never answers
	}))
	t.Cleanup(s.Close)
	sum, err, got := hostileRun(t, Options{Sources: []string{s.URL}, Providers: []string{"lambda", "nebius", "hyperstack"}})
	wantRefused(t, err, ErrStalled, "does not answer or drips", got)
	if n := hits.Load(); n != 1 {
		t.Errorf("%d requests, want 1: the silent source asked again", n)
	}
	for _, ps := range sum.Providers[1:] {
		if !errors.Is(ps.Err, ErrSkipped) || !strings.Contains(ps.Err.Error(), s.URL+": not asked: it did not answer for lambda") {
			t.Errorf("%s: %v, want skipped: not asked", ps.Provider, ps.Err)
		}
	}
	if !strings.Contains(err.Error(), "nebius: skipped: "+s.URL+": not asked: it did not answer for lambda (no previous overlay)") {
		t.Errorf("error lacks nebius's line:\n%v", err)
	}
	// The summary says skipped as the error does (re-attack 5, finding 11).
	if text := sum.Text(); !strings.Contains(text, "nebius: skipped, no previous overlay") || strings.Contains(text, "nebius: failed") {
		t.Errorf("summary does not say nebius was skipped:\n%s", text)
	}
	// A source that answers (even with an error status) is asked again.
	hits.Store(0)
	e := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Error(w, "no", http.StatusInternalServerError)
	}))
	t.Cleanup(e.Close)
	_, err, _ = hostileRun(t, Options{Sources: []string{e.URL}, Providers: []string{"lambda", "nebius"}})
	if hits.Load() != 2 || errors.Is(err, ErrSkipped) {
		t.Errorf("%d requests, error %v; want both providers asked", hits.Load(), err)
	}
}

// The update as a whole is bounded (Limits.Total): providers not reached
// by then are skipped, each with a line, and nothing is asked.
func TestHostileTotalDeadline(t *testing.T) {
	var hits atomic.Int64
	s := server(t, map[string]http.HandlerFunc{"/": func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }})
	l := fastLimits
	l.Total = time.Nanosecond
	sum, err, got := hostileRun(t, Options{Sources: []string{s.URL}, Providers: []string{"lambda", "nebius"}, Limits: l})
	wantRefused(t, err, ErrSkipped, "not fetched: took too long: the update ran past its 1ns in all", got)
	if hits.Load() != 0 || len(sum.Providers) != 2 || !errors.Is(sum.Providers[1].Err, ErrDeadline) {
		t.Errorf("%d requests, providers %+v", hits.Load(), sum.Providers)
	}
	if DefaultLimits.Total <= 0 || DefaultLimits.Total > 15*time.Minute {
		t.Errorf("DefaultLimits.Total = %v, want a stated bound", DefaultLimits.Total)
	}
}

// Names a mirror spells outside the catalog's character set, or that read
// as a type or region the provider has, refuse the file before anything is
// written (attack test 4, N1 and N6: "ɡpu_8x_h100_sxm5" with U+0261 at 41%
// of the real price ranked first; quotes, $( ) and backticks were written
// and warned about on every later command instead).
func TestHostileLookalikeNames(t *testing.T) {
	const h100Row = ",H100,8.0,208.0,1800.0,13.00,"
	for _, tc := range []struct{ name, row, want string }{
		{"latin small script g", "\u0261pu_8x_h100_sxm5" + h100Row + "us-east-1," + h100Info + ",\n",
			`instance type "ɡpu_8x_h100_sxm5": character 'ɡ' (U+0261) at byte 0 is not one the catalog's types use (ASCII letters, digits and + - . _ :)`},
		{"full-width digit", "gpu_\uff18x_h100_sxm5" + h100Row + "us-east-1," + h100Info + ",\n", `character '８' (U+FF18) at byte 4`},
		{"trailing combining accent", "gpu_8x_h100_sxm5\u0301" + h100Row + "us-east-1," + h100Info + ",\n", `(U+0301) at byte 16`},
		{"no-break space", "gpu_8x_h100\u00a0sxm5" + h100Row + "us-east-1," + h100Info + ",\n", `invisible character U+00A0 at byte 11`},
		{"ASCII lookalike", "gpu_8x_h1OO_sxm5" + h100Row + "us-east-1," + h100Info + ",\n",
			`instance type "gpu_8x_h1OO_sxm5" reads as "gpu_8x_h100_sxm5" but is another name`},
		{"shell in a type", `"gpu_1x_gh200'""$(touch x);#",GH200,1,64,432,2.29,us-east-1,,` + "\n", `character '\'' (U+0027) at byte 12`},
		{"backtick in a type", "gpu_1x_gh200`id`,GH200,1,64,432,2.29,us-east-1,,\n", "character '`' (U+0060)"},
		{"shell in a region", "gpu_1x_gh200,GH200,1,64,432,2.29,us-east-1$(touch${IFS}x),,\n", `gpu_1x_gh200: region "us-east-1$(touch${IFS}x)": character '$' (U+0024) at byte 9`},
		{"region lookalike", "gpu_1x_gh200,GH200,1,64,432,2.29,us-east-l,,\n", `gpu_1x_gh200: region "us-east-l" reads as "us-east-1"`},
		// Re-attack 3: a case-only or '-'-for-'_' copy of a real type, and a
		// region with a precomposed accent, read as the real names.
		{"case-only copy", "GPU_8X_H100_SXM5" + h100Row + "us-east-1," + h100Info + ",\n",
			`instance type "GPU_8X_H100_SXM5" reads as "gpu_8x_h100_sxm5" but is another name`},
		{"dashes for underscores", "gpu-8x-h100-sxm5" + h100Row + "us-east-1," + h100Info + ",\n",
			`instance type "gpu-8x-h100-sxm5" reads as "gpu_8x_h100_sxm5" but is another name`},
		{"region with a precomposed accent", "gpu_1x_gh200,GH200,1,64,432,2.29,us-\u00e9ast-1,,\n", `region "us-éast-1" reads as "us-east-1"`},
		{"upper-case region", "gpu_1x_gh200,GH200,1,64,432,2.29,US-EAST-1,,\n", `region "US-EAST-1" reads as "us-east-1"`},
		// Re-attack 5: stray punctuation at an end, or a doubled separator.
		{"trailing dot", "gpu_1x_gh200.,GH200,1,64,432,0.29,us-east-1,,\n", `instance type "gpu_1x_gh200." reads as "gpu_1x_gh200" but is another name`},
		{"trailing underscore", "gpu_1x_gh200_,GH200,1,64,432,0.29,us-east-1,,\n", `instance type "gpu_1x_gh200_" reads as "gpu_1x_gh200"`},
		{"trailing colon", "gpu_1x_gh200:,GH200,1,64,432,0.29,us-east-1,,\n", `instance type "gpu_1x_gh200:" reads as "gpu_1x_gh200"`},
		{"doubled underscore", "gpu__1x_gh200,GH200,1,64,432,0.29,us-east-1,,\n", `instance type "gpu__1x_gh200" reads as "gpu_1x_gh200"`},
		{"region with a trailing dot", "gpu_1x_gh200,GH200,1,64,432,2.29,us-east-1.,,\n", `region "us-east-1." reads as "us-east-1"`},
		{"region with a trailing comma", "gpu_1x_gh200,GH200,1,64,432,2.29,\"us-east-1,\",,\n", `region "us-east-1," reads as "us-east-1"`},
		// Attack r29: punctuation alone, or another script, is no region
		// name ("in ,:" as the best line, region: ',' exported).
		{"region a comma", "gpu_1x_gh200,GH200,1,64,432,2.29,\",\",,\n", `gpu_1x_gh200: region "," has no letter or digit`},
		{"region a dot", "gpu_1x_gh200,GH200,1,64,432,2.29,.,,\n", `gpu_1x_gh200: region "." has no letter or digit`},
		{"region two dots", "gpu_1x_gh200,GH200,1,64,432,2.29,..,,\n", `gpu_1x_gh200: region ".." has no letter or digit`},
		{"region right-to-left", "gpu_1x_gh200,GH200,1,64,432,2.29,\u05d0\u05d6\u05d5\u05e8-1,,\n", `character 'א' (U+05D0) at byte 0 is not one the catalog's regions use (Latin letters`},
		{"region Cyrillic", "gpu_1x_gh200,GH200,1,64,432,2.29,\u043c\u043e\u0441\u043a\u0432\u0430,,\n", `(U+043C) at byte 0`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := lambdaWith(t, tc.row)
			s := server(t, map[string]http.HandlerFunc{"/n/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }})
			_, err, got := hostileRun(t, Options{Sources: []string{s.URL + "/n"}, Providers: []string{"lambda"}})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "previous overlay kept") || strings.Contains(err.Error(), "\n") {
				t.Errorf("error = %v\nwant one line with %q and 'previous overlay kept'", err, tc.want)
			}
			if got != previous {
				t.Errorf("previous overlay replaced:\n%.300s", got)
			}
		})
	}
}

// A mirror inventing spot prices for a provider that sells none (Lambda:
// the embedded catalog has no lambda spot price) is held back with a
// line, the on-demand prices written (attack test 4, N2: a spot market
// made up at a third of on-demand ranked first under --pricing spot).
func TestHostileInventedSpotMarket(t *testing.T) {
	body := strings.Replace(lambdaWith(t), "gpu_8x_h100_sxm5,H100,8.0,208.0,1800.0,27.92,us-east-1,"+h100Info+",",
		"gpu_8x_h100_sxm5,H100,8.0,208.0,1800.0,27.92,us-east-1,"+h100Info+",9.50", 1)
	if !strings.Contains(body, ",9.50") {
		t.Fatal("fixture row not found")
	}
	s := server(t, map[string]http.HandlerFunc{"/spot/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }})
	dir := t.TempDir()
	sum, err, got := hostileRun(t, Options{Dir: dir, Sources: []string{s.URL + "/spot"}, Providers: []string{"lambda"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "  note: 1 spot prices held back (not written, so never ranked): the embedded catalog lists no lambda spot price, and a source cannot add a spot market\n"
	if !strings.Contains(sum.Text(), want) {
		t.Errorf("summary lacks %q:\n%s", want, sum.Text())
	}
	if strings.Contains(got, "9.5") {
		t.Errorf("the invented spot price was written:\n%s", got)
	}
	p, _ := regionPrice(findInst(loadOverlay(t, filepath.Join(dir, "skypilot-lambda.toml")), "lambda", "gpu_8x_h100_sxm5"), "us-east-1")
	if p.SpotUSD != 0 || p.OnDemandUSD != 27.92 {
		t.Errorf("gpu_8x_h100_sxm5 us-east-1 = %+v, want on-demand 27.92 and no spot", p)
	}
}

// A spot price written as 0 is read as none, and said (attack test 4: it
// vanished without a word, where an on-demand 0 got a note).
func TestHostileZeroSpotNoted(t *testing.T) {
	a10 := `gpu_1x_a10,A10,1.0,30.0,200.0,1.29,us-west-1,"{'Gpus': [{'Name': 'A10', 'Manufacturer': 'NVIDIA', 'Count': 1.0, 'MemoryInfo': {'SizeInMiB': 24576}}], 'TotalGpuMemoryInMiB': 24576}",0` + "\n"
	body := lambdaWith(t, a10)
	s := server(t, map[string]http.HandlerFunc{"/zsp/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }})
	sum, err, _ := hostileRun(t, Options{Sources: []string{s.URL + "/zsp"}, Providers: []string{"lambda"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "/zsp/v8/lambda/vms.csv:24: rows with a spot price of 0 (or under $0.000001) read as having no spot price\n"
	if !strings.Contains(sum.Text(), want) {
		t.Errorf("summary lacks %q:\n%s", want, sum.Text())
	}
}

// Vast's SpotPrice 0.00 is a host taking no bids: read as no spot price
// without a note (round 3: the note came with every update).
func TestHostileVastZeroSpotSilent(t *testing.T) {
	b, err := os.ReadFile("testdata/v8/vast/vms.csv")
	if err != nil {
		t.Fatal(err)
	}
	s := server(t, map[string]http.HandlerFunc{"/vz/": func(w http.ResponseWriter, r *http.Request) { w.Write(b) }})
	dir := t.TempDir()
	sum, err, _ := hostileRun(t, Options{Dir: dir, Sources: []string{s.URL + "/vz"}, Providers: []string{"vast"}, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(sum.Text(), "spot price of 0") {
		t.Errorf("summary notes Vast's 0.00 spot prices:\n%s", sum.Text())
	}
	c := loadOverlay(t, filepath.Join(dir, "skypilot-vast.toml"))
	p, ok := regionPrice(findInst(c, "vast", "1x-H100_NVL-32-65536"), "Texas, US, NA")
	if !ok || p.SpotUSD != 0 || p.OnDemandUSD != 2 {
		t.Errorf("1x-H100_NVL-32-65536 Texas = %+v (%v), want on-demand 2 and no spot", p, ok)
	}
}

// No two of a provider's names in the embedded catalog read as one
// (lookKey): else that provider's own honest price list would be refused
// by checkNames as a look-alike of itself.
func TestEmbeddedNamesReadApart(t *testing.T) {
	base, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[[3]string]string{}
	for i := range base.Instances {
		in := &base.Instances[i]
		names := []string{in.Type}
		for _, p := range in.Prices {
			names = append(names, p.Region)
		}
		for j, n := range names {
			kind := "region"
			if j == 0 {
				kind = "type"
			}
			k := [3]string{in.Provider, kind, data.LookKey(n)}
			if other, ok := seen[k]; ok && other != n {
				t.Errorf("%s %s %q reads as %q (look-alike key %q)", in.Provider, kind, n, other, k[2])
			}
			seen[k] = n
		}
	}
}

// The docs' own fake example — 8×H100 at $3.30/h, $0.4125 per GPU-hour —
// is held back whichever provider lists it (attack 7, S2): at yotta, which
// sells no H100 (so neither price-cut nor below-peer has a reference), it
// passed, because the floor was half the lowest H100 price anywhere spot
// included ($0.8015 spot, $0.40). On-demand prices are now judged by the
// lowest on-demand price ($1.29, so a floor of $0.645).
func TestHostileFakeH100AnyProvider(t *testing.T) {
	// yotta's eight RTX 5090 types as the catalog lists them, and the fake.
	const yotta = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n" +
		"1x14v119g_NVIDIA_GeForce_RTX_5090_32G_SECURE,RTX5090,1,14,119,0.65,us-east-2,,\n" +
		"1x30v115g_NVIDIA_GeForce_RTX_5090_32G_SECURE,RTX5090,1,30,115,0.65,us-central-2,,\n" +
		"2x28v238g_NVIDIA_GeForce_RTX_5090_32G_SECURE,RTX5090,2,28,238,1.3,us-east-2,,\n" +
		"2x60v230g_NVIDIA_GeForce_RTX_5090_32G_SECURE,RTX5090,2,60,230,1.3,us-central-2,,\n" +
		"4x120v460g_NVIDIA_GeForce_RTX_5090_32G_SECURE,RTX5090,4,120,460,2.6,us-central-2,,\n" +
		"4x56v476g_NVIDIA_GeForce_RTX_5090_32G_SECURE,RTX5090,4,56,476,2.6,us-east-2,,\n" +
		"8x112v952g_NVIDIA_GeForce_RTX_5090_32G_SECURE,RTX5090,8,112,952,5.2,us-east-2,,\n" +
		"8x240v920g_NVIDIA_GeForce_RTX_5090_32G_SECURE,RTX5090,8,240,920,5.2,us-central-2,,\n" +
		"8x208v1800g_NVIDIA_H100_80G_SXM5_SECURE,H100,8,208,1800,3.30,us-east-2,,\n"
	for _, tt := range []struct{ provider, body, typ, region, of string }{
		{"yotta", yotta, "8x208v1800g_NVIDIA_H100_80G_SXM5_SECURE", "us-east-2", "9"},
		{"lambda", lambdaWith(t, "gpu_8x_h100_sxm5b,H100,8.0,208.0,1800.0,3.30,us-east-1,"+h100Info+",\n"), "gpu_8x_h100_sxm5b", "us-east-1", "23"},
	} {
		t.Run(tt.provider, func(t *testing.T) {
			s := server(t, map[string]http.HandlerFunc{"/fake/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(tt.body)) }})
			dir := t.TempDir()
			sum, err, got := hostileRun(t, Options{Dir: dir, Sources: []string{s.URL + "/fake"}, Providers: []string{tt.provider}})
			if err != nil {
				t.Fatal(err)
			}
			ps := sum.Providers[0]
			if len(ps.Held) != 1 || ps.Held[0].Type != tt.typ || ps.Held[0].Rule != "below-floor" {
				t.Fatalf("held %v, want %s by below-floor", ps.Held, tt.typ)
			}
			for _, w := range []string{
				"guards: 1 of " + tt.of + " region prices held back (not written, so never ranked):\n",
				"    " + tt.provider + "/" + tt.typ + " " + tt.region + ": on-demand $0.4125 per GPU-hour is below half the lowest on-demand price the catalog lists for h100-sxm ($1.29 per GPU-hour, any provider): a fake or mistyped price?\n",
			} {
				if !strings.Contains(sum.Text(), w) {
					t.Errorf("summary lacks %q:\n%s", w, sum.Text())
				}
			}
			if strings.Contains(got, tt.typ) {
				t.Errorf("the held type was written:\n%s", got)
			}
		})
	}
}

// A GPU no catalog offer prices has a floor too (attack 7, S1): an 8×H200
// NVL at $0.40/h ($0.05 per GPU-hour) passed with "none held back" and
// ranked first. It is judged by its capability at the market's lowest
// price per unit: its 835.5 dense BF16 TFLOPS × $0.37 / 364.2 TFLOPS
// (vast's RTX 6000 Ada, the lowest on-demand price per TFLOPS) = $0.8488
// per GPU-hour, above what its 141 GiB or 4.8 TB/s fetch at the lowest
// price per GiB or per GB/s; the floor is half of it.
func TestHostileUnpricedGPU(t *testing.T) {
	body := lambdaWith(t, "gpu_8x_h200_nvl,H200-NVL,8,208,1800,0.40,us-east-1,,\n")
	s := server(t, map[string]http.HandlerFunc{"/nvl/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }})
	dir := t.TempDir()
	sum, err, got := hostileRun(t, Options{Dir: dir, Sources: []string{s.URL + "/nvl"}, Providers: []string{"lambda"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"guards: 1 of 23 region prices held back (not written, so never ranked):\n",
		"    lambda/gpu_8x_h200_nvl us-east-1: on-demand $0.0500 per GPU-hour is below half of $0.8488 per GPU-hour, what h200-nvl (a GPU no catalog offer prices) would cost for its 836 dense BF16 TFLOPS at the catalog's lowest $0.00102 per dense BF16 TFLOPS-hour (rtx-6000-ada on demand): a fake or mistyped price?\n",
	} {
		if !strings.Contains(sum.Text(), w) {
			t.Errorf("summary lacks %q:\n%s", w, sum.Text())
		}
	}
	if strings.Contains(got, "gpu_8x_h200_nvl") {
		t.Errorf("the held type was written:\n%s", got)
	}
}

// A known 8-GPU type listed as one GPU at $3.00/h in a new region ($3.00
// per GPU-hour as listed, above 40% of lambda's other H100 types; $0.375 on the type's real eight) is judged on the catalog's
// hardware — the overlay patches prices and keeps the catalog's eight
// GPUs — so it is held back, and the summary names the mismatch (attack
// rounds 8 and 9).
func TestHostileDeclaredGPUCount(t *testing.T) {
	// Its one row, moved to a region the catalog does not price it in, so
	// no same-type cut guard has a price to compare with.
	body := strings.Replace(lambdaWith(t), "gpu_8x_h100_sxm5,H100,8.0,208.0,1800.0,27.92,us-east-1,", "gpu_8x_h100_sxm5,H100,1.0,208.0,1800.0,3.00,us-midwest-9,", 1)
	if !strings.Contains(body, ",3.00,") {
		t.Fatal("fixture: gpu_8x_h100_sxm5 row not found")
	}
	s := server(t, map[string]http.HandlerFunc{"/count/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }})
	dir := t.TempDir()
	// Not a timing test: limits a loaded machine meets (fastLimits' 500 ms
	// window failed once with the tests of eight packages running).
	slack := Limits{Connect: 10 * time.Second, Provider: 20 * time.Second, Window: 10 * time.Second, MinRate: 1}
	sum, err, got := hostileRun(t, Options{Dir: dir, Sources: []string{s.URL + "/count"}, Providers: []string{"lambda"}, Force: true, Limits: slack})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got, "us-midwest-9") {
		t.Errorf("the $3.00 price was written:\n%s", got)
	}
	ps := sum.Providers[0]
	held := false
	for _, g := range ps.Held {
		held = held || g.Type == "gpu_8x_h100_sxm5"
	}
	if !held {
		t.Errorf("held %v, want gpu_8x_h100_sxm5", ps.Held)
	}
	if w := "/count/v8/lambda/vms.csv lists another GPU count than the catalog for gpu_8x_h100_sxm5 (1 GPU listed, 8 in the catalog) (1 in all); their prices are judged and written for the catalog's count\n"; !strings.Contains(sum.Text(), w) {
		t.Errorf("summary lacks %q:\n%s", w, sum.Text())
	}
}

// TestHostileProxyNeverAnswersConnect: a proxy that accepts the TCP
// connection and never answers CONNECT is given up after Limits.Connect,
// not the stall window (it was: net/http waits up to a minute for the
// CONNECT answer and the Dialer's timeout ends at the TCP connect).
func TestHostileProxyNeverAnswersConnect(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() }) // holds it open, says nothing
		}
	}()
	proxy, _ := url.Parse("http://" + ln.Addr().String())
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
	// a stall window far longer than Connect: only the connect limit can end it
	limits := Limits{Connect: 200 * time.Millisecond, Provider: 15 * time.Second, Window: 10 * time.Second, MinRate: 600}
	_, err, got := hostileRun(t, Options{Sources: []string{"https://mirror.example"}, Providers: []string{"lambda"}, Client: client, Limits: limits})
	wantRefused(t, err, ErrStalled, "within 200ms (connect, proxy CONNECT and TLS handshake)", got)
}

// A mirror serving every price ×50 (attack round 13: "+4900%" on 374
// prices, "none held back", and every lambda offer out of the rankings)
// has each price the catalog knows held back by the same-type rule
// "price-rise", as a cut under half is; the catalog's prices are kept.
func TestHostileInflatedPrices(t *testing.T) {
	rows, err := csv.NewReader(strings.NewReader(lambdaWith(t))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	w := csv.NewWriter(&b)
	for i, r := range rows {
		if i > 0 {
			p, err := strconv.ParseFloat(r[5], 64)
			if err != nil {
				t.Fatal(err)
			}
			r[5] = strconv.FormatFloat(p*50, 'f', 2, 64)
		}
		w.Write(r)
	}
	w.Flush()
	body := b.String()
	s := server(t, map[string]http.HandlerFunc{"/x50/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }})
	dir := t.TempDir()
	sum, err, got := hostileRun(t, Options{Dir: dir, Sources: []string{s.URL + "/x50"}, Providers: []string{"lambda"}, Force: true})
	// Every one of the fixture's 22 prices is one the catalog knows: all
	// held, nothing written, the previous overlay kept.
	wantRefused(t, err, ErrAllHeld, "the guards held back all 22 region prices", got)
	ps := sum.Providers[0]
	if len(ps.Held) != 22 {
		t.Fatalf("held %d region prices, want 22: %v", len(ps.Held), ps.Held)
	}
	for _, g := range ps.Held {
		if g.Rule != "price-rise" {
			t.Errorf("held %v by %s, want price-rise", g, g.Rule)
		}
	}
	// The error names the first held: gpu_1x_a10 us-east-1, 1.29 × 50.
	want := "lambda/gpu_1x_a10 us-east-1: on-demand $64.50 per GPU-hour is over twice the catalog's $1.29 per GPU-hour for this type and region (4900% more)"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error lacks %q:\n%v", want, err)
	}
}

// A rise to exactly twice the catalog's price is written; just over it is
// held back, --force or not, with the summary's wording.
func TestHostilePriceRise(t *testing.T) {
	for _, tt := range []struct {
		price string
		held  bool
	}{{"63.84", false}, {"64.00", true}} { // 2 × 31.92 = 63.84
		body := strings.Replace(lambdaWith(t), "gpu_8x_h100_sxm5,H100,8.0,208.0,1800.0,27.92,", "gpu_8x_h100_sxm5,H100,8.0,208.0,1800.0,"+tt.price+",", 1)
		s := server(t, map[string]http.HandlerFunc{"/rise/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }})
		for _, force := range []bool{false, true} {
			dir := t.TempDir()
			sum, err, _ := hostileRun(t, Options{Dir: dir, Sources: []string{s.URL + "/rise"}, Providers: []string{"lambda"}, Force: force})
			if err != nil {
				t.Fatal(err)
			}
			ps := sum.Providers[0]
			c := loadOverlay(t, filepath.Join(dir, "skypilot-lambda.toml"))
			p, _ := regionPrice(findInst(c, "lambda", "gpu_8x_h100_sxm5"), "us-east-1")
			if !tt.held {
				if len(ps.Held) != 0 || fmt.Sprintf("%.2f", p.OnDemandUSD) != tt.price {
					t.Errorf("$%s: held %v, written %v; want it written", tt.price, ps.Held, p.OnDemandUSD)
				}
				continue
			}
			if len(ps.Held) != 1 || ps.Held[0].Type != "gpu_8x_h100_sxm5" || ps.Held[0].Rule != "price-rise" {
				t.Fatalf("$%s force %v: held %v, want gpu_8x_h100_sxm5 us-east-1 by price-rise", tt.price, force, ps.Held)
			}
			// 64 / 8 = 8.00 per GPU-hour against 31.92 / 8 = 3.99: 100.5% more.
			want := "    lambda/gpu_8x_h100_sxm5 us-east-1: on-demand $8.00 per GPU-hour is over twice the catalog's $3.99 per GPU-hour for this type and region (101% more): a fake or mistyped price? If the provider did raise it, write the price in an overlay by hand and pass --trust-overlay\n"
			if !strings.Contains(sum.Text(), "guards: 1 of 22 region prices held back (not written, so never ranked):\n") || !strings.Contains(sum.Text(), want) {
				t.Errorf("$%s force %v: summary lacks the held rise %q:\n%s", tt.price, force, want, sum.Text())
			}
			if p.OnDemandUSD != 31.92 {
				t.Errorf("$%s force %v: gpu_8x_h100_sxm5 us-east-1 at %v, want the catalog's 31.92 kept", tt.price, force, p.OnDemandUSD)
			}
		}
	}
}

// A mirror raising GCP spot prices (still under on demand) is seen in the
// summary: spot moves are counted apart from on-demand ones (attack round
// 15, finding 6: every spot price ×8 was summed up as "moved: 0").
func TestHostileSpotMovesCounted(t *testing.T) {
	rows, err := csv.NewReader(strings.NewReader(mustRead(t, "testdata/v8/gcp/vms.csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	w := csv.NewWriter(&b)
	for i, r := range rows {
		if i > 0 && r[9] != "" {
			p, err := strconv.ParseFloat(r[9], 64)
			if err != nil {
				t.Fatal(err)
			}
			r[9] = strconv.FormatFloat(p*1.5, 'f', 4, 64)
		}
		w.Write(r)
	}
	w.Flush()
	body := b.String()
	s := server(t, map[string]http.HandlerFunc{"/spot/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }})
	sum, err, _ := hostileRun(t, Options{Dir: t.TempDir(), Sources: []string{s.URL + "/spot"}, Providers: []string{"gcp"}, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	// The fixture's 6 spot prices ×1.5, none above on demand: each a move.
	for _, w := range []string{"  added 0, removed 46, prices moved >10%: 0 on demand, 6 spot\n",
		"  a2-ultragpu-1g us-central1 spot: $2.51 → $3.77/h (+50%)\n", "    … and 3 more spot moves\n"} {
		if !strings.Contains(sum.Text(), w) {
			t.Errorf("summary lacks %q:\n%s", w, sum.Text())
		}
	}
	spot := 0
	for _, m := range sum.Providers[0].Moved {
		if m.Spot {
			spot++
		}
	}
	if spot == 0 {
		t.Errorf("no spot move counted: %+v", sum.Providers[0].Moved)
	}
}

func mustRead(t *testing.T, name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A mirror listing Lambda's gpu_8x_h100_sxm5 in an invented region at
// 0.62× its price, or under a new type name, escaped the guards that
// compare a type with itself (attack round 15, finding 8). A price with
// no earlier one is compared with the cheapest Lambda asks for 8× H100
// SXM (gpu_8x_h100_sxm5, $31.92 = $3.99 per GPU-hour): under half of it
// is held; in a region the catalog's geography does not know, under it
// at all is held. A new type at 0.70× in a known region passes: the
// embedded catalog has real offers at 0.56× their cheapest peer.
func TestHostileNewRegionAndType(t *testing.T) {
	body := lambdaWith(t,
		"gpu_8x_h100_sxm5,H100,8.0,208.0,1800.0,19.79,us-newregion-9,"+h100Info+",\n",
		"gpu_8x_h100_sxm5_cheap,H100,8.0,208.0,1800.0,22.34,us-east-1,"+h100Info+",\n",
		"gpu_8x_h100_sxm5_cheaper,H100,8.0,208.0,1800.0,15.00,us-east-1,"+h100Info+",\n")
	s := server(t, map[string]http.HandlerFunc{"/new/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }})
	dir := t.TempDir()
	sum, err, _ := hostileRun(t, Options{Dir: dir, Sources: []string{s.URL + "/new"}, Providers: []string{"lambda"}})
	if err != nil {
		t.Fatal(err)
	}
	ps := sum.Providers[0]
	var held []string
	for _, g := range ps.Held {
		held = append(held, g.Type+" "+g.Region+" "+g.Rule)
	}
	if want := []string{"gpu_8x_h100_sxm5 us-newregion-9 new-price-cut", "gpu_8x_h100_sxm5_cheaper us-east-1 new-price-cut"}; !slices.Equal(held, want) {
		t.Fatalf("held %q, want %q", held, want)
	}
	for _, w := range []string{
		// 19.79 / 8 = $2.47 against $3.99; 15 / 8 = $1.875 under half of it ($2.00).
		"    lambda/gpu_8x_h100_sxm5 us-newregion-9: on-demand $2.47 per GPU-hour in us-newregion-9, a region the catalog does not know for lambda, is under the cheapest $3.99 per GPU-hour it asks for 8× h100-sxm (gpu_8x_h100_sxm5 in asia-northeast-1): a fake price? If the region is real, write the price in an overlay by hand and pass --trust-overlay\n",
		"    lambda/gpu_8x_h100_sxm5_cheaper us-east-1: on-demand $1.87 per GPU-hour, a price the catalog has no earlier one for, is under half the cheapest $3.99 per GPU-hour lambda asks for 8× h100-sxm (gpu_8x_h100_sxm5 in asia-northeast-1): a fake or mistyped price? If it is real, write the price in an overlay by hand and pass --trust-overlay\n",
		"  regions the catalog's region list does not know for lambda (1): us-newregion-9\n",
	} {
		if !strings.Contains(sum.Text(), w) {
			t.Errorf("summary lacks %q:\n%s", w, sum.Text())
		}
	}
	c := loadOverlay(t, filepath.Join(dir, "skypilot-lambda.toml"))
	if _, ok := regionPrice(findInst(c, "lambda", "gpu_8x_h100_sxm5"), "us-newregion-9"); ok {
		t.Error("the invented region's price reached the catalog")
	}
	if findInst(c, "lambda", "gpu_8x_h100_sxm5_cheaper") != nil {
		t.Error("the new type under half the cheapest reached the catalog")
	}
	if findInst(c, "lambda", "gpu_8x_h100_sxm5_cheap") == nil {
		t.Error("the new type at 0.70× was held: the rule is under half")
	}
}
