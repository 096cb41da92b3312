package launch

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/launch/cloud"
	"github.com/gpuplan/gpuplan/model/launch/stack"
	"github.com/gpuplan/gpuplan/model/serve"
	"github.com/gpuplan/gpuplan/model/show"
)

// Serving defaults.
const (
	// DefaultVLLMImage is vLLM's OpenAI-compatible server image (Docker Hub
	// vllm/vllm-openai, vLLM docs "Using Docker"); pin a release tag with
	// ServeOptions.Image for reproducible deployments.
	DefaultVLLMImage = "vllm/vllm-openai:latest"
	// DefaultVLLMROCmImage is vLLM's official image for AMD GPUs, whose
	// entrypoint is the same OpenAI server (vLLM docs, "GPU installation",
	// AMD ROCm, "Pre-built images": Docker Hub vllm/vllm-openai-rocm).
	DefaultVLLMROCmImage = "vllm/vllm-openai-rocm:latest"
	// ROCmPodImage is the image a SkyServe file starts as the container on
	// a container cloud (cloud.ContainerCloud: RunPod, Vast, Daytona) for
	// an AMD GPU: AMD's vLLM image (ROCm docs, "vLLM inference and serving
	// on ROCm": docker pull rocm/vllm:<tag>, run with bash), built from
	// vLLM's docker/Dockerfile.rocm stage "final", which ends in
	// CMD ["/bin/bash"] (docker/docker-bake-rocm.hcl target final-rocm,
	// tag rocm/vllm:latest). vLLM's own DefaultVLLMROCmImage is the stage
	// "vllm-openai" on top of it, ENTRYPOINT ["vllm", "serve"], which
	// SkyPilot cannot override on RunPod (its docs, "Using Docker
	// Containers": "choose a container with a default entrypoint"). The
	// tag is latest, as the CUDA files install PyPI's newest vllm and run
	// vllm/vllm-openai:latest; --image pins one.
	ROCmPodImage = "rocm/vllm:latest"
	// VoltaVLLMImage is the image a GPU whose last CUDA line is 12
	// (Serve.LastCUDA: Volta, compute capability 7.0) runs: v0.19.1, a
	// release before v0.20.0, which made CUDA 13 its default and took 7.0
	// out of its image's TORCH_CUDA_ARCH_LIST (vllm-project/vllm#39878;
	// vllm-project/router#154). The tag is Docker Hub's, as public
	// deployments pull it (vllm/vllm-openai:v0.19.1; its CUDA 13 build is
	// the separate v0.19.1-cu130 tag).
	VoltaVLLMImage = "vllm/vllm-openai:v0.19.1"
	// VoltaVLLMRequirement is pip's pin for such a GPU: the newest release
	// before v0.20.0.
	VoltaVLLMRequirement = "vllm<0.20"
	// VLLMPort is the port vllm serve listens on by default (vLLM docs,
	// "OpenAI-Compatible Server": http://localhost:8000).
	VLLMPort = 8000
	// VLLMHealthPath answers 200 once the engine is up
	// (vllm/entrypoints/openai/api_server.py, GET /health).
	VLLMHealthPath = "/health"
	// skyServeInitialDelay is SkyServe's default readiness_probe
	// initial_delay_seconds (sky/serve/constants.py
	// DEFAULT_INITIAL_DELAY_SECONDS): time to download and load the weights.
	skyServeInitialDelay = 1200
)

// ServeOptions are the serving launch choices that serve.Plan does not
// hold. The zero value picks every default.
type ServeOptions struct {
	Name    string // deployment name; "" is "gpuplan-serve-" + the model key
	ModelID string // Hugging Face repo id vLLM loads; "" from NamedAs or the catalog alias, else PlaceholderModelID
	// NamedAs is the name the user gave the model (--model, workload.model):
	// when it is one of the catalog's repo aliases (an Instruct checkpoint)
	// it is the repo loaded (RepoIDAsNamed).
	NamedAs string
	Region  string // the offer's region (serve.Offer carries it only in its Name)
	// RegionGiven is true when the user named the region (gpuplan export
	// --region), as Options.RegionGiven: the files then name it even where
	// it is one of several price regions (Serve.AnyOfRegions stays 0).
	RegionGiven bool
	// Where is the region and country filter of the user's search, as
	// Options.Where: a price region stands for the regions of its price
	// Where allows (Serve.Regions).
	Where   model.RegionFilter
	Pricing model.Pricing // the offer's pricing; "" is on-demand
	Image   string        // vLLM image for docker and Kubernetes; "" is DefaultVLLMImage
	// Notes are the caller's, said in every format's header as "note: …"
	// lines after the deployment's own (gpuplan export --phase: what
	// gpuplan plan says of the phase, such as a load it carries only on
	// more instances than it rents).
	Notes []model.Message
	// CacheClaim is the PersistentVolumeClaim the Kubernetes Deployment
	// keeps the Hugging Face cache on (gpuplan export --k8s-pvc), so the
	// weights are downloaded once rather than by every new pod; "" is an
	// emptyDir sized for them. It must be a DNS-1123 subdomain.
	CacheClaim string
	// Adapter says where the LoRA adapter the plan serves
	// (serve.Serving.LoRA) comes from: the training phase and its
	// output directory; nil when unknown or none is served.
	Adapter *ServeAdapter
}

// Serve is a serving deployment of vLLM: where it runs, how the model is
// split, and the engine settings, from a serve.Plan. NewServe builds
// it; Render writes it in a Format.
type Serve struct {
	Name    string
	Model   string // display name
	ModelID string // Hugging Face repo id

	Provider, InstanceType, CatalogType, Region string
	// AnyOfRegions is Plan.AnyOfRegions for the serving offer: the price
	// regions Region stands for (Lambda, OCI), 0 when it names the place
	// or the user gave it. The headers then say "any of N regions" and
	// the SkyServe file names no region (skyRegionOf).
	AnyOfRegions int
	// Regions and PriceRegions are Plan's: the regions of the price the
	// search allows when it leaves some out, which the SkyServe file
	// names, and how many the price has.
	Regions         []string
	PriceRegions    int
	Pricing         model.Pricing
	Accelerator     string
	GPUsPerInstance int
	HostVCPUs       int
	HostMemoryGiB   float64
	CPUArch         string // "arm64": arm64 wheels and images (Plan.CPUArch)
	// LastCUDA is the newest CUDA line the GPU runs ("12.x" for Volta and
	// older: CUDA 13.0 dropped them; Advise), empty when current.
	LastCUDA   string
	USDPerHour float64 // the whole deployment
	// PriceFrom, PriceSource and PriceAsOf are Plan's: the overlay that
	// set the price; "" for the catalog's own.
	PriceFrom, PriceSource, PriceAsOf string

	// TP × PP GPUs make one replica (one vLLM engine); ReplicasPerNode
	// engines share a node through vLLM's --data-parallel-size, or for an
	// MoE model as one vllm serve each (OneServerPerReplica); Replicas in
	// all, on Nodes nodes.
	TP, PP, ReplicasPerNode, Replicas, Nodes int

	DiskGB int // root disk per node, GB: see ServeDiskGB
	// CacheGiB is the Hugging Face cache one pod needs, GiB: see
	// ServeCacheGiB; CacheClaim, ServeOptions.CacheClaim.
	CacheGiB   int
	CacheClaim string
	// weightBytes is the checkpoint as downloaded, which CacheGiB and
	// DiskGB hold.
	weightBytes float64

	Serving serve.Serving // with Defaults applied
	Image   string
	// PodImage is the container a SkyServe file starts on a container
	// cloud (cloud.ContainerCloud) for an AMD GPU, as resources.image_id:
	// ServeOptions.Image, or ROCmPodImage; "" elsewhere. There is no
	// Docker daemon to docker run Image in, and PyPI's vllm is CUDA's.
	PodImage string
	// ROCm is set on AMD GPUs: the files run vLLM's ROCm image
	// (DefaultVLLMROCmImage) with the ROCm devices (vllmROCmDockerFlags)
	// and request amd.com/gpu, where NVIDIA's get the CUDA image, --gpus
	// all and nvidia.com/gpu.
	ROCm bool

	// HalfForBF16 is set when bf16 weights are served on a GPU without
	// bf16 (compute capability below 8.0): vLLM refuses bfloat16 there
	// and asks for --dtype=half (vllm/platforms/cuda.py
	// check_if_supports_dtype), same bytes per weight, so the estimate
	// holds.
	HalfForBF16 bool
	// HalfActivations is set when fp8 weights are served on a GPU without
	// bf16 (Turing: FP8 Marlin, weight-only): the activations are float16,
	// written as --dtype float16 for the reason above.
	HalfActivations bool
	// Float32 is set when the model runs in float32 (serve.Serving.Float32):
	// on a GPU without bf16, for a model type vLLM refuses float16 for
	// (Gemma 2 and 3: serve.FP16Refused), vLLM's --dtype auto loads
	// float32, and --dtype float16 does not start; the files write
	// --dtype float32.
	Float32 bool
	// FallbackFrom is the weight format asked for when the GPU cannot run
	// it and the plan falls back (serve.Plan.FallbackFrom); Fallback
	// says why, in English.
	FallbackFrom serve.WeightFormat
	Fallback     string

	// Arch and Plan are the model and serving plan NewServe was given: the
	// probe script compares vLLM's figures with them (probescript.Serve).
	Arch *model.Architecture
	Plan *serve.Plan
	// Notes are ServeOptions.Notes, the last lines of HeaderLines.
	Notes []model.Message
	// Adapter is the LoRA adapter served on the base (Serving.LoRA),
	// with where it comes from (ServeOptions.Adapter); nil without one.
	Adapter *ServeAdapter
}

// NewServe builds the deployment for plan sp of model a. The error wraps
// ErrPlan when the plan does not fit, a replica spans nodes (pipeline
// parallelism across nodes needs a Ray cluster, which gpuplan does not
// write) or the GPU is not NVIDIA's: the files are CUDA ones (the
// vllm/vllm-openai image, pip's CUDA wheels, nvidia.com/gpu), and vLLM on
// AMD GPUs is a different build (its ROCm image and install guide).
func NewServe(a *model.Architecture, sp *serve.Plan, opt ServeOptions) (*Serve, error) {
	o := sp.Offer
	if o.Instance == nil || o.GPU == nil || o.GPUsPerNode < 1 {
		return nil, model.Errorf(ErrPlan, "the serving offer has no instance or GPU")
	}
	if o.GPU.Vendor != "nvidia" && o.GPU.Vendor != "amd" {
		return nil, model.Errorf(ErrPlan, "%s is neither an NVIDIA nor an AMD GPU: gpuplan writes vLLM's CUDA and ROCm files only; on %s install vLLM's build for it (docs.vllm.ai, GPU installation)",
			show.Printable(o.GPU.Name), show.Printable(o.Instance.Type))
	}
	if !sp.Fits {
		return nil, model.Errorf(ErrPlan, "the model does not fit on %s: %v", o.Instance.Type, sp.ReasonMsg())
	}
	perReplica := sp.TP * sp.PP
	if perReplica < 1 || perReplica > o.GPUsPerNode {
		return nil, model.Errorf(ErrPlan, "one replica needs %d GPUs (TP %d × PP %d), more than the %d of one %s; a replica across nodes needs a Ray cluster, which gpuplan does not write",
			perReplica, sp.TP, sp.PP, o.GPUsPerNode, o.Instance.Type)
	}
	accel, _ := cloud.InstanceAccelerator(o.Instance, o.GPU)
	s := &Serve{
		Name: opt.Name, Model: ModelName(a), ModelID: opt.ModelID,
		Provider: o.Instance.Provider, InstanceType: ProviderInstanceType(o.Instance.Provider, o.Instance.Type),
		CatalogType: o.Instance.Type, Region: opt.Region, Pricing: opt.Pricing,
		Accelerator: accel, GPUsPerInstance: o.GPUsPerNode, HostVCPUs: o.Instance.VCPUs, HostMemoryGiB: o.Instance.MemoryGiB, CPUArch: o.Instance.CPUArch,
		LastCUDA:   stack.Advise(o.GPU).LastCUDA,
		USDPerHour: sp.USDPerHour,
		TP:         sp.TP, PP: sp.PP, Replicas: max(sp.Replicas, 1), Nodes: max(sp.Nodes, 1),
		Serving: sp.Serving, Image: opt.Image, ROCm: o.GPU.Vendor == "amd",
		Arch: a, Plan: sp, Notes: slices.Clone(opt.Notes), Adapter: newAdapter(sp, opt.Adapter),
	}
	source, origin, asOf := o.Instance.RegionProvenance(opt.Region)
	if d := o.Discount; d != nil && model.FromOverlay(d.Origin) && opt.Pricing == o.Pricing { // a reserved price off an overlay's discount
		source, origin, asOf = d.Source, d.Origin, d.AsOf
	}
	if model.FromOverlay(origin) {
		s.PriceFrom, s.PriceSource, s.PriceAsOf = origin, source, asOf
	}
	s.ReplicasPerNode = min(s.Replicas, o.GPUsPerNode/perReplica)
	noBF16 := false
	if ok, _ := o.GPU.Supports(model.BF16); !ok {
		noBF16 = true
	}
	switch wf := sp.Serving.WeightFormat; {
	case noBF16 && wf == serve.WeightBF16, noBF16 && wf == serve.WeightFP16 && sp.FallbackFrom == serve.WeightBF16:
		s.HalfForBF16 = true // the bf16 → fp16 fallback keeps its note
	case noBF16 && wf == serve.WeightFP8:
		s.HalfActivations = true
	}
	s.Float32 = sp.Serving.Float32()
	if sp.FallbackFrom != "" && !s.HalfForBF16 {
		s.FallbackFrom, s.Fallback = sp.FallbackFrom, sp.Fallback.String()
	}
	if s.Name == "" {
		s.Name = "gpuplan-serve-" + slug(a.Key, "custom")
	}
	s.Name = Name(s.Name)
	// A release quantized in its own format (gpt-oss MXFP4, DeepSeek-V3
	// fp8) is loaded as released: vLLM reads its config.json
	// quantization_config whatever --dtype says, so a plan of other
	// weights (--weight-format bf16) on that repo runs another job than
	// the one priced (walk56: bf16 gpt-oss-20b sized at 39 GiB on TP 8,
	// exported as vllm serve openai/gpt-oss-20b --dtype bfloat16). As
	// QLoRA of it (NewPlan), the file needs a copy in the plan's format.
	if rf, ok := serve.ReleasedFormat(a); ok && sp.Serving.WeightFormat != rf && (opt.ModelID == "" || RepoIDAsNamed(opt.ModelID, a) != "") {
		release := cmp.Or(RepoIDAsNamed(opt.ModelID, a), RepoIDAsNamed(opt.NamedAs, a), hfRepoID(a))
		return nil, model.Errorf(ErrPlan, "%s weights of %s: %s is released %s-quantized, which vLLM loads as it is (its config.json quantization_config), whatever --dtype says; give --model-id a %s copy of it, or serve the release's %s (leave --weight-format out)",
			sp.Serving.WeightFormat, ModelName(a), release, rf, sp.Serving.WeightFormat, rf)
	}
	if s.ModelID == "" {
		s.ModelID = cmp.Or(RepoIDAsNamed(opt.NamedAs, a), hfRepoID(a))
		// A catalog alias names the 16-bit base; AWQ and GPTQ need a checkpoint
		// quantized ahead of time (vLLM reads its quantization_config), and the
		// base would not fit where the plan says. Repos of such checkpoints name
		// the method; without it, write the placeholder so the file fails loudly.
		if wf := sp.Serving.WeightFormat; (wf == serve.WeightAWQ || wf == serve.WeightGPTQ) &&
			!strings.Contains(strings.ToLower(s.ModelID), string(wf)) {
			s.ModelID = PlaceholderModelID
		}
	}
	// The catalog's default checkpoint is the pretrained one where an
	// instruction-tuned sibling is listed (meta-llama/Llama-3.1-8B beside
	// -Instruct, google/gemma-3-4b-pt beside -it): an OpenAI-compatible
	// chat endpoint is usually meant for the tuned one, so the file says
	// which it serves and how to name the other (walk56).
	if opt.ModelID == "" && RepoIDAsNamed(opt.NamedAs, a) == "" {
		if tuned := tunedSibling(s.ModelID, a.Aliases); tuned != "" {
			s.Notes = append(s.Notes, model.Msg("serves %s, the pretrained (base) checkpoint; for a chat endpoint serve its instruction-tuned %s (--model %s)", s.ModelID, tuned, tuned))
		}
	}
	if s.Pricing == "" {
		s.Pricing = model.OnDemand
	}
	if !opt.RegionGiven { // as NewPlan: a region the user named is pinned
		s.PriceRegions = anyOfRegions(o.Instance, s.Region, s.Pricing)
		s.AnyOfRegions, s.Regions = priceRegionsIn(o.Instance, s.Region, s.Pricing, &opt.Where)
	}
	if s.ROCm && cloud.ContainerCloud(s.Provider) {
		s.PodImage = cmp.Or(opt.Image, ROCmPodImage)
	}
	if s.Image == "" {
		switch {
		case s.ROCm:
			s.Image = DefaultVLLMROCmImage
		case s.LastCUDA != "":
			s.Image = VoltaVLLMImage
		default:
			s.Image = DefaultVLLMImage
		}
	}
	// A model id or image starting with '-' would be read as an option
	// (--model-id=--trust-remote-code wrote `vllm serve --trust-remote-code`).
	switch {
	case strings.HasPrefix(s.ModelID, "-"):
		return nil, model.Errorf(ErrPlan, "model id %q starts with '-', which vllm serve would read as an option; give a Hugging Face repo id (org/name), or a local path as ./PATH", s.ModelID)
	case strings.HasPrefix(s.Image, "-"):
		return nil, model.Errorf(ErrPlan, "image %q starts with '-', which docker would read as an option; give an image reference such as vllm/vllm-openai:latest", s.Image)
	}
	// The download is the checkpoint: --quantization fp8 quantizes a 16-bit
	// one on load, so unless the repo is an fp8 checkpoint (its name says
	// so, as Hugging Face's FP8 repos do, or the model is released in fp8,
	// as DeepSeek-V3/R1 are: quant_method "fp8") the disk holds 16-bit weights.
	download := sp.Serving.WeightFormat
	if download == serve.WeightFP32 { // vLLM upcasts the 16-bit checkpoint as it loads
		download = serve.WeightBF16
	}
	if download == serve.WeightFP8 && a.QuantMethod != "fp8" && !strings.Contains(strings.ToLower(s.ModelID), "fp8") {
		download = serve.WeightBF16
	}
	// bitsandbytes likewise quantizes a 16-bit checkpoint as it loads; a
	// pre-quantized repo names it (unsloth's "-bnb-4bit").
	if id := strings.ToLower(s.ModelID); download == serve.WeightBNB && !strings.Contains(id, "bnb") && !strings.Contains(id, "bitsandbytes") {
		download = serve.WeightBF16
	}
	s.DiskGB = ServeDiskGB(serve.WeightBytes(a, download))
	s.weightBytes = serve.WeightBytes(a, download)
	s.CacheGiB = ServeCacheGiB(s.weightBytes)
	if opt.CacheClaim != "" && !ValidSubdomain(opt.CacheClaim) {
		return nil, model.Errorf(ErrPlan, "PersistentVolumeClaim name %q: want lower-case letters, digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters", opt.CacheClaim)
	}
	s.CacheClaim = opt.CacheClaim
	return s, nil
}

// ServeCacheGiB returns the Hugging Face cache a serving pod needs, in
// GiB: the checkpoint as downloaded plus 20% (DiskSizeGB's headroom:
// the download's temporary files, the tokenizer and config files, a
// revision beside the old one), rounded up to 10 GiB. A training pod's
// cache is sized with it for its checkpoint and dataset (trainCache).
func ServeCacheGiB(downloadBytes float64) int {
	gib := math.Ceil(downloadBytes * (1 + diskHeadroomPercent/100.0) / model.GiB)
	return max(int(math.Ceil(gib/10))*10, 10)
}

// ServeDiskGB returns the root disk per serving node, in GB (10⁹ bytes),
// with DiskSizeGB's rules: a base for the software (the vLLM image or
// wheel, CUDA, caches) plus the checkpoint as downloaded into the Hugging
// Face cache, plus 20%, rounded up to 50 GB and at least 100 GB.
func ServeDiskGB(weightBytes float64) int {
	total := (baseDiskGB*model.GB + weightBytes) * (1 + diskHeadroomPercent/100.0)
	gb := int(math.Ceil(total/model.GB/diskRoundGB)) * diskRoundGB
	return max(gb, minDiskGB)
}

// VLLMArgs returns the engine flags after the model, spelled as the vLLM
// CLI's current flags (vllm/engine/arg_utils.py EngineArgs.add_cli_args):
// --tensor-parallel-size, --pipeline-parallel-size, --data-parallel-size
// (engines per node, when more than one), --max-model-len,
// --gpu-memory-utilization, --kv-cache-dtype, --max-num-seqs,
// --max-num-batched-tokens; --dtype bfloat16/float16 for 16-bit weights,
// float32 where the model runs in float32 (Float32: vLLM refuses
// float16 for its type on a GPU without bf16);
// --quantization fp8 for fp8 weights (vLLM quantizes a 16-bit checkpoint
// on load; an fp8 checkpoint declares the same method), with --dtype
// float16 on a GPU without bf16 (HalfActivations). AWQ, GPTQ and
// int8 checkpoints carry their method in config.json's
// quantization_config, which vLLM reads (and then picks its fastest
// kernel, such as awq_marlin), so no --quantization is written for them.
// The files and the probe script pass ServerArgs, which leave
// --data-parallel-size out for an MoE model (OneServerPerReplica).
func (s *Serve) VLLMArgs() []string {
	v := s.Serving
	a := []string{
		"--tensor-parallel-size", fmt.Sprint(s.TP),
		"--pipeline-parallel-size", fmt.Sprint(s.PP),
	}
	if s.ReplicasPerNode > 1 {
		a = append(a, "--data-parallel-size", fmt.Sprint(s.ReplicasPerNode))
	}
	a = append(a, "--max-model-len", fmt.Sprint(v.MaxModelLen))
	if o := s.hfOverrides(); o != "" {
		a = append(a, "--hf-overrides", o)
	}
	a = append(a, "--gpu-memory-utilization", fmt.Sprint(v.GPUMemoryUtilization),
		"--kv-cache-dtype", string(v.KVCacheDType))
	switch v.WeightFormat {
	case serve.WeightBF16:
		if s.HalfForBF16 {
			a = append(a, "--dtype", "float16")
		} else {
			a = append(a, "--dtype", "bfloat16")
		}
	case serve.WeightFP16:
		a = append(a, "--dtype", "float16")
	case serve.WeightFP32:
		a = append(a, "--dtype", "float32")
	case serve.WeightFP8:
		a = append(a, "--quantization", "fp8")
		if s.HalfActivations {
			a = append(a, "--dtype", "float16")
		}
	case serve.WeightBNB:
		// "Append the following to your 4bit model arguments: --quantization
		// bitsandbytes" (vLLM docs, features/quantization/bnb.md, OpenAI
		// Compatible Server); in-flight quantization needs it.
		a = append(a, "--quantization", "bitsandbytes")
		if s.Float32 { // what --dtype auto resolves to here, said
			a = append(a, "--dtype", "float32")
		}
	}
	a = append(a, "--max-num-seqs", fmt.Sprint(v.MaxNumSeqs), "--max-num-batched-tokens", fmt.Sprint(v.MaxNumBatchedTokens))
	return append(a, s.loraArgs()...)
}

// ropeParameters is the rope_parameters object of vLLM's --hf-overrides
// for a YaRN scaling (serve.RopeScaling), its keys as vLLM's
// context-extension example writes them
// (examples/features/context_extension/context_extension_offline.py @
// 41c5903d049b80b83a6e570f52f0f55e31316e49): the override replaces the
// model's RoPE parameters whole (ModelConfig._apply_dict_overrides), so
// rope_theta, the model's base, goes with it.
type ropeParameters struct {
	RopeTheta float64 `json:"rope_theta"`
	RopeType  string  `json:"rope_type"`
	// Factor is written with a decimal point (4.0), as transformers'
	// RoPE validation wants a float factor.
	Factor   json.Number `json:"factor"`
	Original int         `json:"original_max_position_embeddings"`
}

// hfOverrides is the JSON of vllm serve's --hf-overrides for the plan's
// RoPE scaling, {"rope_parameters": {…}}, encoded by encoding/json (the
// files quote it as one word); "" without one. vLLM derives max_model_len
// from it as original_max_position_embeddings × factor
// (vllm/config/model.py _get_and_verify_max_len @
// 18ec6629253632af0a384f2ffbb8c6b28af322e7), which --max-model-len must
// not pass.
func (s *Serve) hfOverrides() string {
	r := s.Serving.RopeScaling
	if r.IsZero() || s.Arch == nil {
		return ""
	}
	factor := strconv.FormatFloat(r.Factor, 'f', -1, 64)
	if !strings.ContainsAny(factor, ".eE") {
		factor += ".0"
	}
	orig := cmp.Or(r.Original, s.Arch.RopeOriginal, s.Arch.MaxPositions)
	b, err := json.Marshal(struct {
		RopeParameters ropeParameters `json:"rope_parameters"`
	}{ropeParameters{RopeTheta: s.Arch.RopeTheta, RopeType: r.Type, Factor: json.Number(factor), Original: orig}})
	if err != nil { // a factor that is no JSON number: ParseRopeScaling refuses it first
		return ""
	}
	return string(b)
}

// GPUsPerNode returns the GPUs one node's vLLM uses.
func (s *Serve) GPUsPerNode() int { return s.TP * s.PP * s.ReplicasPerNode }

// Render writes the deployment in format f: FormatTOML the [serve]
// section, FormatTorchrun (or FormatVLLM, its name for serving) a shell
// script around vllm serve, FormatDocker
// docker run of the vLLM image, FormatSkyPilot a SkyServe service YAML,
// FormatK8s a Deployment and a Service.
func (s *Serve) Render(f Format) ([]byte, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	switch f {
	case FormatTOML:
		return s.TOML()
	case FormatTorchrun, FormatVLLM:
		return s.Script(), nil
	case FormatDocker:
		return s.Docker(), nil
	case FormatSkyPilot:
		return s.SkyPilot()
	case FormatK8s, FormatPyTorchJob:
		return s.Kubernetes()
	}
	return nil, model.Msg("format %q: want toml, skypilot, torchrun, docker or k8s", f)
}

// Check refuses values that are not UTF-8 text or cannot be shell words.
func (s *Serve) Check() error {
	p := &Plan{Name: s.Name, Model: s.Model, Provider: s.Provider, InstanceType: s.InstanceType, CatalogType: s.CatalogType,
		Region: s.Region, Accelerator: s.Accelerator, Image: s.Image, Script: s.ModelID}
	return p.checkShellWords()
}

// RegionShown is Plan.RegionShown for the serving deployment: "any of N
// regions" for a price region (AnyOfRegions), else Region.
func (s *Serve) RegionShown() string { return regionShown(s.Region, s.AnyOfRegions) }

// HeaderLines mirror Plan's.
func (s *Serve) HeaderLines() []string {
	lines := []string{fmt.Sprintf("generated by gpuplan export: serve %s (%s) on %d × %s %s (%d × %s each), %s, %s, $%.2f/h; TP %d × PP %d, %s",
		s.Model, s.Serving.WeightFormat, s.Nodes, s.Provider, s.InstanceType, s.GPUsPerInstance, s.Accelerator, s.RegionShown(), s.Pricing,
		s.USDPerHour, s.TP, s.PP, model.Count(s.Replicas, "replica"))}
	if s.ModelID == PlaceholderModelID {
		lines = append(lines, "note: replace the placeholder model id "+PlaceholderModelID)
	}
	if s.PriceFrom != "" {
		lines = append(lines, fmt.Sprintf("note: the price is from overlay %s (%s, as of %s)", s.PriceFrom, s.PriceSource, s.PriceAsOf))
	}
	if s.CPUArch == "arm64" {
		lines = append(lines, "note: "+model.ArmHostWarning)
	}
	if s.LastCUDA != "" {
		// Which release: vLLM v0.20.0 made CUDA 13.0 the default wheel and
		// image and took compute capability 7.0 out of the image's
		// TORCH_CUDA_ARCH_LIST (vllm-project/vllm#39878, docker/versions.json;
		// vllm-project/router#154 dates the switch to v0.20.0), and vLLM's
		// installation docs need 7.5 from v0.21.0
		// (docs/getting_started/installation/gpu.cuda.inc.md at that tag; v0.14.0's
		// still list the V100). See serve.Unservable. Every format pins a
		// release before it (vllmInstall, VoltaVLLMImage): an unpinned
		// install is newer and does not run here (walk36b).
		lines = append(lines, fmt.Sprintf("note: %s needs a vLLM release before v0.20.0, built for CUDA %s: CUDA 13.0 dropped Maxwell, Pascal and Volta, vLLM v0.20.0 made CUDA 13 its default and took compute capability 7.0 out of its image, and its docs from v0.21.0 need 7.5; this file installs %s (pip install '%s') and runs the image %s (an image given with --image must be such a release too)", s.Accelerator, s.LastCUDA, VoltaVLLMRequirement, VoltaVLLMRequirement, s.Image))
	}
	switch s.Serving.WeightFormat {
	case serve.WeightAWQ, serve.WeightGPTQ, serve.WeightInt8:
		lines = append(lines, fmt.Sprintf("note: %s weights: the model id must be a checkpoint quantized with %s; vLLM reads its quantization_config", s.Serving.WeightFormat, strings.ToUpper(string(s.Serving.WeightFormat))))
	case serve.WeightBNB:
		// bitsandbytes_loader.py _verify_model_compatibility: "Prequant
		// BitsAndBytes models with tensor parallelism is not supported".
		lines = append(lines, "note: bitsandbytes 4-bit weights (--quantization bitsandbytes): vLLM reads a bitsandbytes checkpoint's quantization_config, or quantizes a 16-bit checkpoint to NF4 as it loads; a pre-quantized bitsandbytes checkpoint does not run with tensor parallelism (TP > 1)")
	}
	if s.HalfForBF16 {
		lines = append(lines, fmt.Sprintf("note: %s has no bf16 (compute capability below 8.0): served in float16 (--dtype float16), as vLLM requires", s.Accelerator))
	}
	if s.HalfActivations {
		lines = append(lines, fmt.Sprintf("note: %s has no bf16 (compute capability below 8.0): fp8 weight-only (FP8 Marlin) with float16 activations (--dtype float16), as vLLM requires", s.Accelerator))
	}
	if s.Float32 {
		// vllm/config/model.py: _FLOAT16_NOT_SUPPORTED_MODELS, and
		// _resolve_auto_dtype's float32 on a GPU without bf16 (serve.FormatFor).
		typ := "its model type"
		if s.Arch != nil && s.Arch.ModelType != "" {
			typ = s.Arch.CheckpointModelType() + " models"
		}
		cc := " (compute capability below 8.0)"
		if s.ROCm {
			cc = ""
		}
		lines = append(lines, fmt.Sprintf("note: %s has no bf16%s and vLLM refuses float16 for %s (numerical instability; --dtype float16 does not start): the model runs in float32 (--dtype float32, what vLLM's --dtype auto loads here), its unquantized weights, activations and KV cache at 4 bytes, twice bf16's", s.Accelerator, cc, typ))
	}
	if s.FallbackFrom != "" && !(s.Float32 && s.FallbackFrom == serve.WeightBF16) { // bf16 in float32: the note above
		dtype := "bfloat16"
		switch s.Serving.WeightFormat {
		case serve.WeightFP16:
			dtype = "float16"
		case serve.WeightFP32:
			dtype = "float32"
		}
		lines = append(lines, fmt.Sprintf("note: %s weights asked for: %s, from the 16-bit checkpoint (--dtype %s, no --quantization)", s.FallbackFrom, s.Fallback, dtype))
	}
	if s.ReplicasPerNode > 1 && !s.OneServerPerReplica() { // an MoE model's: ServersNote
		// One vllm serve with --data-parallel-size N starts N engines, each
		// with TP × PP GPUs and its own --max-num-seqs, behind one port
		// (vLLM docs, serving/data_parallel_deployment.md, "Internal Load
		// Balancing": "--data-parallel-size=4 --tensor-parallel-size=2 …
		// would require 8 GPUs. … --max-num-seqs applies per DP rank"):
		// the replicas the plan priced, each sized as one.
		lines = append(lines, fmt.Sprintf("note: %d engines per node through --data-parallel-size, behind vLLM's own load balancing", s.ReplicasPerNode))
	}
	if s.Pricing == model.Spot {
		lines = append(lines, "note: spot capacity can be reclaimed at short notice: keep replicas in several zones or an on-demand fallback")
	}
	for _, n := range s.Notes {
		lines = append(lines, "note: "+n.String())
	}
	return lines
}

// InstancesNote says, in format f's terms, that the plan runs on Nodes
// instances and what the file is on each; zero on one instance. The
// script and docker formats start one instance's vllm serve, so they say
// to run them on each instance behind a load balancer (run as written
// they carry 1/Nodes of the load priced); SkyPilot's service has one
// replica per instance behind SkyServe's load balancer; the TOML's
// vllm_args are one instance's. Kubernetes' Deployment scales to Replicas
// pods and says so in its own note (Kubernetes), so it gets none here.
func (s *Serve) InstancesNote(f Format) model.Message {
	if s.Nodes <= 1 {
		return model.Message{}
	}
	inst, all, each := model.CountMsg(s.Nodes, "instance"), model.CountMsg(s.Replicas, "replica"), model.CountMsg(s.ReplicasPerNode, "replica")
	switch f {
	case FormatTorchrun, FormatVLLM:
		return model.Msg("the plan is %v, %v in all: this script starts one instance's vLLM server (%v of TP %d × PP %d); run it on each of the %d instances and put a load balancer in front of their port %d (run on one, it carries 1/%d of the load priced)",
			inst, all, each, s.TP, s.PP, s.Nodes, VLLMPort, s.Nodes)
	case FormatDocker:
		return model.Msg("the plan is %v, %v in all: this script starts one instance's vLLM container (%v of TP %d × PP %d); run it on each of the %d instances and put a load balancer in front of their port %d (run on one, it carries 1/%d of the load priced)",
			inst, all, each, s.TP, s.PP, s.Nodes, VLLMPort, s.Nodes)
	case FormatSkyPilot:
		return model.Msg("the plan is %v, %v in all: the service's replicas: %d are one instance each, running vllm serve (%v of TP %d × PP %d), behind SkyServe's load balancer (the endpoint sky serve status prints)",
			inst, all, s.Nodes, each, s.TP, s.PP)
	case FormatTOML:
		return model.Msg("the plan is %v, %v in all: vllm serve with vllm_args runs on each of the %d instances (%v of TP %d × PP %d each), behind a load balancer",
			inst, all, s.Nodes, each, s.TP, s.PP)
	}
	return model.Message{}
}

// headerFor is HeaderLines with format f's ServersNote and InstancesNote.
func (s *Serve) headerFor(f Format) []string {
	lines := s.HeaderLines()
	for _, n := range []model.Message{s.adapterNote(f), s.ServersNote(f), s.InstancesNote(f)} {
		if !n.IsZero() {
			lines = append(lines, "note: "+n.String())
		}
	}
	return lines
}

func (s *Serve) words() []string {
	w := []string{"vllm serve " + shellQuote(s.ModelID)}
	return append(w, flagGroups(lits(s.VLLMArgs()))...)
}

// Script returns a POSIX shell script that runs vllm serve on one node
// (install vLLM first: pip install vllm), or for an MoE model with
// several replicas on a node one vllm serve per replica on its own GPUs
// and port (OneServerPerReplica, replicaServers). Run it on each of Nodes
// nodes behind a load balancer, as its header says (InstancesNote).
func (s *Serve) Script() []byte {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	install := "install vLLM (pip install vllm); gated models: export HF_TOKEN first"
	if s.LastCUDA != "" {
		install = "install vLLM before v0.20 (pip install '" + VoltaVLLMRequirement + "'); gated models: export HF_TOKEN first"
	}
	if s.ROCm { // PyPI's vllm wheel is CUDA's
		install = "install vLLM's ROCm build (docs.vllm.ai, GPU installation, AMD ROCm) or run in the " + DefaultVLLMROCmImage + " image; gated models: export HF_TOKEN first"
	}
	b.WriteString(CommentBlock(append(s.headerFor(FormatTorchrun), install,
		fmt.Sprintf("serves the OpenAI API on %s; readiness: GET %s", s.portsText(), VLLMHealthPath))))
	b.WriteString("set -e\n" + hfHomeExport + "\n")
	if s.OneServerPerReplica() {
		b.WriteString(s.replicaServers(s.serverWords))
		return []byte(b.String())
	}
	b.WriteString("exec " + continued(s.words(), "  ") + "\n")
	return []byte(b.String())
}

// Docker returns a POSIX shell script around docker run of the vLLM image,
// as vLLM's docs run it: all GPUs, the host's IPC namespace (tensor
// parallel workers share memory), the host's Hugging Face cache, HF_TOKEN
// from the environment, port 8000 published; the image's entrypoint is the
// OpenAI server, which takes --model and the engine flags. For an MoE
// model with several replicas on a node (OneServerPerReplica) it starts
// one container per replica, each told its GPUs (-e CUDA_VISIBLE_DEVICES)
// and publishing its own port (--port, -p).
func (s *Serve) Docker() []byte {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	b.WriteString(CommentBlock(append(s.headerFor(FormatDocker), "gated models: export HF_TOKEN first")))
	b.WriteString("set -e\n")
	if s.OneServerPerReplica() {
		b.WriteString(s.replicaServers(func(i int) []string { return s.replicaDockerWords(i) }))
		return []byte(b.String())
	}
	b.WriteString(continued(s.dockerWords(), "  ") + "\n")
	return []byte(b.String())
}

// portsText names the port the files serve on: VLLMPort, or with one
// server per replica the range of ReplicaPort.
func (s *Serve) portsText() string {
	if s.OneServerPerReplica() {
		return fmt.Sprintf("ports %d–%d (one per replica)", s.ReplicaPort(0), s.ReplicaPort(s.ReplicasPerNode-1))
	}
	return fmt.Sprintf("port %d", VLLMPort)
}

// vllmROCmDockerFlags give the container the host's AMD GPUs as vLLM's
// ROCm docs run its image (docs/getting_started/installation/gpu.rocm.inc.md,
// "Pre-built images": --group-add=video, --cap-add=SYS_PTRACE,
// --security-opt seccomp=unconfined, --device /dev/kfd, --device
// /dev/dri, --ipc=host); NVIDIA's --gpus all does not see AMD GPUs.
const vllmROCmDockerFlags = "docker run --rm --ipc=host --group-add=video --cap-add=SYS_PTRACE --security-opt seccomp=unconfined --device /dev/kfd --device /dev/dri"

// dockerWords is the docker run of the vLLM image, CUDA's or ROCm's.
func (s *Serve) dockerWords() []string {
	m := s.mounted()
	return m.dockerRun(nil, VLLMPort, m.VLLMArgs())
}

// replicaDockerWords is replica i's docker run (OneServerPerReplica):
// its GPUs and port.
func (s *Serve) replicaDockerWords(i int) []string {
	port, m := s.ReplicaPort(i), s.mounted()
	return m.dockerRun([]string{"-e CUDA_VISIBLE_DEVICES=" + s.ReplicaGPUs(i)}, port, append(m.ServerArgs(), "--port", fmt.Sprint(port)))
}

// dockerRun is docker run of the vLLM image with the extra flags, port
// published, and vllm's flags args.
func (s *Serve) dockerRun(extra []string, port int, args []string) []string {
	run := "docker run --gpus all --rm --ipc=host"
	if s.ROCm {
		run = vllmROCmDockerFlags
	}
	words := append([]string{run}, extra...)
	words = append(words, fmt.Sprintf("-p %d:%d", port, port),
		"-e HF_TOKEN -e HF_HOME="+hfCacheDir, `-v "$HOME/.cache/huggingface":`+hfCacheDir)
	if a := s.Adapter; a != nil && s.Serving.LoRA != nil { // read-only at the path --lora-modules names (mounted)
		words = append(words, `-v "$PWD"/`+shellQuote(path.Join(AdapterDir, a.Name))+":"+shellQuote(s.adapterPath())+":ro")
	}
	words = append(words, shellQuote(s.Image), "--model "+shellQuote(s.ModelID))
	return append(words, flagGroups(lits(args))...)
}

// SkyPilot returns a SkyServe service YAML (SkyPilot docs, "Serving
// Models"; get_service_schema): the task's resources with the port opened,
// HF_TOKEN as a secret, a setup that installs vLLM, a run that starts vllm
// serve, and service {readiness_probe {path /health,
// initial_delay_seconds}, replicas}: one replica per node, each node's
// vllm running its ReplicasPerNode engines. On an AMD GPU the node runs
// vLLM's ROCm image: a VM pulls it and runs it with docker, while on a
// container cloud (RunPod, Vast, Daytona: no Docker daemon) the image is
// the container itself, resources.image_id docker:PodImage, and run
// starts vllm serve in it.
func (s *Serve) SkyPilot() ([]byte, error) {
	if err := notSkyPilotCloud(s.Provider); err != nil {
		return nil, err
	}
	if why := cloud.SkyPilotRefuses(s.Provider, s.InstanceType, s.Accelerator, s.GPUsPerInstance); why != "" {
		return nil, model.Errorf(ErrPlan, "%s; pick another instance type or format", why)
	}
	if s.OneServerPerReplica() {
		// SkyServe sends a replica's traffic to one port ("Must only
		// specify one port in resources. Each replica will use the port
		// specified as application ingress port": sky/serve/serve_utils.py
		// resolve_replica_ingress_port), so the other servers of an
		// instance would get none of the service's requests, and the
		// single vllm serve that would take them all (--data-parallel-size)
		// couples an MoE model's replicas (OneServerPerReplica).
		return nil, model.Errorf(ErrPlan, "%s is a mixture-of-experts model with %d replicas on each %s: they run as one vllm serve each on its own port (--data-parallel-size would tie their expert layers together), and SkyServe sends a replica's traffic to one port; use --format torchrun or docker and put their ports behind a load balancer, or --format k8s (one pod per replica)",
			show.Printable(s.Model), s.ReplicasPerNode, show.Printable(s.InstanceType))
	}
	run := []string{"set -e", hfHomeExport, continued(s.mounted().words(), "  ")}
	var fileMounts *yaml.Node // the adapter, copied to the path --lora-modules names (mounted)
	if a := s.Adapter; a != nil && s.Serving.LoRA != nil {
		fileMounts = mapping(kv{s.mounted().adapterPath(), str(path.Join(AdapterDir, a.Name))})
	}
	var setup *yaml.Node
	var imageID *yaml.Node
	switch {
	case s.PodImage != "": // the container is the ROCm image (PodImage): vllm serve in it, as run above
		imageID = str("docker:" + s.PodImage)
	case s.ROCm: // PyPI's vllm is CUDA's: run vLLM's ROCm image on the node
		setup = str("set -e\ndocker pull " + shellQuote(s.Image) + "\n")
		run = []string{"set -e", "mkdir -p \"$HOME/.cache/huggingface\"", continued(s.dockerWords(), "  ")}
	default:
		setup = str("set -e\n" + s.vllmInstall())
	}
	var accel *yaml.Node // none where SkyPilot's catalog counts the GPUs otherwise (SkyPilotGPUCount); vllm's -tp is the plan's
	if cloud.SkyPilotGPUCount(s.Provider, s.InstanceType, s.GPUsPerInstance) == s.GPUsPerInstance {
		accel = str(fmt.Sprintf("%s:%d", s.Accelerator, s.GPUsPerInstance))
	}
	header := s.headerFor(FormatSkyPilot)
	if s.PodImage != "" {
		header = append(header, fmt.Sprintf("note: a %s machine is a container with no Docker daemon, so the service runs in the image %s (resources.image_id), which has vLLM's ROCm build, and run starts vllm serve in it; an image given with --image must start a shell, not its own server (SkyPilot cannot override an image's entrypoint on RunPod): AMD's rocm/vllm does, vLLM's %s starts vllm serve",
			s.Provider, s.PodImage, DefaultVLLMROCmImage))
	}
	header = append(header, "launch: sky serve up -n "+s.Name+" --secret HF_TOKEN <this file>")
	if h := skyRegionHeader(s.Provider, s.InstanceType, s.Region, s.AnyOfRegions, s.Regions, s.PriceRegions); h != "" {
		header = append(header, h)
	}
	// One entry, in no region for a price region (SkyPilot tries the
	// regions of its catalog: Plan.skyRegion), or one per region the
	// search allows of the price's (Serve.Regions) in any_of, as a
	// training file names them (Plan.skyResources).
	offer := func(region string) []kv {
		var r *yaml.Node
		if region != "" {
			r = str(region)
		}
		return []kv{{"cloud", str(s.Provider)}, {"region", r}, {"instance_type", str(s.InstanceType)}, {"accelerators", accel}}
	}
	var resources []kv
	if len(s.Regions) == 0 {
		resources = offer(skyRegionOf(s.Region, s.AnyOfRegions))
	}
	resources = append(resources, kv{"use_spot", boolean(s.Pricing == model.Spot)}, kv{"disk_size", integer(s.DiskGB)}, kv{"ports", integer(VLLMPort)},
		kv{"image_id", imageID})
	if len(s.Regions) > 0 {
		items := make([]*yaml.Node, len(s.Regions))
		for i, r := range s.Regions {
			items[i] = mapping(offer(r)...)
		}
		resources = append(resources, kv{"any_of", seq(items...)})
	}
	doc := mapping(
		kv{"name", str(s.Name)},
		kv{"resources", mapping(resources...)},
		kv{"secrets", mapping(kv{"HF_TOKEN", null()})},
		kv{"file_mounts", fileMounts},
		kv{"service", mapping(
			kv{"readiness_probe", mapping(kv{"path", str(VLLMHealthPath)}, kv{"initial_delay_seconds", integer(skyServeInitialDelay)})},
			kv{"replicas", integer(s.Nodes)},
		)},
		kv{"setup", setup},
		kv{"run", str(strings.Join(run, "\n") + "\n")},
	)
	return encodeYAML(header, doc)
}

// vllmInstall is the setup's install of vLLM from PyPI: the newest
// release, or on a GPU whose last CUDA line is 12 (LastCUDA) the newest
// before v0.20.0 (VoltaVLLMRequirement, see HeaderLines).
func (s *Serve) vllmInstall() string {
	if s.LastCUDA != "" {
		return "pip install '" + VoltaVLLMRequirement + "'  # the last releases built for compute capability 7.0 (see the note at the top of the file)\n"
	}
	return "pip install vllm\n"
}

// Kubernetes returns an apps/v1 Deployment of Replicas pods, each one vLLM
// engine on TP × PP GPUs (no --data-parallel-size: the header says so
// rather than the other formats' engines-per-node note) (GPU limits; CPU and memory requests of ¾ of that
// share of the node; memory-backed /dev/shm, which tensor-parallel workers
// use; a readiness probe on /health), and a ClusterIP Service on port 8000
// in front of them. HF_TOKEN comes from the Secret hf-token, HF_HOME is an
// emptyDir cache; the GPU toleration and the node selector (instance type
// and, on spot, the provider's spot label) are the training Job's.
func (s *Serve) Kubernetes() ([]byte, error) {
	if s.CacheClaim != "" && !ValidSubdomain(s.CacheClaim) { // NewServe checks it; a Serve built by hand is checked here
		return nil, model.Errorf(ErrPlan, "PersistentVolumeClaim name %q: want lower-case letters, digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters", s.CacheClaim)
	}
	// Provider and Pricing: on spot the pods select the provider's spot
	// nodes (nodeSelector, tolerations, spotHeader).
	p := &Plan{Name: s.Name, Provider: s.Provider, Pricing: s.Pricing, InstanceType: s.InstanceType, ProcsPerNode: s.TP * s.PP, GPUsPerInstance: s.GPUsPerInstance,
		HostVCPUs: s.HostVCPUs, HostMemoryGiB: s.HostMemoryGiB, cacheClaim: s.CacheClaim, cacheGiB: s.CacheGiB}
	if s.Plan != nil {
		p.GPU = s.Plan.Offer.GPU // amd.com/gpu and no NVIDIA toleration on AMD GPUs (gpuResource, tolerations)
	}
	labels := mapping(kv{"app.kubernetes.io/name", str(s.Name)}, kv{"app.kubernetes.io/managed-by", str("gpuplan")})
	selector := mapping(kv{"app.kubernetes.io/name", str(s.Name)})
	one := *s.mounted()
	one.ReplicasPerNode = 1 // one engine per pod; Kubernetes packs pods on nodes
	args := append([]string{"--model", s.ModelID}, one.VLLMArgs()...)
	mounts, volumes := p.volumes()
	if one.Adapter != nil && s.Serving.LoRA != nil { // the training's outputs claim, read-only at the path --lora-modules names
		mounts = append(mounts, mapping(kv{"name", str("adapter")}, kv{"mountPath", str(one.adapterPath())}, kv{"readOnly", boolean(true)}))
		volumes = append(volumes, mapping(kv{"name", str("adapter")}, kv{"persistentVolumeClaim", mapping(kv{"claimName", str(DefaultOutputClaim)}, kv{"readOnly", boolean(true)})}))
	}
	// one's header: the pods pass no --data-parallel-size, so the note on
	// engines sharing a node through it is not this file's.
	header := one.HeaderLines()
	if n := one.adapterNote(FormatK8s); !n.IsZero() {
		header = append(header, "note: "+n.String())
	}
	if s.Replicas > 1 {
		perPod := s.TP * s.PP
		header = append(header, fmt.Sprintf("note: %s as %s of one vLLM engine on %s each (Deployment replicas: %d; no --data-parallel-size), behind the Service's load balancing; Kubernetes places them by their GPU limits, up to %d on one %s",
			model.Count(s.Replicas, "replica"), model.Count(s.Replicas, "pod"), model.Count(perPod, "GPU"), s.Replicas, max(s.GPUsPerInstance/perPod, 1), s.InstanceType))
	}
	header = append(header, "gated models: kubectl create secret generic hf-token --from-literal=token=$HF_TOKEN")
	header = append(header, s.cacheHeader())
	if !ValidLabelValue(s.InstanceType) {
		header = append(header, fmt.Sprintf("no %s selector: %q is not a valid label value", p.instanceSelectorWord(), s.InstanceType))
	}
	if h := p.spotHeader(); h != "" {
		header = append(header, h)
	}
	// A ReadWriteOnce claim is mounted by the pods of one node: a rolling
	// update's new pod on another node would wait on it while the old one
	// holds it, so the old pod goes first (Recreate).
	var strategy *yaml.Node
	if s.CacheClaim != "" && s.cacheAccessMode() == "ReadWriteOnce" {
		strategy = mapping(kv{"type", str("Recreate")})
	}
	deploy := mapping(
		kv{"apiVersion", str("apps/v1")},
		kv{"kind", str("Deployment")},
		kv{"metadata", mapping(kv{"name", str(s.Name)}, kv{"labels", labels})},
		kv{"spec", mapping(
			kv{"replicas", integer(s.Replicas)},
			kv{"strategy", strategy},
			kv{"selector", mapping(kv{"matchLabels", selector})},
			kv{"template", mapping(
				kv{"metadata", mapping(kv{"labels", labels})},
				kv{"spec", mapping(
					kv{"nodeSelector", p.nodeSelector()},
					kv{"tolerations", p.tolerations()},
					kv{"containers", seq(mapping(
						kv{"name", str("vllm")},
						kv{"image", str(s.Image)},
						kv{"args", kubeStrs(args...)},
						kv{"env", p.envVars()},
						kv{"ports", seq(mapping(kv{"name", str("http")}, kv{"containerPort", integer(VLLMPort)}))},
						kv{"resources", p.resources()},
						kv{"readinessProbe", mapping(
							kv{"httpGet", mapping(kv{"path", str(VLLMHealthPath)}, kv{"port", integer(VLLMPort)})},
							kv{"initialDelaySeconds", integer(60)},
							kv{"periodSeconds", integer(10)},
						)},
						kv{"volumeMounts", seq(mounts...)},
					))},
					kv{"volumes", seq(volumes...)},
				)},
			)},
		)},
	)
	service := mapping(
		kv{"apiVersion", str("v1")},
		kv{"kind", str("Service")},
		kv{"metadata", mapping(kv{"name", str(s.Name)}, kv{"labels", labels})},
		kv{"spec", mapping(
			kv{"selector", selector},
			kv{"ports", seq(mapping(kv{"name", str("http")}, kv{"port", integer(VLLMPort)}, kv{"targetPort", integer(VLLMPort)}))},
		)},
	)
	if s.CacheClaim != "" {
		claim := mapping(
			kv{"apiVersion", str("v1")},
			kv{"kind", str("PersistentVolumeClaim")},
			kv{"metadata", mapping(kv{"name", str(s.CacheClaim)}, kv{"labels", labels})},
			kv{"spec", mapping(
				kv{"accessModes", strs(s.cacheAccessMode())},
				kv{"resources", mapping(kv{"requests", mapping(kv{"storage", str(fmt.Sprintf("%dGi", s.CacheGiB))})})},
			)},
		)
		return encodeYAML(header, claim, deploy, service)
	}
	return encodeYAML(header, deploy, service)
}

// cacheAccessMode is the cache claim's access mode: ReadWriteOnce for one
// replica, ReadWriteMany when several pods, on several nodes, share it
// (Kubernetes "Persistent Volumes", access modes).
func (s *Serve) cacheAccessMode() string {
	if s.Replicas > 1 {
		return "ReadWriteMany"
	}
	return "ReadWriteOnce"
}

// cacheHeader is the Kubernetes file's line on where the weights are
// kept: the claim and how it is made, or the emptyDir's size, the
// ephemeral storage asked for it and why, and how to keep them instead.
func (s *Serve) cacheHeader() string {
	weights := fmt.Sprintf("%.0f GiB", s.weightBytes/model.GiB)
	if s.CacheClaim != "" {
		return fmt.Sprintf("weights: HF_HOME is on the PersistentVolumeClaim %s, so the weights are downloaded once and kept across pod restarts; the claim below is created by kubectl apply (%s, %dGi: about %s of weights + %d%%, the cluster's default StorageClass): drop that document to use an existing claim%s",
			s.CacheClaim, s.cacheAccessMode(), s.CacheGiB, weights, diskHeadroomPercent, sharedClassNote(s.cacheAccessMode()))
	}
	return fmt.Sprintf("weights: HF_HOME is an emptyDir of %dGi (about %s of weights + %d%%) and the pod requests %dGi of ephemeral-storage (+%dGi for the container's writable layer and logs), so it is scheduled only on a node with that much local disk and evicted past it (Kubernetes docs: emptyDir sizeLimit; local ephemeral storage); every new pod downloads the weights again: --k8s-pvc NAME keeps them on a PersistentVolumeClaim",
		s.CacheGiB, weights, diskHeadroomPercent, s.CacheGiB+writableLayerGiB, writableLayerGiB)
}

// ServeLaunch returns the deployment as the config file's [serve] section
// (config.ServeLaunch), with a comment header that says what the keys are:
// vLLM's engine flags in snake case, and the vllm serve arguments they make.
func (s *Serve) ServeLaunch() *config.ServeLaunch {
	notes := append(s.headerFor(FormatTOML),
		"[serve]: tensor_parallel_size … max_num_batched_tokens are vLLM's engine flags in snake case;",
		s.tomlArgsNote())
	for i, n := range notes {
		notes[i] = yamlLineBreaks.Replace(show.Printable(n)) // as CommentBlock
	}
	v := &config.ServeLaunch{Notes: notes}
	v.Provider, v.InstanceType, v.Region, v.Pricing, v.USDPerHour = s.Provider, s.InstanceType, s.Region, string(s.Pricing), s.USDPerHour
	v.Accelerator, v.GPUsPerNode, v.Nodes, v.Replicas, v.ReplicasPerNode = s.Accelerator, s.GPUsPerInstance, s.Nodes, s.Replicas, s.ReplicasPerNode
	v.TensorParallelSize, v.PipelineParallelSize, v.ModelID = s.TP, s.PP, s.ModelID
	v.WeightFormat, v.KVCacheDType, v.MaxModelLen = string(s.Serving.WeightFormat), string(s.Serving.KVCacheDType), s.Serving.MaxModelLen
	v.RopeScaling = s.Serving.RopeScaling.String()
	if s.FallbackFrom != "" {
		// The format asked for: reopened with the file's search
		// (allow_precision_fallback), this GPU falls back again and the
		// others run what was asked; vLLMArgs keep what this one loads.
		v.WeightFormat = string(s.FallbackFrom)
	}
	v.GPUMemoryUtilization, v.MaxNumSeqs, v.MaxNumBatchedTokens = s.Serving.GPUMemoryUtilization, s.Serving.MaxNumSeqs, s.Serving.MaxNumBatchedTokens
	v.Image, v.Port, v.VLLMArgs = s.Image, VLLMPort, s.ServerArgs()
	v.PromptTokens, v.OutputTokens, v.Concurrency = s.Serving.PromptTokens, s.Serving.OutputTokens, s.Serving.Concurrency
	if s.Serving.PerToken {
		// The concurrency was the default, not a load asked for: left out,
		// the file reopens as the same price-per-token question.
		v.Concurrency = 0
	}
	v.RequestsPerSec, v.TTFTMs = s.Serving.RequestsPerSec, s.Serving.TTFTTargetMs
	if !s.Serving.DefaultTPOT { // left out, the default target applies again
		t := s.Serving.TPOTTargetMs
		v.TPOTMs = &t
	}
	return v
}

// TOML returns the [serve] section alone (with its comment lines), as
// config.EncodeServeLaunch writes it; the serving export writes it inside
// the whole configuration (config.Config.ServeLaunch).
func (s *Serve) TOML() ([]byte, error) {
	return config.EncodeServeLaunch(s.ServeLaunch())
}

// tunedSibling returns the alias of aliases that is id's
// instruction-tuned release by the publishers' naming (id + "-Instruct"
// or "-it" or "-Chat"; "-pt" → "-it"; "-Base" → "-Instruct", Mistral's
// Nemo and Small; "-Instruct" before a trailing version, Mistral's
// "Mistral-7B-v0.1" → "Mistral-7B-Instruct-v0.1"), spelled as the
// catalog does; "" when none is listed.
func tunedSibling(id string, aliases []string) string {
	if !strings.Contains(id, "/") {
		return ""
	}
	want := []string{id + "-Instruct", id + "-it", id + "-Chat"}
	if base, ok := strings.CutSuffix(id, "-pt"); ok {
		want = append(want, base+"-it")
	}
	if strings.Contains(id, "-Base") {
		want = append(want, strings.Replace(id, "-Base", "-Instruct", 1))
	}
	if i := strings.LastIndex(id, "-v"); i > 0 && i+2 < len(id) && id[i+2] >= '0' && id[i+2] <= '9' {
		want = append(want, id[:i]+"-Instruct"+id[i:])
	}
	for _, al := range aliases {
		for _, w := range want {
			if strings.EqualFold(al, w) {
				return al
			}
		}
	}
	return ""
}
