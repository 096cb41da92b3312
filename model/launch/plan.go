package launch

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/model/launch/cloud"
	"github.com/gpuplan/gpuplan/model/launch/deepspeed"
	"github.com/gpuplan/gpuplan/model/launch/stack"
	"github.com/gpuplan/gpuplan/model/show"
)

// DefaultPort is torchrun's master port and our rendezvous port.
const DefaultPort = 29500

// Options are the launch choices that are neither in the workload nor in the
// offer. The zero value picks every default.
type Options struct {
	Name string // job, task and cluster name; "" is "gpuplan-" + the model key
	// Script is the user's training script torchrun runs; "" runs the
	// installed entry point for the workload (TRLSFTModule for a decoder
	// LM's fine-tuning), and workloads without one are refused by the
	// formats that start the job (ErrNoEntryPoint).
	Script string
	// ScriptArgs are passed to the script; nil derives them from the plan
	// (see Plan.ScriptArgs), an empty non-nil slice passes none.
	ScriptArgs []string
	DiskGB     int    // root disk per node, GB (10⁹ bytes); 0 sizes it with DiskSizeGB
	Image      string // container image for docker and k8s; "" is Stack.Image
	Wheel      string // PyTorch wheel variant SkyPilot installs ("cu126"); "" is Stack.Wheel
	Port       int    // master and rendezvous port; 0 is DefaultPort

	// ModelID is the Hugging Face repo id the script loads; "" takes the
	// model's repo id from the catalog (its alias with a '/'), else
	// PlaceholderModelID.
	ModelID string
	// NamedAs is the name the user gave the model (--model,
	// workload.model): one of the catalog model's "org/name" aliases is
	// the checkpoint the script loads when ModelID is "" (RepoIDAsNamed),
	// as a serving file's is (ServeOptions.NamedAs).
	NamedAs string
	// Dataset is the Hugging Face dataset id (or local path) the script
	// trains on; "" is PlaceholderDataset.
	Dataset string
	// Bucket names the object-store bucket spot checkpoints go to; "" is
	// PlaceholderBucket, which the user must replace.
	Bucket string
	// RegionGiven is true when the user named the offer's region
	// (gpuplan export --region): the files then name it even for a
	// provider whose catalog regions say where a price applies, not where
	// a type is offered (Plan.AnyOfRegions stays 0).
	RegionGiven bool
	// Where is the region and country filter of the user's search
	// (model.Query.RegionFilter: --regions, --country, the configurator's
	// regions); the zero value allows every region. An offer in a price
	// region (AnyOfRegions) stands only for the regions of its price Where
	// allows: the SkyPilot file names those (Plan.Regions), or the one
	// left, rather than none, which SkyPilot reads as any region of its
	// catalog; and so do its failover candidates (candidatesFrom).
	Where model.RegionFilter
	// Alternatives are the next-best offers of the same ranking, best first
	// (Alternatives: model.Recommend's Offers under the user's search,
	// after the chosen one). The SkyPilot file lists those that are
	// equivalent (same nodes, GPUs per node, pricing and PyTorch wheel) as
	// ordered candidates, so SkyPilot fails over to them when the first
	// has no capacity.
	Alternatives []*model.Offer
	// Kubernetes picks the Kubernetes kind for several nodes: "" or
	// KindTrainJob (Kubeflow Trainer v2), or KindPyTorchJob (Training
	// Operator v1).
	Kubernetes string
	// OutputClaim names the PersistentVolumeClaim the Kubernetes export
	// mounts at the output directory, so the trained model outlives the
	// pod; "" is DefaultOutputClaim. It must be a DNS-1123 subdomain.
	OutputClaim string
	// SpotRate is the interruption rate the spot estimate priced the offer
	// with (gpuplan export passes its spot data's rate for the offer's
	// provider, region and instance type); nil is FallbackSpotRate. A
	// spot training plan saves a checkpoint every τ of that estimate
	// (Plan.SaveSteps).
	SpotRate *decide.InterruptionRate
	// CheckpointWriteBytesPerSecond is the bandwidth a node writes a
	// checkpoint at, as the spot estimate assumed (--checkpoint-write-gbps
	// × 10⁹); 0 is decide.DefaultCheckpointWriteBytesPerSecond.
	CheckpointWriteBytesPerSecond float64
	// Notes are the caller's, said in every format's header as "note: …"
	// lines after the plan's own (gpuplan export --phase: what gpuplan
	// plan says of the phase, such as a borderline fit).
	Notes []model.Message
}

// DefaultOutputClaim is the PersistentVolumeClaim the Kubernetes export
// writes outputs to when Options.OutputClaim is empty.
const DefaultOutputClaim = "gpuplan-outputs"

// Placeholders the user must replace; each is spelled so a reader sees it
// is not real, and each is still a valid value for the tool reading it (a
// Hugging Face repo id, an S3/GCS bucket name), so the file parses.
const (
	PlaceholderModelID = "CHANGE-ME/model"
	PlaceholderDataset = "CHANGE-ME/dataset"
	PlaceholderBucket  = "change-me-gpuplan-checkpoints"
)

// Kubernetes kinds for several nodes (Options.Kubernetes).
const (
	KindTrainJob   = "TrainJob"
	KindPyTorchJob = "PyTorchJob"
)

// CheckpointDir is where spot jobs write checkpoints: the bucket's mount
// point (SkyPilot file_mounts), so they outlive a preempted node.
const CheckpointDir = "/checkpoints"

// Plan is everything the renderers need: where the job runs, how it is
// spread, how it is launched, and the software stack. NewPlan builds it; the
// fields are plain data so other front ends (the configurator's export
// dialog) can show them.
type Plan struct {
	Name string // DNS-1123 label: lowercase letters, digits and '-', ≤ 52 characters
	// NameGiven is the name as the user gave it (--name, [launch] name)
	// when Name had to change it; a note says so.
	NameGiven string
	// CallerNotes are Options.Notes, the last of NoteMessages.
	CallerNotes []model.Message
	Model       string     // display name of the model
	Task        model.Task // train, finetune, lora, qlora or inference

	Provider string // catalog provider key, which is also SkyPilot's cloud name
	// InstanceType is the type as the provider spells it: for GCP N1 GPU
	// shapes the VM type ("n1-standard-8"), the GPUs being attached
	// (Accelerator × GPUsPerInstance). CatalogType is gpuplan's catalog
	// name ("n1-standard-8+1xT4"), equal to InstanceType elsewhere.
	InstanceType string
	CatalogType  string
	Region       string
	// AnyOfRegions is the number of regions the catalog prices the type
	// in at the offer's price when the provider's regions say where a
	// price applies, not where the type is offered (model.RegionsUnconfirmed:
	// Lambda, OCI), and there are several; 0 otherwise. The files then
	// say "any of N regions" where they would name Region, and the
	// SkyPilot file names no region (skyResources). Under a search that
	// allows only some of those regions (Options.Where) it counts the
	// regions allowed, and one allowed is named as Region (0).
	AnyOfRegions int
	// Regions are the AnyOfRegions regions when the search left some of
	// the price's out, in the catalog's order: the SkyPilot file names
	// each (skyResources), so SkyPilot starts the job in none other; nil
	// when it names Region or no region. PriceRegions counts the price's
	// regions before the search narrowed them, for the file to say so.
	Regions      []string
	PriceRegions int
	Pricing      model.Pricing
	USDPerHour   float64 // the whole deployment
	// PriceFrom is the overlay file that set the price, with its source
	// and date (model.Offer.Provenance); "" for the catalog's own price.
	PriceFrom, PriceSource, PriceAsOf string

	GPU         *model.GPU
	Accelerator string // SkyPilot's accelerator name, e.g. "A100-80GB"
	// AcceleratorGuessed is true when the catalog row had no SkyPilot
	// accelerator name and Accelerator came from the per-GPU table.
	AcceleratorGuessed bool
	HostVCPUs          int     // vCPUs of one node
	HostMemoryGiB      float64 // RAM of one node, GiB
	// HostRAMNeedGiB is the peak host RAM one node needs while the job
	// loads its weights (model.NodeHostRAMNeed for ProcsPerNode
	// processes): the check the offer passed, which the Kubernetes
	// memory limit must meet; 0 when unknown (serving plans).
	HostRAMNeedGiB float64
	// CPUArch is the host's CPU architecture (model.Instance.CPUArch):
	// "arm64" (Grace, Graviton) needs arm64 wheels and images.
	CPUArch string
	// GPUsPerInstance is what the instance type has; ProcsPerNode the GPUs
	// the job uses on each node (one torchrun process per GPU), fewer when
	// the workload asked for fewer GPUs than it pays for.
	GPUsPerInstance int
	ProcsPerNode    int
	Nodes           int

	Strategy   model.Strategy
	Precision  model.Precision // what runs on the GPU, after any fallback
	MicroBatch int
	GradAccum  int
	// Epochs and MaxLength are the passes over the dataset and the tokens
	// per sample the estimate timed (MaxLength 0 for non-text models),
	// written so the script trains what was priced rather than its own
	// defaults (TrainingArguments num_train_epochs 3, SFTConfig max_length 1024).
	Epochs        float64
	MaxLength     int
	Checkpointing bool // the estimate assumed activation checkpointing
	// Loss is the language-model loss the estimate assumed
	// (Workload.LossImpl) for a decoder LM, whose script is TRL's SFT; ""
	// for other models, whose loss the estimate does not size this way.
	Loss model.Loss
	// Optimizer is the estimate's, written as the Trainer's --optim
	// (trlOptim).
	Optimizer   model.Optimizer
	LoRARank    int      // lora and qlora
	LoRATargets []string // q k v o gate up down
	// QLoRA's 4-bit format and double quantization as estimated
	// (model.Workload.FourBit), written as --bnb_4bit_quant_type and
	// --use_bnb_nested_quant so the run stores what was costed.
	QuantType   model.QuantType
	DoubleQuant bool
	// Switches are the workload's as estimated: the DeepSpeed config
	// turns on what the estimate assumed (ZeRO-Offload and the like).
	model.Switches
	// Outputs is how long the estimate assumed the loop holds the model's
	// outputs (model.Outputs); the exported TRL script runs the Trainer,
	// which drops them.
	Outputs model.Outputs

	// Script is the user's entry point (Options.Script); "" when the plan
	// runs Module. Module is the installed Python module torchrun runs
	// with -m (TRLSFTModule), "" when Script is set or there is none;
	// NoEntry then says why there is none (pre-training, encoders, vision
	// models: see entryPoint), as a message a UI translates.
	Script, Module string
	NoEntry        model.Message
	ScriptArgs     []string // see Options.ScriptArgs
	DiskGB         int
	Image          string
	Wheel          string
	Port           int

	ModelID   string // Hugging Face repo id the script loads
	Dataset   string // dataset id or path the script trains on
	Bucket    string // checkpoint bucket for spot (SkyPilot)
	OutputDir string // where the script writes checkpoints: CheckpointDir/<name> on spot, "outputs" otherwise

	Network    cloud.Network      // inter-node fabric, for several nodes
	Candidates []Candidate        // SkyPilot failover candidates after the plan's own offer
	where      model.RegionFilter // Options.Where, which the candidates are kept in
	K8sKind    string             // KindTrainJob or KindPyTorchJob for several nodes
	// OutputClaim is the PersistentVolumeClaim mounted at the output
	// directory in Kubernetes (Options.OutputClaim).
	OutputClaim string
	// cacheClaim and cacheGiB are the pod's Hugging Face cache
	// (cacheVolume): on the claim cacheClaim when set (serving's
	// --k8s-pvc, Serve.Kubernetes), else an emptyDir of cacheGiB with the
	// pod's ephemeral storage sized for it (ephemeralGiB). NewPlan sizes
	// training's from cacheWeightBytes and cacheDataBytes (trainCache); a
	// Plan built without it has neither, and an emptyDir without a size.
	cacheClaim string
	cacheGiB   int
	// cacheWeightBytes and cacheDataBytes are what training downloads
	// into HF_HOME: the checkpoint and the dataset (trainCache).
	cacheWeightBytes, cacheDataBytes float64

	Stack stack.Stack

	// Spot training checkpoints (spotCheckpoints): SaveSteps is the
	// Trainer's --save_steps, ⌊τ / StepSeconds⌋ and at least 1, so a
	// checkpoint lands every CheckpointEveryHours (τ) of compute, the
	// interval the spot cost model assumes for the offer with SpotRate and
	// CheckpointWriteHours (δ); all zero off spot, for inference and
	// without a step time.
	SaveSteps                                               int
	CheckpointEveryHours, CheckpointWriteHours, StepSeconds float64
	// CheckpointAtEnd is true when τ reaches the whole job: SaveSteps is
	// then the job's steps, one checkpoint at its end.
	CheckpointAtEnd bool
	// DalyIntervalHours is Daly's interval for SpotRate and δ before the
	// cap at the job (decide.SpotEstimate.DalyIntervalHours, recommend's
	// daly_interval_hours); CheckpointEveryHours is it capped at the job.
	// CheckpointJobHours is, with CheckpointAtEnd, the job's hours it
	// outlasts; 0 otherwise.
	DalyIntervalHours, CheckpointJobHours float64
	SpotRate                              decide.InterruptionRate
	// SpotRateAssumed is true when the caller gave no rate
	// (Options.SpotRate nil) and SpotRate is FallbackSpotRate.
	SpotRateAssumed bool

	// QuantNote says that ModelID must be a 16-bit copy of a model
	// released quantized in another format, for QLoRA
	// (model.Workload.PrequantizedQLoRA); zero otherwise.
	QuantNote model.Message
	// quantRefusal is why no launch file of this plan can start: QLoRA
	// of a release quantized in another format without --model-id naming
	// a 16-bit copy of it (Render returns it; TOML and the probe do not).
	quantRefusal error

	// Estimate is the offer's estimate the plan launches: the shape and
	// figures the probe script builds and compares with (probescript.Train).
	Estimate *model.Estimate
}

// ErrPlan is wrapped by NewPlan errors.
var ErrPlan = errors.New("cannot plan the launch")

// NewPlan builds the plan for running w on offer o, an offer model.Recommend
// returned for w. The error wraps ErrPlan when the offer cannot be launched
// as is (GPUs that do not split evenly over the nodes).
func NewPlan(w model.Workload, o *model.Offer, opt Options) (*Plan, error) {
	if o == nil || o.Instance == nil || o.GPU == nil || o.Estimate == nil {
		return nil, model.Errorf(ErrPlan, "the offer has no instance, GPU or estimate")
	}
	if err := stack.CheckWheel(opt.Wheel); err != nil { // wheel.go
		return nil, model.Errorf(ErrPlan, "wheel %v", err)
	}
	w.Defaults()
	e := o.Estimate
	ew := &e.Workload // the workload as estimated on this offer: strategy, GPUs, fallback precision
	if r := TrainingTPRefusal(ew, o.GPU); !r.IsZero() {
		return nil, model.Errorf(ErrPlan, "%v", r)
	}
	qt, dq := ew.FourBit()
	nodes := max(o.Instances, 1)
	if o.GPUs%nodes != 0 {
		// Name the count that fills the nodes (walk48: "a multiple of 11"
		// for 32 GPUs on 3-GPU instances read as if 11 were the node size).
		per := max(o.Instance.GPUCount, 1)
		return nil, model.Errorf(ErrPlan, "%d GPUs do not split evenly over %d nodes of %s (%d GPUs each); ask for %d (all the GPUs of %d nodes) or another multiple of %d",
			o.GPUs, nodes, o.Instance.Type, per, nodes*per, nodes, nodes)
	}
	accel, guessed := cloud.InstanceAccelerator(o.Instance, o.GPU)
	var priceFrom, priceSource, priceAsOf string
	if source, origin := o.Provenance(); model.FromOverlay(origin) {
		priceFrom, priceSource, priceAsOf = origin, source, o.PriceAsOf()
	}
	p := &Plan{
		PriceFrom:          priceFrom,
		PriceSource:        priceSource,
		PriceAsOf:          priceAsOf,
		Name:               opt.Name,
		Model:              ModelName(&w.Model),
		Task:               ew.Task,
		Provider:           o.Instance.Provider,
		InstanceType:       ProviderInstanceType(o.Instance.Provider, o.Instance.Type),
		CatalogType:        o.Instance.Type,
		Region:             o.Region,
		AnyOfRegions:       anyOfRegions(o.Instance, o.Region, o.Pricing),
		Pricing:            o.Pricing,
		USDPerHour:         o.USDPerHour,
		GPU:                o.GPU,
		Accelerator:        accel,
		AcceleratorGuessed: guessed,
		HostVCPUs:          o.Instance.VCPUs,
		HostMemoryGiB:      o.Instance.MemoryGiB,
		HostRAMNeedGiB:     model.NodeHostRAMNeed(e, o.GPUs/nodes) / model.GiB,
		CPUArch:            o.Instance.CPUArch,
		GPUsPerInstance:    o.Instance.GPUCount,
		ProcsPerNode:       o.GPUs / nodes,
		Nodes:              nodes,
		Strategy:           o.Strategy,
		Precision:          ew.Precision,
		MicroBatch:         ew.MicroBatch,
		GradAccum:          ew.GradAccum,
		Epochs:             ew.Epochs,
		MaxLength:          TextLength(ew),
		Checkpointing:      ew.Ckpt(),
		Loss:               lmLoss(ew),
		Optimizer:          ew.Optimizer,
		LoRARank:           ew.LoRARank,
		QuantType:          qt,
		DoubleQuant:        dq,
		Switches:           ew.Switches,
		Outputs:            ew.Outputs,
		LoRATargets:        ew.LoRATargets,
		Script:             opt.Script,
		DiskGB:             opt.DiskGB,
		Image:              opt.Image,
		Wheel:              opt.Wheel,
		Port:               opt.Port,
		Stack:              stack.Advise(o.GPU),
		ModelID:            opt.ModelID,
		Dataset:            opt.Dataset,
		Bucket:             opt.Bucket,
		K8sKind:            opt.Kubernetes,
		OutputClaim:        opt.OutputClaim,
		Estimate:           e,
	}
	if strings.HasPrefix(p.Script, "-") {
		// torchrun would read it as its own option (export --script --help
		// wrote --help into the launch line).
		return nil, model.Errorf(ErrPlan, "script %q starts with '-', which torchrun reads as an option; give its path, e.g. ./%s", p.Script, p.Script)
	}
	if p.Name == "" {
		p.Name = "gpuplan-" + slug(w.Model.Key, "custom")
	}
	if n := Name(p.Name); n != p.Name {
		if opt.Name != "" {
			p.NameGiven = p.Name
		}
		p.Name = n
	}
	if _, ok := ew.PrequantizedQLoRA(); ok {
		// The release's own quantization wins over bitsandbytes' at load
		// (model.Workload.PrequantizedQLoRA): the file loads a 16-bit
		// copy, which only the user can name (walk49: --load_in_4bit on
		// openai/gpt-oss-120b), and not the release itself by its repo id
		// (walk49: --model-id openai/gpt-oss-120b, in any case, was
		// written). The refusal is the launch files' (Render): the TOML
		// configuration names no checkpoint and the probe loads none.
		q, hint := ew.Model.QuantMethod, model.DequantizedCopyHint(ew.Model.QuantMethod)
		if p.ModelID == "" || RepoIDAsNamed(p.ModelID, &w.Model) != "" {
			named := model.Msg("give --model-id a 16-bit copy of it")
			if p.ModelID != "" {
				named = model.Msg("--model-id %s names that release; give --model-id a 16-bit copy of it", show.Quote(p.ModelID))
			}
			p.quantRefusal = model.Errorf(ErrPlan, "qlora of %s: its checkpoint is released %s-quantized, which transformers loads as it is, not with bitsandbytes' 4-bit config (quantizers/auto.py merge_quantization_configs); %v (%v)",
				ModelName(&w.Model), q, named, hint)
			p.QuantNote = model.Msg("qlora: %s is released %s-quantized, which bitsandbytes cannot quantize again: a launch file needs --model-id naming a 16-bit copy of it (%v)", ModelName(&w.Model), q, hint)
			p.ModelID = ""
		} else {
			p.QuantNote = model.Msg("qlora: %s must be a 16-bit checkpoint: %s is released %s-quantized, which bitsandbytes cannot quantize again", p.ModelID, ModelName(&w.Model), q)
		}
	}
	if p.ModelID == "" && p.quantRefusal == nil {
		// The checkpoint the user named: "meta-llama/Llama-3.1-8B-Instruct"
		// fine-tunes the Instruct model, not the catalog entry's base
		// (walk56: a LoRA of it, or of DeepSeek-R1-Distill-Llama-8B,
		// loaded meta-llama/Llama-3.1-8B without a word).
		p.ModelID = RepoIDAsNamed(opt.NamedAs, &w.Model)
	}
	if p.ModelID == "" {
		p.ModelID = hfRepoID(&w.Model)
	}
	if p.Dataset == "" {
		p.Dataset = PlaceholderDataset
	}
	if p.Bucket == "" {
		p.Bucket = PlaceholderBucket
	}
	// A name that lands as a word of a command line and starts with '-'
	// would be read as an option (--model-id=--trust-remote-code wrote
	// `vllm serve --trust-remote-code`).
	switch {
	case strings.HasPrefix(p.ModelID, "-"):
		return nil, model.Errorf(ErrPlan, "model id %q starts with '-', which the trainer would read as an option; give a Hugging Face repo id (org/name), or a local path as ./PATH", p.ModelID)
	case strings.HasPrefix(p.Dataset, "-"):
		return nil, model.Errorf(ErrPlan, "dataset %q starts with '-', which the trainer would read as an option; give a Hugging Face dataset id, or a local path as ./PATH", p.Dataset)
	case strings.HasPrefix(p.Image, "-"):
		return nil, model.Errorf(ErrPlan, "image %q starts with '-', which docker would read as an option; give an image reference such as vllm/vllm-openai:latest", p.Image)
	}
	if !ValidBucket(p.Bucket) {
		return nil, model.Errorf(ErrPlan, "bucket %q: want 3–63 lower-case letters, digits, '-', '_' or '.', starting and ending with a letter or digit (the S3 and GCS bucket naming rules)", p.Bucket)
	}
	if p.OutputClaim == "" {
		p.OutputClaim = DefaultOutputClaim
	}
	if !ValidSubdomain(p.OutputClaim) {
		return nil, model.Errorf(ErrPlan, "PersistentVolumeClaim name %q: want lower-case letters, digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters", p.OutputClaim)
	}
	p.OutputDir = "outputs"
	if p.Spot() {
		p.OutputDir = CheckpointDir + "/" + p.Name
	}
	switch p.K8sKind {
	case "", KindTrainJob:
		p.K8sKind = KindTrainJob
	case KindPyTorchJob:
	default:
		return nil, model.Errorf(ErrPlan, "Kubernetes kind %q: want %s or %s", p.K8sKind, KindTrainJob, KindPyTorchJob)
	}
	p.Network = cloud.NetworkFor(p.Provider, p.InstanceType, p.Nodes)
	if p.Script == "" {
		p.Module, p.NoEntry = entryPoint(ew)
	}
	if p.DiskGB <= 0 {
		p.DiskGB = DiskSizeGB(ew, e.Params)
	}
	p.trainCache(ew, e.Params)
	if p.Image == "" {
		p.Image = p.Stack.Image
	}
	if p.Wheel == "" {
		p.Wheel = p.Stack.Wheel
	}
	if p.Port <= 0 {
		p.Port = DefaultPort
	}
	p.spotCheckpoints(o, opt)
	p.CallerNotes = slices.Clone(opt.Notes)
	p.ScriptArgs = opt.ScriptArgs
	if p.ScriptArgs == nil {
		p.ScriptArgs = p.derivedArgs(DeepSpeedFile)
	}
	p.where = opt.Where
	if opt.RegionGiven {
		p.AnyOfRegions = 0
	} else if p.AnyOfRegions > 0 {
		p.PriceRegions = p.AnyOfRegions
		p.AnyOfRegions, p.Regions = priceRegionsIn(o.Instance, o.Region, o.Pricing, &p.where)
	}
	p.Candidates = p.candidatesFrom(opt.Alternatives)
	return p, nil
}

// Spot reports whether the plan runs on spot (preemptible) capacity.
func (p *Plan) Spot() bool { return p.Pricing == model.Spot }

// GPUs returns the GPUs the job uses across all nodes.
func (p *Plan) GPUs() int { return p.ProcsPerNode * p.Nodes }

// ZeRO returns the DeepSpeed ZeRO stage 1–3, or 0 when the strategy is not
// DeepSpeed (FSDP shards like stage 3 but is PyTorch's own).
func (p *Plan) ZeRO() int {
	if p.Strategy == model.FSDP {
		return 0
	}
	return p.Strategy.ZeROStage()
}

// DeepSpeedFile is where the DeepSpeed config is written next to the script:
// a name of our own, so running a launch file never replaces a ds_config.json
// the user keeps in that directory.
const DeepSpeedFile = "gpuplan-deepspeed.json"

// DeepSpeedConfig returns the plan's DeepSpeed config (deepspeed.Config:
// its ZeRO stage, precision, micro-batch, accumulation, GPUs and offload);
// nil for strategies other than ZeRO.
func (p *Plan) DeepSpeedConfig() []byte {
	return deepspeed.Config(deepspeed.Settings{Stage: p.ZeRO(), MicroBatch: p.MicroBatch, GradAccum: p.GradAccum, GPUs: p.GPUs(),
		Precision: p.Precision, OffloadOptimizer: p.OffloadOptimizer, OffloadParams: p.OffloadParams, Optimizer: p.Optimizer})
}

// derivedArgs are the script arguments the plan implies, spelled as Hugging
// Face Trainer's TrainingArguments flags (the convention of the transformers
// example scripts) and TRL's: --model_name_or_path (TRL ModelConfig),
// --dataset_name (TRL ScriptArguments), --output_dir, then the precision,
// --fsdp "full_shard auto_wrap" for FSDP ("full_shard auto_wrap offload"
// with CPU offload), --deepspeed FILE for ZeRO, and
// the micro-batch and gradient accumulation the estimate assumed (they
// must match the DeepSpeed config), the epochs (TrainingArguments
// num_train_epochs, default 3) and for text models the tokens per sample
// (TRL SFTConfig max_length, default 1024; named max_seq_length before
// TRL 0.16). The estimate's optimizer is --optim (trlOptim); fine-tuning
// gets TRL's recommended --learning_rate (sftLearningRate,
// loraLearningRate). LoRA and QLoRA add TRL's ModelConfig flags (trl sft and the
// TRL example scripts parse them): --use_peft, --lora_r, --lora_alpha
// (loraAlphaPerRank × r), --lora_target_modules, and for QLoRA --load_in_4bit with the estimated
// 4-bit type and double quantization (NF4 with nested quantization by
// default, as the QLoRA paper trains), sharded by FSDP or ZeRO-3 with
// --bnb_4bit_quant_storage in the load dtype. On spot, --save_strategy steps,
// --save_steps SaveSteps and --save_total_limit 2 checkpoint every τ of
// the spot cost model (resume.go). A script with its own flags takes
// Options.ScriptArgs instead. Inference gets none.
//
// Every setting whose default differs between TrainingArguments and TRL's
// SFTConfig is pinned to what the estimate assumed, so the script runs the
// job that was priced whichever of them it parses (huggingface/trl @
// f2cd57710ae3, trl/trainer/base_config.py _BaseConfig and
// trl/trainer/sft_config.py SFTConfig):
//
//   - precision: --bf16 true or --fp16 true with a value, because
//     _BaseConfig.bf16 is Optional[bool] = None ("defaults to True if fp16
//     is not set"), for which HfArgumentParser adds no nargs='?' (the
//     value is required, as for --tf32: transformers hf_argparser.py,
//     _parse_dataclass_field); fp32 and tf32 write --bf16 false, or
//     SFTConfig would train in bf16 autocast;
//   - --gradient_checkpointing true or false: _BaseConfig defaults it to
//     True ("Defaults to True instead of False"), TrainingArguments to
//     False, and it costs recomputation (time) or activation memory;
//   - --dtype, the dtype the weights are loaded in (TRL ModelConfig.dtype,
//     default "float32", which trl/scripts/sft.py passes to
//     from_pretrained): the 16-bit base the estimate sized for LoRA and
//     QLoRA (bfloat16, or float16 for an fp16 precision; for QLoRA it is
//     also bnb_4bit_compute_dtype and the dtype of the parts not
//     quantized), the 16-bit weights of a pure bf16/fp16 recipe, float32
//     for mixed precision (fp32 master weights) and fp32/tf32 (LoadDtype);
//   - --loss_type for a decoder LM (SFTConfig.loss_type: unset means
//     "chunked_nll", which never builds the full logits): the estimate's
//     hf-fp32 loss is TRL's "nll" (the model's own loss, transformers
//     ForCausalLMLoss with its fp32 upcast), its chunked loss TRL's
//     "chunked_nll". TRL has no flag for the fused and native losses:
//     Notes says so, and TRL's default uses less memory than was priced.
//
// Non-reentrant checkpointing (TRL sets use_reentrant False) stores the
// same per-layer inputs as reentrant, so no kwargs are written.
func (p *Plan) derivedArgs(deepspeedPath string) []string {
	if !p.Task.Training() {
		return []string{}
	}
	a := []string{"--model_name_or_path", p.ModelID, "--dataset_name", p.Dataset, "--output_dir", p.OutputDir}
	switch p.Precision {
	case model.AMPBF16, model.BF16, model.FP8:
		a = append(a, "--bf16", "true")
	case model.AMPFP16, model.FP16:
		a = append(a, "--fp16", "true")
	case model.TF32:
		a = append(a, "--tf32", "true", "--bf16", "false")
	case model.FP32:
		a = append(a, "--bf16", "false")
	}
	switch {
	case p.Strategy == model.FSDP && p.OffloadParams:
		// TrainingArguments' FSDPOption "offload": CPUOffload(offload_params=True).
		a = append(a, "--fsdp", "full_shard auto_wrap offload", "--fsdp_config", fsdpLoadConfig)
	case p.Strategy == model.FSDP:
		a = append(a, "--fsdp", "full_shard auto_wrap", "--fsdp_config", fsdpLoadConfig)
	case p.ZeRO() > 0:
		a = append(a, "--deepspeed", deepspeedPath)
	}
	a = append(a, "--gradient_checkpointing", strconv.FormatBool(p.Checkpointing), "--dtype", p.LoadDtype())
	if lt := trlLossType(p.Loss); lt != "" {
		a = append(a, "--loss_type", lt)
	}
	a = append(a, "--optim", trlOptim(p.Optimizer))
	switch {
	case p.Task.Adapters():
		a = append(a, "--learning_rate", loraLearningRate)
	case p.Task == model.TaskFinetune:
		a = append(a, "--learning_rate", sftLearningRate)
	}
	if p.Task.Adapters() {
		a = append(a, "--use_peft", "--lora_r", fmt.Sprint(p.LoRARank), "--lora_alpha", fmt.Sprint(loraAlphaPerRank*p.LoRARank), "--lora_target_modules")
		for _, t := range p.LoRATargets {
			a = append(a, t+"_proj") // Llama/Mistral/Qwen module names
		}
		if p.Task == model.TaskQLoRA {
			a = append(a, "--load_in_4bit", "--bnb_4bit_quant_type", string(p.QuantType))
			if p.DoubleQuant {
				a = append(a, "--use_bnb_nested_quant")
			}
			if p.Strategy == model.FSDP || p.ZeRO() == 3 {
				// Sharded, the 4-bit weights are flattened with the rest
				// only when bitsandbytes stores them in the load dtype
				// (BitsAndBytesConfig bnb_4bit_quant_storage, whose default
				// uint8 FSDP cannot flatten with bf16 parameters: PEFT's
				// "FSDP with QLoRA" and accelerate's FSDP+QLoRA guides set
				// it to the compute dtype); TRL's ModelConfig passes
				// --bnb_4bit_quant_storage to it (trl/trainer/utils.py
				// get_quantization_config @ f2cd57710ae3). walk36c: the
				// files ran FSDP QLoRA without it.
				a = append(a, "--bnb_4bit_quant_storage", p.LoadDtype())
			}
		}
	}
	if p.Epochs > 0 {
		a = append(a, "--num_train_epochs", strconv.FormatFloat(p.Epochs, 'g', -1, 64))
	}
	if p.MaxLength > 0 {
		a = append(a, "--max_length", fmt.Sprint(p.MaxLength))
	}
	a = append(a, "--per_device_train_batch_size", fmt.Sprint(p.MicroBatch),
		"--gradient_accumulation_steps", fmt.Sprint(p.GradAccum))
	if p.SaveSteps > 0 {
		// spot: a checkpoint every τ (resume.go), the last checkpointsKept
		// kept; the Trainer deletes older ones only after a new one is
		// complete (Trainer._save_checkpoint, _rotate_checkpoints).
		a = append(a, "--save_strategy", "steps", "--save_steps", fmt.Sprint(p.SaveSteps),
			"--save_total_limit", fmt.Sprint(checkpointsKept))
	}
	return a
}

// LoadDtype is the dtype the estimate sized the weights in, spelled as
// TRL's --dtype takes it (see derivedArgs).
func (p *Plan) LoadDtype() string {
	half := "bfloat16"
	if p.Precision == model.AMPFP16 || p.Precision == model.FP16 {
		half = "float16"
	}
	switch {
	case p.Precision == model.FP32 || p.Precision == model.TF32:
		return "float32"
	case p.Task.Adapters(), p.Precision == model.BF16 || p.Precision == model.FP16:
		return half
	}
	return "float32" // mixed precision keeps fp32 master weights
}

// lmLoss is the loss the estimate sized for w when its script is TRL's
// SFT (a decoder LM), else "".
func lmLoss(w *model.Workload) model.Loss {
	if w.Model.Family != model.FamilyDecoder {
		return ""
	}
	return w.LossImpl()
}

// trlLossType maps the estimate's loss to TRL SFTConfig.loss_type, "" when
// TRL has no equivalent (or there is no LM loss).
func trlLossType(l model.Loss) string {
	switch l {
	case model.LossHFUpcast:
		return "nll"
	case model.LossChunked:
		return "chunked_nll"
	}
	return ""
}

// TextLength is the tokens per sample of a text model's training job, 0
// for models that take images (their script sizes inputs itself).
func TextLength(w *model.Workload) int {
	if w.Model.Family.Vision() {
		return 0
	}
	return w.SeqLen
}

// fsdpLoadConfig is the Trainer's --fsdp_config for every FSDP job: only
// local rank 0 of each node reads the checkpoint into host RAM and FSDP
// broadcasts the weights to the other ranks, so a node holds one copy of
// the weights while loading, not one per process (model.HostRAMNeed,
// which the host-RAM check counts). Without it each of 8 processes of a
// 70B job loads its own float32 copy: 8 × 282 GB, more than a p5's 2 TiB.
//
// TrainingArguments parses a --fsdp_config value that starts with "{" as
// JSON (fsdp_config is one of its _VALID_DICT_FIELDS, __post_init__) and
// sets FSDP_CPU_RAM_EFFICIENT_LOADING from its cpu_ram_efficient_loading,
// refusing it without sync_module_states (huggingface/transformers
// src/transformers/training_args.py); from_pretrained then maps the
// checkpoint to "meta" on every rank but local rank 0 (modeling_utils.py
// load_state_dict, is_fsdp_enabled and is_local_dist_rank_0), and
// accelerate broadcasts rank 0's weights into the shards
// (huggingface/accelerate @ 16cb6eb80dd9, src/accelerate/utils/dataclasses.py
// FullyShardedDataParallelPlugin.cpu_ram_efficient_loading, "only the first
// process loads the pretrained model checkpoint while all other processes
// have empty weights"; fsdp_utils.py fsdp2_prepare_model and
// fsdp2_load_full_state_dict). An environment variable would not do: the
// Trainer writes FSDP_CPU_RAM_EFFICIENT_LOADING from fsdp_config,
// "false" when the key is absent.
const fsdpLoadConfig = `{"cpu_ram_efficient_loading": true, "sync_module_states": true}`

// argsWithConfig returns ScriptArgs with the DeepSpeed config path replaced
// by path, for renderers that mount the config elsewhere (Kubernetes).
func (p *Plan) argsWithConfig(path string) []string {
	out := make([]string, len(p.ScriptArgs))
	for i, a := range p.ScriptArgs {
		if a == DeepSpeedFile && i > 0 && p.ScriptArgs[i-1] == "--deepspeed" {
			a = path
		}
		out[i] = a
	}
	return out
}

// Disk sizing, in decimal GB like the clouds' disk sizes. The figures are
// rough on purpose; --disk-gb overrides them.
const (
	baseDiskGB          = 60  // OS, driver, a PyTorch install or NGC image, pip and dataset caches
	minDiskGB           = 100 // below this, image pulls and wheel caches alone fill the disk
	diskRoundGB         = 50
	checkpointsKept     = 2  // the last checkpoint and the one being written
	stateBytesPerParam  = 16 // mixed-precision Adam model states (Rajbhandari et al., 2020, §3.1)
	textBytesPerToken   = 4  // raw UTF-8 text: about 4 characters per English token
	imageBytesPerPixel  = 3  // RGB at the training resolution; stored JPEGs are larger images, compressed
	diskHeadroomPercent = 20
)

// DiskSizeGB returns the root disk per node, in GB (10⁹ bytes): a base for
// the software, the weights at 2 bytes per parameter (4 for fp32 and tf32),
// for full training two checkpoints of the model states (16 bytes per
// parameter), for LoRA one merged copy of the weights, and the dataset
// (4 bytes per text token, 3 bytes per pixel for images), plus 20%,
// rounded up to 50 GB and at least 100 GB.
func DiskSizeGB(w *model.Workload, params float64) int {
	weights := checkpointBytes(w, params)
	total := baseDiskGB*model.GB + weights
	switch {
	case w.Task == model.TaskTrain || w.Task == model.TaskFinetune:
		total += checkpointsKept * stateBytesPerParam * params
	case w.Task.Adapters():
		total += weights
	}
	total += datasetBytes(w)
	total *= 1 + diskHeadroomPercent/100.0
	gb := int(math.Ceil(total/model.GB/diskRoundGB)) * diskRoundGB
	return max(gb, minDiskGB)
}

// checkpointBytes is the checkpoint the job downloads, in bytes: 2 bytes
// per parameter (4 for fp32 and tf32), as DiskSizeGB counts it.
func checkpointBytes(w *model.Workload, params float64) float64 {
	if w.Precision == model.FP32 || w.Precision == model.TF32 {
		return params * 4
	}
	return params * 2
}

// datasetBytes is the dataset on disk, in bytes, as DiskSizeGB counts it:
// 4 bytes per text token, 3 bytes per pixel for images; 0 when the
// workload gives no dataset size.
func datasetBytes(w *model.Workload) float64 {
	switch {
	case w.DatasetTokens > 0:
		return w.DatasetTokens * textBytesPerToken
	case w.DatasetSamples > 0 && w.Model.Family.Vision():
		return w.DatasetSamples * float64(w.ImageSize*w.ImageSize) * imageBytesPerPixel
	case w.DatasetSamples > 0:
		return w.DatasetSamples * float64(w.SeqLen) * textBytesPerToken
	}
	return 0
}

// hfRepoID returns the model's Hugging Face repo id: the quantized
// release's the model was named by (Architecture.Release,
// "Qwen/Qwen3-32B-AWQ"), else the first catalog alias of the form
// "org/name" ("meta-llama/Llama-3.1-8B"), else PlaceholderModelID.
func hfRepoID(a *model.Architecture) string {
	if org, name, ok := strings.Cut(a.Release, "/"); ok && org != "" && name != "" {
		return a.Release // named by a quantized release's id: that checkpoint
	}
	for _, al := range a.Aliases {
		if org, name, ok := strings.Cut(al, "/"); ok && org != "" && name != "" && !strings.ContainsAny(al, " \t\n") {
			return al
		}
	}
	return PlaceholderModelID
}

// RepoIDAsNamed returns the Hugging Face repo id the user named the model
// by, when named is one of the catalog model's "org/name" aliases
// (case-insensitive; spelled as the catalog does): the catalog's Llama
// 3.1 8B stands for the base and the Instruct checkpoints alike, which
// share the architecture, and a user who picked
// "meta-llama/Llama-3.1-8B-Instruct" serves that one, not hfRepoID's base.
// "" otherwise.
func RepoIDAsNamed(named string, a *model.Architecture) string {
	named = strings.TrimSpace(named)
	if !strings.Contains(named, "/") {
		return ""
	}
	if a.Release != "" && strings.EqualFold(named, a.Release) {
		return a.Release // a quantized release of the entry, as named
	}
	for _, al := range a.Aliases {
		if strings.EqualFold(al, named) && hfRepoID(&model.Architecture{Aliases: []string{al}}) == al {
			return al
		}
	}
	return ""
}

// Name returns s as a job name every receiving tool accepts: a DNS-1035
// label (lowercase letters, digits and '-', starting with a letter, ending
// with a letter or digit) of at most 52 characters, room for "-deepspeed"
// and Kubernetes' pod suffixes within 63. Kubeflow's TrainJob and
// PyTorchJob webhooks and SkyPilot's cluster names require the leading
// letter, so a name starting with a digit gets "run-" in front:
// "8b-run" → "run-8b-run"; "Llama-3.1 8B" → "llama-3-1-8b"; "" → "gpuplan".
func Name(s string) string {
	out := slug(s, "gpuplan")
	if out[0] < 'a' || out[0] > 'z' {
		out = slug("run-"+out, "gpuplan")
	}
	return out
}

// ProviderInstanceType returns the instance type as the provider (and
// SkyPilot) spells it. gpuplan's catalog names GCP's N1 GPU shapes
// "n1-standard-8+1xT4": the VM type, then the GPUs attached to it. GCP and
// SkyPilot call the VM "n1-standard-8" and take the GPUs separately
// (SkyPilot: instance_type n1-standard-8, accelerators T4:1), so the part
// before '+' is the instance type.
func ProviderInstanceType(provider, catalogType string) string {
	if provider == "gcp" {
		if host, _, ok := strings.Cut(catalogType, "+"); ok && host != "" {
			return host
		}
	}
	return catalogType
}

func ModelName(a *model.Architecture) string {
	switch {
	case a.Name != "":
		return a.Name
	case a.Key != "":
		return a.Key
	}
	return fmt.Sprintf("custom %s model", a.Family)
}

// slug turns s into a DNS-1123 label of at most 52 characters (room for
// "-deepspeed" and Kubernetes' pod suffixes within 63), or fallback when
// nothing of s is left.
func slug(s, fallback string) string {
	return cmp.Or(show.Slug(s, 52), fallback)
}
