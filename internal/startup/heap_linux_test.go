package startup

import (
	"errors"
	"runtime"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestPopulate: the range populate names lies in one heap chunk, starts
// at pages the runtime has not handed out yet, and is resident after the
// call (mincore); the heap goes on working, through a collection, with
// those pages handed out after.
func TestPopulate(t *testing.T) {
	start, end, err := populate()
	if errors.Is(err, unix.EINVAL) {
		t.Skip("kernel without MADV_POPULATE_WRITE (Linux < 5.14)")
	}
	if err != nil {
		t.Fatalf("populate [%#x, %#x): %v", start, end, err)
	}
	if end <= start || end-start > populateBytes || start/chunkBytes != (end-1)/chunkBytes {
		t.Fatalf("populate [%#x, %#x): want at most %d bytes within one %d-byte chunk", start, end, populateBytes, chunkBytes)
	}
	page := uintptr(unix.Getpagesize())
	lo := start &^ (page - 1)
	vec := make([]byte, (end-lo+page-1)/page)
	if _, _, e := unix.Syscall(unix.SYS_MINCORE, lo, end-lo, uintptr(unsafe.Pointer(unsafe.SliceData(vec)))); e != 0 {
		t.Fatalf("mincore: %v", e)
	}
	for i, v := range vec {
		if v&1 == 0 {
			t.Fatalf("page %d of %d (%#x) not resident after populate", i, len(vec), lo+uintptr(i)*page)
		}
	}
	// The pages are the runtime's to hand out, zeroed: allocate across
	// them, collect, and read back.
	var keep [][]byte
	for range 64 {
		b := make([]byte, 48<<10)
		for _, c := range b {
			if c != 0 {
				t.Fatal("fresh allocation not zeroed")
			}
		}
		b[0] = 1
		keep = append(keep, b)
	}
	runtime.GC()
	for _, b := range keep {
		if b[0] != 1 {
			t.Fatal("allocation lost its contents across a collection")
		}
	}
}
