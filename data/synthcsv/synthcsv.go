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
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := Write(f, rows, seed); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
