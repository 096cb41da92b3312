package cli

import (
	"bytes"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/report"
)

// failAfter is a writer whose nth Write fails.
type failAfter struct {
	n   int
	buf bytes.Buffer
}

var errFailAfter = errors.New("write failed")

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n--; f.n < 0 {
		return 0, errFailAfter
	}
	return f.buf.Write(p)
}

// TestElemsInBlocksSame: recommend's offers laid out in blocks on two
// goroutines (jsonOut.elemsInBlocks) are the bytes one goroutine writes
// (GOMAXPROCS 1 takes the one-goroutine path), run after run, whichever
// goroutine lays out which block; a list of fewer blocks than
// offerBlocks.min, and a writer failing part way, which ends the list with
// its error and a prefix of the document.
func TestElemsInBlocksSame(t *testing.T) {
	cat, _, err := data.LoadWith(nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := cat.Model("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	w := model.Workload{Settings: model.Settings{Task: model.TaskQLoRA}, Model: *a}
	q := model.Query{AutoGPUs: true}
	rec, err := model.Recommend(w, cat, q)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(rec.Offers); n < 8*offerBlocks.per {
		t.Fatalf("%d offers: too few to test %d-offer blocks", n, offerBlocks.per)
	}
	// The embedded catalog's offers are fewer than offerBlocks.min blocks
	// (one goroutine lays them out); the blocks are tested at a smaller
	// minimum.
	shipped := offerBlocks.min
	defer func() { offerBlocks.min = shipped }()
	if n := len(rec.Offers); n >= shipped*offerBlocks.per {
		t.Errorf("%d offers: %d blocks or more, which a helper lays out; the measure behind offerBlocks.min was one goroutine's", n, shipped)
	}
	offerBlocks.min = 4
	base, err := model.Compute(w, nil)
	if err != nil {
		t.Fatal(err)
	}
	write := func(limit int, out interface {
		Write([]byte) (int, error)
	}) error {
		d := report.Decide(&rec, report.DecideInput{Catalog: cat, Workload: w, Query: q, HoursPerMonth: model.HoursPerMonth})
		return writeJSONStream(out, report.NewRecommendJSONStream(&rec, &base, limit, d))
	}
	for _, limit := range []int{0, offerBlocks.per*offerBlocks.min - 1, offerBlocks.per*offerBlocks.min + 1} {
		prev := runtime.GOMAXPROCS(1)
		var want bytes.Buffer
		err := write(limit, &want)
		runtime.GOMAXPROCS(max(prev, 2))
		if err != nil {
			t.Fatal(err)
		}
		for run := range 20 {
			var got bytes.Buffer
			if err := write(limit, &got); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatalf("limit %d, run %d: %d bytes in blocks, %d from one goroutine", limit, run, got.Len(), want.Len())
			}
		}
		runtime.GOMAXPROCS(prev)
		if limit == 0 {
			for fail := range 6 {
				f := &failAfter{n: fail}
				if err := write(0, f); !errors.Is(err, errFailAfter) {
					t.Errorf("write %d fails: got %v, want its error", fail, err)
				}
				if !bytes.HasPrefix(want.Bytes(), f.buf.Bytes()) {
					t.Errorf("write %d fails: what was written is not the document's start", fail)
				}
			}
		}
	}
}

// TestMarketRowsInBlocksSame: offers --json, whose rows elemsInBlocks
// lays out (the embedded catalog's ~2,000 rows, dozens of blocks), prints
// the bytes of one goroutine, run after run; and the row count is enough
// for blocks at all.
func TestMarketRowsInBlocksSame(t *testing.T) {
	args := []string{"offers", "--json", "--all-regions"}
	prev := runtime.GOMAXPROCS(1)
	code, want, stderr := runCLI(t, args...)
	runtime.GOMAXPROCS(max(prev, 2))
	defer runtime.GOMAXPROCS(prev)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := strings.Count(want, `"instance_type"`); n < 8*marketBlocks.per {
		t.Fatalf("%d rows: too few to test %d-row blocks", n, marketBlocks.per)
	}
	for run := range 10 {
		if _, got, _ := runCLI(t, args...); got != want {
			t.Fatalf("run %d: %d bytes in blocks, %d from one goroutine", run, len(got), len(want))
		}
	}
}
