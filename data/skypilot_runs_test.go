package data

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/data/synthcsv"
	"github.com/gpuplan/gpuplan/model"
)

// TestReadSkyPilotCSVRunsMatchRowByRow checks the reader, which folds
// consecutive rows into runs and merges a type's runs after sorting,
// against the rule as ReadSkyPilotCSV states it, applied row by row in
// file order (rowByRow below): the first row of a type fixes its shape,
// a later row of another shape is skipped with one counted warning, the
// others lower their region's prices. The files are random interleavings
// of a few types, shapes, regions and zones (AWS Local Zones included),
// so later runs of a type, conflicting runs and runs that agree again
// all occur.
func TestReadSkyPilotCSVRunsMatchRowByRow(t *testing.T) {
	resolve := CatalogGPUResolver(testCatalog())
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 15))
		var in strings.Builder
		in.WriteString(awsHeader)
		var rows []refRow
		for i := range 1 + r.IntN(40) {
			row := refRow{
				line:  i + 2,
				typ:   []string{"g4dn.xlarge", "g4dn.xlarge2", "g5.xlarge", "p3.2xlarge"}[r.IntN(4)],
				accel: []string{"T4", "A10G"}[r.IntN(2)],
				vcpus: []int{4, 8}[r.IntN(2)],
				od:    []float64{0, 0.5, 0.75, 1}[r.IntN(4)],
				spot:  []float64{0, 0.2, 0.3, 0.5, 2}[r.IntN(5)],
			}
			row.region = []string{"us-east-1", "eu-west-1", "ap-south-1"}[r.IntN(3)]
			row.zone = []string{"use1-az1", "use1-az2", "use1-atl2-az1"}[r.IntN(3)]
			fmt.Fprintf(&in, "%s,%s,1,%d,16,,%s,%s,%s,%s\n", row.typ, row.accel, row.vcpus, cell(row.od), cell(row.spot), row.region, row.zone)
			row.gpu, _ = resolve(row.accel, 0, row.typ)
			rows = append(rows, row)
		}
		insts, warns, err := ReadSkyPilotCSV(strings.NewReader(in.String()), "vms.csv", "aws", resolve)
		if err != nil {
			t.Fatal(err)
		}
		want, wantConflicts := rowByRow(rows)
		if got := summary(insts); !slices.Equal(got, want) {
			t.Errorf("seed %d:\n%s\ngot\n  %s\nwant\n  %s", seed, in.String(), strings.Join(got, "\n  "), strings.Join(want, "\n  "))
		}
		var gotConflicts []string
		ws := model.Strings(warns)
		for i, w := range ws {
			// A kind's "more" line follows its last line shown.
			if strings.Contains(w, "differs from its first row") || strings.Contains(w, "more like these") && i > 0 && strings.Contains(ws[i-1], "differs from its first row") {
				gotConflicts = append(gotConflicts, w)
			}
		}
		if !slices.Equal(gotConflicts, wantConflicts) {
			t.Errorf("seed %d:\n%s\nconflict warnings\n  %s\nwant\n  %s", seed, in.String(), strings.Join(gotConflicts, "\n  "), strings.Join(wantConflicts, "\n  "))
		}
	}
}

type refRow struct {
	line            int
	typ, accel, gpu string
	vcpus           int
	od, spot        float64
	region, zone    string
}

func cell(v float64) string {
	if v == 0 {
		return ""
	}
	return fmt.Sprint(v)
}

// rowByRow applies ReadSkyPilotCSV's rules to rows one at a time with a
// map of types, and returns the instances as summary lines and the
// conflict warnings in order of their first line.
func rowByRow(rows []refRow) (instances, conflicts []string) {
	type conflict struct {
		line, n int
		msg     string
	}
	firsts := map[string]refRow{}
	prices := map[string]map[string]*model.RegionPrice{}
	seen := map[string]*conflict{}
	for _, row := range rows {
		first, ok := firsts[row.typ]
		if !ok {
			firsts[row.typ], first = row, row
			prices[row.typ] = map[string]*model.RegionPrice{}
		}
		if row.gpu != first.gpu || row.vcpus != first.vcpus {
			if c := seen[row.typ]; c != nil {
				c.n++
			} else {
				seen[row.typ] = &conflict{row.line, 1, fmt.Sprintf("vms.csv:%d: %s differs from its first row at line %d (1× %s, %d vCPUs, 16 GiB there; 1× %s, %d vCPUs, 16 GiB here); the differing rows skipped",
					row.line, row.typ, first.line, first.gpu, first.vcpus, row.gpu, row.vcpus)}
			}
			continue
		}
		rp := prices[row.typ][row.region]
		if rp == nil {
			rp = &model.RegionPrice{Region: row.region}
			prices[row.typ][row.region] = rp
		}
		rp.OnDemandUSD = lowest(rp.OnDemandUSD, row.od)
		if strings.Count(row.zone, "-") < 2 { // not a Local Zone
			rp.SpotUSD = lowest(rp.SpotUSD, row.spot)
		}
	}
	var insts []model.Instance
	for typ, first := range firsts {
		in := model.Instance{Type: typ, GPU: first.gpu, GPUCount: 1, VCPUs: first.vcpus, MemoryGiB: 16}
		for _, rp := range prices[typ] {
			if rp.OnDemandUSD > 0 && rp.SpotUSD > rp.OnDemandUSD {
				rp.SpotUSD = 0 // 0.2–2 over 0.5–1: never within rounding here
			}
			if rp.OnDemandUSD > 0 || rp.SpotUSD > 0 {
				in.Prices = append(in.Prices, *rp)
			}
		}
		slices.SortFunc(in.Prices, func(a, b model.RegionPrice) int { return strings.Compare(a.Region, b.Region) })
		if len(in.Prices) > 0 {
			insts = append(insts, in)
		}
	}
	slices.SortFunc(insts, func(a, b model.Instance) int { return strings.Compare(a.Type, b.Type) })
	var cs []*conflict
	for _, c := range seen {
		cs = append(cs, c)
	}
	slices.SortFunc(cs, func(a, b *conflict) int { return cmp.Compare(a.line, b.line) })
	for i, c := range cs {
		if i == shownPerKind { // a few of a kind, then how many more
			conflicts = append(conflicts, fmt.Sprintf("vms.csv: and %d more like these", len(cs)-i))
			break
		}
		msg := c.msg
		if c.n > 1 {
			msg += fmt.Sprintf(" (%d rows)", c.n)
		}
		conflicts = append(conflicts, msg)
	}
	return summary(insts), conflicts
}

// FuzzParseDecimal: whenever parseDecimal takes a cell, strconv.ParseFloat
// agrees bit for bit; the cells it must leave to strconv are left.
func FuzzParseDecimal(f *testing.F) {
	for _, s := range []string{"0", "8.0", "3.06", "0.36979999999999996", "8.22609", "123456789012345", "1234567890123456",
		"0.000000000000001", ".5", "5.", ".", "", "-1", "+1", "1e5", "1_0", "0x10", "Inf", "NaN", "1.2.3", "007.50", "99999999.9999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := parseDecimal(s)
		want, err := strconv.ParseFloat(s, 64)
		if ok && (err != nil || math.Float64bits(v) != math.Float64bits(want)) {
			t.Fatalf("parseDecimal(%q) = %v; strconv.ParseFloat gives %v, %v", s, v, want, err)
		}
	})
}

func TestParseDecimal(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"8.0", 8, true}, {"3.06", 3.06, true}, {"0.36979", 0.36979, true}, {".5", 0.5, true}, {"5.", 5, true},
		{"123456789012345", 123456789012345, true}, // 15 digits
		{"1234567890123456", 0, false},             // 16: left to strconv
		{"", 0, false}, {".", 0, false}, {"-1", 0, false}, {"1e5", 0, false}, {"1.2.3", 0, false}, {" 1", 0, false},
	} {
		if got, ok := parseDecimal(tt.in); got != tt.want || ok != tt.ok {
			t.Errorf("parseDecimal(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// TestReadSkyPilotCSVErrorsAfterReadAhead: records are decoded ahead of
// the rows on another goroutine; an error still names the first bad line
// in file order, whether encoding/csv finds it (a bare quote) or a row
// does (a negative price) while later records are decoded already, and
// the reading goroutine ends with the call.
func TestReadSkyPilotCSVErrorsAfterReadAhead(t *testing.T) {
	good := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "g5.%dxlarge,A10G,1,4,16,,1.006,0.5,us-east-1,use1-az1\n", i)
		}
		return b.String()
	}
	before := runtime.NumGoroutine()
	for _, tt := range []struct{ name, in, want string }{
		{"bare quote in a later batch", awsHeader + good(3*batchRecords) + "g5.x,A10G,1,4,16,a\"b,1,,us-east-1,use1-az1\n" + good(10),
			fmt.Sprintf("vms.csv:%d: character 19: bare \" in non-quoted-field", 3*batchRecords+2)},
		{"bad price before more batches", awsHeader + good(batchRecords+5) + "g5.x,A10G,1,4,16,,-1,,us-east-1,use1-az1\n" + good(5*batchRecords),
			fmt.Sprintf("vms.csv:%d: column Price: want a number ≥ 0, got \"-1\"", batchRecords+7)},
		{"field count", awsHeader + good(2*batchRecords) + "g5.x,A10G,1\n" + good(10),
			fmt.Sprintf("vms.csv:%d: got 3 fields, want 10 (one per header column)", 2*batchRecords+2)},
	} {
		_, _, err := ReadSkyPilotCSV(strings.NewReader(tt.in), "vms.csv", "aws", CatalogGPUResolver(testCatalog()))
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: error %v, want %s", tt.name, err, tt.want)
		}
	}
	// The reader leaves at its next batch: let it run. The bound only ends
	// a leak's wait; on a loaded machine a goroutine can take many
	// scheduler rounds to be run and exit.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if runtime.NumGoroutine() <= before {
			return
		}
	}
	t.Errorf("%d goroutines after the reads, %d before", runtime.NumGoroutine(), before)
}

// TestReadSkyPilotCSVParallelBuild: building the instances on two
// goroutines gives what one gives, backing array and room included.
func TestReadSkyPilotCSVParallelBuild(t *testing.T) {
	var in bytes.Buffer
	if err := synthcsv.Write(&in, 3*parallelBuild, 7); err != nil {
		t.Fatal(err)
	}
	read := func() ([]model.Instance, []model.Instance, []string) {
		insts, backing, warns, err := readSkyPilotCSV(bytes.NewReader(in.Bytes()), "vms.csv", "aws", CatalogGPUResolver(testCatalog()), 5, int64(in.Len()))
		if err != nil {
			t.Fatal(err)
		}
		return insts, backing, model.Strings(warns)
	}
	insts, backing, warns := read()
	types := 3 * parallelBuild
	defer func(n int) { parallelBuild = n }(parallelBuild)
	parallelBuild = math.MaxInt
	want, wantBacking, wantWarns := read()
	if len(insts) < types/2 || !reflect.DeepEqual(insts, want) || !reflect.DeepEqual(backing, wantBacking) || !slices.Equal(warns, wantWarns) {
		t.Errorf("two goroutines: %d instances, %d in backing, %d warnings; one: %d, %d, %d", len(insts), len(backing), len(warns), len(want), len(wantBacking), len(wantWarns))
	}
	// Every row is its own type in one region: each instance has its
	// row's region and prices, whichever chunk built it.
	rows, err := csv.NewReader(bytes.NewReader(in.Bytes())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	byType := map[string][]string{}
	for _, r := range rows[1:] {
		byType[r[0]] = r
	}
	for _, in := range insts {
		r := byType[in.Type]
		od, _ := strconv.ParseFloat(r[6], 64)
		if len(in.Prices) != 1 || in.Prices[0].Region != r[8] || in.Prices[0].OnDemandUSD != roundPrice(od) || in.GPUCount != int(r[2][0]-'0') {
			t.Fatalf("%s: %+v, want the row %q", in.Type, in, r)
		}
	}
}

// FuzzColumnsGet: a cell comes back as strings.TrimSpace gives it, fast
// path or not (Unicode spaces such as U+00A0 and U+3000 included).
func FuzzColumnsGet(f *testing.F) {
	for _, s := range []string{"", " ", "a", " a", "a ", "\ta\n", "g5.xlarge", "\u00a0x", "x\u00a0", "\u3000", "x\u2028", "\xff", "a\xc2"} {
		f.Add(s)
	}
	var cols columns
	for k := range cols {
		cols[k] = 0
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := cols.get([]string{s}, cRegion), strings.TrimSpace(s); got != want {
			t.Fatalf("get(%q) = %q, want %q", s, got, want)
		}
	})
}

// awsOverlay writes body as an aws/vms.csv overlay in a fresh directory,
// with no user overlays (XDG_CONFIG_HOME, XDG_DATA_HOME), and returns its path.
func awsOverlay(t *testing.T, body string) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("XDG_DATA_HOME", home)
	p := filepath.Join(t.TempDir(), "aws", "vms.csv")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCSVOverlayProvenance: an instance a CSV overlay adds names the file
// as its origin and source and carries the file's date (a vms.csv has no
// date column; SkyPilot writes the file when it fetches it).
func TestCSVOverlayProvenance(t *testing.T) {
	p := awsOverlay(t, awsHeader+"zz-new.xlarge,T4,1,4,16,,0.4,,us-east-1,use1-az1\n")
	if err := os.Chtimes(p, overlayDay, overlayDay); err != nil {
		t.Fatal(err)
	}
	c, _, err := LoadWith([]string{p})
	if err != nil {
		t.Fatal(err)
	}
	in, ok := instanceOf(c, "aws", "zz-new.xlarge")
	if !ok {
		t.Fatal("zz-new.xlarge not in the merged catalog")
	}
	if in.Origin != p || in.Source != "SkyPilot catalog "+p || in.AsOf != "2021-05-17" {
		t.Errorf("origin %q, source %q, as_of %q; want %q, %q, 2021-05-17", in.Origin, in.Source, in.AsOf, p, "SkyPilot catalog "+p)
	}
}

// TestOverlayGuardsParallel: checking a large overlay's instances in two
// halves finds what one pass finds, in the same (sorted) order.
func TestOverlayGuardsParallel(t *testing.T) {
	var in strings.Builder
	in.WriteString(awsHeader)
	for i := range 3 * parallelBuild {
		region := "us-east-1"
		if i%997 == 0 {
			region = "xx-test-1" // unknown: a finding in each half
		}
		fmt.Fprintf(&in, "zz%05d.xlarge,T4,1,4,16,,0.5,0.2,%s,use1-az1\n", i, region)
	}
	p := awsOverlay(t, in.String())
	types := 3 * parallelBuild
	_, parallel, err := LoadWith([]string{p})
	if err != nil {
		t.Fatal(err)
	}
	defer func(n int) { parallelBuild = n }(parallelBuild)
	parallelBuild = math.MaxInt
	_, serial, err := LoadWith([]string{p})
	if err != nil {
		t.Fatal(err)
	}
	unknown, more := 0, ""
	for _, w := range model.Strings(parallel) {
		if strings.Contains(w, "xx-test-1: region not offered") {
			unknown++
		}
		if strings.Contains(w, "more like these") {
			more = w
		}
	}
	// A few of the findings, then how many more (summarizeGuards).
	want := (types-1)/997 + 1
	wantMore := fmt.Sprintf("catalog %s: and %d more like these", p, want-shownPerKind)
	if !slices.Equal(model.Strings(parallel), model.Strings(serial)) || unknown != shownPerKind || more != wantMore {
		t.Errorf("two goroutines: %d warnings, %d for xx-test-1 (want %d), %q (want %q); one: %d", len(parallel), unknown, shownPerKind, more, wantMore, len(serial))
	}
}

// TestPriceGuardsParallel: the price guards run on two goroutines over
// many instances (priceGuards) find what they find run one after
// another, in the same order: the generated overlay's types (new-price-cut)
// and the embedded catalog's priced at a tenth and ten times its prices
// (below-floor, price-cut, price-rise, below-peer).
func TestPriceGuardsParallel(t *testing.T) {
	base, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	var in bytes.Buffer
	if err := synthcsv.Write(&in, 3*parallelBuild, 7); err != nil {
		t.Fatal(err)
	}
	insts, _, err := ReadSkyPilotCSV(bytes.NewReader(in.Bytes()), "vms.csv", "aws", CatalogGPUResolver(base))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []float64{0.1, 10} {
		for _, b := range base.Instances {
			b.Prices = slices.Clone(b.Prices)
			for j := range b.Prices {
				b.Prices[j].OnDemandUSD *= f
				b.Prices[j].SpotUSD *= f
			}
			insts = append(insts, b)
		}
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(insts), func(i, j int) { insts[i], insts[j] = insts[j], insts[i] })
	find := func() []string {
		var found guardList
		priceGuards(baseFloors(), base, base, insts, &found)
		var out []string
		for _, g := range found.slice() {
			out = append(out, g.Rule+" "+g.Origin+" "+g.Message().String())
		}
		return out
	}
	parallel := find()
	defer func(n int) { parallelBuild = n }(parallelBuild)
	parallelBuild = math.MaxInt
	serial := find()
	rules := map[string]bool{}
	for _, f := range serial {
		rules[strings.Fields(f)[0]] = true
	}
	if !slices.Equal(parallel, serial) || len(rules) < 5 {
		t.Errorf("two goroutines: %d findings; one: %d, of rules %v (want all 5)", len(parallel), len(serial), rules)
	}
}

// TestReadSkyPilotCSVHostArch: the host CPU architecture is set as the
// instances are built: AWS Graviton hosts (g5g, T4G) and Grace superchips
// (GH200) are arm64, others x86_64 (empty).
func TestReadSkyPilotCSVHostArch(t *testing.T) {
	cat, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	in := awsHeader +
		"g5g.xlarge,T4G,1,4,8,,0.42,,us-east-1,use1-az1\n" +
		"g4dn.xlarge,T4,1,4,16,,0.526,,us-east-1,use1-az1\n" +
		"p6-gh200.xlarge,GH200,1,72,480,,5.0,,us-east-1,use1-az1\n"
	insts, _, err := ReadSkyPilotCSV(strings.NewReader(in), "vms.csv", "aws", CatalogGPUResolver(cat))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"g5g.xlarge": "arm64", "g4dn.xlarge": "", "p6-gh200.xlarge": "arm64"}
	for _, in := range insts {
		if arch, ok := want[in.Type]; !ok || in.CPUArch != arch {
			t.Errorf("%s (%s): cpu_arch %q, want %q", in.Type, in.GPU, in.CPUArch, arch)
		}
		delete(want, in.Type)
	}
	if len(want) > 0 {
		t.Errorf("types not read: %v", want)
	}
}
