//go:build unix

package safeio

import "syscall"

// openFlags makes open(2) of a FIFO return at once instead of waiting for
// a writer; it does not change reads of regular files.
const openFlags = syscall.O_NONBLOCK
