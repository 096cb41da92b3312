package data

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
)

// csvSteps reads every record of next and says, one line each, what each
// Read gave: the fields, the first field's line and the offset after the
// record, or the error (a csv.ParseError in full).
func csvSteps(read func() ([]string, error), line func() int, offset func() int64) []string {
	var out []string
	for range 10_000 {
		rec, err := read()
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				out = append(out, fmt.Sprintf("rec %q parse error start %d line %d col %d: %v", rec, pe.StartLine, pe.Line, pe.Column, pe.Err))
			} else {
				out = append(out, fmt.Sprintf("rec %q error %v", rec, err))
			}
			if errors.Is(err, io.EOF) || !errors.As(err, &pe) || !errors.Is(pe.Err, csv.ErrFieldCount) {
				return out // encoding/csv goes on only after a field count error
			}
			continue
		}
		out = append(out, fmt.Sprintf("%q line %d offset %d", rec, line(), offset()))
	}
	return out
}

// fastAndSlow runs fastCSV and encoding/csv over input (through
// recordCapReader with bound max and a bufio.Reader of size bytes, as
// readSkyPilotCSV reads; encoding/csv reads a bufio.Reader of 4096 bytes
// or more as it is, a smaller one through one of its own) and returns what
// each gave.
func fastAndSlow(input string, size, bound int) (fast, slow []string) {
	f := newFastCSV(bufio.NewReaderSize(newRecordCapReader(strings.NewReader(input), bound), size))
	fast = csvSteps(f.Read, func() int { l, _ := f.FieldPos(0); return l }, f.InputOffset)
	c := csv.NewReader(bufio.NewReaderSize(newRecordCapReader(strings.NewReader(input), bound), size))
	c.ReuseRecord = true
	slow = csvSteps(c.Read, func() int { l, _ := c.FieldPos(0); return l }, c.InputOffset)
	return fast, slow
}

var fastCSVSeeds = []string{
	"",
	"a,b,c\n1,2,3\n",
	"a,b,c\n1,2,3",
	"a,b\n1,\"x, 'y'\"\n2,\"\"\n",
	"a,b\n1,2\n\n3,4\n",
	"a,b\r\n1,2\r\n",
	"a,b\n1,2\r\n3,4\n",
	"a,b\n1,\"x\"\"y\"\n2,3\n",
	"a,b\n1,x\"y\n2,3\n",
	"a,b\n1,\"x\"y\n2,3\n",
	"a,b\n1,\"open\nstill\",z\n4,5\n",
	"a,b\n1,\"never closed\n4,5\n",
	"a,b\n1,2,3\n4,5\n6\n",
	"a,b\n1,2\n,\n\"\",\"\"\n",
	"a\n\"\"\n\"x\",\n",
	"\n\na,b\n1,2\n",
	"a,b\n1,2\n" + strings.Repeat("x", 100) + ",y\n3,4\n",
	"a,b\n1,2\n" + strings.Repeat("y", 300) + "\n3,4\n",
	"a,b\n1,2\n" + strings.Repeat("y", 5000) + ",z\n3,4\n",
	"a,b\n1,2\n\"" + strings.Repeat("y", 5000) + "\",z\n3,4\n",
	"a,b\n1,2\ny\"" + strings.Repeat("y", 9000) + "\n3,4\n",
	"a,b\n1,\"" + strings.Repeat("q\n", 80) + "\"\n",
	"a,b\n1,\"" + strings.Repeat("q\n", 3000) + "\"\n",
	"InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n" +
		"p3.2xlarge,V100,1,8.0,61.0,\"{'Gpus': [{'Name': 'V100', 'Manufacturer': 'NVIDIA', 'Count': 1.0, 'MemoryInfo': {'SizeInMiB': 16384}}], 'TotalGpuMemoryInMiB': 16384}\",3.06,0.9,us-east-1,use1-az1\n",
	"a,b\n\xff,\xfe\"\n",
	"a,b\n1,2\n\"3\"\"\",4",
}

// TestFastCSVMatchesEncodingCSV: fastCSV gives encoding/csv's records,
// lines, offsets and errors, in the same order, for each seed, with a
// buffer larger and smaller than the lines and a record bound that some
// lines pass.
func TestFastCSVMatchesEncodingCSV(t *testing.T) {
	for _, in := range fastCSVSeeds {
		for _, size := range []int{4096, 64 << 10} {
			for _, bound := range []int{200, 6000, maxCSVRecord} {
				fast, slow := fastAndSlow(in, size, bound)
				if !slices.Equal(fast, slow) {
					t.Errorf("input %q, buffer %d, bound %d:\nfastCSV:\n  %s\nencoding/csv:\n  %s", in, size, bound, strings.Join(fast, "\n  "), strings.Join(slow, "\n  "))
				}
			}
		}
	}
}

// FuzzFastCSV holds fastCSV to encoding/csv on any input.
func FuzzFastCSV(f *testing.F) {
	for _, s := range fastCSVSeeds {
		f.Add(s, uint16(64), uint16(200))
	}
	f.Fuzz(func(t *testing.T, in string, size, bound uint16) {
		fast, slow := fastAndSlow(in, max(4096, int(size)), max(1, int(bound)))
		if !slices.Equal(fast, slow) {
			t.Errorf("input %q, buffer %d, bound %d:\nfastCSV:\n  %s\nencoding/csv:\n  %s", in, size, bound, strings.Join(fast, "\n  "), strings.Join(slow, "\n  "))
		}
	})
}
