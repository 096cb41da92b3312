//go:build unix

package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestClosedPipeExitsZero (issue 31 item 10): `gpuplan offers | head -3`
// exited 141 (killed by SIGPIPE) once head closed the pipe, where a
// reader that has seen enough is not an error. Every table command ends
// with status 0 and nothing on stderr when its reader goes away early:
// after three lines of an output larger than a pipe's buffer (64 KiB on
// Linux, so the write is still waiting when the reader goes), or before
// a line (`| true`).
func TestClosedPipeExitsZero(t *testing.T) {
	bin := buildBinary(t)
	for _, tt := range []struct {
		args  string
		lines int // read before closing; 0 closes at once
	}{
		{"offers --all-regions", 3}, // 130 kB
		{"offers --all-regions --json", 3},
		{"offers", 0},
		{"recommend --model resnet50 --dataset-samples 1.28M --limit 0", 0},
		{"catalog instances", 0},
	} {
		t.Run(tt.args, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			cmd := exec.Command(bin, strings.Fields(tt.args)...)
			cmd.Stdout, cmd.Stderr = w, &stderr
			cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir(), "LANG=C")
			if tt.lines == 0 {
				r.Close() // nobody reads: the first write fails
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			w.Close()
			if tt.lines > 0 {
				sc := bufio.NewScanner(r)
				for i := 0; i < tt.lines && sc.Scan(); i++ { // head -3
				}
				r.Close()
			}
			if err := cmd.Wait(); err != nil {
				t.Errorf("gpuplan %s | head -%d: %v, want exit status 0; stderr %q", tt.args, tt.lines, err, stderr.String())
			}
			if e := stderr.String(); strings.Contains(e, "pipe") || strings.Contains(e, "write") {
				t.Errorf("gpuplan %s | head -%d complained: %q", tt.args, tt.lines, e)
			}
		})
	}
}
