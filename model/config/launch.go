package config

import (
	"bytes"
	"cmp"
	"math"

	"github.com/BurntSushi/toml"
)

// Launch is the [launch] section gpuplan export writes (model/launch
// Plan.Launch): where and how the job runs, with [launch.stack], the
// software advice. Like [estimate] it is informational: Decode checks
// its keys and types, so a typo is caught, and drops it (export recomputes
// it) but for the dataset (Config.LaunchDataset), which nothing else in
// the file holds; Encode writes it after the rest of the file.
type Launch struct {
	// Notes are written as comment lines before the section.
	Notes []string `toml:"-"`

	Provider     string  `toml:"provider"`
	InstanceType string  `toml:"instance_type"`
	Region       string  `toml:"region"`
	Pricing      string  `toml:"pricing"`
	USDPerHour   float64 `toml:"usd_per_hour"`
	GPU          string  `toml:"gpu"`
	Accelerator  string  `toml:"accelerator"`
	GPUsPerNode  int     `toml:"gpus_per_node"`
	Nodes        int     `toml:"nodes"`
	Strategy     string  `toml:"strategy"`
	Precision    string  `toml:"precision"`
	Name         string  `toml:"name"`
	// Script is the user's training script; Module the installed Python
	// module run instead when there is none (model/launch TRLSFTModule).
	Script string `toml:"script,omitempty"`
	Module string `toml:"module,omitempty"`
	// Dataset is the dataset id or path the launch files train on
	// (model/launch Options.Dataset), left out for the placeholder; Decode
	// reads it back as Config.LaunchDataset, so that export --config
	// writes it again (walk37).
	Dataset    string   `toml:"dataset,omitempty"`
	ScriptArgs []string `toml:"script_args"`
	DiskGB     int      `toml:"disk_gb"`
	Image      string   `toml:"image,omitempty"`
	TorchWheel string   `toml:"torch_wheel,omitempty"`
	Port       int      `toml:"port"`

	Stack LaunchStack `toml:"stack"`
}

// LaunchStack is [launch.stack]: the GPU's software stack (model/launch Advise).
type LaunchStack struct {
	ComputeCapability string `toml:"compute_capability,omitempty"`
	Arch              string `toml:"arch,omitempty"`
	Supported         bool   `toml:"supported"`
	MinCUDA           string `toml:"min_cuda,omitempty"`
	LastCUDA          string `toml:"last_cuda,omitempty"`
	TorchIndexURL     string `toml:"torch_index_url,omitempty"`
	MinDriver         string `toml:"min_driver,omitempty"`
	BF16              bool   `toml:"bf16"`
	FP8               bool   `toml:"fp8"`
}

// EncodeLaunch writes l as its comment lines and the [launch] table, keys
// in the order of Launch's fields: the one writer of the section, for
// Encode and for `gpuplan export --format toml` alone.
func EncodeLaunch(l *Launch) ([]byte, error) {
	return encodeSection(l.Notes, struct {
		Launch *Launch `toml:"launch"`
	}{l})
}

// ServeLaunch is the [serve] section a serving export writes (model/launch
// Serve.ServeLaunch): where, how it is split, and the engine settings,
// keys spelled like vLLM's flags in snake case, with the request's
// lengths, load and targets (gpuplan's [serve] keys), so that Decode
// reads it back as WorkloadAnswers.Serve.
type ServeLaunch struct {
	// Notes are written as comment lines before the section.
	Notes []string `toml:"-"`

	Provider             string  `toml:"provider"`
	InstanceType         string  `toml:"instance_type"`
	Region               string  `toml:"region"`
	Pricing              string  `toml:"pricing"`
	USDPerHour           float64 `toml:"usd_per_hour"`
	Accelerator          string  `toml:"accelerator"`
	GPUsPerNode          int     `toml:"gpus_per_node"`
	Nodes                int     `toml:"nodes"`
	Replicas             int     `toml:"replicas,omitzero"`
	ReplicasPerNode      int     `toml:"replicas_per_node"`
	TensorParallelSize   int     `toml:"tensor_parallel_size,omitzero"`
	PipelineParallelSize int     `toml:"pipeline_parallel_size,omitzero"`
	ModelID              string  `toml:"model_id"`
	WeightFormat         string  `toml:"weight_format,omitempty"`
	KVCacheDType         string  `toml:"kv_cache_dtype,omitempty"`
	MaxModelLen          int     `toml:"max_model_len,omitzero"`
	RopeScaling          string  `toml:"rope_scaling,omitempty"` // serve.RopeScaling as its flag writes it ("yarn:4"); vllm_args carry its --hf-overrides
	// The request's lengths, load and targets (gpuplan's [serve] keys,
	// not vLLM flags), so that gpuplan --config reopens the plan.
	PromptTokens         int      `toml:"prompt_tokens,omitzero"`
	OutputTokens         int      `toml:"output_tokens,omitzero"`
	Concurrency          int      `toml:"concurrency,omitzero"`
	RequestsPerSec       float64  `toml:"requests_per_sec,omitzero"`
	TTFTMs               float64  `toml:"ttft_ms,omitzero"`
	TPOTMs               *float64 `toml:"tpot_ms,omitempty"` // nil: the default target; 0: none
	GPUMemoryUtilization float64  `toml:"gpu_memory_utilization,omitzero"`
	MaxNumSeqs           int      `toml:"max_num_seqs,omitzero"`
	MaxNumBatchedTokens  int      `toml:"max_num_batched_tokens,omitzero"`
	Image                string   `toml:"image"`
	Port                 int      `toml:"port"`
	VLLMArgs             []string `toml:"vllm_args"`
}

// Asked replaces the request keys of s — the split, vLLM's engine
// settings, the lengths, the load and the targets, all of which Decode
// reads back as requests — by the answers a gives (a.Serve, and a.TP for
// the split), 0 and left out where gpuplan chose: the deployment's own
// values stay in vllm_args and the comment lines. A file so written
// reopens as the user's question, and `gpuplan recommend --config` ranks
// the same offers as the command that wrote it, instead of pinning every
// GPU to the exported offer's TP and replicas (issue 31).
func (s *ServeLaunch) Asked(a *WorkloadAnswers) {
	s.Notes = append(s.Notes, "the request keys (tensor_parallel_size, replicas, max_model_len, concurrency …) are the answers as asked,",
		"left out where gpuplan chooses per offer; vllm_args are this offer's")
	r := &a.Serve
	s.TensorParallelSize, s.PipelineParallelSize, s.Replicas = cmp.Or(r.TP, a.TP), r.PP, r.Replicas
	s.WeightFormat, s.KVCacheDType, s.MaxModelLen = string(r.WeightFormat), string(r.KVCacheDType), r.MaxModelLen
	s.RopeScaling = r.RopeScaling.String()
	s.PromptTokens, s.OutputTokens, s.Concurrency, s.RequestsPerSec = r.PromptTokens, r.OutputTokens, r.Concurrency, r.RequestsPerSec
	s.TTFTMs, s.TPOTMs = r.TTFTTargetMs, nil
	if r.TPOTTargetMs > 0 || r.NoTPOTTarget {
		s.TPOTMs = &r.TPOTTargetMs
	}
	s.GPUMemoryUtilization, s.MaxNumSeqs, s.MaxNumBatchedTokens = r.GPUMemoryUtilization, r.MaxNumSeqs, r.MaxNumBatchedTokens
}

// EncodeServeLaunch writes s as its comment lines and the [serve] table,
// keys in the order of ServeLaunch's fields: the one writer of the
// section, for Encode and for the serving export's TOML alone.
func EncodeServeLaunch(s *ServeLaunch) ([]byte, error) {
	return encodeSection(s.Notes, struct {
		Serve *ServeLaunch `toml:"serve"`
	}{s})
}

// encodeSection writes notes as comment lines, then v by the TOML encoder.
func encodeSection(notes []string, v any) ([]byte, error) {
	var buf bytes.Buffer
	for _, n := range notes {
		buf.WriteString("# " + n + "\n")
	}
	enc := toml.NewEncoder(&buf)
	enc.Indent = ""
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ExportOptions are the launch options `gpuplan export` was given, by
// their flags (--region, --name, --model-id, --script, --script-args,
// --disk-gb, --image, --wheel, --bucket, --k8s-pvc, --k8s-kind,
// --checkpoint-write-gbps), written as the [export] table so that
// `gpuplan export --config FILE` gives them again: [launch] and [serve]
// say what they resolved to, which export recomputes, and without these
// a reloaded file trained the catalog's model instead of --model-id's,
// under another name and checkpoint directory (walk50). Flags still
// override them. An option not given is left out; ScriptArgs is
// non-nil when --script-args was given, "" passing none.
//
// Region is --region as given: [selection] and [launch] hold the offer's
// region whether the user named it or gpuplan took a price region of
// Lambda's or OCI's "any of N regions" as its key, and only a region the
// user named is pinned in the launch files (model/launch
// Options.RegionGiven; walk53: a reloaded Lambda export lost its
// --region and named none).
type ExportOptions struct {
	Region              string  `toml:"region,omitempty"`
	Name                string  `toml:"name,omitempty"`
	ModelID             string  `toml:"model_id,omitempty"`
	Script              string  `toml:"script,omitempty"`
	ScriptArgs          *string `toml:"script_args,omitempty"`
	DiskGB              int     `toml:"disk_gb,omitzero"`
	Image               string  `toml:"image,omitempty"`
	Wheel               string  `toml:"wheel,omitempty"`
	Bucket              string  `toml:"bucket,omitempty"`
	K8sPVC              string  `toml:"k8s_pvc,omitempty"`
	K8sKind             string  `toml:"k8s_kind,omitempty"`
	CheckpointWriteGBps float64 `toml:"checkpoint_write_gbps,omitzero"`
}

// IsZero reports whether no option was given.
func (o *ExportOptions) IsZero() bool { return o == nil || *o == ExportOptions{} }

// Clone returns a copy of o that shares no memory with it (ScriptArgs is
// a pointer); nil for nil.
func (o *ExportOptions) Clone() *ExportOptions {
	if o == nil {
		return nil
	}
	c := *o
	if o.ScriptArgs != nil {
		args := *o.ScriptArgs
		c.ScriptArgs = &args
	}
	return &c
}

// EncodeExportOptions writes o as the [export] table, keys in the order of
// ExportOptions' fields.
func EncodeExportOptions(o *ExportOptions) ([]byte, error) {
	return encodeSection([]string{"The options gpuplan export was given; export --config gives them again (flags override)."}, struct {
		Export *ExportOptions `toml:"export"`
	}{o})
}

// checkExportOptions holds [export] to text without control characters,
// as every string of the file; the ranges and shapes are the flags' own
// (gpuplan export sets each flag from its key), but for the signs.
func checkExportOptions(o *ExportOptions) error {
	if err := CheckName("export.region", o.Region, false); err != nil { // a name, as selection.region
		return err
	}
	for _, kv := range []struct{ key, v string }{
		{"export.name", o.Name}, {"export.model_id", o.ModelID}, {"export.script", o.Script},
		{"export.image", o.Image}, {"export.wheel", o.Wheel}, {"export.bucket", o.Bucket},
		{"export.k8s_pvc", o.K8sPVC}, {"export.k8s_kind", o.K8sKind},
	} {
		if err := CheckText(kv.key, kv.v, false); err != nil {
			return err
		}
	}
	if o.ScriptArgs != nil {
		if err := CheckText("export.script_args", *o.ScriptArgs, false); err != nil {
			return err
		}
	}
	if o.DiskGB < 0 {
		return Errorf("export.disk_gb", "must be a whole number of GB ≥ 1, got %d", o.DiskGB)
	}
	if !(o.CheckpointWriteGBps >= 0) || math.IsInf(o.CheckpointWriteGBps, 0) {
		return Errorf("export.checkpoint_write_gbps", "must be a number of GB/s > 0, got %v", o.CheckpointWriteGBps)
	}
	return nil
}
