package launch

import (
	"bytes"

	"github.com/BurntSushi/toml"
)

// tomlDoc is the document TOML writes. The [launch] section is what the
// configurator's config TOML (model/config.go, written on another branch)
// gains; the lead merges this section into that file's schema, after which
// `--format toml` writes the whole config with it.
type tomlDoc struct {
	Launch tomlLaunch `toml:"launch"`
}

type tomlLaunch struct {
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

	Stack tomlStack `toml:"stack"`
}

type tomlStack struct {
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

// TOML returns a document with a [launch] section holding the plan and a
// [launch.stack] table with the software advice, keys spelled like the rest
// of gpuplan's TOML.
//
// The error wraps ErrPlan when a value is not UTF-8 text.
func (p *Plan) TOML() ([]byte, error) {
	if err := p.checkText(); err != nil {
		return nil, err
	}
	d := tomlDoc{Launch: tomlLaunch{
		Provider: p.Provider, InstanceType: p.InstanceType, Region: p.Region,
		Pricing: string(p.Pricing), USDPerHour: p.USDPerHour,
		GPU: p.GPU.Key, Accelerator: p.Accelerator, GPUsPerNode: p.ProcsPerNode, Nodes: p.Nodes,
		Strategy: string(p.Strategy), Precision: string(p.Precision),
		Name: p.Name, Script: p.Script, ScriptArgs: p.ScriptArgs, DiskGB: p.DiskGB,
		Image: p.Image, TorchWheel: p.Wheel, Port: p.Port,
		Stack: tomlStack{
			ComputeCapability: p.Stack.ComputeCapability, Arch: p.Stack.Arch, Supported: p.Stack.Supported,
			MinCUDA: p.Stack.MinCUDA, LastCUDA: p.Stack.LastCUDA, TorchIndexURL: IndexURL(p.Wheel),
			MinDriver: p.Stack.MinDriver, BF16: p.Stack.BF16, FP8: p.Stack.FP8,
		},
	}}
	var buf bytes.Buffer
	buf.WriteString(commentBlock(p.headerLines()))
	enc := toml.NewEncoder(&buf)
	enc.Indent = ""
	if err := enc.Encode(d); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
