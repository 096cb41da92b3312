package report

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestTorchFigureBands: the torch allocated and reserved figures carry 90%
// ranges of their own, from the calibration groups of the same reading
// (memory/allocated…, memory/reserved…, finest group the suite covers
// first), in the estimate, its JSON and its text — issue 30: only the
// nvidia-smi total had one, while many sources and users read the
// allocator's figures.
func TestTorchFigureBands(t *testing.T) {
	w := model.Workload{Settings: model.Settings{Task: model.TaskLoRA},
		Model: model.Architecture{Family: model.FamilyDecoder, Layers: 4, Hidden: 256, Heads: 4, KVHeads: 4, FFN: 1024, Vocab: 1000}}
	e, err := model.Compute(w, nil)
	if err != nil {
		t.Fatal(err)
	}
	first := func(reading string) model.Band {
		for _, g := range model.BandGroups("memory", reading, &e.Workload, nil, model.Host{}) {
			if b, ok := model.CalibrationBand(g); ok {
				return b
			}
		}
		t.Fatalf("no %s band in the suite", reading)
		return model.Band{}
	}
	for _, c := range []struct {
		reading string
		x       float64
		got     [2]float64
		cal     model.Band
	}{
		{"allocated", e.TorchAllocated, e.AllocatedBand, e.AllocatedCalibration()},
		{"reserved", e.TorchReserved, e.ReservedBand, e.ReservedCalibration()},
	} {
		b := first(c.reading)
		if c.cal.Group != b.Group || !strings.HasPrefix(b.Group, "memory/"+c.reading) {
			t.Errorf("%s: band of group %q, want %q", c.reading, c.cal.Group, b.Group)
		}
		want := [2]float64{c.x * b.Lo, c.x * b.Hi}
		// The tops nest under the nvidia-smi range: reserved at most its
		// top less the memory outside the allocator, allocated at most
		// reserved's (model.Estimate, nestedTorchBands).
		if top := e.MemoryBand[1] - (e.Memory.Total() - e.TorchReserved); want[1] > top && c.reading == "reserved" {
			want[1] = max(top, c.x)
		}
		if c.reading == "allocated" {
			want[1] = min(want[1], max(e.ReservedBand[1], c.x))
		}
		if math.Abs(c.got[0]-want[0]) > 1 || math.Abs(c.got[1]-want[1]) > 1 || !(want[0] < c.x && c.x < want[1]) {
			t.Errorf("%s: range %.0f–%.0f B, want %.0f–%.0f around %.0f", c.reading, c.got[0], c.got[1], want[0], want[1], c.x)
		}
	}

	raw, err := json.Marshal(NewEstimateJSON(&e, nil))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Memory struct {
			Alloc *BandJSON `json:"torch_allocated_band"`
			Res   *BandJSON `json:"torch_reserved_band"`
		} `json:"memory"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	if v.Memory.Alloc == nil || v.Memory.Res == nil {
		t.Fatalf("JSON memory has no torch_allocated_band or torch_reserved_band: %s", raw)
	}
	if v.Memory.Alloc.Group != e.AllocatedCalibration().Group || v.Memory.Alloc.Low != float64(i64(e.AllocatedBand[0])) ||
		v.Memory.Res.High != float64(i64(e.ReservedBand[1])) || v.Memory.Res.Cases == 0 {
		t.Errorf("JSON bands %+v / %+v do not match the estimate's", *v.Memory.Alloc, *v.Memory.Res)
	}

	line := TotalsLine(&e)
	for _, want := range []string{
		fmt.Sprintf("(%.2f–%s)", e.AllocatedBand[0]/model.GiB, GiB(e.AllocatedBand[1])),
		fmt.Sprintf("(%.2f–%s)", e.ReservedBand[0]/model.GiB, GiB(e.ReservedBand[1])),
		"at 90%",
	} {
		if !strings.Contains(line, want) {
			t.Errorf("totals line %q lacks %q", line, want)
		}
	}
}
