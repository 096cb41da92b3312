package data

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"encoding/csv"
	"errors"
	"io"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/data/safeio"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/show"
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

// Message is the error as one message: file, line and column, then the
// problem.
func (e *CSVError) Message() model.Message {
	m := model.Msg("%s", e.File)
	if e.Line > 0 {
		m = model.Msg("%s:%d", e.File, e.Line)
	}
	if e.Column != "" {
		m = model.Msg("%s: column %s", m, e.Column)
	}
	return model.Msg("%s: %s", m, e.Err)
}

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
// empty AcceleratorCount on a GPU row. A GPU row with an empty Region (a
// flavor sold nowhere, as Seeweb lists them) is skipped with a warning.
// Warnings are one line each,
// "vms.csv:12: ...", with repeated warnings counted on the first line, and
// at most a few of each kind (warnings.lines).
func ReadSkyPilotCSV(r io.Reader, name, provider string, gpus GPUResolver) ([]model.Instance, []model.Message, error) {
	insts, _, warnings, err := readSkyPilotCSV(r, name, provider, gpus, 0, 0)
	return insts, warnings, err
}

// readSkyPilotCSV is ReadSkyPilotCSV leaving room free slots in front of
// the instances in their backing array: backing[room:] holds insts, so a
// merge can put the earlier catalog there instead of copying 100,000
// instances after it. size is the file's size in bytes (0 when unknown):
// the table of types is sized once, from the types and bytes of the first
// sampleRows rows.
func readSkyPilotCSV(r io.Reader, name, provider string, gpus GPUResolver, room int, size int64) (insts, backing []model.Instance, warnings []model.Message, err error) {
	return readSkyPilotCSVAsOf(r, name, provider, gpus, room, size, "")
}

// readSkyPilotCSVAsOf is readSkyPilotCSV giving every instance asOf (a
// vms.csv carries no date; an overlay takes its catalog's), so no second
// pass over 100,000 instances sets it.
func readSkyPilotCSVAsOf(r io.Reader, name, provider string, gpus GPUResolver, room int, size int64, asOf string) (insts, backing []model.Instance, warnings []model.Message, err error) {
	if gpus == nil {
		return nil, nil, nil, &CSVError{File: name, Err: model.Msg("no GPU resolver")}
	}
	// While rows are read, what stays is the pointer-free runs (typeRun)
	// and what goes is the records' copies (fastCSV): the collector
	// runs often, marking next to nothing, so the records' memory is
	// reused instead of each costing fresh pages (readGCPercent).
	restore := paceGC(size, readGCPercent)
	defer func() { restore() }()
	cr := newFastCSV(bufio.NewReaderSize(newRecordCapReader(r, maxCSVRecord), 64<<10))
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil, nil, &CSVError{File: name, Err: model.Msg("empty file, want a header line naming the columns")}
	}
	if err != nil {
		return nil, nil, nil, csvReadError(name, err, 0, 0)
	}
	cols, err := mapHeader(name, header)
	if err != nil {
		return nil, nil, nil, err
	}
	p := newParser(name, provider, gpus, cols, room, int(min(max(size, 0)/minRowBytes, sampleRows)))
	p.asOf = asOf
	width := len(header) // encoding/csv holds every record to the header's count
	done := make(chan struct{})
	defer close(done)
	full, free := records(cr, width, done)
	for b := range full {
		for i, line := range b.lines {
			if p.rows == MaxCSVRows {
				return nil, nil, nil, &CSVError{File: name, Line: line, Err: model.Msg("more than %d data rows; SkyPilot's largest vms.csv (AWS, about 3.7 MB) has a tenth of that: keep the GPU rows, or split the file", MaxCSVRows)}
			}
			if err := p.row(line, b.fields[i*width:(i+1)*width]); err != nil {
				return nil, nil, nil, err
			}
			if p.tooManyRegions != nil {
				return nil, nil, nil, p.tooManyRegions
			}
			if p.rows == sampleRows && size > 0 {
				p.reserve(float64(size) / float64(b.offsets[i]))
			}
		}
		if errors.Is(b.err, io.EOF) {
			break
		}
		if b.err != nil {
			return nil, nil, nil, csvReadError(name, b.err, b.errFields, width)
		}
		free <- b
	}
	if p.rows == 0 {
		return nil, nil, nil, &CSVError{File: name, Err: model.Msg("no data rows after the header")}
	}
	if p.gcp {
		p.combineGCP()
		if p.tooManyRegions != nil {
			return nil, nil, nil, p.tooManyRegions
		}
	}
	// The instances stay: the collector waits while they are built.
	restore()
	restore = deferGC(size)
	backing = p.instances()
	insts = finishImport(p.provider, backing[room:])
	if len(insts) == 0 {
		p.warn.add(0, "nogpu", model.Msg("no GPU instance types among %s rows", model.Grouped(p.rows)))
	}
	p.dups.find(p)
	p.dups.warn(&p.warn)
	return insts, backing[:room+len(insts)], p.warn.lines(name), nil
}

// csvReadError turns an encoding/csv error into a *CSVError with the line;
// got is the fields of the record it came with, want the header's.
func csvReadError(name string, err error, got, want int) error {
	var long *RecordTooLongError
	if errors.As(err, &long) {
		return &CSVError{File: name, Line: long.Line, Err: long}
	}
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return &CSVError{File: name, Err: err}
	}
	if errors.Is(pe.Err, csv.ErrFieldCount) {
		return &CSVError{File: name, Line: pe.StartLine, Err: model.Msg("got %d fields, want %d (one per header column)", got, want)}
	}
	if pe.StartLine != pe.Line && errors.Is(pe.Err, csv.ErrQuote) {
		// A quote left open runs the record on to where the reader gave
		// up; the line to fix is where it opened.
		return &CSVError{File: name, Line: pe.StartLine, Err: model.Msg("a quoted field opens in this record and runs to line %d: %v", pe.Line, pe.Err)}
	}
	return &CSVError{File: name, Line: pe.Line, Err: model.Msg("character %d: %v", pe.Column, pe.Err)}
}

// knownColumns are the columns the importer reads, in the order of the
// column numbers below.
var knownColumns = [...]string{colInstanceType, colAccelName, colAccelCount, colVCPUs, colMemory, colGPUInfo, colPrice, colSpotPrice, colRegion, colZone}

// Column numbers: positions in knownColumns and columns.
const (
	cInstanceType = iota
	cAccelName
	cAccelCount
	cVCPUs
	cMemory
	cGPUInfo
	cPrice
	cSpotPrice
	cRegion
	cZone
)

// columns holds the field index of each known column, -1 when absent.
type columns [len(knownColumns)]int

// get returns the trimmed field of column k (a column number), "" when the
// file has no such column.
func (c *columns) get(rec []string, k int) string {
	i := c[k]
	if i < 0 || i >= len(rec) {
		return ""
	}
	s := rec[i]
	if s == "" || s[0] > ' ' && s[0] < utf8.RuneSelf && s[len(s)-1] > ' ' && s[len(s)-1] < utf8.RuneSelf {
		return s // ends in ASCII that is not space: nothing to trim (nearly every cell)
	}
	return strings.TrimSpace(s)
}

func mapHeader(name string, header []string) (*columns, error) {
	at := make(map[string]int, len(header))
	for i, h := range header {
		h = strings.TrimSpace(h)
		if i == 0 {
			h = strings.TrimPrefix(h, "\ufeff") // a byte-order mark from spreadsheet exports
		}
		if _, dup := at[h]; dup && h != "" {
			return nil, &CSVError{File: name, Line: 1, Column: h, Err: model.Msg("appears twice in the header")}
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
		return nil, &CSVError{File: name, Line: 1, Err: model.Msg("missing column %s; a SkyPilot vms.csv header names %s",
			strings.Join(missing, ", "), strings.Join(requiredColumns, ", "))}
	}
	var cols columns
	for k := range cols {
		cols[k] = -1
	}
	for h, i := range at {
		if k := columnIndex(h); k >= 0 {
			cols[k] = i
		}
	}
	return &cols, nil
}

// columnIndex returns the column number of a header name, -1 for a column
// the importer does not read.
func columnIndex(col string) int {
	for k, c := range knownColumns {
		if c == col {
			return k
		}
	}
	return -1
}

// number parses the numeric cell of column k. present is false for an
// empty cell.
func number(cols *columns, rec []string, line int, name string, k int) (v float64, present bool, err error) {
	s := cols.get(rec, k)
	if s == "" {
		return 0, false, nil
	}
	v, ok := parseDecimal(s)
	if ok && v <= min(maxNumber, maxUSDPerHour) {
		return v, true, nil // finite, ≥ 0 and under every bound below
	}
	col := knownColumns[k]
	v, perr := strconv.ParseFloat(s, 64)
	switch {
	case perr != nil:
		return 0, false, &CSVError{File: name, Line: line, Column: col, Err: model.Msg("want a number, got %q", s)}
	case math.IsNaN(v) || math.IsInf(v, 0):
		return 0, false, &CSVError{File: name, Line: line, Column: col, Err: model.Msg("want a finite number, got %q", s)}
	case !model.DecimalText(s):
		// strconv also reads 0x1p-3 and 0x_1p-3 (Go syntax); a vms.csv
		// (pandas' to_csv) writes decimals only (issue 29).
		return 0, false, &CSVError{File: name, Line: line, Column: col, Err: model.Msg("want a decimal number such as 3.06, got %q", s)}
	case v < 0:
		return 0, false, &CSVError{File: name, Line: line, Column: col, Err: model.Msg("want a number ≥ 0, got %q", s)}
	case v > maxNumber:
		return 0, false, &CSVError{File: name, Line: line, Column: col, Err: model.Msg("want a number ≤ %g, got %q", float64(maxNumber), s)}
	case (k == cPrice || k == cSpotPrice) && v > maxUSDPerHour:
		return 0, false, &CSVError{File: name, Line: line, Column: col, Err: model.Msg("%s USD/hour is above %d; prices are per instance-hour", s, maxUSDPerHour)}
	}
	return v, true, nil
}

// parseDecimal is strconv.ParseFloat for what nearly every numeric cell
// of a vms.csv is, plain digits with at most one '.' ("8.0", "3.06",
// "0.36979"), and ok false for anything else (signs, exponents, 16 or
// more digits), which the caller parses with strconv. With at most 15
// digits the digits are an integer below 2⁵³ and the divisor a power of
// ten up to 10¹⁵, both exact in a float64, so one IEEE division rounds
// correctly and gives ParseFloat's result bit for bit (Clinger, "How to
// read floating point numbers accurately", PLDI 1990, §3; strconv's own
// atof64exact takes the same path).
func parseDecimal(s string) (v float64, ok bool) {
	var mant uint64
	digits, frac := 0, -1 // frac: digits after the '.', -1 before one
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			mant = mant*10 + uint64(c-'0')
			digits++
			if frac >= 0 {
				frac++
			}
		case c == '.' && frac < 0:
			frac = 0
		default:
			return 0, false
		}
		if digits > 15 {
			return 0, false
		}
	}
	if digits == 0 {
		return 0, false
	}
	if frac <= 0 {
		return float64(mant), true
	}
	return float64(mant) / pow10[frac], true
}

// pow10 holds the exact powers of ten parseDecimal divides by.
var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

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

// typeRun is a run of rows of one instance type and shape that came one
// after the other (files group a type's rows; a row of another type or
// shape starts a new run). It holds no pointers (its name is a span of
// parser.names, its other strings indexes into parser.strs), so a
// collection during the read has nothing of 100,000 types to mark and may
// run at the usual pace: it recycles the copies of the records read,
// which would otherwise cost a fresh page every 4 KiB (≈13 µs a
// page fault on the 2-core VM of docs/speed.md). Runs of one type are found by sorting, not by a map, when the file
// is done (instances); the model.Instance values are then built once, in
// order.
type typeRun struct {
	vcpus      int
	memGiB     float64
	line       int // the run's first row
	nameAt     int // the name is parser.names[nameAt : nameAt+nameN]
	start      int // its regions are parser.rps[start : start+n]
	rows       int // rows folded into the run, for a conflict's count
	nameN      int32
	n          int32
	gpu, accel int32 // GPU key and SkyPilot's AcceleratorName, in parser.strs
	count      int32 // GPUs, ≤ maxGPUCount
}

// priceRow is one region of a run while the file is read.
type priceRow struct {
	region                    int32   // in parser.strs
	onDemand, spot, flexStart float64 // 0 = unknown
}

type parser struct {
	name, provider string
	gpus           GPUResolver
	cols           *columns
	gcp            bool
	rows           int
	warn           warnings
	room           int // zero instances in front of the ones built
	source, asOf   string

	// The runs read so far, in file order, and their regions: the last
	// run's regions are at the end of rps.
	runs  []typeRun
	rps   []priceRow
	names strings.Builder // every run's type name, back to back
	// strs holds the few distinct GPU keys, accelerator names and regions
	// once each (strAt finds them): a field of a csv record is a substring
	// of its whole line, which a kept field would otherwise keep alive.
	strs  []string
	strAt map[string]int32
	// regionAt finds the last run's regions (strs index → rps index)
	// once it has more than a few, so a run of many distinct regions is
	// read in linear time (issue 29); nil while the run is short.
	regionAt map[int32]int
	// isRegion marks the strs that are regions; regions counts them, and
	// tooManyRegions is the error once there are more than MaxCSVRegions.
	isRegion       []bool
	regions        int
	tooManyRegions error
	// gpuMemoryMiB is parsed once per distinct GpuInfo cell (gpuInfos
	// numbers them; a catalog repeats a few dozen over all its rows) and
	// GPU count: gpuMem is keyed by the cell's number << 32 | count.
	gpuInfos map[string]uint64
	gpuMem   map[uint64]float64
	gcpRows  gcpRows
	dups     dupRows
}

// newParser returns a parser that leaves room zero instances in front of
// the ones it reads and expects about types instance types (0: unknown).
func newParser(name, provider string, gpus GPUResolver, cols *columns, room, types int) *parser {
	return &parser{
		name: name, provider: provider, gpus: gpus, cols: cols,
		gcp:      provider == "gcp",
		room:     room,
		source:   "SkyPilot catalog " + name,
		runs:     make([]typeRun, 0, types),
		rps:      make([]priceRow, 0, types),
		strAt:    map[string]int32{},
		gpuInfos: map[string]uint64{},
		gpuMem:   map[uint64]float64{},
	}
}

// Sizing the tables of a large file: a row with a GpuInfo dict is ~200
// bytes (the dict alone ~130), so size/minRowBytes bounds the rows of a
// file; after sampleRows rows the tables are grown once to what the
// sample extrapolates to. Sizing by the bound alone over-sized a
// 100,000-row file's tables by a third.
// MaxCSVRows bounds a vms.csv's data rows: at most that many distinct
// types keep a read under ~1 GB (400,000 synthetic types, one a row,
// measured 0.97 GB RSS and 10.6 s; 2.3 million took 4.9 GB and 77 s),
// ten times the rows of SkyPilot's largest file (AWS, about 3.7 MB).
// 250,000 such rows (51 MB) read in 0.56 GB RSS and 6.9 s. A var for
// the test only.
var MaxCSVRows = 250_000

// MaxCSVRegions bounds the distinct regions of one vms.csv (one
// provider): real providers have fewer than 100 (AWS about 35), so a file
// with more is not a price list. A var for the test only.
var MaxCSVRegions = 10_000

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
	if g := grow(len(p.runs)); g > 0 {
		p.runs = growFresh(p.runs, g)
		p.names.Grow(int(float64(p.names.Len()) * scale * 1.05))
	}
	if g := grow(len(p.rps)); g > 0 {
		p.rps = growFresh(p.rps, g)
	}
	p.dups.reserve(min(grow(len(p.dups.rows))+len(p.dups.rows), MaxCSVRows))
}

// growFresh is slices.Grow for an array adviseHugePages should back:
// slices.Grow appends zeros over the new capacity, touching every page
// before the advice could come; make leaves memory fresh from the system
// untouched (it is zero already), so the advice precedes the first write.
func growFresh[T any](s []T, n int) []T {
	t := make([]T, len(s), len(s)+n)
	adviseHugePages(t)
	copy(t, s)
	return t
}

// row reads one data row.
func (p *parser) row(line int, rec []string) error {
	p.rows++
	typ := p.cols.get(rec, cInstanceType)
	accel := p.cols.get(rec, cAccelName)
	region := p.cols.get(rec, cRegion)
	zone := p.cols.get(rec, cZone)
	for _, c := range [...]struct {
		k int
		s string
	}{{cInstanceType, typ}, {cAccelName, accel}, {cRegion, region}, {cZone, zone}} {
		if err := checkName(c.s); err != nil {
			return &CSVError{File: p.name, Line: line, Column: knownColumns[c.k], Err: err}
		}
	}
	if p.gcp && (typ == "") != (accel == "") {
		return p.gcpRow(line, rec, typ, accel)
	}
	if accel == "" {
		return nil // a CPU-only machine
	}
	if typ == "" {
		p.warn.add(line, "notype", model.Msg("rows with an AcceleratorName but no InstanceType skipped"))
		return nil
	}
	count, ok, err := p.gpuCount(line, rec, typ, accel)
	if err != nil || !ok {
		return err
	}
	o := offer{line: line, typ: typ, count: count, region: region, zone: zone}
	if ok, err := p.shape(line, rec, typ, &o); err != nil || !ok {
		return err
	}
	if region == "" {
		// Seeweb's catalog lists flavors out of stock everywhere with an
		// empty Region: sold nowhere, so not an offer.
		p.warn.add(line, "noregion", model.Msg("GPU rows without a Region (sold in no region) skipped"))
		return nil
	}
	if o.onDemand, o.spot, err = p.prices(line, rec); err != nil {
		return err
	}
	o.spotIgnored = p.provider == "aws" && awsLocalZone(o.zone)
	if !p.resolve(&o, accel, p.gpuMemory(rec, count)) {
		return nil
	}
	at := p.add(&o)
	p.dups.see(line, len(p.runs)-1, at, p.str(zone))
	return nil
}

// checkName is safeio.CheckName with a fast path for what nearly every
// cell is: a short name of printable ASCII (0x20–0x7E), in which
// CheckName finds nothing to refuse.
func checkName(s string) error {
	if len(s) <= safeio.MaxNameBytes {
		i := 0
		for i < len(s) && s[i] >= 0x20 && s[i] < 0x7f {
			i++
		}
		if i == len(s) {
			return nil
		}
	}
	return safeio.CheckName(s)
}

// gpuMemory is gpuMemoryMiB of the row's GpuInfo, parsed once per
// distinct cell and count.
func (p *parser) gpuMemory(rec []string, count int) float64 {
	// Two look-ups that each hash one word or one string are cheaper than
	// one keyed by a struct of both.
	cell := p.cols.get(rec, cGPUInfo)
	id, ok := p.gpuInfos[cell]
	if !ok {
		id = uint64(len(p.gpuInfos))
		p.gpuInfos[strings.Clone(cell)] = id
	}
	k := id<<32 | uint64(count) // count ≤ maxGPUCount
	mem, ok := p.gpuMem[k]
	if !ok {
		mem = gpuMemoryMiB(cell, p.provider, count)
		p.gpuMem[k] = mem
	}
	return mem
}

// gpuCount parses AcceleratorCount; ok is false (with a warning) for counts
// the model cannot hold.
func (p *parser) gpuCount(line int, rec []string, typ, accel string) (int, bool, error) {
	v, present, err := number(p.cols, rec, line, p.name, cAccelCount)
	if err != nil {
		return 0, false, err
	}
	if !present {
		return 0, false, &CSVError{File: p.name, Line: line, Column: colAccelCount, Err: model.Msg("empty for accelerator %q, want the number of accelerators", accel)}
	}
	switch {
	case v < 1:
		p.warn.add(line, "fraction:"+accel, model.Msg("fractional %s GPUs (AcceleratorCount < 1, e.g. %s × %g) skipped: gpuplan models whole GPUs", accel, typ, v))
		return 0, false, nil
	case v != math.Trunc(v):
		p.warn.add(line, "fraction:"+accel, model.Msg("%s with %g %s GPUs skipped: gpuplan models whole GPUs", typ, v, accel))
		return 0, false, nil
	case v > maxGPUCount:
		p.warn.add(line, "toomany:"+typ, model.Msg("%s with %g GPUs skipped: more than %d", typ, v, maxGPUCount))
		return 0, false, nil
	}
	return int(v), true, nil
}

// shape parses vCPUs and MemoryGiB (empty = unknown, 0); ok is false,
// with a warning, when they exceed what any instance has (HostFits).
func (p *parser) shape(line int, rec []string, typ string, o *offer) (ok bool, err error) {
	v, _, err := number(p.cols, rec, line, p.name, cVCPUs)
	if err != nil {
		return false, err
	}
	o.vcpus = int(math.Round(v))
	if o.memGiB, _, err = number(p.cols, rec, line, p.name, cMemory); err != nil {
		return false, err
	}
	if err := HostFits(o.vcpus, o.memGiB); err != nil {
		p.warn.add(line, "host", model.Msg("rows with a host larger than any instance sold skipped (%s: %v)", typ, err))
		return false, nil
	}
	return true, nil
}

func (p *parser) region(line int, rec []string) (string, error) {
	r := p.cols.get(rec, cRegion)
	if r == "" {
		return "", errNoRegion(p.name, line)
	}
	return r, nil
}

func errNoRegion(name string, line int) error {
	return &CSVError{File: name, Line: line, Column: colRegion, Err: model.Msg("empty, want the cloud region")}
}

// prices parses Price and SpotPrice; 0 or empty is unknown.
func (p *parser) prices(line int, rec []string) (onDemand, spot float64, err error) {
	var odGiven, spotGiven bool
	if onDemand, odGiven, err = number(p.cols, rec, line, p.name, cPrice); err != nil {
		return 0, 0, err
	}
	if spot, spotGiven, err = number(p.cols, rec, line, p.name, cSpotPrice); err != nil {
		return 0, 0, err
	}
	onDemand, spot = roundPrice(onDemand), roundPrice(spot)
	if (odGiven || spotGiven) && onDemand == 0 && spot == 0 {
		// A 0 in one column is that mode's "none" (AWS's spot-only rows
		// have Price 0.0, vast's SpotPrice 0.00); a row whose every price
		// is 0, or under the catalog's precision (1e-300), has none and
		// is left out: said, as the other rows left out are.
		p.warn.add(line, "zeroprice", model.Msg("rows priced 0 or under $0.000001 (the catalog's precision) skipped"))
	} else if spotGiven && spot == 0 && p.provider != "vast" {
		// Said too, as an on-demand 0 is: a spot price written as 0 is read
		// as none, not as free. Not for Vast: its SpotPrice is the
		// interruptible minimum bid, 0.00 for every host that takes no
		// bids, so the note came with every update and told nothing.
		p.warn.add(line, "zerospot", model.Msg("rows with a spot price of 0 (or under $0.000001) read as having no spot price"))
	}
	return onDemand, spot, nil
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
		p.warn.add(o.line, "nongpu", model.Msg("rows of accelerators that are not GPUs (FPGA, TPU, Gaudi, Inferentia, Trainium) skipped"))
		return false
	}
	mem, memMsg := "", model.Msg("")
	if memMiB > 0 {
		gib := strconv.FormatFloat(memMiB/1024, 'g', 4, 64)
		mem, memMsg = " with "+gib+" GiB", model.Msg(" with %s GiB", gib)
	}
	p.warn.add(o.line, "unknown:"+accel+mem, model.Msg("accelerator %q%s (e.g. %s) is not a GPU of the catalog; its rows skipped", accel, memMsg, o.typ))
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

// add folds one offer into the current run when it has the run's type and
// shape, else starts a run. instances then merges the runs of each type
// in file order as if each row had been checked against its type's first
// row: a later run of another shape is rows that contradict the first.
// It returns the offer's region (in p.strs).
func (p *parser) add(o *offer) int32 {
	var r *typeRun
	if n := len(p.runs); n > 0 {
		r = &p.runs[n-1]
		if p.runName(r) != o.typ || p.strs[r.gpu] != o.gpu || int(r.count) != o.count || r.vcpus != o.vcpus || r.memGiB != o.memGiB {
			r = nil
		}
	}
	if r == nil {
		p.runs = append(p.runs, typeRun{
			vcpus: o.vcpus, memGiB: o.memGiB, line: o.line,
			nameAt: p.names.Len(), nameN: int32(len(o.typ)), start: len(p.rps),
			gpu: p.str(o.gpu), accel: p.str(o.accel), count: int32(o.count),
		})
		p.names.WriteString(o.typ)
		r = &p.runs[len(p.runs)-1]
		p.regionAt = nil
	}
	r.rows++
	// The region is looked up once (a region new to the file is added
	// here, where a run without it would add it next).
	region := p.str(o.region)
	var rp *priceRow
	if j := p.regionIndex(r, region); j >= 0 {
		rp = &p.rps[j]
	} else {
		p.seeRegion(o.line, region)
		p.rps = append(p.rps, priceRow{region: region})
		if p.regionAt != nil {
			p.regionAt[region] = len(p.rps) - 1
		}
		r.n++
		rp = &p.rps[len(p.rps)-1]
	}
	rp.fold(o.onDemand, o.spot, o.flexStart, o.spotIgnored)
	return region
}

// seeRegion counts region (a strs index) first seen at line; past
// MaxCSVRegions distinct regions it sets tooManyRegions.
func (p *parser) seeRegion(line int, region int32) {
	if int(region) >= len(p.isRegion) {
		p.isRegion = append(p.isRegion, make([]bool, int(region)+1-len(p.isRegion))...)
	}
	if p.isRegion[region] {
		return
	}
	p.isRegion[region] = true
	p.regions++
	if p.regions > MaxCSVRegions && p.tooManyRegions == nil {
		p.tooManyRegions = &CSVError{File: p.name, Line: line, Err: model.Msg("more than %d distinct regions; a provider has fewer than 100: keep the rows of its real regions", MaxCSVRegions)}
	}
}

// regionIndex is the index in rps of run r's row for region (a strs
// index), or -1. A run of a few regions is scanned; past shortRun
// regions they are indexed in regionAt, which holds r's regions until
// it is set to nil, so many distinct regions cost linear time, not
// quadratic (issue 29).
func (p *parser) regionIndex(r *typeRun, region int32) int {
	const shortRun = 16
	if p.regionAt == nil && r.n > shortRun {
		p.regionAt = make(map[int32]int, 2*int(r.n))
		for j := r.start; j < r.start+int(r.n); j++ {
			p.regionAt[p.rps[j].region] = j
		}
	}
	if p.regionAt != nil {
		if j, ok := p.regionAt[region]; ok {
			return j
		}
		return -1
	}
	for j := r.start; j < r.start+int(r.n); j++ {
		if p.rps[j].region == region {
			return j
		}
	}
	return -1
}

// fold lowers rp's prices to a row's, region by region; spotIgnored
// leaves spot alone (an AWS Local Zone).
func (rp *priceRow) fold(onDemand, spot, flexStart float64, spotIgnored bool) {
	rp.onDemand = lowest(rp.onDemand, onDemand)
	if !spotIgnored {
		rp.spot = lowest(rp.spot, spot)
	}
	rp.flexStart = lowest(rp.flexStart, flexStart)
}

// runName returns the type name of run r.
func (p *parser) runName(r *typeRun) string {
	return p.names.String()[r.nameAt : r.nameAt+int(r.nameN)]
}

// str returns the index of s in p.strs, adding a copy on first sight.
func (p *parser) str(s string) int32 {
	if i, ok := p.strAt[s]; ok {
		return i
	}
	i := int32(len(p.strs))
	s = strings.Clone(s)
	p.strs = append(p.strs, s)
	p.strAt[s] = i
	return i
}

// sortKey is the first 8 bytes of s, big-endian, zero-padded: a < b
// whenever sortKey(a) < sortKey(b), so most comparisons of two types
// compare two integers; equal keys fall back to the names.
func sortKey(s string) uint64 {
	var b [8]byte
	copy(b[:], s)
	return binary.BigEndian.Uint64(b[:])
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

// instances finishes the runs read. The runs are sorted by type name and
// then file order (sortRuns: integers, mostly), so
// each type's runs come together, first run first: a later run of the
// first's shape adds its regions, one of another shape is rows that
// contradict the first and is skipped with a warning. Then each type's
// regions are sorted by name, a spot price a little above on-demand is
// clamped to it (further above, dropped), regions with no price or above
// the cap are dropped and types with no region left are dropped. It
// returns room zero instances, then one instance per type left, sorted by
// type, each written once.
func (p *parser) instances() []model.Instance {
	names := p.names.String()
	name := func(r *typeRun) string { return names[r.nameAt : r.nameAt+int(r.nameN)] }
	order, mask := p.sortRuns(names)
	kept := make([]int, 0, len(order)) // the first run of each type left, in order
	nPrices := 0
	for k := 0; k < len(order); {
		i := int(order[k] & mask)
		t := &p.runs[i]
		j := k + 1
		p.regionAt = nil // regionIndex's index is t's from here
		// Different keys are different names: only equal keys are read.
		for ; j < len(order) && order[j]&^mask == order[k]&^mask && name(&p.runs[order[j]&mask]) == name(t); j++ {
			p.mergeRun(t, &p.runs[order[j]&mask])
			p.dups.share(len(p.runs), int(order[j]&mask))
		}
		if j > k+1 {
			p.dups.share(len(p.runs), i)
		}
		k = j
		if n := p.finishRegions(t, name(t)); n > 0 {
			nPrices += n
			kept = append(kept, i)
		}
	}
	out := make([]model.Instance, p.room+len(kept))
	prices := make([]model.RegionPrice, nPrices)
	adviseHugePages(out)
	adviseHugePages(prices)
	// Chunks of types on two cores, taken in turn: writing 40 MB of fresh
	// memory for 100,000 types is page faults and bandwidth more than
	// computing. Taken, not split in halves: on a loaded machine the
	// second goroutine may start late, and then this one does the rest.
	chunks := (len(kept) + buildChunk - 1) / buildChunk
	at := make([]int, chunks+1) // where each chunk's regions start in prices
	for c := range chunks {
		at[c+1] = at[c]
		for _, i := range kept[c*buildChunk : min((c+1)*buildChunk, len(kept))] {
			at[c+1] += int(p.runs[i].n)
		}
	}
	var next atomic.Int64
	work := func() {
		for c := int(next.Add(1) - 1); c < chunks; c = int(next.Add(1) - 1) {
			lo, hi := c*buildChunk, min((c+1)*buildChunk, len(kept))
			p.build(out[p.room+lo:p.room+hi], prices[at[c]:at[c+1]], kept[lo:hi], names)
		}
	}
	var wg sync.WaitGroup
	if len(kept) >= parallelBuild {
		wg.Go(work)
	}
	work()
	wg.Wait()
	return out
}

// buildChunk is the types built per turn (≈0.3 ms of work).
const buildChunk = 1024

// parallelBuild is the number of types from which instances builds its
// output on two goroutines (a variable for tests).
var parallelBuild = 4096

// build writes the instances of the types whose first runs are runs into out and their
// regions into prices, in order; names is p.names.String(). It only
// reads the parser.
func (p *parser) build(out []model.Instance, prices []model.RegionPrice, runs []int, names string) {
	for k, i := range runs {
		t := &p.runs[i]
		ps := prices[:t.n:t.n] // an append elsewhere copies
		prices = prices[t.n:]
		for j, rp := range p.rps[t.start : t.start+int(t.n)] {
			ps[j] = model.RegionPrice{Region: p.strs[rp.region], OnDemandUSD: rp.onDemand, SpotUSD: rp.spot, FlexStartUSD: rp.flexStart}
		}
		out[k] = model.Instance{
			Provider:  p.provider,
			Type:      names[t.nameAt : t.nameAt+int(t.nameN)],
			GPU:       p.strs[t.gpu],
			GPUCount:  int(t.count),
			VCPUs:     t.vcpus,
			MemoryGiB: t.memGiB,
			Prices:    ps,
			Source:    p.source,
			AsOf:      p.asOf,
			Origin:    p.name,

			SkyPilotAccelerator: p.strs[t.accel],
		}
		out[k].CPUArch = hostArch(p.provider, out[k].Type, out[k].GPU)
	}
}

// sortRuns returns the runs sorted by type name, then file order, as
// values whose low bits (under mask) are an index into p.runs. Each
// value's high bits are the 8 bytes of the run's name that follow the
// prefix all names share (sortKey; "Standard_" on Azure), truncated to
// make room for the index: a smaller value means a name no greater, so
// one integer sort orders all but the runs whose truncated keys tie, and
// those few are sorted by name.
func (p *parser) sortRuns(names string) (order []uint64, mask uint64) {
	n := len(p.runs)
	if n == 0 {
		return nil, 0
	}
	name := func(i int) string { r := &p.runs[i]; return names[r.nameAt : r.nameAt+int(r.nameN)] }
	first := name(0)
	lcp := len(first)
	for i := 1; i < n && lcp > 0; i++ {
		s := name(i)
		lcp = min(lcp, len(s))
		for k := 0; k < lcp; k++ {
			if s[k] != first[k] {
				lcp = k
				break
			}
		}
	}
	ibits := bits.Len(uint(n - 1))
	mask = 1<<ibits - 1
	order = make([]uint64, n)
	adviseHugePages(order)
	for i := range order {
		order[i] = sortKey(name(i)[lcp:])&^mask | uint64(i)
	}
	if !slices.IsSorted(order) {
		slices.Sort(order)
	}
	for k := 0; k < n; {
		j := k + 1
		for j < n && order[j]&^mask == order[k]&^mask {
			j++
		}
		if j-k > 1 {
			slices.SortFunc(order[k:j], func(a, b uint64) int {
				if c := strings.Compare(name(int(a&mask)), name(int(b&mask))); c != 0 {
					return c
				}
				return cmp.Compare(a&mask, b&mask)
			})
		}
		k = j
	}
	return order, mask
}

// mergeRun merges a later run b of t's type into t, the type's first run:
// b's regions when it has t's shape, else a warning for b's rows.
func (p *parser) mergeRun(t, b *typeRun) {
	if p.strs[b.gpu] != p.strs[t.gpu] || b.count != t.count || b.vcpus != t.vcpus || b.memGiB != t.memGiB {
		typ := p.runName(t)
		p.warn.addN(b.line, b.rows, "conflict:"+typ, model.Msg("%s differs from its first row at line %d (%d× %s, %d vCPUs, %g GiB there; %d× %s, %d vCPUs, %g GiB here); the differing rows skipped",
			typ, t.line, t.count, p.strs[t.gpu], t.vcpus, t.memGiB, b.count, p.strs[b.gpu], b.vcpus, b.memGiB))
		return
	}
	for _, brp := range p.rps[b.start : b.start+int(b.n)] {
		var rp *priceRow
		if j := p.regionIndex(t, brp.region); j >= 0 {
			rp = &p.rps[j]
		}
		if rp == nil {
			if end := t.start + int(t.n); end != len(p.rps) {
				// Move t's regions to the end, where they can grow
				// (once per type: its runs are merged one after another).
				p.rps = append(p.rps, p.rps[t.start:end]...)
				t.start = len(p.rps) - int(t.n)
				p.regionAt = nil
			}
			p.rps = append(p.rps, priceRow{region: brp.region})
			if p.regionAt != nil {
				p.regionAt[brp.region] = len(p.rps) - 1
			}
			t.n++
			rp = &p.rps[len(p.rps)-1]
		}
		rp.fold(brp.onDemand, brp.spot, brp.flexStart, false)
	}
}

// finishRegions sorts t's regions by name, clamps or drops spot prices
// above on-demand, drops regions with no price or above the cap and
// returns how many are left (0: the type is skipped, with a warning).
func (p *parser) finishRegions(t *typeRun, typ string) int {
	rs := p.rps[t.start : t.start+int(t.n)]
	if len(rs) > 1 {
		slices.SortFunc(rs, func(a, b priceRow) int { return strings.Compare(p.strs[a.region], p.strs[b.region]) })
	}
	n := 0
	for _, rp := range rs {
		od, spot := rp.onDemand, rp.spot
		if od > 0 && spot > od {
			if spot <= od*spotTolerance {
				spot = od
			} else {
				p.warn.add(t.line, "spot>od:"+typ, model.Msg("%s in %s: spot %s above on-demand %s; spot dropped", typ, p.strs[rp.region], show.USDPerHour(spot), show.USDPerHour(od)))
				spot = 0
			}
		}
		if od <= 0 && spot <= 0 && rp.flexStart <= 0 {
			continue
		}
		if od > maxUSDPerHour || spot > maxUSDPerHour || rp.flexStart > maxUSDPerHour { // a GCP VM + GPU sum; single rows are errors
			p.warn.add(t.line, "cap:"+typ, model.Msg("%s in %s: above %d USD/hour; region dropped", typ, p.strs[rp.region], maxUSDPerHour))
			continue
		}
		rp.spot = spot
		rs[n] = rp
		n++
	}
	t.n = int32(n)
	if n == 0 {
		p.warn.add(t.line, "noprice:"+typ, model.Msg("%s has no price in any region; skipped", typ))
	}
	return n
}

// warnings collects a file's warnings: one per key, counting the rows it
// stands for. A key's kind is its part before ":" ("spot>od" for every
// type's "spot>od:TYPE"): lines shows a few of each kind, so a hostile or
// broken 100,000-row file warns in a few lines, not 100,000.
type warnings struct {
	byKey map[string]*warning
}

type warning struct {
	line, n int
	key     string
	msg     model.Message
}

func (w *warnings) add(line int, key string, msg model.Message) { w.addN(line, 1, key, msg) }

// addN is add for n rows at once, the first of them at line.
func (w *warnings) addN(line, n int, key string, msg model.Message) {
	if w.byKey == nil {
		w.byKey = map[string]*warning{}
	}
	if x, ok := w.byKey[key]; ok {
		x.n += n
		return
	}
	w.byKey[key] = &warning{line: line, n: n, key: key, msg: msg}
}

// shownPerKind is how many warnings of one kind lines lists; the rest are
// counted.
const shownPerKind = 3

// lines returns the warnings in order of their first line, as
// "name:line: warning (N rows)", at most shownPerKind of a kind, the
// last of them followed by how many more of that kind there are.
func (w *warnings) lines(name string) []model.Message {
	ws := make([]*warning, 0, len(w.byKey))
	total := map[string]int{}
	for _, x := range w.byKey {
		ws = append(ws, x)
		total[warningKind(x.key)]++
	}
	slices.SortFunc(ws, func(a, b *warning) int {
		if a.line != b.line {
			return a.line - b.line
		}
		return strings.Compare(a.key, b.key)
	})
	var out []model.Message
	shown := map[string]int{}
	for _, x := range ws {
		kind := warningKind(x.key)
		if shown[kind] == shownPerKind {
			continue
		}
		shown[kind]++
		m := model.Msg("%s: %v", name, x.msg)
		if x.line > 0 {
			m = model.Msg("%s:%d: %v", name, x.line, x.msg)
		}
		if x.n > 1 {
			m = model.Msg("%v (%v)", m, countMsg(x.n, "row"))
		}
		out = append(out, m)
		if more := total[kind] - shownPerKind; shown[kind] == shownPerKind && more > 0 {
			out = append(out, moreLikeThese(name, more))
		}
	}
	return out
}

// warningKind is the kind of a warnings key: its part before ":".
func warningKind(key string) string {
	kind, _, _ := strings.Cut(key, ":")
	return kind
}

// moreLikeThese is the line after the last warning of a kind shown: how
// many more of it a file has.
func moreLikeThese(name any, n int) model.Message {
	return model.Msg("%v: and %s more like these", name, model.Grouped(n))
}

// countMsg is model.Count as a message: "1 row", "12,345 rows".
func countMsg(n int, noun string) model.Message {
	return model.Msg("%s "+model.Plural(n, noun), model.Grouped(n))
}
