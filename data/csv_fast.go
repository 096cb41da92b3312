package data

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"unsafe"
)

// fastCSV reads records as encoding/csv does (Comma ',', no comments, no
// lazy quotes, every record held to the first's field count), faster for
// what nearly every line of a vms.csv is: one physical line of fields
// that are plain or wholly quoted with no quote inside ("{'Gpus': …}").
// Such a line's fields are cut from one copy of it, kept in a chunk of
// lines shared by many records (encoding/csv copies each field twice and
// allocates a string per record: a third of a 100,000-row read).
//
// Any other line (a doubled or stray quote, a quoted field running onto
// the next line, a carriage return, an empty line, a field count other
// than the first record's, a line over the buffer, a read error) is
// handed, with the rest of the input, to an encoding/csv Reader, which
// reads from there on; its lines, offsets and errors are shifted by what
// was read before, so records, FieldPos, InputOffset and every error are
// encoding/csv's own (FuzzFastCSV compares the two).
type fastCSV struct {
	br     *bufio.Reader
	chunk  []byte   // lines copied for fields; never written below len
	fields []string // the last record, reused (csv.Reader.ReuseRecord)
	width  int      // fields of the first record, 0 before it
	line   int      // physical lines read
	offset int64    // bytes read

	// slow reads from the first line the fast path does not take; lines
	// and offsets it reports are after lineBase and offsetBase.
	slow       *csv.Reader
	lineBase   int
	offsetBase int64
	recLine    int // line of the last record
}

// fastChunk is the size of a chunk of copied lines: a few hundred rows of
// a vms.csv, so fields cost an allocation per chunk, not per record.
const fastChunk = 64 << 10

func newFastCSV(br *bufio.Reader) *fastCSV { return &fastCSV{br: br} }

// Read returns the next record, or the error encoding/csv would return.
// The record's slice is reused by the next Read; its strings are not.
func (f *fastCSV) Read() ([]string, error) {
	if f.slow != nil {
		return f.readSlow()
	}
	line, err := f.br.ReadSlice('\n')
	switch {
	case err == io.EOF && len(line) == 0:
		return nil, io.EOF
	case err == bufio.ErrBufferFull:
		// A line over the buffer: encoding/csv joins it from here.
		return f.fallBack(io.MultiReader(bytes.NewReader(bytes.Clone(line)), f.br))
	case err != nil && err != io.EOF:
		// The reader's error after a partial line: encoding/csv sees both,
		// as it would have from the bufio.Reader.
		return f.fallBack(io.MultiReader(bytes.NewReader(bytes.Clone(line)), errReader{err}))
	}
	if !f.split(line) {
		return f.fallBack(io.MultiReader(bytes.NewReader(bytes.Clone(line)), f.br))
	}
	f.line++
	f.recLine = f.line
	f.offset += int64(len(line))
	return f.fields, nil
}

// split cuts line (ending in '\n', or not at the end of the input) into
// f.fields when it is a line the fast path reads the way encoding/csv
// does; false leaves the line to encoding/csv.
func (f *fastCSV) split(line []byte) bool {
	body := line
	if n := len(body); n > 0 && body[n-1] == '\n' {
		body = body[:n-1]
	}
	// An empty line is skipped by encoding/csv and '\r' is rewritten at a
	// line's end: both are left to it, as is a quote that is not a whole
	// field's (odd counts are a quote open across lines or a stray one).
	if len(body) == 0 || bytes.IndexByte(body, '\r') >= 0 {
		return false
	}
	if len(f.chunk)+len(body) > cap(f.chunk) {
		f.chunk = make([]byte, 0, max(fastChunk, len(body)))
	}
	at := len(f.chunk)
	f.chunk = append(f.chunk, body...)
	b := f.chunk[at:]
	// The chunk's bytes below len are never written again, so strings
	// over them stay as they are (strings.Builder makes its string so).
	s := unsafe.String(unsafe.SliceData(b), len(b))
	f.fields = f.fields[:0]
	for i := 0; ; {
		if i < len(s) && s[i] == '"' {
			// A quoted field: its closing quote must end the field.
			j := bytes.IndexByte(b[i+1:], '"')
			if j < 0 {
				return false // open onto the next line
			}
			end := i + 1 + j
			if end+1 < len(s) && s[end+1] != ',' {
				return false // a doubled quote, or text after the closing one
			}
			f.fields = append(f.fields, s[i+1:end])
			if end+1 == len(s) {
				break
			}
			i = end + 2
			continue
		}
		j := bytes.IndexByte(b[i:], ',')
		end := len(s)
		if j >= 0 {
			end = i + j
		}
		if bytes.IndexByte(b[i:end], '"') >= 0 {
			return false // a bare quote: encoding/csv's error
		}
		f.fields = append(f.fields, s[i:end])
		if j < 0 {
			break
		}
		i = end + 1
	}
	if f.width == 0 {
		f.width = len(f.fields)
	} else if len(f.fields) != f.width {
		return false // encoding/csv's ErrFieldCount, with its record
	}
	return true
}

// fallBack reads the rest of the input, starting again at the line just
// read (rest holds it), with encoding/csv.
func (f *fastCSV) fallBack(rest io.Reader) ([]string, error) {
	f.chunk = nil
	f.slow = csv.NewReader(rest)
	f.slow.ReuseRecord = true
	f.slow.FieldsPerRecord = f.width // 0: set by the first record, as before
	f.lineBase, f.offsetBase = f.line, f.offset
	return f.readSlow()
}

func (f *fastCSV) readSlow() ([]string, error) {
	rec, err := f.slow.Read()
	if err == nil {
		l, _ := f.slow.FieldPos(0)
		f.recLine = f.lineBase + l
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		shifted := *pe
		shifted.StartLine += f.lineBase
		shifted.Line += f.lineBase
		err = &shifted
	}
	return rec, err
}

// FieldPos is csv.Reader.FieldPos's line of the last record's first
// field (the column is not kept: errors name lines).
func (f *fastCSV) FieldPos(int) (line, column int) { return f.recLine, 0 }

// InputOffset is csv.Reader.InputOffset: the bytes read up to the end of
// the last record.
func (f *fastCSV) InputOffset() int64 {
	if f.slow != nil {
		return f.offsetBase + f.slow.InputOffset()
	}
	return f.offset
}

// errReader returns err on every read.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
