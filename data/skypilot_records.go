package data

// recordBatch is a run of records read ahead by readRecords: encoding/csv
// decoding on one core while the rows are turned into instances on the
// other (it is a third of the read's CPU time).
type recordBatch struct {
	fields  []string // the records' fields back to back, width each
	lines   []int    // each record's line, for errors
	offsets []int64  // the input offset after each record, for sizing
	// err is the reader's error after the batch's records (io.EOF at the
	// end of the file; nil while more batches follow) and errFields the
	// fields of the record it came with (csv.ErrFieldCount).
	err       error
	errFields int
}

// batchRecords is the records per batch and batchesInFlight how many
// batches exist: the reader fills at most two while one is processed.
const (
	batchRecords    = 256
	batchesInFlight = 3
)

// records reads cr's remaining records in batches on another goroutine
// and returns the channel they arrive on, in file order; the last batch
// carries the error that ended the read. A batch goes back on free once
// processed. Closing done stops the reader at its next batch, so a
// caller that returns early leaves no goroutine behind.
//
// A record's fields stay valid after the batch is reused: fastCSV (and
// encoding/csv behind it) makes them substrings of strings it never
// writes again, and only the slice headers are copied (the record's
// slice is reused, not its strings).
func records(cr *fastCSV, width int, done <-chan struct{}) (full <-chan *recordBatch, free chan<- *recordBatch) {
	fullc := make(chan *recordBatch, batchesInFlight)
	freec := make(chan *recordBatch, batchesInFlight)
	for range batchesInFlight {
		freec <- &recordBatch{
			fields:  make([]string, 0, batchRecords*width),
			lines:   make([]int, 0, batchRecords),
			offsets: make([]int64, 0, batchRecords),
		}
	}
	go func() {
		defer close(fullc)
		for {
			var b *recordBatch
			select {
			case b = <-freec:
			case <-done:
				return
			}
			b.fields, b.lines, b.offsets = b.fields[:0], b.lines[:0], b.offsets[:0]
			for len(b.lines) < batchRecords {
				rec, err := cr.Read()
				if err != nil {
					b.err, b.errFields = err, len(rec)
					break
				}
				line, _ := cr.FieldPos(0)
				b.fields = append(b.fields, rec...)
				b.lines = append(b.lines, line)
				b.offsets = append(b.offsets, cr.InputOffset())
			}
			select {
			case fullc <- b:
			case <-done:
				return
			}
			if b.err != nil {
				return
			}
		}
	}()
	return fullc, freec
}
