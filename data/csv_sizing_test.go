package data

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data/synthcsv"
)

// TestReadSkyPilotCSVSized: sizing the tables from the first sampleRows
// rows changes no result, whether the sample over- or under-estimates the
// file; size 0 (no sizing) is the reference.
func TestReadSkyPilotCSVSized(t *testing.T) {
	cat, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	var synth bytes.Buffer
	if err := synthcsv.Write(&synth, 3*sampleRows, 7); err != nil {
		t.Fatal(err)
	}
	// The sample sees one type in two regions; 1,500 types follow, so the
	// tables grow again after reserve.
	var under strings.Builder
	under.WriteString(awsHeader)
	for i := range sampleRows + 10 {
		fmt.Fprintf(&under, "g5.xlarge,A10G,1,4,16,,1.006,0.5,us-east-%d,use1-az1\n", 1+i%2)
	}
	for i := range 1500 {
		fmt.Fprintf(&under, "g5.%dxlarge,A10G,1,4,16,,1.006,0.5,us-east-1,use1-az1\n", i)
	}
	for name, in := range map[string]string{"synthetic": synth.String(), "sample under-estimates": under.String()} {
		for _, room := range []int{0, 2} {
			want, wantBacking, wantWarns, err := readSkyPilotCSV(strings.NewReader(in), "vms.csv", "aws", CatalogGPUResolver(cat), room, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, size := range []int64{int64(len(in)), int64(len(in)) / 3, 10 * int64(len(in))} {
				got, backing, warns, err := readSkyPilotCSV(strings.NewReader(in), "vms.csv", "aws", CatalogGPUResolver(cat), room, size)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(warns, wantWarns) || len(backing) != len(wantBacking) {
					t.Errorf("%s, room %d, size %d: %d instances, %d warnings; unsized %d, %d", name, room, size, len(got), len(warns), len(want), len(wantWarns))
				}
				if len(got) > 0 && &backing[room] != &got[0] {
					t.Errorf("%s, room %d, size %d: instances do not start at backing[room]", name, room, size)
				}
			}
		}
	}
}

// TestDeferGC: a large read turns the percentage trigger off and sets a
// limit no higher than the user's; overlapping reads restore the user's
// settings when the last one ends, whatever the order; a small read
// changes nothing.
func TestDeferGC(t *testing.T) {
	percent, limit := userGC(t)

	deferGC(1 << 19)() // under a MiB: nothing to do
	if percent() != userPercent || limit() != userLimit {
		t.Fatalf("small read: GOGC %d, limit %d; want %d, %d", percent(), limit(), userPercent, userLimit)
	}
	a := deferGC(20 << 20)
	if percent() != -1 || limit() > userLimit || limit() < gcRoomPerByte*20<<20 {
		t.Errorf("during a 20 MiB read: GOGC %d, limit %d; want off, ≥ %d and ≤ %d", percent(), limit(), gcRoomPerByte*20<<20, userLimit)
	}
	b := deferGC(1 << 40) // capped at safeio.CSV (128 MiB × 4 > 256 MiB): the user's limit holds
	if limit() != userLimit {
		t.Errorf("during a huge read: limit %d, want the user's %d", limit(), userLimit)
	}
	a()
	a() // twice: counted once
	if percent() != -1 {
		t.Errorf("one of two reads done: GOGC %d, want still off", percent())
	}
	b()
	if percent() != userPercent || limit() != userLimit {
		t.Errorf("after both reads: GOGC %d, limit %d; want %d, %d", percent(), limit(), userPercent, userLimit)
	}
}
