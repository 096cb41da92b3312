package data

import (
	"bytes"
	"io"

	"github.com/gpuplan/gpuplan/model"
)

// maxCSVRecord bounds a record of a SkyPilot vms.csv: its rows are under
// a KB (the GpuInfo cell, the longest, ~300 bytes), and encoding/csv holds
// a record whole, so a 100 MB file without a newline, or with a quoted
// field left open over millions of lines, would be read, copied and
// collected for seconds before any row could be checked.
const maxCSVRecord = 1 << 20

// recordCapReader fails a read as soon as one CSV record passes max bytes.
// A record is what encoding/csv joins into one: physical lines run
// together while a quoted field is open, which an odd count of '"' since
// the record began says (RFC 4180 §2: a quote inside a quoted field is
// doubled, so it counts twice). The error names the line the record
// began on, where the user has to look. Newlines and quotes are found
// with bytes.IndexByte and bytes.Count, so the 100,000-row file's read
// costs a few ms more.
type recordCapReader struct {
	r      io.Reader
	max    int
	n      int  // bytes of the current record so far, its newlines included
	line   int  // the physical line being read, from 1
	start  int  // the line the current record began on
	quoted bool // a quoted field is open
}

func newRecordCapReader(r io.Reader, max int) *recordCapReader {
	return &recordCapReader{r: r, max: max, line: 1, start: 1}
}

// RecordTooLongError is recordCapReader's error.
type RecordTooLongError struct {
	Line   int  // where the record began
	Lines  int  // physical lines it spans so far
	Max    int  // the bound, bytes
	Quoted bool // it is long because a quoted field stays open
}

func (e *RecordTooLongError) Error() string { return e.Message().String() }

// Message is the error as a message, for translation.
func (e *RecordTooLongError) Message() model.Message {
	if e.Quoted && e.Lines > 1 {
		return model.Msg("a quoted field opens here and is not closed within %d MiB (%d lines): not a SkyPilot vms.csv (its rows are under 1 KB)", e.Max>>20, e.Lines)
	}
	return model.Msg("a line longer than %d MiB: not a SkyPilot vms.csv (its rows are under 1 KB)", e.Max>>20)
}

var quote = []byte{'"'}

func (c *recordCapReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	for p := b[:n]; len(p) > 0; {
		i := bytes.IndexByte(p, '\n')
		body := p
		if i >= 0 {
			body = p[:i]
		}
		if bytes.Count(body, quote)%2 == 1 {
			c.quoted = !c.quoted
		}
		c.n += len(body)
		if c.n > c.max {
			return 0, &RecordTooLongError{Line: c.start, Lines: c.line - c.start + 1, Max: c.max, Quoted: c.quoted}
		}
		if i < 0 {
			break
		}
		p = p[i+1:]
		c.line++
		if c.quoted {
			c.n++ // the newline is inside the field
		} else {
			c.n, c.start = 0, c.line
		}
	}
	return n, err
}
