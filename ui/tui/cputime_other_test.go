//go:build !unix

package tui

import "time"

// cpuTime is unknown here (no getrusage); benchmarks report 0 CPU time.
func cpuTime() time.Duration { return 0 }
