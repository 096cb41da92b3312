package model

import "testing"

// TestBandKey: FSDP/ZeRO-3 adapter training over several GPUs has its own
// memory group; the same job on one GPU, under DDP, or its time estimate
// falls in the family class.
func TestBandKey(t *testing.T) {
	tests := []struct {
		kind     string
		task     Task
		strategy Strategy
		gpus, tp int
		want     string
	}{
		{"memory", TaskLoRA, FSDP, 2, 1, "memory/sharded-adapters"},
		{"memory", TaskQLoRA, ZeRO3, 8, 1, "memory/sharded-adapters"},
		{"memory", TaskLoRA, FSDP, 2, 2, "memory/transformer"}, // one data-parallel rank: nothing sharded
		{"memory", TaskLoRA, DDP, 2, 1, "memory/transformer"},
		{"memory", TaskLoRA, ZeRO2, 2, 1, "memory/transformer"},
		{"memory", TaskFinetune, FSDP, 8, 1, "memory/transformer"},
		{"time", TaskLoRA, FSDP, 2, 1, "time/transformer"},
	}
	for _, tt := range tests {
		w := Workload{Settings: Settings{Task: tt.task, Strategy: tt.strategy, GPUs: tt.gpus, TP: tt.tp}, Model: llama2_7B}
		if got := BandKey(tt.kind, &w); got != tt.want {
			t.Errorf("%s %s %s %d GPUs TP %d: %q, want %q", tt.kind, tt.task, tt.strategy, tt.gpus, tt.tp, got, tt.want)
		}
	}
}
