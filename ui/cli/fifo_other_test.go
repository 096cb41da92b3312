//go:build !unix

package cli

import "errors"

// mkfifo fails: this system has no named pipes in the file system.
func mkfifo(string) error { return errors.New("no FIFOs here") }
