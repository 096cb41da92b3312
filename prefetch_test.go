package main

import (
	"io"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/ui/cli"
)

// TestUsesCatalogNamesCommands holds main's prefetch list to the command
// line: each name is a command of its own (its help is its own usage, not
// the root's "unknown command"); the commands that never read it are not
// on it.
func TestUsesCatalogNamesCommands(t *testing.T) {
	if len(usesCatalog) == 0 {
		t.Fatal("usesCatalog is empty")
	}
	for name := range usesCatalog {
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
		if usesCatalog[name] {
			t.Errorf("%s never reads the catalog: it should not prefetch it", name)
		}
	}
}
