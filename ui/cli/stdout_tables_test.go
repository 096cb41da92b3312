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

// failAfterWrites lets n writes through, then fails every write as a disk that
// fills up mid-table does.
type failAfterWrites struct {
	n   int
	err error
	out bytes.Buffer
}

func (f *failAfterWrites) Write(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, &os.PathError{Op: "write", Path: "/dev/stdout", Err: f.err}
	}
	f.n--
	return f.out.Write(p)
}

// The tables of offers and catalog (instances, gpus, models) exit 1 with
// one line when their output is lost, from the first write or from a
// later one (the lines under the table), as --json, -o csv and recommend
// do (walk: `offers > /dev/full` and `offers H100:8 >&-` exited 0).
func TestTableStdoutWriteFailsExitsOne(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	for _, args := range [][]string{
		{"offers"}, {"offers", "H100:8"}, {"offers", "H100", "--group-by", "provider"}, {"offers", "-o", "wide"},
		{"catalog", "instances"}, {"catalog", "instances", "H100:8"}, {"catalog", "gpus"}, {"catalog", "models"},
	} {
		for _, after := range []int{0, 1} {
			if after > 0 && args[len(args)-1] == "models" { // one write: the table, nothing under it at a pipe's width
				continue
			}
			for _, errno := range []syscall.Errno{syscall.ENOSPC, syscall.EBADF} {
				var errb bytes.Buffer
				w := &failAfterWrites{n: after, err: errno}
				code := Run(Env{Args: args, Stdin: strings.NewReader(""), Stdout: w, Stderr: &errb,
					Getenv: func(string) string { return "" }, Version: "test", LoadCatalog: data.LoadWith,
					RunTUI: func(context.Context, *model.Catalog, tui.Options) error { return nil }})
				want := "gpuplan: write /dev/stdout: " + errno.Error() + "\n"
				if code != 1 || !strings.HasSuffix(errb.String(), want) {
					t.Errorf("%v, failing after %d writes, %v: exit %d, stderr %q; want 1 and %q", args, after, errno, code, errb.String(), want)
				}
			}
		}
	}
}
