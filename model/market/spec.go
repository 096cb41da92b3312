package market

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/gpuplan/gpuplan/model"
)

// The filter grammar of the market browser (gpuplan catalog instances,
// gpuplan offers and the configurator's browse screen), spelled as users
// type it in dstack and SkyPilot:
//
//	H100            one GPU model, any count
//	H100:8          exactly 8 GPUs per instance (sky show-gpus H100:8)
//	A100-80GB:4+    4 or more
//	h100:1..4       1 to 4; "..4" up to 4, "4.." 4 or more
//	A100,H100:8     either model (dstack's comma list)
//	H100*           every GPU whose key or alias starts with H100 (pcie, sxm, nvl)
//	24GB..80GB:2    dstack's memory token: 24 to 80 GB per GPU, 2 GPUs
//	nvidia:40GB+    a vendor token and 40 GB or more per GPU
//
// Tokens are separated by ":" in any order and classified as in dstack's
// GPUSpec.parse (dstackai/dstack, src/dstack/_internal/core/models/
// resources.py): a vendor name, else a token starting with a letter is the
// GPU name list, else a token with a unit is memory, else the count. A
// single count or memory value is exact, as dstack's Range._parse makes it.
//
// GPU memory: "GB" is the vendor's GB, which for GPU memory is GiB (an
// "80GB" A100 has 80 × 2³⁰ bytes; see GPU.MemoryGiB), so 80GB and 80GiB
// select the same GPUs. TB and TiB are 1024 of those.

// ErrBadFilter is matched (errors.Is) by every error of the market filter
// grammar and of Browse's checks; the messages themselves do not repeat it.
var ErrBadFilter = errors.New("bad filter")

// filterError is a one-line message that errors.Is matches to ErrBadFilter
// and errors.As to its Message, so a UI can translate it (the configurator's
// market browser shows it as it is typed). Args that are English phrases
// (the valid forms, "a or b" lists, nested errors) are Messages too.
type filterError struct{ msg model.Message }

func (e *filterError) Error() string          { return e.msg.String() }
func (e *filterError) Message() model.Message { return e.msg }
func (e *filterError) Is(target error) bool   { return target == ErrBadFilter }

// As sets a *Message target to the error's message.
func (e *filterError) As(target any) bool {
	if m, ok := target.(*model.Message); ok {
		*m = e.msg
		return true
	}
	return false
}

// BadFilter returns a filter error: its text the Message of format and a,
// matching ErrBadFilter.
func BadFilter(format string, a ...any) error { return &filterError{model.Msg(format, a...)} }

// FilterMessage returns m as a filter error, matching ErrBadFilter: a check
// worded in model (model.CheckListNamesSome) in the filter grammar's errors.
func FilterMessage(m model.Message) error { return &filterError{m} }

// badEnum is model.ParseEnum's error as a filter error: "sort \"x\": want
// a, b or c", with its did-you-mean when a name is close (walk55: --sort
// vramm got none, where --task lorra does).
func badEnum[T ~string](what, s string, valid []T) error {
	names := model.EnumNames(valid)
	if c := model.Closest(strings.ToLower(strings.TrimSpace(s)), names, 1); len(c) > 0 {
		return BadFilter("%s %q: did you mean %q? want %v", what, s, c[0], orMsg(names))
	}
	return BadFilter("%s %q: want %s", what, s, orMsg(names))
}

// orMsg is model.OrList as a message: "a, b or c" with its "or" translatable.
func orMsg(names []string) model.Message { return model.OrMsg(names) }

// Bounds is an inclusive range. Min 0 means no lower bound and Max 0 no
// upper bound, so the zero Bounds accepts everything.
type Bounds struct{ Min, Max float64 }

// Any reports whether b accepts every value.
func (b Bounds) Any() bool { return b.Min == 0 && b.Max == 0 }

// Contains reports whether v is within b. A relative tolerance of 10⁻⁹
// keeps 80GB equal to a catalog's 80 after unit conversions.
func (b Bounds) Contains(v float64) bool {
	tol := 1e-9 * max(math.Abs(v), 1)
	return (b.Min == 0 || v >= b.Min-tol) && (b.Max == 0 || v <= b.Max+tol)
}

// String writes b back in the grammar, with unit appended to each end:
// "8", "4+", "1..4", "..48GB".
func (b Bounds) String(unit string) string {
	n := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) + unit }
	switch {
	case b.Any():
		return "any"
	case b.Min == b.Max:
		return n(b.Min)
	case b.Max == 0:
		return n(b.Min) + "+"
	case b.Min == 0:
		return ".." + n(b.Max)
	}
	return n(b.Min) + ".." + n(b.Max)
}

// GPUSpec is one parsed GPU spec: which GPU models, how many per instance,
// how much memory each. The zero GPUSpec matches every instance.
type GPUSpec struct {
	Text    string   // as typed, for messages
	Keys    []string // catalog GPU keys; empty means any model
	Vendor  string   // GPU.Vendor ("nvidia", "amd"); empty means any
	Count   Bounds   // GPUs per instance
	VRAMGiB Bounds   // memory per GPU, GiB as vendors state it
}

// Matches reports whether an instance with n GPUs of g meets the spec.
func (s *GPUSpec) Matches(g *model.GPU, n int) bool {
	return (len(s.Keys) == 0 || slices.Contains(s.Keys, g.Key)) &&
		(s.Vendor == "" || g.Vendor == s.Vendor) &&
		s.Count.Contains(float64(n)) && s.VRAMGiB.Contains(g.MemoryGiB)
}

// maxGPUCount bounds counts so that a typo ("H100:80000000000") is an
// error rather than a filter that silently matches nothing.
const maxGPUCount = 1024

var gpuSpecForms = model.Msg("want e.g. H100, H100:8, A100-80GB:4+, h100:1..4 or 24GB..80GB:2")

// ParseGPUSpec parses a GPU spec (see the grammar above) against the GPUs
// of c. Names match catalog keys, names and aliases ignoring case and
// separators; an unknown name is an error with a did-you-mean. Errors wrap
// match ErrBadFilter, are one line, and show the right form.
func ParseGPUSpec(s string, c *model.Catalog) (GPUSpec, error) {
	spec := GPUSpec{Text: s}
	t := strings.Join(strings.Fields(s), "")
	if t == "" {
		return spec, BadFilter("empty gpu spec; %s", gpuSpecForms)
	}
	if rest, ok := strings.CutPrefix(t, "/"); ok {
		// "/" is the key that starts a search in less, vim and k9s (whose
		// filter prompt draws it before the query: derailed/k9s,
		// internal/ui/table_helper.go, SearchFmt), so habit types it
		// first. No spec starts with it: it is named here rather than read
		// as memory ("/h100" is not a size). The configurator's filter
		// line drops one leading "/" before this grammar sees the line.
		if rest = strings.TrimLeft(rest, "/"); rest != "" {
			return spec, BadFilter("gpu spec %q starts with \"/\", which is no part of a spec; write %s", s, rest)
		}
		return spec, BadFilter("gpu spec %q starts with \"/\", which is no part of a spec; %s", s, gpuSpecForms)
	}
	vendors := gpuVendors(c)
	seen := map[string]string{}
	for _, tok := range strings.Split(t, ":") {
		if tok == "" {
			return spec, BadFilter("gpu spec %q has an empty part between colons; %s", s, gpuSpecForms)
		}
		kind := "count"
		switch {
		case slices.Contains(vendors, strings.ToLower(tok)):
			kind = "vendor"
		case unicode.IsLetter(rune(tok[0])):
			kind = "name"
		case strings.IndexFunc(tok, unicode.IsLetter) >= 0:
			kind = "memory"
		}
		if kind == "count" {
			// "4090" is no count (1..maxGPUCount) but names a GPU through the
			// catalog's resolver, the one --gpu uses (Catalog.GPU).
			if _, err := parseCountRange(tok); err != nil {
				if _, gerr := c.GPU(tok); gerr == nil {
					kind = "name"
				}
			}
		}
		if prev, ok := seen[kind]; ok {
			return spec, BadFilter("gpu spec %q gives the %s twice (%s and %s); %s", s, model.Msg(kind), prev, tok, gpuSpecForms)
		}
		seen[kind] = tok
		var err error
		switch kind {
		case "vendor":
			spec.Vendor = strings.ToLower(tok)
		case "name":
			spec.Keys, err = resolveGPUNames(tok, c)
		case "memory":
			spec.VRAMGiB, err = ParseVRAMRange(tok)
		default:
			spec.Count, err = parseCountRange(tok)
		}
		if err != nil {
			return spec, BadFilter("gpu spec %q: %s", s, model.ErrMessage(err))
		}
	}
	return spec, nil
}

// gpuVendors lists the vendors of c's GPUs, lower case.
func gpuVendors(c *model.Catalog) []string {
	var out []string
	for i := range c.GPUs {
		if v := strings.ToLower(c.GPUs[i].Vendor); v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// resolveGPUNames turns "A100,H100*" into catalog keys.
func resolveGPUNames(list string, c *model.Catalog) ([]string, error) {
	var keys []string
	add := func(k string) {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	for _, name := range strings.Split(list, ",") {
		if name == "" {
			return nil, BadFilter("empty GPU name in %q; separate names with one comma, e.g. A100,H100", list)
		}
		if prefix, ok := strings.CutSuffix(name, "*"); ok {
			n := len(keys)
			p := model.NormKey(prefix)
			for i := range c.GPUs {
				g := &c.GPUs[i]
				for _, k := range append([]string{g.Key}, g.Aliases...) {
					if p != "" && strings.HasPrefix(model.NormKey(k), p) {
						add(g.Key)
						break
					}
				}
			}
			if len(keys) == n {
				return nil, unknownGPU(prefix, c, model.Msg("no GPU starts with %q", prefix))
			}
			continue
		}
		g, err := c.GPU(name)
		if err != nil {
			if err := instanceNotGPU(name, c); err != nil {
				return nil, err
			}
			return nil, unknownGPU(name, c, model.Msg("unknown GPU %q", name))
		}
		add(g.Key)
	}
	return keys, nil
}

// instanceNotGPU says, for a GPU spec that names an instance type
// instead (walk37: "gpuplan offers g5.xlarge" was told "unknown GPU"),
// whose type it is and its GPU, and how to list it; nil when no provider
// has a type of that name (case aside, with or without a "provider/" in
// front).
func instanceNotGPU(name string, c *model.Catalog) error {
	provider, typ, scoped := strings.Cut(name, "/")
	if !scoped {
		provider, typ = "", name
	}
	for i := range c.Instances {
		in := &c.Instances[i]
		if !strings.EqualFold(in.Type, typ) || (scoped && !strings.EqualFold(in.Provider, provider)) {
			continue
		}
		g, err := c.GPU(in.GPU)
		if err != nil {
			break
		}
		return BadFilter("that is an instance type, %s %s (%d × %s), not a GPU; list it and its rivals with gpuplan offers %s:%d --providers %s",
			in.Provider, in.Type, in.GPUCount, g.Name, g.Key, in.GPUCount, in.Provider)
	}
	return nil
}

// unknownGPU says what was not found and suggests the nearest keys and
// aliases, the names users type.
func unknownGPU(name string, c *model.Catalog, what model.Message) error {
	var names []string
	owner := map[string]string{} // name → GPU key, to suggest each GPU once
	for i := range c.GPUs {
		for _, n := range append([]string{c.GPUs[i].Key}, c.GPUs[i].Aliases...) {
			names = append(names, n)
			owner[n] = c.GPUs[i].Key
		}
	}
	var s []string
	seen := map[string]bool{}
	for _, n := range model.Closest(name, names, len(names)) {
		if k := owner[n]; !seen[k] && len(s) < 3 {
			seen[k] = true
			s = append(s, n)
		}
	}
	if len(s) > 0 {
		return BadFilter("%s; did you mean %s? (list them with gpuplan catalog gpus)", what, orMsg(s))
	}
	return BadFilter("%s (list them with gpuplan catalog gpus)", what)
}

// splitRange splits "a..b", "a+", "a" into its ends; a missing end is "".
// exact is true for a single value.
func splitRange(s string) (lo, hi string, exact bool) {
	if a, b, ok := strings.Cut(s, ".."); ok {
		return a, b, false
	}
	if a, ok := strings.CutSuffix(s, "+"); ok {
		return a, "", false
	}
	return s, s, true
}

// parseCountRange parses a GPU count: "8", "4+", "1..4", "..4", "4..".
func parseCountRange(s string) (Bounds, error) {
	forms := model.Msg("want a count such as 8, 4+, 1..4 or ..4")
	lo, hi, _ := splitRange(s)
	if lo == "" && hi == "" {
		return Bounds{}, BadFilter("count %q has no number; %s", s, forms)
	}
	var b Bounds
	for i, part := range []string{lo, hi} {
		if part == "" {
			continue
		}
		n, err := strconv.Atoi(part)
		if errors.Is(err, strconv.ErrRange) { // all digits, past int: too large, not "not a whole number" (walk)
			if len(part) > 24 { // all ASCII digits
				part = part[:24] + "…"
			}
			return Bounds{}, BadFilter("count %q: %s GPUs is too large, the most is %d; %s", s, part, maxGPUCount, forms)
		}
		if err != nil {
			return Bounds{}, BadFilter("count %q: %q is not a whole number; %s", s, part, forms)
		}
		if n < 1 || n > maxGPUCount {
			return Bounds{}, BadFilter("count %q: %d GPUs is outside 1..%d; %s", s, n, maxGPUCount, forms)
		}
		if i == 0 {
			b.Min = float64(n)
		} else {
			b.Max = float64(n)
		}
	}
	if b.Max > 0 && b.Min > b.Max {
		return Bounds{}, BadFilter("count %q: %g is more than %g; write the smaller first, e.g. %g..%g", s, b.Min, b.Max, b.Max, b.Min)
	}
	return b, nil
}

// gpuMemUnits are the units of GPU memory: the vendor's GB is GiB.
var gpuMemUnits = []struct {
	s   string
	gib float64
}{{"gib", 1}, {"gb", 1}, {"tib", 1024}, {"tb", 1024}}

// ParseVRAMRange parses GPU memory per GPU: "24GB..80GB", "40GB+",
// "..48GB", "40GB..", or an exact "80GB", into GiB (the vendor's GB of GPU
// memory is GiB, so GB and GiB are the same here; TB and TiB are 1024).
// Every number needs its unit, so that a count is never read as memory.
// Errors match ErrBadFilter.
func ParseVRAMRange(s string) (Bounds, error) {
	forms := model.Msg("want GPU memory such as 24GB..80GB, 40GB+, ..48GB or 80GB")
	t := strings.ToLower(strings.Join(strings.Fields(s), ""))
	lo, hi, _ := splitRange(t)
	if lo == "" && hi == "" {
		return Bounds{}, BadFilter("memory %q has no size; %s", s, forms)
	}
	var b Bounds
	for i, part := range []string{lo, hi} {
		if part == "" {
			continue
		}
		v, err := parseGiB(part)
		if err != nil {
			return Bounds{}, BadFilter("memory %q: %s; %s", s, model.ErrMessage(err), forms)
		}
		if i == 0 {
			b.Min = v
		} else {
			b.Max = v
		}
	}
	if b.Max > 0 && b.Min > b.Max {
		return Bounds{}, BadFilter("memory %q: the smaller size goes first, e.g. %s", s, Bounds{b.Max, b.Min}.String("GB"))
	}
	return b, nil
}

// parseGiB parses one size with its unit ("24gb") into GiB.
func parseGiB(s string) (float64, error) {
	for _, u := range gpuMemUnits {
		num, ok := strings.CutSuffix(s, u.s)
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(num, 64)
		if err != nil || num == "" || math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, model.Msg("%q is not a number", num)
		}
		if v <= 0 || v > 1<<20 {
			return 0, model.Msg("%s must be above 0 and at most 1048576 GB", s)
		}
		return v * u.gib, nil
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return 0, model.Msg("%q needs a unit (%sGB)", s, s)
	}
	return 0, model.Msg("%q is not a size with GB, GiB, TB or TiB", s)
}

// ParseMaxPrice parses a price limit in USD per hour: "2", "2.50",
// "$2.50", "2.5/h", "$2.50/hr". 0 is refused (it would mean "free"; leave
// the flag out for no limit). Errors match ErrBadFilter.
func ParseMaxPrice(s string) (float64, error) {
	t := strings.ToLower(strings.Join(strings.Fields(s), ""))
	t = strings.TrimPrefix(t, "$")
	for _, suf := range []string{"/hour", "/hr", "/h"} {
		if v, ok := strings.CutSuffix(t, suf); ok {
			t = v
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return 0, BadFilter("max price %q: want USD per hour above 0, e.g. 2.50 or $2.50/h", s)
	}
	return v, nil
}

var archAliases = map[string]model.Arch{"amd64": model.ArchX86, "x86-64": model.ArchX86, "x64": model.ArchX86, "aarch64": model.ArchARM, "arm": model.ArchARM}

// ParseArch parses a CPU architecture: x86_64 or arm64, with the aliases
// of Go, Debian and the kernel (amd64, aarch64).
func ParseArch(s string) (model.Arch, error) {
	a, err := model.ParseEnum(s, model.Verbatim("arch"), model.Archs, archAliases)
	if err != nil {
		return "", badEnum("arch", s, model.Archs)
	}
	return a, nil
}

// Sort orders the market's rows.
type Sort string

// Market sort keys, spelled as on the command line. Prices sort cheapest
// first, sizes largest first.
const (
	ByPrice     Sort = "price"      // USD per hour for the instance
	ByGPUPrice  Sort = "gpu-price"  // USD per GPU-hour
	ByVRAMPrice Sort = "vram-price" // USD per GiB of GPU memory per hour
	ByVCPUs     Sort = "vcpus"      // most vCPUs first
	ByRAM       Sort = "ram"        // most host RAM first
	ByVRAM      Sort = "vram"       // most GPU memory per GPU first
)

// Sorts lists the valid market sort keys, the default first.
var Sorts = []Sort{ByPrice, ByGPUPrice, ByVRAMPrice, ByVCPUs, ByRAM, ByVRAM}

var marketSortAliases = map[string]Sort{
	"hourly": ByPrice, "usd": ByPrice, "per-gpu": ByGPUPrice, "gpu-hour": ByGPUPrice,
	"$/gpu": ByGPUPrice, "per-gib": ByVRAMPrice, "gib-price": ByVRAMPrice, "$/gib": ByVRAMPrice,
	"cpu": ByVCPUs, "cpus": ByVCPUs, "vcpu": ByVCPUs, "memory": ByRAM, "host-ram": ByRAM,
	"gpu-memory": ByVRAM,
}

// ParseSort parses a market sort key.
func ParseSort(s string) (Sort, error) {
	k, err := model.ParseEnum(s, model.Verbatim("sort"), Sorts, marketSortAliases)
	if err != nil {
		return "", badEnum("sort", s, Sorts)
	}
	return k, nil
}

// GroupBy groups the market's rows.
type GroupBy string

// Group keys, spelled as on the command line (dstack offer --group-by).
const (
	GroupNone     GroupBy = ""
	GroupGPU      GroupBy = "gpu"
	GroupProvider GroupBy = "provider"
	GroupRegion   GroupBy = "region"
)

// Groups lists the valid group keys.
var Groups = []GroupBy{GroupGPU, GroupProvider, GroupRegion}

var marketGroupAliases = map[string]GroupBy{"none": GroupNone, "": GroupNone, "backend": GroupProvider, "cloud": GroupProvider, "accelerator": GroupGPU}

// ParseGroupBy parses a group key; "" and "none" mean no grouping.
func ParseGroupBy(s string) (GroupBy, error) {
	k, err := model.ParseEnum(s, model.Verbatim("group-by"), Groups, marketGroupAliases)
	if err != nil {
		return "", badEnum("group-by", s, Groups)
	}
	return k, nil
}

// Interconnect filter values: how an instance's GPUs talk to each other
// inside the node (Instance.Interconnect).
const (
	LinkNVLink   = "nvlink" // NVLink, with or without NVSwitch
	LinkNVSwitch = "nvswitch"
	LinkPCIe     = "pcie"
	LinkFast     = "fast" // anything faster than PCIe alone: Instance.FastInterconnect
)

// Interconnects lists the interconnect filter values.
var Interconnects = []string{LinkNVLink, LinkNVSwitch, LinkPCIe, "infinity-fabric", LinkFast}

// ParseInterconnect parses an interconnect filter value.
func ParseInterconnect(s string) (string, error) {
	k, err := model.ParseEnum(s, model.Verbatim("interconnect"), Interconnects, map[string]string{"nvl": LinkNVLink, "if": "infinity-fabric", "xgmi": "infinity-fabric"})
	if err != nil {
		return "", badEnum("interconnect", s, Interconnects)
	}
	return k, nil
}

// marketPricings are the modes the market is browsed by: recommend's
// pricing modes plus the availability modes with a public price.
var marketPricings = []model.Pricing{model.OnDemand, model.Spot, model.Reserved1y, model.Reserved3y, model.FlexStart, model.CapacityBlock}

// ParsePricing parses the pricing mode of the market: on-demand,
// spot, reserved-1y, reserved-3y (with ParsePricing's aliases),
// flex-start (or dws) and capacity-block. Errors match ErrBadFilter.
func ParsePricing(s string) (model.Pricing, error) {
	switch t := model.Pricing(strings.ToLower(strings.TrimSpace(s))); t {
	case model.FlexStart, model.CapacityBlock:
		return t, nil
	case "dws":
		return model.FlexStart, nil
	}
	p, err := model.ParsePricing(s)
	if err != nil {
		return "", BadFilter("pricing %q: want %s", s, orMsg(model.EnumNames(marketPricings)))
	}
	return p, nil
}
