package config

import (
	"path/filepath"

	"github.com/gpuplan/gpuplan/model"
)

// Readers read the model files a request may name (a Hugging Face
// config.json, safetensors headers); main wires package data/hf in. They
// are the only I/O Resolve does, so tests pass fakes. A nil reader makes a
// request that needs it an error.
type Readers struct {
	// HFConfig reads a config.json (file or directory): the architecture,
	// the precision its dtype suggests for task (data/hf config.go
	// Config.Precision: bfloat16 → amp-bf16 for training, bf16 for
	// inference), and warnings.
	HFConfig func(path string, task model.Task) (model.Architecture, model.Precision, []model.Message, error)
	// Safetensors returns a with the exact parameter count of the
	// safetensors headers at path (file or directory): the count itself
	// for a model without a shape, merged into a shape by data/hf
	// config.go Config.WithCounts; and warnings.
	Safetensors func(path string, a model.Architecture) (model.Architecture, []model.Message, error)
}

// RelativeTo resolves the request's file paths (hf_config, safetensors)
// against dir, the directory of the configuration file that names them,
// so that a file and its config.json can move together. Absolute paths
// and paths starting with "~" (expanded by the reader) stay.
func (w *WorkloadAnswers) RelativeTo(dir string) {
	for _, p := range []*string{&w.HFConfig, &w.Safetensors} {
		if *p != "" && !filepath.IsAbs(*p) && (*p)[0] != '~' {
			*p = filepath.Join(dir, *p)
		}
	}
}
