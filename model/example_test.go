package model_test

import (
	"fmt"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/market"
)

// A 7B model described by its parameter count alone, fine-tuned with
// ZeRO-3 over 8 GPUs: the model states are exact (16 bytes/parameter,
// sharded 8 ways), the activations come from a generic shape.
func ExampleCompute() {
	w := model.Workload{
		Settings: model.Settings{Task: model.TaskFinetune, Precision: model.AMPBF16, GPUs: 8, Strategy: model.ZeRO3},
		Model:    model.Architecture{Family: model.FamilyDecoder, Params: 7e9},
	}
	e, err := model.Compute(w, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	states := e.States.ModelStates()
	fmt.Printf("model states %.0f GB per GPU (16 B × 7e9 / 8)\n", states/1e9)
	fmt.Printf("total above states: %v\n", e.Memory.Total() > e.Memory.ModelStates())
	// Output:
	// model states 14 GB per GPU (16 B × 7e9 / 8)
	// total above states: true
}

func ExampleParseGPUSpec() {
	cat := &model.Catalog{GPUs: []model.GPU{
		{Key: "h100-sxm", Aliases: []string{"H100"}, Vendor: "nvidia", MemoryGiB: 80},
		{Key: "a100-80gb", Aliases: []string{"A100-80GB"}, Vendor: "nvidia", MemoryGiB: 80},
	}}
	spec, _ := market.ParseGPUSpec("A100-80GB:4+", cat)
	fmt.Println(spec.Keys, spec.Count.String(""))
	_, err := market.ParseGPUSpec("H10:8", cat)
	fmt.Println(err)
	// Output:
	// [a100-80gb] 4+
	// gpu spec "H10:8": unknown GPU "H10"; did you mean H100? (list them with gpuplan catalog gpus)
}
