package model

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agnivade/levenshtein"
)

// GPU is one accelerator model as its vendor's datasheet states it. Peak
// rates are dense (no 2:4 sparsity) tensor-core figures where the GPU has
// tensor cores for that format, and 0 where the format is unsupported.
type GPU struct {
	Key          string   // catalog key: "a100-80gb"
	Name         string   // "NVIDIA A100 80GB SXM"
	Aliases      []string // other names clouds use: "A100-80GB"
	Vendor       string   // "nvidia", "amd"
	Architecture string   // "ampere", "hopper", "cdna3"
	// ComputeCapability is CUDA's major.minor ("8.0"); empty for non-NVIDIA.
	ComputeCapability string
	// MemoryGiB is the memory per GPU in GiB (2³⁰ bytes) as the vendor states it.
	MemoryGiB float64
	// UsableMemoryMiB is the total the driver exposes when it is lower
	// than MemoryGiB: the CUDA runtime's total (torch.cuda.mem_get_info,
	// get_device_properties total_memory), which vLLM's
	// gpu_memory_utilization multiplies (vllm/v1/worker/gpu_worker.py
	// determine_available_memory), where a reading is sourced, else
	// nvidia-smi's total or the cloud's API; e.g. 22587 MiB on the "24 GB"
	// A10G (data/catalog/gpus.toml cites each). 0 when unknown or equal.
	UsableMemoryMiB     float64
	MemoryBandwidthGBps float64 // 10⁹ bytes/s
	FP32TFLOPS          float64 // dense, 10¹² FLOP/s, CUDA cores
	TF32TFLOPS          float64 // dense tensor-core
	FP16TFLOPS          float64 // dense tensor-core, fp32 accumulate where the datasheet distinguishes
	BF16TFLOPS          float64
	FP8TFLOPS           float64
	INT8TOPS            float64
	Interconnect        string  // "nvlink", "pcie", "infinity-fabric"
	InterconnectGBps    float64 // GPU-to-GPU bandwidth per GPU, 10⁹ bytes/s, both directions
	TDPWatts            float64
	Source              string
	AsOf                string // YYYY-MM-DD
}

// MemoryBytes returns the memory the workload can use, in bytes: the
// driver-reported size when known, else the vendor's GiB.
func (g *GPU) MemoryBytes() float64 {
	if g.UsableMemoryMiB > 0 && g.UsableMemoryMiB < g.MemoryGiB*1024 {
		return g.UsableMemoryMiB * MiB
	}
	return g.MemoryGiB * GiB
}

// CCAtLeast reports whether the compute capability is ≥ major.minor.
// Non-NVIDIA GPUs (empty capability) are treated by architecture name in
// Supports.
func (g *GPU) CCAtLeast(major, minor int) bool {
	// "8.0": one digit each side, as every catalog GPU has it, read
	// without strconv (asked for each offer's warnings, ~1,100 a ranking).
	if c := g.ComputeCapability; len(c) == 3 && c[1] == '.' && isDigit(c[0]) && isDigit(c[2]) {
		ma, mi := int(c[0]-'0'), int(c[2]-'0')
		return ma > major || ma == major && mi >= minor
	}
	a, b, ok := strings.Cut(g.ComputeCapability, ".")
	ma, err1 := strconv.Atoi(a)
	mi, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil {
		return false
	}
	return ma > major || ma == major && mi >= minor
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// Supports reports whether the GPU runs p natively, and if not, what the
// frameworks fall back to. bf16 and tf32 need compute capability ≥ 8.0
// (Ampere), fp8 ≥ 8.9 (Ada, Hopper) per the CUDA C++ Programming Guide's
// table of arithmetic instructions; AMD CDNA2+ has bf16, CDNA3 fp8.
func (g *GPU) Supports(p Precision) (ok bool, fallback Precision) {
	switch p {
	case TF32:
		if g.TF32TFLOPS > 0 {
			return true, ""
		}
		return false, FP32
	case AMPBF16:
		if g.BF16TFLOPS > 0 {
			return true, ""
		}
		return false, AMPFP16
	case BF16:
		if g.BF16TFLOPS > 0 {
			return true, ""
		}
		return false, FP16
	case FP8:
		if g.FP8TFLOPS > 0 {
			return true, ""
		}
		if g.BF16TFLOPS > 0 {
			return false, BF16
		}
		return false, FP16
	case AMPFP16, FP16:
		if g.FP16TFLOPS > 0 {
			return true, ""
		}
		return false, FP32
	}
	return true, ""
}

// FlashAttention reports whether FlashAttention-2 kernels run on the GPU
// (compute capability ≥ 8.0, per the flash-attention README); older GPUs
// fall back to PyTorch's memory-efficient SDPA kernel, which also avoids
// storing the s² attention matrix.
func (g *GPU) FlashAttention() bool { return g.CCAtLeast(8, 0) || g.Vendor == "amd" }

// RunPrecision returns the precision a job asking for p stores and trains
// in on g: p when supported, else the framework's fallback (Supports), kept
// mixed-precision for training (no bf16: amp-fp16; no fp8: amp-bf16). ok is
// false when there is no fallback a framework would pick: pure bf16
// training on a GPU without bf16.
func (g *GPU) RunPrecision(p Precision, training bool) (run Precision, ok bool) {
	supported, fb := g.Supports(p)
	switch {
	case supported:
		return p, true
	case fb == "" || training && p == BF16:
		return p, false
	case training && fb == FP16:
		return AMPFP16, true
	case training && fb == BF16:
		return AMPBF16, true
	}
	return fb, true
}

// ComputePrecision returns the format p's matmuls run in on g: p itself,
// or its fallbacks in turn (bf16 → fp16 → fp32) until one has a published
// rate. Weight-only int8/int4 inference computes in 16-bit.
func (g *GPU) ComputePrecision(p Precision) Precision {
	switch p {
	case INT8, INT4:
		p = BF16
	}
	for range 4 {
		if ok, fb := g.Supports(p); !ok && fb != "" {
			p = fb
			continue
		}
		if g.rate(p) > 0 || p == FP32 {
			return p
		}
		switch p { // supported but unpublished: try the next slower format
		case FP8:
			p = BF16
		case AMPBF16:
			p = AMPFP16
		case BF16:
			p = FP16
		case AMPFP16, FP16, TF32:
			p = FP32
		}
	}
	return p
}

// PeakTFLOPS returns the dense peak rate for p on g after any fallback
// (see ComputePrecision), in 10¹² FLOP/s; 0 when unpublished.
func (g *GPU) PeakTFLOPS(p Precision) float64 { return g.rate(g.ComputePrecision(p)) }

func (g *GPU) rate(p Precision) float64 {
	switch p {
	case FP32:
		return g.FP32TFLOPS
	case TF32:
		return g.TF32TFLOPS
	case AMPBF16, BF16:
		return g.BF16TFLOPS
	case FP8:
		return g.FP8TFLOPS
	}
	return g.FP16TFLOPS // amp-fp16, fp16, int8, int4
}

// Instance is one cloud instance type (a VM or bare-metal size) with its
// prices per region. GPU memory is per GPU (from the GPU entry); totals are
// derived, never stored.
type Instance struct {
	Provider     string // "aws", "gcp", "azure", "lambda", …
	Type         string // the provider's name: "p4d.24xlarge"
	GPU          string // GPU key
	GPUCount     int
	VCPUs        int
	MemoryGiB    float64 // host RAM, GiB
	LocalNVMeGB  float64 // local NVMe, 10⁹ bytes; 0 when none or unknown
	NetworkGbps  float64 // 0 when unknown
	Interconnect string  // between the instance's GPUs: "nvlink", "nvswitch", "pcie", "infinity-fabric"
	// Fabric is the GPU network between instances (Fabrics), "" when none
	// is known; the entry's Source names where it is stated.
	Fabric  string
	Prices  []RegionPrice
	Retired string // YYYY-MM-DD the provider retired the type; empty when offered
	// RetiredSource cites the retirement (or why the type cannot be used);
	// the entry's Source also carries it.
	RetiredSource string
	// MissingSince is the date a `gpuplan catalog update` fetch stopped
	// listing the type, MissingSource the fetch (URL and time). It is not
	// a retirement the provider announced, but the price is stale, so the
	// type is not ranked either (Offered); listings mark it.
	MissingSince, MissingSource string
	// SkyPilotAccelerator is SkyPilot's own accelerator name for the
	// type's GPUs ("A100-80GB", "H100-MEGA"), kept at import because a
	// SkyPilot task's accelerators field must spell it that way.
	SkyPilotAccelerator string
	// CPUArch is the host's CPU architecture, "x86_64" or "arm64" (Grace,
	// Graviton: Python wheels differ); empty means x86_64.
	CPUArch string
	// Currency is the ISO 4217 code of Prices; empty means USD. Offers in
	// another currency are ranked only with an exchange rate.
	Currency string
	// CurrencyFloor is set on an overlay's instance priced in another
	// currency than USD: the lowest USD per GPU-hour the load's
	// below-floor guard accepts, applied once the price is converted at
	// the query's rate (HeldAt); nil when none applies.
	CurrencyFloor *CurrencyFloor
	Source        string
	AsOf          string // YYYY-MM-DD
	Origin        string // where the entry was loaded from: "embedded" or an overlay path
}

// CurrencyFloor is the below-floor guard's bound for a price in another
// currency (Instance.CurrencyFloor), USD per GPU-hour; 0 means none.
type CurrencyFloor struct{ OnDemandUSD, SpotUSD float64 }

// HeldAt reports whether r is held from ranking: flagged by the load
// guards (r.Held), or, for an instance priced in another currency, an
// on-demand or spot price that converts at rates (USD per unit) below
// in.CurrencyFloor per GPU-hour — the guard judges the converted price
// (data.FloorGuards). Without a rate the price is not ranked anyway.
func HeldAt(in *Instance, r *RegionPrice, rates map[string]float64) bool {
	if r.Held {
		return true
	}
	f := in.CurrencyFloor
	if f == nil || in.GPUCount <= 0 {
		return false
	}
	fx := rates[in.PriceCurrency()]
	if !(fx > 0) {
		return false
	}
	n := float64(in.GPUCount)
	return r.OnDemandUSD > 0 && r.OnDemandUSD*fx/n < f.OnDemandUSD || r.SpotUSD > 0 && r.SpotUSD*fx/n < f.SpotUSD
}

// Retirement returns the date the provider retired the type and its
// source; ok is false when the type is still offered. Retired types are
// never ranked but stay listable (catalog instances --all).
func (in *Instance) Retirement() (date, source string, ok bool) {
	return in.Retired, in.RetiredSource, in.Retired != ""
}

// Offered reports whether the type may be ranked: neither retired nor
// missing from the latest price fetch.
func (in *Instance) Offered() bool { return in.Retired == "" && in.MissingSince == "" }

// OfferedProviders returns, sorted, the providers with an instance type
// that may be ranked (Instance.Offered): a provider whose every type is
// retired or gone from the latest fetch (cudo, retired 2026-03-31) has
// nothing to offer and is left out of lists to choose from.
func (c *Catalog) OfferedProviders() []string {
	var out []string
	for i := range c.Instances {
		if in := &c.Instances[i]; in.Offered() && !slices.Contains(out, in.Provider) {
			out = append(out, in.Provider)
		}
	}
	slices.Sort(out)
	return out
}

// Arch is the instance's CPU architecture, spelled as uname -m on Linux
// says it.
type Arch string

// CPU architectures.
const (
	ArchX86 Arch = "x86_64"
	ArchARM Arch = "arm64"
)

// Archs lists the architectures the filter accepts.
var Archs = []Arch{ArchX86, ArchARM}

// ProviderRetirement reports whether provider p has nothing left to
// offer because the catalog retired every one of its instance types
// (cudo: retired 2026-03-31, the day Cudo Compute shut its public cloud
// down): date is the latest retirement and source that type's citation.
// ok is false when p still offers a type, has one only missing from the
// latest fetch, or is not in the catalog.
func (c *Catalog) ProviderRetirement(p string) (date, source string, ok bool) {
	for i := range c.Instances {
		in := &c.Instances[i]
		if in.Provider != p {
			continue
		}
		if in.Retired == "" {
			return "", "", false
		}
		if in.Retired > date { // ISO dates order as strings
			date, source = in.Retired, in.RetiredSource
		}
	}
	return date, source, date != ""
}

// Arch returns the host CPU architecture, "x86_64" unless the catalog says
// otherwise.
func (in *Instance) Arch() string {
	if in.CPUArch == "" {
		return "x86_64"
	}
	return in.CPUArch
}

// PriceCurrency returns the ISO 4217 code of the instance's prices, "USD"
// unless the catalog says otherwise.
func (in *Instance) PriceCurrency() string {
	if in.Currency == "" {
		return "USD"
	}
	return in.Currency
}

// Listed returns the instances a listing shows: all of them with all set
// (retired ones included, for `catalog instances --all`), else only those
// still offered. The pointers are into c.Instances.
func (c *Catalog) Listed(all bool) []*Instance {
	out := make([]*Instance, 0, len(c.Instances))
	for i := range c.Instances {
		if all || c.Instances[i].Offered() {
			out = append(out, &c.Instances[i])
		}
	}
	return out
}

// RegionPrice is what an instance costs in one region, per hour for the
// whole instance, in each availability mode the provider sells there (in
// the instance's Currency, USD unless stated). 0 means not sold in that
// mode or unknown, never free: use Price. A type sold only under a
// reservation (GCP A4, A3 Ultra) has no OnDemandUSD and Reservation set.
type RegionPrice struct {
	Region      string
	OnDemandUSD float64
	SpotUSD     float64
	// FlexStartUSD is GCP's Dynamic Workload Scheduler flex-start price:
	// discounted (up to 53%, GKE "About GPU obtainability with flex-start")
	// but queued and capped at 7 days, so never ranked as on-demand.
	FlexStartUSD float64
	// CapacityBlockUSD is a capacity block bought ahead for a fixed
	// window (AWS "EC2 Capacity Blocks for ML").
	CapacityBlockUSD float64
	// Reservation is set when the type is sold here under a reservation
	// or committed-use contract whose price is not public.
	Reservation bool
	// Held is set when a price guard flagged this price and an overlay
	// set it (data.LoadWith: below the GPU's floor, a deep cut, far below
	// the provider's own price for the GPU...): it is never ranked unless
	// Catalog.TrustOverlays is set.
	Held bool
	// Beside is the price listed beside this one for the same type and
	// region. On a held price (Held) that an overlay set over a price of
	// the embedded catalog, it is that embedded price, with its provenance
	// in its Patch: listed and ranked in its place unless
	// Catalog.TrustOverlays (UseEmbeddedForHeld), so that a mistyped
	// overlay price does not hide the catalog's (walk: nebius 1×H100 at
	// 0.05 left offers with 0 rows where the catalog has $2.95), as catalog
	// update keeps the embedded row. On the embedded price
	// UseEmbeddedForHeld put back in its place, it is the held price, which
	// the market lists last, marked, when asked (market.Query.Held: offers
	// --all and the browser's --all list a superset of what they list
	// without it).
	Beside *RegionPrice
	// Patch is set when an overlay patched this region's price: its
	// source, origin and as_of; nil means the instance's. Behind a pointer,
	// so that the prices no overlay patched (all of a 100,000-row CSV's)
	// carry 8 bytes for it, not 48.
	Patch *PricePatch
}

// PricePatch is where an overlay's price for one region comes from
// (RegionPrice.Patch). Shared by the regions one patch sets: never
// modified once set.
type PricePatch struct{ Source, Origin, AsOf string }

// Patched returns rp's Patch, zero when there is none.
func (rp *RegionPrice) Patched() PricePatch {
	if rp.Patch == nil {
		return PricePatch{}
	}
	return *rp.Patch
}

// Availability modes a price belongs to, spelled as in TOML and on the
// command line. On-demand and spot are the Pricing values of the same name.
const (
	FlexStart     Pricing = "flex-start"     // GCP DWS flex-start
	CapacityBlock Pricing = "capacity-block" // AWS EC2 Capacity Blocks
	Reservation   Pricing = "reservation"    // reservation or committed use, price not public
)

// AvailabilityModes lists every mode a RegionPrice can hold, in the order
// detail views show them.
var AvailabilityModes = []Pricing{OnDemand, Spot, FlexStart, CapacityBlock, Reservation}

// Price returns the listed price in mode m, and whether the provider sells
// the type here in that mode at a known price. Reservation has no public
// price (ok false; see Modes), reserved-1y/3y are derived from on-demand
// by Catalog discounts, not here.
func (r *RegionPrice) Price(m Pricing) (float64, bool) {
	var v float64
	switch m {
	case OnDemand:
		v = r.OnDemandUSD
	case Spot:
		v = r.SpotUSD
	case FlexStart:
		v = r.FlexStartUSD
	case CapacityBlock:
		v = r.CapacityBlockUSD
	}
	return v, v > 0
}

// Modes returns the availability modes sold in this region, in
// AvailabilityModes order: a priced mode, or Reservation when flagged.
func (r *RegionPrice) Modes() []Pricing {
	var out []Pricing
	for _, m := range AvailabilityModes {
		if _, ok := r.Price(m); ok || m == Reservation && r.Reservation {
			out = append(out, m)
		}
	}
	return out
}

// FastInterconnect reports whether the instance's GPUs talk over NVLink,
// NVSwitch or Infinity Fabric rather than PCIe alone.
func (in *Instance) FastInterconnect() bool {
	return in.Interconnect != "" && in.Interconnect != "pcie"
}

// Discount is a published reserved or committed-use discount off the
// on-demand price.
type Discount struct {
	Provider string
	Term     Pricing // Reserved1y or Reserved3y
	Fraction float64 // 0–1 off on-demand: 0.37 is 37% off
	// Prefixes are the instance-type prefixes it applies to ("p5.", "a3-");
	// empty means every GPU instance of the provider.
	Prefixes []string
	Source   string
	AsOf     string
	// Origin is the overlay file that set the discount; "" for the
	// embedded catalog's. A reserved price derived from an overlay's
	// discount is that overlay's price (DiscountFor, Offer.Provenance).
	Origin string
	// Held lists the "type region" pairs whose reserved price derived from
	// this overlay discount a price guard flagged (data.LoadWith): not
	// ranked unless Catalog.TrustOverlays. Read only once loaded.
	Held map[string]bool
}

// HeldFor reports whether the guards held the reserved price d gives
// instanceType in region (Discount.Held).
func (d *Discount) HeldFor(instanceType, region string) bool {
	return d != nil && len(d.Held) > 0 && d.Held[instanceType+" "+region]
}

// Applies reports whether d covers an instance type.
func (d *Discount) Applies(provider, instanceType string) bool {
	if d.Provider != provider {
		return false
	}
	if len(d.Prefixes) == 0 {
		return true
	}
	for _, p := range d.Prefixes {
		if strings.HasPrefix(instanceType, p) {
			return true
		}
	}
	return false
}

// Catalog is every GPU, instance, discount and model architecture known,
// as data.Load returns it. Call Index after changing the slices.
type Catalog struct {
	GPUs      []GPU
	Instances []Instance
	Discounts []Discount
	Models    []Architecture
	// Regions is where each provider's regions are (geo.go).
	Regions []ProviderRegions
	// AsOf is the newest as_of date of the entries, YYYY-MM-DD.
	AsOf string
	// TrustOverlays ranks overlay prices the guards held (RegionPrice.Held):
	// the user vouched for them (--trust-overlay).
	TrustOverlays bool
	// Redefined lists the overlay entries that change an embedded GPU's or
	// model's figures under its key (data.LoadWith). The command line
	// refuses the catalog unless --trust-overlay, and then warns with
	// each on every command.
	Redefined []Redefinition

	gpus     map[string]int // normalised keys, names and aliases
	gpuByKey map[string]int // exact keys: the hot path of matching
	models   map[string]int
	geo      *geoIndex
}

// Redefinition is an overlay's entry that changes the figures of an
// embedded GPU or model under the same key (Catalog.Redefined).
type Redefinition struct {
	Origin  string // the overlay file
	Kind    string // "gpu" or "model"
	Key     string
	Changes []string // "memory_gib 16 → 800", in field order
	// Name, when set, is the entry's key, name or alias that reads as
	// Takes, the embedded entry's key, name or alias of another entry
	// (Kind's): lookups by that name would reach the overlay's entry
	// (attack round 11, S2). Changes is then empty.
	Name, Takes string
}

// Refusal is the one line refusing r: what changed and how to go on.
func (r *Redefinition) Refusal() Message {
	if r.Takes != "" {
		return Msg("catalog %s: %s %q is named %q, which reads as the embedded %s %q; lookups by that name would reach the file's entry: rename it, or pass --trust-overlay to accept it",
			r.Origin, Msg(r.Kind), r.Key, r.Name, Msg(r.Kind), r.Takes)
	}
	return Msg("catalog %s: %s %q redefines the embedded entry (%s); use a new key for your own entry, or pass --trust-overlay to accept it",
		r.Origin, Msg(r.Kind), r.Key, strings.Join(r.Changes, ", "))
}

// The catalog loader's (data) count of held prices, and, for a command given
// --trust-overlay, which ranks them (Catalog.Price), the same
// count said as such (Trusted).
const (
	HeldPrices         = "catalog %s: %d region prices look fake or mistyped (the lines below say why) and are not ranked; pass --trust-overlay to rank them"
	HeldPricesTrusted  = "catalog %s: %d region prices look fake or mistyped (the lines below say why), ranked as --trust-overlay asks"
	HeldPricesEmbedded = "catalog %s: %d region prices look fake or mistyped (the lines below say why): the embedded catalog's prices for those types and regions are used instead; pass --trust-overlay to rank the file's"
	HeldDiscounts      = "catalog %s: %d reserved prices its discount gives look fake or mistyped (the lines below say why) and are not ranked; pass --trust-overlay to rank them"
	// StaleSpot says an overlay's on-demand price below the catalog's spot
	// price there dropped that spot price. StaleSpotHeld is the same for
	// prices the guards held with the catalog's beside: Trusted makes it
	// StaleSpot, Untrusted leaves it out (the catalog's row, its spot
	// too, stands in).
	StaleSpot            = "catalog %s: the file's on-demand price is below the spot price the catalog had for %v; that spot price is dropped there (spot unknown; give spot in the file to set one)"
	StaleSpotHeld        = "catalog %s: the file's on-demand price, held as fake or mistyped, is below the spot price the catalog had for %v; with --trust-overlay that spot price is dropped there (spot unknown; give spot in the file to set one)"
	HeldDiscountsTrusted = "catalog %s: %d reserved prices its discount gives look fake or mistyped (the lines below say why), ranked as --trust-overlay asks"
)

// The same counts when there is one (HeldCount): "1 region price looks
// fake", not "1 region prices look fake" (a new user's walk).
const (
	HeldPrice           = "catalog %s: %d region price looks fake or mistyped (the lines below say why) and is not ranked; pass --trust-overlay to rank it"
	HeldPriceTrusted    = "catalog %s: %d region price looks fake or mistyped (the lines below say why), ranked as --trust-overlay asks"
	HeldPriceEmbedded   = "catalog %s: %d region price looks fake or mistyped (the lines below say why): the embedded catalog's price for that type and region is used instead; pass --trust-overlay to rank the file's"
	HeldDiscount        = "catalog %s: %d reserved price its discount gives looks fake or mistyped (the lines below say why) and is not ranked; pass --trust-overlay to rank it"
	HeldDiscountTrusted = "catalog %s: %d reserved price its discount gives looks fake or mistyped (the lines below say why), ranked as --trust-overlay asks"
)

// heldOne is the key for one of each count of held prices.
var heldOne = map[string]string{
	HeldPrices:           HeldPrice,
	HeldPricesTrusted:    HeldPriceTrusted,
	HeldPricesEmbedded:   HeldPriceEmbedded,
	HeldDiscounts:        HeldDiscount,
	HeldDiscountsTrusted: HeldDiscountTrusted,
}

// HeldCount is the count of held prices of a catalog file (origin) under
// key (HeldPrices, HeldPricesEmbedded, HeldDiscounts …), said in the
// singular when n is one (HeldPrice …).
func HeldCount(key, origin string, n int) Message {
	if one, ok := heldOne[key]; ok && n == 1 {
		key = one
	}
	return Msg(key, origin, n)
}

// Trusted rewrites the load's warnings for a command given
// --trust-overlay: the counts of held prices say the prices are ranked,
// not "pass --trust-overlay" (attack round 12, F4). Other warnings are
// kept as they are.
func Trusted(w []Message) []Message {
	out := make([]Message, len(w))
	for i, m := range w {
		switch m.Key {
		case HeldPrices, HeldPricesEmbedded:
			m.Key = HeldPricesTrusted
		case HeldPrice, HeldPriceEmbedded:
			m.Key = HeldPriceTrusted
		case HeldDiscounts:
			m.Key = HeldDiscountsTrusted
		case HeldDiscount:
			m.Key = HeldDiscountTrusted
		case StaleSpotHeld:
			m.Key = StaleSpot
		}
		out[i] = m
	}
	return out
}

// Untrusted is the load's warnings for a command without --trust-overlay:
// the lines true only with it (StaleSpotHeld) are left out.
func Untrusted(w []Message) []Message {
	return slices.DeleteFunc(slices.Clone(w), func(m Message) bool { return m.Key == StaleSpotHeld })
}

// GPURedefinition returns the first of c.Redefined that changes the GPU
// under key, or gives the GPU under key an embedded GPU's name; nil when
// none does.
func (c *Catalog) GPURedefinition(key string) *Redefinition {
	for i := range c.Redefined {
		if r := &c.Redefined[i]; r.Kind == "gpu" && r.Key == key {
			return r
		}
	}
	return nil
}

// Warning is the line every command prints when r was accepted with
// --trust-overlay; recommend and offers put it on each row of the GPU
// (Offer.Redefined).
func (r *Redefinition) Warning() Message {
	if r.Takes != "" {
		return Msg("catalog %s: %s %q is named %q, which reads as the embedded %s %q, accepted with --trust-overlay: lookups by that name reach the file's entry",
			r.Origin, Msg(r.Kind), r.Key, r.Name, Msg(r.Kind), r.Takes)
	}
	return Msg("catalog %s: %s %q redefines the embedded entry (%s), accepted with --trust-overlay",
		r.Origin, Msg(r.Kind), r.Key, strings.Join(r.Changes, ", "))
}

// Price returns the USD/hour of one instance in region r for mode p, and
// whether it is known: reserved prices apply the provider's published
// discount to on-demand.
//
// Only the mode asked for counts: a type sold by reservation, flex-start
// or spot only has no on-demand offer. An on-demand price below the same
// region's spot price is not on-demand (GCP's flex-start SKUs slipped into
// SkyPilot's on-demand column, catalog audit #1) and is never ranked, nor
// are retired types (Instance.Retired), nor an overlay's price the guards
// held (RegionPrice.Held, or below its floor once converted: HeldAt) unless
// c.TrustOverlays. Non-USD prices need a rate in rates (USD per unit of the
// currency).
func (c *Catalog) Price(in *Instance, r *RegionPrice, p Pricing, rates map[string]float64) (float64, bool) {
	if !in.Offered() {
		return 0, false
	}
	// The discount is looked for once, for the held check and the price
	// (a walk of c.Discounts for a reserved mode; recommend --json prices
	// both terms for each of ~1,100 offers, decide.CommitmentPricesFor).
	return c.priceWith(in, r, p, rates, c.DiscountFor(in, p))
}

// priceWith is Price with d, in's discount for p (DiscountFor), which a
// scan of in's regions looks for once, not at each region's price (a
// reserved ranking walked c.Discounts at each of ~2,700 prices).
func (c *Catalog) priceWith(in *Instance, r *RegionPrice, p Pricing, rates map[string]float64, d *Discount) (float64, bool) {
	if !in.Offered() || !c.TrustOverlays && (HeldAt(in, r, rates) || d.HeldFor(in.Type, r.Region)) {
		return 0, false
	}
	return listPrice(in, r, p, rates, d)
}

// DiscountFor returns the discount ListPrice applies to in's reserved
// price for p (the first of c.Discounts of that term covering the type),
// nil for another mode or when none covers it.
func (c *Catalog) DiscountFor(in *Instance, p Pricing) *Discount {
	if p != Reserved1y && p != Reserved3y {
		return nil
	}
	for i := range c.Discounts {
		if d := &c.Discounts[i]; d.Term == p && d.Applies(in.Provider, in.Type) {
			return d
		}
	}
	return nil
}

// ConvertedHeld is a price in another currency held once converted
// (HeldAt without RegionPrice.Held): the first of them and how many.
type ConvertedHeld struct {
	Count    int
	Instance *Instance
	Region   string
	// USDPerGPUHour is the first's converted price in the mode found below
	// its floor, FloorUSD that floor (USD per GPU-hour).
	USDPerGPUHour, FloorUSD float64
}

// ConvertedHeld returns the offered region prices of c that rates convert
// below their instance's CurrencyFloor (HeldAt on a price the load did not
// hold), so the command can say why they are not ranked.
func (c *Catalog) ConvertedHeld(rates map[string]float64) ConvertedHeld {
	var out ConvertedHeld
	for i := range c.Instances {
		in := &c.Instances[i]
		if in.CurrencyFloor == nil || !in.Offered() {
			continue
		}
		for j := range in.Prices {
			r := &in.Prices[j]
			if r.Held || !HeldAt(in, r, rates) {
				continue
			}
			if out.Count++; out.Instance == nil {
				fx, n := rates[in.PriceCurrency()], float64(in.GPUCount)
				out.Instance, out.Region = in, r.Region
				out.USDPerGPUHour, out.FloorUSD = r.OnDemandUSD*fx/n, in.CurrencyFloor.OnDemandUSD
				if !(r.OnDemandUSD > 0 && out.USDPerGPUHour < out.FloorUSD) {
					out.USDPerGPUHour, out.FloorUSD = r.SpotUSD*fx/n, in.CurrencyFloor.SpotUSD
				}
			}
		}
	}
	return out
}

// ListPrice is Price without the retirement rule: what a retired type
// cost, for listings that show it marked (catalog instances --all).
func (c *Catalog) ListPrice(in *Instance, r *RegionPrice, p Pricing, rates map[string]float64) (float64, bool) {
	return listPrice(in, r, p, rates, c.DiscountFor(in, p))
}

// listPrice is ListPrice with in's discount for p, d (Catalog.DiscountFor).
func listPrice(in *Instance, r *RegionPrice, p Pricing, rates map[string]float64, d *Discount) (float64, bool) {
	fx := 1.0
	if cur := in.PriceCurrency(); cur != "USD" {
		if fx = rates[cur]; !(fx > 0) {
			return 0, false
		}
	}
	if r.OnDemandUSD > 0 && r.SpotUSD > r.OnDemandUSD && (p == OnDemand || p == Reserved1y || p == Reserved3y) {
		return 0, false
	}
	switch p {
	case Reserved1y, Reserved3y:
		if r.OnDemandUSD <= 0 {
			return 0, false
		}
		if d != nil {
			return r.OnDemandUSD * (1 - d.Fraction) * fx, true
		}
		return 0, false
	}
	v, ok := r.Price(p)
	return v * fx, ok
}

// Ranked reports whether the offer of in in region r may be ranked in mode
// p: the rule Recommend applies (not retired, sold in that mode at a known
// price, on-demand not below spot, a currency with a known rate).
func (c *Catalog) Ranked(in *Instance, r *RegionPrice, p Pricing, rates map[string]float64) bool {
	_, ok := c.Price(in, r, p, rates)
	return ok
}

// MarketplaceProviders sell other people's machines at prices that change
// by the hour: their catalog rows are snapshots, not price lists, so they
// are offered only when asked for by name.
var MarketplaceProviders = []string{"vast", "lium", "hyperbolic", "simplepod"}

// renamedProviders are the old names of providers the catalog lists under
// a new one: DataCrunch is Verda (its regions and types are SkyPilot's
// verda catalog; docs/data.md's table, "verda (DataCrunch)").
var renamedProviders = map[string]string{"datacrunch": "verda"}

// RenamedProvider returns the catalog's name of a provider known by an
// old one ("datacrunch" → "verda"), and whether p is such a name.
func RenamedProvider(p string) (string, bool) {
	n, ok := renamedProviders[strings.ToLower(strings.TrimSpace(p))]
	return n, ok
}

// RenamedProviderMsg is the line for --providers OLD: the new name to
// write.
func RenamedProviderMsg(p, now string) Message {
	return Msg("unknown provider %q: the catalog lists it under its new name %s; write --providers %s", p, now, now)
}

// Fabrics are the GPU networks between instances a catalog entry may
// name (Instance.Fabric), each as its provider calls it:
//   - "infiniband": InfiniBand NICs (Azure ND-series, Nebius 8-GPU hosts);
//   - "efa": AWS Elastic Fabric Adapter, AWS's RDMA-capable NIC;
//   - "roce": RDMA over Converged Ethernet (GCP A3 Ultra and A4,
//     "GPUDirect-RDMA");
//   - "rdma": an RDMA cluster network whose provider does not name the
//     protocol (OCI cluster networks);
//   - "gpudirect-tcpx", "gpudirect-tcpxo": GCP's GPU-to-GPU networks of A3
//     High and A3 Mega, not RDMA.
var Fabrics = []string{"infiniband", "efa", "roce", "rdma", "gpudirect-tcpx", "gpudirect-tcpxo"}

// RegionsUnconfirmedProviders are the providers whose catalog regions say
// where a price applies, not where a type is offered. OCI prices every
// shape the same in every commercial region and publishes no per-shape
// region availability (SkyPilot's sky/catalog/data_fetchers/fetch_oci.py:
// "Regional availability of shapes is not published by Oracle ... the
// catalog therefore lists every shape in every commercial region").
// SkyPilot's Lambda fetcher writes every instance type once for each region
// of a hard-coded list, "List of all possible regions"
// (sky/catalog/data_fetchers/fetch_lambda_cloud.py @ 115eca47, REGIONS and
// the `for r in REGIONS` loop of create_catalog), whatever Lambda offers
// where. Tables mark their rows and name their regions by count
// (RegionsUnconfirmed); the rows' sources say so.
var RegionsUnconfirmedProviders = []string{"lambda", "oci"}

// RegionsUnconfirmed reports whether provider's catalog regions say where
// a price applies rather than where a type is offered
// (RegionsUnconfirmedProviders): several of them are shown as "any of N
// regions", never as the first, which would read as the place.
func RegionsUnconfirmed(provider string) bool {
	return slices.Contains(RegionsUnconfirmedProviders, provider)
}

// ErrNotFound is wrapped by lookups of unknown keys.
var ErrNotFound = errors.New("not found")

// NormKey folds case and the separators people mix ("ResNet-50",
// "resnet_50", "resnet 50" → "resnet50"); "." is kept because it separates
// versions ("llama-3.1-8b" vs "llama-31-8b").
func NormKey(s string) string {
	s = strings.TrimSpace(s)
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	var b strings.Builder
	b.Grow(len(s))
	if ascii { // the common case, in one allocation: Index runs on every Load
		for i := 0; i < len(s); i++ {
			switch c := s[i]; {
			case c == '-' || c == '_' || c == ' ' || c == '/':
			case 'A' <= c && c <= 'Z':
				b.WriteByte(c + 'a' - 'A')
			default:
				b.WriteByte(c)
			}
		}
		return b.String()
	}
	for _, r := range strings.ToLower(s) {
		switch r {
		case '-', '_', ' ', '/':
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Index builds the lookup tables for GPU and Model from keys and aliases.
// A Hugging Face id ("meta-llama/Llama-3.1-8B") also matches by its part
// after the slash. The tables are built aside and then put in place, so
// a reader never sees one half built; still, call Index before sharing c
// between goroutines (EnsureIndex does it once).
func (c *Catalog) Index() {
	gpus := make(map[string]int, len(c.GPUs)*2)
	gpuByKey := make(map[string]int, len(c.GPUs))
	for i := range c.GPUs {
		g := &c.GPUs[i]
		for _, k := range append([]string{g.Key, g.Name}, g.Aliases...) {
			gpus[NormKey(k)] = i
		}
	}
	models := make(map[string]int, len(c.Models)*3)
	add := func(k string, i int) {
		models[NormKey(k)] = i
		if _, after, ok := strings.Cut(k, "/"); ok {
			a := NormKey(after)
			if _, taken := models[a]; !taken {
				models[a] = i
			}
		}
	}
	for i := range c.Models {
		m := &c.Models[i]
		add(m.Key, i)
		add(m.Name, i)
		for _, k := range m.Aliases {
			add(k, i)
		}
	}
	// Keys win over aliases of other entries.
	for i := range c.Models {
		models[NormKey(c.Models[i].Key)] = i
	}
	for i := range c.GPUs {
		gpus[NormKey(c.GPUs[i].Key)] = i
		gpuByKey[c.GPUs[i].Key] = i
	}
	c.gpus, c.gpuByKey, c.models = gpus, gpuByKey, models
	c.indexGeo()
}

// EnsureIndex indexes c unless it is indexed already. The configurator
// calls it rather than Index: a catalog it is given may already be read by
// another program's goroutines (the tests run several configurators on one
// loaded catalog), and rebuilding the tables under them would race.
func (c *Catalog) EnsureIndex() {
	if c.gpus == nil || c.models == nil || c.gpuByKey == nil || c.geo == nil {
		c.Index()
	}
}

// GPU returns the GPU with that key or alias. The error wraps ErrNotFound
// and suggests the closest keys.
func (c *Catalog) GPU(name string) (*GPU, error) {
	if c.gpus == nil {
		c.Index()
	}
	if i, ok := c.gpuByKey[name]; ok {
		return &c.GPUs[i], nil
	}
	if i, ok := c.gpus[NormKey(name)]; ok {
		return &c.GPUs[i], nil
	}
	// A GeForce named by its number alone ("4090", "3090ti"), as people
	// write it: the RTX prefix is implied when that names one GPU.
	if n := NormKey(name); n != "" && n[0] >= '0' && n[0] <= '9' {
		if i, ok := c.gpus["rtx"+n]; ok {
			return &c.GPUs[i], nil
		}
	}
	keys := make([]string, 0, len(c.GPUs))
	for i := range c.GPUs {
		keys = append(keys, c.GPUs[i].Key)
	}
	for i := range c.GPUs { // after the keys: "h100" for H10, which --gpu takes
		keys = append(keys, c.GPUs[i].Aliases...)
	}
	return nil, notFound("gpu", name, keys, "gpuplan catalog gpus")
}

// ShapeTwins returns the catalog's models of a's shape: the same family,
// model type, layer counts, widths, heads, vocabulary, experts and
// parameter count (ParamCount). A Hugging Face config.json of a
// catalogued checkpoint is one, and so is its instruction-tuned sibling's,
// which shares the shape. Nil when a has no shape or none matches.
func (c *Catalog) ShapeTwins(a *Architecture) []*Architecture {
	if !a.HasShape() {
		return nil
	}
	n := a.ParamCount()
	var out []*Architecture
	for i := range c.Models {
		m := &c.Models[i]
		if m.Family != a.Family || m.ModelType != a.ModelType || m.Layers != a.Layers || m.DecoderLayers != a.DecoderLayers ||
			m.Hidden != a.Hidden || m.Heads != a.Heads || m.EffectiveKVHeads() != a.EffectiveKVHeads() || m.EffectiveHeadDim() != a.EffectiveHeadDim() || m.FFN != a.FFN ||
			m.Vocab != a.Vocab || m.Experts != a.Experts || m.ExpertsPerToken != a.ExpertsPerToken || !m.HasShape() {
			continue
		}
		if p := m.ParamCount(); p != n {
			continue
		}
		out = append(out, m)
	}
	return out
}

// Model returns the architecture with that key or alias. The error wraps
// ErrNotFound and suggests the closest keys.
func (c *Catalog) Model(name string) (*Architecture, error) {
	if c.models == nil {
		c.Index()
	}
	if i, ok := c.lookup(name); ok {
		return &c.Models[i], nil
	}
	if a, ok := c.quantRelease(name); ok {
		return a, nil
	}
	if reason, ok := LeftOutReason(name); ok {
		return nil, &KindError{Kind: ErrNotFound, Msg: reason}
	}
	keys := make([]string, len(c.Models))
	for i := range c.Models {
		keys[i] = c.Models[i].Key
	}
	if len(name) <= 2*maxSuggestRunes {
		switch same, family := sizedSuggestions(name, Closest(name, keys, 3)); {
		case len(same) > 0:
			return nil, Errorf(ErrNotFound, "unknown model %q; did you mean %s? (list them with %s)", name, OrMsg(quoteAll(same)), "gpuplan catalog models")
		case len(family) > 0:
			return nil, Errorf(ErrNotFound, "model %q is not in the catalog (the nearest of its family, of other sizes: %s); for this one give its config.json with --hf-config (list the catalog with %s)",
				name, AndMsg(quoteAll(family)), "gpuplan catalog models")
		}
	}
	return nil, notFound("model", name, keys, "gpuplan catalog models")
}

// lookup returns the index of the entry name is the key or an alias of
// (NormKey), trying a Hugging Face id's name part after its "org/"
// when the whole id is none: meta-llama/Llama-3.1-8B or Llama-3.1-8B.
// c must be indexed.
func (c *Catalog) lookup(name string) (int, bool) {
	if i, ok := c.models[NormKey(name)]; ok {
		return i, true
	}
	if _, after, ok := strings.Cut(name, "/"); ok {
		i, ok := c.models[NormKey(after)]
		return i, ok
	}
	return 0, false
}

// sizeToken matches a model name's size: 8b, 270m, 1.5b, 8x7b, between
// separators.
var sizeToken = regexp.MustCompile(`(?:^|[-_./ ])((?:\d+x)?\d+(?:\.\d+)?[kmbt])(?:$|[-_./ ])`)

// modelSizes are the size tokens of a model name, lower case.
func modelSizes(name string) []string {
	var out []string
	for _, m := range sizeToken.FindAllStringSubmatch(strings.ToLower(name), -1) {
		out = append(out, m[1])
	}
	return out
}

// sizedSuggestions splits suggestions for a model name not in the catalog
// into those that may be a typo for it (its size tokens match, or one of
// them has none) and family members of another size: gemma-3-270m is no
// typo for gemma-3-27b, a model 100 times larger (walk49).
func sizedSuggestions(name string, suggestions []string) (same, family []string) {
	want := modelSizes(name[strings.LastIndex(name, "/")+1:])
	for _, s := range suggestions {
		got := modelSizes(s)
		if len(want) == 0 || len(got) == 0 || slices.Equal(got, want) {
			same = append(same, s)
		} else {
			family = append(family, s)
		}
	}
	return same, family
}

// LeftOutReason says why name is left out of the catalog on purpose, in
// one line ("model %q is left out on purpose: …"), when it names one of
// the models docs/data.md leaves out with a reason (issue 32): Qwen3's
// Thinking-2507 releases, Mistral Small 3.1 and 3.2, Phi-4-reasoning and
// the diffusion transformers Flux.1, SD3 and SD3.5. Catalog.Model refuses
// such a name with this line, after the catalog's own keys and aliases;
// the searches (gpuplan catalog models, the configurator's model list)
// give it for a search that finds nothing. Names are compared as NormKey
// has them, a Hugging Face id by its part after "org/" too
// (black-forest-labs/FLUX.1-dev), and a partial name does not claim one
// ("flu", "phi-4", "qwen3-4b"): the predicates below say how much of each
// name they need. ok is false for any other name.
func LeftOutReason(name string) (_ Message, ok bool) {
	switch {
	case leftOutQwen3Thinking2507(name):
		return Msg("model %q is left out on purpose: its config.json could not be found word for word, and the Qwen3 entries of the same size hold 40,960 positions where the 2507 releases hold 262,144; give its config.json with --hf-config (the Instruct-2507 releases are in the catalog: gpuplan catalog models 2507)", name), true
	case leftOutMistral3(name):
		return Msg("model %q is left out on purpose: Mistral Small 3.1 and 3.2 (Mistral3ForConditionalGeneration) are Mistral Small 3's text model with a Pixtral vision encoder, whose parameters gpuplan does not count; the nearest supported key is mistral-small-24b (Mistral Small 3, text only)", name), true
	case leftOutPhi4Reasoning(name):
		return Msg("model %q is left out on purpose: it has phi-4's layers but 32,768 positions (its model card: 32k tokens) where the phi-4 entry holds 16,384, and its config.json could not be found word for word; give its config.json with --hf-config (the nearest key is phi-4)", name), true
	case leftOutDiT(name):
		return Msg("model %q is left out on purpose: diffusion transformers (Flux.1, SD3/SD3.5 MMDiT) are not costed, because the image-model method needs measured MACs and saved activations per sample, which gpuplan has for none of them (docs/data.md); the diffusion models it does cost are the U-Nets sd15-unet and sdxl-unet (gpuplan catalog models)", name), true
	}
	return Message{}, false
}

// IsLeftOutReason reports whether m is a LeftOutReason: what a name the
// catalog leaves out on purpose is, information rather than a warning
// (gpuplan catalog models prints it as a note beside the models it lists).
func IsLeftOutReason(m Message) bool {
	if len(m.Args) != 1 {
		return false
	}
	name, ok := m.Args[0].(string)
	if !ok {
		return false
	}
	r, ok := LeftOutReason(name)
	return ok && r.Key == m.Key
}

// leftOutDiTPrefixes are the normalised (NormKey) names of the diffusion
// transformers docs/data.md leaves out of models.toml, with the reason
// there: Black Forest Labs' FLUX.1 (dev, schnell, …) and Stability AI's
// Stable Diffusion 3 and 3.5 (MMDiT). Their image-model cost needs
// measured MACs and activations per sample (the cnn/unet/vit rows carry
// forward_gmacs and activation_mib_per_sample from measurements), which no
// source gives for them (issue 32: a model left out says why).
var leftOutDiTPrefixes = []string{"flux", "stablediffusion3", "sd3"}

// leftOutDiT reports whether name (or its part after an "org/" prefix)
// names one of the left-out diffusion transformers.
func leftOutDiT(name string) bool {
	for _, n := range []string{name, name[strings.LastIndex(name, "/")+1:]} {
		k := NormKey(n)
		for _, p := range leftOutDiTPrefixes {
			if strings.HasPrefix(k, p) {
				return true
			}
		}
	}
	return false
}

// leftOutMistral3 reports whether name is one of Mistral Small 3.1's or
// 3.2's releases (mistralai/Mistral-Small-3.1-24B-Instruct-2503,
// -Base-2503, Mistral-Small-3.2-24B-Instruct-2506), left out because they
// add a Pixtral vision encoder (config.json vision_config, model_type
// "pixtral") to the mistral-small-24b text model, which data/hf does not
// count (its visionTowers are Gemma 3's and Llama 4's); 3.1 also
// "enhances long context capabilities up to 128k tokens" (transformers
// docs, model_doc/mistral3.md) where that entry holds 32,768 positions.
// Aliasing them would plan neither.
func leftOutMistral3(name string) bool {
	k := NormKey(name[strings.LastIndex(name, "/")+1:])
	return strings.HasPrefix(k, "mistralsmall3.1") || strings.HasPrefix(k, "mistralsmall3.2")
}

// leftOutPhi4Reasoning reports whether name is microsoft/Phi-4-reasoning
// or -reasoning-plus, Phi-4 fine-tuned (its model card: "Base model same
// as previously released Phi-4") to a 32k-token context: the phi-4 entry's
// layers, but twice its 16,384 positions, and no copy of their config.json
// was found word for word to make an entry of (as the Qwen3 Thinking-2507
// releases).
func leftOutPhi4Reasoning(name string) bool {
	k := NormKey(name[strings.LastIndex(name, "/")+1:])
	return k == "phi4reasoning" || k == "phi4reasoningplus"
}

// leftOutQwen3Thinking2507 reports whether name is one of Qwen3's
// Thinking-2507 releases (Qwen/Qwen3-4B-Thinking-2507, -30B-A3B-,
// -235B-A22B-), left out because no copy of their config.json was found
// word for word (data/hf/testdata/config/SOURCES.md), while the closest
// names, the Qwen3 entries, would plan them with a sixth of their
// context.
func leftOutQwen3Thinking2507(name string) bool {
	k := NormKey(name[strings.LastIndex(name, "/")+1:])
	return strings.HasPrefix(k, "qwen3") && strings.HasSuffix(k, "thinking2507")
}

func notFound(what, name string, keys []string, list string) error {
	if len(name) > 2*maxSuggestRunes { // a pasted file, not a name: do not echo it all
		name = name[:maxSuggestRunes] + "…"
	}
	if s := Closest(name, keys, 3); len(s) > 0 {
		return Errorf(ErrNotFound, "unknown "+what+" %q; did you mean %s? (list them with %s)", name, OrMsg(quoteAll(s)), list)
	}
	return Errorf(ErrNotFound, "unknown "+what+" %q (list them with %s)", name, list)
}

func quoteAll(s []string) []string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = fmt.Sprintf("%q", v)
	}
	return q
}

// Closest returns up to n of candidates nearest to s by edit distance on the
// normalised spelling, nearest first, leaving out those too far to be a typo
// (more than half the length of s). A candidate that starts with s comes
// first, the shortest such first; one that contains s, or is contained in it, counts as near. Inputs and candidates longer than
// maxSuggestRunes are not compared: edit distance costs len(s)×len(c), and a
// 50 MB "name" took 30 s (issue 11).
func Closest(s string, candidates []string, n int) []string {
	type scored struct {
		key   string
		dist  int
		extra int // on a prefix match, the letters beyond s: h100 before h100-sxm
		edits int // the plain edit distance, between equals: vramm → vram before ram (walk55)
	}
	if len(s) > 4*maxSuggestRunes || utf8.RuneCountInString(s) > maxSuggestRunes {
		return nil
	}
	ns := NormKey(s)
	// At most half the input's letters changed, and two for any input
	// of four or more; a name of three or fewer letters takes one (walk:
	// "foo" suggested "do", two of its three letters changed; Chinese
	// "火星" every country of two characters). Letters, not bytes: a Han
	// character is three bytes.
	letters := utf8.RuneCountInString(ns)
	limit := max(2, letters/2)
	if letters <= 3 {
		limit = 1
	}
	var out []scored
	for _, c := range candidates {
		if len(c) > 4*maxSuggestRunes || utf8.RuneCountInString(c) > maxSuggestRunes {
			continue
		}
		nc := NormKey(c)
		d := levenshtein.ComputeDistance(ns, nc)
		if d == 2 && swapped(ns, nc) { // two letters typed the wrong way round are one slip: gpc → gcp
			d = 1
		}
		edits := d
		if ns != "" && (strings.Contains(nc, ns) || strings.Contains(ns, nc)) {
			d = min(d, 1+abs(len(nc)-len(ns))/4)
		}
		extra := 0
		if len(ns) >= 2 && strings.HasPrefix(nc, ns) {
			d, extra = 0, len(nc)-len(ns) // the start of a key is the likeliest meaning: h10 → h100 before a10
		}
		if d <= limit {
			out = append(out, scored{c, d, extra, edits})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return a.dist < b.dist || a.dist == b.dist && (a.extra < b.extra || a.extra == b.extra && a.edits < b.edits)
	})
	res := make([]string, 0, n)
	for _, o := range out {
		if len(res) == n {
			break
		}
		if !slices.ContainsFunc(res, func(r string) bool { return NormKey(r) == NormKey(o.key) }) { // a10g, A10G: one
			res = append(res, o.key)
		}
	}
	return res
}

// swapped reports whether b is a with two neighbouring letters swapped
// ("gpc", "gcp"), which Levenshtein counts as two edits.
func swapped(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	if len(ra) != len(rb) {
		return false
	}
	i := 0
	for i < len(ra) && ra[i] == rb[i] {
		i++
	}
	return i+1 < len(ra) && ra[i] == rb[i+1] && ra[i+1] == rb[i] && string(ra[i+2:]) == string(rb[i+2:])
}

// maxSuggestRunes is the longest input or candidate Closest compares; real
// keys, flags and regions are under 64.
const maxSuggestRunes = 128

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// UseEmbeddedForHeld puts back the embedded catalog's price wherever an
// overlay's price for the same type and region is held (RegionPrice.Held
// with Beside), for a command not given --trust-overlay: the row is
// the catalog's again, with the catalog's provenance, and the held price
// beside it (RegionPrice.Beside) for the market to list when asked. It
// returns how many prices it put back. The prices it changes are copied,
// never written in place (they may be shared with the compiled catalog).
func (c *Catalog) UseEmbeddedForHeld() int {
	n := 0
	for i := range c.Instances {
		in := &c.Instances[i]
		cloned := false
		for j := range in.Prices {
			if p := &in.Prices[j]; !p.Held || p.Beside == nil {
				continue
			}
			if !cloned {
				in.Prices, cloned = slices.Clone(in.Prices), true
			}
			held := in.Prices[j]
			in.Prices[j] = *held.Beside
			held.Beside = nil
			in.Prices[j].Beside = &held
			n++
		}
	}
	return n
}
