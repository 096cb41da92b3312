package data

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"sync"

	"github.com/gpuplan/gpuplan/data/safeio"
)

// A large CSV overlay is read in two steps (readSkyPilotCSV): rows are
// folded into pointer-free tables while the records' copies (fastCSV's
// chunks of lines, ≈1× the file's bytes) become garbage, then the instances
// (≈2× the bytes, all of it kept) are built. The collector is paced for
// each: often during the rows (paceGC at readGCPercent: the tables have
// nothing to mark, the records' memory is reused), not at all while the
// instances are built (deferGC: a cycle then would mark the half-built
// arrays and make their writes assist it). Both keep a memory limit: the
// heap when the pause starts plus gcRoomPerByte × the file's bytes, so a
// file within safeio's 128 MiB cap (safeio.CSV) collects at most near its
// end, and the heap never grows past what the read itself needs plus that
// margin. A GOMEMLIMIT lower than that stays the limit.
const gcRoomPerByte = 4

var gcPause struct {
	sync.Mutex
	n                int // reads under way; the first saves, the last restores
	percent          int
	limit, prevLimit int64
}

// readGCPercent is the collector's percentage trigger while a large
// SkyPilot CSV is read (paceGC). The heap that stays during the read is
// pointer-free (typeRun, priceRow: ~13 MB for 100,000 rows) and the
// garbage is the records' copies (~19 MB in all): at 25% a
// cycle starts after ~3 MB of it instead of ~13 MB at Go's default 100,
// and marks next to nothing. Measured on the 100,000-row benchmark file
// (gpuplan recommend --catalog …/aws/vms.csv): 1,800 fewer page faults
// of 4 KiB (≈13 µs each on the 2-core VM of docs/speed.md)
// for about 1 ms of CPU per extra cycle.
const readGCPercent = 25

// deferGC pauses percentage-triggered collection for the read of a file
// of size bytes and returns the function that restores the settings.
// Files under a MiB are left alone: their reads allocate too little to
// matter. Concurrent reads share the pause; the last one out restores.
func deferGC(size int64) (restore func()) { return paceGC(size, -1) }

// paceGC is deferGC with the percentage trigger set to percent instead of
// off (-1 is off), or to the user's GOGC where that is lower, off
// included. Overlapping calls share the saved settings: each sets its
// own percent, the last one out restores the user's.
func paceGC(size int64, percent int) (restore func()) {
	if size < 1<<20 {
		return func() {}
	}
	size = min(size, safeio.CSV.MaxBytes)
	gcPause.Lock()
	defer gcPause.Unlock()
	if gcPause.n == 0 {
		gcPause.prevLimit = debug.SetMemoryLimit(-1) // -1 reads it
		gcPause.limit = 0
	}
	// ReadMemStats stops the world for microseconds, once per large file;
	// runtime/metrics would say the same but costs every process its
	// package init (≈ 0.3 ms, 95 allocations).
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heap := int64(min(ms.HeapAlloc, math.MaxInt64/2))
	gcPause.limit = max(gcPause.limit, min(heap+gcRoomPerByte*size, gcPause.prevLimit))
	debug.SetMemoryLimit(gcPause.limit)
	if gcPause.n == 0 {
		gcPause.percent = debug.SetGCPercent(-1) // -1 reads it (and is restored below)
	}
	if user := gcPause.percent; percent >= 0 && user < percent {
		percent = user // a lower GOGC, or off (-1), is the user's to keep
	}
	debug.SetGCPercent(percent)
	gcPause.n++
	var once sync.Once
	return func() {
		once.Do(func() {
			gcPause.Lock()
			defer gcPause.Unlock()
			if gcPause.n--; gcPause.n == 0 {
				debug.SetGCPercent(gcPause.percent)
				debug.SetMemoryLimit(gcPause.prevLimit)
			}
		})
	}
}

// mergeGCPercent is the collector's percentage while a catalog with a
// large overlay (a file of largeOverlayBytes, 8 MiB, or more) is read, merged,
// checked and indexed, and what a large read's paceGC restores to within
// it. The read leaves ≈ 45 MB live for a 100,000-row SkyPilot overlay and
// the merge allocates about as much again; at a short command's 400 (or
// Go's 100) the heap grew to twice the live one before a cycle: peak RSS
// 94–101 MiB for recommend and offers --json over that overlay (issue 32's
// bound: 100 MB); at 50 (with main's largeGCPercent after the load)
// 71–85 MiB (docs/speed.md, perf45).
const (
	mergeGCPercent = 50
	// largeOverlayBytes is where an overlay counts as large here: the
	// 100,000-row file is 20 MB; the files catalog update writes and
	// hand-written overlays are a few MB at most, whose loads allocate
	// too little for the bound to matter and would only pay the cycles
	// (a 2 MB, 10,000-row CSV: 26 against 29 MiB, CPU alike or worse).
	largeOverlayBytes = 8 << 20
)

// lowerGCForLargeOverlay lowers the collector's percentage to
// mergeGCPercent while paths are loaded when one of them is a large file,
// unless it is lower already (the user's GOGC, off included); it returns
// the function that puts it back.
func lowerGCForLargeOverlay(paths []string) (restore func()) {
	large := false
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Size() >= largeOverlayBytes {
			large = true
			break
		}
	}
	if !large {
		return func() {}
	}
	gcPause.Lock()
	defer gcPause.Unlock()
	prev := debug.SetGCPercent(-1) // -1 reads it (and is set again below)
	p := mergeGCPercent
	if prev < p {
		p = prev // the user's lower GOGC, or off
	}
	debug.SetGCPercent(p)
	return func() {
		gcPause.Lock()
		defer gcPause.Unlock()
		debug.SetGCPercent(prev)
	}
}
