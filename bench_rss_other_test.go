//go:build !unix

package main

import (
	"os"
	"time"
)

// cpuTime is unknown here (no getrusage); cpu-ns/op reads 0.
func cpuTime() time.Duration { return 0 }

// peakRSS is unknown here (no getrusage); benchmarks report 0 peak-MiB.
func peakRSS(*os.ProcessState) int64 { return 0 }

// selfPeakRSS is unknown here.
func selfPeakRSS() int64 { return 0 }
