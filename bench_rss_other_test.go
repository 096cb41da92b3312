//go:build !unix

package main

import "os"

// peakRSS is unknown here (no getrusage); benchmarks report 0 peak-MiB.
func peakRSS(*os.ProcessState) int64 { return 0 }
