package model

import (
	"cmp"
	"math"
	"slices"
)

// Host is what the GPUs of a job are connected by and fed from: the
// figures the time model needs beyond the GPU itself. Compute assumes
// DefaultHost; match code that knows the instance calls Estimate.Retime
// with HostOf.
type Host struct {
	GPUsPerNode int     // GPUs sharing the intra-node link
	IntraGBps   float64 // GPU-to-GPU bandwidth inside a node, per GPU, one direction, 10⁹ B/s
	InterGBps   float64 // node-to-node bandwidth per GPU, one direction, 10⁹ B/s; 0 when unknown
	// NetworkAssumed is set when the instance's network is not in the
	// catalog and InterGBps is costed at AssumedNetworkGbps (from
	// NetworkAssumedSource or NetworkNoFabric).
	NetworkAssumed bool
	// NetworkFrom says where InterGBps comes from when the instance type
	// has no network figure (Catalog.InstanceHost): the user's, the
	// catalog's median or AssumedNetworkGbps; "" for the type's own.
	NetworkFrom NetworkSource
	VCPUs       int // host vCPUs per node, for the input pipeline of vision jobs; 0: no cap
	// ImagesPerVCPU is the JPEG decode-and-augment rate of one vCPU,
	// images/s; 0 leaves the input pipeline uncapped (gpuplan ships no
	// default: no published per-vCPU figure was found).
	ImagesPerVCPU float64
}

// DefaultGPUsPerNode is the node size assumed when only the GPU is known:
// an HGX/DGX board of 8 GPUs (NVIDIA DGX H100 User Guide, "8x NVIDIA H100
// GPUs"; AWS p4d/p5, GCP a3, Azure ND H100 v5 all hold 8).
const DefaultGPUsPerNode = 8

// DefaultHost returns the host assumed when only the GPU is known: one
// node of up to 8 GPUs (a DGX/HGX board) joined by the GPU's own
// interconnect at half its bidirectional figure, no inter-node figure.
func DefaultHost(g *GPU, gpus int) Host {
	return Host{GPUsPerNode: min(max(gpus, 1), DefaultGPUsPerNode), IntraGBps: g.InterconnectGBps / 2}
}

// NetworkSource says where the node network of a job timed without an
// instance type comes from (Workload.NetworkFrom).
type NetworkSource string

const (
	// NetworkGiven: the user's network_gbps (--network-gbps).
	NetworkGiven NetworkSource = "given"
	// NetworkCatalog: the median network of the catalog's instance types
	// of the GPU with a full node (Catalog.FillNetwork).
	NetworkCatalog NetworkSource = "catalog"
	// NetworkAssumedSource: none of those has a network figure;
	// AssumedNetworkGbps, as matching assumes for such a type.
	NetworkAssumedSource NetworkSource = "assumed"
	// NetworkInstance: the network_gbps of the instance type the job is
	// laid out on (plan.OnType: a plan's phase on its own type), the
	// figure matching times that type at (HostOf).
	NetworkInstance NetworkSource = "instance"
	// NetworkNoFabric: the instance type the job is laid out on documents
	// neither a network figure nor a GPU fabric between its instances
	// (Instance.Fabric), so it is timed at AssumedNetworkGbps
	// (NoFabricNetwork), not at the catalog's median, whose nodes are
	// all joined by InfiniBand, EFA or RDMA.
	NetworkNoFabric NetworkSource = "no-fabric"
)

// NoFabricNetwork reports whether a job across instances of in is timed
// at AssumedNetworkGbps rather than the catalog's median for its GPU and
// node size (Catalog.DefaultNetwork): in has no network figure and names
// no GPU fabric between instances (Instance.Fabric: InfiniBand, EFA,
// RoCE, RDMA, GPUDirect-TCPX).
//
// Every type the median is taken over documents its network, and every
// such 8-GPU Hopper or Blackwell type in the catalog a fabric (AWS EFA,
// Azure and Nebius InfiniBand, GCP RoCE and GPUDirect-TCPX/TCPXO). A type
// that documents neither is mostly a reseller's or a marketplace's
// single-node VM (primeintellect, runpod, shadeform, ...): instances
// rented one by one are joined by whatever network the provider gives
// VMs, which no catalog source states, and an RDMA fabric is not what
// that is (AWS documents EFA only for the types listed with it, and
// limits even its own VMs' single TCP flows to 5 Gbps outside a cluster
// placement group: AWS EC2 User Guide, "Amazon EC2 instance network
// bandwidth"). The median (3200 Gbps for H200) timed such offers as fast
// as EFA-joined p5en (new-user walk: 16 H200 on two primeintellect
// VMs, 6.8 h both); the slowest network the catalog documents errs the
// other way, towards too long, which is the side a ranking should err on
// for a figure nobody states.
func NoFabricNetwork(in *Instance) bool {
	return in != nil && in.NetworkGbps <= 0 && in.Fabric == ""
}

// WorkloadHost returns the host w is timed on with GPU g when no instance
// type is known (Compute): DefaultHost with w's GPUsPerNode, and, when the
// job spans nodes and w has a NetworkGbps, that network shared by the
// node's GPUs as HostOf shares an instance's (NetworkGbps / 8 bits / GPUs
// per node). So estimate and recommend time a job alike for the same node
// size and network.
func WorkloadHost(w *Workload, g *GPU) Host {
	h := DefaultHost(g, w.GPUs)
	if w.GPUsPerNode > 0 {
		h.GPUsPerNode = min(max(w.GPUs, 1), w.GPUsPerNode)
	}
	if w.GPUs > h.GPUsPerNode && w.NetworkGbps > 0 {
		h.InterGBps = w.NetworkGbps / 8 / float64(h.GPUsPerNode)
		h.NetworkAssumed, h.NetworkFrom = w.NetworkFrom == NetworkAssumedSource, cmp.Or(w.NetworkFrom, NetworkGiven)
	}
	return h
}

// Nodes returns the nodes w spans: ceil(GPUs / GPUs per node), with
// DefaultGPUsPerNode when w gives none.
func (w *Workload) Nodes() int {
	per := cmp.Or(w.GPUsPerNode, DefaultGPUsPerNode)
	return (max(w.GPUs, 1) + per - 1) / per
}

// NodeNetwork returns the network the catalog documents for nodes of
// perNode GPUs of g: the median NetworkGbps of the offered instance types
// of g with perNode GPUs that have one and a source, and how many there
// are; 0, 0 when none has. The median, not the mean, so one slow or fast
// type among many does not move it (H100 SXM: AWS p5 and GCP a3-mega at
// 3200, a3-high at 1000, ...).
func (c *Catalog) NodeNetwork(g *GPU, perNode int) (gbps float64, types int) {
	var v []float64
	for i := range c.Instances {
		in := &c.Instances[i]
		if in.GPU == g.Key && in.GPUCount == perNode && hasNodeNetwork(in) {
			v = append(v, in.NetworkGbps)
		}
	}
	return medianNetwork(v)
}

// hasNodeNetwork reports whether in's network counts in NodeNetwork: an
// offered type with a figure and a source.
func hasNodeNetwork(in *Instance) bool {
	return in.NetworkGbps > 0 && in.Source != "" && in.Offered()
}

// medianNetwork is NodeNetwork of the figures v (sorted in place).
func medianNetwork(v []float64) (gbps float64, types int) {
	if len(v) == 0 {
		return 0, 0
	}
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2], n
	}
	return (v[n/2-1] + v[n/2]) / 2, n
}

// LargestNode returns the most GPUs of g one offered instance type of
// the catalog holds (H100 SXM: 8; A100 40GB: 16, GCP a2-megagpu-16g);
// DefaultGPUsPerNode when the catalog offers none. Tensor parallelism
// stays inside a node (serve.PlanOnGPUNodes), so this bounds the TP an
// estimate accepts as recommend's instance types do.
func (c *Catalog) LargestNode(g *GPU) int {
	n := 0
	for i := range c.Instances {
		if in := &c.Instances[i]; g != nil && in.GPU == g.Key && in.Offered() {
			n = max(n, in.GPUCount)
		}
	}
	if n == 0 {
		return DefaultGPUsPerNode
	}
	return n
}

// nodeNetKey is a GPU key and node size, as NodeNetwork groups types.
type nodeNetKey struct {
	gpu     string
	perNode int
}

// nodeNetworks gathers what NodeNetwork reads for every GPU and node size
// in one pass over the catalog, each group's figures in catalog order:
// medianNetwork of a group is NodeNetwork's answer. A ranking asks for
// ~100 GPU types and node sizes, and each NodeNetwork walks every type
// (≈ 4% of a recommend --json's CPU time).
func (c *Catalog) nodeNetworks() map[nodeNetKey][]float64 {
	out := make(map[nodeNetKey][]float64)
	for i := range c.Instances {
		in := &c.Instances[i]
		if hasNodeNetwork(in) {
			k := nodeNetKey{in.GPU, in.GPUCount}
			out[k] = append(out[k], in.NetworkGbps)
		}
	}
	return out
}

// DefaultNetwork returns the node network a job w across nodes of perNode
// GPUs of g is timed at when their instance type has no network figure,
// or when no type is known (gpuplan estimate): the user's network_gbps
// (w.NetworkGbps, unless FillNetwork filled it), else the catalog's median
// for that node size (NodeNetwork, with the types behind it), else
// AssumedNetworkGbps. It is the one rule estimate, recommend and plan time
// such a job by, so they agree on its hours (issue #30: 70B on 32 H100s
// was 46.7 h in estimate, 1.3 years on Nebius in recommend).
func (c *Catalog) DefaultNetwork(w *Workload, g *GPU, perNode int) (gbps float64, from NetworkSource, types int) {
	if networkGiven(w) || networkKept(w) || g == nil {
		return defaultNetwork(w, 0, 0)
	}
	gbps, types = c.NodeNetwork(g, perNode)
	return defaultNetwork(w, gbps, types)
}

// networkGiven reports whether w's node network is the user's.
func networkGiven(w *Workload) bool {
	return w.NetworkGbps > 0 && (w.NetworkFrom == "" || w.NetworkFrom == NetworkGiven)
}

// networkKept reports whether w's node network is its instance type's
// (plan.OnType): the type's own figure, or AssumedNetworkGbps for a type
// without a figure or a fabric (NoFabricNetwork).
func networkKept(w *Workload) bool {
	return w.NetworkGbps > 0 && (w.NetworkFrom == NetworkInstance || w.NetworkFrom == NetworkNoFabric)
}

// defaultNetwork is DefaultNetwork given NodeNetwork's answer (0, 0
// without a GPU).
func defaultNetwork(w *Workload, gbps float64, types int) (float64, NetworkSource, int) {
	if networkGiven(w) {
		return w.NetworkGbps, NetworkGiven, 0
	}
	if networkKept(w) { // the type's own: kept
		return w.NetworkGbps, w.NetworkFrom, 0
	}
	if types > 0 {
		return gbps, NetworkCatalog, types
	}
	return AssumedNetworkGbps, NetworkAssumedSource, 0
}

// FillNetwork gives w on GPU g a node network when it spans nodes
// (DefaultNetwork for its node size); w.NetworkFrom says where it comes
// from. It returns the catalog types behind the figure (w.NetworkTypes; 0
// when assumed or given). A job on one node is left alone.
func (c *Catalog) FillNetwork(w *Workload, g *GPU) int {
	if g == nil {
		return 0
	}
	per := cmp.Or(w.GPUsPerNode, DefaultGPUsPerNode)
	if w.GPUs <= per {
		return 0
	}
	w.NetworkGbps, w.NetworkFrom, w.NetworkTypes = c.DefaultNetwork(w, g, per)
	return w.NetworkTypes
}

// AssumedNetworkGbps is the node network multi-node time is costed at
// when the catalog has no network_gbps for an instance type: the slowest
// network documented among the catalog's GPU instances, AWS p3.2xlarge
// and p3.8xlarge ("up to 10 Gbps", AWS News Blog, "New – Amazon EC2
// Instances with Up to 8 NVIDIA Tesla V100 GPUs (P3)", 2017, table).
// It is an assumption, not a figure of the instance: offers it times are
// warned about (Offer.Warnings) and rank below well-connected ones.
const AssumedNetworkGbps = 10

// HostOf returns the host of an instance type with GPU g: its GPU count,
// the GPU's interconnect (half the bidirectional figure), its network
// shared by its GPUs (NetworkGbps / 8 bits / GPUCount, AssumedNetworkGbps
// when unknown) and its vCPUs.
func HostOf(inst *Instance, g *GPU) Host {
	h := Host{GPUsPerNode: max(inst.GPUCount, 1), IntraGBps: g.InterconnectGBps / 2, VCPUs: inst.VCPUs}
	gbps := inst.NetworkGbps
	if gbps <= 0 {
		gbps, h.NetworkAssumed, h.NetworkFrom = AssumedNetworkGbps, true, NetworkAssumedSource
	}
	h.InterGBps = gbps / 8 / float64(h.GPUsPerNode)
	return h
}

// InstanceHost returns the host w is timed on across instances of type
// in with GPU g: HostOf, but a type without a network figure is timed at
// gbps from the source from (DefaultNetwork for its GPUs per node, which
// the caller computes once per GPU and node size) instead of
// AssumedNetworkGbps.
func InstanceHost(in *Instance, g *GPU, gbps float64, from NetworkSource) Host {
	h := HostOf(in, g)
	if in.NetworkGbps <= 0 && gbps > 0 {
		h.InterGBps = gbps / 8 / float64(h.GPUsPerNode)
		h.NetworkAssumed, h.NetworkFrom = from == NetworkAssumedSource || from == NetworkNoFabric, from
	}
	return h
}

// NetworkFigureMsg says what a node network of gbps from the source from
// is, for nodes of perNode GPUs of g: "2400 Gbps per node, the median of
// the catalog's H100 SXM nodes with 8 GPUs (--network-gbps for yours)".
func NetworkFigureMsg(gbps float64, from NetworkSource, g *GPU, perNode int) Message {
	switch from {
	case NetworkGiven:
		return Msg("%.0f Gbps per node, as given (--network-gbps)", gbps)
	case NetworkCatalog:
		return Msg("%.0f Gbps per node, the median of the catalog's %s nodes with %s (--network-gbps for yours)", gbps, g.Name, CountMsg(perNode, "GPU"))
	case NetworkNoFabric:
		return Msg("%.0f Gbps per node, the slowest the catalog documents, as no InfiniBand, EFA or RDMA between its instances is documented either: separately rented VMs may share plain Ethernet, and the time errs long if they share more (--network-gbps for yours)", gbps)
	}
	return Msg("an assumed %.0f Gbps per node, the slowest the catalog documents: it has no network for %s nodes with %s (--network-gbps for yours)", gbps, g.Name, CountMsg(perNode, "GPU"))
}

// Generation factors of the time model beyond Tuning.HopperFactor. Model
// FLOPs follow PaLM (Chowdhery et al., 2022, App. B): MFU never counts
// recomputation; hardware FLOPs (recomputation included) are what the GPU
// executes, at a hardware FLOPs utilisation (HFU, Korthikanti et al.,
// 2022, §6) that depends on the GPU generation, precision and model width
// (Tuning).
const (
	// CDNA3PeakRatio scales HopperFactor on AMD CDNA 3 (MI300X, MI325X):
	// in MLPerf Training v5.0's Llama 2 70B LoRA (one 8-GPU node, June
	// 2025) the MI300X came out "slightly worse" than the H100 and the
	// MI325X up to 8% better than the H200 (AMD, "AMD Expands AI Momentum
	// with First MLPerf Training Submission", 2025-06-04; xpu.pub's
	// summary of the round), so a CDNA 3 GPU runs at Hopper's speed per
	// GPU, not at its higher peak: 989.5/1307.4 (the dense bf16 peaks).
	CDNA3PeakRatio = 989.5 / 1307.4
	// CDNA4PeakRatio scales HopperFactor on AMD CDNA 4 (MI350X, MI355X):
	// MLPerf Training v6.0 (June 2026) put the MI355X "within 5% of
	// NVIDIA B200" (AMD, "Technical Dive into AMD's MLPerf Training v6.0
	// Submission"), so parity with Blackwell per GPU: 2250/2516.6.
	CDNA4PeakRatio = 2250 / 2516.6
	// CDNA3BandwidthRatio and CDNA4BandwidthRatio hold the same peer rule
	// for the memory-bound side of a step (the CNN roofline below): an
	// MI300X/MI325X moves bytes at its H100 peer's speed, an MI355X at
	// B200's, not at their own higher bandwidth, as nothing measured says
	// otherwise (no AMD case in the suite; walk w18: ResNet-50 on 8×MI300X
	// came out 2.2× faster than on H100). Datasheet bandwidths: H100 SXM
	// 3,350 GB/s, MI300X 5,300, B200 7,700, MI355X 8,000 (gpus.toml).
	CDNA3BandwidthRatio = 3350.0 / 5300.0
	CDNA4BandwidthRatio = 7700.0 / 8000.0
	// CausalAttentionWork is the share of the counted s² attention FLOPs
	// a causal kernel executes: FlashAttention-2 skips the blocks above
	// the diagonal, about half (Dao, 2023, §3.1.1 "Causal masking"),
	// while MFU counts the full square (PaLM App. B).
	CausalAttentionWork = 0.5
)

// genFactor returns the HFU factor of g's generation in t: HopperFactor
// for Hopper and Blackwell, scaled by CDNA3PeakRatio and CDNA4PeakRatio
// for AMD's CDNA 3 and 4, 1 otherwise.
func genFactor(g *GPU, t *Tuning) float64 {
	if t.HopperFactor <= 0 {
		return 1 // Tuning's zero value: no effect
	}
	switch g.Architecture {
	case "hopper", "blackwell":
		return t.HopperFactor
	case "cdna3":
		return t.HopperFactor * CDNA3PeakRatio
	case "cdna4":
		return t.HopperFactor * CDNA4PeakRatio
	}
	return 1
}

// peerBandwidth scales g's memory bandwidth to its NVIDIA peer's for the
// CNN roofline (CDNA3BandwidthRatio, CDNA4BandwidthRatio); 1 otherwise.
func peerBandwidth(g *GPU) float64 {
	switch g.Architecture {
	case "cdna3":
		return CDNA3BandwidthRatio
	case "cdna4":
		return CDNA4BandwidthRatio
	}
	return 1
}

// widthFactor returns h/(h+WidthKnee) normalised to 1 at h = 4096, at
// most 1.05; 1 without a shape.
func widthFactor(a *Architecture, t *Tuning) float64 {
	if !a.HasShape() {
		return 1
	}
	h, k := float64(a.Hidden), t.WidthKnee
	return min(h/(h+k)/(4096/(4096+k)), 1.05)
}

// DefaultHFU returns the hardware FLOPs utilisation assumed for w on g
// (utilisation with w's Tuning): the class figure for convolutional
// networks, fp32 and small fine-tunes, HFUTransformer scaled by the
// width (widthFactor) for transformer training; all scaled by the
// generation (genFactor). fp8 runs at its family's figure: stepTime
// applies it to the fp8 peak for the GEMMs only.
func DefaultHFU(w *Workload, g *GPU) float64 {
	t := w.tuning()
	u := utilisation(w, t, true)
	if g != nil {
		u *= genFactor(g, t)
	}
	return u
}

// attentionFLOPsPerSample returns the attention-score FLOPs of one
// training sample (model FLOPs), the part timed at AttentionEfficiency.
func attentionFLOPsPerSample(w *Workload) float64 {
	a := &w.Model
	if !a.HasShape() || w.Task == TaskInference {
		return 0
	}
	qd := float64(a.Heads * a.EffectiveHeadDim())
	var fwd float64
	switch a.Family {
	case FamilyViT:
		s := vitTokens(a, w.ImageSize)
		fwd = 4 * float64(a.Layers) * s * s * qd
	case FamilyEncoderDecoder:
		sEnc, sDec := encoderLen(w), float64(w.SeqLen)
		fwd = 4*float64(a.Layers)*sEnc*sEnc*qd + 4*float64(a.DecoderLayers)*(sDec*sDec+sDec*sEnc)*qd
	default:
		s := float64(w.SeqLen)
		fwd = 4 * float64(a.Layers) * s * s * qd
	}
	return 3 * fwd
}

// commBytesPerStep returns the bytes each GPU sends per optimizer step for
// data parallelism, by ring collectives (NCCL: all-reduce moves 2(n−1)/n
// of the buffer per GPU, reduce-scatter and all-gather (n−1)/n;
// nccl-tests doc/PERFORMANCE.md "bus bandwidth"), and whether it overlaps
// the whole compute (ZeRO-3/FSDP prefetch) or only backward:
//
//	DDP:        all-reduce of the gradients, once per step (no_sync
//	            during accumulation)
//	ZeRO-1/2:   reduce-scatter of the gradients + all-gather of the
//	            updated 16-bit parameters: the same 2Ψ as DDP (Rajbhandari
//	            et al., 2020, §7.2.1)
//	ZeRO-3/FSDP: all-gather in forward, again in backward, reduce-scatter:
//	            3Ψ per micro-batch (§7.2.2)
//
// Gradients travel in their dtype: fp32 under autocast and fp32, 16-bit
// otherwise (DeepSpeed communication_data_type and FSDP reduce_dtype
// default to the compute dtype).
func commBytesPerStep(w *Workload) (bytes float64, wholeStep bool) {
	dp := float64(w.GPUs / w.TP)
	if dp <= 1 || w.Task == TaskInference {
		return 0, false
	}
	ring := (dp - 1) / dp
	n := w.Model.ParamCount()
	if w.Task.Adapters() {
		n = loraParams(w)
	}
	n /= float64(w.TP)
	r := w.TrainingRecipe()
	gb := bytesFor(r).grad
	switch w.Strategy.ZeROStage() {
	case 3:
		pb := 2.0
		if r == RecipeFP32 {
			pb = 4
		}
		full := w.Model.ParamCount() / float64(w.TP)
		per := ring * (2*full*pb + n*min(gb, pb))
		if w.Task.Adapters() { // frozen weights are gathered, only adapters reduced
			per = ring * (2*full*pb + n*pb)
		}
		return per * float64(w.GradAccum), true
	case 1, 2:
		return ring * (n*min(gb, 2) + n*2), false
	}
	return 2 * ring * n * gb, false
}

// stepTime returns seconds per optimizer step on g over host h, and the
// exposed communication within it, without a user MFU.
func (e *Estimate) stepTime(g *GPU, h Host) (step, exposed float64) {
	w := &e.Workload
	peak := e.PeakTFLOPS * 1e12
	u := DefaultHFU(w, g)
	if peak <= 0 || u <= 0 {
		return 0, 0
	}
	perGPU := e.SamplesPerStep / float64(w.GPUs/w.TP) // samples per data-parallel rank
	hw := e.HardwareFLOPsPerSample
	attn := 0.0 // attention's share of hw, recomputation included
	if e.FLOPsPerSample > 0 {
		attn = attentionFLOPsPerSample(w) * hw / e.FLOPsPerSample
	}
	other := hw - attn
	if w.Flash() && w.Model.Family == FamilyDecoder {
		attn *= CausalAttentionWork
	}
	t := w.tuning()
	compute := perGPU * other / (u * peak) / float64(w.TP)
	if attn > 0 {
		ae := t.AttentionEfficiency
		if ae <= 0 {
			ae = 1 // Tuning's zero value: no effect
		}
		compute += perGPU * attn / (u * ae * fp8AttentionPeak(w, g, peak)) / float64(w.TP)
	}
	compute += float64(w.GradAccum) * dequantSeconds(w, g) // QLoRA: per micro-batch, whatever its size
	if !w.Model.Family.Transformer() && g.MemoryBandwidthGBps > 0 && t.CNNTrafficFactor > 0 {
		// Roofline (Williams et al., 2009): a CNN step takes at least the
		// time to move its activation traffic at MBU of peak bandwidth.
		act := w.Model.ActivationMiBPerSample * MiB * visionScale(w.ImageSize, w.Model.ImageSize) * activationBytes(w.Precision) / 2
		mem := perGPU * t.CNNTrafficFactor * act / (g.MemoryBandwidthGBps * peerBandwidth(g) * 1e9 * MBU)
		compute = max(compute, mem)
	}
	if NCHWTensorCores(w, g) && t.NCHWFactor > 0 {
		// The transposes are memory-bound kernels run in series with the
		// convolutions, over the activations the step moves anyway, so
		// they scale the step whichever bound it is at: a factor on the
		// roofline's result, not on its FLOP term alone.
		compute *= t.NCHWFactor
	}
	bytes, whole := commBytesPerStep(w)
	if bytes > 0 {
		bw := h.IntraGBps
		if w.GPUs > h.GPUsPerNode && h.InterGBps > 0 {
			bw = min(bw, h.InterGBps)
		}
		if bw > 0 {
			comm := bytes / (bw * 1e9)
			// Overlap: DDP and ZeRO-1/2 hide the reduction behind
			// backward (2/3 of the model FLOPs; Li et al., 2020, "PyTorch
			// Distributed", §3.2.3 bucketing), ZeRO-3/FSDP prefetch behind
			// the whole step.
			hide := compute * 2 / 3
			if whole {
				hide = compute
			}
			exposed = max(comm-hide, 0)
		}
	}
	// Offload copies run on side streams (FSDP's unshard and post-backward
	// streams; Unsloth's non_blocking copies) under the compute.
	host := max(hostTransferSeconds(w, g)-compute, 0)
	if g.MemoryBandwidthGBps > 0 {
		compute += optimizerStepBytes(w) / (g.MemoryBandwidthGBps * 1e9 * MBU)
	}
	return compute + exposed + host, exposed
}

// optimizerStepBytes returns the bytes one GPU reads and writes in one
// optimizer step, 0 for inference and when the optimizer runs on the host
// (OffloadOptimizer, FSDP's CPU offload). The step is elementwise over the parameters it
// owns (sharded from ZeRO-1, split by tensor parallelism) and bound by
// memory bandwidth, so stepTime times it at MBU of the peak bandwidth, once
// per step whatever the accumulation. Per parameter, with p the bytes of
// the parameter stepped (the fp32 master where the recipe keeps one), g
// of the gradient stepped, s of one optimizer state and S of all of them:
//
//	PyTorch Adam/AdamW (foreach, the CUDA default from 2.0;
//	torch/optim/adam.py _multi_tensor_adam): _foreach_lerp_(exp_avgs,
//	grads) 2s+g, _foreach_mul_(exp_avg_sqs) 2s, _foreach_addcmul_(exp_avg_sqs,
//	grads, grads) 2s+2g, _foreach_sqrt 2s, _foreach_div_ 2s, _foreach_add_
//	2s, _foreach_addcdiv_(params, exp_avgs, denom) 2p+2s: 12s + 3g + 2p;
//	AdamW's decoupled decay _foreach_mul_(params) 2p more. The for-loop
//	before 2.0 (_single_tensor_adam) makes the same passes and two more
//	(exp_avg.mul_().add_(), denom's sqrt() then div): 14s + 3g + 2p.
//	anything else (SGD, Adafactor, 8-bit AdamW, torch's fused AdamW
//	(AdamWFused: one _fused_adamw_ pass), DeepSpeed's FusedAdam,
//	TensorFlow's ResourceApplyAdam kernel): each tensor read once and the
//	updated ones written once, g + 2p + 2S.
//	a fp32 master (DeepSpeed's recipe): the updated 16-bit weights are
//	written back, 2 more.
func optimizerStepBytes(w *Workload) float64 {
	if !w.Task.Training() || w.cpuOptimizerStep() {
		return 0
	}
	st := newStepShape(w)
	rb := st.rb
	p, g := rb.weight, rb.grad
	if rb.master > 0 {
		p, g = rb.master, rb.master // the fp32 gradient partition (stepTemporaries)
	}
	s := rb.state
	var per float64
	torchAdam := (w.Framework == PyTorch || w.Framework == "") && st.r != RecipeDeepSpeed && (w.Optimizer == Adam || w.Optimizer == AdamW)
	switch {
	case torchAdam && w.torchAtLeast(2, 0):
		per = 12*s + 3*g + 2*p
	case torchAdam:
		per = 14*s + 3*g + 2*p
	default:
		per = g + 2*p + 2*optimizerStateBytes(w.Optimizer, s, &w.Model)
	}
	if torchAdam && w.Optimizer == AdamW {
		per += 2 * p
	}
	if rb.master > 0 {
		per += rb.weight
	}
	return per * st.trainable / st.t / st.shard(1)
}

// fp8AttentionPeak returns the peak FLOP/s attention runs at: peak, but
// under fp8, where Transformer Engine runs only its modules' GEMMs (Linear,
// LayerNormLinear, LayerNormMLP) in fp8 and dot-product attention in the
// 16-bit compute dtype unless the recipe asks otherwise
// (transformer_engine/common/recipe/__init__.py, DelayedScaling: "fp8_dpa:
// bool, default = False — Whether to enable FP8 dot product attention"):
// the 16-bit peak.
func fp8AttentionPeak(w *Workload, g *GPU, peak float64) float64 {
	if w.Precision != FP8 || g == nil {
		return peak
	}
	if bf := g.PeakTFLOPS(BF16); bf > 0 {
		return bf * 1e12
	}
	return peak
}

// NCHWTensorCores reports whether w is a convolutional network that runs
// its convolutions on g's tensor cores (16-bit: fp16, bf16 or autocast;
// Volta and later) in PyTorch's default NCHW (contiguous) layout. NVIDIA's
// Deep Learning Performance guide ("Convolutional Layers User's Guide",
// Tensor Layouts In Memory: NCHW vs NHWC): tensor-core convolutions
// operate on NHWC, and NCHW tensors are transposed into and out of it
// around each convolution, time the NHWC layout does not spend; PyTorch's
// channels_last tutorial gives model.to(memory_format=torch.channels_last)
// as the switch, and NVIDIA's DeepLearningExamples ConvNets run their AMP
// benchmarks with --memory-format nhwc. TensorFlow's GPU convolutions are
// NHWC (its layout optimizer), fp32 runs on CUDA cores (no transposes),
// and tf32's layout cost is not separated from MFUConvTF32 by any source.
func NCHWTensorCores(w *Workload, g *GPU) bool {
	if w.Model.Family.Transformer() || w.ChannelsLast || g == nil || w.Task == TaskInference {
		return false
	}
	if w.Framework != PyTorch && w.Framework != "" {
		return false
	}
	switch w.Precision {
	case AMPFP16, AMPBF16, FP16, BF16:
	default:
		return false
	}
	switch g.Architecture {
	case "", "pascal", "maxwell", "kepler":
		return false
	}
	return g.Vendor != "amd"
}

// bnbFusedMaxTokens is the most rows (tokens) bitsandbytes' fused 4-bit
// GEMM takes on CUDA; above it the forward dequantizes the weight and
// calls F.linear (bitsandbytes 0.50 backends/cuda/ops.py,
// _gemm_4bit_custom_max_m = 1536: "dequant+F.linear wins past M=1536";
// before 0.50 MatMul4Bit.forward always dequantized).
const bnbFusedMaxTokens = 1536

// DequantPasses returns how many times each 4-bit weight is dequantized
// per micro-batch of a QLoRA step, from bitsandbytes' MatMul4Bit
// (autograd/_functions.py): once in forward when the micro-batch has more
// than bnbFusedMaxTokens tokens, once in backward for the input's
// gradient (grad_A = grad_output @ dequantize_4bit(B), always), and once
// more when activation checkpointing runs the forward again. 0 for any
// other task.
func DequantPasses(w *Workload) int {
	if w.Task != TaskQLoRA {
		return 0
	}
	n := 1 // backward
	if w.MicroBatch*int(tokensPerSample(w)) > bnbFusedMaxTokens {
		n++
		if w.Ckpt() {
			n++
		}
	}
	return n
}

// dequantSeconds returns the time one GPU spends per micro-batch
// dequantizing QLoRA's 4-bit weights, 0 for other tasks or without a
// memory bandwidth. dequantize_4bit is a streaming kernel: it reads the
// packed weights and their absmax (FourBitBytesPerParam) and writes the
// 16-bit weight (2 bytes; a .to() to another 16-bit dtype, LitGPT's bf16
// over fp16, reads and writes it again), so it is bound by memory
// bandwidth, timed at MBU of peak as decoding is (bitsandbytes publishes
// no dequantize throughput). Each GPU dequantizes its 1/TP of the
// weights. The matmul that follows reads the 16-bit weight as LoRA's
// would: no extra.
func dequantSeconds(w *Workload, g *GPU) float64 {
	passes := DequantPasses(w)
	if passes == 0 || g == nil || g.MemoryBandwidthGBps <= 0 {
		return 0
	}
	params, _ := fourBitLinear(w)
	_, dq := w.FourBit()
	bytes := FourBitBytesPerParam(dq) + 2
	if w.Trainer == TrainerLitGPT && w.Precision != FP16 {
		bytes += 2 + 2 // the .to(bf16) copy
	}
	return float64(passes) * params / float64(w.TP) * bytes / (g.MemoryBandwidthGBps * 1e9 * MBU)
}

// Retime recomputes the time fields of a training or vision estimate on
// g over host h (Compute assumes DefaultHost). A user MFU is used as
// given: FLOPs / (GPUs × peak × MFU), no other factor.
func (e *Estimate) Retime(g *GPU, h Host) {
	e.time(g, h)
}

// inputCap returns the samples/s the host's input pipeline can feed for
// vision jobs, +Inf when uncapped: vCPUs × ImagesPerVCPU per node.
func inputCap(w *Workload, h Host) float64 {
	if !w.Model.Family.Vision() || h.VCPUs <= 0 || h.ImagesPerVCPU <= 0 {
		return math.Inf(1)
	}
	nodes := math.Ceil(float64(w.GPUs) / float64(max(h.GPUsPerNode, 1)))
	return nodes * float64(h.VCPUs) * h.ImagesPerVCPU
}
