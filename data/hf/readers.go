package hf

import (
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// Readers returns this package's readers in the form the request's Resolve
// (config.WorkloadAnswers.Workload) takes them: a config.json's shape with
// the precision Config.Precision suggests for the task, and safetensors
// counts merged by Config.WithCounts.
func Readers() config.Readers {
	return config.Readers{
		HFConfig: func(path string, task model.Task) (model.Architecture, model.Precision, []model.Message, error) {
			cfg, err := ReadConfig(path)
			if err != nil {
				return model.Architecture{}, "", nil, err
			}
			p, _ := cfg.Precision(task)
			cfg.Arch.QuantMethod = cfg.Quantization.Method
			cfg.Arch.WeightBlockSize = cfg.Quantization.BlockSize
			cfg.Arch.UnquantizedAttnLayers, cfg.Arch.UnquantizedMLPLayers = unconverted(&cfg.Arch, cfg.Quantization.Skip)
			return cfg.Arch, p, cfg.Warnings, nil
		},
		Safetensors: func(path string, a model.Architecture) (model.Architecture, []model.Message, error) {
			n, err := ReadSafetensors(path)
			if err != nil {
				return a, nil, err
			}
			if !a.HasShape() { // a count alone: the checkpoint's is exact
				a.Params = float64(n.Params)
				return a, n.Warnings, nil
			}
			a, warn := (&Config{Arch: a}).WithCounts(n)
			if warn.Key != "" {
				n.Warnings = append(n.Warnings, warn)
			}
			return a, n.Warnings, nil
		},
	}
}
