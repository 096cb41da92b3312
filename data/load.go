package data

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/gpuplan/gpuplan/data/safeio"
	"github.com/gpuplan/gpuplan/internal/startup"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/show"
)

// SchemaVersion is the catalog schema this build reads.
const SchemaVersion = 1

// Load returns the embedded catalog, validated and indexed. The TOML under
// catalog/ is decoded, validated and merged at build time (go generate
// ./data writes catalog_gen.go through the same load as overlays), so
// start-up decodes nothing: Load copies the compiled catalog, so callers
// may change their copy, and builds its indexes. The error is always nil
// (kept so callers need not change if loading ever does work again).
func Load() (*model.Catalog, error) {
	c := copyCatalog(sharedCatalog())
	return c, nil
}

// sharedCatalog is the compiled catalog indexed, built once; nothing may
// change it (LoadWith hands it out read-only, Load copies it).
var sharedCatalog = sync.OnceValue(func() *model.Catalog {
	c := embeddedCatalog
	c.Index()
	return &c
})

// Prefetch indexes the compiled catalog on another goroutine, so a
// command that will load it (Load, LoadWith) finds it ready. The package
// calls it as it is initialised when the command line names such a
// command (startup.Ranks): the ~0.3 ms of indexing then runs on the
// second core while the packages after this one initialise and the
// command line is parsed (docs/speed.md, perf36). Calling it more than
// once, or not at all, is harmless: sharedCatalog is built once and a
// caller that comes first waits for it.
func Prefetch() { go sharedCatalog() }

func init() {
	if startup.Ranks {
		Prefetch()
	}
}

// copyCatalog copies src's entries, so a change to the copy (an overlay's
// price patch, a caller's edit) reaches no other catalog; src must be
// indexed.
func copyCatalog(src *model.Catalog) *model.Catalog {
	c := *src
	c.GPUs = slices.Clone(c.GPUs)
	c.Models = slices.Clone(c.Models)
	c.Discounts = slices.Clone(c.Discounts)
	c.Instances = slices.Clone(c.Instances)
	// Prices are patched region by region by overlays: one backing array
	// for every instance's copy.
	n := 0
	for i := range c.Instances {
		n += len(c.Instances[i].Prices)
	}
	prices := make([]model.RegionPrice, 0, n)
	for i := range c.Instances {
		in := &c.Instances[i]
		start := len(prices)
		prices = append(prices, in.Prices...)
		in.Prices = prices[start:len(prices):len(prices)]
	}
	// The indexes (names → positions) hold for the copy, whose slices keep
	// src's order: they are shared, never written (Index makes new maps;
	// a merge re-indexes), so each Load need not hash every name again.
	return &c
}

// load reads gpus.toml, models.toml, discounts.toml and instances/*.toml
// from fsys (an fs.FS so tests and fuzzing can pass fstest.MapFS).
// Problems are collected, not stopped at: the error joins every one, in
// file order.
func load(fsys fs.FS) (*model.Catalog, error) {
	// Decoding makes ~11 MB of short-lived garbage; collecting it while the
	// catalog loads costs a third of the time, so the collector waits until
	// the load is done.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	names, _ := fs.Glob(fsys, "catalog/instances/*.toml")
	sort.Strings(names)
	names = append([]string{"catalog/gpus.toml", "catalog/models.toml", "catalog/discounts.toml"}, names...)
	// Files decode independently: in parallel, results kept in file order.
	files := make([]catalogFile, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := fs.ReadFile(fsys, name)
			if err != nil {
				errs[i] = model.Msg("%s: %v", path.Base(name), unwrapPathError(err))
				return
			}
			errs[i] = decode(b, path.Base(name), "embedded", &files[i])
		}()
	}
	wg.Wait()
	all := errors.Join(errs...)
	var merged []error
	if all != nil {
		merged = append(merged, all)
	}
	var c model.Catalog
	regions, err := loadRegions(fsys)
	if err != nil {
		merged = append(merged, err)
	}
	c.Regions = regions // before merge, which indexes the catalog
	_ = merge(&c, files, &merged)
	if len(merged) > 0 {
		return nil, errors.Join(merged...)
	}
	return &c, nil
}

// catalogFile is one decoded, validated file: any file may hold any kind
// of entry (overlays usually mix them).
type catalogFile struct {
	name      string
	origin    string
	gpus      []model.GPU
	models    []model.Architecture
	instances []instanceEntry
	// full are complete instances of distinct types (a CSV overlay's),
	// merged as they are: no per-entry copy or duplicate check.
	full []model.Instance
	// backing is full's backing array from its start, room free slots
	// before full[0]: merge puts the earlier instances there, no copy.
	backing   []model.Instance
	room      int
	discounts []model.Discount
	// regions is the geography its [[region]] tables give (rawRegion).
	regions []model.ProviderRegions
	// date is the file's modification date (fileDate); "" for the
	// embedded files.
	date string
}

// rawFile is the TOML shape of every catalog file; see docs/schemas.md,
// "Catalog files".
type rawFile struct {
	SchemaVersion *int          `toml:"schema_version"`
	Provider      string        `toml:"provider"`
	GPU           []rawGPU      `toml:"gpu"`
	Model         []rawModel    `toml:"model"`
	Instance      []rawInstance `toml:"instance"`
	Discount      []rawDiscount `toml:"discount"`
	Region        []rawRegion   `toml:"region"`
}

type rawGPU struct {
	Key                 string   `toml:"key"`
	Name                string   `toml:"name"`
	Aliases             []string `toml:"aliases"`
	Vendor              string   `toml:"vendor"`
	Architecture        string   `toml:"architecture"`
	ComputeCapability   string   `toml:"compute_capability"`
	MemoryGiB           float64  `toml:"memory_gib"`
	UsableMemoryMiB     float64  `toml:"usable_memory_mib"`
	MemoryBandwidthGBps float64  `toml:"memory_bandwidth_gbps"`
	FP32TFLOPS          float64  `toml:"fp32_tflops"`
	TF32TFLOPS          float64  `toml:"tf32_tflops"`
	FP16TFLOPS          float64  `toml:"fp16_tflops"`
	BF16TFLOPS          float64  `toml:"bf16_tflops"`
	FP8TFLOPS           float64  `toml:"fp8_tflops"`
	INT8TOPS            float64  `toml:"int8_tops"`
	Interconnect        string   `toml:"interconnect"`
	InterconnectGBps    float64  `toml:"interconnect_gbps"`
	TDPWatts            float64  `toml:"tdp_w"`
	Source              string   `toml:"source"`
	AsOf                date     `toml:"as_of"`
}

type rawModel struct {
	Key                    string   `toml:"key"`
	Name                   string   `toml:"name"`
	Aliases                []string `toml:"aliases"`
	FineTunes              []string `toml:"fine_tunes"`
	Family                 string   `toml:"family"`
	Params                 float64  `toml:"params"`
	PublishedParams        float64  `toml:"published_params"`
	ParamsSource           string   `toml:"params_source"`
	Layers                 int      `toml:"layers"`
	DecoderLayers          int      `toml:"decoder_layers"`
	Hidden                 int      `toml:"hidden"`
	Heads                  int      `toml:"heads"`
	KVHeads                int      `toml:"kv_heads"`
	HeadDim                int      `toml:"head_dim"`
	FFN                    int      `toml:"ffn"`
	GatedMLP               bool     `toml:"gated_mlp"`
	FusedQKV               bool     `toml:"fused_qkv"`
	FusedGateUp            bool     `toml:"fused_gate_up"`
	Vocab                  int      `toml:"vocab"`
	Tied                   bool     `toml:"tied_embeddings"`
	Norm                   string   `toml:"norm"`
	NormsPerLayer          int      `toml:"norms_per_layer"`
	LinearBias             bool     `toml:"linear_bias"`
	Dropout                bool     `toml:"dropout"`
	QKVBias                bool     `toml:"qkv_bias"`
	LearnedPositions       int      `toml:"learned_positions"`
	TokenTypes             int      `toml:"token_types"`
	Pooler                 bool     `toml:"pooler"`
	Experts                int      `toml:"experts"`
	ExpertsPerToken        int      `toml:"experts_per_token"`
	SharedExperts          int      `toml:"shared_experts"`
	DenseLayers            int      `toml:"dense_layers"`
	DenseFFN               int      `toml:"dense_ffn"`
	QKNorm                 bool     `toml:"qk_norm"`
	QLoRARank              int      `toml:"q_lora_rank"`
	KVLoRARank             int      `toml:"kv_lora_rank"`
	RopeHeadDim            int      `toml:"rope_head_dim"`
	VHeadDim               int      `toml:"v_head_dim"`
	VisionParams           float64  `toml:"vision_params"`
	ExtraParams            float64  `toml:"extra_params"`
	MaxPositions           int      `toml:"max_positions"`
	RopeTheta              float64  `toml:"rope_theta"`
	RopeOriginal           int      `toml:"rope_original_positions"`
	ModelType              string   `toml:"model_type"`
	Activation             string   `toml:"activation"`
	ParallelResidual       bool     `toml:"parallel_residual"`
	EncoderSeqLen          int      `toml:"encoder_seq_len"`
	PatchSize              int      `toml:"patch_size"`
	Channels               int      `toml:"channels"`
	ImageSize              int      `toml:"image_size"`
	ForwardGMACs           float64  `toml:"forward_gmacs"`
	ActivationMiBPerSample float64  `toml:"activation_mib_per_sample"`
	DefaultBatch           int      `toml:"default_batch"`
	DefaultSeqLen          int      `toml:"default_seq_len"`
	DefaultImageSize       int      `toml:"default_image_size"`
	DefaultOptimizer       string   `toml:"default_optimizer"`
	OptimizerSource        string   `toml:"optimizer_source"`
	// SlidingWindow and SlidingLayers: config.json's sliding_window and
	// how many layers use it (layer_types, sliding_window_pattern, or the
	// model type's default), model.Architecture.SlidingWindow.
	SlidingWindow int `toml:"sliding_window"`
	SlidingLayers int `toml:"sliding_layers"`
	// QuantMethod is the released checkpoint's quantization_config
	// quant_method when it is quantized ("mxfp4": gpt-oss); the row's
	// source (its config.json) says so. Serving defaults to it.
	QuantMethod string `toml:"quant_method"`
	// WeightBlockSize is a block-quantized fp8 checkpoint's
	// quantization_config.weight_block_size ([128, 128] for DeepSeek-V3).
	WeightBlockSize []int  `toml:"weight_block_size"`
	Source          string `toml:"source"`
	AsOf            date   `toml:"as_of"`
}

// rawInstance has pointers for every field an overlay may leave out to
// patch an existing entry (e.g. only a negotiated price for one region).
type rawInstance struct {
	Provider     string     `toml:"provider"`
	Type         string     `toml:"type"`
	GPU          *string    `toml:"gpu"`
	GPUCount     *int       `toml:"gpu_count"`
	VCPUs        *int       `toml:"vcpus"`
	MemoryGiB    *float64   `toml:"memory_gib"`
	LocalNVMeGB  *float64   `toml:"local_nvme_gb"`
	NetworkGbps  *float64   `toml:"network_gbps"`
	Interconnect *string    `toml:"interconnect"`
	Retired      *date      `toml:"retired"`
	Source       *string    `toml:"source"`
	AsOf         *date      `toml:"as_of"`
	Prices       []rawPrice `toml:"prices"`
	rawInstanceExt
}

type rawPrice struct {
	Region   string   `toml:"region"`
	OnDemand *float64 `toml:"on_demand"`
	Spot     *float64 `toml:"spot"`
	rawPriceExt
}

type rawDiscount struct {
	Provider string   `toml:"provider"`
	Term     string   `toml:"term"`
	Fraction float64  `toml:"fraction"`
	Prefixes []string `toml:"prefixes"`
	Source   string   `toml:"source"`
	AsOf     date     `toml:"as_of"`
}

// instanceEntry is a validated instance, with which optional fields the
// file set, so overlays patch rather than replace.
type instanceEntry struct {
	model.Instance
	complete bool // every required field given: a new entry, not a patch
}

// date is a TOML local date (as_of = 2026-11-30), kept as YYYY-MM-DD so
// no time zone can shift it.
type date string

// UnmarshalTOML accepts a TOML date; a quoted string gets an error that
// says how to write it.
func (d *date) UnmarshalTOML(v any) error {
	t, ok := v.(time.Time)
	if !ok {
		return model.Msg("want a date such as 2026-11-30 (no quotes), got %T %v", v, v)
	}
	if t.Hour() != 0 || t.Minute() != 0 || t.Second() != 0 || t.Nanosecond() != 0 {
		return model.Msg("want a date such as 2026-11-30, got a date-time %v", v)
	}
	*d = date(t.Format(time.DateOnly))
	// A later date would become the catalog's date in version, headers and
	// exports (re-attack 5: as_of = 2099-12-31); a day's slack covers
	// time zones.
	if tomorrow := time.Now().AddDate(0, 0, 1).Format(time.DateOnly); string(*d) > tomorrow {
		return model.Msg("date %s is in the future (after %s): a price or a retirement is dated when it was seen", *d, tomorrow)
	}
	return nil
}

var keyPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]+([.-][a-z0-9]+)*$`) })

// decode parses one catalog file and validates each entry on its own.
// Cross-file checks (unknown GPUs, duplicate keys) happen in merge.
func decode(b []byte, name, origin string, out *catalogFile) error {
	if err := safeio.CheckTOMLDepth(b); err != nil {
		return model.Msg("%s: %v", name, err)
	}
	var raw rawFile
	md, err := toml.Decode(string(b), &raw)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			msg := config.TidyTOMLMessage(pe.Message) // never the file's content
			if pe.LastKey != "" && !strings.Contains(msg, pe.LastKey) {
				return model.Msg("%s:%d: %s: %s", name, pe.Position.Line, pe.LastKey, msg)
			}
			return model.Msg("%s:%d: %s", name, pe.Position.Line, msg)
		}
		if ce := config.TOMLValueError(err); ce != nil { // worded as a config file's: "want a whole number such as 8, got a string"
			return model.Msg("%s:%d: %s: %s", name, ce.Line, ce.Key, ce.Msg)
		}
		return model.Msg("%s: %v", name, err)
	}
	if extra := md.Undecoded(); len(extra) > 0 {
		const shown = 5 // a typo repeats; a hostile file has 100,000
		var msgs []string
		for _, k := range extra[:min(len(extra), shown)] {
			msgs = append(msgs, unknownKeyMsg(k))
		}
		if len(extra) > shown {
			msgs = append(msgs, fmt.Sprintf("and %d more unknown keys", len(extra)-shown))
		}
		return model.Msg("%s: %s", name, strings.Join(msgs, "; "))
	}
	if raw.SchemaVersion == nil {
		return model.Msg("%s: missing schema_version (add schema_version = %d at the top)", name, SchemaVersion)
	}
	if *raw.SchemaVersion != SchemaVersion {
		return model.Msg("%s: schema_version %d is not supported; this gpuplan reads %d", name, *raw.SchemaVersion, SchemaVersion)
	}
	if len(raw.GPU)+len(raw.Model)+len(raw.Instance)+len(raw.Discount) == 0 {
		return model.Msg("%s: no entries; want [[gpu]], [[model]], [[instance]] or [[discount]] tables", name)
	}
	if len(raw.Region) > maxOverlayRegions {
		return model.Msg("%s: %d [[region]] tables, more than %d; a provider has fewer than 100 regions", name, len(raw.Region), maxOverlayRegions)
	}
	*out = catalogFile{name: name, origin: origin}
	var errs []error
	for i := range raw.GPU {
		g, err := raw.GPU[i].validate()
		if err != nil {
			errs = append(errs, model.Msg("%s: gpu %s: %v", name, entryName(raw.GPU[i].Key, i), err))
			continue
		}
		out.gpus = append(out.gpus, g)
	}
	for i := range raw.Model {
		m, err := raw.Model[i].validate()
		if err != nil {
			errs = append(errs, model.Msg("%s: model %s: %v", name, entryName(raw.Model[i].Key, i), err))
			continue
		}
		out.models = append(out.models, m)
	}
	for i := range raw.Instance {
		r := &raw.Instance[i]
		if r.Provider == "" {
			r.Provider = raw.Provider
		}
		in, err := r.validate(origin)
		if err != nil {
			errs = append(errs, model.Msg("%s: instance %s: %v", name, entryName(r.Type, i), err))
			continue
		}
		out.instances = append(out.instances, in)
	}
	if regions, rerrs := decodeOverlayRegions(raw.Region, raw.Provider, origin); len(rerrs) > 0 {
		for _, err := range rerrs {
			errs = append(errs, model.Msg("%s: %v", name, err))
		}
	} else {
		out.regions = regions
	}
	for i := range raw.Discount {
		d, err := raw.Discount[i].validate()
		if err != nil {
			errs = append(errs, model.Msg("%s: discount #%d: %v", name, i+1, err))
			continue
		}
		if model.FromOverlay(origin) {
			d.Origin = origin
		}
		out.discounts = append(out.discounts, d)
	}
	return errors.Join(errs...)
}

// validKeys lists each table's keys, for "did you mean" on typos.
var validKeys = map[string][]string{
	"":         {"schema_version", "provider", "gpu", "model", "instance", "discount", "region"},
	"gpu":      config.TOMLKeys(rawGPU{}),
	"model":    config.TOMLKeys(rawModel{}),
	"instance": append(config.TOMLKeys(rawInstance{}), config.TOMLKeys(rawInstanceExt{})...),
	"prices":   append(config.TOMLKeys(rawPrice{}), config.TOMLKeys(rawPriceExt{})...),
	"discount": config.TOMLKeys(rawDiscount{}),
	"region":   config.TOMLKeys(rawRegion{}),
}

func unknownKeyMsg(k toml.Key) string {
	table := ""
	if len(k) > 1 {
		table = k[len(k)-2]
	}
	last := k[len(k)-1]
	msg := fmt.Sprintf("unknown key %q", k.String())
	if s := model.Closest(last, validKeys[table], 1); len(s) > 0 {
		msg += fmt.Sprintf(" (did you mean %q?)", s[0])
	}
	return msg
}

func entryName(key string, i int) string {
	if key == "" || safeio.CheckName(key) != nil && len(key) > safeio.MaxNameBytes {
		return fmt.Sprintf("#%d", i+1) // an absurd key is named by position
	}
	return fmt.Sprintf("%q", key)
}

// field is one name-like value of an entry, for checkNames.
type field struct {
	key    string // TOML key, e.g. "aliases[2]"
	v      string
	source bool // a citation or URL: CheckSource's longer limit
}

// checkNames applies safeio.CheckName (CheckSource for sources) to every
// name-like value: names are data and end up in tables, shell scripts and
// YAML, so control characters, invalid UTF-8 and absurd lengths are
// rejected at load time. Each error names the key.
func checkNames(fields ...field) []error {
	var errs []error
	for _, f := range fields {
		check := safeio.CheckName
		if f.source {
			check = safeio.CheckSource
		}
		if err := check(f.v); err != nil {
			errs = append(errs, model.Msg("%s: %v", f.key, err))
		}
	}
	return errs
}

// checkList is checkNames for each element of a list key, named
// aliases[1], aliases[2], ... in errors.
func checkList(key string, vs []string) []error {
	var errs []error
	for i, v := range vs {
		if err := safeio.CheckName(v); err != nil {
			errs = append(errs, model.Msg("%s[%d]: %v", key, i+1, err))
		}
	}
	return errs
}

// check helpers: each returns an error naming the TOML key.
func positive(key string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return model.Msg("%s must be > 0, got %v", key, v)
	}
	return nil
}

func nonNegative(key string, v float64) error {
	if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return model.Msg("%s must be ≥ 0, got %v", key, v)
	}
	return nil
}

func required(key, v string) error {
	if strings.TrimSpace(v) == "" {
		return model.Msg("missing %s", key)
	}
	return nil
}

func checkKey(key string) error {
	if err := required("key", key); err != nil {
		return err
	}
	if !keyPattern().MatchString(key) {
		return model.Msg("key %q must be lowercase letters, digits, '-' and '.'", key)
	}
	return nil
}

func checkDate(key string, d date) error {
	if d == "" {
		return model.Msg("missing %s (a date such as 2026-11-30)", key)
	}
	return nil
}

var vendors = []string{"nvidia", "amd", "intel"}
var ccPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]{1,2}\.[0-9]$`) })

// gpuFigureMax are the largest datasheet figures of the embedded GPUs
// (data/catalog/gpus.toml, whose entries cite the datasheets: AMD
// Instinct MI355X and MI325X, NVIDIA GB200 and GB300), one per
// figure; an overlay's GPU may have up to four times each (two
// generations' headroom: Hopper to Blackwell roughly doubled dense
// FP8), and an absurd figure (1e12 TFLOPS, attack round 11) is refused.
// TestGPUFigureMaxSourced holds them to the catalog. memory_gib has its
// own bound (4096, per GPU).
var gpuFigureMax = []struct {
	key, gpu  string
	datasheet float64
	of        func(*rawGPU) float64
}{
	{"memory_bandwidth_gbps", "mi355x", 8000, func(r *rawGPU) float64 { return r.MemoryBandwidthGBps }},
	{"fp32_tflops", "mi325x", 163.4, func(r *rawGPU) float64 { return r.FP32TFLOPS }},
	{"tf32_tflops", "gb300", 1250, func(r *rawGPU) float64 { return r.TF32TFLOPS }},
	{"fp16_tflops", "mi355x", 2516.6, func(r *rawGPU) float64 { return r.FP16TFLOPS }},
	{"bf16_tflops", "mi355x", 2516.6, func(r *rawGPU) float64 { return r.BF16TFLOPS }},
	{"fp8_tflops", "mi355x", 5033.2, func(r *rawGPU) float64 { return r.FP8TFLOPS }},
	{"int8_tops", "mi355x", 5033.2, func(r *rawGPU) float64 { return r.INT8TOPS }},
	{"interconnect_gbps", "gb300", 1800, func(r *rawGPU) float64 { return r.InterconnectGBps }},
	{"tdp_w", "mi355x", 1400, func(r *rawGPU) float64 { return r.TDPWatts }},
}

// maxCCMajor is the largest CUDA compute capability major of the
// embedded GPUs (12.0, RTX Blackwell: NVIDIA's CUDA GPUs list); an
// overlay's may be up to twice it.
const maxCCMajor = 12

func (r *rawGPU) validate() (model.GPU, error) {
	g := model.GPU{
		Key: r.Key, Name: r.Name, Aliases: r.Aliases, Vendor: r.Vendor, Architecture: r.Architecture,
		ComputeCapability: r.ComputeCapability, MemoryGiB: r.MemoryGiB, UsableMemoryMiB: r.UsableMemoryMiB,
		MemoryBandwidthGBps: r.MemoryBandwidthGBps, FP32TFLOPS: r.FP32TFLOPS, TF32TFLOPS: r.TF32TFLOPS,
		FP16TFLOPS: r.FP16TFLOPS, BF16TFLOPS: r.BF16TFLOPS, FP8TFLOPS: r.FP8TFLOPS, INT8TOPS: r.INT8TOPS,
		Interconnect: r.Interconnect, InterconnectGBps: r.InterconnectGBps, TDPWatts: r.TDPWatts,
		Source: r.Source, AsOf: string(r.AsOf),
	}
	errs := []error{checkKey(r.Key), required("name", r.Name), required("source", r.Source), checkDate("as_of", r.AsOf),
		positive("memory_gib", r.MemoryGiB), nonNegative("fp32_tflops", r.FP32TFLOPS)}
	errs = append(errs, checkNames(field{key: "key", v: r.Key}, field{key: "name", v: r.Name}, field{key: "vendor", v: r.Vendor},
		field{key: "architecture", v: r.Architecture}, field{key: "compute_capability", v: r.ComputeCapability},
		field{key: "interconnect", v: r.Interconnect}, field{key: "source", v: r.Source, source: true})...)
	errs = append(errs, checkList("aliases", r.Aliases)...)
	for _, f := range []struct {
		k string
		v float64
	}{{"usable_memory_mib", r.UsableMemoryMiB}, {"memory_bandwidth_gbps", r.MemoryBandwidthGBps},
		{"tf32_tflops", r.TF32TFLOPS}, {"fp16_tflops", r.FP16TFLOPS}, {"bf16_tflops", r.BF16TFLOPS},
		{"fp8_tflops", r.FP8TFLOPS}, {"int8_tops", r.INT8TOPS}, {"interconnect_gbps", r.InterconnectGBps}, {"tdp_w", r.TDPWatts}} {
		errs = append(errs, nonNegative(f.k, f.v))
	}
	if !contains(vendors, r.Vendor) {
		errs = append(errs, model.Msg("vendor %q: want %s", r.Vendor, strings.Join(vendors, ", ")))
	}
	if r.Vendor == "nvidia" && !ccPattern().MatchString(r.ComputeCapability) {
		errs = append(errs, model.Msg("compute_capability %q: want major.minor such as 8.0", r.ComputeCapability))
	}
	for _, m := range gpuFigureMax {
		if v := m.of(r); v > 4*m.datasheet {
			errs = append(errs, model.Msg("%s %v is above %v, four times the largest datasheet figure in the embedded catalog (%s's %v); check the unit (per GPU, dense, TFLOPS, GB/s, W)",
				m.key, v, 4*m.datasheet, m.gpu, m.datasheet))
		}
	}
	if major, _, ok := strings.Cut(r.ComputeCapability, "."); ok && r.Vendor == "nvidia" && ccPattern().MatchString(r.ComputeCapability) {
		if n, _ := strconv.Atoi(major); n > 2*maxCCMajor {
			errs = append(errs, model.Msg("compute_capability %q: major %d is above %d, twice the newest in the embedded catalog (%d.x, Blackwell RTX); write the CUDA compute capability NVIDIA lists for the GPU",
				r.ComputeCapability, n, 2*maxCCMajor, maxCCMajor))
		}
	}
	if r.UsableMemoryMiB > r.MemoryGiB*1024 {
		errs = append(errs, model.Msg("usable_memory_mib %v exceeds memory_gib %v", r.UsableMemoryMiB, r.MemoryGiB))
	}
	if r.MemoryGiB > 4096 {
		errs = append(errs, model.Msg("memory_gib %v is per GPU; this looks like an instance total", r.MemoryGiB))
	}
	return g, errors.Join(errs...)
}

func (r *rawModel) validate() (model.Architecture, error) {
	fam, ferr := model.ParseFamily(r.Family)
	a := model.Architecture{
		Key: r.Key, Name: r.Name, Aliases: r.Aliases, FineTunes: r.FineTunes, Family: fam, Params: r.Params, PublishedParams: r.PublishedParams,
		Layers: r.Layers, DecoderLayers: r.DecoderLayers, Hidden: r.Hidden, Heads: r.Heads, KVHeads: r.KVHeads,
		HeadDim: r.HeadDim, FFN: r.FFN, GatedMLP: r.GatedMLP, Vocab: r.Vocab, Tied: r.Tied, Norm: model.Norm(r.Norm),
		NormsPerLayer: r.NormsPerLayer, LinearBias: r.LinearBias, Dropout: r.Dropout, QKVBias: r.QKVBias, LearnedPositions: r.LearnedPositions,
		TokenTypes: r.TokenTypes, Pooler: r.Pooler, Experts: r.Experts, ExpertsPerToken: r.ExpertsPerToken,
		SharedExperts: r.SharedExperts, DenseLayers: r.DenseLayers, DenseFFN: r.DenseFFN, QKNorm: r.QKNorm,
		QLoRARank: r.QLoRARank, KVLoRARank: r.KVLoRARank, RopeHeadDim: r.RopeHeadDim, VHeadDim: r.VHeadDim, VisionParams: r.VisionParams,
		FusedQKV: r.FusedQKV, FusedGateUp: r.FusedGateUp,
		ExtraParams: r.ExtraParams, MaxPositions: r.MaxPositions, RopeTheta: r.RopeTheta, RopeOriginal: r.RopeOriginal, SlidingWindow: r.SlidingWindow, SlidingLayers: r.SlidingLayers, ModelType: r.ModelType, Activation: r.Activation, ParallelResidual: r.ParallelResidual, EncoderSeqLen: r.EncoderSeqLen, PatchSize: r.PatchSize,
		Channels: r.Channels, ImageSize: r.ImageSize, ForwardGMACs: r.ForwardGMACs,
		ActivationMiBPerSample: r.ActivationMiBPerSample, DefaultBatch: r.DefaultBatch, DefaultSeqLen: r.DefaultSeqLen,
		DefaultImageSize: r.DefaultImageSize, OptimizerSource: r.OptimizerSource, QuantMethod: r.QuantMethod,
		Source: r.Source, ParamsSource: r.ParamsSource, AsOf: string(r.AsOf),
	}
	errs := []error{checkKey(r.Key), required("name", r.Name), required("source", r.Source), checkDate("as_of", r.AsOf),
		positive("published_params", r.PublishedParams), required("params_source", r.ParamsSource)}
	errs = append(errs, checkNames(field{key: "key", v: r.Key}, field{key: "name", v: r.Name}, field{key: "family", v: r.Family},
		field{key: "norm", v: r.Norm}, field{key: "model_type", v: r.ModelType}, field{key: "activation", v: r.Activation}, field{key: "source", v: r.Source, source: true}, field{key: "params_source", v: r.ParamsSource, source: true})...)
	errs = append(errs, checkList("aliases", r.Aliases)...)
	for i, f := range r.FineTunes { // each is an alias too, which finds it: fine_tunes only marks it
		if !slices.Contains(r.Aliases, f) {
			errs = append(errs, model.Msg("fine_tunes[%d] %q is not among aliases; list it there too", i+1, f))
		}
	}
	if r.DefaultOptimizer != "" || r.OptimizerSource != "" { // a recipe's optimizer cites the recipe
		opt, err := model.ParseOptimizer(r.DefaultOptimizer)
		a.DefaultOptimizer = opt
		errs = append(errs, err, required("optimizer_source", r.OptimizerSource),
			errors.Join(checkNames(field{key: "optimizer_source", v: r.OptimizerSource, source: true})...))
	}
	if r.DefaultOptimizer != "" || r.OptimizerSource != "" { // a recipe's optimizer cites the recipe
		opt, err := model.ParseOptimizer(r.DefaultOptimizer)
		a.DefaultOptimizer = opt
		errs = append(errs, err, required("optimizer_source", r.OptimizerSource),
			errors.Join(checkNames(field{key: "optimizer_source", v: r.OptimizerSource, source: true})...))
	}
	switch {
	case r.QuantMethod == "" || r.QuantMethod == "fp8" || r.QuantMethod == "mxfp4" && r.Experts >= 2:
		// Released formats the catalog serves as released: fp8 on every
		// linear layer (serve.WeightFP8, DeepSeek-V3) and MXFP4 on an
		// MoE's experts (serve.WeightMXFP4, gpt-oss); others come from
		// --hf-config.
	default:
		errs = append(errs, fmt.Errorf("quant_method %q: the catalog knows \"fp8\" and \"mxfp4\" on a model with experts (gpt-oss); give a quantized checkpoint's config.json with --hf-config instead", r.QuantMethod))
	}
	switch {
	case len(r.WeightBlockSize) == 0:
	case r.QuantMethod != "fp8" || len(r.WeightBlockSize) != 2 || r.WeightBlockSize[0] < 1 || r.WeightBlockSize[1] < 1:
		errs = append(errs, fmt.Errorf("weight_block_size %v: want two whole numbers ≥ 1 such as [128, 128], on a row with quant_method \"fp8\"", r.WeightBlockSize))
	default:
		a.WeightBlockSize = [2]int{r.WeightBlockSize[0], r.WeightBlockSize[1]}
	}
	if ferr != nil {
		errs = append(errs, ferr)
	} else if err := a.Validate(); err != nil {
		var ke *model.KindError
		if errors.As(err, &ke) { // the sentence alone: the entry names the model
			err = ke.Msg
		}
		errs = append(errs, err)
	} else if r.PublishedParams > 0 {
		errs = append(errs, paramsAgree(&a))
	}
	if r.Norm != "" && r.Norm != string(model.LayerNorm) && r.Norm != string(model.RMSNorm) {
		errs = append(errs, model.Msg("norm %q: want layernorm or rmsnorm", r.Norm))
	}
	if ferr == nil && !fam.Transformer() {
		if r.ForwardGMACs <= 0 || r.ImageSize <= 0 {
			errs = append(errs, model.Msg("a %s needs forward_gmacs and image_size", fam))
		}
		if r.ActivationMiBPerSample <= 0 {
			errs = append(errs, model.Msg("a %s needs activation_mib_per_sample", fam))
		}
	}
	if r.RopeOriginal > 0 && (r.RopeTheta <= 0 || r.MaxPositions <= 0 || r.RopeOriginal > r.MaxPositions) {
		// The context a RoPE scaling multiplies (serve.RopeScaling): the
		// override vLLM is given carries the base too, and a model card's
		// native context is within its config.json's positions.
		errs = append(errs, model.Msg("rope_original_positions %d needs rope_theta and max_positions of at least it (got rope_theta %v, max_positions %d)", r.RopeOriginal, r.RopeTheta, r.MaxPositions))
	}
	for _, d := range []struct {
		k string
		v int
	}{{"default_batch", r.DefaultBatch}, {"default_seq_len", r.DefaultSeqLen}, {"default_image_size", r.DefaultImageSize}} {
		if d.v < 0 {
			errs = append(errs, model.Msg("%s must be ≥ 0, got %d", d.k, d.v))
		}
	}
	return a, errors.Join(errs...)
}

// paramTolerance is how far a model's counts may be from its
// published_params: TestParamCounts holds every embedded model's formula
// count within 1% of its published count (the Hugging Face importer's
// tests hold theirs within 0.5%).
const paramTolerance = 0.01

// paramsAgree checks a's shape (when it has one) and its params (when
// set) against published_params within paramTolerance: a 2-layer,
// 512-wide shape under a 70B model's published count made a 70B full
// fine-tune "fit" 8×T4 (attack round 10, S2).
func paramsAgree(a *model.Architecture) error {
	pub := a.PublishedParams
	if a.Params > 0 && math.Abs(a.Params-pub)/pub > paramTolerance {
		return model.Msg("params %.4g is %.0f%% from published_params %.4g (within 1%% expected); fix one of them", a.Params, 100*math.Abs(a.Params-pub)/pub, pub)
	}
	s := *a
	s.Params = 0
	if !s.HasShape() {
		return nil
	}
	if got := s.ParamCount(); math.Abs(got-pub)/pub > paramTolerance {
		return model.Msg("the shape (layers, hidden, heads, ffn, vocab...) gives %.4g parameters, %.0f%% from published_params %.4g (within 1%% expected); fix the shape or published_params", got, 100*math.Abs(got-pub)/pub, pub)
	}
	return nil
}

// maxUSDPerHour bounds an instance-hour price in every catalog path (TOML
// and CSV): the dearest row of SkyPilot's v8 catalogs is 142.42 USD/h (AWS),
// so anything above is a typo or a hostile file, not a price.
const maxUSDPerHour = 10000

// minUSDPerHour is the least price a catalog file may give: the catalog's
// precision (roundPrice keeps 6 decimals), below which catalog update and
// a CSV read a price as none; 1e-300 is no price but a way to rank first.
const minUSDPerHour = 0.000001

// maxDiscountFraction bounds a [[discount]]'s fraction: the deepest
// reserved or committed-use discount a provider publishes, as recorded in
// catalog/discounts.toml's notes — AWS EC2 Reserved Instances / Instance
// Savings Plans "up to 72%" off On-Demand, Azure Reserved VM Instances
// "up to 72%", GCP committed use "up to 55%" (70% for memory-optimized
// types). A deeper one is a typo or a way to rank first (attack round 10,
// S1: fraction 0.99 made p5.48xlarge $0.55/h).
const maxDiscountFraction = 0.72

// MaxVCPUs and MaxHostMemoryGiB bound an instance's host (vCPUs, host
// RAM) in every catalog path: TOML overlays, SkyPilot CSVs and catalog
// update's importers. They are twice the largest instance any cloud
// sells, AWS's high-memory u7in-32tb.224xlarge (896 vCPUs, 32 TiB; its
// u-24tb1.metal has 448 vCPUs and 24 TiB, AWS blog "EC2 High Memory
// update: new 18 TB and 24 TB instances"), rounded up to a power of two;
// the embedded catalog's largest GPU hosts have 288 vCPUs (OCI
// BM.GPU.RTXPRO.8) and 4,096 GiB (AWS p6-b300.48xlarge). A larger figure
// is a typo or a hostile file (attack round 10, M3: 99,999,999 GiB of
// host RAM passed every offload fit check).
const (
	MaxVCPUs         = 2048
	MaxHostMemoryGiB = 65536
)

// HostFits reports, as an error naming the bound, a host with more vCPUs
// or memory than MaxVCPUs or MaxHostMemoryGiB.
func HostFits(vcpus int, memGiB float64) error {
	if vcpus > MaxVCPUs {
		return model.Msg("vcpus %d is above %d, twice the largest instance any cloud sells", vcpus, MaxVCPUs)
	}
	if memGiB > MaxHostMemoryGiB {
		return model.Msg("memory_gib %v is above %d, twice the largest instance any cloud sells (host RAM per instance, not per GPU or in MiB)", memGiB, MaxHostMemoryGiB)
	}
	return nil
}

var interconnects = []string{"nvlink", "nvswitch", "pcie", "infinity-fabric"}

func (r *rawInstance) validate(origin string) (instanceEntry, error) {
	in := instanceEntry{Instance: model.Instance{Provider: r.Provider, Type: r.Type, Origin: origin}}
	errs := []error{required("provider", r.Provider), required("type", r.Type)}
	names := []field{{key: "provider", v: r.Provider}, {key: "type", v: r.Type}}
	for _, f := range []struct {
		key string
		v   *string
	}{{"gpu", r.GPU}, {"interconnect", r.Interconnect}, {"source", r.Source},
		{"retired_source", r.RetiredSource}, {"skypilot_accelerator", r.SkyPilotAccelerator}, {"cpu_arch", r.CPUArch}, {"currency", r.Currency},
		{"missing_source", r.MissingSource}} {
		if f.v != nil {
			names = append(names, field{key: f.key, v: *f.v, source: f.key == "source" || f.key == "retired_source" || f.key == "missing_source"})
		}
	}
	if known := ProviderLookalike(r.Provider); known != "" {
		return in, providerLookalikeMsg(r.Provider, known) // before the character checks, which would not name it
	}
	nameErrs := checkNames(names...)
	for i, p := range r.Prices {
		if err := safeio.CheckName(p.Region); err != nil {
			nameErrs = append(nameErrs, model.Msg("prices[%d].region: %v", i+1, err))
		}
	}
	if len(nameErrs) > 0 {
		return in, errors.Join(append(errs, nameErrs...)...) // later messages would repeat the bad text
	}
	if r.Provider != "" && !keyPattern().MatchString(r.Provider) {
		errs = append(errs, model.Msg("provider %q must be lowercase letters, digits and '-'", r.Provider))
	}
	in.complete = r.GPU != nil && r.GPUCount != nil && r.VCPUs != nil && r.MemoryGiB != nil && r.Source != nil && r.AsOf != nil
	if r.GPU != nil {
		in.GPU = *r.GPU
	}
	if r.GPUCount != nil {
		in.GPUCount = *r.GPUCount
		if *r.GPUCount < 1 || *r.GPUCount > 1024 {
			errs = append(errs, model.Msg("gpu_count must be 1–1024, got %d", *r.GPUCount))
		}
	}
	if r.VCPUs != nil {
		in.VCPUs = *r.VCPUs
		if *r.VCPUs < 1 {
			errs = append(errs, model.Msg("vcpus must be ≥ 1, got %d", *r.VCPUs))
		}
	}
	if r.MemoryGiB != nil {
		in.MemoryGiB = *r.MemoryGiB
		errs = append(errs, positive("memory_gib", *r.MemoryGiB))
	}
	errs = append(errs, HostFits(in.VCPUs, in.MemoryGiB))
	if r.LocalNVMeGB != nil {
		in.LocalNVMeGB = *r.LocalNVMeGB
		errs = append(errs, nonNegative("local_nvme_gb", *r.LocalNVMeGB))
	}
	if r.NetworkGbps != nil {
		in.NetworkGbps = *r.NetworkGbps
		errs = append(errs, nonNegative("network_gbps", *r.NetworkGbps))
	}
	if r.Interconnect != nil {
		in.Interconnect = *r.Interconnect
		if !contains(interconnects, *r.Interconnect) {
			errs = append(errs, model.Msg("interconnect %q: want %s", *r.Interconnect, strings.Join(interconnects, ", ")))
		}
	}
	if r.Retired != nil {
		in.Retired = string(*r.Retired)
	}
	if r.Source != nil {
		in.Source = *r.Source
		errs = append(errs, required("source", *r.Source))
	}
	if r.AsOf != nil {
		in.AsOf = string(*r.AsOf)
	}
	errs = append(errs, r.rawInstanceExt.apply(&in.Instance)...)
	if in.complete && len(r.Prices) == 0 {
		errs = append(errs, model.Msg("missing prices (one { region, on_demand, spot } per region)"))
	}
	if !in.complete && r.GPU != nil {
		var miss []string
		for k, ok := range map[string]bool{"gpu_count": r.GPUCount != nil, "vcpus": r.VCPUs != nil, "memory_gib": r.MemoryGiB != nil, "source": r.Source != nil, "as_of": r.AsOf != nil} {
			if !ok {
				miss = append(miss, k)
			}
		}
		sort.Strings(miss)
		errs = append(errs, model.Msg("missing %s", strings.Join(miss, ", ")))
	}
	seen := map[string]bool{}
	for _, p := range r.Prices {
		rp := model.RegionPrice{Region: p.Region}
		if p.Region == "" {
			errs = append(errs, model.Msg("prices: an entry has no region"))
			continue
		}
		if seen[p.Region] {
			errs = append(errs, model.Msg("prices: region %q listed twice", p.Region))
		}
		seen[p.Region] = true
		if p.OnDemand != nil {
			if err := positive("on_demand", *p.OnDemand); err != nil {
				errs = append(errs, model.Msg("prices %q: %v (leave the key out when unknown)", p.Region, err))
			}
			rp.OnDemandUSD = *p.OnDemand
		}
		if p.Spot != nil {
			if err := positive("spot", *p.Spot); err != nil {
				errs = append(errs, model.Msg("prices %q: %v (leave the key out when unknown)", p.Region, err))
			}
			rp.SpotUSD = *p.Spot
		}
		errs = append(errs, p.rawPriceExt.apply(&rp, p.Region, p.OnDemand != nil || p.Spot != nil)...)
		if rp.OnDemandUSD > 0 && rp.SpotUSD > rp.OnDemandUSD*1.0001 {
			errs = append(errs, model.Msg("prices %q: spot %v is dearer than on_demand %v", p.Region, rp.SpotUSD, rp.OnDemandUSD))
		}
		if rp.OnDemandUSD > 0 && rp.OnDemandUSD < minUSDPerHour || rp.SpotUSD > 0 && rp.SpotUSD < minUSDPerHour {
			errs = append(errs, model.Msg("prices %q: under $0.000001 USD/hour, the catalog's precision; leave the key out when unknown", p.Region))
		}
		if rp.OnDemandUSD > maxUSDPerHour || rp.SpotUSD > maxUSDPerHour {
			// The bound is on the number as written: a CNY row is not
			// called USD (walk55: 70000 CNY read "above 10000 USD/hour").
			if r.Currency != nil && *r.Currency != "" && *r.Currency != "USD" {
				errs = append(errs, model.Msg("prices %q: above %d per hour (in %s, the file's currency); prices are per instance-hour", p.Region, maxUSDPerHour, *r.Currency))
			} else {
				errs = append(errs, model.Msg("prices %q: above %d USD/hour; prices are per instance-hour", p.Region, maxUSDPerHour))
			}
		}
		in.Prices = append(in.Prices, rp)
	}
	return in, errors.Join(errs...)
}

func (r *rawDiscount) validate() (model.Discount, error) {
	term, terr := model.ParsePricing(r.Term)
	d := model.Discount{Provider: r.Provider, Term: term, Fraction: r.Fraction, Prefixes: r.Prefixes, Source: r.Source, AsOf: string(r.AsOf)}
	errs := []error{required("provider", r.Provider), required("source", r.Source), checkDate("as_of", r.AsOf)}
	errs = append(errs, checkNames(field{key: "provider", v: r.Provider}, field{key: "term", v: r.Term},
		field{key: "source", v: r.Source, source: true})...)
	errs = append(errs, checkList("prefixes", r.Prefixes)...)
	if terr != nil || (term != model.Reserved1y && term != model.Reserved3y) {
		errs = append(errs, model.Msg("term %q: want reserved-1y or reserved-3y", r.Term))
	}
	switch {
	case !(r.Fraction > 0 && r.Fraction < 1):
		errs = append(errs, model.Msg("fraction must be between 0 and 1 (0.37 is 37%% off), got %v", r.Fraction))
	case r.Fraction > maxDiscountFraction:
		errs = append(errs, model.Msg("fraction %v is above %v, the deepest reserved or committed-use discount any provider publishes (AWS and Azure: up to 72%% off); write the fraction your contract gives (0.37 is 37%% off)", r.Fraction, maxDiscountFraction))
	}
	for i, p := range r.Prefixes {
		if p == "" { // a prefix "" covers every type, which leaving prefixes out says
			errs = append(errs, model.Msg("prefixes[%d] is empty; leave prefixes out to cover every GPU instance of the provider", i+1))
		}
	}
	return d, errors.Join(errs...)
}

// merge folds files into c in order: later files override earlier
// entries with the same key (GPUs and models by key, instances by provider
// and type, field by field, prices by region; discounts by provider and
// term), then checks cross references.
func merge(c *model.Catalog, files []catalogFile, errs *[]error) (kept []skyPilotKept) {
	type instKey struct{ provider, typ string }
	kept = make([]skyPilotKept, len(files))
	total := 0
	for i := range files {
		total += len(files[i].instances) + len(files[i].full)
	}
	lastFile := &files[len(files)-1]
	inPlace := lastFile.room > 0 && len(lastFile.full) > 0 && lastFile.room >= total-len(lastFile.full)
	if inPlace {
		c.Instances = slices.Grow(c.Instances, total-len(lastFile.full))
	} else {
		c.Instances = slices.Grow(c.Instances, total)
	}
	gpuAt := map[string]int{}
	modelAt := map[string]int{}
	instAt := make(map[instKey]int, total-len(lastFile.full)) // the last file's full entries are not keyed
	discAt := map[string]int{}
	instFile := map[instKey]string{} // for errors; a full entry's file is its Origin
	for fi, f := range files {
		inFile := make(map[instKey]bool, len(f.instances))
		mergeByKey(&c.GPUs, gpuAt, f.gpus, func(g *model.GPU) string { return g.Key }, "gpu", f.name, errs)
		mergeByKey(&c.Models, modelAt, f.models, func(m *model.Architecture) string { return m.Key }, "model", f.name, errs)
		for _, in := range f.instances {
			k := instKey{in.Provider, in.Type}
			if inFile[k] {
				*errs = append(*errs, model.Msg("%s: instance %q: duplicate (provider %s)", f.name, in.Type, in.Provider))
				continue
			}
			inFile[k] = true
			i, ok := instAt[k]
			if !ok {
				if !in.complete {
					*errs = append(*errs, model.Msg("%s: instance %q: not in the catalog, so it needs gpu, gpu_count, vcpus, memory_gib, source and as_of", f.name, in.Type))
					continue
				}
				instAt[k] = len(c.Instances)
				instFile[k] = f.name
				c.Instances = append(c.Instances, in.Instance)
				continue
			}
			// The prices the entry does not give stay the type's, in its
			// currency: a patch's currency would turn them all into
			// another's (attack round 11, S6).
			if cur := c.Instances[i].PriceCurrency(); (in.complete || in.Currency != "") && in.PriceCurrency() != cur {
				*errs = append(*errs, model.Msg("%s: instance %q (provider %s): currency %s, but the catalog prices the type in %s; an overlay cannot change a type's currency: give its prices in %s",
					f.name, in.Type, in.Provider, in.PriceCurrency(), cur, cur))
				continue
			}
			patchInstance(&c.Instances[i], in, f.date, &kept[fi])
		}
		last := fi == len(files)-1
		if last && inPlace {
			// A CSV overlay's 100,000 types are looked up among the few
			// hundred of their provider, by type alone.
			byProvider := map[string]map[string]int{}
			for k, i := range instAt {
				if byProvider[k.provider] == nil {
					byProvider[k.provider] = map[string]int{}
				}
				byProvider[k.provider][k.typ] = i
			}
			var provider string
			var types map[string]int
			mergeInPlace(c, f, &kept[fi], func(in *model.Instance) (int, bool) {
				if in.Provider != provider || types == nil {
					provider, types = in.Provider, byProvider[in.Provider]
				}
				i, ok := types[in.Type]
				return i, ok
			})
			continue
		}
		for j := range f.full {
			in := &f.full[j]
			k := instKey{in.Provider, in.Type}
			if i, ok := instAt[k]; ok {
				patchFromSkyPilot(&c.Instances[i], in, &kept[fi])
				continue
			}
			if !last { // no later file can patch it: skip the map insert
				instAt[k] = len(c.Instances)
			}
			c.Instances = append(c.Instances, *in)
		}
		for _, d := range f.discounts {
			k := d.Provider + "/" + string(d.Term) + "/" + strings.Join(d.Prefixes, ",")
			if i, ok := discAt[k]; ok {
				c.Discounts[i] = d
				continue
			}
			discAt[k] = len(c.Discounts)
			c.Discounts = append(c.Discounts, d)
		}
	}
	// A discount applies to its provider's types only: one for a provider
	// no type has ("*", "AWS") would be accepted and do nothing (attack
	// round 11).
	providers := map[string]bool{}
	for i := range c.Instances {
		// Set once per run of one provider: an overlay's 100,000
		// instances are one.
		if p := c.Instances[i].Provider; i == 0 || p != c.Instances[i-1].Provider {
			providers[p] = true
		}
	}
	for _, f := range files {
		for _, d := range f.discounts {
			if providers[d.Provider] {
				continue
			}
			if low := strings.ToLower(strings.TrimSpace(d.Provider)); providers[low] {
				*errs = append(*errs, model.Msg("%s: discount provider %q: no instance type has that provider; write %q, as the catalog spells it", f.name, d.Provider, low))
				continue
			}
			if known := ProviderLookalike(d.Provider); known != "" && providers[known] {
				*errs = append(*errs, model.Msg("%s: discount %v", f.name, providerLookalikeMsg(d.Provider, known)))
				continue
			}
			*errs = append(*errs, model.Msg("%s: discount provider %q: no instance type has that provider, so the discount would apply to nothing; write one provider as the catalog spells it, lowercase (aws, azure, gcp: gpuplan catalog instances lists them)", f.name, d.Provider))
		}
	}
	// Aliases must be unique across GPUs and across models.
	gpuAliases, modelAliases := map[string]string{}, map[string]string{}
	for _, g := range c.GPUs {
		checkAliases(gpuAliases, "gpu", g.Key, g.Aliases, errs)
	}
	for _, m := range c.Models {
		checkAliases(modelAliases, "model", m.Key, m.Aliases, errs)
	}
	// One pass over the instances (100,000 of a CSV overlay, 40 MB with
	// their prices) dates the catalog and checks their GPUs.
	c.AsOf = ""
	for _, g := range c.GPUs {
		c.AsOf = max(c.AsOf, g.AsOf)
	}
	lastGPU := "" // a known GPU key: a CSV overlay's instances share a few
	for i := range c.Instances {
		in := &c.Instances[i] // not a copy
		c.AsOf = max(c.AsOf, in.AsOf)
		for _, rp := range in.Prices { // an overlay's price patch dates the regions it sets
			if rp.Patch != nil {
				c.AsOf = max(c.AsOf, rp.Patch.AsOf)
			}
		}
		if in.GPU == lastGPU && in.GPU != "" {
			continue
		}
		if _, ok := gpuAt[in.GPU]; ok {
			lastGPU = in.GPU
		} else {
			msg := fmt.Sprintf("instance %q (%s): unknown gpu %q", in.Type, in.Provider, in.GPU)
			keys := make([]string, 0, len(gpuAt))
			for k := range gpuAt {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			if s := model.Closest(in.GPU, keys, 1); len(s) > 0 {
				msg += fmt.Sprintf(" (did you mean %q?)", s[0])
			}
			file, ok := instFile[instKey{in.Provider, in.Type}]
			if !ok {
				file = in.Origin
			}
			*errs = append(*errs, model.Msg("%s: %s", file, msg))
		}
	}
	c.Index()
	return kept
}

// mergeInPlace merges f.full, the last file's instances, into c by moving
// c.Instances into the room in front of them (f.room ≥ len(c.Instances))
// and moving the entries that patch earlier ones behind the rest: a large
// CSV overlay is not copied. at finds an earlier instance of the same
// provider and type.
func mergeInPlace(c *model.Catalog, f catalogFile, kept *skyPilotKept, at func(*model.Instance) (int, bool)) {
	buf := f.backing
	start := f.room - len(c.Instances)
	copy(buf[start:], c.Instances)
	c.Instances = buf[start:f.room]
	w := f.room
	for j := f.room; j < len(buf); j++ {
		in := &buf[j]
		if i, ok := at(in); ok {
			patchFromSkyPilot(&c.Instances[i], in, kept)
			continue
		}
		// Swap, not copy: the patches end up after w, so f.full still
		// lists every type the file names (overlayGuards reads it).
		if w != j {
			buf[w], buf[j] = buf[j], buf[w]
		}
		w++
	}
	c.Instances = buf[start:w:w]
}

// mergeByKey appends items to dst, replacing entries with the same key from
// earlier files; a key twice in one file is an error.
func mergeByKey[T any](dst *[]T, at map[string]int, items []T, key func(*T) string, kind, file string, errs *[]error) {
	seen := make(map[string]bool, len(items))
	for i := range items {
		k := key(&items[i])
		if seen[k] {
			*errs = append(*errs, model.Msg("%s: %s %q: duplicate key", file, model.Msg(kind), k))
			continue
		}
		seen[k] = true
		if j, ok := at[k]; ok {
			(*dst)[j] = items[i]
			continue
		}
		at[k] = len(*dst)
		*dst = append(*dst, items[i])
	}
}

// checkAliases records key's aliases in owner and reports one that another
// entry already has.
func checkAliases(owner map[string]string, kind, key string, aliases []string, errs *[]error) {
	for _, a := range aliases {
		k := strings.ToLower(a)
		if o, ok := owner[k]; ok && o != key {
			*errs = append(*errs, model.Msg("%s %q: alias %q is also an alias of %q", model.Msg(kind), key, a, o))
		}
		owner[k] = key
	}
}

// patchFromSkyPilot applies a SkyPilot vms.csv row for a type the catalog
// has (the overlays' full entries; the embedded catalog's own come first
// and patch nothing): its prices, region by region, sourced to the CSV
// as a TOML price patch's are. The type's GPU, count, host, interconnect
// and retirement stay the catalog's, which are sourced and corrected
// where SkyPilot's rows are not (an Azure 8-GPU H100 host listed with 12,
// PCIe A100s named SXM, retired types still priced); skyPilotDisagreements
// says where they differ. The type is listed, so not missing.
func patchFromSkyPilot(dst *model.Instance, in *model.Instance, kept *skyPilotKept) {
	kept.gpusDiffer(dst, in)
	if dst.Retired != "" {
		kept.retired = append(kept.retired, dst.Provider+"/"+dst.Type)
	}
	prices := slices.Clone(in.Prices)
	patch := &model.PricePatch{Source: in.Source, Origin: in.Origin, AsOf: in.AsOf}
	for i := range prices {
		prices[i].Patch = patch
	}
	var stale []staleSpot
	dst.Prices, stale = mergePrices(dst.Prices, prices)
	kept.staleSpot(dst, stale)
	dst.MissingSince, dst.MissingSource = "", ""
}

// skyPilotKept is where one overlay's entries disagree with the
// catalog's types they patch: GPU or GPU count (the catalog's kept, for
// a SkyPilot CSV and a TOML overlay alike), and types the catalog has as
// retired (a CSV's, or a TOML entry's that gives no `retired`; kept retired).
type skyPilotKept struct {
	shape, retired []string
	// spot are the regions whose older spot price was above the on-demand
	// price the file set, dropped (mergePrices).
	spot []staleSpot
}

// staleSpot is a region whose older spot price mergePrices dropped, the
// on-demand price the file set being below it; text says so for a
// warning.
type staleSpot struct {
	provider, typ, region string
	text                  string
}

// staleSpot records the regions of dst whose older spot price mergePrices
// dropped.
func (k *skyPilotKept) staleSpot(dst *model.Instance, stale []staleSpot) {
	for _, st := range stale {
		st.provider, st.typ = dst.Provider, dst.Type
		st.text = dst.Provider + "/" + dst.Type + " " + st.text
		k.spot = append(k.spot, st)
	}
}

// gpusDiffer records and reports whether in, a file's entry for the
// catalog's type dst, names other GPUs or another GPU count than dst: the
// caller keeps dst's, so an overlay cannot make a type's prices in the
// regions it does not list read as another GPU's (issue 29).
func (k *skyPilotKept) gpusDiffer(dst, in *model.Instance) bool {
	if dst.GPU == in.GPU && dst.GPUCount == in.GPUCount {
		return false
	}
	k.shape = append(k.shape, fmt.Sprintf("%s/%s (%d × %s ≠ %d × %s)", dst.Provider, dst.Type, in.GPUCount, in.GPU, dst.GPUCount, dst.GPU))
	return true
}

// warnings says what was kept, a line per kind with a few examples. A
// dropped spot price where the guards held the file's on-demand price
// and kept the catalog's beside it (heldBeside) is said apart, as
// model.StaleSpotHeld: untrusted, the catalog's row stands in, its spot
// too, and nothing was dropped (new-user walk, 2026-12-06).
func (k *skyPilotKept) warnings(file string, heldBeside func(provider, typ, region string) bool) []model.Message {
	examples := func(s []string) model.Message {
		if len(s) > shownPerKind {
			return model.Msg("%s and %s more", strings.Join(s[:shownPerKind], ", "), model.Grouped(len(s)-shownPerKind))
		}
		return model.Msg("%s", strings.Join(s, ", "))
	}
	var out []model.Message
	if len(k.shape) > 0 {
		out = append(out, model.Msg("catalog %s: GPUs differ from the catalog's sourced entries (file ≠ catalog) for %v: %v; the catalog's are kept, the prices taken from the file",
			file, countMsg(len(k.shape), "type"), examples(k.shape)))
	}
	var dropped, held []string
	for _, st := range k.spot {
		if heldBeside(st.provider, st.typ, st.region) {
			held = append(held, st.text)
		} else {
			dropped = append(dropped, st.text)
		}
	}
	if len(dropped) > 0 {
		out = append(out, model.Msg(model.StaleSpot, file, examples(dropped)))
	}
	if len(held) > 0 {
		out = append(out, model.Msg(model.StaleSpotHeld, file, examples(held)))
	}
	if len(k.retired) > 0 {
		out = append(out, model.Msg("catalog %s: prices for %v the catalog has as retired (%v); they stay retired (gpuplan catalog instances --all lists them)",
			file, countMsg(len(k.retired), "type"), examples(k.retired)))
	}
	return out
}

// patchInstance applies an overlay entry over an existing instance: set
// fields win, prices are merged by region. A price patch's regions are
// sourced to the entry, or to its file when it gives no source, and dated
// by its as_of, else by date (the file's, fileDate): never left to the
// instance's own source and date, which are the catalog's. A complete
// entry naming other GPUs than dst keeps dst's (kept.gpusDiffer), as a
// SkyPilot CSV's row does.
func patchInstance(dst *model.Instance, p instanceEntry, date string, kept *skyPilotKept) {
	if p.complete {
		old := *dst
		*dst = p.Instance
		if kept.gpusDiffer(&old, &p.Instance) {
			dst.GPU, dst.GPUCount = old.GPU, old.GPUCount
		}
		// A retirement is sourced; an entry that does not mention it does
		// not revive the type (issue 29). Only `retired` itself (a date,
		// with its retired_source) replaces it: there is no key to
		// un-retire a type from an overlay.
		if old.Retired != "" && dst.Retired == "" {
			dst.Retired, dst.RetiredSource = old.Retired, old.RetiredSource
			kept.retired = append(kept.retired, old.Provider+"/"+old.Type)
		}
		// What the entry leaves unknown stays known: a SkyPilot vms.csv
		// has no interconnect, network, local disk or (in older files)
		// CPU column, and an 8-GPU SXM host does not lose its NVSwitch
		// because a price list was overlaid.
		if dst.Interconnect == "" {
			dst.Interconnect = old.Interconnect
		}
		if dst.NetworkGbps == 0 {
			dst.NetworkGbps = old.NetworkGbps
		}
		if dst.Fabric == "" {
			dst.Fabric = old.Fabric
		}
		if dst.LocalNVMeGB == 0 {
			dst.LocalNVMeGB = old.LocalNVMeGB
		}
		if dst.CPUArch == "" {
			dst.CPUArch = old.CPUArch
		}
		// The regions the entry does not price keep their old prices with
		// their old provenance, not the entry's date and file.
		prices := slices.Clone(old.Prices)
		oldPatch := &model.PricePatch{Source: old.Source, Origin: old.Origin, AsOf: old.AsOf}
		for i := range prices {
			if p := prices[i].Patch; p == nil || *p == (model.PricePatch{}) {
				prices[i].Patch = oldPatch
			}
		}
		var stale []staleSpot
		dst.Prices, stale = mergePrices(prices, p.Prices)
		kept.staleSpot(dst, stale)
		return
	}
	s := p.Instance
	// A price patch sources the regions it names, not the whole instance.
	patch := &model.PricePatch{Source: cmp.Or(s.Source, s.Origin), Origin: s.Origin, AsOf: cmp.Or(s.AsOf, date)}
	for i := range s.Prices {
		s.Prices[i].Patch = patch
	}
	var stale []staleSpot
	dst.Prices, stale = mergePrices(dst.Prices, s.Prices)
	kept.staleSpot(dst, stale)
	ext := patchExt(dst, &s)
	if len(s.Prices) > 0 && s.LocalNVMeGB == 0 && s.NetworkGbps == 0 && s.Interconnect == "" && s.Retired == "" && !ext {
		return
	}
	if s.LocalNVMeGB > 0 {
		dst.LocalNVMeGB = s.LocalNVMeGB
	}
	if s.NetworkGbps > 0 {
		dst.NetworkGbps = s.NetworkGbps
	}
	if s.Interconnect != "" {
		dst.Interconnect = s.Interconnect
	}
	if s.Retired != "" {
		dst.Retired = s.Retired
	}
	if s.Source != "" {
		dst.Source = s.Source
	}
	if s.AsOf != "" {
		dst.AsOf = s.AsOf
	}
	dst.Origin = s.Origin
}

// mergePrices is old with upd's prices laid over it region by region: a
// region in both takes upd's positive prices (and its patch), one only in
// upd is appended. Regions are found through a map, so an instance priced
// in many distinct regions merges in linear time (issue 29).
//
// A region's old spot price above the on-demand price upd sets without a
// spot price of its own is dropped (spot unknown there), its region
// returned in stale with the two prices: the region's prices are sourced
// to upd's file from then on, and an on-demand price below its own spot
// is never ranked (model.Catalog.ListPrice), so the old spot would hide
// the file's on-demand price even with --trust-overlay (a negotiated
// $1.20 for Nebius's 1×H100 under the catalog's $1.25 spot: the type was
// left out of recommend).
func mergePrices(old, upd []model.RegionPrice) (out []model.RegionPrice, stale []staleSpot) {
	out = append([]model.RegionPrice(nil), old...)
	at := make(map[string][]int, len(old)+len(upd)) // region → its rows in out
	for i := range out {
		at[out[i].Region] = append(at[out[i].Region], i)
	}
	for _, u := range upd {
		rows, found := at[u.Region]
		for _, i := range rows {
			if u.OnDemandUSD > 0 {
				out[i].OnDemandUSD = u.OnDemandUSD
				if u.SpotUSD <= 0 && out[i].SpotUSD > u.OnDemandUSD*1.0001 {
					stale = append(stale, staleSpot{region: u.Region, text: fmt.Sprintf("%s (spot %s > on-demand %s)", u.Region, show.USDPerHour(out[i].SpotUSD), show.USDPerHour(u.OnDemandUSD))})
					out[i].SpotUSD = 0
				}
			}
			if u.SpotUSD > 0 {
				out[i].SpotUSD = u.SpotUSD
			}
			mergePriceExt(&out[i], &u)
			out[i].Patch = u.Patch
		}
		if !found {
			at[u.Region] = []int{len(out)}
			out = append(out, u)
		}
	}
	return out, stale
}

// LoadWith returns the embedded catalog overlaid with the files `catalog
// update` wrote (UpdateDir), then every *.toml in the user's catalog.d directory (under os.UserConfigDir, i.e.
// $XDG_CONFIG_HOME/gpuplan/catalog.d on Linux), then with each of paths in
// order (TOML in our schema, or a SkyPilot vms.csv). Later files win,
// except that catalog update's files do not override what the embedded
// catalog has newer (staleUpdate.drop: a newer gpuplan installed since
// the fetch), with one warning. The error names the file; warnings
// report skipped CSV rows.
//
// The catalog is read-only: with no overlay it shares its slices with the
// compiled catalog and with every other such result, and with overlays
// its untouched instances still share their prices (a short command then
// copies nothing: ~300 KB of fresh pages). Load gives a copy to change.
func LoadWith(paths []string) (*model.Catalog, []model.Message, error) {
	given := len(paths) // --catalog files, last
	var userDir string
	updated := updatedOverlays()
	// XDG_DATA_HOME set to XDG_CONFIG_HOME makes catalog update's folder
	// the hand-written one: its files are read once, as the user's
	// (walk55: each was read twice and its error said twice, with two
	// fixes).
	if dir, err := os.UserConfigDir(); err == nil {
		userDir = filepath.Join(dir, "gpuplan", "catalog.d")
		if ud, err := UpdateDir(); err == nil && sameDir(ud, userDir) {
			updated = nil
		}
		matches, _ := filepath.Glob(filepath.Join(userDir, "*.toml"))
		sort.Strings(matches)
		paths = append(matches, paths...)
	}
	paths = append(updated, paths...) // fetched prices first: hand-written overlays win
	// fix says how to go on past a file that cannot be read: every
	// command reads catalog.d and catalog update's files, so the line
	// names the way out (issue 29).
	fix := func(i int, err error) error {
		switch {
		case i < len(updated):
			return model.Msg("%v; run gpuplan catalog update again to replace the file, or delete it", err)
		case i >= len(paths)-given:
			return model.Msg("%v; fix the file, or leave it out of --catalog", err)
		}
		return model.Msg("%v; fix the file, or move it out of %s", err, userDir)
	}
	return loadFiles(paths, len(updated), fix)
}

// sameDir reports whether a and b name one directory by their clean
// paths: the XDG variables set to one folder. No stat: every command
// loads the catalog, and a link between the two is not a case worth a
// system call on each start.
func sameDir(a, b string) bool { return filepath.Clean(a) == filepath.Clean(b) }

// loadFiles is LoadWith past finding its files: paths read, checked and
// merged over the embedded catalog in order, an error wrapped by fix (the
// path's index and the error; nil keeps it). The first updated paths are
// catalog update's files: what the embedded catalog has newer is left out
// of them (staleUpdate.drop), with one warning. CheckOverlay reads the
// file catalog update wrote through it, so the read-back is every check a
// later command runs.
func loadFiles(paths []string, updated int, fix func(int, error) error) (*model.Catalog, []model.Message, error) {
	if fix == nil {
		fix = func(_ int, err error) error { return err }
	}
	defer lowerGCForLargeOverlay(paths)()
	files := []catalogFile{}
	var errs []error
	var warnings []model.Message
	base := sharedCatalog()     // read only
	room := len(base.Instances) // instances merged before the next file, at most
	names := NewNameCheck(base)
	var markets map[string]bool // SpotMarkets of base, when an overlay is read
	var stale staleUpdate       // what catalog update's files had older than base
	fromUpdate := 0             // files[:fromUpdate] are catalog update's
	for i, p := range paths {
		f, w, err := readOverlay(p, base, room)
		warnings = append(warnings, w...)
		if err == nil {
			w, err = refuseNames(&f, names) // the same checks as catalog update's
			warnings = append(warnings, w...)
		}
		if err == nil {
			if markets == nil {
				markets = baseSpotMarkets()
			}
			warnings = append(warnings, clearInventedSpot(&f, markets)...) // catalog update's rule
		}
		if err != nil {
			errs = append(errs, fix(i, err))
			continue
		}
		if i < updated {
			stale.drop(&f, base)
			fromUpdate++
		}
		files = append(files, f)
		room += len(f.instances) + len(f.full)
	}
	if len(errs) > 0 {
		return nil, warnings, errors.Join(errs...)
	}
	if w := stale.warning(base.AsOf, pricedIn(files[fromUpdate:], stale.prices)); !w.IsZero() {
		warnings = append(warnings, w)
	}
	if len(files) == 0 {
		c := *base
		return &c, warnings, nil
	}
	// Rebuild from the embedded files plus overlays so cross checks see all.
	// The merge writes into a new catalog and the overlays' own arrays,
	// never into base's (TestLoadWithLeavesCompiledCatalog).
	emb := baseFiles(base)
	// The region geography is the embedded table: without it every
	// --country and continent filter matched nothing once any overlay was
	// read (walk49). The overlays' [[region]] tables come after it, so a
	// region they place is theirs (buildGeo keeps the last). A new slice:
	// base's is shared, and the geography index tells a changed table by
	// its first element's address. Set before merge, which indexes c.
	c := model.Catalog{Regions: base.Regions}
	for _, f := range files {
		if len(f.regions) > 0 {
			c.Regions = append(slices.Clip(c.Regions), f.regions...)
		}
	}
	kept := merge(&c, append(emb, files...), &errs)
	if len(errs) > 0 {
		return nil, warnings, errors.Join(errs...)
	}
	c.Redefined = redefinitions(base, files)
	warnings = append(warnings, retirements(base, files)...)
	guards := overlayGuards(base, &c, files) // holds prices first: the spot lines say which it held
	heldBeside := heldBesideIn(&c)
	for i := range kept[len(emb):] {
		warnings = append(warnings, kept[len(emb)+i].warnings(files[i].name, heldBeside)...)
	}
	warnings = append(warnings, guards...)
	warnings = append(warnings, discountGuards(&c)...)
	return &c, warnings, nil
}

// heldBesideIn reports whether c's price of a type in a region is held
// with the embedded catalog's beside it (RegionPrice.Beside), looking the
// type up on first use.
func heldBesideIn(c *model.Catalog) func(provider, typ, region string) bool {
	var at map[[2]string]*model.Instance
	return func(provider, typ, region string) bool {
		if at == nil {
			at = make(map[[2]string]*model.Instance)
			for i := range c.Instances {
				in := &c.Instances[i]
				at[[2]string{in.Provider, in.Type}] = in
			}
		}
		in := at[[2]string{provider, typ}]
		if in == nil {
			return false
		}
		for _, p := range in.Prices {
			if p.Region == region && p.Held && p.Beside != nil {
				return true
			}
		}
		return false
	}
}

// baseFiles turns a loaded catalog back into one complete file for merge.
func baseFiles(c *model.Catalog) []catalogFile {
	return []catalogFile{{name: "embedded catalog", origin: "embedded", gpus: c.GPUs, models: c.Models, discounts: c.Discounts, full: c.Instances}}
}

// readOverlay reads one user catalog file through safeio: a regular file
// (a FIFO or device is refused without blocking), at most safeio.CSV or
// safeio.Overlay bytes.
func readOverlay(p string, base *model.Catalog, room int) (catalogFile, []model.Message, error) {
	csv := strings.EqualFold(filepath.Ext(p), ".csv")
	kind := safeio.Overlay
	if csv {
		kind = safeio.CSV
	}
	if csv {
		// Streamed: a 100,000-row file is 22 MB that need not be in memory
		// at once (each fresh MB costs page faults).
		f, fi, err := safeio.Open(p)
		if err != nil {
			return catalogFile{}, nil, model.Msg("catalog %s: %v", p, err)
		}
		defer f.Close()
		if fi.Size() > kind.MaxBytes {
			return catalogFile{}, nil, model.Msg("catalog %s: %v", p, tooLarge(kind))
		}
		day, w := fileDate(p, fi)
		cf, w2, err := readCSVOverlay(p, &capReader{r: f, left: kind.MaxBytes, kind: kind}, fi.Size(), day, base, room) // records bounded by readSkyPilotCSV
		return cf, append(w, w2...), err
	}
	b, fi, err := safeio.ReadFileInfo(p, kind)
	if err != nil {
		return catalogFile{}, nil, model.Msg("catalog %s: %v", p, err)
	}
	var f catalogFile
	if err := decode(b, p, p, &f); err != nil {
		return catalogFile{}, nil, err
	}
	day, w := fileDate(p, fi)
	f.date = day
	return f, w, nil
}

// fileDate is the local date an overlay file was last written, which
// dates the prices it sets without an as_of of their own (a SkyPilot
// vms.csv has no date column; SkyPilot writes the file when it fetches
// it).
// A file modified after tomorrow (a clock set wrong, or a file made to
// look fresh) is dated today, with a warning: its date would otherwise
// become the catalog's date in version, headers and exports.
func fileDate(p string, fi fs.FileInfo) (string, []model.Message) {
	now := time.Now()
	if fi.ModTime().After(now.AddDate(0, 0, 1)) {
		today := now.Format(time.DateOnly)
		return today, []model.Message{model.Msg("catalog %s: modified %s, in the future; its prices are dated today (%s)", p, fi.ModTime().Format(time.DateOnly), today)}
	}
	return fi.ModTime().Format(time.DateOnly), nil
}

// unwrapPathError drops the *PathError's repeated path.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// capReader fails with safeio.ErrTooLarge once more than left bytes were
// read: a file may grow while read (or lie in its size, as /proc files do).
type capReader struct {
	r    io.Reader
	left int64
	kind safeio.Kind
}

func (c *capReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	if errors.Is(err, os.ErrDeadlineExceeded) { // safeio.Open's deadline
		return n, safeio.Stalled()
	}
	c.left -= int64(n)
	if c.left < 0 {
		return 0, tooLarge(c.kind)
	}
	return n, err
}

// tooLarge is safeio.ReadFile's error for a file above k's cap (caps are
// whole MiB).
func tooLarge(k safeio.Kind) error {
	return model.Errorf(safeio.ErrTooLarge, "above the %d MiB limit for a %s", k.MaxBytes>>20, k.Name)
}
