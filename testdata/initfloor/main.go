// Command initfloor links every package gpuplan's main links and does
// nothing: its start is the floor under every gpuplan command (the Go
// runtime, then every package's initialisation), measured by
// BenchmarkProcessInitFloor.
package main

import (
	_ "github.com/gpuplan/gpuplan/data"
	_ "github.com/gpuplan/gpuplan/data/hf"
	_ "github.com/gpuplan/gpuplan/data/update"
	_ "github.com/gpuplan/gpuplan/ui/cli"
	_ "github.com/gpuplan/gpuplan/ui/tui"
)

func main() {}
