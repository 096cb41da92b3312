//go:build !linux

package startup

// populateHeap is Linux's (MADV_POPULATE_WRITE); elsewhere pages fault in
// as they are first written.
func populateHeap() {}
