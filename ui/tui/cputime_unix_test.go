//go:build unix

package tui

import (
	"syscall"
	"time"
)

// cpuTime is the process's user and system CPU time: on a loaded
// machine wall time per keystroke says more about the machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
