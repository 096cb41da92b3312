package launch

import (
	"math"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/decide"
)

// Spot training saves a checkpoint every τ of the spot cost model and
// resumes from the newest one when it is started again.
//
// Saving: the Trainer saves every save_steps optimizer steps with
// save_strategy "steps" into output_dir/checkpoint-<step> (transformers
// training_args.py @ 00349ae87edd, TrainingArguments save_strategy,
// save_steps, default 500, save_total_limit; trainer.py @ 000945a9b726,
// Trainer._save_checkpoint), and TRL's SFTConfig keeps those defaults
// (huggingface/trl @ f2cd57710ae3, trl/trainer/sft_config.py changes only
// logging_steps). The files pass --save_strategy steps, --save_steps
// Plan.SaveSteps and --save_total_limit checkpointsKept.
//
// Resuming: TrainingArguments.resume_from_checkpoint "is not directly used
// by Trainer, it's intended to be used by your training/evaluation scripts
// instead" (training_args.py), and TRL's SFT script calls trainer.train()
// with no argument (trl/scripts/sft.py main, the same in v1.4.0, MinTRL),
// so no flag makes it resume: a relaunched job would train from step 0
// again. Trainer.train(resume_from_checkpoint=True) takes
// get_last_checkpoint(output_dir) but raises "No valid checkpoint found"
// on the first run, and get_last_checkpoint (trainer_utils.py @
// 007360d654f3) takes the highest checkpoint-N even when a preemption cut
// its save short. So the files run TRL's script through ResumeScript, the
// smallest wrapper that resumes: it wraps transformers.Trainer.train (TRL's
// SFTTrainer and _BaseTrainer do not override train) to pass the newest
// checkpoint-N of output_dir that holds trainer_state.json, which
// _save_checkpoint writes last (after the model, optimizer, scheduler and
// RNG states) and Trainer.train reads to resume (TrainerState.load_from_json),
// and none on a first run; then it runs trl.scripts.sft as __main__
// (runpy), which parses sys.argv as before. SkyPilot's managed jobs
// restart the run section from scratch after a preemption and leave the
// resuming to the program ("The program can then reload the latest
// checkpoint when restarted": skypilot-org/skypilot @ 01b85de8b05a,
// docs/source/examples/managed-jobs.rst, "Checkpointing and recovery").

// ResumeScript is the file the spot launch files write next to the job and
// torchrun starts instead of -m TRLSFTModule (ResumeSource).
const ResumeScript = "gpuplan_sft_resume.py"

// ResumeSource is ResumeScript's text (see the comment above). No line of
// it is "EOF", the here-document's delimiter.
const ResumeSource = `# gpuplan: TRL's SFT script (python -m trl.scripts.sft), resuming from the
# newest complete checkpoint in --output_dir. trl/scripts/sft.py calls
# trainer.train() without resume_from_checkpoint, so a relaunched job would
# start over; here Trainer.train resumes from the newest checkpoint-N that
# holds trainer_state.json (the Trainer writes it last), or starts afresh.
import os
import re
import runpy

import transformers

_train = transformers.Trainer.train


def last_checkpoint(folder):
    if not os.path.isdir(folder):
        return None
    done = []
    for name in os.listdir(folder):
        m = re.fullmatch(r"checkpoint-(\d+)", name)
        if m and os.path.isfile(os.path.join(folder, name, "trainer_state.json")):
            done.append((int(m.group(1)), name))
    return os.path.join(folder, max(done)[1]) if done else None


def train(self, resume_from_checkpoint=None, *args, **kwargs):
    if resume_from_checkpoint is None:
        resume_from_checkpoint = last_checkpoint(self.args.output_dir)
        if resume_from_checkpoint and self.args.process_index == 0:
            print("gpuplan: resuming from " + resume_from_checkpoint, flush=True)
    return _train(self, resume_from_checkpoint, *args, **kwargs)


transformers.Trainer.train = train
runpy.run_module("trl.scripts.sft", run_name="__main__", alter_sys=True)
`

// FallbackSpotRate is the interruption rate a spot plan checkpoints for
// when the caller gives none (Options.SpotRate nil: the configurator's
// export): AWS Spot Instance Advisor's highest bucket, ">20%" a month, the
// pessimistic default gpuplan's spot data gives a provider without a
// published rate (data/spot_gen.go), so the file checkpoints at least as
// often as any estimate assumed.
var FallbackSpotRate = decide.InterruptionRate{PerMonth: 0.2, LowPerMonth: 0.2, Bucket: ">20%",
	Source: "assumption: no interruption rate given; AWS Spot Instance Advisor's highest bucket (>20% a month)", Assumption: true}

// maxSaveSteps bounds Plan.SaveSteps so it stays an int anywhere: 10⁹
// steps is beyond any job gpuplan prices.
const maxSaveSteps = 1e9

// spotCheckpoints sets the plan's checkpoint interval on spot training:
// δ = decide.CheckpointWriteHours(decide.CheckpointBytesPerInstance(e,
// GPUs per instance), write bandwidth), τ = decide.CheckpointInterval for
// the offer's nodes, rate and δ (its job hours when it has a job), the τ
// decide.ForOffer's spot estimate prices; the step is the estimate's,
// SamplesPerStep / SamplesPerSecond seconds; and
//
//	SaveSteps = max(1, ⌊τ·3600 / step⌋), the job's steps when τ is the job,
//
// so a checkpoint is written after at most τ of compute. Nothing is set
// without a step time or when τ is 0 (no interruptions).
func (p *Plan) spotCheckpoints(o *model.Offer, opt Options) {
	if !p.Spot() || !p.Task.Training() {
		return
	}
	e := o.Estimate
	rate, assumed := FallbackSpotRate, opt.SpotRate == nil
	if !assumed {
		rate = *opt.SpotRate
	}
	bw := opt.CheckpointWriteBytesPerSecond
	if !(bw > 0) {
		bw = decide.DefaultCheckpointWriteBytesPerSecond
	}
	delta, err := decide.CheckpointWriteHours(decide.CheckpointBytesPerInstance(e, o.Instance.GPUCount), bw)
	if err != nil {
		return
	}
	in := decide.SpotInput{Nodes: max(o.Instances, 1), Rate: rate, CheckpointWriteHours: delta}
	if o.HasJob && o.JobHours > 0 {
		in.JobHours = o.JobHours
	}
	tau := decide.CheckpointInterval(in)
	if !(tau > 0) || !(e.SamplesPerSecond > 0) || !(e.SamplesPerStep > 0) {
		return
	}
	uncapped := in
	uncapped.JobHours = 0
	daly := decide.CheckpointInterval(uncapped) // Daly's τ before the cap at the job
	step := e.SamplesPerStep / e.SamplesPerSecond
	n := max(1, math.Floor(tau*3600/step))
	atEnd := e.Steps > 0 && (in.JobHours > 0 && tau >= in.JobHours || n > e.Steps)
	if atEnd {
		n = e.Steps // τ is the whole job: one checkpoint, at the end
		// The job Daly's interval outlasts: its hours when τ reached
		// them, else its steps' compute (τ outlasts every step).
		p.CheckpointJobHours = e.Steps * step / 3600
		if in.JobHours > 0 && daly >= in.JobHours {
			p.CheckpointJobHours = in.JobHours
		}
	}
	p.SpotRate, p.SpotRateAssumed, p.CheckpointWriteHours, p.CheckpointEveryHours, p.StepSeconds = rate, assumed, delta, tau, step
	p.DalyIntervalHours, p.CheckpointAtEnd = daly, atEnd
	p.SaveSteps = int(min(n, maxSaveSteps))
}

// resumes reports whether the files run TRL's SFT script through
// ResumeScript: spot training with the installed entry point.
func (p *Plan) resumes() bool {
	return p.Spot() && p.Task.Training() && p.Script == "" && p.Module == TRLSFTModule
}

// resumeFile is the here-document that writes ResumeScript, or "" when the
// plan does not resume through it.
func (p *Plan) resumeFile() string {
	if !p.resumes() {
		return ""
	}
	return heredoc(ResumeScript, ResumeSource)
}
