package main

import (
	"io"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/internal/startup"
	"github.com/gpuplan/gpuplan/ui/cli"
)

// TestUsesCatalogNamesCommands holds the start-up's list of commands that
// load the catalog (internal/startup) to the command line: each name is a
// command of its own (its help is its own usage, not the root's "unknown
// command"); the commands that never read it are not on it.
func TestUsesCatalogNamesCommands(t *testing.T) {
	names := startup.CatalogCommands()
	if len(names) == 0 {
		t.Fatal("no command loads the catalog")
	}
	for _, name := range names {
		var out strings.Builder
		code := cli.Run(cli.Env{Args: []string{name, "--help"}, Stdin: strings.NewReader(""), Stdout: &out, Stderr: io.Discard})
		if code != 0 {
			t.Errorf("%s --help: exit %d", name, code)
			continue
		}
		if !strings.Contains(out.String(), "gpuplan "+name) {
			t.Errorf("%s --help is not its own usage:\n%s", name, out.String())
		}
	}
	for _, name := range []string{"version", "help", "completion"} {
		if startup.Loads([]string{name}) {
			t.Errorf("%s never reads the catalog: it should not prefetch it", name)
		}
	}
}
