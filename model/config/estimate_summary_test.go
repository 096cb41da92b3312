package config_test

import (
	"math"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// TestEstimateSummaryParts: the exported [estimate] writes the memory as
// the screens show it (Memory.Parts: gathered parameters and the cast cache
// under weights, buffers under gradients, step temporaries under optimizer
// states), so its parts add up to total_gib within the rounding of the
// seven figures to 0.01 GiB (TRIAL.md L1: 5.36 + 0.1 + 35.65 + 4.02 =
// 45.13 written against a total of 45.24, the screen's 0.21 GiB optimizer
// states being 0.10 of Adam states and 0.11 of temporaries).
func TestEstimateSummaryParts(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	// Llama 3.1 8B's default LoRA adapters: rank 16 on q, k, v, o of 32
	// layers, 16 × ((4096+4096) + 2 × (4096+1024) + (4096+4096)) × 32 =
	// 13,631,488 parameters; AdamW keeps exp_avg and exp_avg_sq in fp32:
	// 8 B each = 109,051,904 B = 0.1016 GiB.
	const qloraAdamBytes = 8 * 13_631_488.0
	for _, tt := range []struct {
		name  string
		model string
		gpu   string
		s     model.Settings
		// fold says which finer part the case exercises.
		fold func(m model.Memory) float64
		// adam, when > 0, is the hand-worked Adam state bytes under
		// optimizer_states_gib beside the temporaries.
		adam float64
	}{
		{"QLoRA 8B default: temporaries under optimizer states", "llama-3.1-8b", "h100-sxm",
			model.Settings{Task: model.TaskQLoRA, MicroBatch: 4, SeqLen: 4096, Checkpointing: model.Bool(true)},
			func(m model.Memory) float64 { return m.Temporaries }, qloraAdamBytes},
		{"BERT-Large autocast fine-tune: the cast cache under weights", "bert-large", "a10g",
			model.Settings{Task: model.TaskFinetune, MicroBatch: 32, SeqLen: 384},
			func(m model.Memory) float64 { return m.CastCache }, 0},
		{"8B ZeRO-3 on 8 GPUs: gathered parameters and buffers", "llama-3.1-8b", "a100-80gb",
			model.Settings{Task: model.TaskFinetune, MicroBatch: 2, SeqLen: 2048, GPUs: 8, Strategy: model.ZeRO3, Checkpointing: model.Bool(true)},
			func(m model.Memory) float64 { return m.Gathered + m.Buffers }, 0},
		{"BERT-Large DDP on 2 GPUs: gradient buckets under gradients", "bert-large", "a100-80gb",
			// 512: BERT-Large's learned positions, the longest it runs.
			model.Settings{Task: model.TaskFinetune, MicroBatch: 1, SeqLen: 512, GPUs: 2, Strategy: model.DDP},
			func(m model.Memory) float64 { return m.Buffers }, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a, err := cat.Model(tt.model)
			if err != nil {
				t.Fatal(err)
			}
			g, err := cat.GPU(tt.gpu)
			if err != nil {
				t.Fatal(err)
			}
			w := model.Workload{Settings: tt.s, Model: *a}
			e, err := model.Compute(w, g)
			if err != nil {
				t.Fatal(err)
			}
			m := e.Memory
			if tt.fold(m) <= 0 {
				t.Fatalf("the case no longer exercises its fold: %+v", m)
			}
			s := config.NewEstimateSummary(&e)
			sum := s.WeightsGiB + s.GradientsGiB + s.OptimizerStatesGiB + s.ActivationsGiB + s.KVCacheGiB + s.OverheadGiB
			if d := math.Abs(sum - s.TotalGiB); d > 7*0.005+1e-9 {
				t.Errorf("parts %.2f + %.2f + %.2f + %.2f + %.2f + %.2f = %.2f GiB, total_gib %.2f (off by %.3f)",
					s.WeightsGiB, s.GradientsGiB, s.OptimizerStatesGiB, s.ActivationsGiB, s.KVCacheGiB, s.OverheadGiB, sum, s.TotalGiB, d)
			}
			r := func(b float64) float64 { return math.Round(b/model.GiB*100) / 100 }
			if want := r(m.Weights + m.Gathered + m.CastCache); s.WeightsGiB != want {
				t.Errorf("weights_gib %.2f, want %.2f", s.WeightsGiB, want)
			}
			if want := r(m.Gradients + m.Buffers); s.GradientsGiB != want {
				t.Errorf("gradients_gib %.2f, want %.2f", s.GradientsGiB, want)
			}
			if tt.adam > 0 {
				if math.Abs(m.OptimizerStates-tt.adam) > 1 {
					t.Errorf("Adam states %.0f B, want %.0f B by hand", m.OptimizerStates, tt.adam)
				}
				if want := r(tt.adam + m.Temporaries); s.OptimizerStatesGiB != want {
					t.Errorf("optimizer_states_gib %.2f, want %.2f (Adam %.4f GiB + temporaries %.4f GiB)", s.OptimizerStatesGiB, want, tt.adam/model.GiB, m.Temporaries/model.GiB)
				}
			}
		})
	}
}
