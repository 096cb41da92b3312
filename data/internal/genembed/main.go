// Command genembed compiles the embedded catalog: run by `go generate
// ./data` (in the data directory), it loads catalog/*.toml with the real
// loader (data.LoadTOML) and writes embedgen.File, and the spot
// defaults (data.SpotDefaultsTOML) into embedgen.SpotFile, so start-up
// decodes no TOML. On a load error it prints the loader's errors, writes nothing and
// exits 1.
package main

import (
	"fmt"
	"os"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/data/internal/embedgen"
)

func main() {
	c, err := data.LoadTOML(os.DirFS("."))
	if err == nil {
		var src []byte
		if src, err = embedgen.Source(c); err == nil {
			err = os.WriteFile(embedgen.File, src, 0o644)
		}
	}
	if err == nil {
		var src []byte
		providers, fallback, serr := data.SpotDefaultsTOML()
		if err = serr; err == nil {
			if src, err = embedgen.SpotSource(providers, fallback); err == nil {
				err = os.WriteFile(embedgen.SpotFile, src, 0o644)
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genembed:", err)
		os.Exit(1)
	}
}
