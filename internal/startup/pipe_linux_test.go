package startup

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// TestWidenPipe: a pipe is raised to pipeBytes (or left as it was when
// the kernel refuses: a user past its pipe pages); a regular file and a
// closed descriptor are left alone, without a panic.
func TestWidenPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	before, err := unix.FcntlInt(w.Fd(), unix.F_GETPIPE_SZ, 0)
	if err != nil {
		t.Fatal(err)
	}
	widenPipe(int(w.Fd()))
	after, err := unix.FcntlInt(w.Fd(), unix.F_GETPIPE_SZ, 0)
	if err != nil {
		t.Fatal(err)
	}
	if after != pipeBytes && after != before {
		t.Errorf("pipe of %d bytes became %d; want %d, or %d when refused", before, after, pipeBytes, before)
	}
	if after != pipeBytes {
		t.Logf("F_SETPIPE_SZ refused here: %d bytes kept", after)
	}
	f, err := os.Create(t.TempDir() + "/out")
	if err != nil {
		t.Fatal(err)
	}
	widenPipe(int(f.Fd()))
	if _, err := f.WriteString("x"); err != nil {
		t.Errorf("a regular file after widenPipe: %v", err)
	}
	f.Close()
	widenPipe(-1)
}
