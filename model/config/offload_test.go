package config

import (
	"errors"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// The config file carries the setting: offload_optimizer = true reads back
// and writes again; with a strategy that cannot offload, Resolve names the key.
func TestOffloadOptimizerConfig(t *testing.T) {
	const in = "schema_version = 1\n[workload]\nmodel = \"llama-3.1-8b\"\ntask = \"finetune\"\nstrategy = \"zero3\"\ngpus = 8\noffload_optimizer = true\n"
	c, err := Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Workload.OffloadOptimizer {
		t.Fatal("offload_optimizer = true not read")
	}
	b, err := Encode(&c)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(b)
	if err != nil || !back.Workload.OffloadOptimizer {
		t.Fatalf("round trip lost offload_optimizer (%v):\n%s", err, b)
	}
	cat := &model.Catalog{Models: []model.Architecture{modeltest.Llama31_8B}}
	cat.Index()
	c.Workload.Strategy = model.FSDP
	var ce *Error
	if _, _, err := c.Workload.Resolve(cat, Readers{}); !errors.As(err, &ce) || ce.Key != "workload.offload_optimizer" {
		t.Errorf("Resolve with fsdp = %v, want a Error on workload.offload_optimizer", err)
	}
}
