//go:build unix

package launch_test

import "syscall"

// processAlive reports whether pid still runs (signal 0 probes it).
func processAlive(pid int) bool { return syscall.Kill(pid, 0) == nil }
