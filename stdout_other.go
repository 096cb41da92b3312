//go:build !unix

package main

import (
	"io"
	"os"
)

// closedStdout is os.Stdout: the check for a standard output closed at
// start is Unix's (stdout_unix.go).
func closedStdout() io.Writer { return os.Stdout }
