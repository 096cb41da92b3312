package tui

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/serve"
)

// Model choices besides the catalog's keys.
const (
	modelCustom = "@custom" // the user types the shape
	modelHF     = "@hf"     // a Hugging Face config.json
)

// Distribution choices.
const (
	distSingle = "single" // one GPU
	distNode   = "node"   // one instance with several GPUs
	distMulti  = "multi"  // several instances

	// strategyAuto is the strategy answer that names none.
	strategyAuto model.Strategy = ""
)

// Dataset units. Images are samples of a vision model.
const (
	unitSamples = "samples"
	unitImages  = "images"
	unitTokens  = "tokens"
)

// The configurator's defaults: the question most people bring is "can I
// fine-tune an open 8B LLM, and on what?", so the first frame answers it:
// Llama 3.1 8B with QLoRA (a 4-bit base, the cheapest way to fine-tune
// it) on one GPU at the catalog's batch and length for the model, over an
// Alpaca-sized instruction set (52k instructions, about 20M tokens) for 3
// epochs as in Alpaca's recipe.
const (
	defaultModel   = "llama-3.1-8b"
	defaultTask    = model.TaskQLoRA
	defaultDataset = "20M"
	defaultUnit    = unitTokens
	defaultEpochs  = "3"
	defaultHours   = "730"
	defaultExport  = "./gpuplan.toml"
)

// answers receives the wizard's bound values; held as *answers so the
// pointers survive model copies. Text answers stay text until config()
// parses them, so a half-typed number never loses what was typed.
type answers struct {
	Framework model.Framework
	Task      model.Task
	Model     string // catalog key, modelCustom or modelHF

	// Custom model (Model == modelCustom).
	Params, Layers, Hidden, Heads, Vocab string
	HFPath                               string // Model == modelHF

	TrainPrecision, InferPrecision model.Precision // one question each, shown by task
	Batch, Length                  string          // Length: tokens (text) or pixels (vision)
	Optimizer                      model.Optimizer
	Checkpointing, Flash           bool
	PrecisionFallback              bool // accept GPUs that run a fallback precision

	Dataset, DatasetUnit, Epochs string

	Distribution string         // distSingle, distNode, distMulti
	GPUs         string         // "auto", "≤8" (up to 8: auto with a cap) or a number
	Strategy     model.Strategy // strategyAuto: none named, as recommend without --strategy

	Providers []string
	Regions   []string
	GPUKeys   []string   // the browse screen's pick (browse.go): offers of these GPUs only; empty: all
	pick      marketPick // what that pick pinned and replaced, for ctrl+x (browse.go)
	Pricing   model.Pricing
	Budget    string // USD per month; empty: no limit
	BudgetJob string // USD for the whole job; empty: no limit
	Hours     string // hours per month
	Deadline  string // hours; empty: none

	// Estimator v2 (estimator.go): zero values are auto.
	Recipe      model.Recipe
	Loss        model.Loss
	QuantType   model.QuantType
	DoubleQuant bool           // QLoRA; on by default
	Switches    model.Switches // the switch questions (estimator.go switchQuestions)
	Serve       serveAnswers   // the serving questions (inference of an LLM)

	extra extraAnswers // from a loaded file, not asked
	fill  filled       // defaults last filled in, followed until edited
	// hf is the architecture last read from the config.json at HFPath
	// (by a recompute), so that its defaults can be filled in.
	hf struct {
		path string
		arch model.Architecture
	}
}

// extraAnswers are the file's keys the configurator does not ask about;
// they are kept so that exporting again loses nothing.
type extraAnswers struct {
	Family                           model.Family
	KVHeads, FFN                     int
	GradAccum, LoRARank, TP          int
	ContextLen, Sequences, GenTokens int
	// asked: the file gave context_len or sequences, which the Batch and
	// length page's questions ask when serving (askFileKeys): their
	// answers are written back there, and seq_len and batch_size stay as
	// the file had them (0: not given).
	asked struct {
		ContextLen, Sequences bool
		SeqLen, MicroBatch    int
	}
	LoRATargets       []string
	MFU, MaxPriceHour float64
	Sort              model.SortKey
	CustomParamsOnly  bool
	ExtraProviders    []string // unknown to this catalog
	// Countries is the file's search.countries (gpuplan export --country):
	// the Where page asks for regions only, and the offers and a launch
	// file's failover stay in these countries all the same (walk54).
	Countries []string
	// Export is the file's [export] table, the launch options gpuplan
	// export was given (--model-id, --name, …): the configurator has no
	// question for them, so a save writes them back as read (walk51: a
	// re-save dropped the table, and export --config then loaded the
	// catalog's model under the default name).
	Export *config.ExportOptions
	// Lang (the top-level lang key) and LaunchDataset (the [launch]
	// dataset export --dataset named) are kept the same way (walk51).
	Lang, LaunchDataset string
}

// filled remembers the defaults the answers were last filled with, so a
// default follows the model and task until the user changes it.
type filled struct {
	modelKey, batch, length string
	optimizer               model.Optimizer // the model's recipe's (Architecture.DefaultOptimizer) or AdamW
	vision                  bool
	adapters                bool // filled for LoRA/QLoRA, whose default batch is the recipe's (model.AdapterGradAccum)
	fileBatch, fileLength   bool // the batch (length) is a file's batch_size (seq_len or image_size): the user's own, never refilled
	// batchServes: the batch answer is serving's concurrency (task
	// inference), not a training micro-batch; the two never stand for each
	// other, so a task switch across them keeps the one left in
	// otherBatch (the user's own, "" for a default) and brings back the
	// other's (walk35: a serving file's batch_size = 4 became QLoRA's
	// micro-batch, 39.41 GiB instead of 14.47).
	batchServes bool
	otherBatch  string
	noAttention bool // a CNN: no flash-attention question, no answer sent
	task        model.Task
	framework   model.Framework
	ckpt, flash bool
	basis       string         // what the dataset answer counts: basisText, basisVision or basisRequests
	data        datasetDefault // the dataset defaults last filled in
	// inferPrec is the inference precision the model filled in (releasedPrecision);
	// filePrec: a file's precision, the user's own, never refilled. An
	// inference precision left at what the model filled is no precision
	// given, so a model released quantized serves as released
	// (serve.ReleasedFormat), as on the command line without --precision.
	inferPrec model.Precision
	filePrec  bool
	released  bool // the model was released quantized (serve.ReleasedFormat)
	// trainPrec is the training precision last filled in: the first one,
	// or what an imported config.json's dtype resolves to (followCheckpoint).
	// A training precision left at it is no precision given, so a
	// config.json's torch_dtype decides, as --hf-config does without
	// --precision; fileTrainPrec: a file's, the user's own.
	trainPrec     model.Precision
	fileTrainPrec bool
	// fallback is the Precision fallback answer last filled in: allow
	// while the request serves an LLM at the precision list's bf16 with
	// no weight format chosen, vLLM's own --dtype auto (fp16 where the GPU
	// has no bf16), no otherwise. An answer left at it follows the
	// request; the page then says what is ranked (new-user walk: "allow
	// [ no ]" beside a best offer of V100s at ↺fp16). fileFallback: a
	// file that gives a precision gives its allow_precision_fallback
	// with it, the user's own, never refilled (precision = "bf16" with
	// allow_precision_fallback = false ranks no V100, as --precision
	// bf16 typed).
	fallback, fileFallback bool
}

// releasedPrecision is the inference precision the Precision page starts
// at for m: the precision of its released checkpoint's weight format
// (serve.ReleasedFormat: fp8 for DeepSeek-V3/R1, 4-bit for gpt-oss's
// MXFP4, which int4 serves as the checkpoint's own format,
// config.WorkloadAnswers.Serving), else the first inference precision.
func releasedPrecision(m *model.Architecture) (model.Precision, bool) {
	switch f, ok := serve.ReleasedFormat(m); {
	case ok && f == serve.WeightFP8:
		return model.FP8, true
	case ok && f == serve.WeightMXFP4:
		return model.INT4, true
	}
	return model.InferencePrecisions[0], false
}

// defaultAnswers are the first frame's answers.
func defaultAnswers(cat *model.Catalog) *answers {
	a := &answers{
		Framework: model.PyTorch, Task: defaultTask, Model: defaultModel,
		TrainPrecision: model.TrainingPrecisions[0], InferPrecision: model.InferencePrecisions[0],
		Optimizer: model.AdamW, Dataset: defaultDataset, DatasetUnit: defaultUnit, Epochs: defaultEpochs,
		Distribution: distSingle, GPUs: "auto", Strategy: strategyAuto, Pricing: model.OnDemand, Hours: defaultHours,
		Layers: "32", Hidden: "4096", Heads: "32", Vocab: "32000", // Params empty: counted from the shape
		DoubleQuant: true,
	}
	if _, err := cat.Model(defaultModel); err != nil && len(cat.Models) > 0 {
		a.Model = cat.Models[0].Key // a test catalog without Llama
	}
	a.fill = filled{modelKey: "\x00", trainPrec: a.TrainPrecision} // nothing filled yet: reconcile fills all
	a.reconcile(cat, nil)
	return a
}

// answersFromConfig fills the answers from a loaded file; what the file
// leaves out keeps its default.
func answersFromConfig(cat *model.Catalog, c *config.Config) *answers {
	a := defaultAnswers(cat)
	wc := c.Workload // a copy: the defaults filled in below are not the file's (c is read again)
	w := &wc
	// A key the file leaves out means what it means on the command line,
	// the workload's default, not the first frame's answer.
	a.fill.filePrec = w.Precision != "" && !w.Task.Training() && w.Task != ""
	a.fill.fileTrainPrec = w.Precision != "" && (w.Task.Training() || w.Task == "")
	a.fill.fileFallback = a.fill.filePrec
	def, _, defErr := w.Workload(cat, config.Readers{})
	if defErr == nil {
		def.Defaults()
		a.Task, a.Epochs = def.Task, fmtFloat(def.Epochs)
		if w.Precision == "" && def.Precision != "" {
			w.Precision = def.Precision
		}
	}
	if w.Framework != "" {
		a.Framework = w.Framework
	}
	if w.Task != "" {
		a.Task = w.Task
	}
	switch {
	case w.Model != "":
		a.Model = w.Model
		if m, err := cat.Model(w.Model); err == nil {
			a.Model = m.Key // aliases become keys
		}
	case w.HFConfig != "":
		a.Model, a.HFPath = modelHF, w.HFConfig
	case w.Custom != nil:
		m := w.Custom
		a.Model = modelCustom
		a.Params, a.Layers, a.Hidden, a.Heads, a.Vocab = fmtCount(m.Params), fmtInt(m.Layers), fmtInt(m.Hidden), fmtInt(m.Heads), fmtInt(m.Vocab)
		a.extra.Family, a.extra.KVHeads, a.extra.FFN = m.Family, m.KVHeads, m.FFN
		a.extra.CustomParamsOnly = m.Layers == 0 && m.Hidden == 0 && m.Heads == 0
		if shape := (&config.CustomModel{Family: m.Family, Layers: m.Layers, Hidden: m.Hidden, Heads: m.Heads,
			KVHeads: m.KVHeads, FFN: m.FFN, Vocab: m.Vocab}).Architecture(); shape.HasShape() {
			if n := shape.ParamCount(); math.Abs(n-m.Params) <= 0.005*n {
				a.Params = "" // the shape's own count (files record it): follow the shape
			}
		}
	}
	if w.Precision != "" {
		if w.Task.Training() || w.Task == "" {
			a.TrainPrecision = w.Precision
			if !a.fill.fileTrainPrec {
				a.fill.trainPrec = w.Precision // the task's default, not the file's
			}
		} else {
			a.InferPrecision = w.Precision
		}
	}
	// Fill the model's defaults first, then let the file's values win.
	a.fill.modelKey, a.fill.basis = "\x00", ""
	a.reconcile(cat, nil)
	if w.Optimizer != "" {
		a.Optimizer = w.Optimizer
	}
	if w.MicroBatch > 0 {
		a.Batch = fmtInt(w.MicroBatch)
	}
	if w.SeqLen > 0 && !a.vision(cat) {
		a.Length = fmtInt(w.SeqLen)
	}
	if w.ImageSize > 0 && a.vision(cat) {
		a.Length = fmtInt(w.ImageSize)
	}
	if w.Checkpointing != nil {
		a.Checkpointing = *w.Checkpointing
	}
	if w.FlashAttention != nil {
		a.Flash = *w.FlashAttention
	}
	switch {
	case w.DatasetTokens > 0:
		a.Dataset, a.DatasetUnit = fmtCount(w.DatasetTokens), unitTokens
	case w.DatasetSamples > 0:
		a.Dataset, a.DatasetUnit = fmtCount(w.DatasetSamples), unitSamples
		if a.vision(cat) {
			a.DatasetUnit = unitImages
		}
	default:
		a.Dataset = ""
	}
	if w.Epochs > 0 {
		a.Epochs = fmtFloat(w.Epochs)
	}
	switch {
	case c.Search.AllowMultiNode:
		a.Distribution = distMulti
	case w.GPUsAuto() || w.GPUs > 1: // no gpus key: auto, as recommend reads it
		a.Distribution = distNode
	case w.Strategy != "" && w.Strategy != model.Single:
		// One GPU under a named strategy (FSDP or ZeRO with offload, say):
		// the single-GPU choice writes strategy single, so the strategy and
		// what hangs on it would be lost; its page keeps both, at 1 GPU.
		a.Distribution = distNode
	default:
		a.Distribution = distSingle
	}
	if w.GPUs > 0 {
		a.GPUs = fmtInt(w.GPUs)
	}
	if n := c.Search.MaxGPUs; n > 0 && w.GPUsAuto() {
		a.GPUs = "≤" + fmtInt(n)
	}
	switch w.Strategy {
	case "":
	case model.Single: // several GPUs run it as data parallel, and it stays named
		a.Strategy = model.DDP
	default:
		a.Strategy = w.Strategy
	}
	a.extra.GradAccum, a.extra.LoRARank, a.extra.TP = w.GradAccum, w.LoRARank, w.TP
	a.extra.ContextLen, a.extra.Sequences, a.extra.GenTokens = w.ContextLen, w.Sequences, w.GenTokens
	a.extra.LoRATargets, a.extra.MFU = slices.Clone(w.LoRATargets), w.MFU
	a.estimatorFromConfig(w)

	s := &c.Search
	known := providers(cat)
	a.Providers = nil
	for _, p := range s.Providers {
		if slices.Contains(known, p) {
			a.Providers = append(a.Providers, p)
		} else {
			a.extra.ExtraProviders = append(a.extra.ExtraProviders, p)
		}
	}
	a.Regions = slices.Clone(s.Regions)
	a.GPUKeys = slices.Clone(s.GPUs)
	if s.Pricing != "" {
		a.Pricing = s.Pricing
	}
	a.Budget = fmtFloatOrEmpty(s.BudgetMonth)
	a.BudgetJob = fmtFloatOrEmpty(s.BudgetJob)
	if s.HoursPerMonth > 0 {
		a.Hours = fmtFloat(s.HoursPerMonth)
	}
	a.Deadline = fmtFloatOrEmpty(s.DeadlineHours)
	if a.fill.fileFallback || s.AllowPrecisionFallback { // else left to follow the request (filled.fallback)
		a.PrecisionFallback = s.AllowPrecisionFallback
	}
	a.extra.MaxPriceHour, a.extra.Sort = s.MaxPriceHour, s.Sort
	a.extra.Countries = slices.Clone(s.Countries)
	a.extra.Export = c.Export.Clone()
	a.extra.Lang = c.Lang
	if c.LaunchDataset != launch.PlaceholderDataset {
		a.extra.LaunchDataset = c.LaunchDataset // the placeholder is no dataset named
	}
	// The file's batch and length are the user's answers, as if typed:
	// a default follows the model and task, they do not (fill keeps the
	// defaults the first reconcile filled in).
	a.fill.fileBatch = w.MicroBatch > 0
	a.fill.fileLength = w.SeqLen > 0 && !a.vision(cat) || w.ImageSize > 0 && a.vision(cat)
	a.fill.ckpt, a.fill.flash = a.Checkpointing, a.Flash
	a.Serve.fromServing(w.Serve)
	a.askFileKeys(cat, w)
	a.reconcile(cat, nil)
	a.fill.basis, a.fill.data = a.datasetBasis(), datasetDefaults[a.datasetBasis()]
	return a
}

func fmtInt(v int) string {
	if v == 0 {
		return ""
	}
	return strconv.Itoa(v)
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func fmtFloatOrEmpty(v float64) string {
	if v == 0 {
		return ""
	}
	return fmtFloat(v)
}

// fmtCount writes a count so that ParseQuantity reads it back exactly:
// 20M, 1.28M, 7B, 88000.
func fmtCount(v float64) string {
	if v == 0 {
		return ""
	}
	for _, s := range []struct {
		suffix string
		m      float64
	}{{"T", 1e12}, {"B", 1e9}, {"M", 1e6}, {"k", 1e3}} {
		if v >= s.m {
			x := v / s.m
			if t := fmtFloat(x); len(t) <= 5 {
				if back, err := config.ParseQuantity(t + s.suffix); err == nil && back == v {
					return t + s.suffix
				}
			}
		}
	}
	return fmtFloat(v)
}

// arch returns the architecture the model answer names, or false when it
// is not known yet (a custom shape being typed, a config.json not read).
func (a *answers) arch(cat *model.Catalog) (model.Architecture, bool) {
	switch a.Model {
	case modelCustom:
		m, err := a.custom()
		if err != nil {
			return model.Architecture{}, false
		}
		return m.Architecture(), true
	case modelHF:
		if a.hf.path != "" && a.hf.path == a.hfPath() {
			return a.hf.arch, true
		}
		return model.Architecture{}, false
	}
	m, err := cat.Model(a.Model)
	if err != nil {
		return model.Architecture{}, false
	}
	return *m, true
}

// vision reports whether the model takes images (Length is pixels).
func (a *answers) vision(cat *model.Catalog) bool {
	m, ok := a.arch(cat)
	return ok && m.Family.Vision()
}

// checkpointPrecision reports whether the precision is left to an
// imported config.json: the model is one, the task trains, and the
// training precision is still the one filled in, not the user's or a
// file's. The request then names none and config.WorkloadAnswers.Workload
// takes it from the checkpoint (hf.Config.Precision, config.FromCheckpoint),
// the path `gpuplan recommend --hf-config` takes.
func (a *answers) checkpointPrecision() bool {
	return a.Model == modelHF && a.Task.Training() && !a.fill.fileTrainPrec && a.TrainPrecision == a.fill.trainPrec
}

// followCheckpoint shows on the Precision page the precision the
// estimate took from the config.json (w, the resolved workload) while
// checkpointPrecision holds, and reports whether the answer changed.
func (a *answers) followCheckpoint(w *model.Workload) bool {
	if !a.checkpointPrecision() || w.Precision == "" || w.Precision == a.TrainPrecision ||
		!slices.Contains(model.TrainingPrecisions, w.Precision) {
		return false
	}
	a.TrainPrecision, a.fill.trainPrec = w.Precision, w.Precision
	return true
}

// precision is the precision asked for the task's kind.
func (a *answers) precision() model.Precision {
	if a.Task.Training() {
		return a.TrainPrecision
	}
	return a.InferPrecision
}

// reconcile keeps dependent answers consistent after any change: the
// batch and length follow the model's defaults until edited (and reset
// when the input switches between tokens and pixels); checkpointing
// follows the task and flash attention the framework until toggled; the
// regions drop those no chosen provider has. focused is the answer being
// edited, never rewritten under the cursor.
func (a *answers) reconcile(cat *model.Catalog, focused *string) (notes []model.Message) {
	m, ok := a.arch(cat)
	modelKey := a.Model
	if a.Model == modelHF {
		modelKey += ":" + a.hf.path
	}
	serves := a.Task == model.TaskInference
	crossed := ok && a.fill.modelKey != "\x00" && serves != a.fill.batchServes
	if crossed {
		own := a.Batch
		if !a.fill.fileBatch && a.Batch == a.fill.batch {
			own = "" // a default: the new kind's default follows
		}
		a.Batch, a.fill.otherBatch = a.fill.otherBatch, own
		a.fill.fileBatch = a.Batch != "" // the user's own, kept as a file's is
	}
	if ok && (modelKey != a.fill.modelKey || a.Task.Adapters() != a.fill.adapters || crossed) {
		w := model.Workload{Settings: model.Settings{Task: a.Task}, Model: m}
		w.Defaults()
		batch, length := fmtInt(w.MicroBatch), fmtInt(w.SeqLen)
		vision := m.Family.Vision()
		if vision {
			length = fmtInt(w.ImageSize)
		}
		first := a.fill.modelKey == "\x00"
		var name any = m.Name
		if m.Name == "" {
			name = model.Msg("the model")
		}
		if focused != &a.Batch && (!a.fill.fileBatch && a.Batch == a.fill.batch || a.Batch == "") {
			if a.Batch != batch && !first {
				notes = append(notes, model.Msg("%s %s", model.Msg(a.batchLabel()), batch))
			}
			a.Batch, a.fill.fileBatch = batch, false
		} else if focused != &a.Batch && !first && a.Batch != batch {
			notes = append(notes, model.Msg("kept your %s %s (%s's default is %s)", model.Msg(a.batchLabel()), a.Batch, name, batch))
		}
		if focused != &a.Length && (!a.fill.fileLength && a.Length == a.fill.length || a.Length == "" || vision != a.fill.vision) {
			if a.Length != length && !first {
				a.fill.vision = vision // for the label
				notes = append(notes, model.Msg("%s %s", model.Msg(a.lengthLabel()), length))
			}
			a.Length, a.fill.fileLength = length, false
		}
		if a.Optimizer == a.fill.optimizer || a.Optimizer == "" || first { // follows the model's recipe until changed
			if a.Optimizer != w.Optimizer && !first && a.Task.Training() {
				notes = append(notes, model.Msg("optimizer %s", string(w.Optimizer)))
			}
			a.Optimizer = w.Optimizer
		}
		a.fill.optimizer = w.Optimizer
		prec, released := releasedPrecision(&m)
		if !a.fill.filePrec && (first || a.InferPrecision == a.fill.inferPrec) {
			a.InferPrecision = prec // follows the model's release until changed
		}
		a.fill.inferPrec, a.fill.released = prec, released
		if len(notes) > 0 {
			notes[0] = model.Msg("%s defaults: %s", name, notes[0])
		}
		if !slices.Contains(unitOptions(vision), a.DatasetUnit) {
			a.DatasetUnit = unitOptions(vision)[0]
		}
		a.fill.modelKey, a.fill.batch, a.fill.length, a.fill.vision = modelKey, batch, length, vision
		a.fill.adapters, a.fill.batchServes = a.Task.Adapters(), serves
		a.fill.noAttention = !m.Family.HasAttention()
	}
	if a.Task != a.fill.task {
		def := a.Task == model.TaskQLoRA // PEFT turns checkpointing on for k-bit training
		if a.fill.task == "" || a.Checkpointing == a.fill.ckpt {
			if a.fill.task != "" && a.Checkpointing != def && a.Task.Training() {
				notes = append(notes, ckptNote(def, a.Task))
			}
			a.Checkpointing = def
		}
		a.fill.task, a.fill.ckpt = a.Task, def
	}
	if a.Framework != a.fill.framework {
		def := a.Framework == model.PyTorch // SDPA picks a fused kernel by default
		if a.fill.framework == "" || a.Flash == a.fill.flash {
			a.Flash = def
		}
		a.fill.framework, a.fill.flash = a.Framework, def
	}
	if !slices.Contains(model.TrainingPrecisions, a.TrainPrecision) {
		a.TrainPrecision = model.TrainingPrecisions[0]
	}
	if !slices.Contains(model.InferencePrecisions, a.InferPrecision) {
		a.InferPrecision = model.InferencePrecisions[0]
	}
	def := a.precision() == model.BF16 && a.Serve.WeightFormat == "" && a.servingLLM(cat)
	if !a.fill.fileFallback && a.PrecisionFallback == a.fill.fallback {
		a.PrecisionFallback = def // follows the request until answered
	}
	a.fill.fallback = def
	a.Regions = pruneRegions(cat, a.Providers, a.Regions)
	return append(a.followBasis(focused, cat), notes...) // what to check before what was filled in: the footer may cut the end
}

// providers lists the catalog's providers, sorted.
func providers(cat *model.Catalog) []string {
	seen := map[string]bool{}
	var out []string
	for i := range cat.Instances {
		p := cat.Instances[i].Provider
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// regionsOf lists the regions where the chosen providers (all but
// marketplaces when none is chosen) have a priced GPU instance, sorted,
// each with the providers that have it.
func regionsOf(cat *model.Catalog, chosen []string) (names []string, by map[string][]string) {
	by = map[string][]string{}
	for i := range cat.Instances {
		in := &cat.Instances[i]
		if !in.Offered() {
			continue
		}
		if len(chosen) == 0 && slices.Contains(model.MarketplaceProviders, in.Provider) ||
			len(chosen) > 0 && !slices.Contains(chosen, in.Provider) {
			continue
		}
		for _, p := range in.Prices {
			if !slices.Contains(by[p.Region], in.Provider) {
				by[p.Region] = append(by[p.Region], in.Provider)
			}
		}
	}
	for r := range by {
		names = append(names, r)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := strings.ToLower(names[i]), strings.ToLower(names[j])
		if a != b {
			return a < b
		}
		return names[i] < names[j]
	})
	return names, by
}

// isRegionPattern reports whether r is a prefix pattern ("europe-",
// "us*") or a continent ("europe", model.ContinentWords) rather than a
// region name; patterns are kept as typed.
func isRegionPattern(r string) bool {
	return strings.HasSuffix(r, "-") || strings.HasSuffix(r, "*") || model.ContinentWords(r) != nil
}

// continentLabels name the continents in the region question.
var continentLabels = map[string]string{
	"africa": "Africa", "asia": "Asia", "europe": "Europe", "north-america": "North America",
	"oceania": "Oceania", "south-america": "South America",
}

// regionContinents lists, in model.Continents order, the continents some
// of the regions are in.
func regionContinents(cat *model.Catalog, names []string, by map[string][]string) []string {
	has := map[string]bool{}
	for _, r := range names {
		for _, p := range by[r] {
			if g, ok := cat.Geo(p, r); ok {
				has[g.Continent] = true
			}
		}
	}
	var out []string
	for _, c := range model.Continents {
		if has[c] {
			out = append(out, c)
		}
	}
	return out
}

// pruneRegions keeps the regions the chosen providers have, and patterns,
// so a region choice is never stale after the providers change.
func pruneRegions(cat *model.Catalog, chosen, regions []string) []string {
	if len(regions) == 0 {
		return regions
	}
	_, by := regionsOf(cat, chosen)
	out := regions[:0:0]
	for _, r := range regions {
		if _, ok := by[r]; ok || isRegionPattern(r) {
			out = append(out, r)
		}
	}
	return out
}

// parse errors name the question, say what is valid and quote the input.
// maxQuoted is how many characters of a typed value an error quotes: a
// value pasted by mistake (200,000 digits in "Batch size") filled the
// screen; the rest is cut at "…", as the command line cuts its lines.
const maxQuoted = 40

// clipped is s cut to maxQuoted characters, with "…" when cut.
func clipped(s string) string {
	n := 0
	for i := range s {
		if n == maxQuoted {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// parseLength reads the sequence length (tokens, as the command line and
// config files read them: config.ParseTokens, "8K" 8192, "8k" 8000, "1.5K"
// refused) or, for a vision model, the image size in pixels; "" is the
// model's default (0). The length's field and the answers (config) both
// check with it, so a length the form lets pass is one the estimate takes.
func (a *answers) parseLength(s string) (int, error) {
	if a.fill.vision {
		return parseWhole(a.lengthLabel(), s, 1, 1<<24)
	}
	if strings.TrimSpace(s) == "" {
		return 0, nil
	}
	if n, err := config.ParseTokens(s); err == nil && n >= 1 && n <= 1<<24 {
		return n, nil
	}
	// The command line's wording (ui/cli values.go): 8k is 8000, not 8192.
	return 0, model.Msg("%s: want a whole number of tokens from 1 to 16777216 such as 2048, 8K (8192) or 8k (8000), got %q", model.Msg(a.lengthLabel()), clipped(s))
}

func parseWhole(label, s string, lo, hi int) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	v, err := config.ParseQuantity(s)
	if err != nil || v != math.Trunc(v) || v < float64(lo) || v > float64(hi) {
		return 0, model.Msg("%s: want a whole number from %d to %d, got %q", model.Msg(label), lo, hi, clipped(s))
	}
	return int(v), nil
}

// The custom shape's limits, as model.Architecture.Validate has them
// ("layers ≤ 1000, hidden ≤ 1048576, heads ≤ 16384, vocab ≤ 16777216").
const (
	maxLayers = 1000
	maxHidden = 1 << 20
	maxHeads  = 1 << 14
	maxVocab  = 1 << 24
)

// Upper limits of counts, as model.Workload.Validate has them: beyond
// them a count is a typo.
const (
	maxDataset = 1e18 // samples or tokens per epoch
	maxParams  = model.MaxParams
)

func parseCount(label, s string, hi float64) (float64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	v, err := config.ParseQuantity(s)
	if err != nil || v < 0 {
		return 0, model.Msg("%s: want a count such as 20M, 88k or 1.2B, got %q", model.Msg(label), clipped(s))
	}
	if v > hi {
		return 0, model.Msg("%s: want at most %s, got %q", model.Msg(label), model.FormatCount(hi), clipped(s))
	}
	return v, nil
}

func parsePositive(label, s string, hi float64) (float64, error) {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "$"))
	if s == "" {
		return 0, nil
	}
	t, ok := config.Thousands(s)
	v, err := strconv.ParseFloat(t, 64)
	if !ok || err != nil || !(v > 0) || v > hi {
		return 0, model.Msg("%s: want a number above 0 and at most %g, got %q", model.Msg(label), hi, clipped(s))
	}
	return v, nil
}

// validators for the form's inputs: the same parsers, so the form and
// the panel never disagree about what is valid.
func wholeValidator(label string, lo, hi int) func(string) error {
	return func(s string) error { _, err := parseWhole(label, s, lo, hi); return err }
}

func countValidator(label string, hi float64) func(string) error {
	return func(s string) error { _, err := parseCount(label, s, hi); return err }
}

// parseJobCount is parseCount for a dataset or a number of requests: 0
// is refused, as the command line refuses --dataset-tokens 0 ("must be ≥
// 1"); empty is none (walk 49e: 0 was taken silently as no dataset).
func parseJobCount(label, s string, hi float64) (float64, error) {
	v, err := parseCount(label, s, hi)
	if err == nil && v == 0 && strings.TrimSpace(s) != "" {
		return 0, model.Msg("%s: want at least 1 (empty for none), got %q", model.Msg(label), clipped(s))
	}
	return v, err
}

func jobCountValidator(label string, hi float64) func(string) error {
	return func(s string) error { _, err := parseJobCount(label, s, hi); return err }
}

func positiveValidator(label string, hi float64) func(string) error {
	return func(s string) error { _, err := parsePositive(label, s, hi); return err }
}

func gpusValidator(s string) error {
	_, _, err := parseGPUs(s)
	return err
}

// parseGPUs reads the GPUs answer: "auto" (or nothing), the fewest whole
// instances that fit; "≤8" (or "up to 8", "<=8", "最多 8"), the same with at most 8
// GPUs (Query.MaxGPUs); or a count. auto is true for the first two, n the
// cap or the count (0: none).
func parseGPUs(s string) (auto bool, n int, err error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "" || t == "auto" {
		return true, 0, nil
	}
	for _, p := range []string{"up to", "≤", "<=", "最多"} {
		if rest, ok := strings.CutPrefix(t, p); ok {
			if n, err := parseWhole("GPUs", rest, 1, model.MaxGPUs); err == nil {
				return true, n, nil
			}
			return false, 0, model.Msg("GPUs: want auto, ≤ a number (≤8: at most 8) or a number such as 8, got %q", clipped(s))
		}
	}
	if n, err = parseWhole("GPUs", s, 1, model.MaxGPUs); err != nil {
		return false, 0, model.Msg("GPUs: want auto, ≤ a number (≤8: at most 8) or a number such as 8, got %q", clipped(s))
	}
	return false, n, nil
}

func (a *answers) custom() (*config.CustomModel, error) {
	var errs []error
	// The limits of the fields' own checks (wizard.go), which are the
	// shape's (model.Architecture.Validate): one limit per answer, so the
	// panel never asks for a hidden size the estimate then refuses.
	limit := map[string]int{"layers": maxLayers, "hidden size": maxHidden, "heads": maxHeads, "vocabulary": maxVocab}
	whole := func(label, s string) int {
		v, err := parseWhole(label, s, 0, limit[label])
		if err != nil {
			errs = append(errs, err)
		}
		return v
	}
	m := &config.CustomModel{Family: a.extra.Family, KVHeads: a.extra.KVHeads, FFN: a.extra.FFN}
	var err error
	if m.Params, err = parseCount("parameters", a.Params, maxParams); err != nil {
		errs = append(errs, err)
	}
	if !a.extra.CustomParamsOnly {
		m.Layers, m.Hidden, m.Heads, m.Vocab = whole("layers", a.Layers), whole("hidden size", a.Hidden), whole("heads", a.Heads), whole("vocabulary", a.Vocab)
	}
	if len(errs) > 0 {
		return nil, errs[0]
	}
	return m, nil // Params, when given, wins over the shape's count
}

// config turns the answers into the file's form. The error is the first
// answer that does not parse, in words for the panel.
func (a *answers) config() (config.Config, error) {
	var c config.Config
	w := &c.Workload
	w.Framework, w.Task, w.Optimizer = a.Framework, a.Task, a.Optimizer
	w.Precision = a.precision()
	if !a.Task.Training() {
		w.Optimizer = ""
		if !a.fill.filePrec && a.InferPrecision == a.fill.inferPrec && (a.fill.released || a.PrecisionFallback == a.fill.fallback) {
			// None picked: served as released, or at vLLM's --dtype auto
			// (bf16, fp16 where the GPU has none), as without --precision.
			// A fallback answered "no" keeps the precision: written, it
			// asks for itself, as --precision bf16 typed (d54d4d7a).
			w.Precision = ""
		}
	}
	if a.checkpointPrecision() {
		w.Precision = "" // none picked: the config.json's dtype decides (config.WorkloadAnswers.Workload), as --hf-config without --precision
	}
	switch a.Model {
	case modelCustom:
		m, err := a.custom()
		if err != nil {
			return c, err
		}
		w.Custom = m
	case modelHF:
		if strings.TrimSpace(a.HFPath) == "" {
			return c, model.Msg("config.json: give the path of a Hugging Face config.json (file or directory)")
		}
		w.HFConfig = a.hfPath()
	default:
		w.Model = a.Model
	}
	var err error
	if w.MicroBatch, err = parseWhole(a.batchLabel(), a.Batch, 1, 1<<20); err != nil {
		return c, err
	}
	if a.Task.Adapters() && a.Batch == a.fill.batch && !a.fill.fileBatch && a.extra.GradAccum == 0 {
		// LoRA's and QLoRA's untouched default batch is the recipe's, one
		// sample × 16 steps kept on any GPU count (model.Workload.Defaults),
		// as on the command line with no --batch-size: not a batch given.
		w.MicroBatch = 0
	}
	length, err := a.parseLength(a.Length)
	if err != nil {
		return c, err
	}
	if a.fill.vision {
		w.ImageSize = length
	} else {
		w.SeqLen = length
	}
	w.Checkpointing, w.FlashAttention = model.Bool(a.Checkpointing), model.Bool(a.Flash)
	if a.fill.noAttention { // a CNN: the question was not asked
		w.FlashAttention = nil
	}
	n, err := parseJobCount(a.datasetLabel(), a.Dataset, maxDataset)
	if err != nil {
		return c, err
	}
	switch {
	case !a.Task.Training(): // requests to serve, each once
		w.DatasetSamples, w.Epochs = n, 1
	case a.DatasetUnit == unitTokens:
		w.DatasetTokens = n
	default:
		w.DatasetSamples = n
	}
	if a.Task.Training() {
		if w.Epochs, err = parsePositive("epochs", a.Epochs, 1e6); err != nil {
			return c, err
		}
	}
	switch a.Distribution {
	case distSingle:
		w.GPUs, w.Strategy = 1, model.Single
	default:
		auto, n, err := parseGPUs(a.GPUs)
		if err != nil {
			return c, err
		}
		if w.AutoGPUs = auto; auto {
			c.Search.MaxGPUs = n // "up to n"; 0 for auto
		} else {
			w.GPUs = n
		}
		// Auto names none (DDP on several GPUs, FSDP where DDP does not
		// fit, on a fixed count too), as recommend without --strategy; DDP
		// picked is named, and kept on every offer (config.Config.Query).
		w.Strategy = a.Strategy
		c.Search.AllowMultiNode = a.Distribution == distMulti
	}
	x := &a.extra
	w.GradAccum, w.LoRARank, w.TP, w.ContextLen, w.Sequences, w.GenTokens = x.GradAccum, x.LoRARank, x.TP, x.ContextLen, x.Sequences, x.GenTokens
	w.LoRATargets, w.MFU = slices.Clone(x.LoRATargets), x.MFU
	if !a.Task.Adapters() {
		w.LoRARank, w.LoRATargets = 0, nil
	}
	if a.Task.Training() {
		w.ContextLen, w.Sequences, w.GenTokens = 0, 0, 0
	}
	a.estimatorConfig(w)
	if !a.Task.Training() {
		if w.Serve, err = a.Serve.serving(); err != nil {
			return c, err
		}
		a.toFileKeys(w)
		if a.pickedCount() > 0 {
			// A market pick holds serving to its host as it holds a job:
			// w.GPUs on one node (computeServe keeps the instance types
			// of that many GPUs), replicas filling it, as estimate --gpu
			// G --gpus N binds (serve.Serving.Nodes). Not a file key: the
			// file's [selection] names the host.
			w.Serve.Nodes = 1
		}
	}

	c.Export, c.Lang, c.LaunchDataset = x.Export.Clone(), x.Lang, x.LaunchDataset

	s := &c.Search
	s.Providers = append(slices.Clone(a.Providers), x.ExtraProviders...)
	s.Regions = slices.Clone(a.Regions)
	s.GPUs = slices.Clone(a.GPUKeys)
	s.Pricing, s.MaxPriceHour, s.Sort = a.Pricing, x.MaxPriceHour, x.Sort
	s.Countries = slices.Clone(x.Countries)
	s.AllowPrecisionFallback = a.PrecisionFallback
	if s.BudgetMonth, err = parsePositive("monthly budget", a.Budget, 1e10); err != nil {
		return c, err
	}
	if s.BudgetJob, err = parsePositive("job budget", a.BudgetJob, 1e10); err != nil {
		return c, err
	}
	if s.HoursPerMonth, err = parsePositive("hours per month", a.Hours, 744); err != nil {
		return c, err
	}
	if s.DeadlineHours, err = parsePositive("deadline", a.Deadline, 1e7); err != nil {
		return c, err
	}
	if len(s.Providers) == 0 {
		s.Providers = nil
	}
	if len(s.Regions) == 0 {
		s.Regions = nil
	}
	return c, nil
}

func (a *answers) batchLabel() string {
	if a.Task == model.TaskInference {
		return "concurrent sequences"
	}
	return "batch size"
}

// hfPath is the config.json path as read: trimmed, ~ expanded.
func (a *answers) hfPath() string { return expandHome(strings.TrimSpace(a.HFPath)) }

func (a *answers) datasetLabel() string {
	if a.Task == model.TaskInference {
		return "requests"
	}
	return "dataset size"
}

// unitOptions are the dataset units that apply: images for a vision
// model, samples or tokens for the others.
func unitOptions(vision bool) []string {
	if vision {
		return []string{unitImages}
	}
	return []string{unitSamples, unitTokens}
}

// expandHome expands a leading ~/ (or a lone ~) to the home directory, as
// a shell would; other paths, and ~ when there is no home, stay as typed.
func expandHome(path string) string {
	if path != "~" && !strings.HasPrefix(path, "~/") {
		return path
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return path
	}
	return filepath.Join(home, path[1:])
}

func (a *answers) lengthLabel() string {
	switch {
	case a.fill.vision:
		return "image size"
	case a.Task == model.TaskInference:
		return "context length"
	}
	return "sequence length"
}

// key identifies everything the estimate and the offers depend on, so
// that an unchanged key skips the recompute.
func (a *answers) key() string {
	return fmt.Sprintf("%v", *a)
}

// shapeError says what is wrong with a custom shape's heads, in the
// configurator's words (it asks for no head_dim).
func (a *answers) shapeError() error {
	hidden, err1 := parseWhole("hidden size", a.Hidden, 0, 1<<20)
	heads, err2 := parseWhole("heads", a.Heads, 0, 1<<14)
	if err1 == nil && err2 == nil && hidden > 0 && heads > 0 && hidden%heads != 0 {
		return model.Msg("hidden size %d is not a multiple of %d heads: hidden must be a multiple of heads", hidden, heads)
	}
	return nil
}

// customError is the custom model's first problem as a whole (a shape
// whose count is out of range, params with no shape), or nil.
func (a *answers) customError(cat *model.Catalog) error {
	if err := a.shapeError(); err != nil {
		return err
	}
	m, err := a.custom()
	if err != nil {
		return err
	}
	arch := m.Architecture()
	if err := arch.Validate(); err != nil {
		// A message, so the footer and the panel say it in the reader's
		// language; its sentence without the kind ("invalid
		// architecture: "), as errText writes it. A sentence errText
		// rewrites for the configurator (head_dim) stays as rewritten.
		var ke *model.KindError
		if errors.As(err, &ke) && ke.Error() == err.Error() && ke.Msg.String() == errText(err) {
			return model.Msg("custom model: %v", ke.Msg)
		}
		return fmt.Errorf("custom model: %s", errText(err))
	}
	return adapterError(a, cat)
}

// adapterError says when the task trains adapters (LoRA, QLoRA) but the
// model has no transformer layers to put them in, or nil.
func adapterError(a *answers, cat *model.Catalog) error {
	if !a.Task.Adapters() {
		return nil
	}
	m, ok := a.arch(cat)
	if !ok || m.HasShape() {
		return nil
	}
	var name any = m.Name
	if m.Name == "" {
		name = model.Msg("this model")
	}
	// Messages, so the footer can say them in Chinese (errIn); the task
	// and family read as their request values in English.
	task, family := model.Msg(string(a.Task)), model.Msg(string(m.Family))
	if m.Family.Transformer() {
		return model.Msg("%s needs %s's shape (layers, hidden, heads) to place adapters: give it, or go back (esc) and choose full fine-tune", task, name)
	}
	return model.Msg("%s puts adapters in a transformer's layers; %s is a %s: pick a transformer, or go back (esc) and choose full fine-tune",
		task, name, family)
}
