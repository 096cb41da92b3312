package cli

import (
	"bytes"
	"context"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/tui"
)

// failWriter fails every write as standard output on a full disk or a
// closed descriptor does.
type failWriter struct{ err error }

func (f failWriter) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: "/dev/stdout", Err: f.err}
}

// Every command exits 1 with one line on stderr when writing standard
// output fails, help and version included (attack r29b F3: version,
// help, --help, recommend --help and help recommend exited 0 on
// >/dev/full and >&-); a reader closing the pipe (EPIPE) stays exit 0
// with nothing said.
func TestStdoutWriteFailsExitsOne(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	for _, args := range [][]string{
		{"version"}, {"version", "--json"}, {"--version"}, {"help"}, {"--help"}, {"-h"},
		{"recommend", "--help"}, {"help", "recommend"}, {"catalog", "--help"}, {"completion", "bash"},
		{"catalog", "gpus"}, {"estimate", "--model", "llama-3.1-8b", "--task", "qlora", "--gpu", "l4"},
	} {
		for _, tc := range []struct {
			errno  syscall.Errno
			code   int
			stderr string
		}{
			{syscall.ENOSPC, 1, "gpuplan: write /dev/stdout: no space left on device\n"},
			{syscall.EBADF, 1, "gpuplan: write /dev/stdout: bad file descriptor\n"},
			{syscall.EPIPE, 0, ""},
		} {
			var errb bytes.Buffer
			code := Run(Env{Args: args, Stdin: strings.NewReader(""), Stdout: failWriter{tc.errno}, Stderr: &errb,
				Getenv: func(string) string { return "" }, Version: "test", LoadCatalog: data.LoadWith,
				RunTUI: func(context.Context, *model.Catalog, tui.Options) error { return nil }})
			if code != tc.code || errb.String() != tc.stderr {
				t.Errorf("%v, %v: exit %d, stderr %q; want %d, %q", args, tc.errno, code, errb.String(), tc.code, tc.stderr)
			}
		}
	}
}
