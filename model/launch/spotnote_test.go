package launch

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/decide"
)

// TestSpotNoteDalyInterval: the spot note gives Daly's own interval, the
// daly_interval_hours recommend prints, not τ capped at the job, and
// compares it with the job's hours (a tester saw "Daly's … is 1.1 h,
// longer than the job" for a 1.1 h job whose Daly interval was 15 h). The
// intervals are worked by hand from J. T. Daly, FGCS 22(3), 2006, §4, as
// decide.DalyInterval cites it:
//
//	τ = √(2δM)·(1 + √ξ/3 + ξ/9) − δ,  ξ = δ / 2M,  M = 1 / (nodes × λ)
//
// with δ = 72 GB / 1 GB/s = 72 s = 0.02 h and λ per instance set through
// the monthly rate f = 1 − e^(−730·λ) (decide's PerHour inverted):
//
//	M = 1000 h: √40 = 6.3245553, ξ = 1e-5: ×(1 + 0.0010541 + 0.0000011) − 0.02 = 6.3112290 h
//	M = 500 h:  √20 = 4.4721360, ξ = 2e-5: ×(1 + 0.0014907 + 0.0000022) − 0.02 = 4.4588126 h
//	M = 100 h:  √4 = 2,          ξ = 1e-4: ×(1 + 0.0033333 + 0.0000111) − 0.02 = 1.9866889 h
//
// Steps are 36 s (36 samples a step at 1 sample/s): save_steps = ⌊τ·100⌋.
func TestSpotNoteDalyInterval(t *testing.T) {
	tests := []struct {
		name            string
		nodes           int
		lambda          float64 // interruptions per instance-hour
		jobHours, steps float64
		daly            float64 // hand-worked, above
		atEnd           bool
		saveSteps       int
		note            string
	}{
		{name: "job of 2 h, Daly 6.31 h: one checkpoint at the end", nodes: 1, lambda: 0.001, jobHours: 2, steps: 200,
			daly: 6.3112290, atEnd: true, saveSteps: 200,
			note: "at the end of the job only, after its 200 steps: the interval the spot estimate assumes, Daly's for 51.8% interruptions a month on 1 node and 0.02 h to write one is 6.31 h, longer than the job's 2 h"},
		{name: "tester's: job of 0.594 h, Daly 1.99 h (not 0.59 h)", nodes: 1, lambda: 0.01, jobHours: 0.594, steps: 59,
			daly: 1.9866889, atEnd: true, saveSteps: 59,
			note: "is 1.99 h, longer than the job's 0.594 h"},
		{name: "two nodes, job of 20 h: every ⌊4.4588·100⌋ = 445 steps", nodes: 2, lambda: 0.001, jobHours: 20, steps: 2000,
			daly: 4.4588126, saveSteps: 445,
			note: "every 445 steps (4.5 h of 36 s steps: the interval the spot estimate assumes, Daly's for 51.8% interruptions a month on 2 nodes and 0.02 h to write one)"},
		{name: "job of 3 h but its 100 steps are 1 h: Daly 1.99 h outlasts the steps", nodes: 1, lambda: 0.01, jobHours: 3, steps: 100,
			daly: 1.9866889, atEnd: true, saveSteps: 100,
			note: "is 1.99 h, longer than the job's 1 h"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rate := decide.InterruptionRate{PerMonth: -math.Expm1(-tt.lambda * model.HoursPerMonth)}
			w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, Strategy: model.Single}}
			o := &model.Offer{Instance: &model.Instance{GPUCount: 1}, Instances: tt.nodes, HasJob: true, JobHours: tt.jobHours,
				Estimate: &model.Estimate{Workload: w, States: model.Memory{Weights: 72e9},
					SamplesPerStep: 36, SamplesPerSecond: 1, Steps: tt.steps}}
			p := &Plan{Task: model.TaskFinetune, Pricing: model.Spot, Nodes: tt.nodes, Script: "train.py", OutputDir: "/checkpoints/x"}
			p.spotCheckpoints(o, Options{SpotRate: &rate, CheckpointWriteBytesPerSecond: 1e9})
			if math.Abs(p.DalyIntervalHours-tt.daly) > 1e-7 || p.CheckpointAtEnd != tt.atEnd || p.SaveSteps != tt.saveSteps {
				t.Fatalf("Daly %.8g h, at end %v, save_steps %d; want %.8g h, %v, %d",
					p.DalyIntervalHours, p.CheckpointAtEnd, p.SaveSteps, tt.daly, tt.atEnd, tt.saveSteps)
			}
			// recommend's spot estimate prints the same interval.
			if e, err := decide.SpotExpectedCost(decide.SpotInput{JobHours: tt.jobHours, Nodes: tt.nodes, Rate: rate,
				CheckpointWriteHours: p.CheckpointWriteHours}); err != nil || math.Abs(e.DalyIntervalHours-p.DalyIntervalHours) > 1e-12 {
				t.Errorf("decide's daly_interval_hours %g (%v), the file's %g", e.DalyIntervalHours, err, p.DalyIntervalHours)
			}
			p.ScriptArgs = []string{"--save_steps", strconv.Itoa(p.SaveSteps)}
			if note := p.spotNote().String(); !strings.Contains(note, tt.note) {
				t.Errorf("note:\n%s\nwant it to contain:\n%s", note, tt.note)
			}
		})
	}
}
