package config

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/serve"
	"github.com/gpuplan/gpuplan/model/show"
)

// SchemaVersion is the version of the configuration file that
// Encode writes and Decode reads.
const SchemaVersion = 1

// Config is one configurator session as a file: every answer (the workload
// and the search), and, for the reader, what was estimated and which offer
// was picked. `gpuplan --config FILE` reopens it; `gpuplan recommend
// --config FILE` reproduces the ranking.
type Config struct {
	Workload WorkloadAnswers
	Search   SearchAnswers
	// Estimate is informational: written on export, accepted on load,
	// never used as input (gpuplan recomputes it).
	Estimate *EstimateSummary
	// Selection is the offer picked; nil when none was.
	Selection *Selection
	// Launch is the [launch] section of an export, written after the rest;
	// never read back (Decode checks it and leaves this nil) but for its
	// dataset, LaunchDataset.
	Launch *Launch
	// LaunchDataset is the dataset of the file's [launch] (Launch.Dataset,
	// else, in a file written before that key, the --dataset_name of the
	// script arguments gpuplan derived for its module), which `gpuplan
	// export --config FILE` trains on unless --dataset says otherwise:
	// the workload says how much data, only [launch] which (walk37: a
	// re-export wrote CHANGE-ME/dataset). Decode sets it; Encode writes
	// Launch.Dataset, not this.
	LaunchDataset string
	// Lang is the top-level lang key: the output language ("en",
	// "zh-CN"), read by the UI (ui/i18n.Resolve); empty means the
	// environment's. The model keeps it as written.
	Lang string
	// ServeLaunch is the [serve] section of a serving export, written
	// after the rest in place of Workload.Serve's (which must then be
	// zero); Decode reads it back as Workload.Serve.
	ServeLaunch *ServeLaunch
	// Export is the [export] table: the launch options gpuplan export was
	// given (ExportOptions), read back for export --config; nil when none.
	Export *ExportOptions
}

// WorkloadAnswers are the workload questions as answered: the model is a
// reference (catalog key, custom shape or config.json path), resolved
// against a catalog by Resolve. Zero numbers mean "the default".
type WorkloadAnswers struct {
	model.Settings
	// Exactly one of Model, HFConfig and Custom says which model.
	Model    string       // catalog key or alias: "llama-3.1-8b"
	HFConfig string       // path of a Hugging Face config.json (file or directory)
	Custom   *CustomModel // a shape typed in by the user
	// Safetensors is a path of .safetensors headers (file or directory)
	// that gives the exact parameter count of the model above, or of a
	// decoder without a shape when there is none. Command line only.
	Safetensors string

	AutoGPUs bool // gpus = "auto": the fewest whole instances that fit (Settings.GPUs stays 0)

	// Serve is the [serve] table: the serving workload of task inference
	// for a generative model (see WorkloadAnswers.Serving). Zero values
	// are defaults or, for TP, PP and replicas, auto.
	Serve serve.Serving
}

// AnswersFor returns the answers that reproduce w: the catalog key when w's
// model is a catalog entry, else its shape as a custom model (a config.json
// path is not in w: set HFConfig yourself). GPUs are fixed, not auto.
func AnswersFor(w model.Workload) WorkloadAnswers {
	a := WorkloadAnswers{Settings: w.Settings.Clone()}
	m := &w.Model
	if m.Family != "" && !m.Family.HasAttention() {
		a.FlashAttention = nil // no attention layers: reloading would warn that it is ignored
	}
	if m.Key != "" {
		a.Model = m.Key
		return a
	}
	a.Custom = &CustomModel{Family: m.Family, Params: m.Params, Layers: m.Layers, Hidden: m.Hidden,
		Heads: m.Heads, KVHeads: m.KVHeads, FFN: m.FFN, Vocab: m.Vocab}
	if m.HasShape() && m.Params == 0 {
		a.Custom.Params = m.ParamCount() // keeps the count when the shape has extras the custom form cannot say
	}
	return a
}

// CustomModel is a model typed in as a shape or a parameter count.
type CustomModel struct {
	Family                                     model.Family
	Params                                     float64 // 0: from the shape; with one, the exact count
	Layers, Hidden, Heads, KVHeads, FFN, Vocab int
}

// Architecture returns the custom model as an architecture, with the
// command line's defaults: FFN 4 × hidden, a 32000-token vocabulary for
// text transformers, as many decoder as encoder layers.
func (c *CustomModel) Architecture() model.Architecture {
	a := model.Architecture{Family: c.Family, Params: c.Params, Layers: c.Layers, Hidden: c.Hidden,
		Heads: c.Heads, KVHeads: c.KVHeads, FFN: c.FFN, Vocab: c.Vocab}
	if a.Family == "" {
		a.Family = model.FamilyDecoder
	}
	if a.HasShape() {
		// Params, when given with a shape, stays: the count is exact and the
		// shape sizes activations and FLOPs (see Architecture.ParamCount).
		if a.FFN == 0 {
			a.FFN = 4 * a.Hidden
		}
		if a.Vocab == 0 && a.Family != model.FamilyViT {
			a.Vocab = 32000
		}
		if a.Family == model.FamilyEncoderDecoder {
			a.DecoderLayers = a.Layers
		}
		if a.Family == model.FamilyViT {
			a.PatchSize = 16
			if a.Vocab == 0 {
				a.Vocab = 1000
			}
		}
	}
	a.Name = "custom " + string(a.Family)
	if a.HasShape() {
		a.Name += fmt.Sprintf(" (%d layers × %d hidden)", a.Layers, a.Hidden)
	}
	return a
}

// SearchAnswers are the search questions: where, how to pay, how much.
// Zero numbers mean "no limit" (HoursPerMonth: 730).
type SearchAnswers struct {
	Providers []string // provider keys; empty: all but marketplaces
	Regions   []string // region names or prefixes ending in "-"; empty: all
	// Countries keep the regions in these countries (--country: ISO codes
	// or English names, Query.Countries); empty: any. A launch file's
	// failover and the regions it names stay in them.
	Countries      []string
	GPUs           []string // GPU keys the offers are limited to (the browse screen's pick); empty: all
	Pricing        model.Pricing
	MaxPriceHour   float64 // USD per hour for the whole deployment
	BudgetMonth    float64 // USD per month
	BudgetJob      float64 // USD for the whole job (Query.BudgetJobUSD)
	HoursPerMonth  float64 // hours used per month, (0, 744]; a reserved term bills 730 at least
	DeadlineHours  float64
	AllowMultiNode bool
	// MaxGPUs caps the GPUs gpus = "auto" may rent (Query.MaxGPUs); 0: no cap.
	MaxGPUs int
	// AllowPrecisionFallback accepts GPUs that run a fallback of the
	// requested precision (Query.AllowPrecisionFallback).
	AllowPrecisionFallback bool
	Sort                   model.SortKey // "": job cost with a dataset, else price
	// USDCNY is the exchange rate the user gives, 1 USD = USDCNY CNY, to
	// rank CNY-priced overlay rows with USD offers; 0 means none, and CNY
	// rows are not ranked (no rate is assumed or fetched).
	USDCNY float64
}

// ServeSearch applies to a serving request the search answers it reads:
// the precision fallback (on top of vLLM's auto, WorkloadAnswers.Serving),
// multi-node (a replica across instances) and the monthly budget.
func (a *SearchAnswers) ServeSearch(s *serve.Serving) {
	s.AllowPrecisionFallback = s.AllowPrecisionFallback || a.AllowPrecisionFallback
	s.AllowMultiNode = a.AllowMultiNode
	s.BudgetMonthUSD, s.HoursPerMonth = a.BudgetMonth, a.HoursPerMonth
}

// USD→CNY rates search.usd_cny and --usd-cny accept (CNY one USD buys).
// The rate has stayed between 6.0 and 8.8 since China unified its
// exchange rates in 1994 (8.7 then, 6.04 at its 2014 high, about 7.1 in
// 2026); 1 to 20 leaves room for any real move and refuses a rate written
// the other way round (0.14, CNY→USD) or per 100 USD (710), and figures
// like 1e-300 that would print prices of 300 digits.
const (
	MinUSDCNY = 1
	MaxUSDCNY = 20
)

// ExchangeRates returns the rates of Query.ExchangeRates (USD per unit)
// from the rate the user gave; nil without one.
func (s *SearchAnswers) ExchangeRates() map[string]float64 {
	if s.USDCNY > 0 {
		return map[string]float64{"CNY": 1 / s.USDCNY}
	}
	return nil
}

// GPUsAuto reports whether the workload leaves the GPU count to gpuplan:
// gpus = "auto", or no gpus key at all, as recommend without --gpus picks
// the fewest whole instances that fit. The command line and the
// configurator both read a file's count through it (and Config.Query), so
// a file without gpus ranks the same offers in both (issue 31: the
// configurator read it as one GPU, recommend as auto).
func (w *WorkloadAnswers) GPUsAuto() bool { return w.AutoGPUs || w.GPUs == 0 }

// Query returns the configuration's search as a Query for
// model.Recommend, with auto GPUs as the workload says (GPUsAuto) and the
// workload's strategy kept on every offer when it names one
// (NamesStrategy). It is the one way from a request to a Query: recommend
// builds its request from --config and the flags and asks it, the
// configurator asks it for its answers, so both rank the same offers (a
// 13B train without a strategy sharded by one and not the other, or a
// file's strategy = "ddp" kept by --strategy ddp and not by the file).
func (c *Config) Query() model.Query {
	q := c.Search.Query(c.Workload.GPUsAuto())
	q.KeepStrategy = c.Workload.NamesStrategy()
	return q
}

// NamesStrategy reports whether the request names a strategy (strategy =
// "ddp", --strategy ddp): recommend then keeps it on every offer
// (model.Query.KeepStrategy); without one it may shard with FSDP where
// data parallel does not fit (walk 15).
func (w *WorkloadAnswers) NamesStrategy() bool { return w.Strategy != "" }

// Query returns the search as a Query for model.Recommend; autoGPUs comes from
// the workload's gpus = "auto".
func (s *SearchAnswers) Query(autoGPUs bool) model.Query {
	return model.Query{Providers: slices.Clone(s.Providers), Regions: slices.Clone(s.Regions), Countries: slices.Clone(s.Countries), GPUs: slices.Clone(s.GPUs), Pricing: s.Pricing,
		AutoGPUs: autoGPUs, MaxGPUs: s.MaxGPUs, AllowMultiNode: s.AllowMultiNode, AllowPrecisionFallback: s.AllowPrecisionFallback, MaxUSDPerHour: s.MaxPriceHour,
		BudgetMonthUSD: s.BudgetMonth, BudgetJobUSD: s.BudgetJob, HoursPerMonth: s.HoursPerMonth, DeadlineHours: s.DeadlineHours, Sort: s.Sort,
		ExchangeRates: s.ExchangeRates()}
}

// EstimateSummary is the estimate written for the reader: the per-GPU
// memory in GiB, the job's FLOPs and hours. 0 means unknown.
type EstimateSummary struct {
	GPU                                                          string // GPU key the time is for
	WeightsGiB, GradientsGiB, OptimizerStatesGiB, ActivationsGiB float64
	KVCacheGiB, OverheadGiB, TotalGiB                            float64
	TotalFLOPs                                                   float64
	Hours, GPUHours                                              float64
	// Model is the architecture as estimated, for models that are not a
	// catalog key (a config.json or a custom shape): what was derived.
	Model *ArchSummary
}

// ArchSummary is the derived architecture written under [estimate.model].
type ArchSummary struct {
	Family                                 model.Family
	Params, ActiveParams                   float64
	Layers, DecoderLayers, Hidden, Heads   int
	KVHeads, HeadDim, FFN, Vocab           int
	Experts, ExpertsPerToken, MaxPositions int
	GatedMLP, Tied                         bool
}

// NewEstimateSummary summarises e, rounded for reading: the memory as the
// screens show it (Memory.Parts), so the parts add up to the total within
// the rounding of each to 0.01 GiB.
func NewEstimateSummary(e *model.Estimate) *EstimateSummary {
	g := func(b float64) float64 { return math.Round(b/model.GiB*100) / 100 }
	m := e.Memory.Parts()
	s := &EstimateSummary{
		WeightsGiB: g(m.Weights), GradientsGiB: g(m.Gradients), OptimizerStatesGiB: g(m.OptimizerStates),
		ActivationsGiB: g(m.Activations), KVCacheGiB: g(m.KVCache), OverheadGiB: g(m.Overhead),
		TotalGiB: g(e.Memory.Total()), TotalFLOPs: roundSig(e.TotalFLOPs, 4),
	}
	if e.GPU != nil {
		s.GPU = e.GPU.Key
	}
	if a := &e.Workload.Model; a.Key == "" {
		s.Model = &ArchSummary{Family: a.Family, Params: e.Params, ActiveParams: e.ActiveParams, Layers: a.Layers,
			DecoderLayers: a.DecoderLayers, Hidden: a.Hidden, Heads: a.Heads, KVHeads: a.EffectiveKVHeads(), HeadDim: a.EffectiveHeadDim(),
			FFN: a.FFN, Vocab: a.Vocab, Experts: a.Experts, ExpertsPerToken: a.ExpertsPerToken, MaxPositions: a.MaxPositions,
			GatedMLP: a.GatedMLP, Tied: a.Tied}
	}
	if e.HasTime {
		s.Hours, s.GPUHours = roundSig(e.Hours, 4), roundSig(e.GPUHours, 4)
	}
	return s
}

func roundSig(v float64, digits int) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', digits, 64), 64)
	return r
}

// Selection is the offer picked. Prices are USD; 0 means unknown and is
// never written, so a missing price can not be read back as "free".
type Selection struct {
	Provider     string
	InstanceType string
	Region       string
	GPU          string // GPU key
	GPUs         int    // GPUs the job uses
	Instances    int    // instances (nodes) rented
	Pricing      model.Pricing
	USDPerHour   float64 // the whole deployment
	MonthlyUSD   float64
	JobHours     float64 // 0 without a dataset
	JobUSD       float64 // 0 without a dataset
	CatalogAsOf  string  // YYYY-MM-DD of the catalog the prices come from
	// PriceOrigin, PriceSource and PriceAsOf say where the price came
	// from when an overlay file set it (model.FromOverlay): the file, its
	// source and date (model.Offer.Provenance); empty for the catalog's
	// own prices, which CatalogAsOf dates.
	PriceOrigin, PriceSource, PriceAsOf string
}

// NewSelection records offer o, priced from a catalog dated asOf.
func NewSelection(o *model.Offer, asOf string) *Selection {
	s := &Selection{Provider: o.Instance.Provider, InstanceType: o.Instance.Type, Region: o.Region, GPU: o.GPU.Key,
		GPUs: o.GPUs, Instances: o.Instances, Pricing: o.Pricing, USDPerHour: roundSig(o.USDPerHour, 6),
		MonthlyUSD: math.Round(o.MonthlyUSD*100) / 100, CatalogAsOf: asOf}
	if source, origin := o.Provenance(); model.FromOverlay(origin) {
		s.PriceOrigin, s.PriceSource, s.PriceAsOf = origin, source, o.PriceAsOf()
	}
	if o.HasJob {
		s.JobHours, s.JobUSD = roundSig(o.JobHours, 4), math.Round(o.JobUSD*100)/100
	}
	return s
}

// ErrInvalid is wrapped by every Decode and Config.Validate error.
var ErrInvalid = errors.New("invalid configuration")

// Error is a problem with one key of a configuration file.
type Error struct {
	Key  string        // dotted TOML key: "workload.batch_size"; empty for the whole file
	Line int           // 1-based; 0 when unknown
	Msg  model.Message // what is wrong and what is valid
}

func (e *Error) Error() string { return e.Message().String() }

// Message is the error as one message, key and line first, for a UI to
// translate.
func (e *Error) Message() model.Message {
	switch {
	case e.Key != "" && e.Line > 0:
		return model.Msg("%s (line %d): %s", e.Key, e.Line, e.Msg)
	case e.Key != "":
		return model.Msg("%s: %s", e.Key, e.Msg)
	case e.Line > 0:
		return model.Msg("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// Unwrap makes errors.Is(err, ErrInvalid) hold.
func (e *Error) Unwrap() error { return ErrInvalid }

// Errorf returns a *Error about key, its message formatted as
// fmt.Sprintf does.
func Errorf(key, format string, args ...any) error {
	return &Error{Key: key, Msg: model.Msg(format, args...)}
}

// Limits of the search answers.
// MaxHoursPerMonth bounds hours_per_month, --hours-per-month and a plan
// phase's hours_per_month alike: 31 × 24, the longest calendar month
// (model.HoursPerMonth, 730, is the average one).
const MaxHoursPerMonth = 744

// MinHoursPerMonth bounds hours_per_month and --hours-per-month below:
// 0.001 h (3.6 s) a month, the floor a plan phase's hours_per_month has
// (plan.MinHoursPerMonth), a policy bound under any provider's shortest
// billing (a minute); 1e-300 priced a month at $2.9e-301 (attack r29b).
const MinHoursPerMonth = 0.001

// Validate checks c without a catalog: enums, ranges, one model source,
// dataset in samples or tokens. Deeper workload checks (a shape that fits
// the heads, tp dividing gpus) happen in Resolve. Errors are *Error.
func (c *Config) Validate() error {
	w := &c.Workload
	if w.Framework != "" && !slices.Contains(model.Frameworks, w.Framework) {
		return Errorf("workload.framework", "want %s", model.OrMsg(model.EnumNames(model.Frameworks)))
	}
	if w.Task != "" && !slices.Contains(model.Tasks, w.Task) {
		return Errorf("workload.task", "want %s", model.OrMsg(model.EnumNames(model.Tasks)))
	}
	sources := 0
	for _, set := range []bool{w.Model != "", w.HFConfig != "", w.Custom != nil} {
		if set {
			sources++
		}
	}
	if sources != 1 {
		return Errorf("workload.model", "give exactly one of model (a catalog key), hf_config (a config.json path) or a [workload.custom] table")
	}
	if w.Custom != nil {
		if err := w.Custom.validate(); err != nil {
			return err
		}
	}
	if w.Precision != "" {
		valid := model.PrecisionsFor(w.Task)
		if !slices.Contains(valid, w.Precision) {
			return Errorf("workload.precision", "%q is not valid for task %s; want %s", w.Precision, cmp.Or(w.Task, model.TaskTrain), model.OrMsg(model.EnumNames(valid)))
		}
	}
	if w.Optimizer != "" && !slices.Contains(model.Optimizers, w.Optimizer) {
		return Errorf("workload.optimizer", "want %s", model.OrMsg(model.EnumNames(model.Optimizers)))
	}
	if w.Strategy != "" && !slices.Contains(model.Strategies, w.Strategy) {
		return Errorf("workload.strategy", "want %s", model.OrMsg(model.EnumNames(model.Strategies)))
	}
	if !slices.Contains(model.Recipes, w.Recipe) {
		return Errorf("workload.recipe", "want %s", model.OrMsg(model.EnumNames(model.Recipes[1:])))
	}
	if !slices.Contains(model.Losses, w.Loss) {
		return Errorf("workload.loss", "want %s", model.OrMsg(model.EnumNames(model.Losses[1:])))
	}
	if w.Trainer != "" && !slices.Contains(model.Trainers, w.Trainer) {
		return Errorf("workload.trainer", "want %s", model.OrList(model.EnumNames(model.Trainers)))
	}
	if w.ZeroGrad != "" && !slices.Contains(model.ZeroGrads, w.ZeroGrad) {
		return Errorf("workload.zero_grad", "want %s", model.OrList(model.EnumNames(model.ZeroGrads)))
	}
	if w.Outputs != "" && !slices.Contains(model.OutputsAll, w.Outputs) {
		return Errorf("workload.outputs", "want %s", model.OrList(model.EnumNames(model.OutputsAll)))
	}
	if !slices.Contains(model.QuantTypes, w.QuantType) {
		return Errorf("workload.quant_type", "want %s", model.OrMsg(model.EnumNames(model.QuantTypes[1:])))
	}
	if err := w.CheckRanges(); err != nil {
		return err
	}
	s := &c.Search
	for _, l := range []struct {
		key string
		v   []string
	}{{"search.providers", s.Providers}, {"search.regions", s.Regions}, {"search.countries", s.Countries}, {"search.gpus", s.GPUs}} {
		for _, v := range l.v {
			if err := CheckName(l.key, v, false); err != nil {
				return err
			}
		}
	}
	for _, p := range s.Providers {
		if p == "" || strings.TrimSpace(p) != p {
			return Errorf("search.providers", "provider %q: want a provider key such as \"aws\"", p)
		}
	}
	for _, r := range s.Regions {
		if r == "" {
			return Errorf("search.regions", "empty region; want names such as \"us-east-1\" or prefixes such as \"europe-\"")
		}
	}
	for _, w := range s.Countries {
		if _, ok := model.CountryCode(w); !ok {
			return Errorf("search.countries", "unknown country %q; want ISO codes or English names such as \"us\" or \"germany\"", w)
		}
	}
	if s.Pricing != "" && !slices.Contains(model.PricingModes, s.Pricing) {
		return Errorf("search.pricing", "want %s", model.OrMsg(model.EnumNames(model.PricingModes)))
	}
	if s.Sort != "" && !slices.Contains(model.SortKeys, s.Sort) {
		return Errorf("search.sort", "want %s", model.OrMsg(model.EnumNames(model.SortKeys)))
	}
	switch w := &c.Workload; {
	case s.MaxGPUs < 0 || s.MaxGPUs > model.MaxGPUs:
		return Errorf("search.max_gpus", "must be 1–%d, got %d", model.MaxGPUs, s.MaxGPUs)
	case s.MaxGPUs > 0 && !w.AutoGPUs && w.GPUs > s.MaxGPUs:
		return Errorf("search.max_gpus", "%d is below workload.gpus = %d: raise it, or set gpus = \"auto\"", s.MaxGPUs, w.GPUs)
	}
	if err := s.CheckRanges(); err != nil {
		return err
	}
	if s.USDCNY > 0 && s.USDCNY < MinUSDCNY {
		return Errorf("search.usd_cny", "want how many CNY one USD buys, from %d to %d, e.g. 7.1; got %v", MinUSDCNY, MaxUSDCNY, s.USDCNY)
	}
	if e := c.Estimate; e != nil {
		for _, f := range []struct {
			key string
			v   float64
		}{
			{"weights_gib", e.WeightsGiB}, {"gradients_gib", e.GradientsGiB}, {"optimizer_states_gib", e.OptimizerStatesGiB},
			{"activations_gib", e.ActivationsGiB}, {"kv_cache_gib", e.KVCacheGiB}, {"overhead_gib", e.OverheadGiB},
			{"total_gib", e.TotalGiB}, {"total_flops", e.TotalFLOPs}, {"hours", e.Hours}, {"gpu_hours", e.GPUHours},
		} {
			if err := CheckFloat("estimate."+f.key, f.v, MaxEstimateFigure); err != nil {
				return err
			}
		}
		if err := CheckName("estimate.gpu", e.GPU, false); err != nil {
			return err
		}
		if err := e.Model.validate(); err != nil {
			return err
		}
	}
	if sel := c.Selection; sel != nil {
		if err := sel.validate(); err != nil {
			return err
		}
	}
	return nil
}

// CheckRanges holds the workload's and the serving's figures to their
// ranges: the one source of bounds for the configuration's keys and the
// flags that set them (the command line checks the merged request with
// it). The serving layout's GPUs, replicas × tp × pp, stay within
// model.MaxGPUs as workload.gpus does. Errors are *Error.
func (w *WorkloadAnswers) CheckRanges() error {
	for _, f := range []struct {
		key    string
		v, max int
	}{
		{"batch_size", w.MicroBatch, model.MaxBatch}, {"seq_len", w.SeqLen, model.MaxSeqLen}, {"image_size", w.ImageSize, model.MaxImage},
		{"grad_accum", w.GradAccum, model.MaxBatch}, {"lora_rank", w.LoRARank, model.MaxRank}, {"gpus", w.GPUs, model.MaxGPUs},
		{"tp", w.TP, model.MaxGPUs}, {"gpus_per_node", w.GPUsPerNode, model.MaxGPUsPerNode}, {"context_len", w.ContextLen, model.MaxSeqLen}, {"sequences", w.Sequences, model.MaxBatch},
		{"gen_tokens", w.GenTokens, model.MaxSeqLen},
	} {
		if f.v < 0 || f.v > f.max {
			return Errorf("workload."+f.key, "must be 1–%d, got %d", f.max, f.v)
		}
	}
	if w.AutoGPUs && w.GPUs != 0 {
		return Errorf("workload.gpus", "give a number or \"auto\", not both")
	}
	for _, t := range model.LoRATargetNames(w.LoRATargets) { // PEFT's names too (q_proj, all-linear)
		if !model.ValidLoRATarget(t) {
			return Errorf("workload.lora_targets", "unknown target %q; want any of q, k, v, o, gate, up, down (or PEFT's q_proj … down_proj, all-linear)", t)
		}
	}
	for _, f := range []struct {
		key    string
		v, max float64
	}{
		{"dataset_samples", w.DatasetSamples, model.MaxDataset}, {"dataset_tokens", w.DatasetTokens, model.MaxDataset},
		{"epochs", w.Epochs, model.MaxEpochs}, {"network_gbps", w.NetworkGbps, model.MaxNetworkGbps},
	} {
		if err := CheckFloat("workload."+f.key, f.v, f.max); err != nil {
			return err
		}
	}
	if w.NetworkGbps > 0 && w.NetworkGbps < model.MinNetworkGbps {
		return Errorf("workload.network_gbps", "must be %d–%d Gbps per node, got %v", model.MinNetworkGbps, model.MaxNetworkGbps, w.NetworkGbps)
	}
	// One message for every MFU outside its range, 0.001 and 1.5 alike
	// (walk35: those said "at least 0.01" and "> 0 and ≤ 1").
	if w.MFU != 0 && !(w.MFU >= model.MinMFU && w.MFU <= 1) {
		return Errorf("workload.mfu", "must be %v–1, got %v; an MFU is a fraction: 0.4 for 40%%", model.MinMFU, w.MFU)
	}
	for _, f := range []struct {
		key string
		v   float64
	}{{"dataset_samples", w.DatasetSamples}, {"dataset_tokens", w.DatasetTokens}} {
		if f.v > 0 && f.v < 1 { // less than one sample or token is no dataset, and 1e-300 prints 300-digit figures
			return Errorf("workload."+f.key, "must be ≥ 1, got %v; leave the key out for no dataset", f.v)
		}
	}
	if w.DatasetSamples > 0 && w.DatasetTokens > 0 {
		return Errorf("workload.dataset_tokens", "give the dataset in samples or in tokens, not both")
	}
	if err := checkServeRanges(&w.Serve); err != nil {
		var ce *Error
		if errors.As(err, &ce) {
			ce.Key = "serve." + ce.Key
		}
		return err
	}
	sv := &w.Serve
	if n := max(sv.Replicas, 1) * max(sv.TP, w.TP, 1) * max(sv.PP, 1); n > model.MaxGPUs {
		return Errorf("serve.replicas", "replicas × tp × pp must be at most %d GPUs, got %d", model.MaxGPUs, n)
	}
	return nil
}

// CheckRanges holds the search's figures to their ranges, for the
// configuration's keys and the flags alike. Errors are *Error.
func (s *SearchAnswers) CheckRanges() error {
	for _, f := range []struct {
		key    string
		v, max float64
	}{
		{"max_price_hour", s.MaxPriceHour, 1e7}, {"budget_month", s.BudgetMonth, 1e10}, {"budget_job", s.BudgetJob, 1e10},
		{"deadline_hours", s.DeadlineHours, 1e7},
		{"usd_cny", s.USDCNY, MaxUSDCNY},
	} {
		if err := CheckFloat("search."+f.key, f.v, f.max); err != nil {
			return err
		}
	}
	return CheckFloatIn("search.hours_per_month", s.HoursPerMonth, MinHoursPerMonth, MaxHoursPerMonth)
}

// CheckFloatIn accepts 0 (unset) and finite values in [min, max] (max
// a whole number): a figure with a floor, where a tiny positive value (1e-300) is a slip
// that prints figures of 300 digits.
func CheckFloatIn(key string, v, min, max float64) error {
	if v != 0 && !(v >= min && v <= max) {
		return Errorf(key, "must be %g–%.0f, got %v", min, max, v)
	}
	return nil
}

// CheckFloat accepts 0 (unset) and finite values in (0, max]; a value
// written as 0 is reported, since the encoder never writes one.
func CheckFloat(key string, v, max float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > max {
		return Errorf(key, "must be > 0 and ≤ %g, got %v", max, v)
	}
	return nil
}

// CheckText rejects text that could not be written back unchanged
// (control characters, invalid UTF-8) and, when required, blank text: a
// *Error about key.
func CheckText(key, s string, required bool) error {
	if required && strings.TrimSpace(s) == "" {
		return Errorf(key, "missing; want a non-empty string")
	}
	if !utf8.ValidString(s) || strings.IndexFunc(s, show.Unprintable) >= 0 {
		return Errorf(key, "%q has control characters or invalid UTF-8", s)
	}
	return nil
}

// MaxEstimateFigure bounds each figure of [estimate] (GiB, FLOPs, hours),
// which gpuplan writes and reads back for information: the largest a
// workload within the configuration's own bounds can give is its FLOP
// count, 6 × params × tokens × epochs (Kaplan et al. 2020, §2.1) =
// 6 × model.MaxParams × model.MaxDataset × model.MaxEpochs = 6e38; the
// memory and hours of such a workload are far below it. A larger figure
// (1e300) is a hand edit or a hostile file (issue 29).
const MaxEstimateFigure = 1e40

// validate bounds [estimate.model], read back as written: params as
// workload.custom.params (model.MaxParams), counts as workload.custom's
// (0, left out, to 2^24).
func (a *ArchSummary) validate() error {
	if a == nil {
		return nil
	}
	for _, f := range []struct {
		key string
		v   float64
	}{{"params", a.Params}, {"active_params", a.ActiveParams}} {
		if err := CheckFloat("estimate.model."+f.key, f.v, model.MaxParams); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		key string
		v   int
	}{{"layers", a.Layers}, {"decoder_layers", a.DecoderLayers}, {"hidden", a.Hidden}, {"heads", a.Heads}, {"kv_heads", a.KVHeads},
		{"head_dim", a.HeadDim}, {"ffn", a.FFN}, {"vocab", a.Vocab}, {"experts", a.Experts}, {"experts_per_token", a.ExpertsPerToken},
		{"max_positions", a.MaxPositions}} {
		if f.v < 0 || f.v > 1<<24 {
			return Errorf("estimate.model."+f.key, "must be 1–%d, got %d", 1<<24, f.v)
		}
	}
	return nil
}

// CheckName is CheckText for a name the catalog is searched by (a
// provider, instance type, region or GPU): it also refuses a character
// that shows nothing or blank space (show.Invisible: zero-width and
// format characters, Hangul fillers, U+00A0, U+2800, …) and a stack of
// combining marks (show.MarkStack), as catalog and plan names do, so a
// saved answer cannot hold a name that reads as another.
func CheckName(key, s string, required bool) error {
	if err := CheckText(key, s, required); err != nil {
		return err
	}
	if i := strings.IndexFunc(s, show.Invisible); i >= 0 {
		r, _ := utf8.DecodeRuneInString(s[i:])
		return Errorf(key, "%s has the invisible character U+%04X at byte %d; names must show every character they hold", show.Quote(s), r, i)
	}
	if i := show.MarkStack(s); i >= 0 {
		return Errorf(key, "%s has more than %d combining marks on one letter, or one mark twice, at byte %d; names must read as the letters they hold, delete the marks", show.Quote(s), show.MaxMarks, i)
	}
	return nil
}

func (c *CustomModel) validate() error {
	if c.Family != "" && !slices.Contains(model.Families, c.Family) {
		return Errorf("workload.custom.family", "want %s", model.OrMsg(model.EnumNames(model.Families)))
	}
	if err := CheckFloat("workload.custom.params", c.Params, model.MaxParams); err != nil {
		return err
	}
	for _, f := range []struct {
		key string
		v   int
	}{{"layers", c.Layers}, {"hidden", c.Hidden}, {"heads", c.Heads}, {"kv_heads", c.KVHeads}, {"ffn", c.FFN}, {"vocab", c.Vocab}} {
		if f.v < 0 || f.v > 1<<24 {
			return Errorf("workload.custom."+f.key, "must be 1–%d, got %d", 1<<24, f.v)
		}
	}
	a := c.Architecture()
	if err := a.Validate(); err != nil {
		return &Error{Key: "workload.custom", Msg: kindMessage(err)}
	}
	return nil
}

var datePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`) })

func (s *Selection) validate() error {
	for _, f := range []struct{ key, v string }{
		{"provider", s.Provider}, {"instance_type", s.InstanceType}, {"region", s.Region},
	} {
		if err := CheckName("selection."+f.key, f.v, true); err != nil {
			return err
		}
	}
	for _, f := range []struct{ key, v string }{{"price_origin", s.PriceOrigin}, {"price_source", s.PriceSource}} {
		if err := CheckText("selection."+f.key, f.v, false); err != nil {
			return err
		}
	}
	if err := CheckName("selection.gpu", s.GPU, false); err != nil {
		return err
	}
	if s.GPUs < 1 || s.GPUs > model.MaxGPUs {
		return Errorf("selection.gpus", "must be 1–%d, got %d", model.MaxGPUs, s.GPUs)
	}
	if s.Instances < 1 || s.Instances > model.MaxGPUs {
		return Errorf("selection.instances", "must be 1–%d, got %d", model.MaxGPUs, s.Instances)
	}
	if s.Pricing != "" && !slices.Contains(model.PricingModes, s.Pricing) {
		return Errorf("selection.pricing", "want %s", model.OrMsg(model.EnumNames(model.PricingModes)))
	}
	for _, f := range []struct {
		key string
		v   float64
	}{{"price_per_hour_usd", s.USDPerHour}, {"monthly_cost_usd", s.MonthlyUSD}, {"job_hours", s.JobHours}, {"job_cost_usd", s.JobUSD}} {
		if err := CheckFloat("selection."+f.key, f.v, 1e12); err != nil {
			return err
		}
	}
	for _, f := range []struct{ key, v string }{{"catalog_as_of", s.CatalogAsOf}, {"price_as_of", s.PriceAsOf}} {
		if f.v == "" {
			continue
		}
		if _, err := time.Parse(time.DateOnly, f.v); err != nil || !datePattern().MatchString(f.v) {
			return Errorf("selection."+f.key, "want a date such as \"2026-11-30\", got %q", f.v)
		}
	}
	return nil
}

// Workload turns the request into a Workload without defaults or
// validation, for callers that override it before Compute. It is the one
// place each request rule lives: the model is looked up in cat (keys and
// aliases), read with rd.HFConfig (whose dtype sets the precision when none
// is given) or built from the custom shape (CustomModel.Architecture's
// defaults); rd.Safetensors then sets the exact parameter count; gpus =
// "auto" leaves GPUs to the search. Warnings come from the readers.
// Errors are *Error naming the key.
func (w *WorkloadAnswers) Workload(cat *model.Catalog, rd Readers) (model.Workload, []string, error) {
	out, warnings, err := w.WorkloadMessages(cat, rd)
	return out, model.Strings(warnings), err
}

// WorkloadMessages is Workload with its warnings as messages, for a UI to
// translate.
func (w *WorkloadAnswers) WorkloadMessages(cat *model.Catalog, rd Readers) (model.Workload, []model.Message, error) {
	out := model.Workload{Settings: w.Settings.Clone()}
	var warnings []model.Message
	switch {
	case w.Model != "":
		a, err := cat.Model(w.Model)
		if err != nil {
			return out, nil, &Error{Key: "workload.model", Msg: kindMessage(err)}
		}
		out.Model = *a
		if a.Release != "" {
			// A quantized release's id (Qwen/Qwen3-32B-AWQ): its base's
			// architecture in the release's format, said in one line;
			// inference runs it as a quantized config.json's would
			// (data/hf Config.Precision), training needs the 16-bit base.
			task := cmp.Or(out.Task, model.TaskTrain)
			if why, refused := model.ReleaseRefusal(a, task); refused {
				return out, nil, &Error{Key: "workload.model", Msg: why}
			}
			warnings = append(warnings, model.ReleaseNote(a))
			if task == model.TaskInference && out.Precision == "" {
				out.Precision = model.ReleasePrecision(a)
			}
		} else if note, ok := model.FineTuneNote(w.Model, a); ok {
			// A distill or fine-tune planned as its base of another name
			// (deepseek-ai/DeepSeek-R1-Distill-Qwen-7B: Qwen2.5 7B), said
			// in one line as a release's id is.
			warnings = append(warnings, note)
		}
	case w.HFConfig != "":
		if rd.HFConfig == nil {
			return out, nil, Errorf("workload.hf_config", "this build cannot read config.json files; give model or [workload.custom]")
		}
		a, p, ws, err := rd.HFConfig(w.HFConfig, cmp.Or(w.Task, model.TaskTrain))
		if err != nil {
			return out, nil, Errorf("workload.hf_config", "%v", err)
		}
		out.Model = a
		warnings = ws
		twinDefaults(cat, &out.Model)
		if out.Precision == "" && p != "" { // the checkpoint's format: FromCheckpoint's rule
			task, prec, note := FromCheckpoint(cmp.Or(out.Task, model.TaskTrain), p)
			if task != cmp.Or(out.Task, model.TaskTrain) {
				out.Task = task
			}
			if out.Precision = prec; note != "" {
				warnings = append(warnings, model.Msg(note)) // a fixed sentence
			}
		}
	case w.Custom != nil:
		out.Model = w.Custom.Architecture()
	case w.Safetensors != "":
		out.Model = model.Architecture{Family: model.FamilyDecoder} // its count comes next
	default:
		return out, nil, Errorf("workload.model", "give model, hf_config or a [workload.custom] table")
	}
	if w.Safetensors != "" {
		if rd.Safetensors == nil {
			return out, nil, Errorf("workload.safetensors", "this build cannot read safetensors files")
		}
		a, ws, err := rd.Safetensors(w.Safetensors, out.Model)
		if err != nil {
			return out, nil, Errorf("workload.safetensors", "%v", err)
		}
		out.Model, warnings = a, append(warnings, ws...)
	}
	if out.FlashAttention != nil && out.Model.Family != "" && !out.Model.Family.HasAttention() {
		warnings = append(warnings, model.NoAttentionWarning(&out.Model)) // one line, then the answer is dropped
		out.FlashAttention = nil
	}
	if w.AutoGPUs {
		out.GPUs = 0
	}
	return out, warnings, nil
}

// twinDefaults gives an imported architecture a the starting batch,
// sequence length and image size of the catalog's models of its shape
// (Catalog.ShapeTwins) when it has none and every twin agrees: a
// config.json of Llama 3.1 8B then starts at the catalog entry's 1 × 4096
// tokens, not the generic 2048 (a new user's walk: the same 8,030,261,248
// parameters estimated 31 GiB from the config.json, 47 GiB from the key).
func twinDefaults(cat *model.Catalog, a *model.Architecture) {
	if cat == nil || a.DefaultBatch != 0 || a.DefaultSeqLen != 0 || a.DefaultImageSize != 0 {
		return
	}
	twins := cat.ShapeTwins(a)
	if len(twins) == 0 {
		return
	}
	t := twins[0]
	for _, o := range twins[1:] {
		if o.DefaultBatch != t.DefaultBatch || o.DefaultSeqLen != t.DefaultSeqLen || o.DefaultImageSize != t.DefaultImageSize {
			return
		}
	}
	a.DefaultBatch, a.DefaultSeqLen, a.DefaultImageSize = t.DefaultBatch, t.DefaultSeqLen, t.DefaultImageSize
}

// Resolve is Workload with Defaults applied and Validate passed; a
// validation error names the workload key ("workload.tp").
func (w *WorkloadAnswers) Resolve(cat *model.Catalog, rd Readers) (model.Workload, []string, error) {
	out, warnings, err := w.ResolveMessages(cat, rd)
	return out, model.Strings(warnings), err
}

// ResolveMessages is Resolve with its warnings as messages.
func (w *WorkloadAnswers) ResolveMessages(cat *model.Catalog, rd Readers) (model.Workload, []model.Message, error) {
	out, warnings, err := w.WorkloadMessages(cat, rd)
	if err != nil {
		return out, warnings, err
	}
	out.Defaults()
	return out, warnings, AsError(out.Validate())
}

// AsError returns a Workload.Validate error as a *Error naming
// the workload key; nil stays nil.
func AsError(err error) error {
	if err == nil {
		return nil
	}
	var fe *model.FieldError
	if errors.As(err, &fe) {
		return &Error{Key: "workload." + fe.Field, Msg: fe.Msg}
	}
	return &Error{Key: "workload.model", Msg: kindMessage(err)}
}

// kindMessage is the sentence of a kind error (model.KindError: "not
// found: unknown model …" says "unknown model …" under its key), else
// err as a message.
func kindMessage(err error) model.Message {
	var ke *model.KindError
	if errors.As(err, &ke) {
		return ke.Msg
	}
	return model.ErrMessage(err)
}

// rawConfig is the file's TOML shape. Every value has a type whose
// UnmarshalTOML says what is wrong in words; Decode adds the key.
type rawConfig struct {
	SchemaVersion tInt           `toml:"schema_version"`
	Workload      *rawWorkload   `toml:"workload"`
	Search        *rawSearch     `toml:"search"`
	Estimate      *rawEstimate   `toml:"estimate"`
	Selection     *rawSelection  `toml:"selection"`
	Launch        *Launch        `toml:"launch"`
	Serve         *rawServe      `toml:"serve"`
	Export        *ExportOptions `toml:"export"`
	Lang          tString        `toml:"lang"`
}

type rawWorkload struct {
	Framework      model.Framework `toml:"framework"`
	Task           model.Task      `toml:"task"`
	Model          tString         `toml:"model"`
	HFConfig       tString         `toml:"hf_config"`
	Custom         *rawCustom      `toml:"custom"`
	Precision      model.Precision `toml:"precision"`
	Optimizer      model.Optimizer `toml:"optimizer"`
	BatchSize      tInt            `toml:"batch_size"`
	SeqLen         tTokens         `toml:"seq_len"`
	ImageSize      tInt            `toml:"image_size"`
	GradAccum      tInt            `toml:"grad_accum"`
	Checkpointing  tBool           `toml:"checkpointing"`
	FlashAttention tBool           `toml:"flash_attention"`
	LoRARank       tInt            `toml:"lora_rank"`
	LoRATargets    tStrings        `toml:"lora_targets"`
	DatasetSamples tCount          `toml:"dataset_samples"`
	DatasetTokens  tCount          `toml:"dataset_tokens"`
	Epochs         tFloat          `toml:"epochs"`
	GPUs           tGPUs           `toml:"gpus"`
	Strategy       model.Strategy  `toml:"strategy"`
	TP             tInt            `toml:"tp"`
	GPUsPerNode    tInt            `toml:"gpus_per_node"`
	NetworkGbps    tFloat          `toml:"network_gbps"`
	ContextLen     tTokens         `toml:"context_len"`
	Sequences      tInt            `toml:"sequences"`
	GenTokens      tTokens         `toml:"gen_tokens"`
	MFU            tFloat          `toml:"mfu"`
	Recipe         model.Recipe    `toml:"recipe"`
	Loss           model.Loss      `toml:"loss"`
	QuantType      model.QuantType `toml:"quant_type"`
	Torch          tTorch          `toml:"torch"`
	Trainer        model.Trainer   `toml:"trainer"`
	ZeroGrad       model.ZeroGrad  `toml:"zero_grad"`
	Outputs        model.Outputs   `toml:"outputs"`
	DoubleQuant    tBool           `toml:"double_quant"`
	model.Switches                 // decoded by their toml tags
}

type rawCustom struct {
	Family  model.Family `toml:"family"`
	Params  tFloat       `toml:"params"`
	Layers  tInt         `toml:"layers"`
	Hidden  tInt         `toml:"hidden"`
	Heads   tInt         `toml:"heads"`
	KVHeads tInt         `toml:"kv_heads"`
	FFN     tInt         `toml:"ffn"`
	Vocab   tInt         `toml:"vocab"`
}

type rawSearch struct {
	Providers      tStrings      `toml:"providers"`
	Regions        tStrings      `toml:"regions"`
	Countries      tStrings      `toml:"countries"`
	GPUs           tStrings      `toml:"gpus"`
	Pricing        tPricing      `toml:"pricing"`
	MaxPriceHour   tFloat        `toml:"max_price_hour"`
	BudgetMonth    tFloat        `toml:"budget_month"`
	BudgetJob      tFloat        `toml:"budget_job"`
	HoursPerMonth  tFloat        `toml:"hours_per_month"`
	DeadlineHours  tFloat        `toml:"deadline_hours"`
	AllowMultiNode tBool         `toml:"allow_multi_node"`
	MaxGPUs        tInt          `toml:"max_gpus"`
	AllowFallback  tBool         `toml:"allow_precision_fallback"`
	Sort           model.SortKey `toml:"sort"`
	USDCNY         tFloat        `toml:"usd_cny"`
}

type rawEstimate struct {
	GPU                tString  `toml:"gpu"`
	WeightsGiB         tFloat   `toml:"weights_gib"`
	GradientsGiB       tFloat   `toml:"gradients_gib"`
	OptimizerStatesGiB tFloat   `toml:"optimizer_states_gib"`
	ActivationsGiB     tFloat   `toml:"activations_gib"`
	KVCacheGiB         tFloat   `toml:"kv_cache_gib"`
	OverheadGiB        tFloat   `toml:"overhead_gib"`
	TotalGiB           tFloat   `toml:"total_gib"`
	TotalFLOPs         tFloat   `toml:"total_flops"`
	Hours              tFloat   `toml:"hours"`
	GPUHours           tFloat   `toml:"gpu_hours"`
	Model              *rawArch `toml:"model"`
}

// rawArch is [estimate.model]: informational, read back as written.
type rawArch struct {
	Family          model.Family `toml:"family"`
	Params          tFloat       `toml:"params"`
	ActiveParams    tFloat       `toml:"active_params"`
	Layers          tInt         `toml:"layers"`
	DecoderLayers   tInt         `toml:"decoder_layers"`
	Hidden          tInt         `toml:"hidden"`
	Heads           tInt         `toml:"heads"`
	KVHeads         tInt         `toml:"kv_heads"`
	HeadDim         tInt         `toml:"head_dim"`
	FFN             tInt         `toml:"ffn"`
	Vocab           tInt         `toml:"vocab"`
	Experts         tInt         `toml:"experts"`
	ExpertsPerToken tInt         `toml:"experts_per_token"`
	MaxPositions    tInt         `toml:"max_positions"`
	GatedMLP        tBool        `toml:"gated_mlp"`
	Tied            tBool        `toml:"tied_embeddings"`
}

type rawSelection struct {
	Provider     tString  `toml:"provider"`
	InstanceType tString  `toml:"instance_type"`
	Region       tString  `toml:"region"`
	GPU          tString  `toml:"gpu"`
	GPUs         tInt     `toml:"gpus"`
	Instances    tInt     `toml:"instances"`
	Pricing      tPricing `toml:"pricing"`
	USDPerHour   tFloat   `toml:"price_per_hour_usd"`
	MonthlyUSD   tFloat   `toml:"monthly_cost_usd"`
	JobHours     tFloat   `toml:"job_hours"`
	JobUSD       tFloat   `toml:"job_cost_usd"`
	CatalogAsOf  tDate    `toml:"catalog_as_of"`
	PriceOrigin  tString  `toml:"price_origin"`
	PriceSource  tString  `toml:"price_source"`
	PriceAsOf    tDate    `toml:"price_as_of"`
}

// configKeys lists each table's keys for "did you mean" on typos; built
// on the first unknown key, not in every process's start (reflection).
var configKeys = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"":                {"schema_version", "workload", "search", "estimate", "selection", "launch", "serve", "export", "lang"},
		"workload":        TOMLKeys(rawWorkload{}),
		"workload.custom": TOMLKeys(rawCustom{}),
		"search":          TOMLKeys(rawSearch{}),
		"estimate":        TOMLKeys(rawEstimate{}),
		"estimate.model":  TOMLKeys(rawArch{}),
		"selection":       TOMLKeys(rawSelection{}),
		"launch":          TOMLKeys(Launch{}),
		"launch.stack":    TOMLKeys(LaunchStack{}),
		"serve":           TOMLKeys(rawServe{}),
		"export":          TOMLKeys(ExportOptions{}),
	}
})

// FlagKeys maps, per table, the snake-cased name of a command-line flag
// whose name is not its key's to that key, for "did you mean" on a key
// written as its flag (walk52: "serve.tp" was told `did you mean
// "tpot_ms"?`). [serve]'s tp is --tp, which for serving is the
// tensor-parallel size (ui/cli's rangeError says so too); a test in ui/cli
// holds this list to the flag table.
var FlagKeys = map[string]map[string]string{
	"serve": {"tp": "tensor_parallel_size", "pp": "pipeline_parallel_size", "rps": "requests_per_sec"},
}

// flagKey names the table and key that key, written as its flag's name
// in table, stands for: table's own first, then [serve]'s and [search]'s
// ("pp" as a bare answer is serve.pipeline_parallel_size); "" when none.
func flagKey(table, key string) (string, string) {
	if k, ok := FlagKeys[table][key]; ok && table != "" {
		return table, k
	}
	for _, t := range []string{"search", "serve"} {
		if k, ok := FlagKeys[t][key]; ok && t != table {
			return t, k
		}
	}
	return "", ""
}

// LooksJSON reports whether b is a JSON document, not TOML: no TOML
// document starts with "{" (after a byte-order mark and blanks), a JSON
// object does. Decode and the plan decoder say so in place of the TOML
// parser's "expected '.' or '=', but got '{'".
func LooksJSON(b []byte) bool {
	t := bytes.TrimLeft(bytes.TrimPrefix(b, []byte("\ufeff")), " \t\r\n")
	return len(t) > 0 && t[0] == '{'
}

// otherTable names the table other than table ("search" or "serve")
// that has key, or "" when none has (or table has it).
func otherTable(table, key string) string {
	keys := configKeys()
	if slices.Contains(keys[table], key) {
		return ""
	}
	for _, t := range []string{"search", "serve"} { // search first: [serve]'s provider, region and pricing only say where it ran
		if t != table && slices.Contains(keys[t], key) {
			return t
		}
	}
	return ""
}

// Decode parses and validates a configuration file. Decoding is
// strict: an unknown key is an error suggesting the closest valid one, a
// value of the wrong type or out of range an error naming its key, a key
// given twice a parse error with its line. Integers are accepted where
// numbers are wanted (epochs = 3 or 3.0); whole numbers must be whole
// (batch_size = 8, not 8.5). Errors are *Error wrapping
// ErrInvalid.
func Decode(b []byte) (Config, error) {
	if LooksJSON(b) {
		// walk49: a Hugging Face config.json given to --config was told
		// "line 1: expected '.' or '=', but got '{' instead".
		return Config{}, &Error{Msg: model.Msg("this is a JSON file, not a gpuplan configuration (TOML); for a Hugging Face config.json use --hf-config, or hf_config under [workload]")}
	}
	var raw rawConfig
	md, err := toml.NewDecoder(bytes.NewReader(b)).Decode(&raw)
	if err != nil {
		if ce := TOMLParseError(err); ce != nil {
			return Config{}, keyRange(ce)
		}
		return Config{}, typeError(TidyTOMLMessage(err.Error()))
	}
	if extra := md.Undecoded(); len(extra) > 0 {
		k := extra[0]
		table := strings.Join(k[:len(k)-1], ".")
		msg := model.Msg("unknown key %q", k[len(k)-1])
		if valid, ok := configKeys()[table]; ok {
			// A key of another table written bare, as a plan's answers
			// and [workload] read it (walk50: concurrency in
			// [phase.answers] was told the [workload] keys only).
			if ft, fk := flagKey(table, k[len(k)-1]); ft != "" && ft == table {
				msg = model.Msg("unknown key %q; did you mean %q?", k[len(k)-1], fk)
			} else if ft != "" {
				msg = model.Msg("unknown key %q in [%s]; did you mean the [%s] key %q (%s.%s in a plan's answers)?", k[len(k)-1], table, ft, fk, ft, fk)
			} else if other := otherTable(table, k[len(k)-1]); other != "" {
				msg = model.Msg("unknown key %q in [%s]; it is a [%s] key (%s.%s in a plan's answers)", k[len(k)-1], table, other, other, k[len(k)-1])
			} else if s := model.Closest(k[len(k)-1], valid, 1); len(s) > 0 {
				msg = model.Msg("unknown key %q; did you mean %q?", k[len(k)-1], s[0])
			} else {
				msg = model.Msg("unknown key %q; valid keys: %s", k[len(k)-1], strings.Join(valid, ", "))
			}
		}
		return Config{}, &Error{Key: k.String(), Msg: msg}
	}
	if !raw.SchemaVersion.set {
		return Config{}, Errorf("schema_version", "missing; add schema_version = %d at the top", SchemaVersion)
	}
	if raw.SchemaVersion.v != SchemaVersion {
		return Config{}, Errorf("schema_version", "%d is not supported; this gpuplan reads %d", raw.SchemaVersion.v, SchemaVersion)
	}
	if raw.Workload == nil {
		return Config{}, Errorf("workload", "missing [workload] table")
	}
	c := Config{Lang: raw.Lang.v}
	if o := raw.Export; !o.IsZero() {
		if err := checkExportOptions(o); err != nil {
			return Config{}, err
		}
		c.Export = o
	}
	if l := raw.Launch; l != nil {
		if c.LaunchDataset, err = launchDataset(l); err != nil {
			return Config{}, err
		}
	}
	rw := raw.Workload
	c.Workload = WorkloadAnswers{
		Settings: model.Settings{Framework: rw.Framework, Task: rw.Task, Precision: rw.Precision, Optimizer: rw.Optimizer, MicroBatch: rw.BatchSize.v, SeqLen: rw.SeqLen.v, ImageSize: rw.ImageSize.v, GradAccum: rw.GradAccum.v, Checkpointing: rw.Checkpointing.ptr(), FlashAttention: rw.FlashAttention.ptr(), LoRARank: rw.LoRARank.v, LoRATargets: rw.LoRATargets.v, DatasetSamples: rw.DatasetSamples.v, DatasetTokens: rw.DatasetTokens.v, Epochs: rw.Epochs.v, GPUs: rw.GPUs.n, Strategy: rw.Strategy, TP: rw.TP.v, GPUsPerNode: rw.GPUsPerNode.v, NetworkGbps: rw.NetworkGbps.v, ContextLen: rw.ContextLen.v, Sequences: rw.Sequences.v, GenTokens: rw.GenTokens.v, MFU: rw.MFU.v, Recipe: rw.Recipe, Loss: rw.Loss, QuantType: rw.QuantType, DoubleQuant: rw.DoubleQuant.ptr(), Torch: rw.Torch.v, Trainer: rw.Trainer, ZeroGrad: rw.ZeroGrad, Outputs: rw.Outputs, Switches: rw.Switches},
		Model:    rw.Model.v,
		HFConfig: rw.HFConfig.v,
		AutoGPUs: rw.GPUs.auto,
	}
	var serveZeros []zeroKey
	if rv := raw.Serve; rv != nil {
		sv, err := rv.serving()
		if err != nil {
			return Config{}, err
		}
		c.Workload.Serve = sv
		// A length written as 0 is no length (walk35: max_model_len = 0
		// became the 4096 default without a word, where seq_len = 0 and
		// --max-model-len 0 are refused).
		serveZeros = []zeroKey{
			{"serve.max_model_len", rv.MaxModelLen.set, float64(rv.MaxModelLen.v)}, {"serve.prompt_tokens", rv.PromptTokens.set, float64(rv.PromptTokens.v)},
			{"serve.output_tokens", rv.OutputTokens.set, float64(rv.OutputTokens.v)}, {"serve.max_num_batched_tokens", rv.MaxNumBatchedTokens.set, float64(rv.MaxNumBatchedTokens.v)},
		}
	}
	if rc := rw.Custom; rc != nil {
		c.Workload.Custom = &CustomModel{Family: rc.Family, Params: rc.Params.v, Layers: rc.Layers.v, Hidden: rc.Hidden.v,
			Heads: rc.Heads.v, KVHeads: rc.KVHeads.v, FFN: rc.FFN.v, Vocab: rc.Vocab.v}
	}
	// Explicit zeros are rejected: the encoder omits unknown and default
	// values, so a zero is a typo or a "free" price.
	zeros := []zeroKey{
		{"workload.batch_size", rw.BatchSize.set, float64(rw.BatchSize.v)}, {"workload.seq_len", rw.SeqLen.set, float64(rw.SeqLen.v)},
		{"workload.image_size", rw.ImageSize.set, float64(rw.ImageSize.v)}, {"workload.grad_accum", rw.GradAccum.set, float64(rw.GradAccum.v)},
		{"workload.lora_rank", rw.LoRARank.set, float64(rw.LoRARank.v)}, {"workload.tp", rw.TP.set, float64(rw.TP.v)},
		{"workload.context_len", rw.ContextLen.set, float64(rw.ContextLen.v)}, {"workload.sequences", rw.Sequences.set, float64(rw.Sequences.v)},
		{"workload.epochs", rw.Epochs.set, rw.Epochs.v}, {"workload.mfu", rw.MFU.set, rw.MFU.v},
		{"workload.gpus_per_node", rw.GPUsPerNode.set, float64(rw.GPUsPerNode.v)}, {"workload.network_gbps", rw.NetworkGbps.set, rw.NetworkGbps.v},
		{"workload.dataset_samples", rw.DatasetSamples.set, rw.DatasetSamples.v}, {"workload.dataset_tokens", rw.DatasetTokens.set, rw.DatasetTokens.v},
	}
	if rw.GPUs.set && !rw.GPUs.auto {
		zeros = append(zeros, zeroKey{"workload.gpus", true, float64(rw.GPUs.n)})
	}
	zeros = append(zeros, serveZeros...)
	if rs := raw.Search; rs != nil {
		c.Search = SearchAnswers{Providers: rs.Providers.v, Regions: rs.Regions.v, Pricing: rs.Pricing.v,
			MaxPriceHour: rs.MaxPriceHour.v, BudgetMonth: rs.BudgetMonth.v, HoursPerMonth: rs.HoursPerMonth.v,
			DeadlineHours: rs.DeadlineHours.v, AllowMultiNode: rs.AllowMultiNode.v, AllowPrecisionFallback: rs.AllowFallback.v, Sort: rs.Sort,
			USDCNY: rs.USDCNY.v, BudgetJob: rs.BudgetJob.v, MaxGPUs: rs.MaxGPUs.v}
		c.Search.GPUs, c.Search.Countries = rs.GPUs.v, rs.Countries.v
		zeros = append(zeros, []zeroKey{
			{"search.max_price_hour", rs.MaxPriceHour.set, rs.MaxPriceHour.v}, {"search.budget_month", rs.BudgetMonth.set, rs.BudgetMonth.v},
			{"search.hours_per_month", rs.HoursPerMonth.set, rs.HoursPerMonth.v}, {"search.deadline_hours", rs.DeadlineHours.set, rs.DeadlineHours.v},
			{"search.usd_cny", rs.USDCNY.set, rs.USDCNY.v},
			{"search.budget_job", rs.BudgetJob.set, rs.BudgetJob.v},
			{"search.max_gpus", rs.MaxGPUs.set, float64(rs.MaxGPUs.v)},
		}...)
	}
	if re := raw.Estimate; re != nil {
		c.Estimate = &EstimateSummary{GPU: re.GPU.v, WeightsGiB: re.WeightsGiB.v, GradientsGiB: re.GradientsGiB.v,
			OptimizerStatesGiB: re.OptimizerStatesGiB.v, ActivationsGiB: re.ActivationsGiB.v, KVCacheGiB: re.KVCacheGiB.v,
			OverheadGiB: re.OverheadGiB.v, TotalGiB: re.TotalGiB.v, TotalFLOPs: re.TotalFLOPs.v, Hours: re.Hours.v, GPUHours: re.GPUHours.v}
		if ra := re.Model; ra != nil {
			c.Estimate.Model = &ArchSummary{Family: ra.Family, Params: ra.Params.v, ActiveParams: ra.ActiveParams.v,
				Layers: ra.Layers.v, DecoderLayers: ra.DecoderLayers.v, Hidden: ra.Hidden.v, Heads: ra.Heads.v, KVHeads: ra.KVHeads.v,
				HeadDim: ra.HeadDim.v, FFN: ra.FFN.v, Vocab: ra.Vocab.v, Experts: ra.Experts.v, ExpertsPerToken: ra.ExpertsPerToken.v,
				MaxPositions: ra.MaxPositions.v, GatedMLP: ra.GatedMLP.v, Tied: ra.Tied.v}
		}
	}
	if rs := raw.Selection; rs != nil {
		c.Selection = &Selection{Provider: rs.Provider.v, InstanceType: rs.InstanceType.v, Region: rs.Region.v, GPU: rs.GPU.v,
			GPUs: rs.GPUs.v, Instances: rs.Instances.v, Pricing: rs.Pricing.v, USDPerHour: rs.USDPerHour.v,
			MonthlyUSD: rs.MonthlyUSD.v, JobHours: rs.JobHours.v, JobUSD: rs.JobUSD.v, CatalogAsOf: rs.CatalogAsOf.v,
			PriceOrigin: rs.PriceOrigin.v, PriceSource: rs.PriceSource.v, PriceAsOf: rs.PriceAsOf.v}
		zeros = append(zeros, []zeroKey{
			{"selection.price_per_hour_usd", rs.USDPerHour.set, rs.USDPerHour.v}, {"selection.monthly_cost_usd", rs.MonthlyUSD.set, rs.MonthlyUSD.v},
			{"selection.job_hours", rs.JobHours.set, rs.JobHours.v}, {"selection.job_cost_usd", rs.JobUSD.set, rs.JobUSD.v},
		}...)
	}
	for _, z := range zeros {
		if z.set && z.v == 0 {
			return Config{}, zeroError(z.key)
		}
	}
	if err := c.Validate(); err != nil {
		return Config{}, err
	}
	return c, nil
}

// launchDataset is l's dataset (Config.LaunchDataset): its dataset key,
// else the value after --dataset_name in the script arguments when
// gpuplan derived them (a module run, model/launch Plan.derivedArgs; a
// user's script takes its own arguments). A dataset that starts with '-'
// is refused as export refuses --dataset (the trainer would read it as an
// option).
func launchDataset(l *Launch) (string, error) {
	d := l.Dataset
	if d == "" && l.Module != "" && l.Script == "" {
		if i := slices.Index(l.ScriptArgs, "--dataset_name"); i >= 0 && i+1 < len(l.ScriptArgs) {
			d = l.ScriptArgs[i+1]
		}
	}
	if err := CheckText("", d, false); err != nil {
		return "", Errorf("launch.dataset", "%q has control characters or invalid UTF-8", d)
	}
	if strings.HasPrefix(d, "-") {
		return "", Errorf("launch.dataset", "dataset %q starts with '-', which the trainer would read as an option; give a Hugging Face dataset id, or a local path as ./PATH", d)
	}
	return d, nil
}

// zeroKey is a figure Decode refuses when the file writes it as 0.
type zeroKey struct {
	key string
	set bool
	v   float64
}

// zeroRanges are the ranges Validate holds the figures of zeroKey to, for
// zeroError to state (issue 29: "must be > 0" said no range). An integer
// range starts at 1; a figure of money or time at anything above 0.
var zeroRanges = map[string]struct {
	max     float64
	integer bool
}{
	"workload.batch_size": {model.MaxBatch, true}, "workload.seq_len": {model.MaxSeqLen, true},
	"workload.image_size": {model.MaxImage, true}, "workload.grad_accum": {model.MaxBatch, true},
	"workload.lora_rank": {model.MaxRank, true}, "workload.tp": {model.MaxGPUs, true},
	"workload.context_len": {model.MaxSeqLen, true}, "workload.sequences": {model.MaxBatch, true},
	"workload.gpus": {model.MaxGPUs, true}, "search.max_gpus": {model.MaxGPUs, true},
	"workload.dataset_samples": {model.MaxDataset, true}, "workload.dataset_tokens": {model.MaxDataset, true},
	"workload.epochs": {model.MaxEpochs, false}, "workload.mfu": {1, false},
	"workload.gpus_per_node": {model.MaxGPUsPerNode, true}, "workload.network_gbps": {model.MaxNetworkGbps, false},
	"search.max_price_hour": {1e7, false}, "search.budget_month": {1e10, false}, "search.budget_job": {1e10, false},
	"search.hours_per_month": {MaxHoursPerMonth, false}, "search.deadline_hours": {1e7, false},
	"selection.price_per_hour_usd": {1e12, false}, "selection.monthly_cost_usd": {1e12, false},
	"selection.job_hours": {1e12, false}, "selection.job_cost_usd": {1e12, false},
	"serve.max_model_len": {model.MaxSeqLen, true}, "serve.prompt_tokens": {model.MaxSeqLen, true},
	"serve.output_tokens": {model.MaxSeqLen, true}, "serve.max_num_batched_tokens": {model.MaxSeqLen, true},
}

// keyRange words tInt's "out of range: at most 2147483647", which
// stands for any whole number, with the range of the key at fault
// (zeroRanges), which is what the file must meet (walk37: seq_len =
// 99999999999 was told 2147483647, its limit being 16777216).
func keyRange(ce *Error) *Error {
	r, ok := zeroRanges[ce.Key]
	if !ok || !r.integer || len(ce.Msg.Args) == 0 {
		return ce
	}
	switch ce.Msg.Key {
	case "%d is out of range: at most %d", "%g is out of range: at most %d":
		return &Error{Key: ce.Key, Line: ce.Line, Msg: model.Msg("must be 1–%d, got %s", int64(r.max), model.DescribeTOML(ce.Msg.Args[0]))}
	}
	return ce
}

// zeroError is Decode's error for key written as 0: the key's range
// (zeroRanges) and how to leave it unset.
func zeroError(key string) error {
	r := zeroRanges[key]
	price := strings.HasSuffix(key, "_usd") || strings.Contains(key, "price") || strings.Contains(key, "budget")
	switch {
	case key == "workload.mfu":
		return Errorf(key, "must be %v–1, got 0; leave the key out for the calibrated default", model.MinMFU)
	case key == "search.usd_cny":
		return Errorf(key, "must be %d–%d, got 0; leave the key out for the built-in rate", MinUSDCNY, MaxUSDCNY)
	case r.max == 0: // a key without a range here: Validate's own words
		return Errorf(key, "must be > 0, got 0; leave the key out for the default")
	case price:
		return Errorf(key, "must be > 0 and ≤ %g, got 0; a price of 0 is never free: leave the key out when it is unknown or unlimited", r.max)
	case strings.HasPrefix(key, "workload.dataset_"):
		return Errorf(key, "must be 1–%g, got 0; leave the key out for no dataset", r.max)
	case r.integer:
		return Errorf(key, "must be 1–%d, got 0; leave the key out for the default", int64(r.max))
	}
	return Errorf(key, "must be > 0 and ≤ %g, got 0; leave the key out for the default", r.max)
}

// TidyTOMLMessage turns the TOML library's message into one of ours:
// lowercase, no "toml: " prefix, no trailing period.
func TidyTOMLMessage(s string) string {
	s = strings.TrimPrefix(strings.TrimSpace(s), "toml: ")
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	// The library quotes what it found ("expected value but found
	// \"wJalrXUtnFEMI\""): in a file that is not TOML at all (a .env, a
	// credentials file a shared plan points at) that is a secret, so only
	// its first character is kept, enough to see a typo.
	s = tomlFound().ReplaceAllStringFunc(s, func(m string) string {
		verb, q, _ := strings.Cut(strings.TrimSuffix(m, " instead"), " ")
		inner := q[1 : len(q)-1]
		if r := []rune(inner); len(r) > 1 && r[0] != '\\' { // an escape ('\n') is one character
			return verb + " " + q[:1] + string(r[0]) + "…" + q[len(q)-1:] + " instead"
		}
		return m
	})
	s = strings.TrimSuffix(s, ".")
	if len(s) > 1 && !(s[1] >= 'A' && s[1] <= 'Z') { // "TOML files cannot…" keeps its acronym
		s = strings.ToLower(s[:1]) + s[1:]
	}
	return s
}

// tomlFound is a fragment of the file the TOML library quotes in its
// syntax errors ("found %q instead", "got %q instead"); our own value
// errors ("got \"eight\"") quote a value the key was given and stay.
var tomlFound = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:found|got) (?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*') instead`)
})

// tomlKeyError is the TOML library's message about one key's value, as
// it words a value of the wrong type for a plain Go field (the [launch]
// section's): "line 5 (last key "launch.nodes"): incompatible types: TOML
// value has type string; destination has type integer", or "type mismatch
// for LaunchStack: expected table but found int64".
var tomlKeyError = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^line ([0-9]+) \(last key "([^"]*)"\): (?:incompatible types: TOML value has type ([^;]+); destination has type (.+)|type mismatch for [^:]+: expected (table) but found (.+)|(.*))$`)
})

// typeError turns the TOML library's error about a key into a Error
// naming the key and line, worded as the rest ("want a whole number such
// as 8, got a string"); other messages stay as they are.
func typeError(msg string) error {
	m := tomlKeyError().FindStringSubmatch(msg)
	if m == nil {
		return &Error{Msg: ValueMessage(msg)}
	}
	line, _ := strconv.Atoi(m[1])
	ce := &Error{Key: m[2], Line: line, Msg: ValueMessage(m[7])}
	if gotType, wantType := cmp.Or(m[3], m[6]), cmp.Or(m[4], m[5]); wantType != "" {
		want := map[string]string{"integer": "a whole number such as 8", "float": "a number such as 3 or 0.5", "string": "a string in quotes",
			"boolean": "true or false", "slice": "an array", "map": "a table", "table": "a table"}[wantType]
		got := map[string]string{"string": "a string", "int64": "a whole number", "float64": "a number", "bool": "a boolean",
			"[]any": "an array", "map[string]any": "a table", "[]map[string]any": "an array of tables", "time.Time": "a date-time"}[gotType]
		ce.Msg = model.Msg("want " + cmp.Or(want, wantType) + ", got " + cmp.Or(got, gotType)) // a fixed sentence
	}
	return ce
}

// TOMLParseError returns the TOML library's syntax error in err (a
// toml.ParseError) as a *Error with its key, line and tidied
// message; nil when err is not one.
func TOMLParseError(err error) *Error {
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		return nil
	}
	return &Error{Key: pe.LastKey, Line: pe.Position.Line, Msg: ValueMessage(TidyTOMLMessage(pe.Message))}
}

// TOMLValueError words the TOML library's error about a value of the
// wrong type as a configuration file's (typeError): a *Error with
// the key, line and "want a whole number such as 8, got a string", for
// other TOML files (catalog overlays) to say it the same way; nil when
// err is not such an error.
func TOMLValueError(err error) *Error {
	var ce *Error
	if errors.As(typeError(TidyTOMLMessage(err.Error())), &ce) && ce.Key != "" && strings.HasPrefix(ce.Msg.String(), "want ") {
		return ce
	}
	return nil
}

// BadValue is badValue for the UnmarshalTOML methods of other packages
// (a plan's answers): its message survives the TOML library's wrapping.
func BadValue(format string, args ...any) error { return badValue(format, args...) }

// badValue is a value error of an UnmarshalTOML method. The TOML library
// keeps only its text (toml.ParseError.Message, no Unwrap), so its
// message is remembered here for ValueMessage to give back: what a UI
// translates is the message, never the text matched against formats.
func badValue(format string, args ...any) error {
	m := model.Msg(format, args...)
	valueErrors.Lock()
	defer valueErrors.Unlock()
	if valueErrors.m == nil || len(valueErrors.m) >= maxValueErrors {
		valueErrors.m = map[string]model.Message{} // a decode stops at its first error: a few suffice
	}
	valueErrors.m[m.String()] = m
	return m
}

// valueErrors are the messages badValue returned, by their text.
var valueErrors struct {
	sync.Mutex
	m map[string]model.Message
}

const maxValueErrors = 64

// ValueMessage is the message whose text the TOML library kept from a
// value error (badValue), or the library's own text as an untranslated
// message.
func ValueMessage(text string) model.Message {
	valueErrors.Lock()
	defer valueErrors.Unlock()
	if m, ok := valueErrors.m[text]; ok {
		return m
	}
	if m, ok := model.RememberedMessage(text); ok { // model's enums (model.RememberMessage)
		return m
	}
	// The TOML library's own refusal of a number no Go number holds
	// (walk38: "1e400 is out of range for float64", untranslated and
	// with no bound): no setting takes one that large.
	for _, typ := range []string{" is out of range for float64", " is out of range for int64"} {
		if n, ok := strings.CutSuffix(text, typ); ok && n != "" && !strings.ContainsAny(n, " \t") {
			return model.Msg("%s is too large a number for any setting; give a smaller one", n)
		}
	}
	return model.Msg("%s", text)
}

type tInt struct {
	v   int
	set bool
}

func (t *tInt) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case int64:
		if x < math.MinInt32 || x > math.MaxInt32 {
			return badValue("%d is out of range: at most %d", x, math.MaxInt32)
		}
		t.v, t.set = int(x), true
		return nil
	case float64:
		if x == math.Trunc(x) && math.Abs(x) <= math.MaxInt32 {
			t.v, t.set = int(x), true
			return nil
		}
		if x == math.Trunc(x) { // 1e14 is a whole number, out of range (issue 29)
			return badValue("%g is out of range: at most %d", x, math.MaxInt32)
		}
	}
	return badValue("want a whole number such as 8, got %s", model.DescribeTOML(v))
}

// tTokens is a token count (seq_len, context_len, gen_tokens and the
// serving lengths): a whole number, or a string ParseTokens reads as the
// flags and a plan's answers do ("8K" = 8192, "8k" = 8000), so docs/cli.md's
// one rule for token counts holds in configuration files too (walk35:
// seq_len = "8K" was refused as "want a whole number such as 8").
type tTokens struct{ tInt }

func (t *tTokens) UnmarshalTOML(v any) error {
	if x, ok := v.(string); ok {
		n, err := ParseTokens(x)
		if err != nil {
			var m model.Message // ParseTokens' sentence, without its kind's words
			if errors.As(err, &m) {
				return badValue("%s", m)
			}
			return badValue("%v", err)
		}
		t.v, t.set = n, true
		return nil
	}
	return t.tInt.UnmarshalTOML(v)
}

type tFloat struct {
	v   float64
	set bool
}

func (t *tFloat) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case int64:
		t.v, t.set = float64(x), true
		return nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return badValue("want a finite number, got %s", model.DescribeTOML(v))
		}
		t.v, t.set = x, true
		return nil
	}
	return badValue("want a number such as 3 or 0.5, got %s", model.DescribeTOML(v))
}

// tCount is a count of samples or tokens: a number, or a quantity as the
// flags and a plan's answers read it (ParseQuantity: "20M" = 2e7); anything
// else is refused as a count, not as "a number such as 3 or 0.5" (a new
// user's plan with dataset_tokens = "NaN").
type tCount struct{ tFloat }

func (t *tCount) UnmarshalTOML(v any) error {
	if x, ok := v.(string); ok {
		if q, err := ParseQuantity(x); err == nil && q >= 0 && !math.IsInf(q, 0) && !math.IsNaN(q) {
			t.v, t.set = q, true
			return nil
		}
		return badValue("want a count such as 20M or 2e7, got %s", model.DescribeTOML(v))
	}
	return t.tFloat.UnmarshalTOML(v)
}

type tBool struct {
	v   bool
	set bool
}

func (t *tBool) UnmarshalTOML(v any) error {
	b, ok := v.(bool)
	if !ok {
		return badValue("want true or false, got %s", model.DescribeTOML(v))
	}
	t.v, t.set = b, true
	return nil
}

func (t *tBool) ptr() *bool {
	if !t.set {
		return nil
	}
	return model.Bool(t.v)
}

// tTorch is workload.torch, the PyTorch release ("2.4"), written in
// quotes: a TOML number would read 2.10 as 2.1.
type tTorch struct{ v model.TorchVersion }

func (t *tTorch) UnmarshalTOML(v any) error {
	s, ok := v.(string)
	if !ok {
		return badValue("want the release in quotes, e.g. %q (a number reads 2.10 as 2.1), got %s", model.DefaultTorch.String(), model.DescribeTOML(v))
	}
	tv, err := model.ParseTorchVersion(s)
	var te *model.TorchError
	if errors.As(err, &te) { // under its key: the value and the reason
		return badValue("%q: %s", te.Value, te.Why)
	}
	if err != nil {
		return err
	}
	t.v = tv
	return nil
}

type tString struct{ v string }

func (t *tString) UnmarshalTOML(v any) error {
	s, ok := v.(string)
	if !ok {
		return badValue("want a string in quotes, got %s", model.DescribeTOML(v))
	}
	if err := CheckText("", s, false); err != nil {
		return badValue("%q has control characters or invalid UTF-8", s)
	}
	t.v = s
	return nil
}

type tStrings struct{ v []string }

func (t *tStrings) UnmarshalTOML(v any) error {
	list, ok := v.([]any)
	if !ok {
		return badValue("want an array of strings such as [\"aws\", \"gcp\"], got %s", model.DescribeTOML(v))
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			return badValue("want an array of strings, got an element %s", model.DescribeTOML(e))
		}
		if err := CheckText("", s, false); err != nil {
			return badValue("%q has control characters or invalid UTF-8", s)
		}
		out = append(out, s)
	}
	if len(out) > 0 {
		t.v = out
	}
	return nil
}

// tGPUs is a GPU count or "auto".
type tGPUs struct {
	n         int
	auto, set bool
}

func (t *tGPUs) UnmarshalTOML(v any) error {
	if s, ok := v.(string); ok {
		if strings.EqualFold(strings.TrimSpace(s), "auto") {
			t.auto, t.set = true, true
			return nil
		}
		return badValue("want a whole number such as 8 or \"auto\", got %s", model.DescribeTOML(v))
	}
	var i tInt
	if err := i.UnmarshalTOML(v); err != nil {
		return badValue("want a whole number such as 8 or \"auto\", got %s", model.DescribeTOML(v))
	}
	t.n, t.set = i.v, true
	return nil
}

// tDate is a calendar date, written "2026-11-30" (a string) and also read
// as a TOML local date (2026-11-30). It stays text: no time zone shifts it.
type tDate struct{ v string }

func (t *tDate) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case string:
		if _, err := time.Parse(time.DateOnly, x); err != nil || !datePattern().MatchString(x) {
			return badValue("want a date such as \"2026-11-30\", got %s", model.DescribeTOML(v))
		}
		t.v = x
		return nil
	case time.Time:
		// A TOML local date decodes as midnight in a zone named for it;
		// format in the value's own zone, never converted.
		if x.Hour() != 0 || x.Minute() != 0 || x.Second() != 0 || x.Nanosecond() != 0 {
			return badValue("want a date such as \"2026-11-30\", got %s", model.DescribeTOML(v))
		}
		t.v = x.Format(time.DateOnly)
		return nil
	}
	return badValue("want a date such as \"2026-11-30\", got %s", model.DescribeTOML(v))
}

// tPricing is a pricing mode, parsed by model.ParsePricing. A wrapper, not
// Pricing.UnmarshalText: the plan file decodes Pricing as written and
// reports a bad one under its own key (plan_codec.go).
type tPricing struct{ v model.Pricing }

func (t *tPricing) UnmarshalTOML(v any) error {
	s, ok := v.(string)
	if !ok {
		return badValue("want a string in quotes, got %s", model.DescribeTOML(v))
	}
	p, err := model.ParsePricing(s)
	if err != nil {
		if m, ok := err.(model.Message); ok {
			return badValue("%s", m) // translated, as the enums' (model.RememberMessage)
		}
		return err
	}
	t.v = p
	return nil
}

// TOMLKeys returns the toml tags of a struct's fields, in order: the valid
// keys of a table, for "did you mean" on typos.
func TOMLKeys(v any) []string {
	t := reflect.TypeOf(v)
	keys := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		key, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		switch {
		case key == "" && f.Anonymous && f.Type.Kind() == reflect.Struct:
			keys = append(keys, TOMLKeys(reflect.Zero(f.Type).Interface())...) // the decoder flattens it
		case key != "" && key != "-":
			keys = append(keys, key)
		}
	}
	return keys
}
