package data

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/show"
)

// GCP bills a GPU VM as two parts: the machine type (vCPUs and memory) and
// the GPUs. SkyPilot's gcp/vms.csv has one row per part and zone: VM rows
// with an empty AcceleratorName and GPU rows with an empty InstanceType
// priced for AcceleratorCount GPUs. The user pays the sum for the same zone
// (g2-standard-4 in us-central1: 0.14679 + 0.56004 = 0.70683 USD/h).

// gcpMachineGPUs returns the SkyPilot accelerator name and count that a GCP
// GPU machine type always has, per GCP's "GPU machine types" page
// (cloud.google.com/compute/docs/gpus): a2-highgpu-Ng → A100 40GB × N,
// a2-megagpu-16g → A100 × 16, a2-ultragpu-Ng → A100 80GB × N,
// a3-highgpu-Ng and a3-edgegpu-8g → H100 × N, a3-megagpu-8g → H100 × 8 (the
// same H100 SXM, billed under SkyPilot's name H100-MEGA), a3-ultragpu-8g →
// H200 × 8, a4-highgpu-8g → B200 × 8, a4x-highgpu-4g → GB200 × 4,
// g2-standard-4/8/12/16/32 → 1 L4, g2-standard-24 → 2, -48 → 4, -96 → 8.
// Suffixes such as "-nolssd" (without local SSD) keep the GPUs.
func gcpMachineGPUs(machineType string) (accel string, count int, ok bool) {
	families := []struct{ prefix, accel string }{
		{"a2-highgpu-", "A100"}, {"a2-megagpu-", "A100"}, {"a2-ultragpu-", "A100-80GB"},
		{"a3-highgpu-", "H100"}, {"a3-edgegpu-", "H100"}, {"a3-megagpu-", "H100-MEGA"},
		{"a3-ultragpu-", "H200"}, {"a4-highgpu-", "B200"}, {"a4x-highgpu-", "GB200"},
	}
	for _, f := range families {
		rest, found := strings.CutPrefix(machineType, f.prefix)
		if !found {
			continue
		}
		n, _, _ := strings.Cut(rest, "-")   // "8g-nolssd" → "8g"
		n, isG := strings.CutSuffix(n, "g") // "8g" → "8"
		c, err := strconv.Atoi(n)
		if !isG || err != nil || c < 1 || c > maxGPUCount {
			return "", 0, false
		}
		return f.accel, c, true
	}
	if rest, found := strings.CutPrefix(machineType, "g2-standard-"); found {
		switch rest {
		case "4", "8", "12", "16", "32":
			return "L4", 1, true
		case "24":
			return "L4", 2, true
		case "48":
			return "L4", 4, true
		case "96":
			return "L4", 8, true
		}
	}
	return "", 0, false
}

// n1GPUs are the GPUs GCP attaches to N1 VMs rather than selling in a GPU
// machine type (GCP "GPU machine types" page, "N1 general-purpose machine
// series"); K80 is left out, GCP retired it in 2024.
var n1GPUs = map[string]bool{"T4": true, "V100": true, "P100": true, "P4": true}

// n1Hosts returns the N1 host machine types paired with count attached
// GPUs: n1-standard-(4·count) and n1-standard-(8·count), i.e. 4 or 8 vCPUs
// per GPU, within GCP's limits for every N1 GPU (at least 12 vCPUs per V100,
// 16 per P100, 24 per P4 and 48 per T4 at one GPU).
func n1Hosts(count int) []string {
	return []string{fmt.Sprintf("n1-standard-%d", 4*count), fmt.Sprintf("n1-standard-%d", 8*count)}
}

// n1Type names the combination of an N1 host and attached GPUs:
// "n1-standard-8+1xT4".
func n1Type(host string, count int, accel string) string {
	return fmt.Sprintf("%s+%dx%s", host, count, accel)
}

type gcpVM struct {
	line         int
	typ          string
	vcpus        int
	memGiB       float64
	region, zone string
	onDemand     float64
	spot         float64
	odSet, spSet bool // the cell was non-empty (0 means billed with the GPUs)
	accel        string
	count        int
}

type gcpGPU struct {
	line         int
	accel        string
	count        int
	region, zone string
	onDemand     float64
	spot         float64
	memMiB       float64
	used         bool
	flexStart    float64 // the "on-demand" price when it is a DWS one (markFlexStart)
}

type gcpGPUKey struct {
	accel string
	count int
	zone  string
}

type gcpRows struct {
	vms   []gcpVM
	hosts map[[2]string]gcpVM // (machine type, zone) → N1 host row
	gpus  map[gcpGPUKey]*gcpGPU
	order []gcpGPUKey // GPU rows in file order
}

// gcpRow reads a GCP VM row (typ set, accel empty) or GPU row (the reverse).
func (p *parser) gcpRow(line int, rec []string, typ, accel string) error {
	g := &p.gcpRows
	region, err := p.region(line, rec)
	if err != nil {
		return err
	}
	zone := p.cols.get(rec, cZone)
	if zone == "" {
		zone = region
	}
	if typ != "" { // VM row
		gpuAccel, count, isGPU := gcpMachineGPUs(typ)
		isHost := strings.HasPrefix(typ, "n1-standard-")
		if !isGPU && !isHost {
			return nil // a CPU-only machine type
		}
		vm := gcpVM{line: line, typ: typ, region: region, zone: zone, accel: gpuAccel, count: count}
		o := offer{}
		if ok, err := p.shape(line, rec, typ, &o); err != nil || !ok {
			return err
		}
		vm.vcpus, vm.memGiB = o.vcpus, o.memGiB
		if vm.onDemand, vm.odSet, err = number(p.cols, rec, line, p.name, cPrice); err != nil {
			return err
		}
		if vm.spot, vm.spSet, err = number(p.cols, rec, line, p.name, cSpotPrice); err != nil {
			return err
		}
		if isGPU {
			g.vms = append(g.vms, vm)
			return nil
		}
		if g.hosts == nil {
			g.hosts = map[[2]string]gcpVM{}
		}
		if _, dup := g.hosts[[2]string{typ, zone}]; !dup {
			g.hosts[[2]string{typ, zone}] = vm
		}
		return nil
	}
	// GPU row
	if nonGPU(accel) {
		p.warn.add(line, "nongpu", model.Msg("rows of accelerators that are not GPUs (FPGA, TPU, Gaudi, Inferentia, Trainium) skipped"))
		return nil
	}
	count, ok, err := p.gpuCount(line, rec, "a GCP GPU row", accel)
	if err != nil || !ok {
		return err
	}
	row := &gcpGPU{line: line, accel: accel, count: count, region: region, zone: zone}
	if row.onDemand, _, err = number(p.cols, rec, line, p.name, cPrice); err != nil {
		return err
	}
	if row.spot, _, err = number(p.cols, rec, line, p.name, cSpotPrice); err != nil {
		return err
	}
	row.memMiB = gpuMemoryMiB(p.cols.get(rec, cGPUInfo), p.provider, count)
	if g.gpus == nil {
		g.gpus = map[gcpGPUKey]*gcpGPU{}
	}
	k := gcpGPUKey{accel, count, zone}
	if _, dup := g.gpus[k]; !dup {
		g.gpus[k] = row
		g.order = append(g.order, k)
	}
	return nil
}

// gcpTotal is what a user pays for a VM part and a GPU part, 0 when unknown.
// A VM part written as 0 is billed with the GPUs (a4-highgpu-8g).
func gcpTotal(vm float64, vmSet bool, gpu float64) float64 {
	if gpu <= 0 || !vmSet {
		return 0
	}
	return roundPrice(vm + gpu)
}

// combineGCP pairs VM and GPU rows of the same zone into offers.
func (p *parser) combineGCP() {
	g := &p.gcpRows
	p.markFlexStart()
	matched := map[string]bool{}
	for _, vm := range g.vms {
		gpu, ok := g.gpus[gcpGPUKey{vm.accel, vm.count, vm.zone}]
		if !ok {
			if _, seen := matched[vm.typ]; !seen {
				matched[vm.typ] = false
			}
			continue
		}
		gpu.used = true
		matched[vm.typ] = true
		p.gcpOffer(vm, gpu, vm.typ)
	}
	types := make([]string, 0, len(matched))
	for t, ok := range matched {
		if !ok {
			types = append(types, t)
		}
	}
	sort.Strings(types)
	for _, t := range types {
		p.warn.add(0, "gcp-nogpu:"+t, model.Msg("GCP machine type %s has no GPU row of the same zone; skipped", t))
	}
	for _, k := range g.order {
		gpu := g.gpus[k]
		if n1GPUs[gpu.accel] {
			for _, host := range n1Hosts(gpu.count) {
				vm, ok := g.hosts[[2]string{host, gpu.zone}]
				if !ok {
					continue
				}
				gpu.used = true
				p.gcpOffer(vm, gpu, n1Type(host, gpu.count, gpu.accel))
			}
		}
		if !gpu.used {
			why := model.Msg("no GCP machine type with these GPUs in its zone")
			if n1GPUs[gpu.accel] {
				why = model.Msg("they attach to N1 VMs and the file has no n1-standard row for their zone")
			}
			p.warn.add(gpu.line, "gcp-unused:"+gpu.accel, model.Msg("GPU rows for %s skipped: %v", gpu.accel, why))
		}
	}
}

func (p *parser) gcpOffer(vm gcpVM, gpu *gcpGPU, typ string) {
	o := offer{
		line: vm.line, typ: typ, count: gpu.count, vcpus: vm.vcpus, memGiB: vm.memGiB,
		region: vm.region, zone: vm.zone,
		onDemand: gcpTotal(vm.onDemand, vm.odSet, gpu.onDemand),
		spot:     gcpTotal(vm.spot, vm.spSet, gpu.spot),
		// The VM part at its list price: GCP discounts flex-start vCPUs
		// too, so this is an upper bound of the flex-start price.
		flexStart: gcpTotal(vm.onDemand, vm.odSet, gpu.flexStart),
	}
	if p.resolve(&o, gpu.accel, gpu.memMiB) {
		p.add(&o)
	}
}

// flexStartFraction is the share of the same GPUs' median on-demand price
// below which a GCP "on-demand" GPU price is taken for a Dynamic Workload
// Scheduler (flex-start) price: GCP discounts flex-start GPUs by up to 53%
// (GKE concept page "About GPU obtainability with flex-start"), and the
// catalog audit (#1) found the DWS rows 43–57% below list while list prices
// of one GPU differ between regions by less than 40%.
const flexStartFraction = 0.6

// markFlexStart finds GPU rows whose on-demand price is a DWS flex-start
// price and moves it to flexStart, leaving on-demand unknown. SkyPilot's
// fetch_gcp.py get_gpu_price takes the first OnDemand SKU whose
// description names the GPU and never excludes the DWS/flex-start SKUs, so
// about half of the A2/A3/A4 GPU rows carry them (catalog audit #1). Two
// signals, per (GPU, count): on-demand below the same row's spot price
// (no cloud sells on-demand below spot), then on-demand below
// flexStartFraction × the median of the remaining rows' on-demand.
func (p *parser) markFlexStart() {
	g := &p.gcpRows
	type group struct {
		accel string
		count int
	}
	list := map[group][]float64{}
	for _, k := range g.order {
		r := g.gpus[k]
		if r.onDemand > 0 && r.spot > r.onDemand {
			r.flexStart, r.onDemand = r.onDemand, 0
			p.warn.add(r.line, "dws-spot:"+r.accel, model.Msg("GCP %s GPU rows priced on-demand below spot: a flex-start (DWS) price, kept as flex_start, on-demand unknown", r.accel))
			continue
		}
		if r.onDemand > 0 {
			list[group{r.accel, r.count}] = append(list[group{r.accel, r.count}], r.onDemand)
		}
	}
	for _, k := range g.order {
		r := g.gpus[k]
		prices := list[group{r.accel, r.count}]
		if r.onDemand <= 0 || len(prices) < 3 {
			continue
		}
		if m := median(prices); r.onDemand < flexStartFraction*m {
			r.flexStart, r.onDemand = r.onDemand, 0
			p.warn.add(r.line, "dws-median:"+r.accel, model.Msg("GCP %s GPU rows priced on-demand below %.0f%% of the median %s: a flex-start (DWS) price, kept as flex_start, on-demand unknown", r.accel, flexStartFraction*100, show.USDPerHour(m)))
		}
	}
}

// median returns the median of v (which it sorts).
func median(v []float64) float64 {
	sort.Float64s(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}

// gcpNoOnDemand lists GCP machine types GCP does not sell on demand, per
// the "consumption options" table of cloud.google.com/ai-hypercomputer/docs/
// consumption-models and compute/docs/accelerator-optimized-machines
// #consumption_option_availability_by_machine_type (as filtered in
// dstackai/gpuhunt providers/gcp.py): A4 and A3 Ultra by reservation,
// flex-start or spot; A3 High with fewer than 8 GPUs by flex-start or spot.
var gcpNoOnDemand = []struct {
	prefix      string
	reservation bool
}{
	{"a4-highgpu-", true}, {"a3-ultragpu-", true},
	{"a3-highgpu-1g", false}, {"a3-highgpu-2g", false}, {"a3-highgpu-4g", false},
}

// gcpAvailability drops the on-demand price of types GCP sells only by
// reservation, flex-start or spot, and marks the reservation ones.
func gcpAvailability(in *model.Instance) {
	for _, n := range gcpNoOnDemand {
		if !strings.HasPrefix(in.Type, n.prefix) {
			continue
		}
		kept := in.Prices[:0]
		for _, rp := range in.Prices {
			rp.OnDemandUSD = 0
			rp.Reservation = n.reservation
			if rp.SpotUSD > 0 || rp.FlexStartUSD > 0 || rp.Reservation {
				kept = append(kept, rp)
			}
		}
		in.Prices = kept
		return
	}
}
