//go:build unix

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// A command run with standard output closed (`>&-`) exits 1 with one
// line on stderr, as a write to /dev/full does: the Go runtime put
// /dev/null read-write in its place, so the output was lost and the
// command exited 0 (attack r29). Output sent to /dev/null by the shell
// (write-only) is a normal run, exit 0; a reader closing the pipe early
// stays TestClosedPipeExitsZero's.
func TestClosedStdoutExitsOne(t *testing.T) {
	bin := buildBinary(t)
	args := []string{"recommend", "--model", "llama-3.1-8b", "--json"}
	for _, tt := range []struct {
		name, redirect string
		code           int
	}{
		{"closed", ">&-", 1},
		{"/dev/null", ">/dev/null", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			cmd := exec.Command("sh", append([]string{"-c", `exec "$0" "$@" ` + tt.redirect, bin}, args...)...)
			cmd.Stderr = &stderr
			cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir(), "LANG=C")
			err := cmd.Run()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			e := stderr.String()
			if code != tt.code {
				t.Errorf("%s: exit %d, want %d; stderr %q", tt.redirect, code, tt.code, e)
			}
			if tt.code == 1 && (e != "gpuplan: write /dev/stdout: bad file descriptor\n") {
				t.Errorf("%s: stderr %q, want one line saying the write failed", tt.redirect, e)
			}
			if tt.code == 0 && strings.Contains(e, "write") {
				t.Errorf("%s: stderr %q", tt.redirect, e)
			}
		})
	}
}
