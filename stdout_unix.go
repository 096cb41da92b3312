//go:build unix

package main

import (
	"io"
	"os"
	"syscall"
)

// closedStdout returns a writer for os.Stdout that fails every write with
// EBADF when the process started with standard output closed
// (`gpuplan recommend … >&-`), else os.Stdout. The Go runtime opens
// /dev/null read-write in place of a closed standard descriptor
// (runtime.checkfds), so the output went nowhere and the command exited
// 0 (attack r29), where writing to /dev/full exits 1. A shell's
// `>/dev/null` opens it write-only, so that stays a normal, silent run;
// only /dev/null opened read-write on descriptor 1 reads as closed.
func closedStdout() io.Writer {
	fl, _, errno := syscall.Syscall(syscall.SYS_FCNTL, 1, syscall.F_GETFL, 0)
	if errno != 0 || fl&syscall.O_ACCMODE != syscall.O_RDWR {
		return os.Stdout
	}
	var st, null syscall.Stat_t
	if syscall.Fstat(1, &st) != nil || syscall.Stat(os.DevNull, &null) != nil || st.Rdev != null.Rdev || st.Ino != null.Ino || st.Dev != null.Dev {
		return os.Stdout
	}
	return badStdout{}
}

// badStdout is standard output that was closed: every write fails as a
// write to a closed descriptor does.
type badStdout struct{}

func (badStdout) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.EBADF}
}
