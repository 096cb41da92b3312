package plan

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
	"github.com/gpuplan/gpuplan/model/serve"
)

// TestLinkTrained: a serving phase after a LoRA or QLoRA phase of its
// model serves that adapter (its slots planned: serve.LoRA at the
// smallest --max-lora-rank vLLM accepts, one slot); after a full
// fine-tune it serves the fine-tuned checkpoint, said; after another
// model's training, or with no training before it, it serves what it
// names. The walk's plan exported vllm serve of the base, no adapter.
func TestLinkTrained(t *testing.T) {
	llama := modeltest.Llama31_8B
	other := llama
	other.Key, other.Name = "other-8b", "Other 8B"
	train := func(name string, task model.Task, rank int, a model.Architecture) PhaseScenario {
		ph := PhaseScenario{Name: name}
		ph.Workload = model.Workload{Settings: model.Settings{Task: task, LoRARank: rank}, Model: a}
		return ph
	}
	serving := func(name string, a model.Architecture) PhaseScenario {
		ph := PhaseScenario{Name: name}
		ph.Workload = model.Workload{Settings: model.Settings{Task: model.TaskInference}, Model: a}
		return ph.WithServing(serve.Serving{WeightFormat: serve.WeightBF16})
	}
	for _, tt := range []struct {
		name     string
		sc       Scenario
		lora     *serve.LoRA // phase 1's, the serving one
		sentence string      // in phase 1's message; "" for none
	}{
		{"LoRA rank 16, then serve: --max-lora-rank 16", Scenario{train("lora", model.TaskLoRA, 16, llama), serving("serve", llama)},
			&serve.LoRA{Name: "llama-3-1-8b-lora", Rank: 16, MaxRank: 16, MaxLoRAs: 1}, `serves the LoRA adapter phase "lora" trains`},
		{"QLoRA rank 24: --max-lora-rank 32", Scenario{train("q", model.TaskQLoRA, 24, llama), serving("serve", llama)},
			&serve.LoRA{Name: "llama-3-1-8b-q", Rank: 24, MaxRank: 32, MaxLoRAs: 1}, `--max-lora-rank 32`},
		{"rank 600 is past vLLM: the base, said", Scenario{train("big", model.TaskLoRA, 600, llama), serving("serve", llama)},
			nil, "merge it into the base"},
		{"full fine-tune: its checkpoint, said", Scenario{train("ft", model.TaskFinetune, 0, llama), serving("serve", llama)},
			nil, `after phase "ft" fine-tunes the whole model`},
		{"another model's LoRA: the base", Scenario{train("lora", model.TaskLoRA, 16, other), serving("serve", llama)}, nil, ""},
		{"serving before the training: the base", Scenario{serving("serve", llama), train("lora", model.TaskLoRA, 16, llama)}, nil, ""},
	} {
		msgs := LinkTrained(tt.sc)
		i := 1
		if tt.sc[0].Serve != nil {
			i = 0
		}
		got := tt.sc[i].Serve.LoRA
		if (got == nil) != (tt.lora == nil) || got != nil && *got != *tt.lora {
			t.Errorf("%s: LoRA %+v, want %+v", tt.name, got, tt.lora)
		}
		if m := msgs[i].String(); tt.sentence == "" && m != "" || !strings.Contains(m, tt.sentence) {
			t.Errorf("%s: message %q, want one with %q", tt.name, m, tt.sentence)
		}
	}
}
