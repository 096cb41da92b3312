package startup

import "golang.org/x/sys/unix"

// pipeBytes is the capacity widenPipe asks for: Linux's default ceiling
// for an unprivileged process (/proc/sys/fs/pipe-max-size, 1 MiB; pipe(7)).
const pipeBytes = 1 << 20

// widenPipe raises the capacity of the pipe on fd to pipeBytes, when fd
// is a pipe (pipe(7), "Pipe capacity": F_SETPIPE_SZ; 64 KiB by default).
// recommend --json over the embedded catalog writes 1.2 MB: into a
// 64 KiB pipe each of its 19 writes of ~64 KiB waits for the reader to
// drain the one before, ≈ 0.7 ms of an 8 ms command on the 2-core VM
// this was measured on (docs/speed.md, perf47); a 1 MiB pipe takes most
// of it at once while the reader reads. What is written, and when the
// reader sees it, is the same. The kernel refuses a size over the
// ceiling or past the user's pipe pages (EPERM): the pipe then stays as
// it was. Nothing here blocks.
func widenPipe(fd int) {
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFIFO {
		return
	}
	if n, err := unix.FcntlInt(uintptr(fd), unix.F_GETPIPE_SZ, 0); err != nil || n >= pipeBytes {
		return
	}
	_, _ = unix.FcntlInt(uintptr(fd), unix.F_SETPIPE_SZ, pipeBytes)
}
