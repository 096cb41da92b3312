package probe

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/show"
)

// Result is the probe script's JSON line: what ran, on what, and what it
// measured. Parse returns it checked; Line is the line as read, the quote a
// kept case carries.
type Result struct {
	Probe    int               `json:"gpuplan_probe"` // Schema
	Kind     string            `json:"kind"`          // "train" or "serve"
	Status   string            `json:"status"`        // "ok", or "oom" when the GPU ran out of memory
	Smoke    bool              `json:"smoke"`         // --cpu-smoke: a tiny model on the CPU, not the plan
	Date     string            `json:"date"`          // UTC, RFC 3339
	Versions map[string]string `json:"versions"`      // python, torch, cuda, driver, transformers, vllm…
	Device   *Device           `json:"device"`        // nil on the CPU
	Plan     json.RawMessage   `json:"plan"`          // Settings (train) or ServeSettings (serve)
	Arch     *Arch             `json:"arch,omitempty"`
	Ran      Ran               `json:"ran"`
	Measured Measured          `json:"measured"`

	Line     []byte         `json:"-"` // the JSON line as read
	Settings *Settings      `json:"-"` // Plan, for kind train
	Serve    *ServeSettings `json:"-"` // Plan, for kind serve
}

// Device is the GPU the probe ran on, as torch.cuda reports it.
type Device struct {
	Name              string  `json:"name"`
	MemoryBytes       float64 `json:"memory_bytes"`
	ComputeCapability string  `json:"compute_capability"`
	Count             int     `json:"count"`
}

// Ran is what the script did, where it may differ from the plan's keys:
// the builder, the kernels and dtypes it applied, the world size.
type Ran struct {
	Builder         string   `json:"builder"` // transformers, torchvision, vllm
	Smoke           bool     `json:"smoke"`
	Model           string   `json:"model,omitempty"` // the smoke model
	MetaInit        bool     `json:"meta_init,omitempty"`
	Params          *float64 `json:"params,omitempty"`
	TrainableParams *float64 `json:"trainable_params,omitempty"`
	Attention       string   `json:"attention,omitempty"`
	Autocast        *string  `json:"autocast,omitempty"`
	LoadDtype       string   `json:"load_dtype,omitempty"`
	GradScaler      bool     `json:"grad_scaler,omitempty"`
	Checkpointing   bool     `json:"checkpointing,omitempty"`
	Loss            string   `json:"loss,omitempty"`
	Optimizer       string   `json:"optimizer,omitempty"`
	Strategy        string   `json:"strategy,omitempty"`
	WorldSize       int      `json:"world_size,omitempty"`
	MicroBatch      int      `json:"micro_batch,omitempty"`
	GradAccum       int      `json:"grad_accum,omitempty"`
	SeqLen          *int     `json:"seq_len,omitempty"`
	Argv            []string `json:"argv,omitempty"` // serving: vllm serve's engine flags
	Notes           []string `json:"notes"`
}

// Measured are the figures, bytes and seconds; nil is not measured (on
// the CPU, the device figures; without nvidia-smi, its column).
type Measured struct {
	// Training.
	WarmupSteps       *float64  `json:"warmup_steps,omitempty"`
	Steps             *float64  `json:"steps,omitempty"`
	StepSeconds       *float64  `json:"step_seconds,omitempty"` // median of the measured optimizer steps
	StepSecondsAll    []float64 `json:"step_seconds_all,omitempty"`
	SamplesPerStep    *float64  `json:"samples_per_step,omitempty"`
	SamplesPerSecond  *float64  `json:"samples_per_second,omitempty"` // all GPUs
	TokensPerSecond   *float64  `json:"tokens_per_second,omitempty"`
	PeakAllocated     *float64  `json:"peak_allocated_bytes,omitempty"` // torch.cuda.max_memory_allocated, the largest rank
	PeakReserved      *float64  `json:"peak_reserved_bytes,omitempty"`
	NvidiaSMIUsed     *float64  `json:"nvidia_smi_used_bytes,omitempty"` // the process (serving: vLLM's processes)
	CUDAContext       *float64  `json:"cuda_context_bytes,omitempty"`
	Weights           *float64  `json:"weights_bytes,omitempty"`
	Gradients         *float64  `json:"gradients_bytes,omitempty"`
	OptimizerStates   *float64  `json:"optimizer_states_bytes,omitempty"`
	TermsFrom         string    `json:"terms_from,omitempty"` // "allocator" (memory_allocated deltas) or "tensors" (summed sizes)
	KVCacheTokens     *float64  `json:"kv_cache_tokens,omitempty"`
	KVCacheTokensMetr *float64  `json:"kv_cache_tokens_metrics,omitempty"`
	GPUBlocks         *float64  `json:"gpu_blocks,omitempty"`
	KVCacheBytes      *float64  `json:"kv_cache_bytes,omitempty"`
	MaxConcurrency    *float64  `json:"max_concurrency,omitempty"`
	Requests          *float64  `json:"requests,omitempty"`
	Concurrency       *float64  `json:"concurrency,omitempty"`
	WallSeconds       *float64  `json:"wall_seconds,omitempty"`
	OutputTokens      *float64  `json:"output_tokens,omitempty"`
	OutputTokensPerS  *float64  `json:"output_tokens_per_second,omitempty"`
	InputTokensPerS   *float64  `json:"input_tokens_per_second,omitempty"`
	TTFTSeconds       *float64  `json:"ttft_seconds,omitempty"`
	TPOTSeconds       *float64  `json:"tpot_seconds,omitempty"`
	StartupSeconds    *float64  `json:"startup_seconds,omitempty"`
}

// ServeSettings are a serving plan's keys as the probe echoes them: the
// model, the GPU and node, vLLM's engine flags and the planned load.
type ServeSettings struct {
	Model                string  `json:"model"`
	GPU                  string  `json:"gpu"`
	Provider             string  `json:"provider"`
	InstanceType         string  `json:"instance_type"`
	GPUsPerNode          int     `json:"gpus_per_node"`
	WeightFormat         string  `json:"weight_format"`
	KVCacheDType         string  `json:"kv_cache_dtype"`
	MaxModelLen          int     `json:"max_model_len"`
	GPUMemoryUtilization float64 `json:"gpu_memory_utilization"`
	MaxNumSeqs           int     `json:"max_num_seqs"`
	MaxNumBatchedTokens  int     `json:"max_num_batched_tokens"`
	TP                   int     `json:"tp"`
	PP                   int     `json:"pp"`
	ReplicasPerNode      int     `json:"replicas_per_node"`
	PromptTokens         int     `json:"prompt_tokens"`
	OutputTokens         int     `json:"output_tokens"`
	Concurrency          int     `json:"concurrency"`
	RequestsPerSec       float64 `json:"requests_per_sec,omitempty"`
}

// ErrResult is wrapped by every Parse error.
var ErrResult = errors.New("not a probe result")

// Limits on a result: a real line is a few KB; beyond these it is not one.
const (
	MaxLineBytes  = 64 << 10
	maxText       = 256  // a name, version, dtype
	maxNote       = 512  // one note
	maxList       = 64   // notes, argv, step times, versions
	maxBytes      = 1e15 // a PB of GPU memory
	maxSeconds    = 1e7  // ~116 days
	maxRate       = 1e12 // samples or tokens per second
	maxCount      = 1e13 // parameters, tokens, blocks
	maxSmallCount = 1 << 24
)

// versionKey is compiled on first use: its {0,31} made compiling it at
// package init half of every gpuplan process's start-up instructions
// (callgrind: 3.2 M of `gpuplan version`'s 5.9 M).
var versionKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]{0,31}$`) })

// Parse reads the probe's JSON line from b: the one line that starts with
// {"…gpuplan_probe…; other lines (the script's messages, when stderr was
// saved with it) are skipped. Decoding is strict: an unknown key, a wrong
// type, NaN or Infinity, a control character in a string or a figure out of
// range is refused, the error wrapping ErrResult and naming the key.
func Parse(b []byte) (*Result, error) { return ParseAt(b, time.Now()) }

// maxClockSkew is how far in the future of now a result's date may be:
// the machine that ran the probe and this one may disagree by hours
// (time zones written as UTC, clocks never synchronised), not by more
// than a day; a later date is a made-up file.
const maxClockSkew = 24 * time.Hour

// ParseAt is Parse with the time now: a result dated more than
// maxClockSkew after it is refused.
func ParseAt(b []byte, now time.Time) (*Result, error) {
	if !utf8.Valid(b) {
		return nil, model.Errorf(ErrResult, "not UTF-8 text")
	}
	var line []byte
	n := 0
	for _, l := range bytes.Split(b, []byte("\n")) {
		l = bytes.TrimSpace(l)
		if len(l) > 0 && l[0] == '{' && bytes.Contains(l, []byte(`"gpuplan_probe"`)) {
			line, n = l, n+1
		}
	}
	switch {
	case n == 0:
		return nil, model.Errorf(ErrResult, "no line starting with {\"…gpuplan_probe…; give the JSON line the probe script printed")
	case n > 1:
		return nil, model.Errorf(ErrResult, "%d probe lines; give one run's line per file", n)
	case len(line) > MaxLineBytes:
		return nil, model.Errorf(ErrResult, "the probe line is %d bytes, more than %d", len(line), MaxLineBytes)
	}
	r := &Result{Line: append([]byte(nil), line...)}
	if err := uniqueKeys(line); err != nil {
		return nil, model.Errorf(ErrResult, "%v", err)
	}
	if err := strict(line, r); err != nil {
		return nil, model.Errorf(ErrResult, "%v", err)
	}
	if err := r.check(now); err != nil {
		return nil, model.Errorf(ErrResult, "%v", err)
	}
	return r, nil
}

// strict decodes b into v refusing unknown keys and trailing data, with
// the error naming the key and the type wanted.
func strict(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		var se *json.SyntaxError
		switch {
		case errors.As(err, &te) && strings.HasPrefix(te.Value, "number "):
			// A number the field cannot hold: 1e999999999 in a float64, 1.5
			// or 1e30 in an int.
			n := strings.TrimPrefix(te.Value, "number ")
			if k := te.Type.Kind().String(); k == "int" || k == "int64" {
				return model.Msg("%s: want a whole number, got %s", te.Field, show.Printable(n))
			}
			return model.Msg("%s: %s is out of range", te.Field, show.Printable(n))
		case errors.As(err, &te):
			return model.Msg("%s: want %s, got %s", te.Field, jsonKind(te.Type.Kind().String()), te.Value)
		case errors.As(err, &se):
			msg := se.Error()
			if bytes.Contains(b, []byte("NaN")) || bytes.Contains(b, []byte("Infinity")) {
				msg += " (NaN and Infinity are not JSON numbers)"
			}
			return model.Msg("not JSON at byte %d: %s", se.Offset, msg)
		}
		return errors.New(show.Printable(err.Error()))
	}
	if d.More() {
		return model.Msg("more than one JSON value on the line")
	}
	return nil
}

func jsonKind(k string) string {
	switch k {
	case "float64", "int", "int64":
		return "a number"
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "slice":
		return "a list"
	case "map", "struct", "ptr":
		return "an object"
	}
	return k
}

// check validates r after decoding and decodes its plan; now bounds the
// date.
func (r *Result) check(now time.Time) error {
	if r.Probe != Schema {
		return model.Msg("gpuplan_probe: schema %d, this gpuplan reads %d; export the probe again with this gpuplan", r.Probe, Schema)
	}
	switch r.Kind {
	case "train", "serve":
	default:
		return model.Msg("kind: want train or serve, got %q", r.Kind)
	}
	switch r.Status {
	case "ok", "oom":
	default:
		return model.Msg("status: want ok or oom, got %q", r.Status)
	}
	date, err := time.Parse(time.RFC3339, r.Date)
	if err != nil {
		return model.Msg("date: want an RFC 3339 time such as 2026-05-01T12:00:00Z, got %q", r.Date)
	}
	if date.Before(firstTorch) {
		return model.Msg("date: %s is before PyTorch's first release (January 2017); a probe result records when it ran", r.Date)
	}
	if date.After(now.Add(maxClockSkew)) {
		return model.Msg("date: %s is in the future (now %s); a probe result records when it ran", r.Date, now.UTC().Format(time.RFC3339))
	}
	if len(r.Versions) > maxList {
		return model.Msg("versions: %d entries, more than %d", len(r.Versions), maxList)
	}
	for k, v := range r.Versions {
		if !versionKey().MatchString(k) {
			return model.Msg("versions: key %q is not a package name", k)
		}
		if err := text("versions."+k, v, maxText); err != nil {
			return err
		}
	}
	if d := r.Device; d != nil {
		for _, t := range []struct{ k, v string }{{"device.name", d.Name}, {"device.compute_capability", d.ComputeCapability}} {
			if err := text(t.k, t.v, maxText); err != nil {
				return err
			}
		}
		if err := number("device.memory_bytes", &d.MemoryBytes, maxBytes); err != nil {
			return err
		}
		if d.MemoryBytes != math.Trunc(d.MemoryBytes) {
			return model.Msg("device.memory_bytes: %v is not a whole number of bytes", d.MemoryBytes)
		}
		if d.MemoryBytes < 1 {
			return model.Msg("device.memory_bytes: 0; a GPU has memory, and the readings are checked against it")
		}
		if d.Count < 1 || d.Count > maxSmallCount {
			return model.Msg("device.count: %d; the probe ran on at least one GPU (1 to %d)", d.Count, maxSmallCount)
		}
		if !realCC[d.ComputeCapability] {
			return model.Msg("device.compute_capability: %q is not a CUDA compute capability (3.0 to 12.1, as NVIDIA lists them)", d.ComputeCapability)
		}
	}
	if err := r.Ran.check(); err != nil {
		return err
	}
	if err := r.Measured.check(); err != nil {
		return err
	}
	if err := r.Measured.fits(r.Device); err != nil {
		return err
	}
	if err := r.Measured.consistent(r.Status, r.Ran.WorldSize); err != nil {
		return err
	}
	if len(r.Plan) == 0 || string(r.Plan) == "null" {
		return model.Msg("plan: missing")
	}
	if r.Arch != nil {
		if err := r.Arch.check(); err != nil {
			return err
		}
	}
	if r.Kind == "serve" {
		s := &ServeSettings{}
		if err := strict(r.Plan, s); err != nil {
			return model.Msg("plan: %v", err)
		}
		r.Serve = s
		return s.check()
	}
	s := &Settings{}
	if err := strict(r.Plan, s); err != nil {
		return model.Msg("plan: %v", err)
	}
	r.Settings = s
	if err := s.check(); err != nil {
		return err
	}
	return r.agree()
}

// agree refuses a training result whose figures contradict each other or
// the run as probe.py writes them (model/launch/probescript/probe.py,
// train): tokens_per_second is samples_per_second × ran.seq_len (the
// plan's seq_len when ran has none); the weights are allocated on the GPU
// before the measured steps, whose peak (torch.cuda.max_memory_allocated
// since reset_peak_memory_stats, which starts from what is allocated then)
// so holds them — when the weights are a memory_allocated delta, or
// summed tensors the plan does not offload; and each process of the run
// takes a GPU of the machine, so ran.world_size ≤ device.count
// (torch.cuda.device_count).
func (r *Result) agree() error {
	m, s := &r.Measured, r.Settings
	seq := 0
	switch {
	case r.Ran.SeqLen != nil:
		seq = *r.Ran.SeqLen
	case !r.Smoke:
		seq = s.SeqLen
	}
	if m.TokensPerSecond != nil && m.SamplesPerSecond != nil && seq > 0 {
		want := *m.SamplesPerSecond * float64(seq)
		if math.Abs(*m.TokensPerSecond-want) > 1e-3*want {
			return model.Msg("measured.tokens_per_second: %v, but samples_per_second × seq_len is %.6g (%v × %d); the probe writes one from the other, so the file was changed: run the probe again or remove tokens_per_second", *m.TokensPerSecond, want, *m.SamplesPerSecond, seq)
		}
	}
	onGPU := m.TermsFrom == "allocator" || m.TermsFrom == "tensors" && !s.OffloadParams
	if onGPU && m.Weights != nil && m.PeakAllocated != nil && *m.Weights > *m.PeakAllocated {
		return model.Msg("measured.weights_bytes: %.0f is more than peak_allocated_bytes %.0f; the peak holds the weights on the GPU, so one figure is wrong: run the probe again", *m.Weights, *m.PeakAllocated)
	}
	if d := r.Device; d != nil && r.Ran.WorldSize > d.Count {
		return model.Msg("ran.world_size: %d processes, but device.count is %d; each process of the run takes a GPU of the machine: run the probe again", r.Ran.WorldSize, d.Count)
	}
	return nil
}

func (r *Ran) check() error {
	for _, t := range []struct{ k, v string }{{"builder", r.Builder}, {"model", r.Model}, {"attention", r.Attention},
		{"load_dtype", r.LoadDtype}, {"loss", r.Loss}, {"optimizer", r.Optimizer}, {"strategy", r.Strategy}} {
		if err := text("ran."+t.k, t.v, maxText); err != nil {
			return err
		}
	}
	if r.Autocast != nil {
		if err := text("ran.autocast", *r.Autocast, maxText); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		k string
		v *float64
	}{{"params", r.Params}, {"trainable_params", r.TrainableParams}} {
		if err := number("ran."+f.k, f.v, maxCount); err != nil {
			return err
		}
	}
	for _, n := range []struct {
		k string
		v int
	}{{"world_size", r.WorldSize}, {"micro_batch", r.MicroBatch}, {"grad_accum", r.GradAccum}} {
		if n.v < 0 || n.v > maxSmallCount {
			return model.Msg("ran.%s: %d is out of range", n.k, n.v)
		}
	}
	if r.SeqLen != nil && (*r.SeqLen < 0 || *r.SeqLen > maxSmallCount) {
		return model.Msg("ran.seq_len: %d is out of range", *r.SeqLen)
	}
	if len(r.Notes) > maxList || len(r.Argv) > maxList {
		return model.Msg("ran: more than %d notes or arguments", maxList)
	}
	for _, n := range r.Notes {
		if err := text("ran.notes", n, maxNote); err != nil {
			return err
		}
	}
	for _, a := range r.Argv {
		if err := text("ran.argv", a, maxText); err != nil {
			return err
		}
	}
	return nil
}

func (m *Measured) check() error {
	type lim struct {
		k   string
		v   *float64
		max float64
	}
	for _, l := range []lim{
		{"warmup_steps", m.WarmupSteps, maxSmallCount}, {"steps", m.Steps, maxSmallCount}, {"step_seconds", m.StepSeconds, maxSeconds},
		{"samples_per_step", m.SamplesPerStep, maxCount}, {"samples_per_second", m.SamplesPerSecond, maxRate},
		{"tokens_per_second", m.TokensPerSecond, maxRate}, {"peak_allocated_bytes", m.PeakAllocated, maxBytes},
		{"peak_reserved_bytes", m.PeakReserved, maxBytes}, {"nvidia_smi_used_bytes", m.NvidiaSMIUsed, maxBytes},
		{"cuda_context_bytes", m.CUDAContext, maxBytes}, {"weights_bytes", m.Weights, maxBytes},
		{"gradients_bytes", m.Gradients, maxBytes}, {"optimizer_states_bytes", m.OptimizerStates, maxBytes},
		{"kv_cache_tokens", m.KVCacheTokens, maxCount}, {"kv_cache_tokens_metrics", m.KVCacheTokensMetr, maxCount},
		{"gpu_blocks", m.GPUBlocks, maxCount}, {"kv_cache_bytes", m.KVCacheBytes, maxBytes},
		{"max_concurrency", m.MaxConcurrency, maxCount}, {"requests", m.Requests, maxCount}, {"concurrency", m.Concurrency, maxCount},
		{"wall_seconds", m.WallSeconds, maxSeconds}, {"output_tokens", m.OutputTokens, maxCount},
		{"output_tokens_per_second", m.OutputTokensPerS, maxRate}, {"input_tokens_per_second", m.InputTokensPerS, maxRate},
		{"ttft_seconds", m.TTFTSeconds, maxSeconds}, {"tpot_seconds", m.TPOTSeconds, maxSeconds},
		{"startup_seconds", m.StartupSeconds, maxSeconds},
	} {
		if err := number("measured."+l.k, l.v, l.max); err != nil {
			return err
		}
	}
	for _, b := range []struct {
		k string
		v *float64
	}{{"peak_allocated_bytes", m.PeakAllocated}, {"peak_reserved_bytes", m.PeakReserved}, {"nvidia_smi_used_bytes", m.NvidiaSMIUsed},
		{"cuda_context_bytes", m.CUDAContext}, {"weights_bytes", m.Weights}, {"gradients_bytes", m.Gradients},
		{"optimizer_states_bytes", m.OptimizerStates}, {"kv_cache_bytes", m.KVCacheBytes}} {
		if b.v != nil && *b.v != math.Trunc(*b.v) {
			return model.Msg("measured.%s: %v is not a whole number of bytes", b.k, *b.v)
		}
	}
	// A duration of zero is no measurement: kept, compare would score an
	// estimate against it as an exact match (Row.Err stays 0).
	for _, d := range []struct {
		k string
		v *float64
	}{{"step_seconds", m.StepSeconds}, {"wall_seconds", m.WallSeconds}, {"ttft_seconds", m.TTFTSeconds}, {"tpot_seconds", m.TPOTSeconds}} {
		if d.v != nil && *d.v == 0 {
			return model.Msg("measured.%s: 0 is not a measured time; want more than 0 seconds, or leave the key out", d.k)
		}
	}
	if slices.Contains(m.StepSecondsAll, 0) {
		return model.Msg("measured.%s: 0 is not a measured time; want more than 0 seconds, or leave the key out", "step_seconds_all")
	}
	if len(m.StepSecondsAll) > 1<<12 {
		return model.Msg("measured.step_seconds_all: %d entries, more than %d", len(m.StepSecondsAll), 1<<12)
	}
	for i := range m.StepSecondsAll {
		if err := number("measured.step_seconds_all", &m.StepSecondsAll[i], maxSeconds); err != nil {
			return err
		}
	}
	switch m.TermsFrom {
	case "", "allocator", "tensors":
	default:
		return model.Msg("measured.terms_from: want allocator or tensors, got %q", m.TermsFrom)
	}
	return nil
}

// fits refuses memory readings the device could not hold: torch's peaks,
// the weights' delta and the CUDA context are one device's (the largest
// rank's), nvidia-smi's reading sums the
// run's processes over every GPU of the machine (probe.py
// smi_process_bytes), so at most memory_bytes × count. A reading above
// them is a made-up or corrupted file, and kept it would skew every
// corrected estimate by its ratio.
func (m *Measured) fits(d *Device) error {
	if d == nil {
		return nil
	}
	for _, f := range []struct {
		k string
		v *float64
	}{{"peak_allocated_bytes", m.PeakAllocated}, {"peak_reserved_bytes", m.PeakReserved},
		{"weights_bytes", m.Weights}, {"cuda_context_bytes", m.CUDAContext}} {
		if f.v != nil && *f.v > d.MemoryBytes {
			return model.Msg("measured.%s: %.0f bytes is more than the %.0f bytes of device.memory_bytes; a GPU cannot use more memory than it has", f.k, *f.v, d.MemoryBytes)
		}
	}
	if all := d.MemoryBytes * float64(max(d.Count, 1)); m.NvidiaSMIUsed != nil && *m.NvidiaSMIUsed > all {
		return model.Msg("measured.%s: %.0f bytes is more than the %.0f bytes of device.memory_bytes × device.count; a GPU cannot use more memory than it has", "nvidia_smi_used_bytes", *m.NvidiaSMIUsed, all)
	}
	return nil
}

// consistent refuses figures that contradict each other as the probe
// script writes them (model/launch/probescript/probe.py, train): torch's
// caching allocator serves every allocation from reserved segments, so
// max_memory_allocated ≤ max_memory_reserved since the same
// reset_peak_memory_stats; nvidia-smi's reading of the process, taken
// after the steps, holds the reserved segments (the allocator returns none
// to the driver without empty_cache, which the script never calls) — but
// after an out-of-memory error the allocator has freed its cached blocks
// (release_cached_blocks before raising), so that check is for ok runs;
// "steps" is len(step_seconds_all); step_seconds is the median of this
// rank's step_seconds_all (statistics.median), all-reduced to the largest
// over ranks (World.max): the median itself in one process, never below
// it with several; samples_per_second is samples_per_step ÷ step_seconds.
func (m *Measured) consistent(status string, worldSize int) error {
	if m.PeakAllocated != nil && m.PeakReserved != nil && *m.PeakAllocated > *m.PeakReserved {
		return model.Msg("measured.peak_allocated_bytes: %.0f is more than peak_reserved_bytes %.0f; torch allocates inside what it reserved", *m.PeakAllocated, *m.PeakReserved)
	}
	if status == "ok" && m.PeakReserved != nil && m.NvidiaSMIUsed != nil && *m.PeakReserved > *m.NvidiaSMIUsed {
		return model.Msg("measured.nvidia_smi_used_bytes: %.0f is less than peak_reserved_bytes %.0f; nvidia-smi's reading of the run holds what torch reserved, so it was not this run's (remove the key if nvidia-smi saw another process)", *m.NvidiaSMIUsed, *m.PeakReserved)
	}
	if m.Steps != nil && m.StepSecondsAll != nil && *m.Steps != float64(len(m.StepSecondsAll)) {
		return model.Msg("measured.steps: %v, but step_seconds_all lists %d step times", *m.Steps, len(m.StepSecondsAll))
	}
	if m.StepSeconds != nil && len(m.StepSecondsAll) > 0 {
		med := pyMedian(m.StepSecondsAll)
		if *m.StepSeconds < med*(1-1e-6) || worldSize <= 1 && math.Abs(*m.StepSeconds-med) > 1e-6*med {
			if worldSize > 1 {
				return model.Msg("measured.step_seconds: %v, but the median of step_seconds_all is %.6g; the probe writes at least the median of step_seconds_all (the largest rank's median)", *m.StepSeconds, med)
			}
			return model.Msg("measured.step_seconds: %v, but the median of step_seconds_all is %.6g; the probe writes the median of step_seconds_all", *m.StepSeconds, med)
		}
	}
	if m.SamplesPerSecond != nil && m.SamplesPerStep != nil && m.StepSeconds != nil && *m.StepSeconds > 0 {
		want := *m.SamplesPerStep / *m.StepSeconds
		if math.Abs(*m.SamplesPerSecond-want) > 1e-3*want {
			return model.Msg("measured.samples_per_second: %v, but samples_per_step ÷ step_seconds is %.6g", *m.SamplesPerSecond, want)
		}
	}
	return nil
}

// firstTorch is PyTorch's first public release (0.1, January 2017): a
// probe run is not older.
var firstTorch = time.Date(2017, 1, 1, 0, 0, 0, 0, time.UTC)

// realCC are the CUDA compute capabilities NVIDIA lists (CUDA GPU Compute
// Capability, developer.nvidia.com/cuda-gpus, with its legacy table: Kepler
// 3.x to Blackwell 12.1; 10.1 is Jetson Thor's before CUDA 13 renamed it
// 11.0). Earlier ones predate every PyTorch build. On ROCm torch reports
// the gfx target's major.minor (hipDeviceProp_t: gfx90a 9.0, gfx942 9.4,
// gfx950 9.5, gfx1100 11.0), so 9.4 and 9.5 are real too.
var realCC = map[string]bool{
	"9.4": true, "9.5": true,
	"3.0": true, "3.2": true, "3.5": true, "3.7": true, "5.0": true, "5.2": true, "5.3": true, "6.0": true, "6.1": true, "6.2": true,
	"7.0": true, "7.2": true, "7.5": true, "8.0": true, "8.6": true, "8.7": true, "8.9": true, "9.0": true,
	"10.0": true, "10.1": true, "10.3": true, "11.0": true, "12.0": true, "12.1": true,
}

// CheckDevice refuses a result whose device cannot be the plan's GPU as
// cat describes it: device.memory_bytes more than that GPU's memory (the
// vendor's GiB; the driver reports a little less, never more), or another
// compute capability. Compare calls it.
func (r *Result) CheckDevice(cat *model.Catalog) error {
	d := r.Device
	if d == nil {
		return nil
	}
	name := ""
	switch {
	case r.Settings != nil:
		name = r.Settings.GPU
	case r.Serve != nil:
		name = r.Serve.GPU
	}
	g, err := cat.GPU(name)
	if err != nil {
		return nil // Compare names the unknown GPU
	}
	if vendor := g.MemoryGiB * model.GiB; d.MemoryBytes > vendor*1.01 {
		return model.Msg("device.memory_bytes: %.0f bytes is more than the %.0f bytes (%g GiB) of the plan's GPU %s; the driver reports a little less than the vendor's figure, never more", d.MemoryBytes, vendor, g.MemoryGiB, g.Key)
	}
	if g.ComputeCapability != "" && d.ComputeCapability != g.ComputeCapability {
		return model.Msg("device.compute_capability: %s, but the plan's GPU %s has %s", d.ComputeCapability, g.Key, g.ComputeCapability)
	}
	return nil
}

// DeviceWarnings are what a result's device says against its plan without
// making the figures impossible: device.name names another GPU than the
// plan's (cat resolves it to another key, or, a name cat does not know,
// it does not contain the plan GPU's model, "a10g" in "NVIDIA A10G"), or
// device.count (torch.cuda.device_count: every GPU of the machine) is more
// than the plan's GPUs (a bigger machine: the figures are of
// ran.world_size GPUs, and nvidia-smi's reading sums the run's processes).
func (r *Result) DeviceWarnings(cat *model.Catalog) []model.Message {
	d := r.Device
	if d == nil || r.Smoke {
		return nil
	}
	name, gpus := "", 0
	switch {
	case r.Settings != nil:
		name, gpus = r.Settings.GPU, r.Settings.GPUs
	case r.Serve != nil:
		name, gpus = r.Serve.GPU, r.Serve.GPUsPerNode
	}
	g, err := cat.GPU(name)
	if err != nil {
		return nil
	}
	var out []model.Message
	other := false
	if dg, err := cat.GPU(d.Name); err == nil {
		other = dg.Key != g.Key
	} else {
		family, _, _ := strings.Cut(g.Key, "-")
		other = !strings.Contains(alnumLower(d.Name), alnumLower(family))
	}
	if other {
		out = append(out, model.Msg("device.name %q is not the plan's GPU %s: the figures are of another GPU; run the probe on the plan's GPU, or plan for the one it ran on", show.Printable(d.Name), g.Key))
	}
	if gpus > 0 && d.Count > gpus {
		out = append(out, model.Msg("device.count %d is more than the plan's %d GPUs: the probe ran on a bigger machine; its figures are of the %d GPUs it used", d.Count, gpus, max(r.Ran.WorldSize, 1)))
	}
	return out
}

// alnumLower is s lower-cased with only its ASCII letters and digits.
func alnumLower(s string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(s) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
		}
	}
	return b.String()
}

func (s *Settings) check() error {
	for _, t := range []struct{ k, v string }{{"model", s.Model}, {"gpu", s.GPU}, {"task", s.Task}, {"precision", s.Precision},
		{"strategy", s.Strategy}, {"framework", s.Framework}, {"recipe", s.Recipe}, {"loss", s.Loss}, {"optimizer", s.Optimizer},
		{"quant_type", s.QuantType}, {"torch", s.Torch}, {"trainer", s.Trainer}, {"zero_grad", s.ZeroGrad}, {"outputs", s.Outputs}} {
		if err := text("plan."+t.k, t.v, maxText); err != nil {
			return err
		}
	}
	if s.Model == "" || s.GPU == "" || s.Task == "" || s.Precision == "" {
		return model.Msg("plan: model, gpu, task and precision are required")
	}
	if len(s.LoRATargets) > 16 {
		return model.Msg("plan.lora_targets: more than 16 targets")
	}
	for _, t := range s.LoRATargets {
		if err := text("plan.lora_targets", t, 16); err != nil {
			return err
		}
	}
	if math.IsNaN(s.LoRADropout) || s.LoRADropout < 0 || s.LoRADropout >= 1 {
		return model.Msg("plan.lora_dropout: want [0, 1), got %v", s.LoRADropout)
	}
	for _, n := range []struct {
		k string
		v int
	}{{"gpus", s.GPUs}, {"tp", s.TP}, {"batch", s.Batch}, {"grad_accum", s.GradAccum}, {"seq_len", s.SeqLen}, {"image_size", s.ImageSize}, {"lora_rank", s.LoRARank}} {
		if n.v < 0 || n.v > maxSmallCount {
			return model.Msg("plan.%s: %d is out of range", n.k, n.v)
		}
	}
	if s.Batch < 1 {
		return model.Msg("plan.batch: %d; a training step takes at least one sample", s.Batch)
	}
	return nil
}

func (s *ServeSettings) check() error {
	for _, t := range []struct{ k, v string }{{"model", s.Model}, {"gpu", s.GPU}, {"provider", s.Provider}, {"instance_type", s.InstanceType},
		{"weight_format", s.WeightFormat}, {"kv_cache_dtype", s.KVCacheDType}} {
		if err := text("plan."+t.k, t.v, maxText); err != nil {
			return err
		}
	}
	if s.Model == "" || s.GPU == "" {
		return model.Msg("plan: model and gpu are required")
	}
	for _, n := range []struct {
		k string
		v int
	}{{"gpus_per_node", s.GPUsPerNode}, {"max_model_len", s.MaxModelLen}, {"max_num_seqs", s.MaxNumSeqs}, {"max_num_batched_tokens", s.MaxNumBatchedTokens},
		{"tp", s.TP}, {"pp", s.PP}, {"replicas_per_node", s.ReplicasPerNode}, {"prompt_tokens", s.PromptTokens}, {"output_tokens", s.OutputTokens}, {"concurrency", s.Concurrency}} {
		if n.v < 0 || n.v > maxSmallCount {
			return model.Msg("plan.%s: %d is out of range", n.k, n.v)
		}
	}
	if err := number("plan.gpu_memory_utilization", &s.GPUMemoryUtilization, 1); err != nil {
		return err
	}
	return number("plan.requests_per_sec", &s.RequestsPerSec, maxRate)
}

func (a *Arch) check() error {
	for _, t := range []struct{ k, v string }{{"arch.key", a.Key}, {"arch.family", a.Family}, {"arch.norm", a.Norm}} {
		if err := text(t.k, t.v, maxText); err != nil {
			return err
		}
	}
	for _, n := range []int{a.Layers, a.Hidden, a.Heads, a.FFN, a.Vocab, a.KVHeads, a.HeadDim, a.DecoderLayers, a.Experts, a.ExpertsPerToken, a.PatchSize, a.ImageSize} {
		if n < 0 || n > maxSmallCount {
			return model.Msg("arch: %d is out of range", n)
		}
	}
	return number("arch.params", &a.Params, maxCount)
}

// text refuses what cannot be shown on one line of a terminal or a TOML
// string: invalid UTF-8, control and bidirectional formatting characters,
// more than max bytes.
func text(key, s string, max int) error {
	if len(s) > max {
		return model.Msg("%s: %d bytes, more than %d", key, len(s), max)
	}
	if !utf8.ValidString(s) {
		return model.Msg("%s: not UTF-8 text", key)
	}
	for i, r := range s {
		if show.Unprintable(r) {
			return model.Msg("%s: control character %U at byte %d", key, r, i)
		}
	}
	return nil
}

// number refuses a figure that is not finite, negative, or above max.
func number(key string, v *float64, max float64) error {
	if v == nil {
		return nil
	}
	if math.IsNaN(*v) || math.IsInf(*v, 0) || *v < 0 || *v > max {
		return model.Msg("%s: %v is out of range (0 to %.3g)", key, *v, max)
	}
	return nil
}

// Summary is the result in a few words: "NVIDIA L4, torch 2.5.1, CUDA 12.4,
// driver 550.54, 2026-05-01".
func (r *Result) Summary() string {
	var parts []string
	if r.Device != nil && r.Device.Name != "" {
		parts = append(parts, r.Device.Name)
	} else {
		parts = append(parts, "CPU")
	}
	for _, k := range []string{"torch", "cuda", "driver", "transformers", "peft", "bitsandbytes", "deepspeed", "torchvision", "vllm"} {
		if v := r.Versions[k]; v != "" {
			name := k
			switch k {
			case "cuda":
				name = "CUDA"
			}
			parts = append(parts, name+" "+v)
		}
	}
	if len(r.Date) >= 10 {
		parts = append(parts, r.Date[:10])
	}
	return strings.Join(parts, ", ")
}

// exactKey reports whether k has no uppercase ASCII letter and no
// non-ASCII character. encoding/json matches a key to a field ignoring case
// (and folds "ſ" to "s", "K" to "k"), so "Status" would set status and
// "PEAK_ALLOCATED_BYTES" overwrite peak_allocated_bytes; every key the
// probe script writes (and every versions key) is lowercase ASCII, so
// refusing the rest makes the match exact.
func exactKey(k string) bool {
	for i := 0; i < len(k); i++ {
		if c := k[i]; c >= 'A' && c <= 'Z' || c >= 0x80 {
			return false
		}
	}
	return true
}

// uniqueKeys refuses a JSON object that gives a key twice: encoding/json
// keeps the last, so {"memory_bytes": 1, "memory_bytes": 9e14} would read
// as another file than the one a reader sees.
func uniqueKeys(b []byte) error {
	type frame struct {
		obj, wantKey bool
		keys         map[string]bool
	}
	var stack []*frame
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	for {
		tok, err := d.Token()
		if err != nil {
			return nil // strict reports malformed JSON; io.EOF ends
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if k, ok := tok.(string); ok && top != nil && top.obj && top.wantKey {
			if !exactKey(k) {
				return model.Msg("key %q: a probe result's keys are lowercase ASCII, matched exactly; the script writes none other", k)
			}
			if top.keys[k] {
				return model.Msg("key %q given twice in one object; a probe result gives each key once", k)
			}
			top.keys[k], top.wantKey = true, false
			continue
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			stack = append(stack, &frame{obj: tok == json.Delim('{'), wantKey: true, keys: map[string]bool{}})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				top = stack[len(stack)-1]
			} else {
				top = nil
			}
		}
		if top != nil && top.obj {
			top.wantKey = true // the value ended
		}
	}
}

// pyMedian is Python's statistics.median of xs (the mean of the middle two
// of an even count), as probe.py takes it; xs is not changed.
func pyMedian(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
