//go:build !linux

package startup

// widenPipe is Linux's (F_SETPIPE_SZ); elsewhere a pipe keeps its size.
func widenPipe(int) {}
