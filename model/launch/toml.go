package launch

import (
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/launch/stack"
	"github.com/gpuplan/gpuplan/model/show"
)

// Launch returns the plan as the config file's [launch] section
// (config.Launch), its header and notes as the comment lines before it.
//
// The error wraps ErrPlan when a value is not UTF-8 text or has C1 control
// characters (checkC1).
func (p *Plan) Launch() (*config.Launch, error) {
	if err := p.checkC1(); err != nil {
		return nil, err
	}
	notes := p.HeaderLines()
	for i, n := range notes {
		notes[i] = yamlLineBreaks.Replace(show.Printable(n)) // as CommentBlock
	}
	dataset := p.Dataset // read back by export --config (config.Config.LaunchDataset)
	if dataset == PlaceholderDataset {
		dataset = ""
	}
	return &config.Launch{
		Notes:    notes,
		Provider: p.Provider, InstanceType: p.InstanceType, Region: p.Region,
		Pricing: string(p.Pricing), USDPerHour: p.USDPerHour,
		GPU: p.GPU.Key, Accelerator: p.Accelerator, GPUsPerNode: p.ProcsPerNode, Nodes: p.Nodes,
		Strategy: string(p.Strategy), Precision: string(p.Precision),
		Name: p.Name, Script: p.Script, Module: p.Module, Dataset: dataset, ScriptArgs: p.ScriptArgs, DiskGB: p.DiskGB,
		Image: p.Image, TorchWheel: p.Wheel, Port: p.Port,
		Stack: config.LaunchStack{
			ComputeCapability: p.Stack.ComputeCapability, Arch: p.Stack.Arch, Supported: p.Stack.Supported,
			MinCUDA: p.Stack.MinCUDA, LastCUDA: p.Stack.LastCUDA, TorchIndexURL: stack.IndexURL(p.Wheel),
			MinDriver: p.Stack.MinDriver, BF16: p.Stack.BF16, FP8: p.Stack.FP8,
		},
	}, nil
}

// TOML returns the [launch] section alone (with its comment lines), as
// config.EncodeLaunch writes it; gpuplan export --format toml writes it
// inside the whole configuration (config.Config.Launch).
//
// The error wraps ErrPlan when a value is not UTF-8 text.
func (p *Plan) TOML() ([]byte, error) {
	l, err := p.Launch()
	if err != nil {
		return nil, err
	}
	return config.EncodeLaunch(l)
}
