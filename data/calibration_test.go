package data_test

import (
	"math"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
)

// TestCalibration pins each published throughput behind the MFU defaults:
// Compute with DefaultMFU must reproduce it within 20%.
func TestCalibration(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range model.Calibrations {
		t.Run(c.Case, func(t *testing.T) {
			a, err := cat.Model(c.Model)
			if err != nil {
				t.Fatal(err)
			}
			g, err := cat.GPU(c.GPU)
			if err != nil {
				t.Fatal(err)
			}
			w := model.Workload{Model: *a, Task: c.Task, Precision: c.Precision, MicroBatch: c.Batch,
				SeqLen: c.SeqLen, ImageSize: c.ImageSize, GPUs: c.GPUs, DatasetTokens: c.Tokens}
			e, err := model.Compute(w, g)
			if err != nil {
				t.Fatal(err)
			}
			got := e.SamplesPerSecond
			if c.Tokens > 0 {
				got = e.GPUHours
			}
			ratio := got / c.Published
			t.Logf("predicted %.4g vs published %.4g (%.0f%%), MFU %.2f", got, c.Published, (ratio-1)*100, e.MFU)
			if math.Abs(ratio-1) > 0.20 {
				t.Errorf("predicted %.4g, published %.4g: off by %.0f%% (> 20%%)", got, c.Published, (ratio-1)*100)
			}
		})
	}
}
