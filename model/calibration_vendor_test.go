package model

import (
	"math"
	"strings"
	"testing"
)

// TestWidenForVendor: the band of a GPU whose vendor has no calibration
// source adds the suite's out-of-sample spread (time/all) to its own in
// quadrature on each side of the median, hand-worked on two uniform
// bands: b spans median 0 ± 0.3 (log), all spans 0 ± 0.4, so the widened
// ends are ±hypot(0.3, 0.4) = ±0.5 and every quantile scales by 5/3.
func TestWidenForVendor(t *testing.T) {
	uniform := func(h float64) Band {
		var q [BandLevels]float64
		mid := BandLevels / 2
		for i := range q {
			q[i] = h * float64(i-mid) / float64(mid)
		}
		return NewBand("time/x", 10, 3, q)
	}
	w := widenForVendor(uniform(0.3), uniform(0.4))
	q := w.Quantiles()
	if math.Abs(q[0]+0.5) > 1e-12 || math.Abs(q[BandLevels-1]-0.5) > 1e-12 {
		t.Errorf("ends %v, %v; want −0.5, 0.5", q[0], q[BandLevels-1])
	}
	if math.Abs(q[4]-(-0.3*5/9*5/3)) > 1e-12 {
		t.Errorf("q[4] = %v, want %v", q[4], -0.3*5/9*5/3)
	}
	if math.Abs(w.Lo-math.Exp(-0.5)) > 1e-12 || w.Cases != 10 || w.Sources != 3 || w.Group != "time/x" {
		t.Errorf("band %+v", w)
	}
}

// TestAMDTimeBandWider: an estimate on an AMD GPU (no calibration source
// ran on one) gets a time band wider than the same group's on NVIDIA,
// marked with the vendor, and says so in one assumption line; the
// NVIDIA estimate, the memory band and the point estimate are unchanged
// (new-user trial: MI300X ranges as narrow as H100's).
func TestAMDTimeBandWider(t *testing.T) {
	nv := &GPU{Key: "nv", Name: "NV", Vendor: "nvidia", MemoryGiB: 192, FP32TFLOPS: 60, TF32TFLOPS: 500, FP16TFLOPS: 1000, BF16TFLOPS: 1000, MemoryBandwidthGBps: 5000, ComputeCapability: "9.0"}
	amd := *nv
	amd.Key, amd.Name, amd.Vendor, amd.ComputeCapability, amd.Architecture = "amd", "AMD", "amd", "", "cdna3"
	w := Workload{Model: llama31_8B, Settings: Settings{Task: TaskFinetune, Precision: AMPBF16, Optimizer: AdamW, MicroBatch: 1, SeqLen: 2048, DatasetTokens: 1e8, Epochs: 1, GPUs: 1}}
	en := BandFor("time", "", &w, nv, Host{})
	ea := BandFor("time", "", &w, &amd, Host{})
	if en.UncalibratedVendor != "" || ea.UncalibratedVendor != "amd" {
		t.Fatalf("vendor marks %q, %q", en.UncalibratedVendor, ea.UncalibratedVendor)
	}
	if en.Group != ea.Group || !(ea.Lo < en.Lo && ea.Hi > en.Hi) {
		t.Errorf("AMD band %s ×%.3f–×%.3f not wider than NVIDIA's %s ×%.3f–×%.3f", ea.Group, ea.Lo, ea.Hi, en.Group, en.Lo, en.Hi)
	}
	if m := BandFor("memory", "nvidia-smi", &w, &amd, Host{}); m.UncalibratedVendor != "" {
		t.Errorf("memory band marked %q", m.UncalibratedVendor)
	}
	e, err := Compute(w, &amd)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := e.UncalibratedNote()
	if !ok || !strings.Contains(m.String(), "not calibrated on AMD hardware") {
		t.Errorf("note %q, %v", m.String(), ok)
	}
	if e.TimeBand[0] >= e.Hours*en.Lo || e.TimeBand[1] <= e.Hours*en.Hi {
		t.Errorf("AMD TimeBand %v not wider than ×%.3f–×%.3f of %.3g h", e.TimeBand, en.Lo, en.Hi, e.Hours)
	}
	en2, _ := Compute(w, nv)
	if _, ok := en2.UncalibratedNote(); ok {
		t.Errorf("NVIDIA estimate says it is not calibrated")
	}
}

// TestAMDBandHoldsNVIDIALinks: an AMD GPU's interconnect has no group of
// its own, so its FSDP time falls back to "time/decoder/fsdp"; its band
// holds every finer NVIDIA link group's (nvlink, network) and is wider,
// never narrower than an NVIDIA GPU's for the same job.
func TestAMDBandHoldsNVIDIALinks(t *testing.T) {
	amd := &GPU{Key: "amd", Name: "AMD", Vendor: "amd", Interconnect: "infinity-fabric"}
	w := Workload{Model: llama31_8B, Settings: Settings{Task: TaskFinetune, GPUs: 8, Strategy: FSDP}}
	b := BandFor("time", "", &w, amd, Host{GPUsPerNode: 8})
	if b.Group != "time/decoder/fsdp" || b.UncalibratedVendor != "amd" {
		t.Fatalf("band %s %q", b.Group, b.UncalibratedVendor)
	}
	for _, g := range []string{"time/decoder/fsdp", "time/decoder/fsdp/nvlink", "time/decoder/fsdp/network"} {
		c, ok := CalibrationBand(g)
		if !ok {
			t.Fatalf("no band %s", g)
		}
		if !(b.Lo < c.Lo && b.Hi > c.Hi) {
			t.Errorf("AMD ×%.3f–×%.3f does not hold %s ×%.3f–×%.3f", b.Lo, b.Hi, g, c.Lo, c.Hi)
		}
	}
}

// TestMoETrainingTimeBandWider: training a mixture-of-experts model (no
// calibration source trained one) gets a time band wider than the same
// dense workload's, in the same group, marked and said in one line; its
// serving, its memory band and a dense model's time are unchanged; on an
// AMD GPU both widenings apply and the note names both (new-user walk:
// gpt-oss-20b LoRA printed the ordinary dense range, 9 min – 39 min).
func TestMoETrainingTimeBandWider(t *testing.T) {
	nv := &GPU{Key: "nv", Name: "NV", Vendor: "nvidia", MemoryGiB: 192, FP32TFLOPS: 60, TF32TFLOPS: 500, FP16TFLOPS: 1000, BF16TFLOPS: 1000, MemoryBandwidthGBps: 5000, ComputeCapability: "9.0"}
	amd := *nv
	amd.Key, amd.Name, amd.Vendor, amd.ComputeCapability, amd.Architecture = "amd", "AMD", "amd", "", "cdna3"
	moe := llama31_8B
	moe.Experts, moe.ExpertsPerToken = 8, 2
	dense := Workload{Model: llama31_8B, Settings: Settings{Task: TaskFinetune, Precision: AMPBF16, Optimizer: AdamW, MicroBatch: 1, SeqLen: 2048, DatasetTokens: 1e8, Epochs: 1, GPUs: 1}}
	w := dense
	w.Model = moe
	bd, bm := BandFor("time", "", &dense, nv, Host{}), BandFor("time", "", &w, nv, Host{})
	if bd.UncalibratedMoE || !bm.UncalibratedMoE || bm.UncalibratedVendor != "" {
		t.Fatalf("marks dense %v, MoE %v %q", bd.UncalibratedMoE, bm.UncalibratedMoE, bm.UncalibratedVendor)
	}
	if bd.Group != bm.Group || !(bm.Lo < bd.Lo && bm.Hi > bd.Hi) {
		t.Errorf("MoE band %s ×%.3f–×%.3f not wider than dense %s ×%.3f–×%.3f", bm.Group, bm.Lo, bm.Hi, bd.Group, bd.Lo, bd.Hi)
	}
	if m := BandFor("memory", "nvidia-smi", &w, nv, Host{}); m.UncalibratedMoE {
		t.Errorf("memory band marked")
	}
	inf := w
	inf.Task = TaskInference
	if b := BandFor("time", "", &inf, nv, Host{}); b.UncalibratedMoE {
		t.Errorf("serving an MoE model marked uncalibrated")
	}
	e, err := Compute(w, nv)
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := e.UncalibratedNote(); !ok || !strings.Contains(m.String(), "mixture-of-experts") || strings.Contains(m.String(), "AMD") {
		t.Errorf("note %q, %v", m.String(), ok)
	}
	ba, bb := BandFor("time", "", &w, &amd, Host{}), BandFor("time", "", &dense, &amd, Host{})
	if !ba.UncalibratedMoE || ba.UncalibratedVendor != "amd" || !(ba.Lo < bb.Lo && ba.Hi > bb.Hi) {
		t.Errorf("AMD MoE band ×%.3f–×%.3f %v %q; AMD dense ×%.3f–×%.3f", ba.Lo, ba.Hi, ba.UncalibratedMoE, ba.UncalibratedVendor, bb.Lo, bb.Hi)
	}
	ea, err := Compute(w, &amd)
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := ea.UncalibratedNote(); !ok || !strings.Contains(m.String(), "AMD hardware nor on training a mixture-of-experts") {
		t.Errorf("AMD MoE note %q, %v", m.String(), ok)
	}
}
