package startup

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// The heap a ranking command is about to write, faulted in by the kernel
// ahead of use. Go maps its heap in 4 MB chunks (pallocChunkBytes,
// runtime/mheap.go: mheap.grow maps whole chunks, aligned, each as
// PROT_READ|PROT_WRITE anonymous memory) and hands out their pages lowest
// first; each page's first write then costs a page fault, 2.4–2.7 µs on
// the 2-core VM this was measured on (a Go program writing one byte per
// fresh page). recommend --json writes ≈ 600 more heap pages than version,
// on the core that ranks. madvise(MADV_POPULATE_WRITE) (Linux 5.14,
// madvise(2)) makes the same pages present, zeroed as a first write would
// find them, in one call (≈ 1.8 µs a page), here on the second core while
// the packages initialise.
const (
	// chunkBytes is the runtime's heap chunk (pallocChunkBytes).
	chunkBytes = 4 << 20
	// populateBytes is how far past the next free pages to populate: a
	// little more than recommend --json's ≈ 1.8 MB of heap written after
	// the inits (2.2 MB allocated, the split scan's offer list written
	// only as far as offers are kept; their pages interleave with
	// untouched room), and never past the chunk those pages are in, the
	// only heap mapped for sure. Populating more costs the second core
	// ≈ 1.3 µs a page while the ranking may want it (3 MB: 0.12–0.15 ms
	// slower than 2 MB, interleaved; docs/speed.md, perf47).
	populateBytes = 2 << 20
	// markBytes is a large object's size (over 32 KB): the runtime gives
	// it whole pages of its own, the lowest free run that fits, so its
	// address is where the heap's next pages are.
	markBytes = 40 << 10
)

// mark holds the object whose address locates the heap's next pages.
var mark []byte

// populateHeap populates the heap from its next free pages to the end of
// their chunk, at most populateBytes (populate); the call is advice, so
// its error is dropped.
func populateHeap() { _, _, _ = populate() }

// populate asks the kernel to back [start, end) of the heap: from the
// next free pages to the end of their chunk, at most populateBytes. Only
// an address is kept (a uintptr, never a pointer into pages the runtime
// has not handed out, which its collector would refuse), and the pages'
// contents stay the zeros the runtime expects of fresh memory. An older
// kernel (EINVAL), or pages the runtime has not mapped (ENOMEM), leave
// the heap as it was.
func populate() (start, end uintptr, err error) {
	mark = make([]byte, markBytes)
	start = uintptr(unsafe.Pointer(unsafe.SliceData(mark)))
	mark = nil
	end = min(start+populateBytes, (start+chunkBytes)&^(chunkBytes-1))
	if _, _, e := unix.Syscall(unix.SYS_MADVISE, start, end-start, unix.MADV_POPULATE_WRITE); e != 0 {
		return start, end, e
	}
	return start, end, nil
}
