// Package startup begins, while Go initialises the program's packages,
// the work a command that ranks the catalog will wait on. The runtime
// initialises packages one at a time on one goroutine (the Go spec,
// "Package initialization"): about 2 ms of a 4 ms start on the machine
// this was measured on, with the second core idle. A package init may
// start goroutines, which run there meanwhile; this package is a leaf
// (os alone), so it is initialised among the first, and it tells later
// ones (data) what the command line asks for. Nothing here changes what a
// command does, only when the kernel and the second core do their part.
package startup

import (
	"os"
	"slices"
)

// Ranks reports whether this process's command line names a command that
// loads the catalog whatever its flags, or none (the configurator):
// Loads(os.Args[1:]), read as the package is initialised.
var Ranks = Loads(os.Args[1:])

// catalogCommands are the commands that load the catalog whatever their
// flags; version, help and completion never read it. A flag before the
// command (gpuplan --lang zh recommend) is not looked through: such a
// process starts as version does and loads the catalog when it asks.
var catalogCommands = []string{"estimate", "export", "offers", "plan", "recommend"}

// Loads reports whether args (a command line without the program's name)
// runs a command that loads the catalog whatever its flags, or opens the
// configurator (no arguments).
func Loads(args []string) bool {
	return len(args) == 0 || slices.Contains(catalogCommands, args[0])
}

// CatalogCommands are the commands Loads names, sorted.
func CatalogCommands() []string { return slices.Clone(catalogCommands) }

func init() {
	switch {
	case Ranks && len(os.Args) > 1: // a command that ends in milliseconds
		go func() {
			widenPipe(1) // stdout: its JSON or table, up to 80 MB
			calmSysmon()
			populateHeap()
		}()
	case Ranks: // the configurator: the monitor keeps its priority
		go populateHeap()
	}
}
