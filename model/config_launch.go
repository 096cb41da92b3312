package model

import (
	"bytes"

	"github.com/BurntSushi/toml"
)

// Launch is the [launch] section gpuplan export writes (model/launch
// Plan.Launch): where and how the job runs, with [launch.stack], the
// software advice. Like [estimate] it is informational: DecodeConfig checks
// its keys and types, so a typo is caught, and drops it (export recomputes
// it); EncodeConfig writes it after the rest of the file.
type Launch struct {
	// Notes are written as comment lines before the section.
	Notes []string `toml:"-"`

	Provider     string   `toml:"provider"`
	InstanceType string   `toml:"instance_type"`
	Region       string   `toml:"region"`
	Pricing      string   `toml:"pricing"`
	USDPerHour   float64  `toml:"usd_per_hour"`
	GPU          string   `toml:"gpu"`
	Accelerator  string   `toml:"accelerator"`
	GPUsPerNode  int      `toml:"gpus_per_node"`
	Nodes        int      `toml:"nodes"`
	Strategy     string   `toml:"strategy"`
	Precision    string   `toml:"precision"`
	Name         string   `toml:"name"`
	Script       string   `toml:"script"`
	ScriptArgs   []string `toml:"script_args"`
	DiskGB       int      `toml:"disk_gb"`
	Image        string   `toml:"image,omitempty"`
	TorchWheel   string   `toml:"torch_wheel,omitempty"`
	Port         int      `toml:"port"`

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
// EncodeConfig and for `gpuplan export --format toml` alone.
func EncodeLaunch(l *Launch) ([]byte, error) {
	var buf bytes.Buffer
	for _, n := range l.Notes {
		buf.WriteString("# " + n + "\n")
	}
	enc := toml.NewEncoder(&buf)
	enc.Indent = ""
	if err := enc.Encode(struct {
		Launch *Launch `toml:"launch"`
	}{l}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
