// Package update is the core of `gpuplan catalog update`: it fetches
// SkyPilot's hosted v8 catalog CSVs (credential-free; raw GitHub first,
// SkyPilot's public S3 mirror when GitHub answers 429 or fails, per
// skypilot issue #5438), reads them with the same importer as the
// embedded catalog (data.ReadSkyPilotCSV: GCP flex-start and
// reservation-only fixes, SkyPilot accelerator names, CPU architecture),
// Azure from the Azure Retail Prices API (azure.go) and OCI from Oracle's
// public price list and estimator shapes (oci.go), checks them with
// data.Guards, and writes one dated overlay per provider
// into data.UpdateDir, which data.LoadWith reads. It never runs unless
// called, keeps the previous file of a provider whose fetch fails, and
// refuses a result that drops more than half of a provider's types
// unless Options.Force.
package update

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
)

// DefaultSources are the bases tried in order; a provider's file is
// Source + "/v8/" + provider + "/vms.csv".
var DefaultSources = []string{
	"https://raw.githubusercontent.com/skypilot-org/skypilot-catalog/master/catalogs",
	"https://skypilot-catalog.s3.us-east-1.amazonaws.com/catalogs",
}

// DefaultProviders are the clouds fetched by default: aws, gcp, lambda and
// nebius from SkyPilot's files, refreshed upstream every 7 hours (catalog
// audit §4); azure from the Azure Retail Prices API (SkyPilot's Azure file
// is hand-updated and US-only) and oci from Oracle's public price list
// and cost-estimator shapes, both credential-free; and the providers whose
// SkyPilot v8 file is their price list (hyperstack, jarvislabs, seeweb,
// verda, daytona, shadeform, primeintellect).
//
// Left to --providers: the marketplaces (vast, lium, hyperbolic: per-host
// offers, left out of rankings anyway), runpod (its v8 rows repeat the
// on-demand price as the spot price, a placeholder the embedded catalog
// drops and an overlay would rank) and yotta (its file ends without a
// newline, which the download check takes for a truncated file).
var DefaultProviders = []string{"aws", "gcp", "lambda", "nebius", "azure", "oci",
	"hyperstack", "jarvislabs", "seeweb", "verda", "daytona", "shadeform", "primeintellect"}

// maxBody caps one download: SkyPilot's largest v8 file (aws) is ≈3.7 MB.
const maxBody = 64 << 20

// Options configure Run. Zero values pick the defaults.
type Options struct {
	Client  *http.Client // nil: a client with a 2-minute timeout on http.DefaultTransport (honours HTTPS_PROXY)
	Dir     string       // where overlays go; "" is data.UpdateDir()
	Sources []string     // base URLs tried in order (a mirror via --source); nil is DefaultSources
	// AzureSources are Retail Prices API endpoints tried in order; nil is
	// DefaultAzureSources.
	AzureSources []string
	// OCISources are Oracle price-list and shapes URL pairs tried in
	// order; nil is DefaultOCISources.
	OCISources []OCISource
	// MaxPages bounds the Azure API pages followed; 0 is DefaultMaxPages.
	MaxPages int
	// Sleep waits before retrying an Azure page that answered 429; nil
	// waits for real (or until ctx ends).
	Sleep     func(ctx context.Context, d time.Duration)
	Providers []string // nil is DefaultProviders
	Force     bool     // accept a result that drops more than half of a provider's types
	Now       func() time.Time
	// Progress is called after each provider with providers done and total.
	Progress func(done, total int64)
}

// Summary is what Run did, one entry per provider in Options order.
type Summary struct {
	Providers []ProviderSummary
}

// ProviderSummary is one provider's result. Err is set when the update
// failed and the provider's file was left as it was.
type ProviderSummary struct {
	Provider string
	URL      string // the URL the data came from
	File     string // the overlay written
	Types    int    // instance types in the new file
	Added    []string
	Removed  []string    // types of the current catalog the source no longer lists
	Moved    []PriceMove // on-demand prices that moved more than 10%
	Warnings []string    // importer warnings and guard findings
	Err      error
	Kept     bool // on Err: a previous overlay existed and was kept
}

// failure says what a failed update left: the previous overlay, or none.
func (p *ProviderSummary) failure() string {
	if p.Kept {
		return "previous overlay kept"
	}
	return "no previous overlay"
}

// PriceMove is an on-demand price change of one type in one region.
type PriceMove struct {
	Type, Region string
	From, To     float64 // USD per hour
}

// ErrDropped is wrapped when a result would drop more than half of a
// provider's types and Force is off.
var ErrDropped = errors.New("drops more than half of the provider's types")

// Run fetches every provider and writes its overlay. The error joins the
// providers' errors (each also in its ProviderSummary); files of failed
// providers are left as they were.
func Run(ctx context.Context, o Options) (Summary, error) {
	if o.Client == nil {
		o.Client = &http.Client{Timeout: 2 * time.Minute}
	}
	if o.Sources == nil {
		o.Sources = DefaultSources
	}
	if o.Providers == nil {
		o.Providers = DefaultProviders
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.AzureSources == nil {
		o.AzureSources = DefaultAzureSources
	}
	if o.OCISources == nil {
		o.OCISources = DefaultOCISources
	}
	if o.MaxPages <= 0 {
		o.MaxPages = DefaultMaxPages
	}
	if o.Sleep == nil {
		o.Sleep = func(ctx context.Context, d time.Duration) {
			select {
			case <-ctx.Done():
			case <-time.After(d):
			}
		}
	}
	if o.Dir == "" {
		d, err := data.UpdateDir()
		if err != nil {
			return Summary{}, fmt.Errorf("catalog update: no data directory: %w", err)
		}
		o.Dir = d
	}
	base, err := data.Load()
	if err != nil {
		return Summary{}, err
	}
	var sum Summary
	var errs []error
	for i, p := range o.Providers {
		ps := runProvider(ctx, o, base, p)
		if ps.Err != nil {
			_, statErr := os.Stat(ps.File)
			ps.Kept = statErr == nil
			errs = append(errs, fmt.Errorf("%s: %w (%s)", p, ps.Err, ps.failure()))
		}
		sum.Providers = append(sum.Providers, ps)
		if o.Progress != nil {
			o.Progress(int64(i+1), int64(len(o.Providers)))
		}
	}
	return sum, errors.Join(errs...)
}

// fetched is what one provider's fetcher brought: instances in the
// catalog's schema, the URL they came from, the file they go to and the
// attribution line of its header.
type fetched struct {
	insts    []model.Instance
	url      string
	warnings []string
	credit   string // the overlay header's data line
}

// overlayFile is the file a provider's overlay goes to: SkyPilot's files
// as skypilot-PROVIDER.toml, the direct fetchers under their source's name.
func overlayFile(dir, provider string) string {
	switch provider {
	case "azure":
		return filepath.Join(dir, "azure-retail.toml")
	case "oci":
		return filepath.Join(dir, "oci-pricelist.toml")
	}
	return filepath.Join(dir, "skypilot-"+provider+".toml")
}

func runProvider(ctx context.Context, o Options, base *model.Catalog, provider string) ProviderSummary {
	ps := ProviderSummary{Provider: provider, File: overlayFile(o.Dir, provider)}
	var f fetched
	var err error
	switch provider {
	case "azure":
		f, err = fetchAzure(ctx, o, base)
	case "oci":
		f, err = fetchOCI(ctx, o, base)
	default:
		f, err = fetchSkyPilot(ctx, o, base, provider)
	}
	if err != nil {
		ps.Err = err
		return ps
	}
	insts := f.insts
	ps.URL, ps.Warnings = f.url, f.warnings
	now := o.Now().UTC()
	current := map[string]*model.Instance{}
	for i := range base.Instances {
		if in := &base.Instances[i]; in.Provider == provider && in.Retired == "" {
			current[in.Type] = in
		}
	}
	fetched := map[string]bool{}
	for i := range insts {
		in := &insts[i]
		fetched[in.Type] = true
		old, ok := current[in.Type]
		if !ok {
			ps.Added = append(ps.Added, in.Type)
			continue
		}
		for _, p := range in.Prices {
			for _, q := range old.Prices {
				if q.Region == p.Region && q.OnDemandUSD > 0 && p.OnDemandUSD > 0 && (p.OnDemandUSD > q.OnDemandUSD*1.1 || p.OnDemandUSD < q.OnDemandUSD/1.1) {
					ps.Moved = append(ps.Moved, PriceMove{in.Type, p.Region, q.OnDemandUSD, p.OnDemandUSD})
				}
			}
		}
	}
	for t := range current {
		if !fetched[t] {
			ps.Removed = append(ps.Removed, t)
		}
	}
	sort.Strings(ps.Added)
	sort.Strings(ps.Removed)
	ps.Types = len(insts)
	if len(current) > 0 && 2*len(ps.Removed) > len(current) && !o.Force {
		ps.Err = fmt.Errorf("%s lists %d of the catalog's %d %s types: %w; check the source or pass --force", ps.URL, len(current)-len(ps.Removed), len(current), provider, ErrDropped)
		return ps
	}
	for _, g := range data.Guards(base, insts, nil) {
		ps.Warnings = append(ps.Warnings, g.String())
	}
	var b bytes.Buffer
	writeOverlay(&b, provider, ps.URL, f.credit, now, insts, current, ps.Removed)
	if err := writeAtomic(o.Dir, ps.File, b.Bytes()); err != nil {
		ps.Err = err
		return ps
	}
	if provider == "oci" {
		// Earlier versions took OCI from SkyPilot; that overlay would patch
		// the same types with older prices, so the fresh file replaces it.
		if err := os.Remove(filepath.Join(o.Dir, "skypilot-oci.toml")); err == nil {
			ps.Warnings = append(ps.Warnings, "removed skypilot-oci.toml: OCI now comes from Oracle's price list")
		}
	}
	return ps
}

// fetchSkyPilot reads provider's SkyPilot v8 file from each of o.Sources
// in turn until one answers with a file the importer accepts.
func fetchSkyPilot(ctx context.Context, o Options, base *model.Catalog, provider string) (fetched, error) {
	var srcErrs []error
	for _, s := range o.Sources {
		url := strings.TrimSuffix(s, "/") + "/v8/" + provider + "/vms.csv"
		body, err := fetch(ctx, o.Client, url, maxBody)
		var f fetched
		if err == nil {
			f.insts, f.warnings, err = importCSV(body, url, provider, base)
		}
		if err == nil {
			f.url, f.credit = url, "Data: SkyPilot authors, Apache-2.0."
			return f, nil
		}
		srcErrs = append(srcErrs, fmt.Errorf("%s: %w", url, err))
		if ctx.Err() != nil {
			break
		}
	}
	return fetched{}, errors.Join(srcErrs...)
}

// fetch GETs url; any status but 200 is an error (429 and 5xx send Run to
// the next source).
func fetch(ctx context.Context, c *http.Client, url string, limit int64) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", "gpuplan-catalog-update")
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, &statusError{resp.StatusCode, resp.Status}
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading the response: %w", err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("response larger than %d MiB", limit>>20)
	}
	if resp.ContentLength >= 0 && int64(len(b)) != resp.ContentLength {
		return nil, fmt.Errorf("truncated response: %d of %d bytes", len(b), resp.ContentLength)
	}
	return b, nil
}

// statusError is an HTTP answer other than 200.
type statusError struct {
	code   int
	status string
}

func (e *statusError) Error() string { return "HTTP " + e.status }

// importCSV checks the currency and the last line, then reads the file
// with the embedded catalog's importer.
func importCSV(body []byte, url, provider string, base *model.Catalog) ([]model.Instance, []string, error) {
	if len(body) > 0 && body[len(body)-1] != '\n' {
		return nil, nil, errors.New("truncated file: the last line has no newline")
	}
	if err := checkCurrency(body); err != nil {
		return nil, nil, err
	}
	return data.ReadSkyPilotCSV(bytes.NewReader(body), url, provider, data.CatalogGPUResolver(base))
}

// checkCurrency refuses prices in another currency than USD when the file
// says so in a Currency column (SkyPilot's files are USD and have none).
func checkCurrency(body []byte) error {
	r := csv.NewReader(bytes.NewReader(body))
	r.FieldsPerRecord = -1
	head, err := r.Read()
	if err != nil {
		return nil // ReadSkyPilotCSV reports it
	}
	col := slices.IndexFunc(head, func(h string) bool { return strings.EqualFold(h, "Currency") || strings.EqualFold(h, "CurrencyCode") })
	if col < 0 {
		return nil
	}
	for {
		rec, err := r.Read()
		if err != nil {
			return nil
		}
		if col < len(rec) && rec[col] != "" && !strings.EqualFold(rec[col], "USD") {
			return fmt.Errorf("prices in %s, want USD (gpuplan ranks other currencies only with an exchange rate)", rec[col])
		}
	}
}

// writeAtomic writes path through a temporary file in dir and a rename,
// so a failure never leaves half a file.
func writeAtomic(dir, path string, b []byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".update-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// Text is the summary as `catalog update` prints it: one block per
// provider with types added and removed and on-demand prices moved more
// than 10%.
func (s Summary) Text() string {
	var b strings.Builder
	for _, p := range s.Providers {
		if p.Err != nil {
			// The error itself is Run's, printed once by the caller.
			fmt.Fprintf(&b, "%s: failed, %s\n", p.Provider, p.failure())
			continue
		}
		fmt.Fprintf(&b, "%s: %d types from %s → %s\n", p.Provider, p.Types, p.URL, p.File)
		fmt.Fprintf(&b, "  added %d, removed %d, prices moved >10%%: %d\n", len(p.Added), len(p.Removed), len(p.Moved))
		for _, m := range p.Moved {
			fmt.Fprintf(&b, "  %s %s: $%.2f → $%.2f/h (%+.0f%%)\n", m.Type, m.Region, m.From, m.To, (m.To/m.From-1)*100)
		}
	}
	return b.String()
}
