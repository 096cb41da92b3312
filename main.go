// Command gpuplan answers the first question of a deep-learning project:
// which GPU cloud server to rent, whether the model fits, and what it costs.
package main

import (
	"context"
	"io"
	"os"
	"runtime/debug"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/data/hf"
	"github.com/gpuplan/gpuplan/data/update"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/cli"
	"github.com/gpuplan/gpuplan/ui/tui"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3";
// otherwise it comes from the module's build info.
var version = ""

// initOnly, set with -ldflags "-X main.initOnly=1" by
// BenchmarkProcessInitFloor, makes main return before any work: what is
// left is the binary's start (the Go runtime, every package's init).
var initOnly = ""

func main() {
	if initOnly != "" {
		return
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main without os.Exit, so tests can call it with fake streams.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cli.Run(cli.Env{
		Args:        args,
		Stdin:       stdin,
		Stdout:      stdout,
		Stderr:      stderr,
		Getenv:      os.Getenv,
		Version:     buildVersion(),
		LoadCatalog: data.LoadWith,
		Readers:     hf.Readers(),
		RunTUI:      tui.Run,
		UpdateCatalog: func(ctx context.Context, o cli.CatalogUpdate) ([]model.Message, error) {
			var sources []string
			if len(o.Sources) > 0 {
				sources = o.Sources
			}
			var providers []string
			if len(o.Providers) > 0 {
				providers = o.Providers
			}
			// http.DefaultTransport honours HTTPS_PROXY; Run bounds the time.
			sum, err := update.Run(ctx, update.Options{Sources: sources, Providers: providers, Force: o.Force,
				AllowRedirects: o.AllowRedirects, Progress: o.Progress})
			return sum.Lines(), err
		},
		UpdateDir: data.UpdateDir,
		SpotRates: data.SpotRates,
	})
}

func buildVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
