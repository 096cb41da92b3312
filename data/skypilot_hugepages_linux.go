//go:build linux

package data

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePageBytes is the size of a transparent huge page on x86-64 and on
// arm64 with 4 KiB pages.
const hugePageBytes = 2 << 20

// adviseHugePages asks Linux to back s's array with transparent huge
// pages (madvise MADV_HUGEPAGE) before it is first written. Go's heap
// leaves that to the system setting, which is "madvise" on many machines
// (Go's GC guide, "Linux transparent huge pages"), so a fresh 40 MB array
// is otherwise faulted in 4 KiB at a time: 10,000 faults at ≈13 µs each
// on the 2-core VM of docs/speed.md, ≈20 faults of 2 MiB
// with the advice.
//
// The range is rounded out to whole huge pages: the advice changes how
// memory is paged, never its content, and a neighbour that is already
// resident just keeps its small pages. The address goes to the system
// call as a number, never as a Go pointer outside s. An error (an old
// kernel, huge pages off) leaves the pages small. Use it on arrays that
// will be written whole, as a huge page is backed whole once touched.
func adviseHugePages[T any](s []T) {
	n := uintptr(cap(s)) * unsafe.Sizeof(*new(T))
	if n < hugePageBytes {
		return
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	beg := p &^ (hugePageBytes - 1)
	end := (p + n + hugePageBytes - 1) &^ (hugePageBytes - 1)
	_, _, _ = unix.Syscall(unix.SYS_MADVISE, beg, end-beg, unix.MADV_HUGEPAGE)
}
