//go:build unix

package main

import (
	"os"
	"syscall"
	"time"
)

// cpuTime is the process's user + system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakRSS is the finished process's peak resident set in KiB (getrusage's
// ru_maxrss: KiB on Linux, bytes on macOS, so the figure is Linux's).
func peakRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Maxrss)
	}
	return 0
}

// selfPeakRSS is this test process's own peak resident set in KiB. A
// child started by os/exec shares this process's memory until it execs
// (vfork), and Linux counts that in the child's ru_maxrss: a child peak
// at or below this figure is this process's, not the child's.
func selfPeakRSS() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return int64(ru.Maxrss)
}
