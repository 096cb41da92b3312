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
	// Client fetches; nil is one on http.DefaultTransport (which honours
	// HTTPS_PROXY) with Limits.Connect. Either way its redirects are
	// limited to the host asked and AllowRedirects.
	Client *http.Client
	Dir    string // where overlays go; "" is data.UpdateDir()
	// Sources are SkyPilot base URLs tried in order; nil is DefaultSources.
	// A mirror given here serves SkyPilot's files only: with Sources set,
	// Providers defaults to the DefaultProviders read from them, and azure or oci without
	// AzureSources or OCISources of their own is refused rather than
	// fetched from the public endpoints.
	Sources []string
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
	// Limits bound the network; zero fields are DefaultLimits'.
	Limits Limits
	// AllowRedirects are hosts (or host:port) a redirect may lead to
	// besides the host asked.
	AllowRedirects []string
	// Progress is called as bytes arrive and when each provider is done.
	Progress func(Progress)
}

// Progress is where an update is: the provider being fetched (Index of
// Total, from 0), the bytes it has received, and whether it is done (Err
// set when it failed).
type Progress struct {
	Provider     string
	Index, Total int
	Bytes        int64
	Elapsed      time.Duration
	Done         bool
	Err          error
	// Refused, when Done, are the sources tried before the one used and
	// why each was not (ProviderSummary.Refused), for stderr.
	Refused []model.Message
}

// Summary is what Run did, one entry per provider in Options order.
type Summary struct {
	Providers []ProviderSummary
	Notes     []model.Message // what Run decided for the whole update (providers left out)
}

// ProviderSummary is one provider's result. Err is set when the update
// failed and the provider's file was left as it was.
type ProviderSummary struct {
	Provider string
	URL      string // the URL the data came from
	File     string // the overlay written
	Types    int    // instance types in the new file
	Added    []string
	Removed  []string // types of the current catalog the source no longer lists
	// NewRegions are the regions the file prices that the catalog has for
	// none of the provider's types, sorted: a mirror that makes one up
	// is seen in the summary (issue 29).
	NewRegions []string
	// UnknownRegions are the regions the source prices (held back or
	// not) that the catalog's region geography does not know for the
	// provider, sorted (attack round 15, finding 8: us-newregion-9 was
	// only a load warning).
	UnknownRegions []string
	Moved          []PriceMove     // on-demand and spot prices that moved more than 10%
	Warnings       []model.Message // the importer's and fetcher's notes (rows and sizes left out)
	// Held are the guards' price findings (data.PriceRule): those prices
	// were not written, so they are never ranked; the type keeps its
	// previous price in that region, and a new type left with no price is
	// not added. Flags are the other findings (a name that contradicts
	// its GPU), written as they are.
	Held, Flags []data.Guard
	Prices      int // region prices checked by the guards
	Err         error
	Kept        bool // on Err: a previous overlay existed and was kept
	// Refused are the sources tried before URL and why each was not used
	// ("SOURCE/v8/lambda/vms.csv: truncated file…"), their URLs redacted
	// (Redact); nil when the first source served.
	Refused []model.Message
}

// failure says what a failed update left: the previous overlay, or none.
func (p *ProviderSummary) failure() model.Message {
	if p.Kept {
		return model.Msg("previous overlay kept")
	}
	return model.Msg("no previous overlay")
}

// PriceMove is a price change of one type in one region, on demand or
// (Spot) spot.
type PriceMove struct {
	Type, Region string
	From, To     float64 // USD per hour
	Spot         bool
}

// ErrDropped is wrapped when a result would drop more than half of a
// provider's types and Force is off.
var ErrDropped = errors.New("drops more than half of the provider's types")

// Run fetches every provider and writes its overlay. The error joins the
// providers' errors (each also in its ProviderSummary); files of failed
// providers are left as they were.
func Run(ctx context.Context, o Options) (Summary, error) {
	var sum Summary
	if o.Providers == nil {
		o.Providers = DefaultProviders
		if o.Sources != nil {
			// The defaults a mirror can serve: not the opt-in ones.
			o.Providers = nil
			for _, p := range DefaultProviders {
				if slices.Contains(skyPilotProviders, p) {
					o.Providers = append(o.Providers, p)
				}
			}
			var left []string
			if o.AzureSources == nil {
				left = append(left, "azure")
			}
			if o.OCISources == nil {
				left = append(left, "oci")
			}
			if len(left) > 0 {
				sum.Notes = append(sum.Notes, model.Msg("%s not fetched: a --source mirror serves SkyPilot's files, and they come from their own price APIs", strings.Join(left, " and ")))
			}
		}
	}
	if err := CheckProviders(o.Providers); err != nil {
		return Summary{}, err
	}
	if o.Sources != nil {
		for _, p := range o.Providers {
			if p == "azure" && o.AzureSources == nil || p == "oci" && o.OCISources == nil {
				return Summary{}, model.Errorf(ErrNoMirror, "%s comes from its own price API, not from a SkyPilot mirror; drop --source or leave %s out of --providers", p, p)
			}
		}
	}
	if o.Sources == nil {
		o.Sources = DefaultSources
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
			return Summary{}, model.Msg("catalog update: no data directory: %v", err)
		}
		o.Dir = d
	}
	limits := o.Limits.withDefaults()
	client := newClient(&o, limits)
	base, err := data.Load()
	if err != nil {
		return Summary{}, err
	}
	if limits.Total > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, limits.Total,
			model.Errorf(ErrDeadline, "the update ran past its %v in all", limits.Total))
		defer cancel()
	}
	// silent holds the SkyPilot sources that did not answer for a
	// provider (noAnswer): the next providers skip them, so a silent or
	// dripping mirror costs one provider's wait, not one per provider.
	silent := map[string]error{}
	var errs []error
	for i, p := range o.Providers {
		start := time.Now()
		g := &getter{client: client, limits: limits}
		if o.Progress != nil {
			o.Progress(Progress{Provider: p, Index: i, Total: len(o.Providers)})
			g.received = func(n int64) {
				o.Progress(Progress{Provider: p, Index: i, Total: len(o.Providers), Bytes: n, Elapsed: time.Since(start)})
			}
		}
		pctx, cancel := context.WithTimeoutCause(ctx, limits.Provider,
			model.Errorf(ErrDeadline, "%s's update ran past its %v", p, limits.Provider))
		var ps ProviderSummary
		if ctx.Err() != nil {
			ps = ProviderSummary{Provider: p, File: overlayFile(o.Dir, p), Err: model.Errorf(ErrSkipped, "not fetched: %v", context.Cause(ctx))}
		} else {
			ps = runProvider(pctx, o, g, base, p, silent)
		}
		cancel()
		if ps.Err != nil {
			_, statErr := os.Stat(ps.File)
			ps.Kept = statErr == nil
			errs = append(errs, model.Msg("%s: %v (%s)", p, ps.Err, ps.failure()))
		}
		sum.Providers = append(sum.Providers, ps)
		if o.Progress != nil {
			o.Progress(Progress{Provider: p, Index: i, Total: len(o.Providers), Bytes: g.total, Elapsed: time.Since(start), Done: true, Err: ps.Err, Refused: ps.Refused})
		}
	}
	return sum, errors.Join(errs...)
}

// ErrAllHeld is wrapped when the guards held back every price a source
// lists: it is broken or hostile, and no overlay is written.
var ErrAllHeld = errors.New("every price held back")

// ErrNoMirror is wrapped when a provider that no SkyPilot mirror serves
// (azure, oci) is asked for with a mirror and no source of its own.
var ErrNoMirror = errors.New("no mirror for this provider")

// fetched is what one provider's fetcher brought: instances in the
// catalog's schema, the URL they came from, the file they go to and the
// attribution line of its header.
type fetched struct {
	insts    []model.Instance
	url      string
	warnings []model.Message
	credit   string // the overlay header's data line
	refused  []model.Message
}

// overlayFile is the file a provider's overlay goes to: SkyPilot's files
// as skypilot-PROVIDER.toml, the direct fetchers under their source's name.
// The name comes from overlayNames only (CheckProviders refused any
// other provider before).
func overlayFile(dir, provider string) string {
	return filepath.Join(dir, overlayNames[provider])
}

func runProvider(ctx context.Context, o Options, g *getter, base *model.Catalog, provider string, silent map[string]error) ProviderSummary {
	ps := ProviderSummary{Provider: provider, File: overlayFile(o.Dir, provider)}
	var f fetched
	var err error
	switch provider {
	case "azure":
		f, err = fetchAzure(ctx, o, g, base)
	case "oci":
		f, err = fetchOCI(ctx, o, g, base)
	default:
		f, err = fetchSkyPilot(ctx, o, g, base, provider, silent)
	}
	if err != nil {
		ps.Err = err
		return ps
	}
	insts := f.insts
	ps.URL, ps.Warnings, ps.Refused = f.url, f.warnings, f.refused
	names := data.NewNameCheck(base)
	for i := range insts {
		if err := names.Check(&insts[i]); err != nil {
			ps.Err = model.Msg("%s: %v", ps.URL, err)
			return ps
		}
	}
	var spotHeld int
	if insts, spotHeld = data.ClearInventedSpot(data.SpotMarkets(base), insts); spotHeld > 0 {
		ps.Warnings = append(ps.Warnings, model.Msg("%d spot prices held back (not written, so never ranked): the embedded catalog lists no %s spot price, and a source cannot add a spot market", spotHeld, provider))
	}
	now := o.Now().UTC()
	// current are the provider's offered types; known adds the retired
	// ones. A retired type the source still lists (SkyPilot keeps rows
	// AWS no longer describes) is the embedded type, not a new one: it is
	// written as a price patch on the catalog's hardware, as an offered
	// type is, and stays retired (the loader keeps a retirement). Written
	// as a new complete entry, a changed figure on it (p3.2xlarge at 62
	// GiB) redefined the embedded entry and every later command refused
	// the overlay (attack r29).
	current, known := map[string]*model.Instance{}, map[string]*model.Instance{}
	var retired []string
	for i := range base.Instances {
		if in := &base.Instances[i]; in.Provider == provider {
			known[in.Type] = in
			if in.Retired == "" {
				current[in.Type] = in
			}
		}
	}
	fetched, added := map[string]bool{}, 0
	for i := range insts {
		fetched[insts[i].Type] = true
		switch c := known[insts[i].Type]; {
		case c == nil:
			added++
		case c.Retired != "":
			retired = append(retired, insts[i].Type)
		}
	}
	if len(retired) > 0 {
		sort.Strings(retired)
		ps.Warnings = append(ps.Warnings, model.Msg("%s lists %v the catalog has as retired (%v): written as price patches on the catalog's entries, they stay retired and are not ranked",
			ps.URL, model.CountMsg(len(retired), "type"), namedFew(retired)))
	}
	// The bound precheckCSV applies to a vms.csv before parsing it, for
	// every source (Azure's and OCI's answers are built first).
	if limit := maxNewTypes(len(current)); added > limit {
		ps.Err = model.Errorf(ErrTooManyTypes, "%s lists %d instance types the catalog does not have for %s: an update may add at most %d (twice the %d it has, or %d); check the source",
			ps.URL, added, provider, limit, len(current), newTypesFloor)
		return ps
	}
	for t := range current {
		if !fetched[t] {
			ps.Removed = append(ps.Removed, t)
		}
	}
	sort.Strings(ps.Removed)
	if len(current) > 0 && 2*len(ps.Removed) > len(current) && !o.Force {
		ps.Err = model.Msg("%s lists %d of the catalog's %d %s types: %v; check the source or pass --force", ps.URL, len(current)-len(ps.Removed), len(current), provider, ErrDropped)
		return ps
	}
	// The overlay this one replaces: the cut guard compares with it too,
	// so a price cut in steps (each under half of the last, or of a type
	// the embedded catalog lacks) is caught.
	var prev *model.Catalog
	if _, err := os.Lstat(ps.File); err == nil {
		if prev, err = data.OverlayCatalog(ps.File); err != nil {
			ps.Warnings = append(ps.Warnings, model.Msg("the previous overlay does not read (%v); prices compared with the embedded catalog only", err))
		}
	}
	// A type the catalog has is written as a price patch and keeps the
	// catalog's hardware (writeOverlay), so its prices are judged on that
	// hardware too: a source declaring 1 GPU for an 8-GPU type would
	// otherwise pass a per-GPU floor at an eighth of the price (attack
	// rounds 8 and 9).
	var reshaped []string
	for i := range insts {
		in := &insts[i]
		if c := known[in.Type]; c != nil {
			// The GPU key may differ by form factor (SkyPilot's A100 is
			// the catalog's a100-pcie-40gb); a count cannot.
			if in.GPUCount != c.GPUCount {
				reshaped = append(reshaped, fmt.Sprintf("%s (%d %s listed, %d in the catalog)", in.Type, in.GPUCount, model.Plural(in.GPUCount, "GPU"), c.GPUCount))
			}
			in.GPU, in.GPUCount, in.VCPUs, in.MemoryGiB = c.GPU, c.GPUCount, c.VCPUs, c.MemoryGiB
		}
	}
	if len(reshaped) > 0 {
		ps.Warnings = append(ps.Warnings, model.Msg("%s lists another GPU count than the catalog for %s (%d in all); their prices are judged and written for the catalog's count",
			ps.URL, strings.Join(reshaped[:min(len(reshaped), 3)], ", "), len(reshaped)))
	}
	ps.UnknownRegions = unknownRegions(base, provider, insts)
	insts = ps.guard(base, prev, insts)
	switch {
	case len(insts) > 0:
	case len(ps.Held) > 0:
		ps.Err = model.Errorf(ErrAllHeld, "the guards held back all %d region prices %s lists (%s); nothing written", ps.Prices, ps.URL, ps.Held[0])
		return ps
	default:
		ps.Err = model.Msg("%s lists no priced %s instance type; nothing written", ps.URL, provider)
		return ps
	}
	for i := range insts {
		in := &insts[i]
		old, ok := known[in.Type]
		if !ok {
			ps.Added = append(ps.Added, in.Type)
			continue
		}
		for _, p := range in.Prices {
			for _, q := range old.Prices {
				if q.Region != p.Region {
					continue
				}
				// Spot moves count too: a mirror writing every spot price
				// ×8 (still under on demand) was summed up as "moved: 0"
				// (attack round 15, finding 6).
				for _, m := range []PriceMove{{in.Type, p.Region, q.OnDemandUSD, p.OnDemandUSD, false}, {in.Type, p.Region, q.SpotUSD, p.SpotUSD, true}} {
					if m.From > 0 && m.To > 0 && (m.To > m.From*1.1 || m.To < m.From/1.1) {
						ps.Moved = append(ps.Moved, m)
					}
				}
			}
		}
	}
	sort.Strings(ps.Added)
	ps.NewRegions = newRegions(base, provider, insts)
	ps.Types = len(insts)
	var b bytes.Buffer
	if err := writeOverlay(&b, provider, ps.URL, f.credit, now, insts, known, ps.Removed); err != nil {
		ps.Err = err
		return ps
	}
	if err := install(o.Dir, overlayNames[provider], b.Bytes()); err != nil {
		ps.Err = err
		return ps
	}
	if provider == "oci" {
		// Earlier versions took OCI from SkyPilot; that overlay would patch
		// the same types with older prices, so the fresh file replaces it.
		if err := removeIn(o.Dir, "skypilot-oci.toml"); err == nil {
			ps.Warnings = append(ps.Warnings, model.Msg("removed skypilot-oci.toml: OCI now comes from Oracle's price list"))
		}
	}
	return ps
}

// guard runs the guards over insts (data.Guards, data.FloorGuards
// against the embedded catalog's floor per GPU, data.CutGuards and
// data.RiseGuards against the same type's price in base, the embedded
// catalog, and in prev, the
// overlay being replaced merged over it, when there is one, and
// data.PeerGuards against the provider's other types of the same GPU in
// base) and returns insts without
// the region prices a price rule flagged (ps.Held); a type of the catalog
// left with no price keeps its old prices (it is not written, and not
// counted as removed), a new one is not added. Other findings go to
// ps.Flags.
func (ps *ProviderSummary) guard(base, prev *model.Catalog, insts []model.Instance) []model.Instance {
	found := append(data.Guards(base, insts, nil), data.FloorGuards(data.GPUFloors(base), base, insts)...)
	found = append(found, data.CutGuards(base, insts)...)
	found = append(found, data.RiseGuards(base, insts)...)
	if prev != nil {
		found = append(found, data.CutGuards(prev, insts)...)
		found = append(found, data.RiseGuards(prev, insts)...)
	}
	found = append(found, data.PeerGuards(base, insts)...)
	found = append(found, data.NewPriceGuards(base, insts)...)
	held := map[[2]string]bool{}
	for _, g := range found {
		if data.PriceRule(g.Rule) {
			if !held[[2]string{g.Type, g.Region}] {
				ps.Held = append(ps.Held, g)
			}
			held[[2]string{g.Type, g.Region}] = true
		} else {
			ps.Flags = append(ps.Flags, g)
		}
	}
	out := insts[:0:0]
	for _, in := range insts {
		ps.Prices += len(in.Prices)
		if len(held) > 0 {
			in.Prices = slices.DeleteFunc(slices.Clone(in.Prices), func(p model.RegionPrice) bool { return held[[2]string{in.Type, p.Region}] })
			if len(in.Prices) == 0 {
				continue
			}
		}
		out = append(out, in)
	}
	return out
}

// fetchSkyPilot reads provider's SkyPilot v8 file from each of o.Sources
// in turn until one answers with a file the importer accepts. The URL
// recorded is the one the file finally came from (after redirects). A
// source in silent (it did not answer for an earlier provider) is not
// asked; one that does not answer now is added to it. With every source
// silent the provider is skipped (ErrSkipped).
func fetchSkyPilot(ctx context.Context, o Options, g *getter, base *model.Catalog, provider string, silent map[string]error) (fetched, error) {
	var srcErrs []error
	skipped := 0
	for _, s := range o.Sources {
		if why, ok := silent[s]; ok {
			skipped++
			srcErrs = append(srcErrs, model.Msg("%s: not asked: %v", Redact(s), why))
			continue
		}
		url := strings.TrimSuffix(s, "/") + "/v8/" + provider + "/vms.csv"
		body, final, err := g.get(ctx, url, maxBody)
		if err != nil && noAnswer(err) {
			silent[s] = model.Msg("it did not answer for %s", provider)
			if errors.Is(err, ErrDeadline) { // it answered, too slowly
				silent[s] = model.Msg("it did not finish in %v for %s", g.limits.Provider, provider)
			}
		}
		var f fetched
		if err == nil {
			f.insts, f.warnings, err = importCSV(body, sourceURL(final), provider, base)
		}
		if err == nil {
			f.url, f.credit = sourceURL(final), "Data: SkyPilot authors, Apache-2.0."
			// The sources tried before this one, and why they were not used:
			// a mirror refused for invalid data is said, not passed over
			// in silence (issue 29).
			for _, e := range srcErrs {
				if m, ok := e.(model.Message); ok {
					f.refused = append(f.refused, m)
				}
			}
			return f, nil
		}
		srcErrs = append(srcErrs, model.Msg("%s: %v", Redact(url), err))
		if ctx.Err() != nil {
			break
		}
	}
	if skipped == len(o.Sources) {
		return fetched{}, model.Errorf(ErrSkipped, "%v", errors.Join(srcErrs...))
	}
	return fetched{}, errors.Join(srcErrs...)
}

// statusError is an HTTP answer other than 200.
type statusError struct {
	code   int
	status string
}

func (e *statusError) Error() string { return "HTTP " + e.status }

// importCSV checks the currency and the last line, then reads the file
// with the embedded catalog's importer.
func importCSV(body []byte, url, provider string, base *model.Catalog) ([]model.Instance, []model.Message, error) {
	if len(body) > 0 && body[len(body)-1] != '\n' {
		return nil, nil, model.Msg("truncated file: the last line has no newline")
	}
	if err := checkCurrency(body); err != nil {
		return nil, nil, err
	}
	current := map[string]*model.Instance{}
	for i := range base.Instances {
		if in := &base.Instances[i]; in.Provider == provider && in.Retired == "" {
			current[in.Type] = in
		}
	}
	if err := precheckCSV(body, current, provider); err != nil {
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
			return model.Msg("prices in %s, want USD (gpuplan ranks other currencies only with an exchange rate)", rec[col])
		}
	}
}

// Text is the summary in English, a line each (Lines).
func (s Summary) Text() string {
	var b strings.Builder
	for _, l := range s.Lines() {
		b.WriteString(l.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// Lines is the summary a line each, as messages for translation: per
// provider the types fetched and the file written, what was added,
// removed and moved, what the guards held back or flagged (a few
// examples of each), and the importer's notes. Indented lines start
// with their spaces, outside the message.
func (s Summary) Lines() []model.Message {
	var out []model.Message
	line := func(indent int, m model.Message) {
		if indent > 0 {
			m = model.Msg(strings.Repeat(" ", indent)+"%v", m)
		}
		out = append(out, m)
	}
	for _, n := range s.Notes {
		line(0, model.Msg("note: %v", n))
	}
	for _, p := range s.Providers {
		if p.Err != nil {
			// The error itself is Run's, printed once by the caller.
			if errors.Is(p.Err, ErrSkipped) { // as the error says: not asked, so not failed
				line(0, model.Msg("%s: skipped, %v", p.Provider, p.failure()))
				continue
			}
			line(0, model.Msg("%s: failed, %v", p.Provider, p.failure()))
			continue
		}
		line(0, model.Msg("%s: %d types from %s → %s", p.Provider, p.Types, p.URL, p.File))
		spot := 0
		for _, m := range p.Moved {
			if m.Spot {
				spot++
			}
		}
		line(2, model.Msg("added %d, removed %d, prices moved >10%%: %d on demand, %d spot", len(p.Added), len(p.Removed), len(p.Moved)-spot, spot))
		for _, l := range []struct {
			what  model.Message
			types []string
		}{{model.Msg("added"), p.Added}, {model.Msg("removed"), p.Removed}} {
			if len(l.types) > 0 {
				line(4, model.Msg("%v: %v", l.what, namedFew(l.types)))
			}
		}
		if len(p.NewRegions) > 0 {
			line(2, model.Msg("new regions (%d, none in the catalog before): %v", len(p.NewRegions), namedFew(p.NewRegions)))
		}
		if len(p.UnknownRegions) > 0 {
			line(2, model.Msg("regions the catalog's region list does not know for %s (%d): %v", p.Provider, len(p.UnknownRegions), namedFew(p.UnknownRegions)))
		}
		shownSpot := 0
		for _, m := range p.Moved {
			if !m.Spot {
				line(2, model.Msg("%s %s: $%.2f → $%.2f/h (%+.0f%%)", m.Type, m.Region, m.From, m.To, (m.To/m.From-1)*100))
				continue
			}
			if shownSpot++; shownSpot <= shownExamples {
				line(2, model.Msg("%s %s spot: $%.2f → $%.2f/h (%+.0f%%)", m.Type, m.Region, m.From, m.To, (m.To/m.From-1)*100))
			}
		}
		if n := shownSpot - shownExamples; n > 0 {
			line(4, model.Msg("… and %d more spot moves", n))
		}
		if len(p.Held) == 0 {
			line(2, model.Msg("guards: %d region prices checked, none held back", p.Prices))
		} else {
			line(2, model.Msg("guards: %d of %d region prices held back (not written, so never ranked):", len(p.Held), p.Prices))
			examples(line, p.Held)
		}
		if len(p.Flags) > 0 {
			line(2, model.Msg("guards: %d other findings (written):", len(p.Flags)))
			examples(line, p.Flags)
		}
		for _, w := range p.Warnings[:min(len(p.Warnings), 2*shownExamples)] {
			line(2, model.Msg("note: %v", w))
		}
		if n := len(p.Warnings) - 2*shownExamples; n > 0 {
			line(2, model.Msg("… and %d more notes", n))
		}
	}
	return out
}

// newRegions lists, sorted, the regions insts price that no instance of
// provider in base has.
func newRegions(base *model.Catalog, provider string, insts []model.Instance) []string {
	known := map[string]bool{}
	for i := range base.Instances {
		if in := &base.Instances[i]; in.Provider == provider {
			for _, p := range in.Prices {
				known[p.Region] = true
			}
		}
	}
	var out []string
	for i := range insts {
		for _, p := range insts[i].Prices {
			if !known[p.Region] {
				known[p.Region] = true
				out = append(out, p.Region)
			}
		}
	}
	sort.Strings(out)
	return out
}

// unknownRegions lists, sorted, the regions insts price that base's
// region geography does not place for provider (none when base has no
// table for provider).
func unknownRegions(base *model.Catalog, provider string, insts []model.Instance) []string {
	if !slices.ContainsFunc(base.Regions, func(r model.ProviderRegions) bool { return r.Provider == provider }) {
		return nil
	}
	geo := &model.Catalog{Regions: base.Regions} // Geo indexes its catalog: not base, which may be shared
	seen := map[string]bool{}
	var out []string
	for i := range insts {
		for _, p := range insts[i].Prices {
			if _, ok := geo.Geo(provider, p.Region); !ok && !seen[p.Region] {
				seen[p.Region] = true
				out = append(out, p.Region)
			}
		}
	}
	sort.Strings(out)
	return out
}

// namedFew is the first shownExamples names, comma-separated, and "and N
// more" after them: a summary says which types came and went, so one
// made up by a mirror is seen (re-attack 5, finding 5).
func namedFew(names []string) model.Message {
	shown := strings.Join(names[:min(len(names), shownExamples)], ", ")
	if n := len(names) - shownExamples; n > 0 {
		return model.Msg("%s and %d more", shown, n)
	}
	return model.Msg("%s", shown)
}

// shownExamples is how many findings of a kind the summary shows.
const shownExamples = 3

// examples adds the first few findings, one a line, and how many more.
func examples(line func(int, model.Message), gs []data.Guard) {
	for _, g := range gs[:min(len(gs), shownExamples)] {
		line(4, g.Message())
	}
	if n := len(gs) - shownExamples; n > 0 {
		line(4, model.Msg("… and %d more", n))
	}
}
