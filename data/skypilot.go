package data

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/data/safeio"
	"github.com/gpuplan/gpuplan/model"
)

// Column names of a SkyPilot catalog vms.csv (schema v6–v8). Their order
// differs per cloud, so ReadSkyPilotCSV maps them by name.
const (
	colInstanceType = "InstanceType"
	colAccelName    = "AcceleratorName"
	colAccelCount   = "AcceleratorCount"
	colVCPUs        = "vCPUs"
	colMemory       = "MemoryGiB"
	colGPUInfo      = "GpuInfo"
	colPrice        = "Price"
	colSpotPrice    = "SpotPrice"
	colRegion       = "Region"
	colZone         = "AvailabilityZone"
)

// requiredColumns must be in every header; GpuInfo, SpotPrice and
// AvailabilityZone are optional (Lambda and Azure have no zones) and other
// columns (Arch, Generation, the v9 disk columns) are ignored.
var requiredColumns = []string{colInstanceType, colAccelName, colAccelCount, colVCPUs, colMemory, colPrice, colRegion}

// Bounds of what ReadSkyPilotCSV accepts. Larger numbers are typos or
// corrupt files, not instances.
const (
	maxNumber   = 1e9  // any column: vCPUs, GiB, USD per hour
	maxGPUCount = 1024 // accelerators in one instance
	// spotTolerance is how far a spot price may exceed on-demand before it
	// is treated as bad data: SkyPilot rounds on-demand and spot
	// differently (AWS "8.22609" vs spot "8.226100"), so up to 0.5% above
	// is rounding and is clamped to on-demand without a warning.
	spotTolerance = 1.005
	// priceDigits is the rounding of every price, in decimal places:
	// SkyPilot's own fetchers round to 5 digits and sums and float
	// artefacts ("0.36979999999999996") carry no more information.
	priceDigits = 6
)

// CSVError is a problem in a SkyPilot CSV file. Line is 1-based (0 when the
// problem is the file as a whole) and Column is a header name (empty when
// the problem is not about one column).
type CSVError struct {
	File   string
	Line   int
	Column string
	Err    error
}

func (e *CSVError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line))
	}
	if e.Column != "" {
		b.WriteString(": column " + e.Column)
	}
	b.WriteString(": " + e.Err.Error())
	return b.String()
}

func (e *CSVError) Unwrap() error { return e.Err }

// ReadSkyPilotCSV reads one SkyPilot catalog vms.csv (schema v6–v8: columns
// mapped by header name, order differs per cloud) for provider (e.g. "aws";
// the caller infers it from the path .../aws/vms.csv or asks) and returns one
// model.Instance per instance type with one RegionPrice per region, sorted
// by type and region. gpus resolves AcceleratorName (+ GpuInfo memory and the
// instance type name) to a GPU key of the catalog; CatalogGPUResolver builds
// the usual one. name is the file name used in errors
// ("vms.csv:12: column Price: ...") and in the instances' Source and Origin.
//
// Rows become instances as follows:
//   - rows without AcceleratorName are CPU-only machines and are skipped
//     silently (except GCP host VMs, below);
//   - rows whose accelerator is not a GPU of the catalog (FPGAs, TPUs, a
//     GPU the resolver does not know), fractional GPUs (AcceleratorCount
//     below 1: AWS g6f/gr6f) and rows contradicting an earlier row of the
//     same type are skipped with a warning;
//   - one instance type has one row per region, or one per availability
//     zone: zones collapse into their region, on-demand is the lowest of the
//     region's rows (they agree in every list-price catalog; in a
//     marketplace snapshot such as Vast's it is the cheapest offer) and spot
//     is the lowest spot over the region's zones, the price a user who may
//     pick the zone pays. AWS Local Zones (zone IDs with a city part,
//     "use1-atl2-az1") need an opt-in, so their spot prices are left out;
//   - an empty or zero price is unknown, never free: the price is omitted,
//     a region with neither price is dropped and a type with no region left
//     is skipped with a warning;
//   - a spot price above on-demand by up to 0.5% is rounding and is clamped
//     to on-demand; further above, it is bad data and is dropped with a
//     warning (no cloud charges more for spot than for on-demand);
//   - prices are rounded to 10⁻⁶ USD.
//
// For provider "gcp" the price a user pays is assembled from two kinds of
// rows of the same zone: VM rows (empty AcceleratorName: a2, a3, a4, g2
// machine types, or N1 hosts) and GPU rows (empty InstanceType: count GPUs
// of one model). GPU machine types map to their fixed GPUs (see
// gcpMachineGPUs); N1 hosts n1-standard-{4,8}×N combine with N attachable
// GPUs (T4, V100, P100, P4) into types named "n1-standard-8+1xT4". A VM row
// priced 0 while its GPU row has a price is billed as part of the GPUs
// (SkyPilot writes 0.0 for the a4-highgpu-8g host) and adds nothing.
//
// GpuInfo is parsed only for the memory per GPU: SizeInMiB of the first GPU,
// else TotalGpuMemoryInMiB ÷ AcceleratorCount. Quirks handled: Python-literal
// dicts with single quotes, lower-case keys (DigitalOcean), a bare GPU name
// (Azure, Paperspace: memory unknown), TotalGpuMemoryInMiB that is per GPU
// (Lambda, DigitalOcean) and SizeInMiB that is the memory of all the GPUs
// (Vast).
//
// Errors are *CSVError: a name (InstanceType, AcceleratorName, Region,
// AvailabilityZone) that fails safeio.CheckName (control characters,
// invalid UTF-8, over 256 bytes), a price above 10000 USD per
// instance-hour (the TOML catalog's cap), an empty file, a header without a required column,
// a row with a different number of fields than the header, a malformed
// quote, a number that does not parse or is negative, infinite or NaN, an
// empty AcceleratorCount or Region on a GPU row. Warnings are one line each,
// "vms.csv:12: ...", with repeated warnings counted on the first line.
func ReadSkyPilotCSV(r io.Reader, name, provider string, gpus GPUResolver) ([]model.Instance, []string, error) {
	insts, _, warnings, err := readSkyPilotCSV(r, name, provider, gpus, 0, 0)
	return insts, warnings, err
}

// readSkyPilotCSV is ReadSkyPilotCSV leaving room free slots in front of
// the instances in their backing array: backing[room:] holds insts, so a
// merge can put the earlier catalog there instead of copying 100,000
// instances after it. size is the file's size in bytes (0 when unknown):
// the table of types is sized once, from the types and bytes of the first
// sampleRows rows.
func readSkyPilotCSV(r io.Reader, name, provider string, gpus GPUResolver, room int, size int64) (insts, backing []model.Instance, warnings []string, err error) {
	if gpus == nil {
		return nil, nil, nil, &CSVError{File: name, Err: errors.New("no GPU resolver")}
	}
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil, nil, &CSVError{File: name, Err: errors.New("empty file, want a header line naming the columns")}
	}
	if err != nil {
		return nil, nil, nil, csvReadError(name, err, nil, 0)
	}
	cols, err := mapHeader(name, header)
	if err != nil {
		return nil, nil, nil, err
	}
	p := newParser(name, provider, gpus, cols, room, int(min(max(size, 0)/minRowBytes, sampleRows)))
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, nil, csvReadError(name, err, rec, len(header))
		}
		line, _ := cr.FieldPos(0)
		if err := p.row(line, rec); err != nil {
			return nil, nil, nil, err
		}
		if p.rows == sampleRows && size > 0 {
			p.reserve(float64(size) / float64(cr.InputOffset()))
		}
	}
	if p.rows == 0 {
		return nil, nil, nil, &CSVError{File: name, Err: errors.New("no data rows after the header")}
	}
	if p.gcp {
		p.combineGCP()
	}
	backing = p.instances()
	insts = finishImport(p.provider, backing[room:])
	if len(insts) == 0 {
		p.warn.add(0, "nogpu", fmt.Sprintf("no GPU instance types among %d rows", p.rows))
	}
	return insts, backing[:room+len(insts)], p.warn.lines(name), nil
}

// csvReadError turns an encoding/csv error into a *CSVError with the line.
func csvReadError(name string, err error, rec []string, want int) error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return &CSVError{File: name, Err: err}
	}
	if errors.Is(pe.Err, csv.ErrFieldCount) {
		return &CSVError{File: name, Line: pe.StartLine, Err: fmt.Errorf("got %d fields, want %d (one per header column)", len(rec), want)}
	}
	return &CSVError{File: name, Line: pe.Line, Err: fmt.Errorf("character %d: %w", pe.Column, pe.Err)}
}

// knownColumns are the columns the importer reads; columnIndex numbers them.
var knownColumns = [...]string{colInstanceType, colAccelName, colAccelCount, colVCPUs, colMemory, colGPUInfo, colPrice, colSpotPrice, colRegion, colZone}

// columnIndex returns col's position in knownColumns, -1 for another name.
// A switch, not a map: it runs ~10 times per row.
func columnIndex(col string) int {
	switch col {
	case colInstanceType:
		return 0
	case colAccelName:
		return 1
	case colAccelCount:
		return 2
	case colVCPUs:
		return 3
	case colMemory:
		return 4
	case colGPUInfo:
		return 5
	case colPrice:
		return 6
	case colSpotPrice:
		return 7
	case colRegion:
		return 8
	case colZone:
		return 9
	}
	return -1
}

// columns holds the field index of each known column, -1 when absent.
type columns [len(knownColumns)]int

func (c *columns) get(rec []string, col string) string {
	k := columnIndex(col)
	if k < 0 {
		return ""
	}
	i := c[k]
	if i < 0 || i >= len(rec) {
		return ""
	}
	return strings.TrimSpace(rec[i])
}

func mapHeader(name string, header []string) (*columns, error) {
	at := make(map[string]int, len(header))
	for i, h := range header {
		h = strings.TrimSpace(h)
		if i == 0 {
			h = strings.TrimPrefix(h, "\ufeff") // a byte-order mark from spreadsheet exports
		}
		if _, dup := at[h]; dup && h != "" {
			return nil, &CSVError{File: name, Line: 1, Column: h, Err: errors.New("appears twice in the header")}
		}
		at[h] = i
	}
	var missing []string
	for _, c := range requiredColumns {
		if _, ok := at[c]; !ok {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		return nil, &CSVError{File: name, Line: 1, Err: fmt.Errorf("missing column %s; a SkyPilot vms.csv header names %s",
			strings.Join(missing, ", "), strings.Join(requiredColumns, ", "))}
	}
	var cols columns
	for k, c := range knownColumns {
		cols[k] = -1
		if i, ok := at[c]; ok {
			cols[k] = i
		}
	}
	return &cols, nil
}

// number parses a numeric cell. present is false for an empty cell.
func number(cols *columns, rec []string, line int, name, col string) (v float64, present bool, err error) {
	s := cols.get(rec, col)
	if s == "" {
		return 0, false, nil
	}
	v, perr := strconv.ParseFloat(s, 64)
	switch {
	case perr != nil:
		return 0, false, &CSVError{File: name, Line: line, Column: col, Err: fmt.Errorf("want a number, got %q", s)}
	case math.IsNaN(v) || math.IsInf(v, 0):
		return 0, false, &CSVError{File: name, Line: line, Column: col, Err: fmt.Errorf("want a finite number, got %q", s)}
	case v < 0:
		return 0, false, &CSVError{File: name, Line: line, Column: col, Err: fmt.Errorf("want a number ≥ 0, got %q", s)}
	case v > maxNumber:
		return 0, false, &CSVError{File: name, Line: line, Column: col, Err: fmt.Errorf("want a number ≤ %g, got %q", float64(maxNumber), s)}
	case (col == colPrice || col == colSpotPrice) && v > maxUSDPerHour:
		return 0, false, &CSVError{File: name, Line: line, Column: col, Err: fmt.Errorf("%s USD/hour is above %d; prices are per instance-hour", s, maxUSDPerHour)}
	}
	return v, true, nil
}

// roundPrice rounds to priceDigits decimal places.
func roundPrice(v float64) float64 {
	const scale = 1e6 // 10^priceDigits
	return math.Round(v*scale) / scale
}

// offer is one row's contribution to an instance type: its shape and the
// prices in one zone (or region).
type offer struct {
	line         int
	typ          string
	gpu          string
	count        int
	vcpus        int
	memGiB       float64
	region, zone string
	onDemand     float64 // 0 = unknown
	spot         float64 // 0 = unknown
	spotIgnored  bool    // AWS Local Zone
	accel        string  // SkyPilot's AcceleratorName
	flexStart    float64 // 0 = not sold (GCP DWS, see skypilot_gcp.go)
}

// gpuInfoKey is one distinct GpuInfo cell with its row's GPU count: a
// catalog repeats a few dozen cells over all its rows.
type gpuInfoKey struct {
	cell  string
	count int
}

// priceSpan is where one instance type's region prices sit in
// parser.rps: a type's regions stay together, at the end of the array
// while its rows come in a row.
type priceSpan struct{ start, n int }

type parser struct {
	name, provider string
	gpus           GPUResolver
	cols           *columns
	gcp            bool
	rows           int
	warn           warnings
	// types maps an instance type to its index in insts[room:]. The
	// instances are built in place as rows arrive (file order) and sorted
	// in place at the end: 100,000 types are one array of instances, not
	// an accumulator per type copied into a second one (on a machine
	// where each fresh MB costs ≈3 ms of page faults, see
	// shared/research/performance-profile.md §1).
	types  map[string]int
	insts  []model.Instance // room zero slots, then the types in file order
	room   int
	lines  []int       // per type: the line of its first row, for warnings
	spans  []priceSpan // per type: its regions in prices
	rps    []model.RegionPrice
	source string
	gpuMem map[gpuInfoKey]float64 // gpuMemoryMiB, parsed once per distinct cell
	// names interns the few distinct regions and accelerator names: a
	// field of a csv record is a substring of its whole line, which a kept
	// field would otherwise keep alive.
	names   map[string]string
	gcpRows gcpRows
}

// newParser returns a parser that leaves room zero instances in front of
// the ones it reads and expects about types instance types (0: unknown).
func newParser(name, provider string, gpus GPUResolver, cols *columns, room, types int) *parser {
	return &parser{
		name: name, provider: provider, gpus: gpus, cols: cols,
		gcp:    provider == "gcp",
		types:  make(map[string]int, types),
		insts:  make([]model.Instance, room, room+types),
		room:   room,
		lines:  make([]int, 0, types),
		spans:  make([]priceSpan, 0, types),
		rps:    make([]model.RegionPrice, 0, types),
		source: "SkyPilot catalog " + name,
		gpuMem: map[gpuInfoKey]float64{},
		names:  map[string]string{},
	}
}

// Sizing the tables of a large file: a row with a GpuInfo dict is ~200
// bytes (the dict alone ~130), so size/minRowBytes bounds the rows of a
// file; after sampleRows rows the tables are grown once to what the
// sample extrapolates to. Sizing by the bound alone over-sized a
// 100,000-row file's tables by a third (16 MB of instances zeroed, then
// scanned by the GC, for nothing).
const (
	minRowBytes = 150
	sampleRows  = 512
	maxTypes    = 1 << 20
)

// reserve grows the tables once for scale times what the rows read so far
// hold (scale: the file's bytes over the bytes read), 5% over: a file
// whose later rows add more types than its first just grows them again.
func (p *parser) reserve(scale float64) {
	grow := func(n int) int { return int(min(float64(n)*scale*1.05, maxTypes)) - n }
	types := len(p.insts) - p.room
	if g := grow(types); g > 0 {
		p.insts = slices.Grow(p.insts, g)
		p.lines = slices.Grow(p.lines, g)
		p.spans = slices.Grow(p.spans, g)
		m := make(map[string]int, types+g)
		maps.Copy(m, p.types)
		p.types = m
	}
	if g := grow(len(p.rps)); g > 0 {
		p.rps = slices.Grow(p.rps, g)
	}
}

// row reads one data row.
func (p *parser) row(line int, rec []string) error {
	p.rows++
	typ := p.cols.get(rec, colInstanceType)
	accel := p.cols.get(rec, colAccelName)
	for _, col := range []string{colInstanceType, colAccelName, colRegion, colZone} {
		if err := safeio.CheckName(p.cols.get(rec, col)); err != nil {
			return &CSVError{File: p.name, Line: line, Column: col, Err: err}
		}
	}
	if p.gcp && (typ == "") != (accel == "") {
		return p.gcpRow(line, rec, typ, accel)
	}
	if accel == "" {
		return nil // a CPU-only machine
	}
	if typ == "" {
		p.warn.add(line, "notype", "rows with an AcceleratorName but no InstanceType skipped")
		return nil
	}
	count, ok, err := p.gpuCount(line, rec, typ, accel)
	if err != nil || !ok {
		return err
	}
	o := offer{line: line, typ: typ, count: count}
	if err := p.shape(line, rec, &o); err != nil {
		return err
	}
	if o.region, err = p.region(line, rec); err != nil {
		return err
	}
	o.zone = p.cols.get(rec, colZone)
	if o.onDemand, o.spot, err = p.prices(line, rec); err != nil {
		return err
	}
	o.spotIgnored = p.provider == "aws" && awsLocalZone(o.zone)
	if !p.resolve(&o, accel, p.gpuMemory(rec, count)) {
		return nil
	}
	p.add(o)
	return nil
}

// gpuMemory is gpuMemoryMiB of the row's GpuInfo, parsed once per
// distinct cell and count.
func (p *parser) gpuMemory(rec []string, count int) float64 {
	k := gpuInfoKey{p.cols.get(rec, colGPUInfo), count}
	mem, ok := p.gpuMem[k]
	if !ok {
		mem = gpuMemoryMiB(k.cell, p.provider, count)
		p.gpuMem[k] = mem
	}
	return mem
}

// gpuCount parses AcceleratorCount; ok is false (with a warning) for counts
// the model cannot hold.
func (p *parser) gpuCount(line int, rec []string, typ, accel string) (int, bool, error) {
	v, present, err := number(p.cols, rec, line, p.name, colAccelCount)
	if err != nil {
		return 0, false, err
	}
	if !present {
		return 0, false, &CSVError{File: p.name, Line: line, Column: colAccelCount, Err: fmt.Errorf("empty for accelerator %q, want the number of accelerators", accel)}
	}
	switch {
	case v < 1:
		p.warn.add(line, "fraction:"+accel, fmt.Sprintf("fractional %s GPUs (AcceleratorCount < 1, e.g. %s × %g) skipped: gpuplan models whole GPUs", accel, typ, v))
		return 0, false, nil
	case v != math.Trunc(v):
		p.warn.add(line, "fraction:"+accel, fmt.Sprintf("%s with %g %s GPUs skipped: gpuplan models whole GPUs", typ, v, accel))
		return 0, false, nil
	case v > maxGPUCount:
		p.warn.add(line, "toomany:"+typ, fmt.Sprintf("%s with %g GPUs skipped: more than %d", typ, v, maxGPUCount))
		return 0, false, nil
	}
	return int(v), true, nil
}

// shape parses vCPUs and MemoryGiB (empty = unknown, 0).
func (p *parser) shape(line int, rec []string, o *offer) error {
	v, _, err := number(p.cols, rec, line, p.name, colVCPUs)
	if err != nil {
		return err
	}
	o.vcpus = int(math.Round(v))
	o.memGiB, _, err = number(p.cols, rec, line, p.name, colMemory)
	return err
}

func (p *parser) region(line int, rec []string) (string, error) {
	r := p.cols.get(rec, colRegion)
	if r == "" {
		return "", &CSVError{File: p.name, Line: line, Column: colRegion, Err: errors.New("empty, want the cloud region")}
	}
	return r, nil
}

// prices parses Price and SpotPrice; 0 or empty is unknown.
func (p *parser) prices(line int, rec []string) (onDemand, spot float64, err error) {
	if onDemand, _, err = number(p.cols, rec, line, p.name, colPrice); err != nil {
		return 0, 0, err
	}
	if spot, _, err = number(p.cols, rec, line, p.name, colSpotPrice); err != nil {
		return 0, 0, err
	}
	return roundPrice(onDemand), roundPrice(spot), nil
}

// resolve sets o.gpu; false (with a warning) when the accelerator is not a
// GPU of the catalog.
func (p *parser) resolve(o *offer, accel string, memMiB float64) bool {
	key, ok := p.gpus(accel, memMiB, o.typ)
	o.accel = accel
	if ok {
		o.gpu = key
		return true
	}
	if nonGPU(accel) {
		p.warn.add(o.line, "nongpu", "rows of accelerators that are not GPUs (FPGA, TPU, Gaudi, Inferentia, Trainium) skipped")
		return false
	}
	mem := ""
	if memMiB > 0 {
		mem = fmt.Sprintf(" with %.4g GiB", memMiB/1024)
	}
	p.warn.add(o.line, "unknown:"+accel+mem, fmt.Sprintf("accelerator %q%s (e.g. %s) is not a GPU of the catalog; its rows skipped", accel, mem, o.typ))
	return false
}

// nonGPU reports accelerators that are known not to be GPUs.
func nonGPU(accel string) bool {
	a := strings.ToLower(accel)
	for _, p := range []string{"virtex", "tpu-", "gaudi", "inferentia", "trainium", "qualcomm"} {
		if strings.HasPrefix(a, p) {
			return true
		}
	}
	return false
}

// awsLocalZone reports whether an AWS zone ID names a Local Zone
// ("use1-atl2-az1": region part, city part, zone) rather than a regular
// zone ("use1-az1").
func awsLocalZone(zone string) bool { return strings.Count(zone, "-") >= 2 }

// add merges one offer into its instance type: the first row of a type
// appends its instance, later rows must agree on its shape and lower its
// prices region by region.
func (p *parser) add(o offer) {
	i, ok := p.types[o.typ]
	if !ok {
		typ := strings.Clone(o.typ) // alone, not its row's line
		i = len(p.insts) - p.room
		p.insts = append(p.insts, model.Instance{
			Provider:  p.provider,
			Type:      typ,
			GPU:       o.gpu,
			GPUCount:  o.count,
			VCPUs:     o.vcpus,
			MemoryGiB: o.memGiB,
			Source:    p.source,
			Origin:    p.name,

			SkyPilotAccelerator: p.intern(o.accel),
		})
		p.lines = append(p.lines, o.line)
		p.spans = append(p.spans, priceSpan{start: len(p.rps)})
		p.types[typ] = i
	}
	if in := &p.insts[p.room+i]; ok && (in.GPU != o.gpu || in.GPUCount != o.count || in.VCPUs != o.vcpus || in.MemoryGiB != o.memGiB) {
		p.warn.add(o.line, "conflict:"+o.typ, fmt.Sprintf("%s differs from its first row at line %d (%d× %s, %d vCPUs, %g GiB there; %d× %s, %d vCPUs, %g GiB here); the differing rows skipped",
			o.typ, p.lines[i], in.GPUCount, in.GPU, in.VCPUs, in.MemoryGiB, o.count, o.gpu, o.vcpus, o.memGiB))
		return
	}
	sp := &p.spans[i]
	var rp *model.RegionPrice
	for j := sp.start; j < sp.start+sp.n; j++ {
		if p.rps[j].Region == o.region {
			rp = &p.rps[j]
			break
		}
	}
	if rp == nil {
		if end := sp.start + sp.n; end != len(p.rps) {
			// Another type's rows came between: move this type's regions
			// to the end (a few at most; files group a type's rows).
			p.rps = append(p.rps, p.rps[sp.start:end]...)
			sp.start = len(p.rps) - sp.n
		}
		p.rps = append(p.rps, model.RegionPrice{Region: p.intern(o.region)})
		sp.n++
		rp = &p.rps[len(p.rps)-1]
	}
	rp.OnDemandUSD = lowest(rp.OnDemandUSD, o.onDemand)
	if !o.spotIgnored {
		rp.SpotUSD = lowest(rp.SpotUSD, o.spot)
	}
	rp.FlexStartUSD = lowest(rp.FlexStartUSD, o.flexStart)
}

// intern returns s from p.names, adding a copy on first sight.
func (p *parser) intern(s string) string {
	if v, ok := p.names[s]; ok {
		return v
	}
	v := strings.Clone(s)
	p.names[v] = v
	return v
}

// lowest returns the smaller known (> 0) price of a and b, 0 when neither
// is known.
func lowest(a, b float64) float64 {
	switch {
	case a <= 0:
		return b
	case b <= 0:
		return a
	}
	return min(a, b)
}

// instances finishes the types read: each type's regions sorted by name,
// a spot price a little above on-demand clamped to it (further above,
// dropped), regions with no price or above the cap dropped, types with no
// region left dropped; then the types sorted by name, in place. The
// result is p.insts: room zero instances, then the types.
func (p *parser) instances() []model.Instance {
	types := p.insts[p.room:]
	kept := 0
	for i := range types {
		in := &types[i]
		sp := p.spans[i]
		rs := p.rps[sp.start : sp.start+sp.n : sp.start+sp.n]
		slices.SortFunc(rs, func(a, b model.RegionPrice) int { return strings.Compare(a.Region, b.Region) })
		n := 0
		for _, rp := range rs {
			od, spot := rp.OnDemandUSD, rp.SpotUSD
			if od > 0 && spot > od {
				if spot <= od*spotTolerance {
					spot = od
				} else {
					p.warn.add(p.lines[i], "spot>od:"+in.Type, fmt.Sprintf("%s in %s: spot %g above on-demand %g; spot dropped", in.Type, rp.Region, spot, od))
					spot = 0
				}
			}
			if od <= 0 && spot <= 0 && rp.FlexStartUSD <= 0 {
				continue
			}
			if od > maxUSDPerHour || spot > maxUSDPerHour || rp.FlexStartUSD > maxUSDPerHour { // a GCP VM + GPU sum; single rows are errors
				p.warn.add(p.lines[i], "cap:"+in.Type, fmt.Sprintf("%s in %s: above %d USD/hour; region dropped", in.Type, rp.Region, maxUSDPerHour))
				continue
			}
			rp.SpotUSD = spot
			rs[n] = rp
			n++
		}
		if n == 0 {
			p.warn.add(p.lines[i], "noprice:"+in.Type, fmt.Sprintf("%s has no price in any region; skipped", in.Type))
			continue
		}
		in.Prices = rs[:n:n] // an append elsewhere copies
		if kept != i {
			types[kept] = *in
		}
		kept++
	}
	clear(types[kept:])
	types = types[:kept]
	sortInstancesByType(types)
	return p.insts[:p.room+kept]
}

// sortInstancesByType sorts s by Type (distinct) in place: it sorts
// indices and then moves each instance once, following the permutation's
// cycles, instead of swapping 250-byte structs through a comparison sort.
func sortInstancesByType(s []model.Instance) {
	less := func(a, b *model.Instance) int { return strings.Compare(a.Type, b.Type) }
	if slices.IsSortedFunc(s, func(a, b model.Instance) int { return less(&a, &b) }) {
		return
	}
	perm := make([]int32, len(s)) // perm[k]: the index of the instance that goes to k
	for i := range perm {
		perm[i] = int32(i)
	}
	slices.SortFunc(perm, func(a, b int32) int { return less(&s[a], &s[b]) })
	for start := range perm {
		if perm[start] < 0 || int(perm[start]) == start {
			continue
		}
		tmp := s[start]
		k := start
		for {
			next := int(perm[k])
			perm[k] = -1
			if next == start {
				s[k] = tmp
				break
			}
			s[k] = s[next]
			k = next
		}
	}
}

// warnings collects warnings, one per key, counting repeats.
type warnings struct {
	byKey map[string]*warning
}

type warning struct {
	line, n int
	msg     string
}

func (w *warnings) add(line int, key, msg string) {
	if w.byKey == nil {
		w.byKey = map[string]*warning{}
	}
	if x, ok := w.byKey[key]; ok {
		x.n++
		return
	}
	w.byKey[key] = &warning{line: line, n: 1, msg: msg}
}

// lines returns the warnings in order of their first line.
func (w *warnings) lines(name string) []string {
	ws := make([]*warning, 0, len(w.byKey))
	for _, x := range w.byKey {
		ws = append(ws, x)
	}
	slices.SortFunc(ws, func(a, b *warning) int {
		if a.line != b.line {
			return a.line - b.line
		}
		return strings.Compare(a.msg, b.msg)
	})
	out := make([]string, len(ws))
	for i, x := range ws {
		s := name
		if x.line > 0 {
			s += ":" + strconv.Itoa(x.line)
		}
		s += ": " + x.msg
		if x.n > 1 {
			s += fmt.Sprintf(" (%d rows)", x.n)
		}
		out[i] = s
	}
	return out
}
