package data

import (
	"bufio"
	"os"
	"path/filepath"
	"testing"

	"github.com/gpuplan/gpuplan/data/synthcsv"
)

// BenchmarkReadSkyPilotCSV100k is the reader alone over the generated
// 100,000-row aws/vms.csv of BenchmarkLoadWithCSV100k (no merge, guards
// or Recommend): records decoded, rows folded into runs, runs sorted and
// the instances built, with the room a merge leaves in front of them.
//
//	go test ./data -run '^$' -bench ReadSkyPilotCSV100k -benchmem -cpuprofile /tmp/csv.out
func BenchmarkReadSkyPilotCSV100k(b *testing.B) {
	p := filepath.Join(b.TempDir(), "vms.csv")
	if err := synthcsv.WriteFile(p, 100_000, 7); err != nil {
		b.Fatal(err)
	}
	cat, err := Load()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		f, err := os.Open(p)
		if err != nil {
			b.Fatal(err)
		}
		fi, err := f.Stat()
		if err != nil {
			b.Fatal(err)
		}
		insts, _, _, err := readSkyPilotCSV(bufio.NewReaderSize(f, 64<<10), p, "aws", CatalogGPUResolver(cat), len(cat.Instances), fi.Size())
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
		if len(insts) != 100_000 {
			b.Fatalf("%d instances, want 100000 (every row its own type)", len(insts))
		}
	}
}
