package update

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
)

// OCISource is one place to read Oracle's public price list (part number
// → PAY_AS_YOU_GO price per currency) and the cost estimator's shapes
// (GPU count, OCPUs, memory, billed part number). Both need no
// credentials (SkyPilot sky/catalog/data_fetchers/fetch_oci.py; catalog
// audit §4).
type OCISource struct {
	Products, Shapes string
}

// DefaultOCISources are Oracle's own URLs.
var DefaultOCISources = []OCISource{{
	Products: "https://apexapps.oracle.com/pls/apex/cetools/api/v1/products/",
	Shapes:   "https://www.oracle.com/a/ocom/docs/cloudestimator2/data/shapes.json",
}}

// ociMaxBody caps each of the two files (the price list is ≈1 MB).
const ociMaxBody = 32 << 20

// ociPreemptible is the preemptible price as a share of on-demand:
// "Preemptible instances are billed at 50% of the on-demand price"
// (docs.oracle.com Compute/Concepts/preemptible.htm, as fetch_oci.py
// cites it).
const ociPreemptible = 0.5

// ociShapeName is a GPU shape: BM.GPU.H100.8, VM.GPU3.1, BM.GPU.A100-v2.8
// (OCI "Compute Shapes"; the pattern of fetch_oci.py).
var ociShapeName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:BM|VM)\.(GPU\d?)(?:\.([A-Za-z0-9-]+))?\.(\d+)$`) })

// ociGPUs maps a shape's GPU token to the catalog's GPU key. Sources: OCI
// "Compute Shapes" (docs.oracle.com computeshapes.htm): GPU2 = P100,
// GPU3 = V100 16 GB, GPU4 = A100 40 GB SXM, A100-v2 = A100 80 GB SXM,
// RTXPRO = RTX PRO 6000 Blackwell Server, as fetch_oci.py's
// ACCELERATOR_NAME_OVERRIDES and GPU_MEMORY_GB spell them; the rest name
// their GPU.
var ociGPUs = map[string]string{
	"GPU2": "p100", "GPU3": "v100-16gb", "GPU4": "a100-40gb", "A100-v2": "a100-80gb",
	"A10": "a10", "L40S": "l40s", "H100": "h100-sxm", "H200": "h200", "B200": "b200", "B300": "b300",
	"GB200": "gb200", "GB300": "gb300", "MI300X": "mi300x", "MI355X": "mi355x", "RTXPRO": "rtx-pro-6000",
}

// ociArm are the GPU tokens of shapes on NVIDIA Grace (arm64, one vCPU per
// OCPU: no SMT); x86 OCPUs are two vCPUs (fetch_oci.py, OCI docs).
var ociArm = map[string]bool{"GB200": true, "GB300": true}

// ociShapeSpec overrides OCPUs and memory (GB) where the estimator has none
// or a wrong one, from OCI's shape table as fetch_oci.py's
// SHAPE_SPEC_OVERRIDES quotes it.
var ociShapeSpec = map[string][2]int{
	"BM.GPU.GB200.4":  {144, 960},
	"BM.GPU.GB300.4":  {144, 960},
	"BM.GPU.B300.8":   {128, 4096},
	"BM.GPU.RTXPRO.8": {144, 3072},
}

type ociProducts struct {
	Items *[]struct {
		PartNumber                *string `json:"partNumber"`
		MetricName                string  `json:"metricName"`
		CurrencyCodeLocalizations []struct {
			CurrencyCode string `json:"currencyCode"`
			Prices       []struct {
				Model string   `json:"model"`
				Value *float64 `json:"value"`
			} `json:"prices"`
		} `json:"currencyCodeLocalizations"`
	} `json:"items"`
}

type ociShapes struct {
	Items *[]struct {
		Name             *string  `json:"name"`
		Status           string   `json:"status"`
		Hidden           bool     `json:"hidden"`
		GPUQty           *float64 `json:"gpuQty"`
		BundleMemoryQty  float64  `json:"bundleMemoryQty"`
		AllowPreemptible bool     `json:"allowPreemptible"`
		SubType          struct {
			Value string `json:"value"`
		} `json:"subType"`
		Products []struct {
			Type struct {
				Value string `json:"value"`
			} `json:"type"`
			PartNumber string  `json:"partNumber"`
			Qty        float64 `json:"qty"`
		} `json:"products"`
	} `json:"items"`
}

// ociPrice is a part's USD pay-as-you-go price and billing metric.
type ociPrice struct {
	usd    float64
	metric string
}

// parseOCIProducts maps part numbers to USD PAY_AS_YOU_GO prices. A file
// with no "items", items without partNumber, or no USD price at all is an
// error.
func parseOCIProducts(body []byte) (map[string]ociPrice, error) {
	var p ociProducts
	if err := decodeStrict(body, &p); err != nil {
		return nil, model.Msg("price list: malformed JSON: %v", err)
	}
	if p.Items == nil {
		return nil, model.Msg(`price list: no "items" array: the format changed`)
	}
	out := map[string]ociPrice{}
	var other string
	for i, it := range *p.Items {
		if it.PartNumber == nil {
			return nil, model.Msg("price list: item %d has no \"partNumber\": the format changed", i)
		}
		for _, l := range it.CurrencyCodeLocalizations {
			if l.CurrencyCode != "USD" {
				other = l.CurrencyCode
				continue
			}
			for _, pr := range l.Prices {
				if pr.Model == "PAY_AS_YOU_GO" && pr.Value != nil && *pr.Value > 0 {
					out[*it.PartNumber] = ociPrice{*pr.Value, it.MetricName}
				}
			}
		}
	}
	if len(out) == 0 && other != "" {
		return nil, model.Msg("price list: prices in %q, want USD (gpuplan ranks other currencies only with an exchange rate)", other)
	}
	return out, nil
}

// ociInstances prices the active GPU shapes. A shape the catalog has keeps
// its catalog shape and regions; a new one takes its figures from the
// estimator (with ociShapeSpec) and the regions the catalog lists for OCI
// (OCI prices are the same in every commercial region; availability per
// region is not published).
func ociInstances(body []byte, prices map[string]ociPrice, base *model.Catalog) (fetched, error) {
	var s ociShapes
	if err := decodeStrict(body, &s); err != nil {
		return fetched{}, model.Msg("shapes: malformed JSON: %v", err)
	}
	if s.Items == nil {
		return fetched{}, model.Msg(`shapes: no "items" array: the format changed`)
	}
	known := map[string]*model.Instance{}
	allRegions := map[string]bool{}
	for i := range base.Instances {
		if in := &base.Instances[i]; in.Provider == "oci" {
			known[in.Type] = in
			for _, p := range in.Prices {
				allRegions[p.Region] = true
			}
		}
	}
	regions := slices.Sorted(maps.Keys(allRegions))
	f := fetched{credit: "Data: Oracle Cloud price list (cetools) and cost-estimator shapes, USD list prices."}
	var skipped []string
	for i, sh := range *s.Items {
		if sh.Name == nil {
			return fetched{}, model.Msg("shapes: item %d has no \"name\": the format changed", i)
		}
		// The estimator appends display notes: "BM.GPU.GB200.4 (NVL72)".
		name, _, _ := strings.Cut(*sh.Name, " (")
		name = strings.TrimSpace(name)
		if sh.SubType.Value != "gpu" || sh.Status != "ACTIVE" || sh.Hidden {
			continue
		}
		m := ociShapeName().FindStringSubmatch(name)
		if m == nil || sh.GPUQty == nil || *sh.GPUQty < 1 || *sh.GPUQty > 64 {
			skipped = append(skipped, fmt.Sprintf("%.40q", name))
			continue
		}
		token := m[2]
		if token == "" {
			token = m[1]
		}
		gpus := int(*sh.GPUQty)
		ocpus, memGB := 0.0, sh.BundleMemoryQty
		var part string
		for _, p := range sh.Products {
			if p.Type.Value == "ocpu" {
				part, ocpus = p.PartNumber, p.Qty
			}
		}
		if spec, ok := ociShapeSpec[name]; ok {
			ocpus, memGB = float64(spec[0]), float64(spec[1])
		}
		pr, ok := prices[part]
		gpu := ociGPUs[token]
		// Bounds keep a hostile file from writing a size the loader refuses
		// (which would stop every later command) or a host no cloud sells
		// (data.HostFits: 99,999,999 GiB passed every offload fit check).
		if !ok || gpu == "" || !(ocpus > 0 && ocpus <= data.MaxVCPUs) || !(memGB > 0) || data.HostFits(int(ocpus)*2, memGB) != nil {
			skipped = append(skipped, name)
			continue
		}
		var usd float64
		switch metric := strings.ToUpper(pr.metric); {
		case strings.Contains(metric, "GPU"):
			usd = pr.usd * float64(gpus)
		case strings.Contains(metric, "OCPU"):
			usd = pr.usd * ocpus
		default:
			skipped = append(skipped, name)
			continue
		}
		if usd > maxUSDPerHour {
			skipped = append(skipped, name)
			continue
		}
		in := model.Instance{Provider: "oci", Type: name, GPU: gpu, GPUCount: gpus, MemoryGiB: memGB}
		in.VCPUs = int(ocpus) * 2
		if ociArm[token] {
			in.VCPUs, in.CPUArch = int(ocpus), "arm64"
		}
		in.Source = "shape: Oracle cost-estimator shapes.json (gpuQty, OCPUs × 2 vCPUs on x86, 1 on Grace; bundleMemoryQty), overrides from OCI's shape table as SkyPilot fetch_oci.py quotes it"
		where := regions
		if k := known[name]; k != nil {
			if k.Retired != "" {
				continue
			}
			in.GPU, in.GPUCount, in.VCPUs, in.MemoryGiB, in.CPUArch = k.GPU, k.GPUCount, k.VCPUs, k.MemoryGiB, k.CPUArch
			where = nil
			for _, p := range k.Prices {
				where = append(where, p.Region)
			}
		}
		for _, r := range where {
			p := model.RegionPrice{Region: r, OnDemandUSD: usd}
			if sh.AllowPreemptible {
				p.SpotUSD = usd * ociPreemptible
			}
			in.Prices = append(in.Prices, p)
		}
		f.insts = append(f.insts, in)
	}
	slices.SortFunc(f.insts, func(a, b model.Instance) int { return strings.Compare(a.Type, b.Type) })
	if len(f.insts) == 0 {
		return fetched{}, model.Msg("no priced GPU shape: the shapes or the price list changed")
	}
	if len(skipped) > 0 {
		f.warnings = append(f.warnings, model.Msg("%d GPU shapes without a known GPU, price or size left out: %s", len(skipped), sample(skipped)))
	}
	return f, nil
}

// fetchOCI reads the price list and shapes from each of o.OCISources in
// turn until one pair answers.
func fetchOCI(ctx context.Context, o Options, g *getter, base *model.Catalog) (fetched, error) {
	var srcErrs []error
	for _, src := range o.OCISources {
		var final string
		f, err := func() (fetched, error) {
			pb, got, err := g.get(ctx, src.Products, ociMaxBody)
			final = got
			if err != nil {
				return fetched{}, model.Msg("price list: %v", err)
			}
			prices, err := parseOCIProducts(pb)
			if err != nil {
				return fetched{}, err
			}
			sb, _, err := g.get(ctx, src.Shapes, ociMaxBody)
			if err != nil {
				return fetched{}, model.Msg("shapes: %v", err)
			}
			return ociInstances(sb, prices, base)
		}()
		if err == nil {
			f.url = sourceURL(final) // the price list, where it finally came from
			return f, nil
		}
		srcErrs = append(srcErrs, model.Msg("%s: %v", Redact(src.Products), err))
		if ctx.Err() != nil {
			break
		}
	}
	return fetched{}, errors.Join(srcErrs...)
}
