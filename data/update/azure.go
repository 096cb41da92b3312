package update

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gpuplan/gpuplan/model"
)

// DefaultAzureSources is the Azure Retail Prices API, which gives "an
// unauthenticated experience to get retail rates for all Azure services"
// (Microsoft Learn, "Azure Retail Prices overview").
var DefaultAzureSources = []string{"https://prices.azure.com/api/retail/prices"}

// DefaultMaxPages bounds the Retail Prices API pages one update follows.
// The N-series meters of every region (≈150 sizes × ≈60 regions × Linux,
// Windows, spot and low-priority meters) are tens of thousands of items at
// 100 a page; a NextPageLink chain longer than this is a broken or hostile
// server, not data.
const DefaultMaxPages = 1000

// azureMaxPage caps one API page (a 1000-item page is ≈1 MB).
const azureMaxPage = 16 << 20

// azureQuery selects pay-as-you-go and spot meters of the N-series (GPU)
// sizes in every region; Windows and Low Priority meters are dropped
// here. Filter values are case-sensitive from API version
// 2023-01-01-preview (Microsoft Learn, "Azure Retail Prices overview").
const azureQuery = "api-version=2023-01-01-preview&$filter=" +
	"serviceName%20eq%20%27Virtual%20Machines%27%20and%20priceType%20eq%20%27Consumption%27%20and%20contains(armSkuName,%27Standard_N%27)"

// maxUSDPerHour is the catalog's own ceiling on an instance-hour
// (docs/schemas.md, "Catalog files"); a row above it would make the overlay fail to load.
const maxUSDPerHour = 10000

// plainName is what a size or region name from a price list may look like
// before it goes into an overlay (the loader refuses control characters,
// bidi overrides and long names; this is stricter).
var plainName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.\-]{0,95}$`) })

// azureShape is a GPU size the embedded catalog lacks, with its source.
type azureShape struct {
	gpu          string
	gpuCount     int
	vcpus        int
	memGiB       float64
	interconnect string
	arch         string
	source       string
}

// azureShapes are the Azure GPU sizes the fetcher may add: an armSkuName
// neither here nor in the embedded catalog is left out (and counted in a
// warning), because the price list carries no shape.
var azureShapes = map[string]azureShape{
	"Standard_ND96isr_H200_v5": {gpu: "h200", gpuCount: 8, vcpus: 96, memGiB: 1850, interconnect: "nvswitch",
		source: "shape: aspire.dev Azure AKS node sizes (microsoft/aspire AksNodeVmSizes.cs @ 5bd693ae): 'Standard_ND96isr_H200_v5 -- 96 vCPUs -- 1850 GB RAM -- 8 GPU(s)'; an 8-GPU H200 SXM VM is one HGX board (NVSwitch)"},
	"Standard_ND96isr_MI300X_v5": {gpu: "mi300x", gpuCount: 8, vcpus: 96, memGiB: 1850, interconnect: "infinity-fabric",
		source: "shape: Microsoft Learn, ND MI300X v5 series (MicrosoftDocs/azure-docs nd-mi300x-v5-series.md): 'Standard_ND96isr_MI300X_v5 | 96 | 1850 | 1000 | 8 MI300X | 192'"},
	"Standard_ND128isr_NDR_GB200_v6": {gpu: "gb200", gpuCount: 4, vcpus: 128, memGiB: 864, interconnect: "nvlink", arch: "arm64",
		source: "shape: Microsoft Learn, ND GB200 v6 series (nd-gb200-v6-series): two NVIDIA Grace CPUs and four Blackwell GPUs on fifth-generation NVLink, 128 vCPUs; memory: aspire.dev AKS node sizes 'Standard_ND128isr_NDR_GB200_v6 -- 128 vCPUs -- 864 GB RAM'"},
}

// azurePage is one Retail Prices API response: {"BillingCurrency",
// "Items": [...], "NextPageLink", "Count"} (Microsoft Learn, "Azure
// Retail Prices overview", API response). Pointers tell a missing field
// (a renamed one) from a zero.
type azurePage struct {
	Items        *[]azureItem `json:"Items"`
	NextPageLink *string      `json:"NextPageLink"`
}

type azureItem struct {
	CurrencyCode       *string  `json:"currencyCode"`
	RetailPrice        *float64 `json:"retailPrice"`
	ArmRegionName      *string  `json:"armRegionName"`
	ArmSkuName         *string  `json:"armSkuName"`
	SkuName            string   `json:"skuName"`
	ProductName        string   `json:"productName"`
	UnitOfMeasure      string   `json:"unitOfMeasure"`
	Type               string   `json:"type"`
	EffectiveStartDate string   `json:"effectiveStartDate"`
}

// azureMeter is one price kept for a size, region and mode.
type azureMeter struct {
	usd   float64
	start string // effectiveStartDate: the newest meter wins
}

// azurePrices holds a size's on-demand ([0]) and spot ([1]) meters per region.
type azurePrices map[string]map[string]*[2]azureMeter

// parseAzurePage reads one page into prices and returns its NextPageLink
// and number of items.
// A non-USD item, a missing field or malformed JSON is an error; meters
// gpuplan does not rank (Windows, Low Priority, dev/test, not hourly) and
// names that could not go into an overlay are skipped.
func parseAzurePage(body []byte, prices azurePrices, skipped map[string]bool) (string, int, error) {
	var p azurePage
	if err := decodeStrict(body, &p); err != nil {
		return "", 0, model.Msg("malformed JSON: %v", err)
	}
	if p.Items == nil {
		return "", 0, model.Msg(`no "Items" array: the API's response format changed`)
	}
	for i, it := range *p.Items {
		for _, f := range []struct {
			name string
			ok   bool
		}{{"currencyCode", it.CurrencyCode != nil}, {"retailPrice", it.RetailPrice != nil}, {"armRegionName", it.ArmRegionName != nil}, {"armSkuName", it.ArmSkuName != nil}} {
			if !f.ok {
				return "", 0, model.Msg("item %d has no %q: the API's response format changed", i, f.name)
			}
		}
		if *it.CurrencyCode != "USD" {
			return "", 0, model.Msg("prices in %q, want USD (gpuplan ranks other currencies only with an exchange rate)", *it.CurrencyCode)
		}
		sku, region, usd := *it.ArmSkuName, *it.ArmRegionName, *it.RetailPrice
		if it.Type != "Consumption" || it.UnitOfMeasure != "1 Hour" || strings.Contains(it.ProductName, "Windows") ||
			strings.Contains(it.SkuName, "Low Priority") || !(usd > 0) || usd > maxUSDPerHour {
			continue
		}
		if !plainName().MatchString(sku) || !plainName().MatchString(region) {
			skipped[fmt.Sprintf("%.40q", sku)] = true
			continue
		}
		mode := 0
		if strings.Contains(it.SkuName, "Spot") {
			mode = 1
		}
		if prices[sku] == nil {
			prices[sku] = map[string]*[2]azureMeter{}
		}
		m := prices[sku][region]
		if m == nil {
			m = new([2]azureMeter)
			prices[sku][region] = m
		}
		if old := m[mode]; old.usd == 0 || it.EffectiveStartDate > old.start || (it.EffectiveStartDate == old.start && usd < old.usd) {
			m[mode] = azureMeter{usd, it.EffectiveStartDate}
		}
	}
	if p.NextPageLink == nil {
		return "", len(*p.Items), nil
	}
	return *p.NextPageLink, len(*p.Items), nil
}

// azurePageSize is the API's page size: "the API returns 100 records per
// page" with $skip to page (Microsoft Learn Q&A 1188465, quoting the
// overview's "API response pagination").
const azurePageSize = 100

// fetchAzure reads the N-series prices from each of o.AzureSources in turn
// (a 429 or failure moves to the next), following NextPageLink on the
// same host for at most o.MaxPages pages, and maps the sizes to the
// catalog's Azure types or to azureShapes.
func fetchAzure(ctx context.Context, o Options, g *getter, base *model.Catalog) (fetched, error) {
	var srcErrs []error
	for _, src := range o.AzureSources {
		first := strings.TrimSuffix(src, "?") + "?" + azureQuery
		prices, skipped, final, err := fetchAzurePages(ctx, o, g, first)
		if err == nil {
			f := azureInstances(base, prices, skipped)
			f.url = sourceURL(final) // where the first page came from, without the filter
			if len(f.insts) == 0 {
				err = errors.New("no N-series size of the catalog in the answer")
			} else {
				return f, nil
			}
		}
		srcErrs = append(srcErrs, model.Msg("%s: %v", Redact(src), err))
		if ctx.Err() != nil {
			break
		}
	}
	return fetched{}, errors.Join(srcErrs...)
}

// fetchAzurePages follows the pages from first and returns their meters
// and the URL the first page finally came from.
func fetchAzurePages(ctx context.Context, o Options, g *getter, first string) (azurePrices, map[string]bool, string, error) {
	start, err := url.Parse(first)
	if err != nil {
		return nil, nil, "", err
	}
	prices, skipped := azurePrices{}, map[string]bool{}
	next, seen, final := first, 0, first
	// visited catches a NextPageLink that points back at a page already
	// read: without it a self-link costs MaxPages fetches before failing.
	visited := map[string]int{}
	for page := 1; next != ""; page++ {
		if page > o.MaxPages {
			return nil, nil, "", model.Msg("more than %d pages: the answer never ends; if the price list really grew, a newer gpuplan reads more", o.MaxPages)
		}
		u, err := url.Parse(next)
		if err != nil || u.Scheme != start.Scheme || u.Host != start.Host {
			return nil, nil, "", model.Msg("page %d: NextPageLink %.80q leaves %s", page, next, start.Host)
		}
		if p, ok := visited[u.String()]; ok {
			return nil, nil, "", model.Msg("page %d: NextPageLink %.80q points back at page %d: the pages loop", page, next, p)
		}
		visited[u.String()] = page
		body, got, err := g.get(ctx, next, azureMaxPage)
		// The API answers 429 under load; gpuhunt waits 3 s and retries
		// (catalog audit §4). Three tries, 3 s and 6 s apart, then the
		// next source.
		for try := 1; try < 3 && isTooMany(err) && ctx.Err() == nil; try++ {
			o.Sleep(ctx, time.Duration(try)*3*time.Second)
			body, got, err = g.get(ctx, next, azureMaxPage)
		}
		if err != nil {
			return nil, nil, "", model.Msg("page %d: %v", page, err)
		}
		if page == 1 {
			final = got
		}
		var n int
		if next, n, err = parseAzurePage(body, prices, skipped); err != nil {
			return nil, nil, "", model.Msg("page %d: %v", page, err)
		}
		seen += n
		if next == "" && n >= azurePageSize {
			// A full page without a NextPageLink: the API has left the link
			// out before (Microsoft Learn Q&A 1188465, 2023-03-10); page on
			// with $skip until a short page, as its workaround says.
			next = first + "&$skip=" + strconv.Itoa(seen)
		}
	}
	return prices, skipped, final, nil
}

func isTooMany(err error) bool {
	var se *statusError
	return errors.As(err, &se) && se.code == http.StatusTooManyRequests
}

// azureInstances turns the meters into instances: a size the catalog has
// keeps its catalog shape, a retired one is left out (a price list may
// outlive the size), an azureShapes size is added, any other is counted.
func azureInstances(base *model.Catalog, prices azurePrices, skipped map[string]bool) fetched {
	var f fetched
	f.credit = "Data: Azure Retail Prices API (Microsoft), USD list prices."
	known := map[string]*model.Instance{}
	for i := range base.Instances {
		if in := &base.Instances[i]; in.Provider == "azure" {
			known[in.Type] = in
		}
	}
	var unknown, retired []string
	for _, sku := range slices.Sorted(maps.Keys(prices)) {
		in := model.Instance{Provider: "azure", Type: sku}
		if k := known[sku]; k != nil {
			if k.Retired != "" {
				retired = append(retired, sku)
				continue
			}
			in.GPU, in.GPUCount, in.VCPUs, in.MemoryGiB = k.GPU, k.GPUCount, k.VCPUs, k.MemoryGiB
			in.Interconnect, in.CPUArch, in.SkyPilotAccelerator = k.Interconnect, k.CPUArch, k.SkyPilotAccelerator
		} else if s, ok := azureShapes[sku]; ok {
			in.GPU, in.GPUCount, in.VCPUs, in.MemoryGiB = s.gpu, s.gpuCount, s.vcpus, s.memGiB
			in.Interconnect, in.CPUArch, in.Source = s.interconnect, s.arch, s.source
		} else {
			unknown = append(unknown, sku)
			continue
		}
		for _, region := range slices.Sorted(maps.Keys(prices[sku])) {
			m := prices[sku][region]
			if m[0].usd == 0 && m[1].usd == 0 {
				continue
			}
			in.Prices = append(in.Prices, model.RegionPrice{Region: region, OnDemandUSD: m[0].usd, SpotUSD: m[1].usd})
		}
		f.insts = append(f.insts, in)
	}
	if len(unknown) > 0 {
		f.warnings = append(f.warnings, model.Msg("%d N-series sizes have no shape in the catalog or the fetcher's table and were left out: %s", len(unknown), sample(unknown)))
	}
	if len(retired) > 0 {
		f.warnings = append(f.warnings, model.Msg("%d retired sizes still priced, left retired: %s", len(retired), sample(retired)))
	}
	if len(skipped) > 0 {
		names := slices.Sorted(maps.Keys(skipped))
		f.warnings = append(f.warnings, model.Msg("%d meters with unusable names skipped: %s", len(names), sample(names)))
	}
	return f
}

// sample names the first few of a sorted list.
func sample(names []string) string {
	sort.Strings(names)
	if len(names) > 5 {
		return strings.Join(names[:5], ", ") + fmt.Sprintf(", … (%d more)", len(names)-5)
	}
	return strings.Join(names, ", ")
}
