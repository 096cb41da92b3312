package data

import (
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// inlineDups is dupRows as it was, looking each row up as it is read
// in a table of every row's hash: the reference find is checked against.
type inlineDups struct {
	seed     maphash.Seed
	first    map[uint64]int
	n, line  int
	examples []model.Message
}

func (d *inlineDups) see(line int, typ, region, zone string) {
	if d.first == nil {
		d.seed, d.first = maphash.MakeSeed(), map[uint64]int{}
	}
	var h maphash.Hash
	h.SetSeed(d.seed)
	h.WriteString(typ)
	h.WriteByte(0)
	h.WriteString(region)
	h.WriteByte(0)
	h.WriteString(zone)
	k := h.Sum64()
	at, ok := d.first[k]
	if !ok {
		d.first[k] = line
		return
	}
	if d.n == 0 {
		d.line = line
	}
	d.n++
	if len(d.examples) < shownDups {
		d.examples = append(d.examples, model.Msg("%s %s %s (lines %d, %d)", typ, region, zone, at, line))
	}
}

// TestDupRowsSameAsInline: the repeated rows found once the file is read,
// among the rows that can repeat another, are the ones the table of
// every row found as it was read: the count, first line and examples of
// the warning alike, for files of every row its own type, types in runs
// over regions and zones, a type's rows apart (runs merged), a type
// whose later rows have another shape (a conflict: its rows are still
// read), and the repeats early, late or none.
func TestDupRowsSameAsInline(t *testing.T) {
	cat := testCatalog()
	r := rand.New(rand.NewPCG(7, 8))
	withDups := 0
	for round := range 120 {
		rows := []int{1, 2, 5, 40, 700, 3000}[round%6]
		types := 1 + r.IntN(rows)
		var csv strings.Builder
		csv.WriteString(awsHeader)
		var want inlineDups
		typ := ""
		for i := range rows {
			switch {
			case round%4 == 0: // every row its own type but one
				typ = fmt.Sprint("u", i%max(rows-1, 1), ".xlarge")
			case typ == "" || r.IntN(3) == 0: // runs of a type, types coming back
				typ = fmt.Sprint("t", r.IntN(types), ".xlarge")
			}
			region := fmt.Sprint("us-east-", 1+r.IntN(3))
			zone := fmt.Sprint("use1-az", 1+r.IntN(3))
			if round%4 == 0 && i == rows-1 {
				region, zone = "us-east-1", "use1-az1" // the first row's: two runs of one row each
			}
			if round%4 == 0 && i == 0 {
				region, zone = "us-east-1", "use1-az1"
			}
			vcpus := 4
			if round%5 == 1 && r.IntN(10) == 0 {
				vcpus = 8 // another shape: a conflict once runs are merged
			}
			fmt.Fprintf(&csv, "%s,T4,1,%d,16,,0.%d,0.2,%s,%s\n", typ, vcpus, 5+r.IntN(4), region, zone)
			want.see(i+2, typ, region, zone)
		}
		got, wantLine := dupWarnings(t, cat, csv.String(), &want)
		if wantLine != "" {
			withDups++
		}
		if got != wantLine {
			t.Fatalf("round %d (%d rows, %d types):\n got %q\nwant %q", round, rows, types, got, wantLine)
		}
	}
	if withDups < 50 {
		t.Errorf("%d of 120 files with repeated rows, want most", withDups)
	}
}

// dupWarnings reads csv and returns its warning about repeated rows and
// the one want's findings make ("" for none).
func dupWarnings(t *testing.T, cat *model.Catalog, csv string, want *inlineDups) (got, wantLine string) {
	t.Helper()
	_, warns, err := ReadSkyPilotCSV(strings.NewReader(csv), "vms.csv", "aws", CatalogGPUResolver(cat))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range model.Strings(warns) {
		if strings.Contains(w, "repeat") {
			got = w
		}
	}
	var ww warnings
	d := dupRows{n: want.n, line: want.line, examples: want.examples}
	d.warn(&ww)
	if lines := ww.lines("vms.csv"); len(lines) > 0 {
		wantLine = lines[0].String()
	}
	return got, wantLine
}

// FuzzDupRows: for any sequence of rows (each byte pair picks a type of
// 16, one of two shapes, a region and a zone of 4), the warning about
// repeated rows is the one the table of every row makes.
func FuzzDupRows(f *testing.F) {
	for _, s := range []string{"", "\x00\x00", "\x00\x00\x00\x00", "\x01\x00\x02\x00\x01\x00", "\x10\x05\x11\x05\x10\x05"} {
		f.Add([]byte(s))
	}
	cat := testCatalog()
	f.Fuzz(func(t *testing.T, b []byte) {
		var csv strings.Builder
		csv.WriteString(awsHeader)
		var want inlineDups
		for i := 0; i+1 < len(b); i += 2 {
			typ := fmt.Sprint("t", b[i]&15, ".xlarge")
			vcpus := 4 << (b[i] >> 4 & 1)
			region, zone := fmt.Sprint("us-east-", 1+b[i+1]&3), fmt.Sprint("use1-az", 1+b[i+1]>>2&3)
			fmt.Fprintf(&csv, "%s,T4,1,%d,16,,0.5,0.2,%s,%s\n", typ, vcpus, region, zone)
			want.see(i/2+2, typ, region, zone)
		}
		if len(b) < 2 {
			return // no data rows: an error, not a warning
		}
		if got, wantLine := dupWarnings(t, cat, csv.String(), &want); got != wantLine {
			t.Fatalf("got %q\nwant %q", got, wantLine)
		}
	})
}
