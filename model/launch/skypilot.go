package launch

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch/cloud"
	"github.com/gpuplan/gpuplan/model/launch/stack"
	"github.com/gpuplan/gpuplan/model/show"
)

// SkyPilot environment variables set on every node of a task (SkyPilot docs,
// "Distributed Multi-Node Jobs"): the node count, the GPUs of each node, this
// node's rank, and the nodes' IPs one per line, the head node first.
const (
	skyNumNodes       = "$SKYPILOT_NUM_NODES"
	skyNumGPUsPerNode = "$SKYPILOT_NUM_GPUS_PER_NODE"
	skyNodeRank       = "$SKYPILOT_NODE_RANK"
	skyNodeIPs        = "$SKYPILOT_NODE_IPS"
)

// SkyPilot returns a SkyPilot task YAML (docs.skypilot.co, "SkyPilot
// YAML"; fields checked against sky/utils/schemas.py get_task_schema and
// get_resources_schema): name, workdir ".", resources, num_nodes, secrets,
// file_mounts, setup and run.
//
// resources: cloud, region, instance_type as the provider spells it,
// accelerators "NAME:COUNT" with SkyPilot's name for the instance,
// network_tier best on several nodes where SkyPilot implements it (see
// NetworkFor), use_spot, disk_size. With Plan.Candidates the offers go in
// resources.ordered (the plan's first, then the candidates, cheapest
// first), so SkyPilot fails over to the next when one has no capacity. On
// spot, job_recovery asks the managed-jobs controller to relaunch a
// preempted job (EAGER_NEXT_REGION when the candidates span regions, else
// FAILOVER), and file_mounts mounts the checkpoint bucket at
// CheckpointDir, where the script's --output_dir points; the Trainer saves
// there every SaveSteps steps and, for TRL's SFT script, run writes
// ResumeScript and starts it, so the relaunched job resumes (resume.go).
//
// secrets declares HF_TOKEN with no value: SkyPilot requires it at launch
// (sky launch --secret HF_TOKEN reads it from the local environment) and
// keeps it out of the YAML. setup installs the PyTorch wheel for the GPU
// (then requirements.txt, DeepSpeed and its config for ZeRO); run exports
// HF_HOME (the Hugging Face cache, on the disk sized for the weights) and
// starts torchrun with SkyPilot's node count, GPUs per node and node rank,
// and the head node's IP (the first line of $SKYPILOT_NODE_IPS) as master
// address.
//
// Values go into the YAML as scalars through the YAML encoder and into the
// setup and run scripts quoted with mvdan.cc/sh's syntax.Quote.
//
// The error wraps ErrNoStack when the GPU has no supported PyTorch wheel and
// Options.Wheel is empty, and ErrPlan when the provider is not a SkyPilot
// cloud (an overlay's own provider), SkyPilot would refuse the instance
// type (SkyPilotRefuses) or a value cannot be a shell word.
func (p *Plan) SkyPilot() ([]byte, error) {
	if err := p.checkWheel(); err != nil {
		return nil, err
	}
	if err := p.checkEntry(); err != nil {
		return nil, err
	}
	if err := p.checkShellWords(); err != nil {
		return nil, err
	}
	if err := notSkyPilotCloud(p.Provider); err != nil {
		return nil, err
	}
	if why := cloud.SkyPilotRefuses(p.Provider, p.InstanceType, p.Accelerator, p.GPUsPerInstance); why != "" {
		return nil, model.Errorf(ErrPlan, "%s; pick another instance type or format", why)
	}
	setup := []string{
		"set -e",
		fmt.Sprintf("pip install torch --index-url %s  # %s", shellQuote(stack.IndexURL(p.Wheel)), show.Printable(p.wheelComment())),
	}
	setup = append(setup, p.setupLines()...)
	if ds := p.DeepSpeedConfig(); ds != nil {
		setup = append(setup, strings.TrimSuffix(heredoc(DeepSpeedFile, string(ds)), "\n"))
	}
	nproc := skyNumGPUsPerNode
	if p.ProcsPerNode != p.GPUsPerInstance || p.skyPilotCountsDiffer() {
		// fewer processes than the node's GPUs, or SkyPilot would count
		// the node's GPUs from its own catalog (SkyPilotGPUCount)
		nproc = fmt.Sprint(p.ProcsPerNode)
	}
	run := []string{
		"set -e",
		hfHomeExport,
		fmt.Sprintf(`MASTER_ADDR=$(echo "%s" | head -n1)`, skyNodeIPs),
	}
	if f := p.resumeFile(); f != "" { // every node, in the synced workdir
		run = append(run, strings.TrimSuffix(f, "\n"))
	}
	run = append(run, continued(p.torchrunWords(rendezvous{nnodes: skyNumNodes, nproc: nproc, nodeRank: skyNodeRank, master: "$MASTER_ADDR"}, p.ScriptArgs), "  "))
	header := p.HeaderLines()
	if p.Spot() {
		header = append(header,
			"spot: launch with `sky jobs launch --secret HF_TOKEN <this file>`; the managed job is relaunched after a preemption (job_recovery)",
			"spot: checkpoints go to the bucket mounted at "+CheckpointDir+"; replace the bucket name "+p.Bucket+" with yours; "+p.resumeClause())
	} else {
		header = append(header, "launch: sky launch -c "+p.Name+" --secret HF_TOKEN <this file>")
	}
	if h := skyRegionHeader(p.Provider, p.InstanceType, p.Region, p.AnyOfRegions, p.Regions, p.PriceRegions); h != "" {
		header = append(header, h)
	}
	// "1 equivalent offers follow" read wrong (walk57).
	offers := fmt.Sprintf("%d equivalent offers follow", len(p.Candidates))
	if len(p.Candidates) == 1 {
		offers = "1 equivalent offer follows"
	}
	switch {
	case len(p.Candidates) > 0 && len(p.Regions) > 1:
		header = append(header, fmt.Sprintf("failover: %s the offer's %d regions in resources.ordered, cheapest first", offers, len(p.Regions)))
	case len(p.Candidates) > 0:
		header = append(header, fmt.Sprintf("failover: %s the first in resources.ordered, cheapest first", offers))
	}
	if n := cloud.SkyPilotGPUCount(p.Provider, p.InstanceType, p.GPUsPerInstance); n != p.GPUsPerInstance {
		header = append(header, fmt.Sprintf("SkyPilot's catalog gives %s %d GPUs per node, the provider %d: resources names the instance type without accelerators "+
			"(SkyPilot refuses %s:%d on it) and torchrun starts %d processes per node, not $SKYPILOT_NUM_GPUS_PER_NODE (%d)",
			p.InstanceType, n, p.GPUsPerInstance, p.Accelerator, p.GPUsPerInstance, p.ProcsPerNode, n))
	}
	doc := mapping(
		kv{"name", str(p.Name)},
		kv{"workdir", str(".")},
		kv{"resources", p.skyResources()},
		kv{"num_nodes", integer(p.Nodes)},
		kv{"secrets", mapping(kv{"HF_TOKEN", null()})},
		kv{"file_mounts", p.skyFileMounts()},
		kv{"setup", str(strings.Join(setup, "\n") + "\n")},
		kv{"run", str(strings.Join(run, "\n") + "\n")},
	)
	return encodeYAML(header, doc)
}

// hfHomeExport points the Hugging Face cache at its default place
// explicitly (huggingface_hub: $HF_HOME, default ~/.cache/huggingface), so
// the file says where the weights land: on the root disk DiskGB sized.
const hfHomeExport = `export HF_HOME="${HF_HOME:-$HOME/.cache/huggingface}"`

// skyResources is the resources mapping: one offer inline, or the offers
// in resources.ordered with the shared fields (use_spot, disk_size,
// job_recovery) beside it. An offer that stands for several regions the
// search allows (Plan.Regions) is one entry per region: in any_of when it
// is the only offer ("SkyPilot will only use these candidate resources",
// the optimizer picking among them, as it does among a type's regions
// when the entry names none), first in ordered when candidates follow
// (docs.skypilot.co, "SkyPilot YAML", resources.any_of and
// resources.ordered; sky/utils/schemas.py get_resources_schema: each a
// list of single resources, region a string).
func (p *Plan) skyResources() *yaml.Node {
	own := p.ownCandidates()
	var pairs []kv
	if len(own) == 1 && len(p.Candidates) == 0 {
		pairs = skyOfferPairs(own[0])
	}
	pairs = append(pairs, kv{"use_spot", boolean(p.Spot())}, kv{"disk_size", integer(p.DiskGB)})
	if p.Spot() {
		pairs = append(pairs, kv{"job_recovery", mapping(kv{"strategy", str(p.recoveryStrategy())})})
	}
	switch {
	case len(p.Candidates) > 0:
		var items []*yaml.Node
		for _, c := range append(own, p.Candidates...) {
			items = append(items, mapping(skyOfferPairs(c)...))
		}
		pairs = append(pairs, kv{"ordered", seq(items...)})
	case len(own) > 1:
		var items []*yaml.Node
		for _, c := range own {
			items = append(items, mapping(skyOfferPairs(c)...))
		}
		pairs = append(pairs, kv{"any_of", seq(items...)})
	}
	return mapping(pairs...)
}

// skyOfferPairs are the fields of one offer in resources, or in one of
// its any_of or ordered entries.
func skyOfferPairs(c Candidate) []kv {
	pairs := []kv{{"cloud", str(c.Provider)}}
	if c.Region != "" { // else SkyPilot tries the regions of its catalog (skyRegion)
		pairs = append(pairs, kv{"region", str(c.Region)})
	}
	pairs = append(pairs, kv{"instance_type", str(c.InstanceType)})
	if c.SkyPilotGPUs == c.GPUsPerInstance { // else SkyPilot takes its catalog's (SkyPilotGPUCount)
		pairs = append(pairs, kv{"accelerators", str(fmt.Sprintf("%s:%d", c.Accelerator, c.GPUsPerInstance))})
	}
	if c.NetworkTier != "" {
		pairs = append(pairs, kv{"network_tier", str(c.NetworkTier)})
	}
	return pairs
}

// ownCandidates are the plan's own offer as SkyPilot candidates: one, or
// one per region when it stands for several the search allows
// (Plan.Regions).
func (p *Plan) ownCandidates() []Candidate {
	c := Candidate{Provider: p.Provider, Region: p.skyRegion(), InstanceType: p.InstanceType, Accelerator: p.Accelerator,
		GPUsPerInstance: p.GPUsPerInstance, SkyPilotGPUs: cloud.SkyPilotGPUCount(p.Provider, p.InstanceType, p.GPUsPerInstance),
		NetworkTier: p.Network.Tier, USDPerHour: p.USDPerHour}
	if len(p.Regions) == 0 {
		return []Candidate{c}
	}
	out := make([]Candidate, len(p.Regions))
	for i, r := range p.Regions {
		out[i] = c
		out[i].Region = r
	}
	return out
}

// skyPilotCountsDiffer reports whether SkyPilot's catalog gives the plan's
// instance type, or a failover candidate's, another GPU count than the
// provider: $SKYPILOT_NUM_GPUS_PER_NODE would then be SkyPilot's count.
func (p *Plan) skyPilotCountsDiffer() bool {
	for _, c := range append(p.ownCandidates(), p.Candidates...) {
		if c.SkyPilotGPUs != c.GPUsPerInstance {
			return true
		}
	}
	return false
}

// recoveryStrategy is SkyPilot's managed-job recovery strategy
// (sky/jobs/recovery_strategy.py): EAGER_NEXT_REGION moves to the next
// region right after a preemption, useful only when the candidates offer
// another region; FAILOVER retries the same region first.
func (p *Plan) recoveryStrategy() string {
	if p.skyRegion() == "" || len(p.Regions) > 1 {
		return "EAGER_NEXT_REGION" // the offer itself spans the regions SkyPilot tries
	}
	for _, c := range p.Candidates {
		if c.Region != p.Region {
			return "EAGER_NEXT_REGION"
		}
	}
	return "FAILOVER"
}

// skyRegion is the region the SkyPilot file names for the plan's own
// offer: none ("") when the catalog's regions for it say where a price
// applies, not where the type is offered (AnyOfRegions). An entry without
// region is valid (sky/utils/schemas.py get_resources_schema: region is
// optional), and SkyPilot fills it in itself: the optimizer makes one
// launchable per region the cloud offers the type in
// (sky/optimizer.py _make_launchables_for_valid_region_zones, through
// Resources.get_valid_regions_for_launchable and the cloud's
// regions_with_offering), picks the cheapest, and the provisioner blocks
// a region that fails and re-optimizes, so the next region is tried. For
// Lambda regions_with_offering (sky/clouds/lambda_cloud.py) returns every
// catalog region of the type, and fetch_lambda_cloud.py writes each type
// for every region of its hard-coded REGIONS list: the whole list, not 6
// regions of it beginning in Tokyo, as an entry per catalog region did.
func (p *Plan) skyRegion() string { return skyRegionOf(p.Region, p.AnyOfRegions) }

// skyRegionOf is the region a SkyPilot file names for an offer in region
// that stands for anyOf price regions (anyOfRegions): none when anyOf > 0
// (see Plan.skyRegion), else region. The training task's and the
// serving service's files (Serve.SkyPilot) both name it so.
func skyRegionOf(region string, anyOf int) string {
	if anyOf > 0 {
		return ""
	}
	return region
}

// skyRegionHeader is the SkyPilot file's header line saying why its
// resources name no region (skyRegionOf), or name the regions of a price
// region the user's search allows (Plan.Regions: several, or region
// alone); "" when the offer's region names its place. priceRegions counts
// the price's regions before the search narrowed them.
func skyRegionHeader(provider, instanceType, region string, anyOf int, regions []string, priceRegions int) string {
	switch {
	case len(regions) > 0:
		return model.Msg("region: %s lists %s in any of %d regions at this price without saying which offer it; your search allows %d of them (%s), so resources names each and SkyPilot tries no other",
			provider, instanceType, priceRegions, len(regions), strings.Join(regions, ", ")).String()
	case anyOf > 0:
		return model.Msg("region: %s lists %s in any of %d regions at this price without saying which offer it, so resources names no region: SkyPilot tries the regions its catalog lists the type in, cheapest first",
			provider, instanceType, anyOf).String()
	case priceRegions > 0:
		return model.Msg("region: %s lists %s in any of %d regions at this price without saying which offer it; your search allows %s alone, so resources names it",
			provider, instanceType, priceRegions, region).String()
	}
	return ""
}

// skyFileMounts mounts the checkpoint bucket on spot (SkyPilot storage
// schema: name, mode MOUNT), nil otherwise.
func (p *Plan) skyFileMounts() *yaml.Node {
	if !p.Spot() {
		return nil
	}
	return mapping(kv{CheckpointDir, mapping(kv{"name", str(p.Bucket)}, kv{"mode", str("MOUNT")})})
}

func (p *Plan) wheelComment() string {
	if p.ROCm() && p.Wheel == p.Stack.Wheel && p.Stack.Supported {
		return fmt.Sprintf("%s, %s: ROCm %s wheel; host: the amdgpu driver", p.Stack.Arch, p.Stack.GFX, p.Stack.ROCmVersion)
	}
	if p.ROCm() {
		return "ROCm wheel chosen with --wheel, for the AMD GPU"
	}
	if p.Wheel == p.Stack.Wheel && p.Stack.Supported {
		return fmt.Sprintf("%s, compute capability %s: driver ≥ %s", p.Stack.Arch, p.Stack.ComputeCapability, p.Stack.MinDriver)
	}
	if strings.HasPrefix(p.Wheel, "rocm") {
		return "ROCm wheel chosen with --wheel: the host needs the matching ROCm driver"
	}
	return "wheel chosen with --wheel"
}

// ValidBucket reports whether s can name the object-store bucket SkyPilot
// mounts for spot checkpoints on every store it may land on: 3–63
// characters of [a-z0-9._-], starting and ending with a letter or digit,
// no "..". That is the intersection of Amazon S3's rules (docs.aws.amazon.com
// AmazonS3/latest/userguide/bucketnamingrules.html: lower-case letters,
// digits, '.' and '-') and Cloud Storage's (cloud.google.com/storage/docs/
// buckets#naming: also '_'), '_' kept because GCS and SkyPilot's own
// sky-managed names use it. A bucket name is written into YAML and shell
// text, so anything else (spaces, newlines, quotes) is refused before it
// reaches a launch file.
func ValidBucket(s string) bool {
	if len(s) < 3 || len(s) > 63 || strings.Contains(s, "..") {
		return false
	}
	alnum := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }
	if !alnum(s[0]) || !alnum(s[len(s)-1]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !alnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}
