package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/advice"
)

// An estimate whose figures are set by hand, so every number in the JSON
// is known; Compute fills the rest (assumptions, FLOPs).
func handEstimate(t *testing.T) (*model.Estimate, *advice.Fit) {
	t.Helper()
	g := &model.GPU{Key: "l4", Name: "NVIDIA L4", MemoryGiB: 24}
	c, err := model.Compute(model.Workload{Settings: model.Settings{Task: model.TaskLoRA}, Model: model.Architecture{Family: model.FamilyDecoder, Layers: 4, Hidden: 256, Heads: 4, KVHeads: 4, FFN: 1024, Vocab: 1000}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := &c
	e.Recipe = model.RecipeAutocast
	e.Memory = model.Memory{Weights: 4 * model.GiB, Gathered: 0.5 * model.GiB, CastCache: 2 * model.GiB,
		Buffers: 0.25 * model.GiB, Activations: 6 * model.GiB, Temporaries: 0.125 * model.GiB, Overhead: 1 * model.GiB}
	e.TorchAllocated, e.TorchReserved = 12.875*model.GiB, 13.5*model.GiB
	e.PeakPhase = model.PhaseBackward
	e.MemoryBand = [2]float64{13 * model.GiB, 16 * model.GiB}
	e.AllocatedBand = [2]float64{12 * model.GiB, 14.5 * model.GiB}
	e.ReservedBand = [2]float64{12.5 * model.GiB, 17.25 * model.GiB}
	e.HasTime, e.Hours, e.TimeBand, e.GPU = true, 2, [2]float64{1.5, 2.6}, g
	e.Phases[0] = model.PhaseMemory{Phase: model.PhaseForward, Memory: model.Memory{Weights: 4 * model.GiB, Activations: 5 * model.GiB}}
	e.Phases[1] = model.PhaseMemory{Phase: model.PhaseBackward, Memory: e.Memory}
	e.Phases[2] = model.PhaseMemory{Phase: model.PhaseStep, Memory: model.Memory{Weights: 4 * model.GiB, Temporaries: 1}}
	// 15 GiB usable of the 15.79 GiB the driver exposes (15 ÷ 0.95).
	f := &advice.Fit{GPU: g, UsableBytes: 15 * model.GiB, OOMBytes: 15 / 0.95 * model.GiB, Verdict: model.VerdictBorderline, OOMChance: 0.4273}
	return e, f
}

func TestEstimateJSONv2(t *testing.T) {
	e, f := handEstimate(t)
	b, err := json.Marshal(NewEstimateJSON(e, f))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Recipe string `json:"recipe"`
		Memory struct {
			PerGPU    map[string]int64 `json:"per_gpu_bytes"`
			Alloc     int64            `json:"torch_allocated_bytes"`
			Reserved  int64            `json:"torch_reserved_bytes"`
			PeakPhase string           `json:"peak_phase"`
			Phases    []struct {
				Phase string           `json:"phase"`
				Bytes map[string]int64 `json:"bytes"`
			} `json:"phases"`
			Band BandJSON `json:"band"`
		} `json:"memory"`
		Time *TimeJSON `json:"time"`
		GPU  struct {
			Verdict   string   `json:"verdict"`
			OOMChance *float64 `json:"oom_chance"`
			Usable    int64    `json:"usable_bytes"`
			Visible   int64    `json:"visible_bytes"`
		} `json:"gpu"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	const gib = 1 << 30
	m := v.Memory
	// 4 + 0.5 + 2 + 0.25 + 6 + 0.125 + 1 = 13.875 GiB, each part its own line.
	for k, want := range map[string]int64{"weights": 4 * gib, "gathered": gib / 2, "cast_cache": 2 * gib, "buffers": gib / 4,
		"activations": 6 * gib, "temporaries": gib / 8, "overhead": gib, "gradients": 0, "total": 13875 * gib / 1000} {
		if m.PerGPU[k] != want {
			t.Errorf("per_gpu_bytes.%s = %d, want %d", k, m.PerGPU[k], want)
		}
	}
	if m.Alloc != 12875*gib/1000 || m.Reserved != 27*gib/2 || m.PeakPhase != "backward" {
		t.Errorf("torch %d/%d peak %q", m.Alloc, m.Reserved, m.PeakPhase)
	}
	if len(m.Phases) != 3 || m.Phases[0].Phase != "forward" || m.Phases[0].Bytes["total"] != 9*gib || m.Phases[2].Phase != "optimizer" || m.Phases[2].Bytes["temporaries"] != 1 {
		t.Errorf("phases = %+v", m.Phases)
	}
	if m.Band.Low != 13*gib || m.Band.High != 16*gib || m.Band.Confidence != 0.9 {
		t.Errorf("band = %+v", m.Band)
	}
	if v.Time == nil || v.Time.Hours != 2 || v.Time.Band.Low != 1.5 || v.Time.Band.High != 2.6 {
		t.Errorf("time = %+v", v.Time)
	}
	if v.Recipe != "autocast" || v.GPU.Verdict != "borderline" {
		t.Errorf("recipe %q verdict %q", v.Recipe, v.GPU.Verdict)
	}
	if v.GPU.OOMChance == nil || *v.GPU.OOMChance != 0.45 { // 0.4273 to the nearest 0.05
		t.Errorf("oom_chance %v, want 0.45", v.GPU.OOMChance)
	}
	// 15 GiB = 16106127360 B usable; 15/0.95 GiB = 16953818273.68 B visible, rounded.
	if v.GPU.Usable != 16106127360 || v.GPU.Visible != 16953818274 {
		t.Errorf("usable_bytes %d, visible_bytes %d; want 16106127360, 16953818274", v.GPU.Usable, v.GPU.Visible)
	}
	// Two limits, each named: the usable memory the verdict weighs, and
	// all the driver exposes, which the chance of running out is of.
	// It names only advice there is: a smaller micro-batch above 1, else
	// the savings listed under it, else none.
	note := "borderline: the 90% band reaches 16.00 GiB, past the 15.00 GiB usable (the 5% margin kept free); about 45% chance of running out of memory, that is of needing more than the 15.79 GiB the driver exposes; leave room"
	mb := e.Workload.MicroBatch
	for _, tc := range []struct {
		microBatch int
		tips       []advice.Tip
		want       string
	}{
		{4, nil, note + " or take the advice of a smaller micro-batch"},
		{1, []advice.Tip{{Change: "use a chunked linear cross-entropy"}}, note + " or take a saving below"},
		{1, nil, note},
	} {
		e.Workload.MicroBatch, f.Tips = tc.microBatch, tc.tips
		if got := BorderlineNoteIn(nil, e, f); got != tc.want {
			t.Errorf("borderline note at micro-batch %d with %d tips\n got %q\nwant %q", tc.microBatch, len(tc.tips), got, tc.want)
		}
	}
	e.Workload.MicroBatch, f.Tips = mb, nil
	f.Verdict, f.OOMChance = model.VerdictFits, 0
	if b, _ := json.Marshal(NewEstimateJSON(e, f)); strings.Contains(string(b), "oom_chance") {
		t.Errorf("a fitting GPU has an oom_chance: %s", b)
	}

	// Inference: no recipe key, one phase, no time without a dataset.
	e.Recipe, e.HasTime = model.RecipeAuto, false
	e.Phases = [3]model.PhaseMemory{{Phase: model.PhaseInfer, Memory: e.Memory}}
	b, _ = json.Marshal(NewEstimateJSON(e, nil))
	s := string(b)
	if strings.Contains(s, `"recipe"`) || !strings.Contains(s, `"time":null`) || !strings.Contains(s, `"phases":[{"phase":"inference"`) {
		t.Errorf("inference JSON: %s", s)
	}
}

func TestEstimatorLines(t *testing.T) {
	e, _ := handEstimate(t)
	e.Memory = model.Memory{Activations: 15.2 * model.GiB}
	e.MemoryBand = [2]float64{14.4 * model.GiB, 16.3 * model.GiB}
	for _, tc := range []struct{ got, want string }{
		{NeedsLine(e), "needs 15.20 GiB, 14.40–16.30 GiB at 90%"},
		{TotalsLine(e), "torch allocated 12.88 GiB (12.00–14.50 GiB), reserved 13.50 GiB (12.50–17.25 GiB) at 90%; peak at backward"},
		{RecipeLine(e), "recipe autocast · loss hf-fp32"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	e.Workload.Task = model.TaskQLoRA
	e.Workload.Loss, e.Workload.QuantType, e.Workload.DoubleQuant = model.LossChunked, model.QuantFP4, model.Bool(false)
	if got, want := RecipeLine(e), "recipe autocast · loss chunked · fp4"; got != want {
		t.Errorf("qlora recipe line %q, want %q", got, want)
	}
}
