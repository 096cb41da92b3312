// Package synthcsv writes synthetic SkyPilot vms.csv files for benchmarks:
// the real AWS column layout (SkyPilot catalogs/v8/aws/vms.csv header) and
// GpuInfo cells as SkyPilot's fetcher writes them, with made-up instance
// types and prices. Nothing here is catalog data; it only sizes the work.
package synthcsv

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// Header is the AWS vms.csv header of SkyPilot's v8 catalog.
const Header = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone"

// gpu is one accelerator as SkyPilot names it, with the memory GpuInfo
// states and a made-up hourly price per GPU.
type gpu struct {
	name   string
	memMiB int
	usd    float64
}

var gpus = []gpu{
	{"A100", 40960, 4.1}, {"A100-80GB", 81920, 5.1}, {"H100", 81920, 12.3}, {"L4", 23034, 0.8},
	{"T4", 16384, 0.53}, {"A10G", 24576, 1.01}, {"V100", 16384, 3.06},
}

var regions = []string{"us-east-1", "us-east-2", "us-west-2", "eu-west-1", "ap-northeast-1"}

// zoneIDs are the regions' AWS zone-ID prefixes ("use1-az1"): a zone ID
// with one dash is a regular zone, not a Local Zone.
var zoneIDs = []string{"use1", "use2", "usw2", "euw1", "apne1"}

// Write writes a header and rows data rows to w: each row a distinct
// instance type ("syn123.4x", one region each), 7 GPUs × {1, 2, 4, 8},
// prices drawn from seed. The same seed gives the same bytes.
func Write(w io.Writer, rows int, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, seed))
	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintln(bw, Header)
	counts := []int{1, 2, 4, 8}
	for i := range rows {
		g := gpus[r.IntN(len(gpus))]
		n := counts[r.IntN(len(counts))]
		od := g.usd * float64(n) * (0.8 + 0.4*r.Float64())
		spot := od * (0.3 + 0.4*r.Float64())
		ri := r.IntN(len(regions))
		fmt.Fprintf(bw, "syn%d.%dx,%s,%d,%d.0,%d.0,\"{'Gpus': [{'Name': '%s', 'Manufacturer': 'NVIDIA', 'Count': %d.0, 'MemoryInfo': {'SizeInMiB': %d}}], 'TotalGpuMemoryInMiB': %d}\",%.5f,%.5f,%s,%s-az%d\n",
			i, n, g.name, n, 8*n, 64*n, g.name, n, g.memMiB, g.memMiB*n, od, spot, regions[ri], zoneIDs[ri], 1+r.IntN(3))
	}
	return bw.Flush()
}

// WriteFile writes Write's file to path, creating its folder: a SkyPilot
// catalog keeps <provider>/vms.csv, so path is usually
// <dir>/aws/vms.csv.
func WriteFile(path string, rows int, seed uint64) error {
	return writeFile(path, func(w io.Writer) error { return Write(w, rows, seed) })
}

// writeFile creates path and its folder and writes it with write.
func writeFile(path string, write func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// RegionsHeader is the header WriteUnknownRegions writes: the columns of
// SkyPilot's vms.csv schema (skypilot-org/skypilot-catalog README,
// "vms.csv"), GpuInfo left empty as SkyPilot's RunPod rows may leave it.
const RegionsHeader = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,AvailabilityZone,SpotPrice,GpuInfo"

// runpodGPU is an accelerator as SkyPilot names it for RunPod, vCPUs and
// memory GiB per GPU, and a made-up hourly price per GPU near the
// cheapest the embedded catalog lists for RunPod, so that about half of
// the prices drawn around it fall below it.
type runpodGPU struct {
	name        string
	vcpus, gib  int
	usdPerGPU   float64
	typeNameGPU string // the GPU as it appears in a type name ("A10080GB")
}

var runpodGPUs = []runpodGPU{
	{"A100-80GB", 12, 117, 1.89, "A10080GB"}, {"H100", 16, 125, 2.75, "H100"}, {"H200", 24, 188, 4.13, "H200"},
	{"L4", 8, 32, 0.49, "L4"}, {"L40S", 16, 62, 0.99, "L40S"}, {"RTX4090", 6, 41, 0.79, "RTX4090"},
}

// WriteUnknownRegions writes a header and types × regions rows to w for a
// RunPod overlay (save it as <dir>/runpod/vms.csv): types instance types
// ("4x_A10080GB_T12", a GPU of six and 1, 2, 4 or 8 of it, drawn from
// seed), each in the same regions regions "XX-REGION-0" … that no
// catalog knows. An on-demand price per GPU is the GPU's price ±22%, the
// spot price 60% of it. The same arguments give the same bytes. It is the
// overlay of walk45c (docs/speed.md perf45): 1,000 types × 100 regions
// hold about half their prices as possibly fake, each with a finding.
func WriteUnknownRegions(w io.Writer, types, regions int, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, seed))
	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintln(bw, RegionsHeader)
	counts := []int{1, 2, 4, 8}
	for t := range types {
		g := runpodGPUs[r.IntN(len(runpodGPUs))]
		n := counts[r.IntN(len(counts))]
		name := fmt.Sprintf("%dx_%s_T%d", n, g.typeNameGPU, t)
		for ri := range regions {
			od := g.usdPerGPU * float64(n) * (0.78 + 0.44*r.Float64())
			fmt.Fprintf(bw, "%s,%s,%d,%d,%d,%.3f,XX-REGION-%d,XX-REGION-%d-a,%.3f,\n",
				name, g.name, n, g.vcpus*n, g.gib*n, od, ri, ri, 0.6*od)
		}
	}
	return bw.Flush()
}

// WriteUnknownRegionsFile writes WriteUnknownRegions' file to path,
// creating its folder (path is usually <dir>/runpod/vms.csv).
func WriteUnknownRegionsFile(path string, types, regions int, seed uint64) error {
	return writeFile(path, func(w io.Writer) error { return WriteUnknownRegions(w, types, regions, seed) })
}
