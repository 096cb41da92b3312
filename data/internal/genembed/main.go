// Command genembed compiles the embedded catalog: run by `go generate
// ./data` (in the data directory), it loads catalog/*.toml with the real
// loader (data.GenerateEmbedded) and writes data.EmbeddedFile, so start-up
// decodes no TOML. On a load error it prints the loader's errors, writes
// nothing and exits 1.
package main

import (
	"fmt"
	"os"

	"github.com/gpuplan/gpuplan/data"
)

func main() {
	src, err := data.GenerateEmbedded(os.DirFS("."))
	if err != nil {
		fmt.Fprintln(os.Stderr, "genembed:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(data.EmbeddedFile, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "genembed:", err)
		os.Exit(1)
	}
}
