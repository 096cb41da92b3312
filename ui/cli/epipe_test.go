package cli

import (
	"bytes"
	"context"
	"strings"
	"syscall"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/tui"
)

// closedPipe is stdout after the reader went away: every write fails
// with EPIPE, as a write does once SIGPIPE is ignored (main.go).
type closedPipe struct{}

func (closedPipe) Write([]byte) (int, error) { return 0, syscall.EPIPE }

// Issue 31 item 10: a reader that closes the pipe early (| head -3) is
// not an error: status 0 and no line on stderr, whether the command
// stops at the failed write or writes on.
func TestClosedStdoutExitsZero(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	for _, args := range [][]string{
		{"offers"},
		{"offers", "--json"},
		{"recommend", "--model", "resnet50", "--dataset-samples", "1.28M"},
		{"recommend", "--model", "resnet50", "--dataset-samples", "1.28M", "--json"},
		{"estimate", "--model", "llama-3.1-8b"},
		{"catalog", "gpus"},
	} {
		var errb bytes.Buffer
		code := Run(Env{Args: args, Stdin: strings.NewReader(""), Stdout: closedPipe{}, Stderr: &errb,
			Getenv: func(string) string { return "" }, Version: "test", LoadCatalog: data.LoadWith,
			RunTUI: func(context.Context, *model.Catalog, tui.Options) error { return nil }})
		if code != ExitOK || strings.Contains(errb.String(), "pipe") {
			t.Errorf("gpuplan %s on a closed pipe: exit %d, stderr %q; want 0 and no complaint", strings.Join(args, " "), code, errb.String())
		}
	}
}
