package config

import (
	"bytes"

	"github.com/BurntSushi/toml"
)

// Launch is the [launch] section gpuplan export writes (model/launch
// Plan.Launch): where and how the job runs, with [launch.stack], the
// software advice. Like [estimate] it is informational: Decode checks
// its keys and types, so a typo is caught, and drops it (export recomputes
// it); Encode writes it after the rest of the file.
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
	Script     string   `toml:"script,omitempty"`
	Module     string   `toml:"module,omitempty"`
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
	Replicas             int     `toml:"replicas"`
	ReplicasPerNode      int     `toml:"replicas_per_node"`
	TensorParallelSize   int     `toml:"tensor_parallel_size"`
	PipelineParallelSize int     `toml:"pipeline_parallel_size"`
	ModelID              string  `toml:"model_id"`
	WeightFormat         string  `toml:"weight_format"`
	KVCacheDType         string  `toml:"kv_cache_dtype"`
	MaxModelLen          int     `toml:"max_model_len"`
	// The request's lengths, load and targets (gpuplan's [serve] keys,
	// not vLLM flags), so that gpuplan --config reopens the plan.
	PromptTokens         int      `toml:"prompt_tokens,omitempty"`
	OutputTokens         int      `toml:"output_tokens,omitempty"`
	Concurrency          int      `toml:"concurrency,omitempty"`
	RequestsPerSec       float64  `toml:"requests_per_sec,omitempty"`
	TTFTMs               float64  `toml:"ttft_ms,omitempty"`
	TPOTMs               float64  `toml:"tpot_ms,omitempty"`
	GPUMemoryUtilization float64  `toml:"gpu_memory_utilization"`
	MaxNumSeqs           int      `toml:"max_num_seqs"`
	MaxNumBatchedTokens  int      `toml:"max_num_batched_tokens"`
	Image                string   `toml:"image"`
	Port                 int      `toml:"port"`
	VLLMArgs             []string `toml:"vllm_args"`
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
