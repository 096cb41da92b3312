package launch_test

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/model/launch"
)

// spotTRL is a spot fine-tune TRL's SFT script runs: Llama 3.1 8B with
// FSDP on two p5.48xlarge nodes.
var spotTRL = testCase{
	name: "spot_trl", instance: "p5.48xlarge",
	w: model.Workload{
		Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 2, SeqLen: 4096, GradAccum: 4, Checkpointing: model.Bool(true), GPUs: 16,
			Strategy: model.FSDP, DatasetTokens: 20e9},
		Model: llama8B,
	},
	q: model.Query{Pricing: model.Spot, AllowMultiNode: true},
}

func bucketRate(t *testing.T, label string) decide.InterruptionRate {
	t.Helper()
	r, err := decide.RateFromBucket(label, "test")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestGoldenSpotTRL: the spot fine-tune in every format, at the "5-10%"
// bucket's rate: the files write gpuplan_sft_resume.py, start it in place
// of -m trl.scripts.sft, and save every τ.
func TestGoldenSpotTRL(t *testing.T) {
	rate := bucketRate(t, "5-10%")
	p := plan(t, spotTRL, launch.Options{SpotRate: &rate})
	for _, f := range append(slices.Clone(launch.Formats), launch.FormatPyTorchJob) {
		out, err := p.Render(f)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, spotTRL.name+"."+string(f), out)
	}
}

// offerOn returns tc's offer on its instance type, as plan resolves it.
func offerOn(t *testing.T, tc testCase) *model.Offer {
	t.Helper()
	rec, err := model.Recommend(tc.w, testCatalog(), tc.q)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rec.Offers {
		if rec.Offers[i].Instance.Type == tc.instance {
			return &rec.Offers[i]
		}
	}
	t.Fatalf("%s: no offer on %s", tc.name, tc.instance)
	return nil
}

// TestSpotSaveStepsFollowTau: a spot file saves every ⌊τ / step⌋ steps,
// τ being the interval the spot cost model prices. The expected τ is
// worked here from the formulas, not from decide's functions:
//
//	δ = (weights + optimizer states + offloaded states per GPU) × 8 GPUs / bandwidth
//	λ = nodes × −ln(1 − f) / 730,  M = 1/λ,  ξ = δ / 2M
//	τ = √(2δM)·(1 + √ξ/3 + ξ/9) − δ, at most the job's hours
//	save_steps = max(1, ⌊τ·3600 / step⌋), step = samples per step / samples per second
//
// and for a job the τ equals decide.ForOffer's spot estimate's.
func TestSpotSaveStepsFollowTau(t *testing.T) {
	short := spotTRL
	short.w.DatasetTokens = 2e6 // a job of a few minutes: τ is the job, one save at the end
	noData := spotTRL
	noData.w.DatasetTokens = 0 // no job length: τ is not capped
	for _, tc := range []struct {
		name   string
		c      testCase
		bucket string // "" is a rate of zero: no interruptions
		bw     float64
	}{
		{"5-10% default bandwidth", spotTRL, "5-10%", 0},
		{"<5% 1 GB/s", spotTRL, "<5%", 1e9},
		{">20% 10 GB/s", spotTRL, ">20%", 10e9},
		{"15-20% no dataset", noData, "15-20%", 0},
		{"short job", short, ">20%", 0},
		{"no interruptions", spotTRL, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rate decide.InterruptionRate
			if tc.bucket != "" {
				rate = bucketRate(t, tc.bucket)
			}
			o := offerOn(t, tc.c)
			p := plan(t, tc.c, launch.Options{SpotRate: &rate, CheckpointWriteBytesPerSecond: tc.bw})
			e := o.Estimate
			bw := tc.bw
			if bw == 0 {
				bw = 125 * 1024 * 1024 // the gp3 baseline, decide's default
			}
			delta := (e.States.Weights + e.States.OptimizerStates + e.States.HostOffload) * 8 / bw / 3600
			var tau float64
			if tc.bucket != "" {
				lambda := float64(o.Instances) * -math.Log(1-rate.PerMonth) / 730
				m := 1 / lambda
				xi := delta / (2 * m)
				tau = math.Sqrt(2*delta*m)*(1+math.Sqrt(xi)/3+xi/9) - delta
				if o.HasJob {
					tau = min(tau, o.JobHours)
				}
			}
			step := e.SamplesPerStep / e.SamplesPerSecond
			want := 0
			switch {
			case tau > 0 && o.HasJob && tau == o.JobHours:
				want = int(e.Steps) // one checkpoint, at the end
			case tau > 0:
				want = int(max(1, math.Floor(tau*3600/step)))
			}
			if p.SaveSteps != want || math.Abs(p.CheckpointEveryHours-tau) > 1e-9*max(tau, 1) {
				t.Fatalf("save_steps %d at τ %.6g h (δ %.4g h, step %.4g s), want %d at τ %.6g h (δ %.4g h)",
					p.SaveSteps, p.CheckpointEveryHours, p.CheckpointWriteHours, p.StepSeconds, want, tau, delta)
			}
			args := strings.Join(p.ScriptArgs, " ")
			if flags := fmt.Sprintf("--save_strategy steps --save_steps %d --save_total_limit 2", want); want > 0 && !strings.HasSuffix(args, flags) {
				t.Errorf("script args end %q, want %q", args[max(0, len(args)-80):], flags)
			} else if want == 0 && strings.Contains(args, "--save_steps") {
				t.Errorf("no τ, but the script args save: %q", args)
			}
			if o.HasJob && tau > 0 {
				a := decide.SpotAssumptions{CheckpointWriteBytesPerSecond: bw, RestartHours: decide.DefaultRestartHours}
				d := decide.ForOffer(testCatalog(), o, rate, a, 0)
				if d.Spot == nil || d.Spot.CheckpointEveryHours != p.CheckpointEveryHours {
					t.Errorf("the spot estimate's τ is %+v (%s), the file's %g h", d.Spot, d.SpotErr, p.CheckpointEveryHours)
				}
			}
			if tc.c.name == short.name && tc.c.w.DatasetTokens == short.w.DatasetTokens && float64(p.SaveSteps) != e.Steps {
				t.Errorf("a job shorter than τ saves every %d steps, want its %g steps (one checkpoint at the end)", p.SaveSteps, e.Steps)
			}
			// The note says what the file does: a checkpoint every N
			// steps of τ h, or, when τ reaches the job, one at its end
			// (walk35b: "every 2100 steps (3.4 h …)" for a job of 0.2 h).
			notes := strings.Join(p.Notes(), "\n")
			if strings.Contains(notes, " 1 nodes") { // walk36b
				t.Errorf("the note counts one node as nodes:\n%s", notes)
			}
			atEnd := want > 0 && o.HasJob && tau == o.JobHours
			if p.CheckpointAtEnd != atEnd {
				t.Errorf("CheckpointAtEnd %v, want %v", p.CheckpointAtEnd, atEnd)
			}
			switch {
			case atEnd && (!strings.Contains(notes, fmt.Sprintf("at the end of the job only, after its %d steps", want)) || strings.Contains(notes, "every ")):
				t.Errorf("τ reaches the job, but the note says:\n%s", notes)
			case want > 0 && !atEnd && !strings.Contains(notes, fmt.Sprintf("every %d steps", want)):
				t.Errorf("the note does not say every %d steps:\n%s", want, notes)
			}
		})
	}
}

// TestSpotTRLCommands: every spot file starts ResumeScript under torchrun
// with arguments TRL's SFT parser accepts, saving every SaveSteps steps;
// on demand they start -m trl.scripts.sft with no save flags.
func TestSpotTRLCommands(t *testing.T) {
	rate := bucketRate(t, "5-10%")
	p := plan(t, spotTRL, launch.Options{SpotRate: &rate})
	if p.SaveSteps <= 0 {
		t.Fatalf("no save steps: %+v", p)
	}
	for f, cmds := range exportedCommands(t, p) {
		if len(cmds) != 1 {
			t.Fatalf("%s: %d torchrun commands, want 1", f, len(cmds))
		}
		_, module, script, args := splitTorchrun(t, cmds[0])
		if script != launch.ResumeScript || module != "" {
			t.Errorf("%s starts module %q script %q, want %s", f, module, script, launch.ResumeScript)
		}
		got, err := sftParser(t).parse(args)
		if err != nil {
			t.Fatalf("%s: TRL's SFT parser stops: %v", f, err)
		}
		for dest, want := range map[string]string{"save_strategy": "steps", "save_steps": fmt.Sprint(p.SaveSteps), "save_total_limit": "2",
			"output_dir": launch.CheckpointDir + "/" + p.Name} {
			if g := strings.Join(got[dest], " "); g != want {
				t.Errorf("%s: %s = %q, want %q", f, dest, g, want)
			}
		}
	}
	od := spotTRL
	od.q.Pricing = model.OnDemand
	q := plan(t, od, launch.Options{})
	for f, cmds := range exportedCommands(t, q) {
		_, module, _, args := splitTorchrun(t, cmds[0])
		if module != launch.TRLSFTModule || slices.Contains(args, "--save_steps") {
			t.Errorf("on demand, %s starts %q with %q", f, module, args)
		}
	}
}

// TestResumeScript runs ResumeSource against stand-ins for transformers
// and trl.scripts.sft: Trainer.train gets the newest checkpoint-N of
// output_dir that holds trainer_state.json (not one a preemption cut
// short, nor a file or another name), none on a first run, and a path the
// caller passes stays; sys.argv reaches the script.
func TestResumeScript(t *testing.T) {
	py := needPython(t)
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("lib/transformers/__init__.py", `
class Args:
    def __init__(self, output_dir):
        self.output_dir, self.process_index = output_dir, 0

class Trainer:
    def __init__(self, output_dir):
        self.args = Args(output_dir)
    def train(self, resume_from_checkpoint=None, trial=None):
        return resume_from_checkpoint
`)
	write("lib/trl/__init__.py", "")
	write("lib/trl/scripts/__init__.py", "")
	write("lib/trl/scripts/sft.py", `
import sys
import transformers

class SFTTrainer(transformers.Trainer):
    pass

if __name__ == "__main__":
    out = sys.argv[sys.argv.index("--output_dir") + 1]
    print("resume=%s" % SFTTrainer(out).train())
    print("given=%s" % SFTTrainer(out).train("explicit"))
`)
	write(launch.ResumeScript, launch.ResumeSource)
	run := func(out string) string {
		t.Helper()
		cmd := exec.Command(py, launch.ResumeScript, "--model_name_or_path", "m", "--output_dir", out)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PYTHONPATH="+filepath.Join(dir, "lib"))
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v\n%s", err, b)
		}
		return string(b)
	}
	out := filepath.Join(dir, "ckpt")
	if got := run(out); !strings.Contains(got, "resume=None\n") || !strings.Contains(got, "given=explicit\n") {
		t.Errorf("no output directory yet: %q", got)
	}
	for _, c := range []string{"checkpoint-5", "checkpoint-40", "checkpoint-300"} {
		write(filepath.Join("ckpt", c, "trainer_state.json"), "{}")
	}
	write("ckpt/checkpoint-500/model.safetensors", "cut short") // no trainer_state.json
	write("ckpt/checkpoint-900", "a file")
	write("ckpt/checkpoint-x/trainer_state.json", "{}")
	want := filepath.Join(out, "checkpoint-300")
	if got := run(out); !strings.Contains(got, "gpuplan: resuming from "+want+"\n") || !strings.Contains(got, "resume="+want+"\n") ||
		!strings.Contains(got, "given=explicit\n") {
		t.Errorf("want a resume from %s:\n%s", want, got)
	}
}
