package data

import (
	"github.com/gpuplan/gpuplan/model"
)

// dupRows finds rows that repeat an earlier row's instance type, region
// and zone: add folds them (the lowest price of each kind wins), and the
// file gets one warning saying so (warning).
//
// A row is noted as it is read (its line, run, region and zone, four
// integers) and looked up once the file is read (find), and only if it
// can repeat another: rows of one type and region fold into one run (a
// second row there counts in typeRun.rows), or into runs of one name
// that instances merges (shared). Looking every row up as it was read,
// a 100,000-row file of as many types paid a cache miss a row in a table
// of 100,000 (~10 ms on the read's critical path) to find none.
type dupRows struct {
	rows []dupRow // the GPU rows read, in order
	// shared marks the runs whose name another run has (instances); nil
	// when none has.
	shared []bool

	n, line  int // repeated rows; the first repeat's line
	examples []model.Message
}

// dupRow is a row as see got it: run is its index in parser.runs,
// region and zone in parser.strs.
type dupRow struct {
	line, run, region, zone int32
}

// shownDups is how many repeated rows the warning names.
const shownDups = 3

// see notes a GPU row, folded into run.
func (d *dupRows) see(line, run int, region, zone int32) {
	d.rows = append(d.rows, dupRow{int32(line), int32(run), region, zone})
}

// reserve sizes the notes for n rows at once: grown a row at a time,
// a 100,000-row file's were copied a dozen times.
func (d *dupRows) reserve(n int) {
	if n > cap(d.rows) {
		d.rows = growFresh(d.rows, n-len(d.rows))
	}
}

// share marks run as one of several runs of one name.
func (d *dupRows) share(runs, run int) {
	if d.shared == nil {
		d.shared = make([]bool, runs)
	}
	d.shared[run] = true
}

// find counts the rows that repeat an earlier one, in file order, and
// names the first few. p's runs are read: it runs after instances.
func (d *dupRows) find(p *parser) {
	type key struct {
		typ          string
		region, zone int32
	}
	var first map[key]int32 // a key's first line
	for _, r := range d.rows {
		t := &p.runs[r.run]
		if t.rows < 2 && (d.shared == nil || !d.shared[r.run]) {
			continue // the type and region of no other row
		}
		if first == nil {
			first = map[key]int32{}
		}
		k := key{p.runName(t), r.region, r.zone}
		at, ok := first[k]
		if !ok {
			first[k] = r.line
			continue
		}
		if d.n == 0 {
			d.line = int(r.line)
		}
		d.n++
		if len(d.examples) < shownDups {
			d.examples = append(d.examples, model.Msg("%s %s %s (lines %d, %d)", k.typ, p.strs[r.region], p.strs[r.zone], at, r.line))
		}
	}
	d.rows = nil
}

// warn adds the file's one warning about repeated rows, if any.
func (d *dupRows) warn(w *warnings) {
	if d.n == 0 {
		return
	}
	ex := d.examples[0]
	for _, e := range d.examples[1:] {
		ex = model.Msg("%v, %v", ex, e)
	}
	if d.n == 1 {
		w.add(d.line, "dup", model.Msg("1 row repeats the instance type, region and zone of an earlier row, %v; the lower on-demand and the lower spot price of the two are kept", ex))
		return
	}
	w.add(d.line, "dup", model.Msg("%s rows repeat the instance type, region and zone of an earlier row, e.g. %v; the lowest on-demand and the lowest spot price of the repeated rows are kept", model.Grouped(d.n), ex))
}
