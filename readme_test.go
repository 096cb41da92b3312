package main

import (
	"bytes"
	"flag"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/shlex"
)

var updateREADME = flag.Bool("update-readme", false, "rewrite the README's command samples with what the commands print")

// TestREADMESamples keeps the README honest: every ``` block that starts
// with one "$ gpuplan …" command (continued with \) and writes no file is
// run, and its output must be the rest of the block. Regenerate a sample
// by running its command, or all of them with go test . -run README -update-readme.
func TestREADMESamples(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(string(b), "```")
	checked := 0
	for i := 1; i < len(blocks); i += 2 {
		body := strings.TrimPrefix(blocks[i], "console")
		body = strings.TrimPrefix(body, "\n")
		if !strings.HasPrefix(body, "$ gpuplan ") || strings.Count(body, "\n$ ") > 0 {
			continue
		}
		lines := strings.Split(body, "\n")
		cmd := ""
		n := 0
		for ; n < len(lines); n++ {
			l := strings.TrimPrefix(lines[n], "$ ")
			cmd += strings.TrimSuffix(strings.TrimSpace(l), "\\") + " "
			if !strings.HasSuffix(strings.TrimSpace(lines[n]), "\\") {
				break
			}
		}
		args, err := shlex.Split(cmd)
		if err != nil || len(args) < 2 || slices.Contains(args, "-o") {
			continue
		}
		want := strings.Join(lines[n+1:], "\n")
		t.Run(strings.Join(args[1:min(len(args), 4)], " "), func(t *testing.T) {
			t.Setenv("XDG_CONFIG_HOME", t.TempDir())
			t.Setenv("XDG_DATA_HOME", t.TempDir()) // no catalog update results
			t.Setenv("NO_COLOR", "1")
			var out, errb bytes.Buffer
			if code := run(args[1:], strings.NewReader(""), &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			got := trimLines(out.String())
			if *updateREADME {
				prefix := blocks[i][:len(blocks[i])-len(body)] // language tag and newline
				blocks[i] = prefix + strings.Join(lines[:n+1], "\n") + "\n" + got + "\n"
				return
			}
			if got != trimLines(want) {
				t.Errorf("README sample for %q is stale; the command prints:\n%s", cmd, got)
			}
		})
		checked++
	}
	if checked < 4 {
		t.Errorf("checked %d README samples, want at least 4", checked)
	}
	if *updateREADME {
		if err := os.WriteFile("README.md", []byte(strings.Join(blocks, "```")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func trimLines(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}
