package report

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"

	"charm.land/lipgloss/v2"
	"github.com/dustin/go-humanize"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/advice"
	"github.com/gpuplan/gpuplan/model/show"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/termsafe"
)

// EstimateJSON is the --json output of gpuplan estimate. Bytes are
// integers; hours are null when no GPU or dataset is given. Scripts rely on
// the field names: add fields, never rename them.
type EstimateJSON struct {
	Model           ModelJSON    `json:"model"`
	Workload        WorkloadJSON `json:"workload"`
	Params          int64        `json:"params"`
	TrainableParams int64        `json:"trainable_params"`
	ActiveParams    int64        `json:"active_params"`
	Memory          MemoryJSON   `json:"memory"`
	Compute         ComputeJSON  `json:"compute"`
	GPU             *FitJSON     `json:"gpu"`
	Warnings        []string     `json:"warnings"`
	Assumptions     []string     `json:"assumptions"`
	// Recipe is the training recipe the memory follows (model.Recipe);
	// empty for inference. Time is the job time with its band, null
	// without a GPU and dataset. See estimator.go.
	Recipe string    `json:"recipe,omitempty"`
	Time   *TimeJSON `json:"time"`
}

// ModelJSON names the architecture estimated.
type ModelJSON struct {
	Key    string `json:"key,omitempty"`
	Name   string `json:"name,omitempty"`
	Family string `json:"family"`
	// Head is a classification head in place of the LM head
	// (model.Architecture.Head: "sequence-classification",
	// "token-classification"), Labels its width; omitted for none.
	Head   string `json:"head,omitempty"`
	Labels int    `json:"labels,omitempty"`
}

// modelJSON names a.
func modelJSON(a *model.Architecture) ModelJSON {
	return ModelJSON{Key: a.Key, Name: a.Name, Family: string(a.Family), Head: string(a.Head), Labels: a.Labels}
}

// WorkloadJSON echoes the workload after defaults, in TOML key names.
type WorkloadJSON struct {
	Framework      string   `json:"framework"`
	Torch          string   `json:"torch,omitempty"`     // PyTorch release, for PyTorch jobs
	Trainer        string   `json:"trainer,omitempty"`   // training library, for training jobs
	ZeroGrad       string   `json:"zero_grad,omitempty"` // zero_grad placement, when not after the step
	Outputs        string   `json:"outputs,omitempty"`   // output lifetime, when the loop keeps them
	Task           string   `json:"task"`
	Precision      string   `json:"precision"`
	Optimizer      string   `json:"optimizer,omitempty"`
	BatchSize      int      `json:"batch_size"`
	SeqLen         int      `json:"seq_len,omitempty"`
	ImageSize      int      `json:"image_size,omitempty"`
	GradAccum      int      `json:"grad_accum"`
	Checkpointing  bool     `json:"checkpointing"`
	FlashAttention bool     `json:"flash_attention"`
	LoRARank       int      `json:"lora_rank,omitempty"`
	LoRATargets    []string `json:"lora_targets,omitempty"`
	DatasetSamples float64  `json:"dataset_samples,omitempty"`
	DatasetTokens  float64  `json:"dataset_tokens,omitempty"`
	Epochs         float64  `json:"epochs"`
	GPUs           int      `json:"gpus"`
	Strategy       string   `json:"strategy"`
	TP             int      `json:"tp"`
	ContextLen     int      `json:"context_len,omitempty"`
	Sequences      int      `json:"sequences,omitempty"`
	GenTokens      int      `json:"gen_tokens,omitempty"`
	// GlobalBatchAsked and GlobalBatch are, when the job runs another
	// global batch than the one asked for (model.Workload.GlobalBatchChange),
	// the one asked and the one it runs (batch_size × grad_accum ×
	// data-parallel GPUs); left out when they agree.
	GlobalBatchAsked int `json:"global_batch_asked,omitempty"`
	GlobalBatch      int `json:"global_batch,omitempty"`
	// Switches by their json tags (offload_optimizer: the optimizer
	// states are in host RAM, not in per_gpu_bytes).
	model.Switches
}

// MemoryJSON is the per-GPU breakdown in bytes.
type MemoryJSON struct {
	PerGPUBytes   BreakdownJSON `json:"per_gpu_bytes"`
	OverheadBytes OverheadJSON  `json:"overhead_bytes"`
	// PerGPUBytes.Total is what nvidia-smi shows (CUDA context and NCCL
	// included); these are what torch.cuda.max_memory_allocated() and
	// max_memory_reserved() would report, or with TensorFlow or JAX that
	// framework's allocator's peak in use and pool (the field names are
	// stable; Allocator says whose).
	Allocator           string      `json:"allocator"` // "torch", "tensorflow" or "jax": whose allocator the two figures below are
	TorchAllocatedBytes int64       `json:"torch_allocated_bytes"`
	TorchReservedBytes  int64       `json:"torch_reserved_bytes"`
	PeakPhase           string      `json:"peak_phase"` // the phase PerGPUBytes is taken at
	Phases              []PhaseJSON `json:"phases"`     // memory at each phase of the step
	Band                *BandJSON   `json:"band"`       // 90% range of PerGPUBytes.Total, bytes
	// TorchAllocatedBand and TorchReservedBand are the 90% ranges of the
	// two torch figures, bytes, from the calibration cases that read them.
	TorchAllocatedBand *BandJSON `json:"torch_allocated_band,omitempty"`
	TorchReservedBand  *BandJSON `json:"torch_reserved_band,omitempty"`
}

// BreakdownJSON is Memory in integer bytes (NewBreakdownJSON).
type BreakdownJSON struct {
	Weights         int64 `json:"weights"`
	Gradients       int64 `json:"gradients"`
	OptimizerStates int64 `json:"optimizer_states"`
	Activations     int64 `json:"activations"`
	KVCache         int64 `json:"kv_cache"`
	Overhead        int64 `json:"overhead"`
	Total           int64 `json:"total"`
	Gathered        int64 `json:"gathered"`    // ZeRO-3/FSDP unsharded parameters beyond the shard
	CastCache       int64 `json:"cast_cache"`  // torch.autocast's 16-bit weight copies
	Buffers         int64 `json:"buffers"`     // DDP/DeepSpeed/FSDP communication buckets
	Temporaries     int64 `json:"temporaries"` // optimizer-step and dequantization temporaries
}

// OverheadJSON is Overhead in integer bytes.
type OverheadJSON struct {
	CUDAContext   int64 `json:"cuda_context"`
	Workspace     int64 `json:"workspace"`
	Communication int64 `json:"communication"`
	Fragmentation int64 `json:"fragmentation"`
}

// ComputeJSON is FLOPs and, when known, time.
type ComputeJSON struct {
	FLOPsPerSample   float64  `json:"flops_per_sample"`
	FLOPsPerStep     float64  `json:"flops_per_step"`
	SamplesPerStep   float64  `json:"samples_per_step"`
	Steps            float64  `json:"steps"`
	TotalFLOPs       float64  `json:"total_flops"`
	MFU              float64  `json:"mfu"`
	PeakTFLOPS       *float64 `json:"peak_tflops"`
	SamplesPerSecond *float64 `json:"samples_per_second"`
	Hours            *float64 `json:"hours"`
	GPUHours         *float64 `json:"gpu_hours"`
	// Network is how a training job on more GPUs than one node holds was
	// timed between nodes (model.Estimate.NetworkMessage); absent on one
	// node, without a GPU and for inference.
	Network *NetworkJSON `json:"network,omitempty"`
}

// NetworkJSON is the node network a multi-node estimate is timed over.
type NetworkJSON struct {
	Nodes       int     `json:"nodes"`
	GPUsPerNode int     `json:"gpus_per_node"`
	Gbps        float64 `json:"gbps"`         // per node; 0 when none was costed (source "none")
	PerGPUGBps  float64 `json:"per_gpu_gbps"` // 10⁹ B/s per GPU, one direction: gbps / 8 / gpus_per_node
	// Source is where gbps comes from: "given" (--network-gbps, the
	// file's network_gbps), "catalog" (the median of catalog_types
	// full-node instance types of the GPU), "assumed" (none has a figure:
	// 10 Gbps, as recommend assumes), "instance" (the phase's instance
	// type's own), "no-fabric" (the phase's type names neither a figure
	// nor a GPU fabric: 10 Gbps, model.NoFabricNetwork) or "none" (not
	// costed).
	Source       string `json:"source"`
	CatalogTypes int    `json:"catalog_types,omitempty"`
}

// UsableOfIn says what a GPU's usable memory is taken from: the vendor's
// GiB less FitMargin, or the memory the driver shows (nvidia-smi, below
// the vendor's figure on some cards: model.GPU.MemoryBytes) less it.
func UsableOfIn(p *i18n.Printer, g *model.GPU) string {
	if v := g.MemoryBytes(); v < g.MemoryGiB*model.GiB {
		return p.Sprintf("%g GiB, %s visible to the driver, less the %.0f%% margin", g.MemoryGiB, GiB(v), model.FitMargin*100)
	}
	return p.Sprintf("%g GiB less the %.0f%% margin", g.MemoryGiB, model.FitMargin*100)
}

// FitJSON is how the estimate fits the GPU given with --gpu.
type FitJSON struct {
	Key           string  `json:"key"`
	Name          string  `json:"name"`
	MemoryGiB     float64 `json:"memory_gib"`
	UsableBytes   int64   `json:"usable_bytes"`
	VisibleBytes  int64   `json:"visible_bytes"` // the driver's memory (nvidia-smi's total, model.OOMBytes): where CUDA runs out
	Fits          bool    `json:"fits"`
	MaxMicroBatch int     `json:"max_micro_batch"` // fits across its 90% band, as verdict "fits" (advice.MaxMicroBatch)
	// MaxBorderlineBatch fits at the estimate alone, borderline past
	// MaxMicroBatch (advice.MaxBorderlineBatch).
	MaxBorderlineBatch int          `json:"max_borderline_micro_batch"`
	Advice             []AdviceJSON `json:"advice"`
	// Verdict weighs memory.band against usable_bytes: "fits",
	// "borderline" or "does not fit" (model.FitVerdict); "cannot run"
	// when the GPU cannot run the precision at all, and Refused says why.
	Verdict string `json:"verdict"`
	// OOMChance is, when borderline (or when it does not fit but the
	// band's bottom is within visible_bytes), the probability (0.05–0.95,
	// to the nearest 0.05) that the job runs out of memory: needs more
	// than visible_bytes, all the driver exposes (advice.Fit.OOMChance),
	// not usable_bytes, which keeps model.FitMargin free; left out
	// otherwise.
	OOMChance *float64 `json:"oom_chance,omitempty"`
	Refused   string   `json:"refused,omitempty"`
	// Tips are the single changes that save the most on this GPU type,
	// largest saving first (advice.Tips), fitting or not.
	Tips []TipJSON `json:"tips"`
}

// TipJSON is one tip: per-GPU memory and job GPU-hours after the change,
// and what it saves in % (cost: negative when dearer; null without a
// job time).
type TipJSON struct {
	Change          string   `json:"change"`
	PerGPUBytes     int64    `json:"per_gpu_bytes"`
	MemorySavedPct  float64  `json:"memory_saved_pct"`
	GPUHours        *float64 `json:"gpu_hours"`
	CostSavedPct    *float64 `json:"cost_saved_pct"`
	FitsAfterChange bool     `json:"fits"`
}

// AdviceJSON is one fit-advice change.
type AdviceJSON struct {
	Change      string `json:"change"`
	PerGPUBytes int64  `json:"per_gpu_bytes"`
	Fits        bool   `json:"fits"`
	// Verdict is the change's fit verdict with its 90% band (fits,
	// borderline, does not fit), as estimate gives it with the change made.
	Verdict string `json:"verdict"`
}

func i64(v float64) int64 { return int64(math.Round(v)) }

func ptr(v float64) *float64 { return &v }

// NewEstimateJSON builds the JSON view of e; f is nil without --gpu.
func NewEstimateJSON(e *model.Estimate, f *advice.Fit) EstimateJSON {
	w := &e.Workload
	m := e.Memory
	p := parts(m)
	out := EstimateJSON{
		Model:           modelJSON(&w.Model),
		Workload:        NewWorkloadJSON(w),
		Params:          i64(e.Params),
		TrainableParams: i64(e.TrainableParams),
		ActiveParams:    i64(e.ActiveParams),
		Memory: MemoryJSON{
			PerGPUBytes: BreakdownJSON{
				Weights: i64(p[0]), Gradients: i64(p[1]), OptimizerStates: i64(p[2]),
				Activations: i64(p[3]), KVCache: i64(p[4]), Overhead: i64(p[5]),
			},
			OverheadBytes: OverheadJSON{
				CUDAContext: i64(e.Overhead.CUDAContext), Workspace: i64(e.Overhead.Workspace),
				Communication: i64(e.Overhead.Communication), Fragmentation: i64(e.Overhead.Fragmentation),
			},
		},
		Compute: ComputeJSON{
			FLOPsPerSample: e.FLOPsPerSample, FLOPsPerStep: e.FLOPsPerStep, SamplesPerStep: e.SamplesPerStep,
			Steps: e.Steps, TotalFLOPs: e.TotalFLOPs, MFU: e.MFU,
		},
		Warnings:    append([]string{}, w.Warnings()...),
		Assumptions: EstimateAssumptions(nil, e),
	}
	b := &out.Memory.PerGPUBytes
	// The total is the sum of the rounded parts, so scripts can check it.
	b.Total = b.Weights + b.Gradients + b.OptimizerStates + b.Activations + b.KVCache + b.Overhead
	if e.GPU != nil {
		out.Compute.PeakTFLOPS = ptr(e.PeakTFLOPS)
		if e.SamplesPerSecond > 0 {
			out.Compute.SamplesPerSecond = ptr(e.SamplesPerSecond)
		}
	}
	if e.HasTime {
		out.Compute.Hours, out.Compute.GPUHours = ptr(e.Hours), ptr(e.GPUHours)
	}
	if _, ok := e.NetworkMessage(); ok {
		h := &e.Host
		n := &NetworkJSON{Nodes: (w.GPUs + h.GPUsPerNode - 1) / h.GPUsPerNode, GPUsPerNode: h.GPUsPerNode, Source: "none"}
		if h.InterGBps > 0 {
			n.Gbps, n.PerGPUGBps, n.Source = w.NetworkGbps, h.InterGBps, string(cmp.Or(w.NetworkFrom, model.NetworkGiven))
			if w.NetworkFrom == model.NetworkCatalog {
				n.CatalogTypes = w.NetworkTypes
			}
		}
		out.Compute.Network = n
	}
	if f != nil {
		fj := &FitJSON{Key: f.GPU.Key, Name: f.GPU.Name, MemoryGiB: f.GPU.MemoryGiB, UsableBytes: i64(f.UsableBytes), VisibleBytes: i64(f.OOMBytes),
			Fits: f.Fits, MaxMicroBatch: f.MaxMicroBatch, MaxBorderlineBatch: f.MaxBorderlineBatch, Advice: []AdviceJSON{}}
		for _, a := range f.Advice {
			fj.Advice = append(fj.Advice, AdviceJSON{Change: a.Change, PerGPUBytes: i64(a.Total), Fits: a.Fits, Verdict: string(a.Verdict)})
		}
		fj.Tips = []TipJSON{}
		for _, t := range f.Tips {
			tj := TipJSON{Change: t.Change, PerGPUBytes: i64(t.Bytes), MemorySavedPct: Round(t.MemorySavedPct(), 1), FitsAfterChange: t.Fits}
			if t.BaseGPUHours > 0 {
				tj.GPUHours, tj.CostSavedPct = ptr(RoundHours(t.GPUHours)), ptr(Round(t.CostSavedPct(), 1))
			}
			fj.Tips = append(fj.Tips, tj)
		}
		out.GPU = fj
	}
	addEstimatorV2(&out, e, f)
	return out
}

// torchOf returns the PyTorch release of a PyTorch job, "" otherwise.
func torchOf(w *model.Workload) string {
	if w.Framework != model.PyTorch {
		return ""
	}
	return w.Torch.String()
}

// trainerOf returns the training library of a training job, "" otherwise.
func trainerOf(w *model.Workload) string {
	if !w.Task.Training() {
		return ""
	}
	return string(w.Trainer)
}

// zeroGradOf returns the zero_grad placement of a training job when it is
// not the default, "" otherwise.
func zeroGradOf(w *model.Workload) string {
	if !w.Task.Training() || w.ZeroGrad == "" || w.ZeroGrad == model.ZeroGradAfterStep {
		return ""
	}
	return string(w.ZeroGrad)
}

// outputsOf returns the output lifetime of a training job when it is not
// the default, "" otherwise.
func outputsOf(w *model.Workload) string {
	if !w.Task.Training() || w.Outputs == "" || w.Outputs == model.OutputsDropped {
		return ""
	}
	return string(w.Outputs)
}

// NewWorkloadJSON echoes w in TOML key names.
func NewWorkloadJSON(w *model.Workload) WorkloadJSON {
	j := newWorkloadJSON(w)
	if _, ok := w.GlobalBatchChange(); ok {
		j.GlobalBatchAsked, j.GlobalBatch = w.AskedGlobalBatch, w.GlobalBatch()
	}
	return j
}

func newWorkloadJSON(w *model.Workload) WorkloadJSON {
	return WorkloadJSON{
		Framework: string(w.Framework), Torch: torchOf(w), Trainer: trainerOf(w), ZeroGrad: zeroGradOf(w), Outputs: outputsOf(w), Task: string(w.Task), Precision: string(w.Precision),
		Optimizer: string(w.Optimizer), BatchSize: w.MicroBatch, SeqLen: w.SeqLen, ImageSize: w.ImageSize,
		GradAccum: w.GradAccum, Checkpointing: w.Ckpt(), FlashAttention: w.Flash(), LoRARank: w.LoRARank,
		LoRATargets: w.LoRATargets, DatasetSamples: w.DatasetSamples, DatasetTokens: w.DatasetTokens, Epochs: w.Epochs,
		GPUs: w.GPUs, Strategy: string(w.Strategy), TP: w.TP, ContextLen: w.ContextLen, Sequences: w.Sequences,
		GenTokens: w.GenTokens, Switches: w.Switches,
	}
}

// GiB formats bytes as GiB with two decimals: "12.55 GiB".
func GiB(b float64) string { return fmt.Sprintf("%.2f GiB", b/model.GiB) }

// Hours formats a duration in hours readably: "45 min", "12.3 h", "4.2 days".
func Hours(h float64) string { return HoursIn(nil, h) }

// HoursIn is Hours in p's language ("4.2 天", "12.3 小时"): hoursMsg's
// units, one switch for the tables and the answers' sentences.
func HoursIn(p *i18n.Printer, h float64) string { return p.Message(hoursMsg(h)) }

// USD formats dollars: "$1.23", "$14,600", "$1.2M"; an amount above 0
// that cents would print as "$0.00" keeps two significant digits
// ("$0.0012", "$0.0000010"), so no price shows as free.
func USD(v float64) string {
	switch {
	case math.IsNaN(v) || v < 0:
		return "—"
	case v > 0 && v < 0.005:
		return "$" + show.SmallUSD(v)
	case v < 100:
		// Rounded as the JSON's figures are (Round): 1.861 × 5 is
		// 9.30499… in binary, "%.2f" alone printed $9.30 beside the
		// JSON's 9.31 (walk37).
		return fmt.Sprintf("$%.2f", Round(v, 2))
	case v < 1e6:
		return "$" + humanize.Comma(int64(math.Round(v)))
	case v < 1e15:
		return "$" + model.FormatCount(v)
	}
	return fmt.Sprintf("$%.2g", v)
}

// USDHour formats a price per hour: USD's figures, but to the cent from
// $100 too ("$100.13", "$1,113.59"), as the near misses' column
// (model.USDCents) and the JSON's price_per_hour_usd say it; USD's whole
// dollars from $100 are for totals, a month or a job (walk: the
// recommend table's "$101/h" where the JSON said 100.13, a near miss
// beside it "$120.00/h").
func USDHour(v float64) string {
	if v >= 100 && v < 1e6 {
		return model.USDCents(v)
	}
	return USD(v)
}

// USDPerHour formats an hourly price by one rule for a whole column
// (show.USDPerHour): "$1.01", "$1,113.59", "$0.3785", "$0.0000010"; "—"
// when unknown (0 or less).
func USDPerHour(v float64) string { return show.USDPerHour(v) }

// segmentNames label the bar's segments, in Memory order.
var segmentNames = [6]string{"weights", "gradients", "optimizer states", "activations", "KV cache", "overhead"}

// parts folds the estimator's finer lines into the six segments until
// they get their own: gathered parameters and the autocast cast cache are
// weight copies, communication buckets gradient copies, step temporaries
// the optimizer's.
func parts(m model.Memory) [6]float64 {
	p := m.Parts() // the grouping the exported [estimate] writes too
	return [6]float64{p.Weights, p.Gradients, p.OptimizerStates, p.Activations, p.KVCache, p.Overhead}
}

// VRAMBar draws the per-GPU memory as a stacked bar width cells wide,
// scaled to max(total, capacity), with a ┃ at capacity (0 for none).
func VRAMBar(m model.Memory, capacity float64, width int, st *Styles) string {
	if width < 4 {
		return ""
	}
	scale := math.Max(m.Total(), capacity)
	if scale <= 0 {
		return strings.Repeat(" ", width)
	}
	cells := make([]int, 0, width) // segment index per cell, -1 empty
	acc := 0.0
	for i, v := range parts(m) {
		acc += v
		end := int(math.Round(acc / scale * float64(width)))
		for len(cells) < end && len(cells) < width {
			cells = append(cells, i)
		}
	}
	for len(cells) < width {
		cells = append(cells, -1)
	}
	mark := -1
	if capacity > 0 {
		mark = min(int(math.Round(capacity/scale*float64(width))), width-1)
	}
	var b strings.Builder
	for i, seg := range cells {
		switch {
		case i == mark:
			b.WriteString(st.Bad.Render("┃"))
		case seg < 0:
			b.WriteString(st.Muted.Render("─"))
		default:
			b.WriteString(st.Segments[seg].Render(segmentGlyphs[seg]))
		}
	}
	return b.String()
}

// PadRight pads s with spaces to n terminal cells, counting wide (CJK)
// runes as two, as fmt's %-Ns would for ASCII; longer s is left whole.
func PadRight(s string, n int) string {
	if w := lipgloss.Width(s); w < n {
		return s + strings.Repeat(" ", n-w)
	}
	return s
}

// WriteEstimate prints the readable report of gpuplan estimate: the
// workload, the per-GPU VRAM breakdown with its bar, the fit on the GPU
// given (with advice), compute and time, warnings and assumptions.
func WriteEstimate(out io.Writer, r *Renderer, e *model.Estimate, f *advice.Fit, width int) error {
	st := NewStyles(r)
	p := r.Lang
	w := &e.Workload
	var b strings.Builder
	// Every format is an English catalogue key (ui/i18n).
	line := func(format string, args ...any) { p.Fprintf(&b, format, args...); b.WriteByte('\n') }

	name := ModelName(p, w, e.Params)
	line("%s", st.Title.Render(name)+st.Muted.Render(" · "+DescribeWorkloadOn(p, w, e.GPU)))
	line("%s", st.Muted.Render(DescribeShapeOn(p, w, e.GPU)))
	if rl := RecipeLineIn(p, e); rl != "" {
		line("%s", st.Muted.Render(rl))
	}
	line("")
	line("%s  %s per GPU %s", st.Heading.Render(p.T("VRAM")), st.Value.Render(GiB(e.Memory.Total())), st.Muted.Render(BandNoteIn(p, e)))
	capacity := 0.0
	if f != nil {
		capacity = f.UsableBytes
	}
	barWidth := 60
	if width > 0 {
		barWidth = max(min(width-2, 60), 10)
	}
	line("  %s", VRAMBar(e.Memory, capacity, barWidth, &st))
	for _, l := range DetailedBreakdownLinesIn(p, e.Memory, &st) {
		line("  %s", l)
	}
	o := e.Overhead
	line("  %s", st.Muted.Render(p.Sprintf("  overhead = CUDA context %.2f + workspaces %.2f + NCCL %.2f + fragmentation %.2f GiB",
		o.CUDAContext/model.GiB, o.Workspace/model.GiB, o.Communication/model.GiB, o.Fragmentation/model.GiB)))
	line("  %s", st.Muted.Render(p.Sprintf("  the total is what nvidia-smi shows; %s", TotalsLineIn(p, e))))
	if f != nil {
		line("")
		g := f.GPU
		head := p.Sprintf("%s (%s usable: %s)", g.Name, GiB(f.UsableBytes), UsableOfIn(p, g))
		if e.PagedOptimizer > 0 {
			line("%s", st.Muted.Render(p.Sprintf("paged optimizer: fit counts the %s that must stay on the GPU; its %s of states page out to host RAM when the GPU is full (slower steps, not out of memory)",
				GiB(e.ResidentNeed()), GiB(e.PagedOptimizer))))
		}
		if f.Fits {
			line("%s %s", VerdictWordIn(p, f.Verdict, &st), head)
			what := "largest micro-batch that fits"
			if w.Task == model.TaskInference {
				what = "most concurrent sequences that fit"
			}
			// "Fits" is the ✓ verdict's: its 90% band within the usable
			// memory (advice.MaxMicroBatch); a larger batch that fits only
			// at the estimate is named borderline (a new user's walk: a
			// borderline 70B was told "largest micro-batch that fits: 2",
			// whose band reached past what the driver exposes).
			headroom := GiB(f.UsableBytes - e.ResidentNeed())
			switch {
			case f.MaxBorderlineBatch <= f.MaxMicroBatch:
				line("  headroom %s; %s: %d", headroom, p.T(what), f.MaxMicroBatch)
			case f.MaxMicroBatch == 0:
				line("  headroom %s; %s: none across its %.0f%% range, borderline up to %d", headroom, p.T(what), BandConfidence*100, f.MaxBorderlineBatch)
			default:
				line("  headroom %s; %s: %d, borderline up to %d", headroom, p.T(what), f.MaxMicroBatch, f.MaxBorderlineBatch)
			}
			if f.Verdict == model.VerdictBorderline {
				line("  %s", st.Warn.Render(BorderlineNoteIn(p, e, f)))
			}
			if len(f.Tips) > 0 {
				line("  %s", st.Heading.Render(p.T("what saves the most (each change alone):")))
				for _, t := range f.Tips {
					line("  %s %s", st.Good.Render("↓"), TipLineIn(p, &t))
				}
			}
		} else if !f.Refused.IsZero() {
			line("%s %s: %s", VerdictWordIn(p, f.Verdict, &st), head, p.Message(f.Refused))
			if h := f.RefusedHint; !h.IsZero() {
				line("  %s", st.Muted.Render(p.Message(h)))
			}
		} else {
			line("%s %s: %s", VerdictWordIn(p, f.Verdict, &st), head, NeedsLineIn(p, e))
			if f.OOMChance > 0 {
				line("  %s", st.Warn.Render(NoFitChanceNoteIn(p, f)))
			}
			if len(f.Advice) > 0 {
				line("  %s", st.Heading.Render(p.T("fit advice (each line on its own):")))
				pure := false
				for _, a := range f.Advice {
					line("  %s %s → %s", AdviceMark(&st, &a), PadRight(AdviceChange(p, a), 62), GiB(a.Total))
					pure = pure || PureBF16(&e.Workload, &a)
				}
				if pure { // what the memory it saves can cost (new-user walk: listed first, no word of it)
					line("  %s", st.Muted.Render(PureBF16CaveatIn(p)))
				}
			}
		}
	}
	line("")
	line("%s", st.Heading.Render(p.T("Compute")))
	if active := model.FormatCount(e.ActiveParams); e.ActiveParams > 0 && active != model.FormatCount(e.Params) {
		line("  parameters %s (trainable %s, active per token %s)", model.FormatCount(e.Params), model.FormatCount(e.TrainableParams), active)
	} else {
		// A dense model runs all its parameters on every input: "active
		// per token" said nothing there, and was wrong for a CNN, which
		// has no tokens (new-user walk: YOLOv8m's "active per token
		// 25.9M"). The MoE line keeps it (--json keeps active_params).
		line("  parameters %s (trainable %s)", model.FormatCount(e.Params), model.FormatCount(e.TrainableParams))
	}
	line("  %.3g FLOPs per sample, %.3g per step of %s samples", e.FLOPsPerSample, e.FLOPsPerStep, model.FormatCount(e.SamplesPerStep))
	if e.TotalFLOPs > 0 {
		key := "  %.3g FLOPs for %s samples (%s steps)"
		if model.FormatCount(e.Steps) == "1" {
			key = "  %.3g FLOPs for %s samples (%s step)" // --dataset-tokens 1K: "(1 steps)"
		}
		line(key, e.TotalFLOPs, model.FormatCount(e.Samples), model.FormatCount(e.Steps))
	}
	switch {
	case e.HasTime:
		line("  %s wall clock on %d × %s, %s GPU-hours (MFU %.2f of %.4g TFLOPS %s)", st.Value.Render(HoursIn(p, e.Hours)), w.GPUs, e.GPU.Name,
			model.FormatCount(e.GPUHours), e.MFU, e.PeakTFLOPS, e.Precision)
		line("  %s", st.Muted.Render(TimeBandNoteIn(p, e)))
	case e.NoBandwidth:
		line("  %s", st.Muted.Render(p.Sprintf("no time: the catalog has no memory bandwidth for %s, which this workload's time needs", e.GPU.Name)))
	case e.GPU != nil && e.SamplesPerSecond > 0:
		line("  %.4g samples/s on %d × %s (give --dataset-samples or --dataset-tokens for job time)", e.SamplesPerSecond, w.GPUs, e.GPU.Name)
	case e.GPU == nil:
		line("  %s", st.Muted.Render(p.T("give --gpu NAME for time (list: gpuplan catalog gpus)")))
	}
	if ws := WorkloadWarnings(p, w); len(ws) > 0 {
		line("")
		for _, s := range ws {
			line("%s %s", st.Warn.Render("!"), s)
		}
	}
	line("")
	line("%s", st.Heading.Render(p.T("Assumptions")))
	for _, a := range EstimateAssumptions(p, e) {
		line("  - %s", a)
	}
	_, err := io.WriteString(r.Writer(out), b.String())
	return err
}

// TipLineIn is one tip in words with its figures: "use 8-bit AdamW
// (bitsandbytes): 12.27 → 9.10 GiB (−26%), job cost −0%".
// p is the language (nil: English).
func TipLineIn(p *i18n.Printer, t *advice.Tip) string {
	change := t.Change
	if !t.Msg.IsZero() {
		change = p.Message(t.Msg)
	}
	s := fmt.Sprintf("%s: %s → %s (%s)", change, GiB(t.BaseBytes), GiB(t.Bytes), SignedPct(-t.MemorySavedPct()))
	if t.BaseGPUHours > 0 {
		s += p.Sprintf(", job cost %s (%s GPU-hours)", SignedPct(-t.CostSavedPct()), model.FormatCount(t.GPUHours))
	}
	return s
}

// SignedPct is a change in percent with its sign: "−26%", "+33%".
func SignedPct(v float64) string {
	r := math.Round(v)
	switch {
	case r < 0:
		return fmt.Sprintf("−%.0f%%", -r)
	case r > 0:
		return fmt.Sprintf("+%.0f%%", r)
	}
	return "±0%"
}

// DescribeWorkloadIn is the one-line summary: task, precision, optimizer, GPUs.
// p is the language (nil: English).
func DescribeWorkloadIn(p *i18n.Printer, w *model.Workload) string {
	return DescribeWorkloadOn(p, w, nil)
}

// DescribeWorkloadOn is DescribeWorkloadIn for w estimated on g: the
// precision is the one g runs (model.GPU.RunPrecision: amp-bf16 runs as
// amp-fp16 on a V100, as the exported script's --fp16 says), with the one
// asked beside it, so the header does not name a format the GPU lacks (a
// new user's walk: "amp-bf16" above an estimate timed at amp-fp16). A
// nil g is DescribeWorkloadIn's.
func DescribeWorkloadOn(p *i18n.Printer, w *model.Workload, g *model.GPU) string {
	prec := string(w.Precision)
	if g != nil && w.Precision != "" {
		if run, ok := g.RunPrecision(w.Precision, w.Task.Training()); ok && run != w.Precision {
			prec = p.Sprintf("%s (%s asked)", string(run), string(w.Precision))
		}
	}
	parts := []string{TaskName(p, w.Task), prec}
	if w.Task.Training() {
		parts = append(parts, string(w.Optimizer))
	}
	var gpus string
	switch {
	case w.GPUs > 1 && p.Chinese():
		gpus = p.Sprintf("%d GPUs %s", w.GPUs, StrategyName(p, w.Strategy))
	case w.GPUs > 1:
		gpus = fmt.Sprintf("%d GPUs %s", w.GPUs, w.Strategy)
	case w.Task.Training() && w.Strategy != "" && w.Strategy != model.Single:
		// A strategy named on one GPU is the user's: recommend keeps it on
		// every offer, ZeRO offload shards to the host (a new user's walk:
		// recommend's header dropped zero3).
		gpus = p.Sprintf("%d GPU %s", w.GPUs, StrategyName(p, w.Strategy))
	default:
		gpus = p.Sprintf("%d GPU", w.GPUs)
	}
	if w.TP > 1 {
		gpus += fmt.Sprintf(" tp=%d", w.TP)
	}
	fw := string(w.Framework)
	if w.Framework == model.PyTorch && !w.Torch.IsZero() && w.Torch != model.DefaultTorch {
		fw += " " + w.Torch.String() // an older stack changes memory: say so
	}
	if w.Trainer == model.TrainerLitGPT && w.Task.Training() {
		fw += " · litgpt"
	}
	if zg := zeroGradOf(w); zg != "" {
		fw += " · zero_grad " + zg // the last step's gradients live through the forward
	}
	if o := outputsOf(w); o != "" {
		fw += " · outputs " + o // the last step's outputs live through the forward
	}
	parts = append(parts, gpus, fw)
	return strings.Join(parts, " · ")
}

// TaskName is the task as the reports name it: its TOML value in
// English ("lora"), the field's term in Chinese.
func TaskName(p *i18n.Printer, t model.Task) string {
	if !p.Chinese() {
		return string(t)
	}
	return p.T("task " + string(t))
}

// StrategyName is a parallelism strategy in p's language: the TOML value
// ("ddp", "zero3"), except "single", which is a word.
func StrategyName(p *i18n.Printer, s model.Strategy) string {
	if s == model.Single {
		return p.T("single")
	}
	return string(s)
}

// PricingName is a pricing model in p's language ("on-demand" → 按需实例).
func PricingName(p *i18n.Printer, v model.Pricing) string { return p.T(string(v)) }

// ModelName is the architecture's name, or "custom 7B decoder" for one
// given only by its shape.
func ModelName(p *i18n.Printer, w *model.Workload, params float64) string {
	if w.Model.Name != "" {
		return ShownName(w.Model.Name)
	}
	return p.Sprintf("custom %s %s", model.FormatCount(params), p.T(string(w.Model.Family)))
}

// ShownName is a name from a file, a path or a server as a terminal
// line shows it: through the one sanitiser (termsafe.String: controls,
// format and bidi characters such as U+202E and U+200B escaped, so no
// name reorders or hides the line), and a name that would still show
// nothing (spaces or combining marks alone) quoted with every rune
// beyond ASCII escaped, so a header never starts " · qlora" (attack r29b
// F2: a config named ESC[31m was stripped to nothing).
func ShownName(s string) string {
	s = termsafe.String(s)
	if !strings.ContainsFunc(s, func(r rune) bool {
		return unicode.IsGraphic(r) && !unicode.In(r, unicode.Mn, unicode.Me, unicode.Zs)
	}) {
		return strconv.QuoteToASCII(s)
	}
	return s
}

// DescribeShapeIn is the second summary line: batch, length, memory savers.
// p is the language (nil: English).
func DescribeShapeIn(p *i18n.Printer, w *model.Workload) string {
	return DescribeShapeOn(p, w, nil)
}

// DescribeShapeOn is DescribeShapeIn for w estimated on g: fused
// attention on a GPU FlashAttention-2 does not run on (compute capability
// below 8.0: model.GPU.FlashAttention), or in fp32, is PyTorch's
// memory-efficient SDPA kernel (model/blocksaves.go), which the estimate
// counts and the header now names. A nil g is DescribeShapeIn's.
func DescribeShapeOn(p *i18n.Printer, w *model.Workload, g *model.GPU) string {
	var s []string
	switch {
	case w.Task == model.TaskInference && w.Model.Family.Generative() && w.Model.Head == "":
		s = append(s, p.Sprintf("%s × %d-token context, %d generated", Count(p, w.Sequences, "sequence"), w.ContextLen, w.GenTokens))
	case w.Task == model.TaskInference && !w.Model.Family.Vision():
		s = append(s, p.Sprintf("%s × %d tokens", Count(p, w.Sequences, "sequence"), w.ContextLen))
	case w.Model.Family.Vision():
		s = append(s, p.Sprintf("batch %d × %d px", w.MicroBatch, w.ImageSize))
	default:
		s = append(s, p.Sprintf("batch %d × %d tokens", w.MicroBatch, w.SeqLen))
	}
	if w.GradAccum > 1 {
		s = append(s, p.Sprintf("grad accum %d", w.GradAccum))
	}
	if w.Model.HasShape() {
		switch {
		case w.Flash() && g != nil && (!g.FlashAttention() || w.Precision == model.FP32):
			s = append(s, p.T("memory-efficient attention"))
		case w.Flash():
			s = append(s, p.T("flash attention"))
		default:
			s = append(s, p.T("eager attention"))
		}
	}
	if w.Ckpt() {
		s = append(s, p.T("activation checkpointing"))
	}
	if w.Task.Adapters() {
		s = append(s, p.Sprintf("LoRA r=%d on %s", w.LoRARank, strings.Join(w.LoRATargets, ",")))
	}
	return strings.Join(s, " · ")
}

// Count is model.Count in p's language: "1 sequence", "4 sequences",
// "100,207 offers" (model.Grouped, from 10,000 up); Chinese has no plural, so its
// catalogue keys "%d sequence" alone, and the number is grouped there too.
// The configurator and the CLI both print counts with it.
func Count(p *i18n.Printer, n int, noun string) string {
	if !p.Chinese() {
		return model.Count(n, noun)
	}
	return fmt.Sprintf(strings.Replace(p.Format("%d "+noun), "%d", "%s", 1), model.Grouped(n))
}

// AdviceMark is a fit-advice change's verdict, styled: "✓" when it fits
// across its 90% band, "~" when it fits at the estimate only (its band
// reaches past the capacity: borderline, as estimate says with the change
// made, advice.Advice.Verdict), "✗" when it does not fit. estimate's fit
// advice and the configurator's panel both mark changes with it.
func AdviceMark(st *Styles, a *advice.Advice) string {
	switch {
	case a.Fits && a.Verdict == model.VerdictBorderline:
		return st.Warn.Render("~")
	case a.Fits:
		return st.Good.Render("✓")
	}
	return st.Bad.Render("✗")
}

// AdviceChange is one fit-advice change in p's language (advice.Advice
// keeps the English sentence in Change and its message in Msg).
func AdviceChange(p *i18n.Printer, a advice.Advice) string {
	if a.Msg.Key == "" {
		return p.T(a.Change)
	}
	return p.Message(a.Msg)
}

// WorkloadWarnings are w's warnings in p's language.
func WorkloadWarnings(p *i18n.Printer, w *model.Workload) []string {
	return p.Messages(w.WarningMessages())
}

// EstimateAssumptions are e's assumptions in p's language, then what the
// default loss costs when it is a large share (LossAssumptionIn).
func EstimateAssumptions(p *i18n.Printer, e *model.Estimate) []string {
	out := p.Messages(e.AssumptionMessages())
	if s := LossAssumptionIn(p, e); s != "" {
		out = append(out, s)
	}
	return out
}

// BreakdownLinesIn is BreakdownLines with the part names in p's language
// (the configurator's panel); names are padded by display width.
func BreakdownLinesIn(p *i18n.Printer, m model.Memory, st *Styles) []string {
	var lines []string
	for i, v := range parts(m) {
		if v <= 0 && i != 0 {
			continue
		}
		lines = append(lines, fmt.Sprintf("%s %s %11s", st.Segments[i].Render(segmentGlyphs[i]), PadRight(p.T(segmentNames[i]), 17), GiB(v)))
	}
	return lines
}
