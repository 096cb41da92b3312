package report

import "io"

// errWriter keeps the first error its writes meet, so that a report
// written in many small prints (a table, then the lines under it) can
// return it once at the end: output lost to a full disk (>/dev/full:
// ENOSPC) or a closed descriptor (>&-: EBADF) makes the command exit 1
// with one line, as --json and -o csv do, never 0 (walk: `offers >
// /dev/full` exited 0). Writes after an error still go through, as
// fmt's do: the first error is the one reported.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	n, err := e.w.Write(p)
	if err != nil && e.err == nil {
		e.err = err
	}
	return n, err
}
