//go:build !unix

package probes_test

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs on this system") }
