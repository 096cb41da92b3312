package launch

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch/cloud"
)

// Format is an export format, spelled as on the command line.
type Format string

// Formats Render writes.
const (
	FormatTOML     Format = "toml"     // the [launch] section of gpuplan's config TOML
	FormatSkyPilot Format = "skypilot" // SkyPilot task YAML
	FormatTorchrun Format = "torchrun" // shell script around one torchrun command
	FormatDocker   Format = "docker"   // shell script around one docker run --gpus all
	FormatK8s      Format = "k8s"      // Kubernetes batch/v1 Job, or Kubeflow Trainer TrainJob across nodes
	// FormatPyTorchJob is k8s with a Kubeflow Training Operator v1
	// PyTorchJob across nodes instead of a TrainJob.
	FormatPyTorchJob Format = "pytorchjob"
	// FormatProbe is a Python script that runs a few steps of the plan on
	// the rented GPU and prints what it measured as one JSON line. Like
	// FormatPyTorchJob it is parsed but kept out of Formats; Render does
	// not write it: package model/launch/probescript does (Train, Serve).
	FormatProbe Format = "probe"
	// FormatVLLM is the vllm serve script of a serving deployment, the
	// file FormatTorchrun writes for one (Serve.Render): the name the
	// README's "--task inference writes vllm serve" suggests. A training
	// plan has no such file (Plan.Render refuses it). Like FormatProbe it
	// is parsed but kept out of Formats, which the training and serving
	// files both take.
	FormatVLLM Format = "vllm"
)

// fileNames are the file names a launch format is written to when the
// user gives none (the configurator's export dialog) or gives a
// directory (its refusal suggests one there, as gpuplan export -o DIR's).
var fileNames = map[Format]string{
	FormatSkyPilot: "gpuplan-sky.yaml", FormatTorchrun: "gpuplan-torchrun.sh",
	FormatDocker: "gpuplan-docker.sh", FormatK8s: "gpuplan-k8s.yaml", FormatPyTorchJob: "gpuplan-k8s.yaml",
	FormatProbe: "gpuplan-probe.py",
}

// serveFileNames are the file names of the formats that write another
// kind of file for a serving deployment (Serve.Render) than for a job:
// FormatTorchrun's is a shell script around vllm serve, which a name
// saying torchrun misread (tui37). The others keep FileName's: the
// docker script runs the vLLM image, the SkyPilot YAML is a SkyServe
// service, the Kubernetes file a Deployment, the probe measures vLLM.
var serveFileNames = map[Format]string{
	FormatTorchrun: "gpuplan-vllm-serve.sh", FormatVLLM: "gpuplan-vllm-serve.sh",
}

// FileName is f's default file name (gpuplan-k8s.yaml); "" for the TOML,
// whose name is the configuration's (gpuplan.toml, or the file opened).
func (f Format) FileName() string { return fileNames[f] }

// ServeFileName is f's default file name for a serving deployment
// (Serve.Render, probescript.RenderServe): gpuplan-vllm-serve.sh for the
// vllm serve script, else FileName's; "" for the TOML.
func (f Format) ServeFileName() string {
	if n, ok := serveFileNames[f]; ok {
		return n
	}
	return f.FileName()
}

// Formats lists the formats, the default first.
// FormatPyTorchJob is parsed and rendered but not listed here, so the CLI's
// choices stay as they are until the lead adds it.
var Formats = []Format{FormatTOML, FormatSkyPilot, FormatTorchrun, FormatDocker, FormatK8s}

// ParseFormat parses a format name; "kubernetes", "sky" and "shell" are
// accepted as aliases, and "vllm" is FormatVLLM.
func ParseFormat(s string) (Format, error) {
	k := strings.ToLower(strings.TrimSpace(s))
	for _, f := range Formats {
		if string(f) == k {
			return f, nil
		}
	}
	switch k {
	case "kubernetes", "kubeflow", "trainjob":
		return FormatK8s, nil
	case "pytorchjob", "kubeflow-v1":
		return FormatPyTorchJob, nil
	case "sky", "skypilot-yaml":
		return FormatSkyPilot, nil
	case "shell", "sh":
		return FormatTorchrun, nil
	case "probe", "probe.py":
		return FormatProbe, nil
	case "deepspeed", "ds":
		// Not a file of its own: the DeepSpeed config rides in the
		// launch file of a ZeRO strategy (gpuplan-deepspeed.json).
		return "", model.Msg("DeepSpeed comes with --strategy zero1, zero2 or zero3: every format writes its config (gpuplan-deepspeed.json), e.g. --format torchrun") // the flag's error names the value
	case "vllm", "vllm-serve":
		return FormatVLLM, nil
	}
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	return "", model.Msg("format %q: want %s or %s", s, strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}

// ErrNoStack is wrapped when a format has to install software (SkyPilot's
// PyTorch wheel, the docker and Kubernetes image) and the GPU has no
// supported stack; Options.Wheel or Options.Image overrides it.
var ErrNoStack = errors.New("no supported software stack")

// Render writes the plan in format f. The output ends with a newline.
func (p *Plan) Render(f Format) ([]byte, error) {
	if f != FormatTOML && p.quantRefusal != nil {
		return nil, p.quantRefusal
	}
	switch f {
	case FormatTOML:
		return p.TOML()
	case FormatSkyPilot:
		return p.SkyPilot()
	case FormatTorchrun:
		return p.Torchrun()
	case FormatDocker:
		return p.Docker()
	case FormatK8s:
		return p.Kubernetes()
	case FormatPyTorchJob:
		q := *p
		q.K8sKind = KindPyTorchJob
		return q.Kubernetes()
	case FormatVLLM:
		return nil, model.Msg("--format vllm is the vllm serve script, for --task inference; a training job's launcher is --format torchrun")
	}
	return nil, model.Msg("format %q: want toml, skypilot, torchrun, docker, k8s or pytorchjob", f)
}

// Notes returns what the user should know before launching, one sentence
// each: the software stack, spot interruptions, idle GPUs, strategy hints.
// The renderers put them in a comment at the top (in English).
func (p *Plan) Notes() []string { return model.Strings(p.NoteMessages()) }

// NoteMessages are Notes as messages, for the CLI to print translated.
func (p *Plan) NoteMessages() []model.Message {
	out := p.Stack.NoteMessages()
	if p.NameGiven != "" {
		out = append(out, model.Msg("the name %q is written as %s: SkyPilot and Kubernetes names take lower-case letters, digits and '-' (at most 52)", p.NameGiven, p.Name))
	}
	if p.Spot() {
		out = append(out, p.spotNote())
	}
	if p.CatalogType != p.InstanceType {
		out = append(out, model.Msg("%s is GCP's %s with %d × %s attached", p.CatalogType, p.InstanceType, p.GPUsPerInstance, p.Accelerator))
	}
	if p.AcceleratorGuessed {
		out = append(out, model.Msg("SkyPilot accelerator name %s comes from gpuplan's per-GPU table (the catalog row has none): check it with sky show-gpus", p.Accelerator))
	}
	if p.Task.Training() {
		trlData := p.Dataset == PlaceholderDataset && p.Module == TRLSFTModule // said with what TRL takes
		placeModel, placeData := p.ModelID == PlaceholderModelID, p.Dataset == PlaceholderDataset && !trlData
		switch {
		case placeModel && placeData:
			out = append(out, model.Msg("replace the model id %s and the dataset %s in the script arguments", p.ModelID, p.Dataset))
		case placeModel:
			out = append(out, model.Msg("replace the model id %s in the script arguments", p.ModelID))
		case placeData:
			out = append(out, model.Msg("replace the dataset %s in the script arguments", p.Dataset))
		}
		if trlData {
			out = append(out, model.Msg(TRLDatasetNote, p.Dataset))
		}
	}
	switch {
	case p.Network.EFA > 0:
		out = append(out, model.Msg("%d EFA devices per node carry NCCL between nodes (FI_PROVIDER=efa)", p.Network.EFA))
	case p.Network.InfiniBand:
		out = append(out, model.Msg("InfiniBand between nodes: on Kubernetes through the RDMA shared device plugin (%s)", cloud.RDMAResource))
	case p.Nodes > 1 && p.Network.Tier == "":
		out = append(out, model.Msg("no fast fabric known for %s %s: NCCL may fall back to TCP between nodes", p.Provider, p.InstanceType))
	}
	if p.ProcsPerNode < p.GPUsPerInstance {
		out = append(out, model.Msg("uses %d of the %d GPUs of each %s", p.ProcsPerNode, p.GPUsPerInstance, p.InstanceType))
	}
	if p.CPUArch == "arm64" {
		out = append(out, model.Msg(model.ArmHostWarning))
	}
	if p.Task.Training() && p.Loss != "" && trlLossType(p.Loss) == "" {
		out = append(out, model.Msg("the estimate assumed the %s loss, which TRL has no --loss_type for: the script must compute it (TRL's default chunked_nll needs less memory than was priced)", p.Loss))
	}
	if p.Task.Training() && p.OptimizerInBackward {
		// Trainer has no optimizer-in-backward (transformers
		// Trainer.create_optimizer steps after backward): the script must
		// register the hooks, as torchtune's recipes do.
		out = append(out, model.Msg("the estimate assumed the optimizer steps in backward (torchtune optimizer_in_bwd): the Trainer steps after backward and holds every gradient, so the script must register Tensor.register_post_accumulate_grad_hook steps as torchtune's register_optim_in_bwd_hooks does, or run torchtune"))
	}
	if p.Task.Training() && p.Outputs == model.OutputsKept && p.Script == "" {
		// The TRL script is the Trainer's loop (training_step drops the
		// outputs before backward): the run needs less than the estimate.
		out = append(out, model.Msg("the estimate assumed a plain loop that keeps the model's outputs (--outputs kept); TRL's script runs the Hugging Face Trainer, which drops them, so it needs a little less memory than estimated"))
	}
	if p.Task.Training() && p.OffloadActivations {
		// Trainer's gradient_checkpointing keeps each checkpointed block
		// input on the GPU; only a replaced checkpoint function moves it.
		out = append(out, model.Msg(`the estimate assumed offloaded gradient checkpointing (each block's input in host RAM): Hugging Face Trainer keeps those inputs on the GPU, so run Unsloth (use_gradient_checkpointing="unsloth") or axolotl (activation_offloading: legacy), or patch transformers' checkpoint function as they do`))
	}
	if p.Module == TRLSFTModule && p.Optimizer == model.SGDMomentum {
		out = append(out, model.Msg("the estimate assumed SGD with momentum; the Trainer's --optim sgd keeps none (transformers Trainer.get_optimizer_cls_and_kwargs), so the run holds less optimizer state than was priced"))
	}
	if p.Precision == model.FP8 {
		out = append(out, model.Msg("fp8 training needs Transformer Engine or torchao in the script; the launcher passes --bf16"))
	}
	if !p.QuantNote.IsZero() {
		out = append(out, p.QuantNote)
	}
	switch {
	case p.ZeRO() > 0:
		out = append(out, model.Msg("DeepSpeed ZeRO stage %d: this file writes the config as %s, gpuplan's own file: it is removed and written afresh on every run (edits to it do not survive; a link of that name is removed, not followed), and passes it to --deepspeed (Hugging Face Trainer); install deepspeed", p.ZeRO(), DeepSpeedFile))
	case p.Strategy == model.FSDP && p.OffloadParams:
		out = append(out, model.Msg(`FSDP with CPU offload: Hugging Face Trainer shards with --fsdp "full_shard auto_wrap offload"; a custom loop passes cpu_offload=CPUOffload(offload_params=True) to FullyShardedDataParallel, or offload_policy=CPUOffloadPolicy() to fully_shard`))
	case p.Strategy == model.FSDP:
		out = append(out, model.Msg(`FSDP: Hugging Face Trainer shards with --fsdp "full_shard auto_wrap"; a custom loop wraps the model in torch.distributed.fsdp itself`))
	}
	switch {
	case p.Strategy == model.FSDP && p.HostRAMNeedGiB > 0 && p.Task == model.TaskQLoRA:
		// A quantized load skips the rank-0-only path: every rank reads
		// the shards (model.HostRAMNeed, qloraLoad).
		out = append(out, model.Msg("FSDP QLoRA loading: every process quantizes the checkpoint onto its GPU one shard at a time, and local rank 0 keeps the 4-bit weights on the CPU for FSDP to broadcast, so a node needs %.0f GiB of host RAM while loading",
			p.HostRAMNeedGiB))
	case p.Strategy == model.FSDP && p.HostRAMNeedGiB > 0:
		// fsdpLoadConfig; model.HostRAMNeed counts the one copy.
		out = append(out, model.Msg("FSDP loading: --fsdp_config cpu_ram_efficient_loading makes local rank 0 of each node read the checkpoint (%s) and broadcast it, so a node needs %.0f GiB of host RAM while loading, not one copy per process; a custom loop does the same with sync_module_states=True and meta-device weights on the other ranks",
			p.LoadDtype(), p.HostRAMNeedGiB))
	}
	if p.PriceFrom != "" { // the $/h of the summary line is not the catalog's
		out = append(out, model.Msg("the price is from overlay %s (%s, as of %s)", p.PriceFrom, p.PriceSource, p.PriceAsOf))
	}
	out = append(out, p.CallerNotes...)
	return out
}

// Summary is the one-line description at the top of every file.
func (p *Plan) Summary() string {
	node := "node"
	if p.Nodes > 1 {
		node = "nodes"
	}
	return fmt.Sprintf("%s %s on %d %s × %s %s (%d × %s each), %s, %s, $%.2f/h; %s, %s",
		p.Model, p.Task, p.Nodes, node, p.Provider, p.InstanceType, p.ProcsPerNode, p.Accelerator,
		p.RegionShown(), p.Pricing, p.USDPerHour, p.Strategy, p.Precision)
}

// RegionShown is the region as the files' headers name it: "any of N
// regions" (the tables' words, ui/report OfferRegionIn) when the catalog's
// regions for the type say where a price applies, not where it is offered
// (AnyOfRegions), else Region.
func (p *Plan) RegionShown() string { return regionShown(p.Region, p.AnyOfRegions) }

// regionShown is region as a file's header names it: "any of anyOf
// regions" when the region is one of that many price regions
// (anyOfRegions), else region. Plan.RegionShown and Serve.RegionShown.
func regionShown(region string, anyOf int) string {
	if anyOf > 0 {
		return model.Msg("any of %d regions", anyOf).String()
	}
	return region
}

// HeaderLines are the comment lines every format starts with.
func (p *Plan) HeaderLines() []string {
	lines := []string{"generated by gpuplan export: " + p.Summary()}
	if e := p.entryComment(); e != "" {
		lines = append(lines, e)
	}
	for _, n := range p.Notes() {
		lines = append(lines, "note: "+n)
	}
	return lines
}

// spotNote is the spot note: where and how often the Trainer saves, as the
// spot estimate assumed (spotCheckpoints), and what resumes the job. The
// keys spell ResumeScript's name out, so ui/i18n finds them.
func (p *Plan) spotNote() model.Message {
	why := model.Msg("the interval the spot estimate assumes, Daly's for %.3g%% interruptions a month on %v and %.2g h to write one",
		p.SpotRate.PerMonth*100, model.CountMsg(p.Nodes, "node"), p.CheckpointWriteHours)
	if p.SpotRateAssumed {
		why = model.Msg("Daly's interval for an assumed %.3g%% interruptions a month (AWS Spot Instance Advisor's highest bucket: no rate was given) on %v and %.2g h to write one",
			p.SpotRate.PerMonth*100, model.CountMsg(p.Nodes, "node"), p.CheckpointWriteHours)
	}
	every := model.Msg("every %d steps (%.2g h of %.3g s steps: %v)", p.SaveSteps, p.CheckpointEveryHours, p.StepSeconds, why)
	if p.CheckpointAtEnd {
		// τ reaches past the job: saying "every N steps (τ h)" would
		// promise checkpoints the job never writes (walk35b).
		// τ is then the job's length: the note gives Daly's own
		// interval, recommend's daly_interval_hours (a tester saw "0.59 h,
		// longer than" a 0.594 h job).
		every = model.Msg("at the end of the job only, after its %d steps: %v is %.3g h, longer than the job's %.3g h", p.SaveSteps, why, p.DalyIntervalHours, p.CheckpointJobHours)
	}
	switch {
	case p.savesEveryTau() && p.resumes():
		return model.Msg("spot capacity can be reclaimed at short notice: a checkpoint goes to %s %v, "+
			"and gpuplan_sft_resume.py resumes TRL's SFT script from the newest complete checkpoint when the job starts again",
			p.OutputDir, every)
	case p.savesEveryTau():
		return model.Msg("spot capacity can be reclaimed at short notice: a checkpoint goes to %s %v; "+
			"your script must resume from the newest one when the job starts again (Trainer.train(resume_from_checkpoint=PATH))",
			p.OutputDir, every)
	case p.resumes():
		return model.Msg("spot capacity can be reclaimed at short notice: gpuplan_sft_resume.py resumes TRL's SFT script from the newest complete checkpoint in %s when the job starts again", p.OutputDir)
	}
	return model.Msg("spot capacity can be reclaimed at short notice: checkpoint often to storage that outlives the node and resume from the last checkpoint")
}

// resumeClause says what resumes a relaunched spot job, for the
// formats' restart comments.
func (p *Plan) resumeClause() string {
	if p.resumes() {
		return ResumeScript + " resumes from the newest complete checkpoint in " + p.OutputDir
	}
	return "resume from your last checkpoint in " + p.OutputDir
}

// savesEveryTau reports whether the script arguments save every SaveSteps
// steps: the derived ones on spot, not the user's own (--script-args).
func (p *Plan) savesEveryTau() bool {
	i := slices.Index(p.ScriptArgs, "--save_steps")
	return p.SaveSteps > 0 && i >= 0 && i+1 < len(p.ScriptArgs) && p.ScriptArgs[i+1] == fmt.Sprint(p.SaveSteps)
}
