package model

import (
	"cmp"
	"errors"
	"math"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
)

// Query is what the user asks of the catalog besides the workload: where,
// how to pay, how much, how fast.
type Query struct {
	Providers []string // provider keys; empty means all
	GPUs      []string // GPU keys; empty means all
	// InstanceType keeps only the instance types of this name (of the
	// providers Providers allows: name one for one type); empty means
	// all. It is how a job is matched on the one type a user names
	// (gpuplan export --instance) while the catalog stays whole for what
	// it decides as a whole: a type without a network figure is timed
	// across nodes at the median of the catalog's types of its GPU and
	// node size (matcher.host), which a catalog cut down to the one type
	// has none of (exportnet: export timed 32 H200s on such a type at an
	// assumed 10 Gbps, 556 h, where recommend said 1.8 h).
	InstanceType string
	// Regions are region names, prefixes ("us-east-1", "us-", "europe-")
	// or continents ("europe", "eu", "asia", "north-america": geo.go);
	// empty means all.
	Regions []string
	// Countries keep regions in these countries (ISO 3166-1 alpha-2 codes
	// or English names, geo.go); empty means any.
	Countries []string
	Pricing   Pricing // OnDemand when empty
	// AutoGPUs picks, per instance type, the fewest GPUs (whole instances)
	// that fit and meet DeadlineHours; otherwise the workload's GPUs are used.
	AutoGPUs bool
	// KeepStrategy keeps the workload's strategy on every offer (the user
	// named it: --strategy single or ddp): several GPUs run it as data
	// parallel, never sharded with FSDP in its place, which Recommend
	// otherwise tries when data parallel does not fit.
	KeepStrategy bool
	// MaxGPUs caps the GPUs AutoGPUs may rent ("up to 8 GPUs": a quota or a
	// budget of cards); an instance type with more GPUs is a near miss.
	// 0: no cap. Fixed GPU counts ignore it.
	MaxGPUs        int
	AllowMultiNode bool    // more than one instance may be rented
	MaxUSDPerHour  float64 // 0: no limit
	BudgetMonthUSD float64 // 0: no limit
	// BudgetJobUSD caps the whole job's cost (JobUSD), for a one-off job
	// that the monthly budget (price × hours per month) would misjudge;
	// 0: no limit. Offers without a job time (no dataset) pass.
	BudgetJobUSD float64
	// HoursPerMonth are the hours used a month, billed on demand and on
	// spot; a reserved term bills all of the month whatever is used
	// (MonthlyUSD). 0 means HoursPerMonth (730).
	HoursPerMonth float64
	DeadlineHours float64 // 0: none
	Sort          SortKey // "" picks job cost when a dataset is given, else price
	MaxNodes      int     // multi-node limit; 0 means 64
	// ExchangeRates are USD per unit of a currency ("CNY": 0.14), for
	// overlays priced in other currencies; without a rate they are not
	// ranked.
	ExchangeRates map[string]float64

	// AllowPrecisionFallback lets a GPU without the precision asked for
	// run the framework's fallback (GPU.RunPrecision: amp-bf16 → amp-fp16,
	// bf16 → fp16, fp8 → bf16); otherwise its offers are near misses
	// naming it.
	AllowPrecisionFallback bool
	// PrecisionAsked says the user named the precision (--precision typed
	// on the command line). Only a precision left to its default adapts to
	// the GPU without AllowPrecisionFallback, as vLLM's --dtype auto loads
	// bf16 weights in fp16 where the GPU has no bf16
	// (vllm/config/model.py _resolve_auto_dtype): the default amp-bf16
	// runs amp-fp16 on a T4 or V100, and inference's default bf16 runs
	// fp16 there, an amp-bf16 or bf16 asked for does not (PrecisionKept).
	// fp8, and inference's bf16 of a model that overflows fp16
	// (FP16Overflows: T5, Gemma 2 and 3), never adapt on their own.
	PrecisionAsked bool

	// SpotView gives, under spot pricing, an offer as the views show and
	// rank it: its expected job time and cost with interruptions, and its
	// chance of missing the deadline on them (report.SpotView, as
	// report.Decide's spotShown); ok false keeps the offer's own. The
	// hosts of one provider, region and GPU are weighed on it (lessHost),
	// so the host kept is the one the ranking of the shown figures puts
	// first: an instance type reclaimed more often, or whose checkpoint
	// takes longer, no longer stands for its GPU in its region because its
	// uninterrupted job was the cheaper. Offers keep their own figures.
	// Read only when Pricing is Spot; nil: the offers' own. It may be
	// called from several goroutines at once.
	SpotView func(o *Offer) (view Offer, ok bool)
}

// SortKey orders offers.
type SortKey string

// Sort keys, spelled as on the command line.
const (
	SortPrice    SortKey = "price"    // USD per hour
	SortMonthly  SortKey = "monthly"  // USD per month
	SortJob      SortKey = "job"      // USD for the whole job
	SortTime     SortKey = "time"     // job hours
	SortHeadroom SortKey = "headroom" // most free VRAM first
)

// SortKeys lists the valid sort keys.
var SortKeys = []SortKey{SortPrice, SortMonthly, SortJob, SortTime, SortHeadroom}

// ParseSortKey parses a sort key.
func ParseSortKey(s string) (SortKey, error) {
	return ParseEnum(s, Verbatim("sort"), SortKeys, sortAliases)
}

var sortAliases = map[string]SortKey{"cost": SortJob, "hourly": SortPrice, "month": SortMonthly, "fastest": SortTime}

// Offer is one way to run the workload: Instances of one instance type in
// one region at one pricing mode. Prices belong to that region and mode.
type Offer struct {
	Instance *Instance
	GPU      *GPU
	Region   string
	// Geo is where Region is (Catalog.Geo): country, city, continent;
	// zero when the catalog does not know.
	Geo     RegionGeo
	Pricing Pricing
	// Discount is the discount a reserved Pricing's price comes from
	// (Catalog.DiscountFor); nil otherwise. An overlay's makes the price
	// the overlay's (Provenance).
	Discount *Discount
	// Redefined is the accepted (--trust-overlay) overlay entry that
	// redefines GPU, or gives it an embedded GPU's name
	// (Catalog.GPURedefinition); nil for a GPU as the embedded catalog
	// has it. WarningMessages names it on the row (attack round 12, F4).
	Redefined *Redefinition

	Instances int // instances (nodes) rented
	GPUs      int // GPUs the job uses; Instances × Instance.GPUCount unless the user fixed fewer
	Strategy  Strategy
	// Replaced is, when Strategy is not the workload's own layout (FSDP
	// where no strategy is named and DDP gave way: pickLayout), the own
	// layout's verdict on these GPUs: VerdictBorderline when it fit only
	// at the estimate, else VerdictNoFit (memory, host RAM or the
	// deadline); "" when Strategy is the workload's own.
	Replaced FitVerdict

	NeedBytes   float64 // per-GPU VRAM the workload needs on this GPU
	UsableBytes float64 // per-GPU VRAM available after FitMargin
	HeadroomPct float64 // (usable − need) / usable × 100
	// Verdict weighs the estimate's 90% memory band against UsableBytes
	// (VerdictFor), as estimate does: an offer fits at the point estimate
	// but is borderline when the top of the band is past the usable memory.
	Verdict FitVerdict
	// OOMChance is, for a borderline offer, the probability (0.05–0.95)
	// that the job needs more than the memory the driver exposes
	// (OOMBytes, Estimate.OOMChance): the chance of running out of
	// memory, not of eating into FitMargin; 0 otherwise.
	OOMChance float64

	USDPerHour float64 // the whole deployment
	// MonthlyUSD is USDPerHour × the hours a month billed: the query's
	// hours per month, at least 730 on a reserved term, which bills every
	// month in full (func MonthlyUSD).
	MonthlyUSD float64
	// JobHours and JobUSD are the whole job's wall-clock time and cost;
	// HasJob is false without a dataset (or without a compute rate for the GPU).
	JobHours, JobUSD float64
	HasJob           bool
	// CommitmentUSD is what a reserved term bills whatever is used
	// (CommitmentHours × USDPerHour); JobUSD is at least this. 0 for
	// on-demand and spot.
	CommitmentUSD float64
	// OnDemandUSDPerHour is the same deployment's on-demand price, for
	// offers in another pricing mode (reserved, spot) to be weighed
	// against; 0 in on-demand mode or when the region has none.
	OnDemandUSDPerHour float64
	// SizedGPUs is the fewest GPUs of this type the job needs (memory,
	// not risky to run out of it unless this offer is, and deadline),
	// 0 when unknown; GPUs rented beyond it
	// (Rented) sit idle (a fixed --gpus on a bigger host) or only speed
	// the job up (auto GPUs on a bigger host). See Oversized.
	SizedGPUs int

	// LateChance is, when the deadline falls inside the 90% range of the
	// job's time (Estimate.TimeBand: it meets the deadline at the range's
	// fast end, not at its slow end), the probability (0.05–0.95) that the
	// job takes longer (Estimate.OverrunChance); 0 when the slow end meets
	// it or without a deadline. Such an offer ranks after every one that
	// meets the deadline at the slow end; DeadlineHours is the deadline
	// it was weighed against, for its warning.
	LateChance    float64
	DeadlineHours float64

	// Fallback is the precision the GPU runs instead of Asked (amp-fp16
	// for amp-bf16 without bf16); empty when it runs as asked.
	Asked, Fallback Precision
	Estimate        *Estimate // shared between offers of the same GPU, count and host
}

// Rejection is a near miss: an instance type that does not run the
// workload, with the reason in words.
type Rejection struct {
	Instance   *Instance
	Region     string
	USDPerHour float64 // what it would cost, all Instances together (0 when unknown)
	Instances  int     // instances the job would rent (nodes); 0 or 1 is one
	Reason     string  // "needs 41.2 GiB per GPU, has 38.0 GiB usable"
	ReasonMsg  Message // Reason as a message, for translation
	Kind       RejectKind
	// ShortBytes is how far the offer is from fitting: the VRAM per GPU
	// the job needs above what the GPU has usable (RejectVRAM), else 0.
	ShortBytes float64
	// JobUSD is the whole job's cost when a job budget rejected the offer
	// (RejectJobBudget), else 0: such misses are nearest by it, not by the
	// hourly price (a cheap slow GPU can cost more for the job).
	JobUSD float64
	// NetworkAssumed is set on a deadline miss whose time rests on
	// AssumedNetworkGbps (the type has no network figure in the catalog):
	// its reason says so, and it ranks first among the near misses, so
	// that a host a real network figure may well make fit is not dropped
	// silently (issue 30: Nebius 8×H100 InfiniBand nodes timed at 10 Gbps).
	NetworkAssumed bool
}

// RejectKind classifies rejections, to say which filter removed the offers.
type RejectKind string

// Rejection kinds.
const (
	RejectVRAM      RejectKind = "GPU memory"
	RejectHostRAM   RejectKind = "host RAM"
	RejectPrecision RejectKind = "precision support"
	RejectSoftware  RejectKind = "framework support"
	RejectGPUCount  RejectKind = "GPUs per instance (multi-node not allowed)"
	RejectNodes     RejectKind = "node limit"
	RejectGPULimit  RejectKind = "GPU limit" // Query.MaxGPUs
	RejectPrice     RejectKind = "price per hour"
	RejectBudget    RejectKind = "monthly budget"
	RejectJobBudget RejectKind = "job budget"
	RejectDeadline  RejectKind = "deadline"
	RejectInvalid   RejectKind = "invalid deployment"
	// RejectBatch: the instance's GPUs cannot share the job's global batch
	// in whole samples (Workload.OnGPUs), so renting them would change it.
	RejectBatch RejectKind = "global batch"
)

// ReasonCount is how many offers one kind of rejection removed.
type ReasonCount struct {
	Kind  RejectKind
	Count int
}

// Recommendation is the result of Recommend: offers in ranked order and
// the cheapest near misses.
type Recommendation struct {
	Offers   []Offer
	Rejected []Rejection
	// Reasons counts every rejected offer (instance × region) by kind,
	// most first: what the filters removed.
	Reasons    []ReasonCount
	Considered int // offers with a price in the pricing mode asked
	Sort       SortKey
	AutoGPUs   bool // each offer picked its own GPU count
	// AsOf is the catalog's date (Catalog.AsOf, YYYY-MM-DD), from which
	// the offers' Offer.PriceAgeDays count.
	AsOf string

	// estimates is what this Recommend estimated, for advice.Savings to start
	// from: its first eval is this same workload and query, and would
	// otherwise estimate every GPU type again. Never written after
	// Recommend returns (advice.Savings works on a copy) but for the whole
	// Estimate of a cached summary, built once when an offer first needs
	// it and stored atomically (estimateResult.full), so a Recommendation
	// stays safe to share.
	estimates *sharedEstimates
}

// ErrNoOffers is wrapped when no instance in the catalog passes the
// filters at all (not when none fits: see Recommendation.Rejected).
var ErrNoOffers = errors.New("no offers")

// Host RAM rules (per instance): the peak while the checkpoint is loaded,
// which is what a node holds before the weights reach the GPUs.
//
// There is no rule for a vision job's data loaders: a DataLoader streams
// samples from storage, and what its workers hold at once is
// num_workers × prefetch_factor batches (torch.utils.data.DataLoader:
// prefetch_factor, default 2, "batches loaded in advance by each
// worker"), which depend on settings gpuplan does not ask, not on the
// dataset's size. A former 64 GB floor for ImageNet-sized datasets had no
// source and ruled out 237 offers for ResNet-50 (issue 31).
const MinHostRAMBytes = 8 * GiB // operating system, Python and the framework

// LoadBytesPerParam returns the bytes per parameter of the weights as the
// training script loads them into host memory: the dtype the exported
// script passes to from_pretrained (TRL's --dtype, launch.Plan.LoadDtype,
// which a test holds equal to this): 4 for fp32 and tf32 and for mixed
// precision (the fp32 master weights the estimate sized, Micikevicius et
// al. 2018, §3.1, loaded as float32 so that accelerate's FSDP2 does not
// upcast a 16-bit copy on every rank: huggingface/accelerate @ 16cb6eb80dd9,
// src/accelerate/utils/fsdp_utils.py fsdp2_prepare_model, "Upcast to fp32
// master weights"), 2 for pure bf16/fp16, LoRA and QLoRA (a 16-bit base;
// QLoRA quantizes it to 4 bits as it loads) and inference.
func LoadBytesPerParam(w *Workload) float64 {
	switch {
	case w.Precision == FP32 || w.Precision == TF32:
		return 4
	case !w.Task.Training(), w.Task.Adapters(), w.Precision == BF16 || w.Precision == FP16:
		return 2
	}
	return 4 // mixed precision keeps fp32 master weights
}

// oneLoadCopy reports whether a node holds one copy of w's weights in
// host RAM while its processes (one per GPU) load them, else one a
// process:
//
//   - FSDP (not QLoRA): one. The exported script sets the Trainer's
//     fsdp_config cpu_ram_efficient_loading (with sync_module_states), so
//     only local rank 0 of each node reads the checkpoint and the others
//     keep meta/empty tensors that FSDP fills by broadcast from rank 0
//     (huggingface/transformers src/transformers/training_args.py,
//     TrainingArguments FSDP setup: FSDP_CPU_RAM_EFFICIENT_LOADING;
//     modeling_utils.py load_state_dict: map_location "meta" when
//     is_fsdp_enabled() and not is_local_dist_rank_0(); accelerate
//     fsdp_utils.py fsdp2_load_full_state_dict, dist.broadcast from src 0).
//     Transformers v5 releases whose _move_missing_keys_from_meta_to_device
//     gives those ranks torch.zeros_like placeholders on the CPU commit a
//     copy per rank instead: docs/launch.md says so.
//   - ZeRO-3: one. from_pretrained builds the model under
//     deepspeed.zero.Init, partitioned as it is built, and ranks above 0
//     map a torch.load checkpoint to "meta" (same load_state_dict;
//     safetensors shards are memory-mapped and read one at a time); the
//     weights are written through GatheredParameters with modifier_rank 0
//     (transformers integrations/deepspeed.py _load_state_dict_into_zero3_model).
//     Read from the sources, not measured.
//   - inference, and QLoRA with LitGPT or torchtune: one, the former
//     rule; not measured. QLoRA with Hugging Face holds no whole copy
//     (qloraLoad), so HostRAMNeed does not count it in copies.
//   - everything else (single, DDP, ZeRO-1/2): every process calls
//     from_pretrained and holds its own copy before moving it to its GPU,
//     so one copy a process (false).
func oneLoadCopy(w *Workload) bool {
	return !w.Task.Training() || w.Task == TaskQLoRA || w.Strategy == FSDP || w.Strategy.ZeROStage() == 3
}

// LoadShardBytes is the most of a checkpoint transformers holds in host
// RAM at once while it quantizes it onto a GPU (qloraLoad): one
// safetensors shard, which save_pretrained cuts at max_shard_size "5GB"
// (5 × 10⁹ bytes) by default; the Hub's Llama 3.1 shards are 4.6–5.0 GB.
const LoadShardBytes = 5e9

// hostLoad is what one node's processes hold in host RAM while they load
// the weights (HostRAMNeed): one copy of copyBytes or one a process
// (oneLoadCopy), or, for
// a QLoRA load with Hugging Face (shard > 0, qloraLoad), shard bytes a
// process plus the 4-bit model where FSDP or ZeRO-3 moves it to the CPU.
type hostLoad struct {
	copyBytes  float64 // one copy of the weights as loaded: params × LoadBytesPerParam
	oneCopy    bool    // oneLoadCopy
	shard      float64 // QLoRA: the checkpoint bytes one process holds at once; 0 otherwise
	quantized  float64 // QLoRA under FSDP or ZeRO-3: the 4-bit model as moved to the CPU
	quantProcs bool    // ZeRO-3: every process holds quantized; FSDP: local rank 0 alone
}

// qloraLoad is hostLoad for a QLoRA job trained with Hugging Face
// (TrainerHF), which loads the 16-bit checkpoint with a bitsandbytes
// quantization_config and a device map (TRL's get_kbit_device_map; the
// quantizer sets {"": the current device} when none is given,
// quantizers/quantizer_bnb_4bit.py update_device_map). transformers then
// builds the model on the meta device and loads the checkpoint shard by
// shard (modeling_utils.py load_shard_file: a bitsandbytes load reads its
// shard to the CPU, map_location "cpu", and the next only after it;
// HF_ENABLE_PARALLEL_LOADING, off by default, loads several at once),
// quantizing each weight as it moves it to its GPU
// (_load_state_dict_into_meta_model → Bnb4BitHfQuantizer
// .create_quantized_param: Params4bit(value).to(target_device)); the
// transformers docs: "Each shard is loaded sequentially after the
// previous shard is loaded" (docs/source/en/models.md, "Sharded
// checkpoints"). So each process holds one shard, not the model:
// min(the 16-bit model, LoadShardBytes). Under FSDP and ZeRO-3 the
// quantized weight is then moved back to the CPU ("For quantized modules
// with FSDP/DeepSpeed Stage 3, we need to quantize the parameter on the
// GPU and then cast it to CPU", same function): to local rank 0's under
// FSDP (the others' go to "meta"), to every rank's under ZeRO-3, which
// holds the 4-bit model (its 4-bit linears and 16-bit rest) there until
// the engine shards it. Read in huggingface/transformers at
// 009ba7ca964c0049263bb4ad5d9eceb3674aaa0f (quantizer_bnb_4bit.py) and
// the v4.5x modeling_utils.py (load_shard_files_with_threadpool's
// release); not measured.
func qloraLoad(w *Workload, params float64) hostLoad {
	h := hostLoad{shard: min(params*2, LoadShardBytes)}
	if w.Strategy == FSDP || w.Strategy == ZeRO3 {
		// The 4-bit share of params as Estimate's QLoRA weights count it
		// (fourBitLinear over the model's ParamCount: 0.98 without a shape).
		q, _ := fourBitLinear(w)
		frac := 0.98
		if n := w.Model.ParamCount(); n > 0 {
			frac = min(q/n, 1)
		}
		_, dq := w.FourBit()
		h.quantized = params * (frac*FourBitBytesPerParam(dq) + (1-frac)*2)
		h.quantProcs = w.Strategy == ZeRO3
	}
	return h
}

// hostLoadOf returns what a node holds while w's processes load params
// parameters (hostLoad).
func hostLoadOf(w *Workload, params float64) hostLoad {
	if w.Task == TaskQLoRA && (w.Trainer == TrainerHF || w.Trainer == "") {
		return qloraLoad(w, params)
	}
	return hostLoad{copyBytes: params * LoadBytesPerParam(w), oneCopy: oneLoadCopy(w)}
}

// bytes returns what procs processes of one node hold at once.
func (h hostLoad) bytes(procs int) float64 {
	n := float64(max(procs, 1))
	switch {
	case h.shard > 0 && h.quantProcs:
		return n * (h.shard + h.quantized)
	case h.shard > 0:
		return n*h.shard + h.quantized
	case h.oneCopy:
		return h.copyBytes
	}
	return n * h.copyBytes
}

// HostRAMNeed returns the host RAM one instance running procs of the job's
// processes needs, in bytes: the MinHostRAMBytes floor or what they hold
// while loading the weights (one copy or one a process at
// LoadBytesPerParam: oneLoadCopy;
// a shard a process for QLoRA with Hugging Face, qloraLoad), whichever
// is more.
func HostRAMNeed(w *Workload, params float64, procs int) float64 {
	return max(MinHostRAMBytes, hostLoadOf(w, params).bytes(procs))
}

// estimateKey caches estimates per GPU type, GPU count, strategy and
// host: they do not depend on region or price. The zero host is Compute's
// DefaultHost; estimateOn retimes that one per instance host.
type estimateKey struct {
	gpu      *GPU
	gpus     int
	strategy Strategy
	host     Host
}

type matcher struct {
	w       Workload
	cat     *Catalog
	q       Query
	regions RegionFilter // q.Regions and q.Countries, parsed once
	cache   map[estimateKey]*estimateResult
	// shapes memoises shape per shapeKey: a 100,000-type overlay has a few
	// dozen distinct shapes, and each miss formats its reason.
	shapes map[shapeKey]shapeResult
	// baseCache and baseShapes are a Recommend's estimates and shapes
	// this one starts from (sharedEstimates.from), read, never written.
	baseCache  map[estimateKey]*estimateResult
	baseShapes map[shapeKey]shapeResult
	// baseCache2 and baseShapes2 are its split scan's second part's
	// (sharedEstimates.cache2), nil when it had none.
	baseCache2  map[estimateKey]*estimateResult
	baseShapes2 map[shapeKey]shapeResult
	// shapesRoom is the shape cache's starting size; 0 for
	// shapesRoom(cat).
	shapesRoom int
	// recent keeps the whole Estimates of the last estimates made
	// (recentEstimates), when not nil: a full Recommend's (newMatcher).
	recent *recentEstimates
	// nets memoises Catalog.DefaultNetwork per GPU and node size: the
	// network a type without a figure is timed at (matcher.host).
	nets map[netKey]netFigure
	// netGroups is the catalog's node network figures by GPU and node
	// size (Catalog.nodeNetworks), gathered at the first nets miss.
	netGroups map[nodeNetKey][]float64
	// valid memoises Validate of the workloads estimate computes (validate).
	valid []validity
	// hostFree is set while a shape is made for any host RAM
	// (makeShape): hostRAM then passes and ramBound gathers its needs.
	hostFree bool
	ramBound float64
}

type netKey struct {
	gpu     *GPU
	perNode int
}

type netFigure struct {
	gbps float64
	from NetworkSource
}

// host returns the host in with GPU g runs m's job on (InstanceHost): a
// type without a network figure is timed at the network estimate would
// time the job at on such nodes (Catalog.DefaultNetwork), found once per
// GPU and node size, or, when it documents no GPU fabric either
// (NoFabricNetwork), at AssumedNetworkGbps unless the user gave a figure.
func (m *matcher) host(in *Instance, g *GPU) Host {
	if in.NetworkGbps > 0 {
		return HostOf(in, g)
	}
	if NoFabricNetwork(in) && !networkGiven(&m.w) {
		return InstanceHost(in, g, AssumedNetworkGbps, NetworkNoFabric)
	}
	f := m.defaultNetwork(g, max(in.GPUCount, 1))
	return InstanceHost(in, g, f.gbps, f.from)
}

func (m *matcher) defaultNetwork(g *GPU, perNode int) netFigure {
	k := netKey{g, perNode}
	if f, ok := m.nets[k]; ok {
		return f
	}
	if m.nets == nil {
		m.nets = make(map[netKey]netFigure, 8)
	}
	// Catalog.DefaultNetwork, with the catalog's node networks gathered
	// once (nodeNetworks) instead of a walk of every type per GPU and
	// node size.
	gbps, types := 0.0, 0
	if !networkGiven(&m.w) {
		if m.netGroups == nil {
			m.netGroups = m.cat.nodeNetworks()
		}
		gbps, types = medianNetwork(m.netGroups[nodeNetKey{g.Key, perNode}])
	}
	gbps, from, _ := defaultNetwork(&m.w, gbps, types)
	f := netFigure{gbps, from}
	m.nets[k] = f
	return f
}

// shapeKey is everything of an instance type shape reads: the GPU, the
// GPUs per node, and the host (HostOf: vCPUs, network; hostRAM: memory).
// The floats are kept as their bits so the key hashes as one block of
// memory (float fields hash one by one, a cost per instance type).
//
// Most keys leave the host out (shapeKeyOf): what shape reads of it
// counts only sometimes, so types that differ there share one shape. The
// vCPUs cap only a vision job's input pipeline (timingHost), the network
// only a job across nodes, and the memory only through hostRAM, whose
// checks a shape made without it (hostFree) records the bound of.
type shapeKey struct {
	gpu                    *GPU
	gpus, vcpus            int
	networkGbps, memoryGiB uint64 // math.Float64bits
	// withRAM: memoryGiB is the type's and shape checked the host RAM
	// against it; else memoryGiB is 0 and the shape was made for any
	// host RAM (shapeResult.ramBound).
	withRAM bool
	// own is the type itself when a shape across nodes reads more of it
	// than the key holds: without a network figure, its fabric and its
	// name, which the near miss names (assumedNetwork; a walk: shadeform's
	// crusoe_L40Sx2 said "no network figure for" primeintellect's type).
	own *Instance
}

type shapeResult struct {
	d      deployment
	kind   RejectKind
	reason Message
	sized  int // sizedGPUs of d; 0 when rejected
	// ramBound is, for a shape made for any host RAM, the most host RAM
	// (bytes) any of its checks asked for: a type with at least that much
	// passes them all, so shape on it takes the same steps to the same
	// result. NaN when a check's need was NaN (never passed as bound).
	ramBound float64
}

// estimatesRoom is the estimate cache's starting size: the embedded
// catalog's llama-3.1-8b QLoRA ranking (auto GPUs) keeps 404 entries
// (203 estimates, GPU type × count × strategy, and their retimes, each
// under its timing host); from 224 the map grew once, a 256-slot table
// written and rehashed into a 512-slot one. A map holds 7/8 of its
// slots: 448 fill 512, where 449 would take 1,024. For a full ranking; a
// savings eval keeps the small start.
const estimatesRoom = 448

// shapesRoom is the shape cache's starting size for cat: one shape per
// instance type at most, to a point. The embedded catalog has 484
// distinct ones among 842 types for llama-3.1-8b QLoRA; from 448 (512
// slots) the map grew once into 1,024 slots, the 512 written for
// nothing. A map's table is cleared whole when made, so room never used
// still costs its pages: 896 fill the 1,024 slots and no more. A savings
// eval (cheapestOnly) shapes few types and keeps the small start.
func shapesRoom(cat *Catalog) int { return min(len(cat.Instances), 896) }

// shapeKeyOf is in's shape key with GPU g, its host left out where shape
// would not read it: when no GPU count tried spans nodes (auto GPUs on
// one node, or a fixed count within in's GPUs), the network, which
// counts only across nodes, and the vCPUs unless the job is a vision
// model's (only its input pipeline reads them); the memory then is
// checked against the shape's ramBound (withRAM false). A count that
// may span nodes keys the whole host, the memory included (withRAM):
// such a shape also reads in's fabric and names its type when it
// assumes a network (assumedNetwork), which no key here holds.
func (m *matcher) shapeKeyOf(in *Instance, g *GPU) shapeKey {
	if !shareShapes || m.q.AutoGPUs && m.q.MaxNodes > 1 || !m.q.AutoGPUs && m.w.GPUs > in.GPUCount {
		k := shapeKey{g, in.GPUCount, in.VCPUs, math.Float64bits(in.NetworkGbps), math.Float64bits(in.MemoryGiB), true, nil}
		if in.NetworkGbps <= 0 {
			k.own = in
		}
		return k
	}
	k := shapeKey{gpu: g, gpus: in.GPUCount}
	if m.w.Model.Family.Vision() {
		k.vcpus = in.VCPUs
	}
	return k
}

// shareShapes is off only in tests (SetShapeSharing), to shape every
// instance type with its whole host as the result to compare with.
var shareShapes = true

// lookupShape looks k up in the matcher's shapes, then in those it
// starts from.
func (m *matcher) lookupShape(k shapeKey) (shapeResult, bool) {
	if r, ok := m.shapes[k]; ok {
		return r, true
	}
	if r, ok := m.baseShapes[k]; ok {
		return r, true
	}
	r, ok := m.baseShapes2[k]
	return r, ok
}

// cachedShape is shape, with the GPUs the job needs on it (sizedGPUs),
// once per shapeKey: first the shape made for any host RAM, which holds
// for in when in has the RAM its checks asked for (ramBound); else, a
// host too small for one of them, shape with in's own memory.
func (m *matcher) cachedShape(in *Instance, g *GPU) (deployment, RejectKind, Message, int) {
	k := m.shapeKeyOf(in, g)
	if !k.withRAM {
		r, ok := m.lookupShape(k)
		if !ok {
			r = m.makeShape(in, g, k, true)
		}
		if in.MemoryGiB*GiB >= r.ramBound { // false for a NaN on either side
			return r.d, r.kind, r.reason, r.sized
		}
		// Less RAM than one of its checks asked for: in's own shape.
		k.withRAM, k.memoryGiB = true, math.Float64bits(in.MemoryGiB)
	}
	r, ok := m.lookupShape(k)
	if !ok {
		r = m.makeShape(in, g, k, false)
	}
	return r.d, r.kind, r.reason, r.sized
}

// makeShape makes and keeps in's shape with g under k: for any host RAM
// when anyRAM (hostFree), else checked against in's memory.
func (m *matcher) makeShape(in *Instance, g *GPU, k shapeKey, anyRAM bool) shapeResult {
	var r shapeResult
	if anyRAM {
		m.hostFree, m.ramBound = true, 0
	}
	r.d, r.kind, r.reason = m.shape(in, g)
	if anyRAM {
		r.ramBound, m.hostFree = m.ramBound, false
	}
	if r.reason.IsZero() {
		r.sized = m.sizedGPUs(g, &r.d)
	}
	if m.shapes == nil {
		room := m.shapesRoom
		if room == 0 {
			room = shapesRoom(m.cat)
		}
		m.shapes = make(map[shapeKey]shapeResult, room)
	}
	m.shapes[k] = r
	return r
}

// cached looks k up in the matcher's estimates, then in those it starts
// from.
func (m *matcher) cached(k estimateKey) (*estimateResult, bool) {
	if r, ok := m.cache[k]; ok {
		return r, true
	}
	if r, ok := m.baseCache[k]; ok {
		return r, true
	}
	r, ok := m.baseCache2[k]
	return r, ok
}

// estimateResult is one cached estimate: what shape, sizedGPUs and the
// near misses read of it, and the whole Estimate only once an offer
// carries it (full). A ranking of the embedded catalog makes ~260
// estimates and retimes and offers ~90 of them; an Estimate is ~1.9 KB
// (its Workload alone 1 KB), and in a short command each is fresh pages
// (page faults), so the rest keep this ~260-byte summary. The Estimate is
// built again from the same inputs when asked (Compute and Retime are
// pure: the same bytes, tested by TestFullEstimateSame).
type estimateResult struct {
	err      error
	fallback Precision // precision actually used when the GPU lacks the asked one
	batch    bool      // err: the GPUs cannot share the global batch (Workload.OnGPUs)

	// What the ranking reads before an offer is made, each as the
	// Estimate's own method or field gives it.
	need     float64    // ResidentNeed
	band     [2]float64 // ResidentBand
	host     Host       // Host: the host the time is for
	hasTime  bool       // HasTime
	hours    float64    // Hours
	timeBand [2]float64 // TimeBand
	hostRAM  nodeHostRAM

	// How to build the Estimate again: Compute of the matcher's workload
	// on gpus GPUs of gpu with strategy (the fallback precision when set),
	// retimed on host when retimed.
	gpu      *GPU
	gpus     int
	strategy Strategy
	retimed  bool
	// full is the whole Estimate, built at the first offer that carries
	// it and then shared by every offer of this estimate. Atomic: a
	// savings ranking on another goroutine builds those of the
	// Recommendation it starts from (sharedEstimates.from), and nothing
	// else of a Recommendation is written after it returns.
	full atomic.Pointer[Estimate]
}

// summarize keeps of e what estimateResult holds.
func (r *estimateResult) summarize(e *Estimate) {
	r.need, r.band, r.host = e.ResidentNeed(), e.ResidentBand(), e.Host
	r.hasTime, r.hours, r.timeBand = e.HasTime, e.Hours, e.TimeBand
	r.hostRAM = nodeHostRAMOf(e)
}

// compute is Compute for r's inputs, with the matcher's workload w:
// r's Estimate before any retime, as estimate made it.
func (r *estimateResult) compute(w *Workload) Estimate {
	wn, _ := w.OnGPUs(r.gpus)
	wn.Strategy = r.strategy
	if run, _ := r.gpu.RunPrecision(wn.Precision, wn.Task.Training()); run != wn.Precision {
		wn.Precision = run
	}
	e, _ := Compute(wn, r.gpu)
	return e
}

// fullEstimate returns r's whole Estimate, building it the first time
// (w is the workload of the matcher r was made by; a Recommend's
// matchers that share estimates share it).
func (r *estimateResult) fullEstimate(w *Workload) *Estimate {
	if e := r.full.Load(); e != nil {
		return e
	}
	e := new(Estimate)
	if !r.batch { // a batch error's is the zero Estimate, never offered
		*e = r.compute(w)
	}
	if r.retimed && r.err == nil {
		e.Retime(r.gpu, r.host)
	}
	if r.full.CompareAndSwap(nil, e) {
		return e
	}
	return r.full.Load()
}

// recentEstimates are the whole Estimates of the last estimates a
// matcher made, in a ring. An offer carries the whole Estimate of its
// deployment's estimate (estimateResult.full), which the cache keeps as
// a summary and built again from the same inputs when an offer first
// asked for it: ~140 Computes a ranking of the embedded catalog, ~5% of
// recommend --json's CPU time by perf record. The estimate an offer
// carries is nearly always one of the last few made (shape tries GPU
// counts up to the first that fits, then sizedGPUs a few more), so a
// copy of those serves it; the ring is made once per full Recommend
// (8 × ~1.9 KB), not per savings eval.
type recentEstimates struct {
	next int
	r    [8]*estimateResult
	e    [8]Estimate
}

// keep puts r's whole Estimate e in the ring (none when k is nil).
func (k *recentEstimates) keep(r *estimateResult, e *Estimate) {
	if k == nil {
		return
	}
	k.r[k.next], k.e[k.next] = r, *e
	k.next = (k.next + 1) % len(k.r)
}

// lend returns the ring's own Estimate of r, nil when it holds none. It
// stays r's only until the next keep: an offer points at it while the
// scan weighs it, and one kept gets r's whole Estimate (fullEstimate).
func (k *recentEstimates) lend(r *estimateResult) *Estimate {
	if k == nil {
		return nil
	}
	for i, kr := range k.r {
		if kr == r {
			return &k.e[i]
		}
	}
	return nil
}

// fullEstimate is r.fullEstimate, from a copy of the ring's Estimate of
// r when it holds one: the same Estimate, made from the same inputs
// (TestFullEstimateSame).
func (m *matcher) fullEstimate(r *estimateResult) *Estimate {
	if e := r.full.Load(); e != nil || m.recent == nil {
		if e != nil {
			return e
		}
		return r.fullEstimate(&m.w)
	}
	for i, kr := range m.recent.r {
		if kr == r {
			e := new(Estimate)
			*e = m.recent.e[i]
			if r.full.CompareAndSwap(nil, e) {
				return e
			}
			return r.full.Load()
		}
	}
	return r.fullEstimate(&m.w)
}

// estimate returns the (cached) estimate of w on n GPUs of g with strategy s.
func (m *matcher) estimate(g *GPU, n int, s Strategy) *estimateResult {
	k := estimateKey{gpu: g, gpus: n, strategy: s}
	if r, ok := m.cached(k); ok {
		return r
	}
	// The job on n GPUs keeps its global batch (Workload.OnGPUs): the
	// accumulation, then the micro-batch, shrink to carry it.
	w, ok := m.w.OnGPUs(n)
	w.Strategy = s
	r := &estimateResult{gpu: g, gpus: n, strategy: s}
	if !ok {
		r.err = Msg("%d GPUs cannot share a global batch of %d (micro-batch %d × gradient accumulation %d) in whole samples: make it a multiple of %d (grad_accum) to run on them",
			n/w.TP, m.w.GlobalBatch(), m.w.MicroBatch, m.w.GradAccum, n/w.TP)
		r.batch = true
		m.cache[k] = r
		return r
	}
	if run, _ := g.RunPrecision(w.Precision, w.Task.Training()); run != w.Precision {
		r.fallback, w.Precision = run, run
	}
	var e Estimate
	if r.err = m.validate(w); r.err == nil {
		w.Defaults()
		e = computeValid(w, g)
	}
	r.summarize(&e)
	m.cache[k] = r
	m.recent.keep(r, &e)
	return r
}

// validity is Validate's answer for the workload the matcher's own takes
// on gpus GPUs (Workload.OnGPUs) with strategy and precision.
type validity struct {
	gpus      int
	strategy  Strategy
	precision Precision
	err       error
}

// validate is Validate of w defaulted, as Compute checks it, where w is
// the matcher's workload on w.GPUs GPUs (OnGPUs) with w.Strategy and
// w.Precision: those three make the rest, so the answer is found once
// for them, not once per GPU type (~200 estimates a ranking of the
// embedded catalog, over a dozen counts and strategies; Validate was a
// fifth of Compute).
func (m *matcher) validate(w Workload) error {
	for i := range m.valid {
		if v := &m.valid[i]; v.gpus == w.GPUs && v.strategy == w.Strategy && v.precision == w.Precision {
			return v.err
		}
	}
	v := validity{gpus: w.GPUs, strategy: w.Strategy, precision: w.Precision}
	w.Defaults()
	v.err = w.Validate()
	m.valid = append(m.valid, v)
	return v.err
}

// estimateOn returns the (cached) estimate of w on n GPUs of g with
// strategy s on instance type in: memory from estimate, time retimed over
// m.host(in, g), so the instance's GPUs per node, network and vCPUs count
// in time and ranking (multi-node collectives, the vision input
// pipeline). Instance types with the same host share one retime.
func (m *matcher) estimateOn(in *Instance, g *GPU, n int, s Strategy) *estimateResult {
	// The node network counts only across nodes (timingHost clears it on
	// one), so a type without a figure looks up the network its nodes
	// are timed at (m.host, a map of GPU and node size) only for a job
	// that spans them: on one node HostOf's host is the same timing host.
	h := HostOf(in, g)
	if n > h.GPUsPerNode {
		h = m.host(in, g)
	}
	h = timingHost(&m.w, n, h)
	k := estimateKey{g, n, s, h}
	if r, ok := m.cached(k); ok {
		return r
	}
	base := m.estimate(g, n, s)
	if h == base.host { // Compute timed it on this host already (WorkloadHost)
		m.cache[k] = base
		return base
	}
	r := &estimateResult{err: base.err, fallback: base.fallback, batch: base.batch,
		gpu: g, gpus: n, strategy: s, retimed: true}
	var e Estimate
	if b := base.full.Load(); b != nil {
		e = *b
	} else if !base.batch {
		e = base.compute(&m.w)
	}
	if r.err == nil {
		e.Retime(g, h)
	}
	r.summarize(&e)
	m.cache[k] = r
	m.recent.keep(r, &e)
	return r
}

// timingHost clears the fields of h the time model does not read for w
// on n GPUs, so instance types that differ only there share one retime
// (each an Estimate of ~1.5 KB; the embedded catalog has hundreds of
// distinct hosts, the savings section ranks it several times): vCPUs
// count only when the input pipeline is capped (inputCap: a vision model
// and a per-vCPU rate), the node network only when the job spans nodes
// (stepTime: w.GPUs > GPUsPerNode). The estimate's Host is this one.
func timingHost(w *Workload, n int, h Host) Host {
	if !w.Model.Family.Vision() || h.ImagesPerVCPU <= 0 {
		h.VCPUs = 0
	}
	if n <= h.GPUsPerNode {
		h.InterGBps, h.NetworkAssumed, h.NetworkFrom = 0, false, ""
	}
	return h
}

// Recommend matches w against every instance of cat that passes q and
// returns the offers that run it, ranked, with near misses.
//
// An offer fits when the per-GPU need is within UsableBytes of its GPU,
// the host RAM meets HostRAMNeed, the GPU supports the precision (or a
// documented fallback when the query allows it or the precision is the
// default (Query.PrecisionAsked, PrecisionKept): amp-bf16 → amp-fp16 and
// inference's bf16 → fp16 without bf16, fp8 → bf16 without fp8; pure bf16
// training has no fallback), and it meets the price,
// budget and deadline limits. Multi-node offers need AllowMultiNode; the
// instance count is ceil(GPUs / GPUs per instance). Of the instance types
// with the same provider, region and GPU, only the best that fits is
// offered (lessHost: by the sort key, and a multi-node deployment by its
// cost per sample, nodes and network included), so a one-GPU job is
// never priced as an 8-GPU host when a smaller host exists; with auto
// GPUs a host that runs the job on more GPUs than it needs (faster) is
// kept beside the one sized to the job. Among those faster hosts a near
// tie on job cost (within SizedSlack) goes to the faster one, a clear
// saving still wins (lessHost), so the time-against-cost front and the
// answers built from the kept offers see a host 4× faster at +$0.01;
// the host sized to the job stays the cheaper at a near tie.
//
// Ranking: q.Sort, by default job cost when a dataset is given, else the
// hourly price; ties by headroom (more first), then provider and type.
// On the cost keys (price, monthly, job) an offer that rents more GPUs
// than the job needs (Offer.Oversized) ranks as if it cost SizedSlack
// more: a host sized to the job wins a near tie, here and when choosing
// among hosts of one provider, region and GPU (see SizedSlack).
func Recommend(w Workload, cat *Catalog, q Query) (Recommendation, error) {
	return recommendShared(w, cat, q, nil)
}

// sharedEstimates carries the estimate cache from one Recommend to the
// next while the workload stays the same: estimates depend on the
// workload, GPU, GPU count, strategy and timing host, never on the query,
// and a savings ranking runs Recommend once per change, most of which
// change only the query (pricing, one GPU type, one region).
type sharedEstimates struct {
	w     Workload // defaulted
	cache map[estimateKey]*estimateResult
	// shapes are shared too while the query's part that shape and
	// sizedGPUs read (shapeQuery) stays the same: a change of pricing
	// mode, GPU type or region re-prices the shapes, it does not redo them.
	sq     shapeQuery
	shapes map[shapeKey]shapeResult
	// cache2 and shapes2 are the second part's of a split scan
	// (splitScan), whose GPU types are none of cache's and shapes'; nil
	// otherwise. Only a Recommend's (from) have them.
	cache2  map[estimateKey]*estimateResult
	shapes2 map[shapeKey]shapeResult
	// cheapestOnly: the caller reads Offers[0] and nothing else (a
	// savings eval), so Recommend keeps the one best offer by q.Sort and
	// skips grouping, sorting and near misses: a ranking runs ~60
	// Recommends, and each full offer list cost ~25 KB of fresh pages.
	cheapestOnly bool
	// from is a Recommend's estimates (Recommendation.estimates) to read
	// before estimating anew, while the workload is from's (fromOK); never
	// written, so the Recommendation stays safe to share.
	from   *sharedEstimates
	fromOK bool
}

// CheapestFinder finds the best offer for one workload after another, the
// loop both savings rankings run: Recommend's first offer with the query's
// Sort cleared (the cheapest job with a dataset, else the cheapest hour).
// It reuses estimates from one call to the next while the workload stays
// the same (most changes only change the query), so it must not be used
// concurrently.
type CheapestFinder struct {
	cat    *Catalog
	shared sharedEstimates
}

// NewCheapestFinder returns a finder over cat with no estimates yet.
func NewCheapestFinder(cat *Catalog) *CheapestFinder { return newCheapestFinder(cat, nil) }

// CheapestFinder returns a finder over cat that starts from the estimates
// this Recommend made (cat must be the catalog it ran on): a ranking whose
// first workload and query are r's estimates nothing again. The finder
// reads r's estimates and never writes them, so r stays safe to share.
func (r *Recommendation) CheapestFinder(cat *Catalog) *CheapestFinder {
	return newCheapestFinder(cat, r.estimates)
}

// newCheapestFinder starts a finder from the estimates of a Recommend
// (nil: none), which it reads and never writes.
func newCheapestFinder(cat *Catalog, from *sharedEstimates) *CheapestFinder {
	f := &CheapestFinder{cat: cat, shared: sharedEstimates{cheapestOnly: true}}
	if from != nil {
		f.shared.from, f.shared.fromOK = from, true
		f.shared.w, f.shared.cache = from.w, make(map[estimateKey]*estimateResult)
	}
	return f
}

// Offer returns Recommend's first offer for w on q with q.Sort cleared;
// ok is false when Recommend fails or nothing runs w.
func (f *CheapestFinder) Offer(w Workload, q Query) (o *Offer, ok bool) {
	q.Sort = ""
	rec, err := recommendShared(w, f.cat, q, &f.shared)
	if err != nil || len(rec.Offers) == 0 {
		return nil, false
	}
	return &rec.Offers[0], true
}

// OfferSorted is Offer keeping q.Sort: Recommend's first offer under the
// ranking the user chose, the offer recommend's "best:" line names, so
// the savings measure from the figure that line shows (new-user walk:
// under --sort price the savings said "now $0.09", the cheapest job,
// beside a best: of $0.12).
func (f *CheapestFinder) OfferSorted(w Workload, q Query) (o *Offer, ok bool) {
	rec, err := recommendShared(w, f.cat, q, &f.shared)
	if err != nil || len(rec.Offers) == 0 {
		return nil, false
	}
	return &rec.Offers[0], true
}

// CheapestWithin returns, when it can be read off r's offers, what a
// CheapestFinder's Offer(w, sub) returns: r is Recommend(w, cat, q)'s
// result and sub is q with only GPUs and Regions changed to ask for a
// subset of what q asks (GPUs within q's, Regions anywhere when q names
// none, Countries the same). The other fields decide every offer's
// price, fit and limits alike, so the ranking's least offer that sub
// keeps is Offer's (compareOffers orders every pair; r's offers are the
// best of each group, sorted). derived is false when sub is no such
// subset, r's sort is not the one Offer ranks by (q.Sort cleared) or w is
// not r's workload; the caller then runs Offer. ok is false when no offer
// of r passes sub.
func (r *Recommendation) CheapestWithin(cat *Catalog, w Workload, q, sub Query) (o *Offer, ok, derived bool) {
	return r.within(cat, w, q, sub, false)
}

// FirstWithin is CheapestWithin for FirstFinder.Offer: sub ranked by its
// own Sort (the user's --sort), so derived needs r ranked by it too.
func (r *Recommendation) FirstWithin(cat *Catalog, w Workload, q, sub Query) (o *Offer, ok, derived bool) {
	return r.within(cat, w, q, sub, true)
}

func (r *Recommendation) within(cat *Catalog, w Workload, q, sub Query, sorted bool) (o *Offer, ok, derived bool) {
	if r.estimates == nil {
		return nil, false, false
	}
	w.Defaults()
	// By pointer: a Workload (1 KB) passed as an interface is copied to
	// the heap, each comparison twice.
	if !reflect.DeepEqual(&w, &r.estimates.w) {
		return nil, false, false
	}
	by := Query{}
	if sorted {
		by.Sort = sub.Sort
	}
	if want := recommendQuery(by, &w).Sort; r.Sort != want {
		return nil, false, false
	}
	a, b := q, sub
	a.GPUs, a.Regions, b.GPUs, b.Regions = nil, nil, nil, nil
	a.Sort, b.Sort = "", ""
	if !reflect.DeepEqual(&a, &b) {
		return nil, false, false
	}
	if len(q.GPUs) > 0 && (len(sub.GPUs) == 0 || slices.ContainsFunc(sub.GPUs, func(g string) bool { return !slices.Contains(q.GPUs, g) })) {
		return nil, false, false
	}
	if len(q.Regions) > 0 && !slices.Equal(q.Regions, sub.Regions) {
		return nil, false, false
	}
	rf := sub.RegionFilter(cat)
	for i := range r.Offers {
		o := &r.Offers[i]
		if sub.AllowsGPU(o.Instance.GPU) && rf.Match(o.Instance.Provider, o.Region) {
			return o, true, true
		}
	}
	return nil, false, true
}

// shapeQuery is the part of a Query that shape and sizedGPUs read.
type shapeQuery struct {
	autoGPUs, precisionFallback, precisionAsked, multiNode, keepStrategy bool
	maxNodes, maxGPUs                                                    int
	deadlineHours                                                        float64
}

func shapeQueryOf(q *Query) shapeQuery {
	return shapeQuery{q.AutoGPUs, q.AllowPrecisionFallback, q.PrecisionAsked, q.AllowMultiNode, q.KeepStrategy, q.MaxNodes, q.MaxGPUs, q.DeadlineHours}
}

// recommendShared is Recommend reusing shared's estimates when w (defaulted)
// is the workload they were made for; shared may be nil.
func recommendShared(w Workload, cat *Catalog, q Query, shared *sharedEstimates) (Recommendation, error) {
	w.Defaults()
	if err := w.Validate(); err != nil {
		return Recommendation{}, err
	}
	q = recommendQuery(q, &w)
	m := newMatcher(w, cat, q, shared)
	rec := Recommendation{Sort: q.Sort, AutoGPUs: q.AutoGPUs, AsOf: cat.AsOf}
	// A host group weighs multi-node deployments by cost per sample on
	// the hourly keys (lessHost), so the least offer by compareOffers
	// alone, and the price bound of beyond, can differ from the grouped
	// list's first: such a savings eval scans as Recommend does and keeps
	// the first offer (groupedFirst).
	groupedFirst := shared != nil && shared.cheapestOnly && q.AllowMultiNode && (q.Sort == SortPrice || q.Sort == SortMonthly)
	sc := offerScan{sort: q.Sort, cheapestOnly: shared != nil && shared.cheapestOnly && !groupedFirst}
	if q.Pricing == Spot {
		sc.view = q.SpotView
	}
	// The maps stay locals apart from sc, so that escape analysis keeps
	// them off the heap as when the scan was inline.
	var best map[offerGroup]int
	var split *splitScan
	if !sc.cheapestOnly {
		// Room for every offer up front, to a point: grown by append, the
		// list is copied at each doubling, and each copy is fresh pages
		// (faults) in a short command; room never written costs none (a
		// large array comes from the OS zeroed and untouched). Each price
		// of a type the query allows makes one offer at most, so their
		// count bounds the list: the embedded catalog's llama-3.1-8b QLoRA
		// keeps 1,132 offers of 2,717 prices, and from 1,024 the list grew
		// once (a 270 KB array written whole, then copied into a 390 KB
		// one). The groups' map is cleared whole at creation, so it keeps
		// its bound of 1,024 (2,048 slots, which hold 1,792 groups).
		pairs := 0
		for i := range cat.Instances {
			in := &cat.Instances[i]
			if m.q.scans(in) {
				pairs += len(in.Prices)
			}
		}
		if shared == nil {
			split = newSplitScan(&m, pairs)
		}
		if split == nil {
			sc.offers = make([]Offer, 0, min(pairs, offersRoom))
			best = make(map[offerGroup]int, min(pairs, 1024))
		}
	}
	if m.cache == nil {
		m.cache = make(map[estimateKey]*estimateResult, estimatesRoom)
	}
	if shared == nil {
		m.recent = new(recentEstimates)
	}
	counts := map[RejectKind]int{}
	if split != nil {
		split.run(&m, &sc, counts)
	} else {
		m.scanAll(&sc, best, counts)
	}
	if sc.cheapestOnly {
		sc.cheapestOf()
	}
	rec.Offers = sc.offers
	rejected := sc.nearMisses()
	if sc.considered == 0 {
		if note, ok := m.cat.ChinaNote(m.q.Countries, m.q.Regions); ok {
			return rec, Errorf(ErrNoOffers, "no instance in the catalog matches %s; %s", m.describeFilters(), note)
		}
		return rec, Errorf(ErrNoOffers, "no instance in the catalog matches %s", m.describeFilters())
	}
	var order []int32
	if split != nil {
		order = split.order
	}
	sortOffersFrom(rec.Offers, q.Sort, order)
	if !sc.cheapestOnly {
		rec.Offers = dropDominatedRisky(rec.Offers, q.Sort)
	}
	if groupedFirst && len(rec.Offers) > 1 {
		rec.Offers = rec.Offers[:1]
	}
	// Reasons are formatted for the near misses kept only: a savings
	// section ranks ~60 queries, each rejecting hundreds of offers.
	for i := range rejected {
		rejected[i].Reason = rejected[i].ReasonMsg.String()
	}
	rec.Rejected = rejected
	rec.Considered = sc.considered
	rec.Reasons = reasonCounts(counts)
	if shared == nil {
		rec.estimates = &sharedEstimates{w: w, cache: m.cache, sq: shapeQueryOf(&q), shapes: m.shapes}
		if split != nil {
			rec.estimates.cache2, rec.estimates.shapes2 = split.other.cache, split.other.shapes
		}
	}
	return rec, nil
}

// dropDominatedRisky removes, from offers sorted by compareOffers (every
// offer that fits before every borderline one), each borderline offer
// whose group (offerGroup without its risky bit) has a fitting host at
// most as dear on the sort key: it runs the same GPU in the same region
// of the same provider for no more, without the risk. The others stay,
// ranked after the fitting offers as before, for the table and "try
// first:" to name. The order is kept; dropped offers count as other
// hosts of the group (report.ReasonSummary).
func dropDominatedRisky(offers []Offer, k SortKey) []Offer {
	// The borderline offers are the sorted list's tail; only their groups
	// are looked up among the fitting ones, and only the tail moves.
	first := len(offers)
	for first > 0 && offers[first-1].Risky() {
		first--
	}
	if first == len(offers) || first == 0 {
		return offers
	}
	group := func(o *Offer) offerGroup { return offerGroup{o.Instance.Provider, o.Region, o.GPU, o.spreads(), false} }
	fit := make(map[offerGroup]float64, len(offers)-first)
	for i := first; i < len(offers); i++ {
		fit[group(&offers[i])] = math.NaN() // a group with a borderline offer; NaN: no fitting host seen
	}
	for i := range first {
		g := group(&offers[i])
		if v, ok := fit[g]; ok && math.IsNaN(v) {
			fit[g] = sortValue(&offers[i], k)
		}
	}
	out := first
	for i := first; i < len(offers); i++ {
		if v := fit[group(&offers[i])]; !math.IsNaN(v) && v <= sortValue(&offers[i], k) {
			continue
		}
		if out != i {
			offers[out] = offers[i]
		}
		out++
	}
	clear(offers[out:])
	return offers[:out]
}

// offersRoom bounds the offers' starting room: 4,096 offers are 1 MB of
// address space, written only as far as the scan keeps offers.
const offersRoom = 4096

// recommendQuery is q with Recommend's defaults for w: on-demand, 730
// hours a month, up to 64 nodes when multi-node is allowed (else 1), and
// the job's cost first when w has a dataset (else the price).
func recommendQuery(q Query, w *Workload) Query {
	if q.Pricing == "" {
		q.Pricing = OnDemand
	}
	if q.HoursPerMonth <= 0 {
		q.HoursPerMonth = HoursPerMonth
	}
	if q.MaxNodes <= 0 {
		q.MaxNodes = 64
	}
	if !q.AllowMultiNode {
		q.MaxNodes = 1
	}
	if q.Sort == "" {
		q.Sort = SortPrice
		if datasetSamples(w) > 0 {
			q.Sort = SortJob
		}
	}
	return q
}

// newMatcher returns the matcher of w on cat for q (a value, so that
// the caller keeps it off the heap), with shared's
// estimates and shapes when they were made for w (and for q's shape
// query); shared (nil: none) is reset to w's when they were not.
func newMatcher(w Workload, cat *Catalog, q Query, shared *sharedEstimates) matcher {
	m := matcher{w: w, cat: cat, q: q, regions: q.RegionFilter(cat)}
	switch {
	case shared == nil: // recommendShared makes the cache, at its size for a split scan or not
	case shared.cache != nil && reflect.DeepEqual(&shared.w, &w): // by pointer: see CheapestWithin
		m.cache = shared.cache
	default: // a savings eval: it estimates far fewer (cheapestOnly skips most types)
		m.cache = make(map[estimateKey]*estimateResult, 64)
		shared.w, shared.cache, shared.shapes = w, m.cache, nil
		shared.fromOK = shared.from != nil && reflect.DeepEqual(&shared.from.w, &w)
	}
	if shared != nil {
		sq := shapeQueryOf(&q)
		if shared.shapes == nil || shared.sq != sq {
			shared.sq, shared.shapes = sq, make(map[shapeKey]shapeResult, 64)
		}
		m.shapes = shared.shapes
		if shared.fromOK {
			m.baseCache, m.baseCache2 = shared.from.cache, shared.from.cache2
			if shared.from.sq == sq {
				m.baseShapes, m.baseShapes2 = shared.from.shapes, shared.from.shapes2
			}
		}
	}
	return m
}

// scanAll scans the instance types of m's catalog that m.q allows, in
// catalog order, into sc, best and counts (a split scan: scanUnits).
func (m *matcher) scanAll(sc *offerScan, best map[offerGroup]int, counts map[RejectKind]int) {
	cat := m.cat
	for i := range cat.Instances {
		sc.nextInstance()
		in := &cat.Instances[i]
		if !m.q.scans(in) {
			continue
		}
		sc.at = i
		m.scanInstance(in, sc, best, counts)
	}
	sc.nextInstance()
}

// scanInstance prices in in every region m.q allows, adding each offer
// that runs the workload within the limits to sc (best indexes its
// groups) and each one that does not to sc's near misses and to counts.
func (m *matcher) scanInstance(in *Instance, sc *offerScan, best map[offerGroup]int, counts map[RejectKind]int) {
	q := &m.q
	// The GPU, the deployment shape and its estimate do not depend on
	// region: found at the type's first offer, so types with none in
	// the asked regions and pricing mode (most of them in a savings
	// change to one region or to spot) cost no look-up.
	var (
		g      *GPU
		shape  deployment
		kind   RejectKind
		reason Message
		sized  int
	)
	disc := m.cat.DiscountFor(in, q.Pricing) // a reserved mode's, once for all regions (nil otherwise)
	for j := range in.Prices {
		rp := &in.Prices[j]
		if !m.regions.Match(in.Provider, rp.Region) {
			continue
		}
		unit, ok := m.cat.priceWith(in, rp, q.Pricing, q.ExchangeRates, disc)
		if !ok {
			continue // no price in this mode here: not an offer
		}
		if sc.beyond(unit, q.Pricing, q.HoursPerMonth) {
			continue // cannot beat the least offer kept: no shape, no estimate
		}
		if g == nil {
			var err error
			if g, err = m.cat.GPU(in.GPU); err != nil {
				break
			}
			shape, kind, reason, sized = m.cachedShape(in, g)
		}
		sc.considered++
		if !reason.IsZero() {
			short := 0.0
			if kind == RejectVRAM && shape.r != nil {
				short = shape.r.need - UsableBytes(g)
			}
			sc.reject(counts, Rejection{Instance: in, Region: rp.Region, USDPerHour: unit * float64(max(shape.nodes, 1)), Instances: max(shape.nodes, 1), ReasonMsg: reason, Kind: kind, ShortBytes: short,
				NetworkAssumed: kind == RejectDeadline && netAssumed(&m.w, in, shape.nodes)})
			continue
		}
		o, lent := m.offer(in, g, rp.Region, unit, shape)
		o.SizedGPUs = sized
		if q.Pricing != OnDemand {
			if od, ok := m.cat.Price(in, rp, OnDemand, q.ExchangeRates); ok {
				o.OnDemandUSDPerHour = od * float64(shape.nodes)
			}
		}
		if kind, why := m.limits(&o); !why.IsZero() {
			x := Rejection{Instance: in, Region: rp.Region, USDPerHour: o.USDPerHour, Instances: o.Instances, ReasonMsg: why, Kind: kind,
				NetworkAssumed: kind == RejectDeadline && netAssumed(&m.w, in, o.Instances)}
			if kind == RejectJobBudget {
				x.JobUSD = o.JobUSD
			}
			sc.reject(counts, x)
			continue
		}
		sc.pos = j
		if sc.view != nil { // a view (Query.SpotView) may read all of an offer
			o.Geo, _ = m.cat.Geo(in.Provider, rp.Region)
		}
		kept := sc.add(best, &o, offerGroup{in.Provider, rp.Region, g, o.spreads(), o.Risky()})
		if kept == nil {
			continue
		}
		if lent {
			kept.Estimate = m.fullEstimate(shape.r) // kept: its own Estimate, not the ring's
		}
		if sc.view == nil {
			// Where the region is, for the offers kept only: nothing
			// before reads it (limits, lessHost), and about half the
			// offers weighed lose to another host of their group (a map
			// of two strings a look-up, ~2,200 of them a ranking of the
			// embedded catalog).
			kept.Geo, _ = m.cat.Geo(in.Provider, rp.Region)
		}
	}
}

// offerGroup is what keeps one offer in a Recommendation: one per
// provider, region and GPU, the best host. An offer that spreads the job
// over more GPUs than it needs (auto GPUs on a bigger host: faster) is a
// group of its own, so a time-against-cost view keeps it (and there a
// near tie on job cost goes to the faster host: lessHost); idle GPUs (a
// fixed count on a bigger host) are not.
type offerGroup struct {
	provider, region string
	gpu              *GPU
	faster           bool
	// risky keeps a borderline host apart from the host that fits: the
	// group's fitting host always won (lessHost's tier), so a borderline
	// 8×MI355X at 17 h and $1,087 was left out for a fitting 2-node
	// 7×MI355X at 1.2 years and $1.2M (a new user's walk). A borderline
	// host no cheaper on the sort key than its group's fitting one is
	// dropped after the scan (dropDominatedRisky).
	risky bool
}

// offerScan is what a Recommend's scan of the catalog collects: the
// offers, the best by sort of each offerGroup (or, cheapestOnly, the
// least one alone), and the near misses: the cheapest rejection of each
// instance type (its regions come together), nearMissCount of them at
// most; cheapestOnly (a savings eval) keeps none. A 100,000-type overlay
// keeps 10 records, not 100,000.
type offerScan struct {
	sort         SortKey
	cheapestOnly bool
	view         func(*Offer) (Offer, bool) // Query.SpotView under spot pricing, else nil
	viewed       *[2]Offer                  // the copies lessHost hands view
	offers       []Offer
	kept         []Rejection
	cheapest     Rejection // of the current instance; Instance nil when none
	considered   int       // prices looked at

	// at and pos are the index of the instance type being scanned in the
	// catalog and of its price. The near misses keep their type's index
	// (keptAt, as cheapestAt for cheapest), and a part of a split scan
	// (split, nil otherwise) writes its offers into the split's shared
	// list with where its group's first offer was found
	// (splitScan.seqs), to put the parts together as one scan.
	at, pos    int
	keptAt     []int
	cheapestAt int
	split      *splitScan

	// spread and spreadAt are, in a cheapestOnly scan on the job key,
	// the host kept so far of each group that spreads the job over more
	// GPUs than it needs (offerGroup.faster), indexed by group: lessHost
	// can keep a dearer one there, so its least offer is not always the
	// group's (cheapestOf).
	spread   []Offer
	spreadAt map[offerGroup]int
}

// nearMissCount is how many near misses a Recommendation keeps.
const nearMissCount = 10

// add keeps o when it is the best of its group k so far; best indexes
// the offers by group. It returns where o went (in sc.offers, or
// sc.spread), nil when it was not kept.
func (sc *offerScan) add(best map[offerGroup]int, o *Offer, k offerGroup) *Offer {
	if sc.cheapestOnly {
		if k.faster && sc.sort == SortJob {
			// lessHost keeps the faster of two such hosts at a near tie
			// on job cost, so the group's host is not always its least
			// offer: kept by group, as the grouped scan keeps it, and
			// weighed against the least offer at the end (cheapestOf).
			if sc.spreadAt == nil {
				sc.spreadAt = make(map[offerGroup]int)
			}
			return sc.addTo(sc.spreadAt, &sc.spread, o, k)
		}
		// The least offer by compareOffers, which orders every pair (it
		// ends on provider, type and region): the same Offers[0] as the
		// grouped, sorted list.
		if len(sc.offers) == 0 {
			sc.offers = append(sc.offers, *o)
		} else if lessOffer(o, &sc.offers[0], sc.sort) {
			sc.offers[0] = *o
		} else {
			return nil
		}
		return &sc.offers[0]
	}
	if _, ok := best[k]; !ok && sc.split != nil { // sc.offers is the split's shared list, as long as its prices
		i := sc.split.claim(sc.at, sc.pos)
		sc.offers[i] = *o
		best[k] = i
		return &sc.offers[i]
	}
	return sc.addTo(best, &sc.offers, o, k)
}

// addTo keeps o in *offers when it is the best of its group k so far
// (lessHost); at indexes *offers by group. It returns where o went, nil
// when it was not kept.
func (sc *offerScan) addTo(at map[offerGroup]int, offers *[]Offer, o *Offer, k offerGroup) *Offer {
	if i, ok := at[k]; ok {
		if sc.lessHost(o, &(*offers)[i]) {
			(*offers)[i] = *o
			return &(*offers)[i]
		}
		return nil
	}
	at[k] = len(*offers)
	*offers = append(*offers, *o)
	return &(*offers)[len(*offers)-1]
}

// cheapestOf ends a cheapestOnly scan: the least offer by compareOffers
// of the least offer kept and the hosts kept for the spread groups, as
// the grouped, sorted list would have it first.
func (sc *offerScan) cheapestOf() {
	for i := range sc.spread {
		if len(sc.offers) == 0 {
			sc.offers = append(sc.offers, sc.spread[i])
		} else if lessOffer(&sc.spread[i], &sc.offers[0], sc.sort) {
			sc.offers[0] = sc.spread[i]
		}
	}
	sc.spread, sc.spreadAt = nil, nil
}

// beyond reports, in a cheapestOnly scan on a cost key (price, monthly),
// that an offer at unit USD an hour per instance under pricing p cannot
// come before the least offer kept: an offer bills at least one
// instance, and ranks by its price (× the hours a month p bills,
// MonthlyUSD) times a slack of 1 or more (sortValue), so unit above the
// kept offer's sort value loses on the key, and a risky offer loses
// before it; a kept risky offer bounds nothing. Skipping it leaves
// Offers[0] as it was, with no estimate made.
func (sc *offerScan) beyond(unit float64, p Pricing, hoursPerMonth float64) bool {
	if !sc.cheapestOnly || len(sc.offers) == 0 {
		return false
	}
	best := &sc.offers[0]
	switch sc.sort {
	case SortPrice:
		return !best.Risky() && unit > sortValue(best, SortPrice)
	case SortMonthly:
		return !best.Risky() && MonthlyUSD(p, unit, hoursPerMonth) > sortValue(best, SortMonthly)
	}
	return false
}

// reject counts x by kind in counts and keeps it when it is the current
// instance's cheapest rejection.
func (sc *offerScan) reject(counts map[RejectKind]int, x Rejection) {
	if sc.cheapestOnly {
		return
	}
	counts[x.Kind]++
	if sc.cheapest.Instance == nil || compareRejections(x, sc.cheapest) < 0 {
		sc.cheapest, sc.cheapestAt = x, sc.at
	}
}

// nextInstance offers the last instance's cheapest rejection to the kept.
func (sc *offerScan) nextInstance() {
	if sc.cheapest.Instance != nil {
		sc.kept, sc.keptAt = keepNearMissAt(sc.kept, sc.keptAt, sc.cheapest, sc.cheapestAt, nearMissCount)
		sc.cheapest = Rejection{}
	}
}

// nearMisses returns the near misses kept, those no change to the request
// can fix (sorted last) dropped when others are left.
func (sc *offerScan) nearMisses() []Rejection {
	if len(sc.kept) > 0 && !unchangeable(sc.kept[0].Kind) {
		return slices.DeleteFunc(sc.kept, func(x Rejection) bool { return unchangeable(x.Kind) })
	}
	return sc.kept
}

// reasonCounts returns the rejections counted by kind, most first.
func reasonCounts(counts map[RejectKind]int) []ReasonCount {
	var out []ReasonCount
	for k, n := range counts {
		out = append(out, ReasonCount{k, n})
	}
	slices.SortFunc(out, func(a, b ReasonCount) int {
		if c := cmp.Compare(b.Count, a.Count); c != 0 {
			return c
		}
		return strings.Compare(string(a.Kind), string(b.Kind))
	})
	return out
}

// deployment is how many GPUs and nodes an instance type gives the job.
type deployment struct {
	nodes, gpus int
	strategy    Strategy
	replaced    FitVerdict // Offer.Replaced
	r           *estimateResult
}

// shape picks the GPU count on one instance type: the workload's own, or
// on auto the fewest whole instances that fit and meet the deadline at the
// slow end of their 90% time range, else the fewest that meet it at the
// fast end (a late offer: Offer.LateChance). It returns the reason when
// none does.
//
// saferLayout: on one GPU count the layout is pickLayout's, the rule
// estimate takes too (OpenLayout): a layout that fits only at the
// estimate (its 90% memory band past the usable VRAM: Offer.Risky, ranked
// after every offer that fits) gives way to a later one that fits across
// its band — FSDP where DDP is borderline, as FSDP is tried where DDP
// does not fit at all — and is kept when none does. Otherwise the layout
// depended on the deadline: with one, a borderline DDP on 8 × RTX A4000
// failed it at the slow end and FSDP answered (7.5 h, $9.02); without one
// the borderline DDP stood, ranked after the offers that fit, and
// --finish-by and --max-job-cost missed the FSDP layout (walk47). More
// GPUs are not tried for it: the count stays the fewest that fit.
func (m *matcher) shape(in *Instance, g *GPU) (deployment, RejectKind, Message) {
	w := &m.w
	usable := UsableBytes(g)
	// The framework first: no precision runs on a GPU it does not
	// support, so the precision's reason (fp32 trains them there) would
	// name a setting that does not help.
	if why := frameworkSupport(g, w.Framework); !why.IsZero() {
		return deployment{}, RejectSoftware, why
	}
	if why := Refused(w, g, m.q.PrecisionAsked, m.q.AllowPrecisionFallback); !why.IsZero() {
		return deployment{}, RejectPrecision, why
	}
	if !m.q.AutoGPUs {
		nodes := (w.GPUs + in.GPUCount - 1) / in.GPUCount
		// The user's count, with the strategies auto GPUs try on it
		// (FSDP where data parallel does not fit or is borderline, unless
		// a strategy is named), picked by pickLayout as estimate picks
		// it: the first that fits memory across its band and host RAM,
		// else the first that fits at the estimate, else the last tried,
		// the one that needs the least.
		strategies := []Strategy{w.Strategy}
		if w.GPUs/max(w.TP, 1) > 1 {
			strategies = m.strategies()
		}
		var asked deployment
		d, at, own := pickLayout(len(strategies), func(i int) (deployment, FitVerdict) { // saferLayout
			r := m.estimateOn(in, g, w.GPUs, strategies[i])
			d := deployment{nodes: nodes, gpus: w.GPUs, strategy: strategies[i], r: r}
			if i == 0 {
				asked = d
			}
			if r.err != nil || !m.hostRAM(in, r).IsZero() {
				return d, VerdictNoFit
			}
			return d, layoutVerdict(r.need, r.band, usable)
		})
		if at > 0 {
			d.replaced = own
		}
		r := d.r
		if r.err != nil {
			return d, RejectInvalid, ErrMessage(r.err)
		}
		// Memory first: allowing multi-node does not help a GPU too small.
		// The need said first is the asked layout's (estimate's figure),
		// then FSDP's when it was tried too.
		if need := r.need; need > usable && d.strategy == FSDP && asked.strategy != FSDP && asked.r.err == nil {
			if sameTenth(need, usable) {
				return d, RejectVRAM, Msg("needs %.2f GiB per GPU, %.2f GiB even sharded with FSDP, has %.2f GiB usable", asked.r.need/GiB, need/GiB, usable/GiB)
			}
			return d, RejectVRAM, Msg("needs %.1f GiB per GPU, %.1f GiB even sharded with FSDP, has %.1f GiB usable", asked.r.need/GiB, need/GiB, usable/GiB)
		} else if need > usable {
			return d, RejectVRAM, vramShort(need, usable)
		}
		if nodes > m.q.MaxNodes {
			if !m.q.AllowMultiNode {
				return d, RejectGPUCount, Msg("needs %d GPUs, has %d (allow multi-node for %d instances)", w.GPUs, in.GPUCount, nodes)
			}
			return d, RejectNodes, Msg("needs %d instances, above the %d-node limit", nodes, m.q.MaxNodes)
		}
		if nodes > 1 && w.GPUs%nodes != 0 {
			// The launch files start one count of processes on every node
			// (launch.NewPlan refuses the rest): an offer of 32 GPUs on
			// eleven 3-GPU instances could not be exported (walk48).
			return d, RejectInvalid, Msg("%d GPUs do not split evenly over %d instances of %d GPUs, as the launch files start the same number on each: ask for %d (all the GPUs of %d instances) or another multiple of %d",
				w.GPUs, nodes, in.GPUCount, nodes*in.GPUCount, nodes, nodes)
		}
		if why := m.hostRAM(in, r); !why.IsZero() {
			return d, RejectHostRAM, why
		}
		return d, "", Message{}
	}
	strategies := m.strategies()
	if m.q.MaxGPUs > 0 && in.GPUCount > m.q.MaxGPUs {
		return deployment{}, RejectGPULimit, Msg("has %d GPUs, above the %d-GPU limit", in.GPUCount, m.q.MaxGPUs)
	}
	var last, late deployment // late: the fewest GPUs whose time range straddles the deadline
	lastNeed := 0.0
	for nodes := 1; nodes <= m.q.MaxNodes; nodes *= 2 {
		n := nodes * in.GPUCount
		if m.q.MaxGPUs > 0 && n > m.q.MaxGPUs {
			break // the cap: the last count tried says why it did not fit
		}
		layouts := strategies
		if n == 1 {
			layouts = m.oneGPU(strategies)
		}
		d, at, own := pickLayout(len(layouts), func(i int) (deployment, FitVerdict) { // saferLayout
			if w.TP > 1 && n%w.TP != 0 {
				return deployment{}, VerdictNoFit
			}
			r := m.estimateOn(in, g, n, layouts[i])
			d := deployment{nodes: nodes, gpus: n, strategy: layouts[i], r: r}
			last = d
			if r.err != nil {
				return d, VerdictNoFit
			}
			lastNeed = r.need
			if lastNeed > usable || !m.hostRAM(in, r).IsZero() {
				return d, VerdictNoFit
			}
			switch r.deadlineVerdict(m.q.DeadlineHours) {
			case VerdictNoFit:
				return d, VerdictNoFit
			case VerdictBorderline: // kept unless more GPUs meet it at the slow end
				if late.r == nil {
					late = d
				}
				return d, VerdictNoFit
			}
			return d, layoutVerdict(r.need, r.band, usable)
		})
		if at > 0 {
			d.replaced = own
		}
		if at >= 0 {
			return d, "", Message{}
		}
	}
	if late.r != nil {
		return late, "", Message{}
	}
	switch {
	case last.r == nil:
		return last, RejectInvalid, Msg("no valid GPU count")
	case last.r.err != nil && last.r.batch:
		return last, RejectBatch, ErrMessage(last.r.err)
	case last.r.err != nil:
		return last, RejectInvalid, ErrMessage(last.r.err)
	case lastNeed > usable && last.gpus > 1:
		if sameTenth(lastNeed, usable) {
			return last, RejectVRAM, Msg("needs %.2f GiB per GPU even on %d GPUs, has %.2f GiB usable", lastNeed/GiB, last.gpus, usable/GiB)
		}
		return last, RejectVRAM, Msg("needs %.1f GiB per GPU even on %d GPUs, has %.1f GiB usable", lastNeed/GiB, last.gpus, usable/GiB)
	case lastNeed > usable:
		return last, RejectVRAM, vramShort(lastNeed, usable)
	case !m.hostRAM(in, last.r).IsZero():
		return last, RejectHostRAM, m.hostRAM(in, last.r)
	case m.q.DeadlineHours > 0:
		return last, RejectDeadline, m.assumedNetwork(in, g, last.nodes, Msg("takes %.1f h on %s (90%% range %.1f–%.1f h), over the %s h deadline even at the range's fast end",
			last.r.hours, CountMsg(last.gpus, "GPU"), last.r.timeBand[0], last.r.timeBand[1], FormatAsGiven(m.q.DeadlineHours)))
	}
	return last, RejectInvalid, Msg("does not fit")
}

// frameworkSupport returns why PyTorch cannot use g, or "": AMD GPUs need
// a ROCm build, and AMD's ROCm compatibility matrix (rocm.docs.amd.com,
// "System requirements (Linux)") lists Instinct accelerators (CDNA) and
// recent Radeon PRO/RX cards, not the graphics-virtualisation Radeon Pro
// V520 (RDNA1) nor the Vega-based Instinct MI25 (GCN5, dropped after ROCm 4.5).
// TensorFlow and JAX run on AMD GPUs through the same ROCm, so the reason
// names the framework asked for, not PyTorch.
func frameworkSupport(g *GPU, fw Framework) Message {
	if g.Vendor == "amd" && !strings.HasPrefix(g.Architecture, "cdna") {
		build := Msg("PyTorch's ROCm builds")
		switch fw {
		case TensorFlow:
			build = Msg("TensorFlow's ROCm builds")
		case JAX:
			build = Msg("JAX's ROCm builds")
		}
		return Msg("%s (%s) is not supported by %s", g.Name, g.Architecture, build)
	}
	return Message{}
}

// NodeHostRAMNeed returns the host RAM, in bytes, one instance of gpus
// GPUs needs for e: HostRAMNeed for the processes it runs (gpus, or the
// job's GPUs when it asked for fewer) plus what each GPU's process
// offloads there (ZeRO-Offload, FSDP CPU offload, activation offload:
// Estimate.States.HostOffload per GPU).
func NodeHostRAMNeed(e *Estimate, gpus int) float64 { return nodeHostRAMOf(e).need(gpus) }

// nodeHostRAM is what NodeHostRAMNeed reads of an Estimate, so that the
// ranking's estimate summaries (estimateResult) need not hold it whole.
type nodeHostRAM struct {
	jobGPUs     int // Workload.GPUs
	load        hostLoad
	hostOffload float64
}

func nodeHostRAMOf(e *Estimate) nodeHostRAM {
	return nodeHostRAM{e.Workload.GPUs, hostLoadOf(&e.Workload, e.Params), e.States.HostOffload}
}

// need is NodeHostRAMNeed(e, gpus): HostRAMNeed for the processes one
// instance of gpus GPUs runs, plus what each offloads.
func (h nodeHostRAM) need(gpus int) float64 {
	procs := gpus
	if h.jobGPUs > 0 {
		procs = min(gpus, h.jobGPUs)
	}
	// Each process offloads its own states: a host with more GPUs than
	// the job runs holds only the job's (a walk: one of a 2× host's
	// GPUs "needs 393 GiB" where a 1× host needed 224).
	return max(MinHostRAMBytes, h.load.bytes(procs)) + h.hostOffload*float64(procs)
}

// hostRAM says why in's host RAM cannot run r, "" when it can. Under
// hostFree it passes every host and keeps the most it asked for
// (ramBound; NaN stays NaN).
func (m *matcher) hostRAM(in *Instance, r *estimateResult) Message {
	need := r.hostRAM.need(in.GPUCount)
	if m.hostFree {
		m.ramBound = max(m.ramBound, need)
		return Message{}
	}
	if in.MemoryGiB*GiB < need {
		return Msg("host RAM %.0f GiB, needs %.0f GiB", in.MemoryGiB, need/GiB)
	}
	return Message{}
}

// offer prices a deployment in one region. Its Estimate is the ring's
// (lent) when d's whole Estimate is not built yet and the ring holds it:
// an offer the scan drops (a group keeps one host; about a quarter of
// the estimates offers carry in a ranking of the embedded catalog are
// only ever those of dropped offers, each ~1.9 KB of fresh pages) then
// builds none, and the caller gives one it keeps its own (fullEstimate)
// before the ring moves on.
func (m *matcher) offer(in *Instance, g *GPU, region string, unit float64, d deployment) (Offer, bool) {
	e, lent := d.r.full.Load(), false
	if e == nil {
		if e = m.recent.lend(d.r); e != nil {
			lent = true
		} else {
			e = m.fullEstimate(d.r)
		}
	}
	o := Offer{
		Instance: in, GPU: g, Region: region, Pricing: m.q.Pricing, Discount: m.cat.DiscountFor(in, m.q.Pricing),
		Instances: d.nodes, GPUs: d.gpus, Strategy: e.Workload.Strategy, Replaced: d.replaced,
		NeedBytes: e.ResidentNeed(), UsableBytes: UsableBytes(g),
		USDPerHour: unit * float64(d.nodes), Estimate: e, Asked: m.w.Precision, Fallback: d.r.fallback,
		Redefined: m.cat.GPURedefinition(g.Key),
	}
	o.HeadroomPct = (o.UsableBytes - o.NeedBytes) / o.UsableBytes * 100
	o.Verdict = MemoryVerdict(o.NeedBytes, e.ResidentBand(), o.UsableBytes)
	if o.Verdict == VerdictBorderline {
		o.OOMChance = e.OOMChance(OOMBytes(g))
	}
	o.MonthlyUSD = MonthlyUSD(o.Pricing, o.USDPerHour, m.q.HoursPerMonth)
	if deadlineVerdict(e, m.q.DeadlineHours) == VerdictBorderline {
		o.LateChance, o.DeadlineHours = e.OverrunChance(m.q.DeadlineHours), m.q.DeadlineHours
	}
	if e.HasTime {
		o.JobHours = e.Hours
		o.JobUSD, o.CommitmentUSD = jobBill(o.Pricing, o.USDPerHour, e.Hours)
		o.HasJob = true
	} else {
		_, o.CommitmentUSD = jobBill(o.Pricing, o.USDPerHour, 0)
	}
	return o, lent
}

// limits checks the price, budget and deadline filters.
//
// Money in the reasons is grouped by thousands, hourly and job figures to
// the cent (USDCents), monthly ones to the dollar (USDWhole), as the
// tables write them.
func (m *matcher) limits(o *Offer) (RejectKind, Message) {
	q := &m.q
	switch {
	case q.MaxUSDPerHour > 0 && o.USDPerHour > q.MaxUSDPerHour:
		return RejectPrice, Msg("%s/h is above the %s/h limit", USDCents(o.USDPerHour), USDCents(q.MaxUSDPerHour))
	case q.BudgetMonthUSD > 0 && o.MonthlyUSD > q.BudgetMonthUSD && TermMonths(o.Pricing) > 0:
		// Beside --hours-per-month 200, "$324/month" for a $0.44/h offer
		// reads as a slip unless it says the hours are the commitment's.
		return RejectBudget, Msg("%s/month (%.0f h committed) is above the %s budget",
			USDWhole(o.MonthlyUSD), max(q.HoursPerMonth, HoursPerMonth), USDWhole(q.BudgetMonthUSD))
	case q.BudgetMonthUSD > 0 && o.MonthlyUSD > q.BudgetMonthUSD:
		return RejectBudget, Msg("%s/month is above the %s budget", USDWhole(o.MonthlyUSD), USDWhole(q.BudgetMonthUSD))
	case q.BudgetJobUSD > 0 && o.HasJob && o.JobUSD > q.BudgetJobUSD:
		return RejectJobBudget, Msg("%s for the job is above the %s job budget", USDCents(o.JobUSD), USDCents(q.BudgetJobUSD))
	case q.DeadlineHours > 0 && o.HasJob && deadlineVerdict(o.Estimate, q.DeadlineHours) == VerdictNoFit:
		return RejectDeadline, m.assumedNetwork(o.Instance, o.GPU, o.Instances, Msg("takes %.1f h (90%% range %.1f–%.1f h), over the %s h deadline even at the range's fast end",
			o.JobHours, o.Estimate.TimeBand[0], o.Estimate.TimeBand[1], FormatAsGiven(q.DeadlineHours)))
	case q.DeadlineHours > 0 && !o.HasJob && o.Estimate != nil && o.Estimate.Samples > 0 && o.untimed():
		// A job with no time cannot be shown to meet the deadline.
		return RejectDeadline, Msg("no time estimate on %s, so the %s h deadline cannot be checked", o.GPU.Name, FormatAsGiven(q.DeadlineHours))
	}
	return "", Message{}
}

// assumedNetwork returns why, a deadline miss of in on nodes instances,
// with the network figure it rests on when in has none: a training job
// across nodes of such a type is timed at Catalog.DefaultNetwork (the
// user's --network-gbps, else the catalog's median for the GPU and node
// size, else AssumedNetworkGbps), so the miss may be the figure's, not the
// host's (Offer.AssumesNetwork). The reason then ends "the catalog has no
// network figure for TYPE; timed at 2400 Gbps per node, the median of
// ..." and Rejection.NetworkAssumed is set (netAssumed).
func (m *matcher) assumedNetwork(in *Instance, g *GPU, nodes int, why Message) Message {
	if !netAssumed(&m.w, in, nodes) || g == nil {
		return why
	}
	per := max(in.GPUCount, 1)
	f := m.defaultNetwork(g, per)
	if NoFabricNetwork(in) && !networkGiven(&m.w) {
		f = netFigure{AssumedNetworkGbps, NetworkNoFabric}
	}
	return Msg("%v; the catalog has no network figure for %s; timed at %v", why, in.Type, NetworkFigureMsg(f.gbps, f.from, g, per))
}

// netAssumed reports whether w's time on nodes instances of in rests on a
// network figure not the type's own, as Offer.AssumesNetwork does for an
// offer.
func netAssumed(w *Workload, in *Instance, nodes int) bool {
	return nodes > 1 && in.NetworkGbps <= 0 && w.Task.Training()
}

// deadlineVerdict weighs the 90% range of e's time (Estimate.TimeBand)
// against a deadline as VerdictFor weighs memory: fits when the range's
// slow end meets it, borderline when only its fast end does
// (Estimate.OverrunChance says how likely missing it is), does not fit
// when even the fast end is past it. Fits without a deadline or a time.
func deadlineVerdict(e *Estimate, deadline float64) FitVerdict {
	if e == nil {
		return VerdictFits
	}
	return timeVerdict(e.HasTime, e.TimeBand, deadline)
}

// deadlineVerdict is deadlineVerdict of r's Estimate.
func (r *estimateResult) deadlineVerdict(deadline float64) FitVerdict {
	return timeVerdict(r.hasTime, r.timeBand, deadline)
}

func timeVerdict(hasTime bool, band [2]float64, deadline float64) FitVerdict {
	if deadline <= 0 || !hasTime {
		return VerdictFits
	}
	return VerdictFor(band, deadline)
}

// Late reports whether o may miss the deadline: its time range straddles
// it (LateChance).
func (o *Offer) Late() bool { return o.LateChance > 0 }

// AssumesNetwork reports whether o's time rests on a network figure not
// its type's own: a training job spread over several instances whose type
// has no network figure in the catalog, so its cross-node gradient
// traffic is timed at Catalog.DefaultNetwork (see the multi-node warning,
// which names the figure and where it comes from: NetworkFigure).
func (o *Offer) AssumesNetwork() bool {
	return o.Estimate != nil && o.Instances > 1 && o.Instance.NetworkGbps <= 0 && o.Estimate.Workload.Task.Training()
}

// NetworkFigure says which node network o is timed at when its type has
// none (AssumesNetwork) and where it comes from (NetworkFigureMsg); zero
// otherwise.
func (o *Offer) NetworkFigure() Message {
	if !o.AssumesNetwork() {
		return Message{}
	}
	h := &o.Estimate.Host
	return NetworkFigureMsg(o.NetworkGbps(), h.NetworkFrom, o.GPU, h.GPUsPerNode)
}

// NetworkGbps is the node network o's time is costed at, Gbps per node: its
// type's, or for a type without one (AssumesNetwork) the figure it is
// timed at instead; 0 on one node.
func (o *Offer) NetworkGbps() float64 {
	if o.Estimate == nil {
		return 0
	}
	h := &o.Estimate.Host
	return math.Round(h.InterGBps*8*float64(h.GPUsPerNode)*1e6) / 1e6
}

// untimed reports whether the catalog lacks a figure the offer's time
// needs: a peak rate for the precision, or the memory bandwidth.
func (o *Offer) untimed() bool {
	return o.Estimate.GPU != nil && (o.Estimate.PeakTFLOPS == 0 || o.Estimate.NoBandwidth)
}

// intraNodeWarning says, for a training job over several instances, what
// joins each node's GPUs when it slows gradient sync or is not known:
//   - a multi-GPU type whose interconnect the catalog does not state, of
//     a GPU that is a module (NVLink, Infinity Fabric): its time uses the
//     GPU's own link (HostOf), which is said as the assumption it is
//     (new-user walk: aws/p4de.24xlarge, NVSwitch by AWS's word, was
//     warned as lacking NVLink);
//   - PCIe only between the node's GPUs (a type stated PCIe, PCIe cards,
//     or one GPU per node): slow, in the GPU vendor's words (AMD's GPU
//     link is Infinity Fabric, xGMI; the walk saw NVIDIA's on MI355X).
func (o *Offer) intraNodeWarning() (Message, bool) {
	in, g := o.Instance, o.GPU
	if o.Instances <= 1 || !o.Estimate.Workload.Task.Training() || in.FastInterconnect() {
		return Message{}, false
	}
	if in.Interconnect == "" && in.GPUCount > 1 && g != nil && g.Interconnect != "" && g.Interconnect != "pcie" {
		if g.InterconnectGBps <= 0 { // Host.IntraGBps 0: the step's collectives are not costed
			return Msg("multi-node training: the catalog does not state %s's GPU interconnect, nor the rate of its GPU's own link (%s): gradient sync is not timed",
				in.Type, linkName(g.Interconnect)), true
		}
		return Msg("multi-node training: the catalog does not state %s's GPU interconnect; timed at the GPU's own link, %s at %g GB/s; PCIe only inside the node would make gradient sync slower",
			in.Type, linkName(g.Interconnect), g.InterconnectGBps), true
	}
	if g != nil && g.Vendor == "amd" {
		return Msg("multi-node training without Infinity Fabric (xGMI) links inside the node: gradient sync will be slow"), true
	}
	return Msg("multi-node training without NVLink/NVSwitch inside the node: gradient sync will be slow"), true
}

// linkName is the name of a catalog interconnect value as vendors write
// it: "nvlink" NVLink, "nvswitch" NVSwitch, "infinity-fabric" Infinity
// Fabric (xGMI, AMD's GPU-to-GPU link), "pcie" PCIe; others as given.
func linkName(interconnect string) string {
	switch interconnect {
	case "nvlink":
		return "NVLink"
	case "nvswitch":
		return "NVSwitch"
	case "infinity-fabric":
		return "Infinity Fabric (xGMI)"
	case "pcie":
		return "PCIe"
	}
	return interconnect
}

// Warnings returns what the user should know before renting the offer:
// spot interruptions, precision and attention fallbacks, slow multi-node
// links, idle GPUs paid for, unknown compute rates, marketplace prices.
// They are computed on demand so that matching allocates nothing per offer.
func (o *Offer) Warnings() []string { return Strings(o.WarningMessages()) }

// WarningMessages are Warnings as messages, for translation.
func (o *Offer) WarningMessages() []Message {
	var out []Message
	if o.Redefined != nil {
		out = append(out, o.Redefined.Warning())
	}
	if o.Estimate == nil {
		return out
	}
	w := &o.Estimate.Workload
	if o.Verdict == VerdictBorderline {
		args := []any{o.Estimate.ResidentBand()[1] / GiB, o.UsableBytes / GiB, FitMargin * 100, RoundChance(o.OOMChance) * 100, OOMBytes(o.GPU) / GiB}
		if w.MicroBatch > 1 {
			out = append(out, Msg("~ borderline: the 90%% range reaches %.2f GiB, past the %.2f GiB usable (%.0f%% margin kept free); about %.0f%% chance of running out of memory, that is of needing more than the %.2f GiB the driver exposes; leave room or use a smaller micro-batch", args...))
		} else { // at micro-batch 1 there is no smaller one to advise
			out = append(out, Msg("~ borderline: the 90%% range reaches %.2f GiB, past the %.2f GiB usable (%.0f%% margin kept free); about %.0f%% chance of running out of memory, that is of needing more than the %.2f GiB the driver exposes; leave room", args...))
		}
	}
	if o.Late() {
		out = append(out, Msg("~ may miss the deadline: about %.0f%% chance the job takes longer than %s h (the 90%% range of its time is %.1f–%.1f h)",
			RoundChance(o.LateChance)*100, FormatAsGiven(o.DeadlineHours), o.Estimate.TimeBand[0], o.Estimate.TimeBand[1]))
	}
	if o.Pricing == Spot {
		out = append(out, Msg(SpotWarning))
	}
	if m, ok := o.commitmentMessage(); ok {
		out = append(out, m)
	}
	if o.Fallback != "" {
		out = append(out, Msg("%s lacks %s: runs in %s", o.GPU.Name, o.Asked, o.Fallback))
	}
	if m, ok := fp16Overflow(w, o.GPU); ok {
		out = append(out, m)
	}
	if w.Flash() && w.Model.HasShape() && !o.GPU.FlashAttention() {
		out = append(out, Msg("FlashAttention-2 needs compute capability 8.0; PyTorch falls back to its memory-efficient SDPA kernel"))
	}
	if m, ok := o.intraNodeWarning(); ok {
		out = append(out, m)
	}
	if o.Instances > 1 && o.Instance.NetworkGbps > 0 && o.Instance.NetworkGbps < 100 && w.Task.Training() {
		out = append(out, Msg("multi-node over %.0f Gbps networking: expect poor scaling", o.Instance.NetworkGbps))
	}
	if o.AssumesNetwork() {
		out = append(out, Msg("multi-node: the catalog has no network figure for %s; timed at %v", o.Instance.Type, o.NetworkFigure()))
	}
	if o.GPUs < o.Instances*o.Instance.GPUCount {
		out = append(out, Msg("uses %d of the %d GPUs you pay for", o.GPUs, o.Instances*o.Instance.GPUCount))
	}
	if o.Estimate.GPU != nil && o.Estimate.PeakTFLOPS == 0 {
		out = append(out, Msg("no published compute rate for %s: time and job cost unknown", o.GPU.Name))
	}
	if m, ok := o.Estimate.UncalibratedNote(); ok { // AMD: no calibration source (widenForVendor)
		out = append(out, m)
	}
	if o.Estimate.NoBandwidth {
		out = append(out, Msg("no published memory bandwidth for %s, which this workload's time needs: time and job cost unknown", o.GPU.Name))
	}
	if o.Instance.Retired != "" {
		out = append(out, Msg("retired by the provider on %s", o.Instance.Retired))
	}
	if slices.Contains(MarketplaceProviders, o.Instance.Provider) {
		out = append(out, Msg("marketplace offer: price and availability change by the hour"))
	}
	if o.Instance.Arch() == string(ArchARM) {
		out = append(out, Msg(ArmHostWarning))
	}
	if _, origin := o.Provenance(); origin != "" && origin != "embedded" {
		out = append(out, Msg("price from overlay %s", origin))
	}
	return out
}

// AllowsProvider reports whether q lets offers of provider p through: the
// providers it names, else every provider but the marketplaces
// (MarketplaceProviders).
func (q *Query) AllowsProvider(p string) bool {
	if len(q.Providers) == 0 {
		return !slices.Contains(MarketplaceProviders, p)
	}
	return slices.Contains(q.Providers, p)
}

// AllowsGPU reports whether q lets offers of the GPU with catalog key key
// through.
func (q *Query) AllowsGPU(key string) bool {
	return len(q.GPUs) == 0 || slices.Contains(q.GPUs, key)
}

// scans reports whether Recommend prices instance type in for q: offered
// (Instance.Offered), and of a provider, GPU and name q allows.
func (q *Query) scans(in *Instance) bool {
	return in.Offered() && q.AllowsProvider(in.Provider) && q.AllowsGPU(in.GPU) && (q.InstanceType == "" || in.Type == q.InstanceType)
}

// RegionFilter returns q's region and country filter (Regions and
// Countries) over cat's geography, parsed once: its Match decides each
// provider's region.
func (q *Query) RegionFilter(cat *Catalog) RegionFilter {
	return NewRegionFilter(cat, q.Regions, q.Countries)
}

// RegionMatches applies a region filter: r matches when wants is empty,
// names r, or holds a prefix of r ending in '-' ("us-") or '*' ("asia*",
// the '*' left out). A placeholder naming no place (RegionUnstated) is
// matched by its own name only: a prefix stands for regions by where
// they are (us-, europe-), which such a row does not say (walk51: e*
// listed Daytona's "earth").
func RegionMatches(r string, wants []string) bool {
	if len(wants) == 0 {
		return true
	}
	prefixes := !RegionUnstated(r)
	for _, want := range wants {
		if r == want || prefixes && (strings.HasSuffix(want, "-") && strings.HasPrefix(r, want) || strings.HasSuffix(want, "*") && strings.HasPrefix(r, strings.TrimSuffix(want, "*"))) {
			return true
		}
	}
	return false
}

// describeFilters names the query's filters as a message, each piece
// translatable (a new user's zh-CN recommend --country cn read
// "…符合 countries cn, pricing on-demand (list them with gpuplan catalog
// instances)").
func (m *matcher) describeFilters() Message {
	var parts []Message
	if len(m.q.Providers) > 0 {
		parts = append(parts, Msg("providers %s", strings.Join(m.q.Providers, ",")))
	}
	if len(m.q.GPUs) > 0 { // --gpu: left out, "providers vast" read as vast renting nothing (a walk)
		parts = append(parts, Msg("GPU %s", strings.Join(m.q.GPUs, ",")))
	}
	if m.q.InstanceType != "" {
		parts = append(parts, Msg("instance type %s", m.q.InstanceType))
	}
	if len(m.q.Regions) > 0 {
		parts = append(parts, Msg("regions %s", strings.Join(m.q.Regions, ",")))
	}
	if len(m.q.Countries) > 0 {
		parts = append(parts, Msg("countries %s", strings.Join(m.q.Countries, ",")))
	}
	parts = append(parts, Msg("pricing %v", Msg(string(m.q.Pricing))))
	all := parts[0]
	for _, p := range parts[1:] {
		all = Msg("%v, %v", all, p)
	}
	return Msg("%v (list them with gpuplan catalog instances)", all)
}

// SizedSlack is how much cheaper, as a share of its cost, an offer that
// rents more GPUs than the job needs (Offer.Oversized) must be to rank
// above one sized to the job on the cost keys. An 8-GPU host running a
// 1-GPU job on all 8 GPUs finishes about 8× sooner at about the same job
// cost; closer than 10% is inside the estimate's own error (the 90% time
// bands of calibration_bands.go, and the ×0.75–×1.33 fallback, are
// all wider than ±10%), while the bigger host adds data-parallel
// communication the estimate only approximates, idle GPUs when the count
// is fixed, and a larger reservation to obtain. So a near tie goes to the
// host sized to the job; a clear saving still wins. Sorting by time or
// headroom ignores it: there the bigger host's speed is the point, and so
// it is among the hosts that all spread the job over more GPUs than it
// needs (the group kept for speed): there a near tie goes to the faster
// host (lessHost).
const SizedSlack = 0.10

// Rented is how many GPUs the offer pays for: instances × GPUs per instance.
func (o *Offer) Rented() int { return o.Instances * o.Instance.GPUCount }

// Oversized reports whether the offer rents more GPUs than the job needs
// on this GPU type (SizedGPUs).
func (o *Offer) Oversized() bool { return o.SizedGPUs > 0 && o.Rented() > o.SizedGPUs }

// spreads reports whether the offer runs the job on more GPUs than it
// needs (auto GPUs on a bigger host: faster), not only rents them: the
// group a Recommendation keeps for speed (offerGroup.faster).
func (o *Offer) spreads() bool { return o.SizedGPUs > 0 && o.GPUs > o.SizedGPUs }

// nearTie reports whether two job costs are within SizedSlack of each
// other: the dearer at most SizedSlack above the cheaper.
func nearTie(a, b float64) bool { return max(a, b) <= min(a, b)*(1+SizedSlack) }

// OnDemandJobUSD is the job's cost at the same deployment's on-demand
// price (JobHours × OnDemandUSDPerHour); false without a job time or an
// on-demand price.
func (o *Offer) OnDemandJobUSD() (float64, bool) {
	if !o.HasJob || o.OnDemandUSDPerHour <= 0 {
		return 0, false
	}
	return o.JobHours * o.OnDemandUSDPerHour, true
}

// sizedGPUs is the fewest GPUs of g that run the job (memory, and the
// deadline timed on the default host): the user's count when it is
// fixed, else the first of 1, 2, 4, … below the deployment's that
// passes, with the strategies shape tries. Estimates come from the cache.
func (m *matcher) sizedGPUs(g *GPU, d *deployment) int {
	if !m.q.AutoGPUs || d.r == nil {
		return d.gpus
	}
	w := &m.w
	strategies := m.strategies()
	usable := UsableBytes(g)
	for n := 1; n < d.gpus; n *= 2 {
		for _, s := range strategies {
			if n == 1 {
				s = m.oneGPU(strategies)[0]
			}
			if w.TP > 1 && n%w.TP != 0 {
				continue
			}
			r := m.estimate(g, n, s)
			if r.err != nil || r.need > usable {
				continue
			}
			// As the deadline below: a count risky to run out of memory
			// ranks after every offer that fits (Offer.Risky), so it is
			// not a host sized to the job unless the deployment's is too.
			if r.riskyOn(g) && !d.r.riskyOn(g) {
				continue
			}
			// As shape: a count that meets the deadline only at the fast
			// end of its time range is sized when the deployment's is too.
			switch r.deadlineVerdict(m.q.DeadlineHours) {
			case VerdictNoFit:
				continue
			case VerdictBorderline:
				if d.r.deadlineVerdict(m.q.DeadlineHours) != VerdictBorderline {
					continue
				}
			}
			return n
		}
	}
	return d.gpus
}

// sortValue returns the value an offer is ranked by (lower first); offers
// without a job time rank after those with one for job and time. Cost
// keys weigh an oversized offer up by SizedSlack.
func sortValue(o *Offer, k SortKey) float64 {
	if k == SortHeadroom {
		return -o.HeadroomPct
	}
	v := RankedFigure(o, k)
	if k != SortTime && o.Oversized() {
		v *= 1 + SizedSlack
	}
	return v
}

// Risky reports whether o is borderline (VerdictBorderline): the 90%
// range of its memory need does not fit the GPU, so it has a chance of
// running out of memory (OOMChance, shown beside its "~"). A risky offer
// ranks after every offer that fits across its whole range, whatever the
// sort key (compareOffers), so that the "best:" line users act on is
// never an offer that may not run while one that fits exists (issue 30:
// the first screen's best was a V100 16GB, band up to 17.38 GiB, about a
// 10% chance of an OOM). Before, only chances above 10% ranked last.
// When nothing fits across its range, the best borderline offer leads.
func (o *Offer) Risky() bool { return o.Verdict == VerdictBorderline }

// riskyOn reports whether r's Estimate on g would make a risky offer
// (Offer.Risky: its ResidentBand straddles the usable memory).
func (r *estimateResult) riskyOn(g *GPU) bool {
	return VerdictFor(r.band, UsableBytes(g)) == VerdictBorderline
}

// RiskyAhead is the offer that would rank first but for its chance of
// running out of memory: the best risky offer (Offer.Risky) by r.Sort
// when it beats the first offer, which fits; nil when there is none, the
// first offer is risky itself, or r is sorted by headroom (where a risky
// offer never leads). Its rank in r.Offers is the second result (0-based).
// Reports say it, so that a cheaper host listed far down is not read as
// missed (new-user walk, S4: 2×H100 at $5.46/h with a 15% chance, after
// 8×H100 at $75.96/h).
func (r *Recommendation) RiskyAhead() (*Offer, int) {
	if len(r.Offers) == 0 || r.Offers[0].Risky() || r.Sort == SortHeadroom {
		return nil, -1
	}
	top := sortValue(&r.Offers[0], r.Sort)
	var best *Offer
	at := -1
	for i := range r.Offers {
		o := &r.Offers[i]
		if !o.Risky() {
			continue
		}
		if v := sortValue(o, r.Sort); v < top && (best == nil || v < sortValue(best, r.Sort)) {
			best, at = o, i
		}
	}
	return best, at
}

// TryFirstShare is the largest share of the first offer's figure on the
// sort key (job cost, job time, price per hour or per month) at which the
// risky offer ahead (RiskyAhead) is worth trying before it, so reports
// name it under the "best:" line and not only under the table
// (Recommendation.TryFirst). The ranking is unchanged: the first offer
// still fits across its memory range.
//
// Why a half. Trying the risky offer (figure R, chance of running out of
// memory p) and, when it does, running the job on the first offer (B)
// costs (1−p)·R + p·(f·R + B) in expectation, f being the share of the
// job done when memory runs out. That is below B for any f, even an
// out-of-memory error at the job's very end (f = 1), once R ≤ (1−p)·B;
// TryFirst asks R ≤ min(½, 1−p)·B, so a chance above one half lowers the
// bar further. In practice f is close to 0: a training step of fixed
// shape reaches its peak memory in the first iterations (PyTorch
// allocates Adam's states lazily in the first optimizer.step,
// torch/optim/adam.py; its memory snapshots show every later iteration
// repeat the same pattern, pytorch.org/blog/understanding-gpu-memory-1),
// so a failed try costs minutes of rent, not the job. The half, rather
// than 1−p alone, keeps a saving inside the time estimate's own errors
// (90% ranges up to ×0.61–×2.1 of a figure) off the headline; the line
// under the table (RiskyAhead) names any cheaper risky offer.
const TryFirstShare = 0.5

// TryFirst is RiskyAhead when that offer's figure on r.Sort is at most
// TryFirstShare, and at most 1 − its chance of running out of memory
// (rounded as reports print it, RoundChance), of the first offer's;
// share is the ratio of the two figures (RankedFigure: the price, the
// month, the job's cost or time, without SizedSlack's weight). nil (and
// -1, 0) when there is none. Its rank in r.Offers is the second result.
func (r *Recommendation) TryFirst() (o *Offer, at int, share float64) {
	o, at = r.RiskyAhead()
	if o == nil {
		return nil, -1, 0
	}
	top := RankedFigure(&r.Offers[0], r.Sort)
	if !(top > 0) || math.IsInf(top, 1) {
		return nil, -1, 0
	}
	share = RankedFigure(o, r.Sort) / top
	if share > min(TryFirstShare, 1-RoundChance(o.OOMChance)) {
		return nil, -1, 0
	}
	return o, at, share
}

// RankedFigure is the figure k ranks o by as a reader sees it: sortValue
// without SizedSlack's weight (the price per hour or month, the job's
// cost or time); +Inf without a job time on the job keys, and for
// headroom, which has no such figure.
func RankedFigure(o *Offer, k SortKey) float64 {
	switch k {
	case SortMonthly:
		return o.MonthlyUSD
	case SortJob, SortTime:
		if !o.HasJob {
			return math.Inf(1)
		}
		if k == SortTime {
			return o.JobHours
		}
		return o.JobUSD
	case SortHeadroom:
		return math.Inf(1)
	}
	return o.USDPerHour
}

// CompareOffers is the ranking's order of two offers under k: negative
// when a ranks first (risky after the offers that fit, late after those
// that meet the deadline, then the sort value, the price, the headroom
// and the names; never 0 for two offers of one ranking). Views that show
// other figures than the ranking's (report's spot offers at their
// expected cost with interruptions) rank copies of the offers with it.
func CompareOffers(a, b *Offer, k SortKey) int { return compareOffers(a, b, k) }

func compareOffers(a, b *Offer, k SortKey) int {
	if c := cmp.Compare(b2i(a.Risky()), b2i(b.Risky())); c != 0 {
		return c // offers that fit first
	}
	if c := cmp.Compare(lateTier(a), lateTier(b)); c != 0 {
		return c // then those that meet the deadline at the slow end of their time range, then those expected to (lateTier)
	}
	if c := cmp.Compare(sortValue(a, k), sortValue(b, k)); c != 0 {
		return c
	}
	if k != SortPrice { // equal on the key: the cheaper first
		if c := cmp.Compare(a.USDPerHour, b.USDPerHour); c != 0 {
			return c
		}
	}
	if c := cmp.Compare(b.HeadroomPct, a.HeadroomPct); c != 0 {
		return c
	}
	return compareNames(a, b)
}

// fellBack is compareNames' first key: at one price and headroom, the
// GPU that runs the precision asked before one that runs a fallback of
// it (a walk: a Quadro RTX 6000 at ↺amp-fp16 ranked best over an A30 in
// bf16, both $0.29/h with 37% headroom, by the provider's name alone).
func fellBack(o *Offer) int { return b2i(o.Fallback != "") }

// compareNames is compareOffers' last keys: a fallback precision last
// (fellBack), then provider, type, region.
func compareNames(a, b *Offer) int {
	if c := cmp.Compare(fellBack(a), fellBack(b)); c != 0 {
		return c
	}
	if c := strings.Compare(a.Instance.Provider, b.Instance.Provider); c != 0 {
		return c
	}
	if c := strings.Compare(a.Instance.Type, b.Instance.Type); c != 0 {
		return c
	}
	return strings.Compare(a.Region, b.Region)
}

func lessOffer(a, b *Offer, k SortKey) bool { return compareOffers(a, b, k) < 0 }

// lessHost is lessHost on the offers as sc.view shows them, when one
// of the two has a view (Query.SpotView); on the offers otherwise.
func (sc *offerScan) lessHost(a, b *Offer) bool {
	if sc.view != nil {
		// The view gets copies in a scratch pair made once: escape
		// analysis cannot see into a function value, so a and b
		// themselves would move every offer the scan makes to the heap,
		// spot view or not (264 B each, ~2,200 in a recommend over the
		// embedded catalog), and copies on the stack each comparison's.
		if sc.viewed == nil {
			sc.viewed = new([2]Offer)
		}
		sc.viewed[0], sc.viewed[1] = *a, *b
		va, oka := sc.view(&sc.viewed[0])
		vb, okb := sc.view(&sc.viewed[1])
		if oka || okb {
			return lessHost(&va, &vb, sc.sort)
		}
	}
	return lessHost(a, b, sc.sort)
}

// lessHost reports whether a is the better of two hosts of one
// offerGroup (provider, region, GPU), the one the group keeps: by what
// the job gets on the whole deployment, not by the hourly price alone.
// On an hourly key (price, monthly) a deployment that spans several
// nodes is weighed by its cost per sample (sortValue on price over
// Estimate.SamplesPerSecond, the throughput timed over its nodes,
// network and interconnect; the job's cost when it has a dataset), so
// four 8-GPU NVSwitch nodes are not left out for thirty-two 1-GPU nodes
// at the same (or a lower) price per GPU-hour that take 40 times as long
// (issue 30: Nebius gpu-h100-sxm_8gpu hidden behind gpu-h100-sxm_1gpu,
// 58 days and $131k for a job the 8-GPU nodes run in about 35 h). The
// job and time keys weigh that already; single-node hosts and the
// headroom key are compared as the ranking compares them (compareOffers).
//
// In the group kept for speed (offerGroup.faster: both hosts run the job
// on more GPUs than it needs) a near tie on the job key goes to the
// faster host: job costs within SizedSlack of each other (nearTie), both
// with a job time, after the risky and late tiers as compareOffers puts
// them; a clear saving (more than SizedSlack) still wins. SizedSlack's
// reasoning, on the other side: a closer difference in job cost is
// inside the estimate's own error, and in this group the bigger host's
// speed is the point, so a verda 8B200.240V that runs an 8B QLoRA in
// 23 min for $5.28 is not left out for a 2B200.60V at $5.27 and 1.5 h
// (the walk's --finish-by 1h answered an AWS p5en at 52 min and $5.90).
// The group sized to the job keeps the cheaper host: its hosts run the
// job on one GPU count, so their times differ by host, network and
// interconnect alone, within the same error, and the cheapest way to run
// the job is what that group is for. On the hourly keys the hourly
// price is what is asked for and the rule does not apply.
func lessHost(a, b *Offer, k SortKey) bool {
	if k == SortJob && a.HasJob && b.HasJob && a.spreads() && b.spreads() && a.JobHours != b.JobHours {
		if c := cmp.Compare(offerTier(a), offerTier(b)); c != 0 {
			return c < 0
		}
		if nearTie(a.JobUSD, b.JobUSD) {
			return a.JobHours < b.JobHours
		}
	}
	if (k == SortPrice || k == SortMonthly) && (a.Instances > 1 || b.Instances > 1) {
		if c := cmp.Compare(offerTier(a), offerTier(b)); c != 0 {
			return c < 0
		}
		if ua, ub := usdPerSample(a), usdPerSample(b); ua != ub {
			return ua < ub
		}
	}
	return lessOffer(a, b, k)
}

// usdPerSample is what one sample of the job costs on o: its price
// (weighed as sortValue weighs it) over its throughput, all GPUs
// together; +Inf without a throughput.
func usdPerSample(o *Offer) float64 {
	if o.Estimate == nil || o.Estimate.SamplesPerSecond <= 0 {
		return math.Inf(1)
	}
	return sortValue(o, SortPrice) / (o.Estimate.SamplesPerSecond * 3600)
}

// offerTier is compareOffers' first two keys in one: 3 × risky + lateTier.
func offerTier(o *Offer) int { return 3*b2i(o.Risky()) + lateTier(o) }

// lateTier orders offers by their deadline: 0 for one that meets it at
// the slow end of its time range, 1 for a late one (the deadline inside
// the range) whose expected time meets it, 2 for a late one expected to
// miss it. When no offer is sure to meet a deadline, the cheapest late
// offer was the answer even when its own estimate missed the deadline
// and a dearer one's met it (walk48: 6.9 h expected, 85% chance of
// missing 5 h, ranked before 3.1 h for $1.37 more).
func lateTier(o *Offer) int {
	switch {
	case !o.Late():
		return 0
	case o.HasJob && o.JobHours > o.DeadlineHours:
		return 2
	}
	return 1
}

// sortOffers orders offers by compareOffers: it sorts indexes, not the
// wide values, then moves each offer once along the permutation's
// cycles. A sorted copy had been the largest fresh allocation of a short
// command (every new page a fault); sorting the values in place moves
// each many times.
//
// compareOffers' first keys (risky, late, the sort value) are worked out
// once per offer, not at each of the ~10,000 comparisons of the embedded
// catalog's ~900 offers; offers equal on them go to compareOffers.
func sortOffers(offers []Offer, k SortKey) { sortOffersFrom(offers, k, nil) }

// sortOffersFrom is sortOffers of the offers in the order seq lists them
// (seq[i]: the index in offers of the i-th; written over), nil for
// offers' own: the result is sortOffers' of the list in that order, moved
// into offers. A split scan (splitScan) gives the order its two
// goroutines' offers were found in as one scan finds them, so that
// offers compareOffers holds equal come out as one scan's would; it also
// sorts on both goroutines (sortHalves).
func sortOffersFrom(offers []Offer, k SortKey, seq []int32) {
	order := seq // order[i]: the offer that goes to i
	if order == nil {
		order = make([]int32, len(offers))
		for i := range order {
			order[i] = int32(i)
		}
	}
	type sortKey struct {
		tier  int // 2 × risky + late: compareOffers' first two keys in one
		value float64
		// compareOffers' next keys: the price (on another sort key than
		// the price) and the headroom; offers at one price in several
		// regions of a type reach them often.
		usd, headroom float64
	}
	keys := make([]sortKey, len(offers))
	for i := range offers {
		o := &offers[i]
		keys[i] = sortKey{offerTier(o), sortValue(o, k), o.USDPerHour, o.HeadroomPct}
	}
	compare := func(a, b int32) int { // compareOffers, its first keys read from keys
		ka, kb := &keys[a], &keys[b]
		if c := cmp.Compare(ka.tier, kb.tier); c != 0 {
			return c
		}
		if c := cmp.Compare(ka.value, kb.value); c != 0 {
			return c
		}
		if k != SortPrice {
			if c := cmp.Compare(ka.usd, kb.usd); c != 0 {
				return c
			}
		}
		if c := cmp.Compare(kb.headroom, ka.headroom); c != 0 {
			return c
		}
		return compareNames(&offers[a], &offers[b])
	}
	if seq == nil || !sortHalves(order, compare) {
		slices.SortFunc(order, compare)
	}
	for i := range order {
		if order[i] < 0 || int(order[i]) == i {
			continue
		}
		held := offers[i]
		j := i
		for {
			from := int(order[j])
			order[j] = -1 // placed
			if from == i {
				offers[j] = held
				break
			}
			offers[j] = offers[from]
			j = from
		}
	}
}

// sortHalvesMin is the fewest offers sortHalves sorts on two goroutines.
const sortHalvesMin = 256

// sortHalves sorts order by compare on two goroutines, each half on one,
// then merges them, and reports whether it did (a single core, a short
// list: false, order untouched). The result is the one sort of order
// gives only when compare holds no two of its elements equal (then the
// list has one sorted order, whatever sorts it). compareOffers ends on
// provider, type and region, which two offers kept by one Recommend never
// share, but an overlay could repeat a type; so any comparison of two
// elements that finds them equal is noted, and then order is put back
// as it was and false returned, for the one sort (slices.SortFunc,
// pdqsort: its order of equal elements is its own). No tie can go
// unnoticed: a sort or merge that puts two elements next to each other
// has compared them, or each with an element equal to both.
func sortHalves(order []int32, compare func(a, b int32) int) bool {
	n := len(order)
	if n < sortHalvesMin || runtime.GOMAXPROCS(0) < 2 {
		return false
	}
	was := slices.Clone(order)
	var tie [2]bool // by goroutine: the helper's, this one's
	noting := func(t *bool) func(a, b int32) int {
		return func(a, b int32) int {
			c := compare(a, b)
			if c == 0 && a != b {
				*t = true
			}
			return c
		}
	}
	h := n / 2
	done := make(chan struct{})
	go func() {
		slices.SortFunc(order[h:], noting(&tie[0]))
		close(done)
	}()
	mine := noting(&tie[1])
	slices.SortFunc(order[:h], mine)
	<-done
	merged := make([]int32, 0, n)
	i, j := 0, h
	for i < h && j < n {
		if mine(order[j], order[i]) < 0 {
			merged = append(merged, order[j])
			j++
		} else {
			merged = append(merged, order[i])
			i++
		}
	}
	if tie[0] || tie[1] {
		copy(order, was)
		return false
	}
	merged = append(append(merged, order[i:h]...), order[j:]...)
	copy(order, merged)
	return true
}

// unchangeable reports whether no setting of the workload or search can
// make an offer rejected for kind fit: the framework does not run on its
// GPU (frameworkSupport).
func unchangeable(kind RejectKind) bool { return kind == RejectSoftware }

// rejectTier orders near misses by how near they are: those a setting
// or more memory would fix first (the least VRAM short first, a price,
// budget or deadline limit none short), then hosts over the GPU or node
// limit (--max-gpus, --max-nodes: a count the user ruled out; none short,
// they filled the list ahead of the 1-GPU hosts a GiB short) and hosts
// whose GPU count cannot share the
// global batch (a host of that size would change the job), then hosts
// no setting can make run.
func rejectTier(kind RejectKind) int {
	switch {
	case unchangeable(kind):
		return 2
	case kind == RejectBatch, kind == RejectGPULimit, kind == RejectNodes:
		return 1
	}
	return 0
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// keepNearMiss inserts x into r, the at most n nearest rejections so far
// (one per instance type) in compareRejections order.
func keepNearMiss(r []Rejection, x Rejection, n int) []Rejection {
	at, _ := slices.BinarySearchFunc(r, x, compareRejections)
	if at >= n {
		return r
	}
	if len(r) == n {
		r = r[:n-1]
	}
	return slices.Insert(r, at, x)
}

// keepNearMissAt is keepNearMiss keeping at, the catalog index of each
// rejection's instance type, beside r; xi is x's. Among rejections
// compareRejections holds equal, the later type goes first: where
// keepNearMiss, given the types in catalog order, puts each before those
// it equals. So the list is the same whatever order the types come in
// (a split scan's parts take them by GPU type, splitScan).
func keepNearMissAt(r []Rejection, at []int, x Rejection, xi, n int) ([]Rejection, []int) {
	i, j := 0, len(r) // the first of r that goes after x
	for i < j {
		h := int(uint(i+j) >> 1)
		if c := compareRejections(r[h], x); c > 0 || c == 0 && at[h] < xi {
			j = h
		} else {
			i = h + 1
		}
	}
	if i >= n {
		return r, at
	}
	if len(r) == n {
		r, at = r[:n-1], at[:n-1]
	}
	return slices.Insert(r, i, x), slices.Insert(at, i, xi)
}

// compareRejections orders near misses nearest to fitting first: deadline
// misses timed on an assumed network (Rejection.NetworkAssumed), then
// those a setting can change before those none can (unchangeable), then by the
// VRAM per GPU they lack (none for a limit such as price or deadline), then
// price, provider and type. (New-user trial: the cheapest misses were AMD
// hosts no ROCm build supports, ahead of 8-GPU hosts a few GiB short.)
func compareRejections(a, b Rejection) int {
	if c := cmp.Compare(b2i(b.NetworkAssumed), b2i(a.NetworkAssumed)); c != 0 {
		return c // a deadline missed on an assumed network first: it may well fit
	}
	if c := cmp.Compare(rejectTier(a.Kind), rejectTier(b.Kind)); c != 0 {
		return c
	}
	if c := cmp.Compare(max(a.ShortBytes, 0), max(b.ShortBytes, 0)); c != 0 {
		return c
	}
	if a.JobUSD > 0 && b.JobUSD > 0 { // both over the job budget: the cheaper job is nearer
		if c := cmp.Compare(a.JobUSD, b.JobUSD); c != 0 {
			return c
		}
	}
	if c := cmp.Compare(a.USDPerHour, b.USDPerHour); c != 0 {
		return c
	}
	if c := strings.Compare(a.Instance.Provider, b.Instance.Provider); c != 0 {
		return c
	}
	return strings.Compare(a.Instance.Type, b.Instance.Type)
}

// strategies are the layouts an offer's GPUs are tried with, in order,
// for pickLayout: the workload's, and for data-parallel training
// openLayouts, FSDP after DDP (a model too large for data parallel, or
// borderline in it, shards), unless the query keeps the strategy the user
// named. Callers do not modify the slice: it may be openLayouts'.
func (m *matcher) strategies() []Strategy {
	w := &m.w
	if w.Task.Training() && (w.Strategy == Single || w.Strategy == DDP) {
		if m.q.KeepStrategy {
			return openLayouts[:1] // DDP
		}
		return openLayouts[:]
	}
	return []Strategy{w.Strategy}
}

// single is the one layout of one GPU (shape's auto count tries it).
var single = [...]Strategy{Single}

// oneGPU is the layout the auto count tries on one GPU, of strategies
// (m.strategies()): single, unless the workload offloads states to host
// RAM (offloadsShard), which the strategy it names does on one GPU as on
// many — DeepSpeed's ZeRO-Offload trains "on a single GPU" (Ren et al.
// 2021, "ZeRO-Offload: Democratizing Billion-Scale Model Training",
// abstract), as torch FSDP's CPUOffload runs with a world of one. As
// single, Validate refused the offload, and every 1-GPU type was a near
// miss under a header of "1 GPU zero3" (a walk: 788 "invalid deployment").
func (m *matcher) oneGPU(strategies []Strategy) []Strategy {
	if m.w.offloadsShard() {
		return strategies
	}
	return single[:]
}

// sameTenth reports whether need and usable bytes print alike as GiB to
// one decimal: a near miss then says both to two ("needs 45.22 GiB, has
// 45.16 GiB usable"), not a need that reads as what is usable (walk48:
// "needs 45.2 GiB per GPU even on 2 GPUs, has 45.2 GiB usable").
func sameTenth(need, usable float64) bool {
	return math.Round(need/GiB*10) == math.Round(usable/GiB*10)
}

// vramShort is the near-miss reason of a need over the usable memory on
// one GPU count, to one decimal or, when those read alike, two
// (sameTenth).
func vramShort(need, usable float64) Message {
	if sameTenth(need, usable) {
		return Msg("needs %.2f GiB per GPU, has %.2f GiB usable", need/GiB, usable/GiB)
	}
	return Msg("needs %.1f GiB per GPU, has %.1f GiB usable", need/GiB, usable/GiB)
}
