package model

import (
	"math"
	"slices"
	"testing"
)

// TestBandGroups: memory groups by reading, family and recipe; time by
// family, strategy and link; finest first.
func TestBandGroups(t *testing.T) {
	nvlink := &GPU{Interconnect: "nvlink"}
	pcie := &GPU{Interconnect: "pcie"}
	tests := []struct {
		kind, reading string
		task          Task
		precision     Precision
		strategy      Strategy
		gpus          int
		g             *GPU
		h             Host
		want          []string
	}{
		{"memory", "nvidia-smi", TaskLoRA, BF16, FSDP, 2, nil, Host{},
			[]string{"memory/nvidia-smi/decoder/pure16", "memory/nvidia-smi/decoder", "memory/nvidia-smi", "memory/all"}},
		{"memory", "allocated", TaskFinetune, AMPBF16, FSDP, 8, nil, Host{},
			[]string{"memory/allocated/decoder/fsdp-mixed", "memory/allocated/decoder", "memory/allocated", "memory/all"}},
		{"memory", "allocated", TaskInference, BF16, Single, 1, nil, Host{},
			[]string{"memory/allocated/decoder/inference", "memory/allocated/decoder", "memory/allocated", "memory/all"}},
		{"time", "", TaskTrain, AMPBF16, Single, 1, nvlink, Host{GPUsPerNode: 1},
			[]string{"time/decoder/single/one-gpu", "time/decoder/single", "time/decoder", "time/all"}},
		{"time", "", TaskTrain, AMPBF16, DDP, 2, pcie, Host{GPUsPerNode: 2},
			[]string{"time/decoder/ddp/pcie", "time/decoder/ddp", "time/decoder", "time/all"}},
		{"time", "", TaskTrain, AMPBF16, FSDP, 16, nvlink, Host{GPUsPerNode: 8},
			[]string{"time/decoder/fsdp/network", "time/decoder/fsdp", "time/decoder", "time/all"}},
	}
	for _, tt := range tests {
		w := Workload{Settings: Settings{Task: tt.task, Precision: tt.precision, Strategy: tt.strategy, GPUs: tt.gpus}, Model: llama2_7B}
		w.Defaults()
		if got := BandGroups(tt.kind, tt.reading, &w, tt.g, tt.h); !slices.Equal(got, tt.want) {
			t.Errorf("%s %s %s %s %d GPUs: %q, want %q", tt.kind, tt.reading, tt.task, tt.strategy, tt.gpus, got, tt.want)
		}
	}
}

// TestBandForAllocatesNothing: the estimate looks its bands up without
// building strings on the heap.
func TestBandForAllocatesNothing(t *testing.T) {
	w := Workload{Settings: Settings{Task: TaskLoRA, GPUs: 2, Strategy: FSDP}, Model: llama2_7B}
	w.Defaults()
	g := &GPU{Interconnect: "nvlink"}
	if n := testing.AllocsPerRun(10, func() {
		_ = bandFor("memory", "nvidia-smi", &w, g, Host{})
		_ = bandFor("time", "", &w, g, Host{GPUsPerNode: 8})
	}); n != 0 {
		t.Errorf("bandFor allocates %.0f times", n)
	}
}

// TestExceedance: the probability above a point is read off the band's
// quantiles, linearly between levels; the ends of the 90% range are the
// 5% points.
func TestExceedance(t *testing.T) {
	var q [BandLevels]float64
	for i := range q {
		q[i] = -0.09 + 0.01*float64(i) // log ratios −0.09 … +0.09, evenly
	}
	b := NewBand("memory/all", 40, 5, q)
	if math.Abs(b.Lo-math.Exp(-0.09)) > 1e-12 || math.Abs(b.Hi-math.Exp(0.09)) > 1e-12 {
		t.Fatalf("range %.4f–%.4f, want e^±0.09", b.Lo, b.Hi)
	}
	tests := []struct {
		x, want float64
	}{
		{math.Exp(0.09), 0.05},   // the range's top: 5% above it
		{math.Exp(0.5), 0.05},    // far above: reported as 5%
		{math.Exp(-0.09), 0.95},  // the range's bottom
		{math.Exp(-1), 0.95},     // far below
		{1, 0.5},                 // the median
		{math.Exp(0.025), 0.375}, // halfway between the 0.60 and 0.65 levels
	}
	for _, tt := range tests {
		if got := b.Exceedance(tt.x); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("Exceedance(%.4f) = %.4f, want %.4f", tt.x, got, tt.want)
		}
	}
	// Equal quantiles (a step in the distribution) divide by nothing.
	flat := NewBand("time/all", 10, 3, [BandLevels]float64{-0.1, -0.1, -0.1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.1, 0.1, 0.1})
	if got := flat.Exceedance(1); math.IsNaN(got) || got < 0.05 || got > 0.95 {
		t.Errorf("flat band: Exceedance(1) = %v", got)
	}
}

// TestOOMChance: usable memory at the band's top is a 5% chance of
// running out, at the point estimate about even.
func TestOOMChance(t *testing.T) {
	w := Workload{Settings: Settings{Task: TaskLoRA, MicroBatch: 1, SeqLen: 2048}, Model: llama2_7B}
	e, err := Compute(w, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := e.OOMChance(e.MemoryBand[1]); math.Abs(got-0.05) > 1e-6 {
		t.Errorf("usable at the band's top: %.3f, want 0.05", got)
	}
	if got := e.OOMChance(e.MemoryBand[0]); math.Abs(got-0.95) > 1e-6 {
		t.Errorf("usable at the band's bottom: %.3f, want 0.95", got)
	}
	if lo, hi := e.OOMChance(e.MemoryBand[1]*0.999), e.OOMChance(e.MemoryBand[0]*1.001); lo >= hi {
		t.Errorf("less usable memory must not lower the chance: %.3f at the top, %.3f at the bottom", lo, hi)
	}
}
