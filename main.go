// Command gpuplan answers the first question of a deep-learning project:
// which GPU cloud server to rent, whether the model fits, and what it costs.
package main

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/data/hf"
	"github.com/gpuplan/gpuplan/data/probes"
	"github.com/gpuplan/gpuplan/data/update"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/probe"
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
	// A reader that closes the pipe early (gpuplan offers | head -3) has
	// read what it wanted: writes then fail with EPIPE, which the command
	// line ends on with status 0, instead of SIGPIPE killing the process
	// (status 141).
	signal.Ignore(syscall.SIGPIPE)
	shortGC()
	os.Exit(run(os.Args[1:], os.Stdin, closedStdout(), os.Stderr))
}

// shortGCPercent paces the collector of a command over a small catalog.
// Such a command allocates a few MB and ends: at Go's default 100 the
// heap's 4 MB starting goal is near, and the runtime returns and touches
// again pages it would have kept (recommend --json: 1,610 page faults and
// 17.5 ms CPU at 100, 1,330 and 13.8 ms at 400, no collection at either).
// The configurator, which stays, goes back to the default; a large
// catalog (largeCatalog instance types, an overlay of SkyPilot's size) to
// largeGCPercent.
//
// After a large catalog is read, a short command keeps it live (≈ 45 MB
// for a 100,000-row SkyPilot overlay) and the ranking or the listing
// allocates about as much again, so at Go's 100 the heap grew to twice
// the live one before a cycle: peak RSS 94–101 MiB for recommend and
// offers --json over that overlay (issue 32's bound: 100 MB). At
// largeGCPercent (and data's lowerGCForLargeOverlay during the load),
// 71–85 MiB, recommend faster, offers ≈ 10% more CPU (docs/speed.md,
// perf45).
const (
	shortGCPercent = 400
	largeCatalog   = 20_000
	largeGCPercent = 50
)

// gcDefault is the collector's percentage before shortGC: Go's 100 or
// the user's GOGC.
var gcDefault = -1

// shortGC raises the collector's percentage for the command unless the
// user set GOGC.
func shortGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		gcDefault = debug.SetGCPercent(shortGCPercent)
	}
}

// restoreGC puts the collector's percentage back (a large catalog, the
// configurator).
func restoreGC() {
	if gcDefault >= 0 {
		debug.SetGCPercent(gcDefault)
		gcDefault = -1
	}
}

// largeGC sets the collector's percentage for a short command over a
// large catalog (largeGCPercent) unless the user set GOGC.
func largeGC() {
	if gcDefault >= 0 {
		debug.SetGCPercent(min(largeGCPercent, gcDefault))
		gcDefault = -1
	}
}

// run is main without os.Exit, so tests can call it with fake streams.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cli.Run(cli.Env{
		Args:    args,
		Stdin:   stdin,
		Stdout:  stdout,
		Stderr:  stderr,
		Getenv:  os.Getenv,
		Version: buildVersion(),
		LoadCatalog: func(overlays []string) (*model.Catalog, []model.Message, error) {
			cat, warnings, err := data.LoadWith(overlays)
			if cat != nil && len(cat.Instances) >= largeCatalog {
				largeGC()
			}
			return cat, warnings, err
		},
		Readers: hf.Readers(),
		RunTUI: func(ctx context.Context, cat *model.Catalog, opts tui.Options) error {
			restoreGC()
			return tui.Run(ctx, cat, opts)
		},
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
		Probes:    keptProbes(),
	})
}

// keptProbes wires data/probes into the command line: probe results read
// bounded, the user's runs kept under the XDG data directory.
func keptProbes() *cli.Probes {
	return &cli.Probes{
		ReadResult: probes.ReadResult,
		Dir:        probes.Dir,
		Keep: func(dir string, s *probe.Suite, r *probe.Result) (string, bool, error) {
			path, err := probes.Keep(dir, s, r)
			if errors.Is(err, probes.ErrKept) {
				return path, true, nil
			}
			return path, false, err
		},
		Load: probes.Load,
	}
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
