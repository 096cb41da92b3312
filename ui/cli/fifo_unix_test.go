//go:build unix

package cli

import "syscall"

// mkfifo makes a named pipe, to check that export replaces only regular files.
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
