package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/shlex"
)

var updateREADME = flag.Bool("update-readme", false, "rewrite the README's command samples with what the commands print")

// readmeCommand is one "$ gpuplan …" line of a console block (continued
// with \), and the output lines after it up to the next "$ ".
type readmeCommand struct {
	lines []string // the command as written, with its continuation lines
	args  []string
	want  []string
}

// parseBlock splits a console block into its commands; ok is false when a
// command is not gpuplan alone (another program, a pipe or a redirection).
func parseBlock(body string) (cmds []readmeCommand, ok bool) {
	lines := strings.Split(strings.TrimRight(body, "\n"), "\n")
	for i := 0; i < len(lines); {
		if !strings.HasPrefix(lines[i], "$ ") {
			return nil, false // output before the first command
		}
		var c readmeCommand
		cmd := ""
		for ; i < len(lines); i++ {
			c.lines = append(c.lines, lines[i])
			cmd += strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(lines[i], "$ ")), "\\") + " "
			if !strings.HasSuffix(strings.TrimSpace(lines[i]), "\\") {
				i++
				break
			}
		}
		args, err := shlex.Split(cmd)
		if err != nil || len(args) < 2 || args[0] != "gpuplan" || strings.ContainsAny(cmd, "|<>;&`$") {
			return nil, false
		}
		c.args = args
		for ; i < len(lines) && !strings.HasPrefix(lines[i], "$ "); i++ {
			c.want = append(c.want, lines[i])
		}
		cmds = append(cmds, c)
	}
	return cmds, len(cmds) > 0
}

// TestREADMESamples keeps the README honest: every ``` block made of
// "$ gpuplan …" commands (continued with \), each followed by what it
// prints, is run, one command after another in a scratch directory (so
// -o FILE writes there). A command that succeeds must print its sample on
// stdout; one that fails (exit 2, a usage error) on stderr. Tables are laid
// out as on a terminal 200 columns wide. Regenerate with
// go test . -run README -update-readme.
func TestREADMESamples(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_DATA_HOME", t.TempDir()) // no catalog update results
	t.Setenv("NO_COLOR", "1")
	t.Setenv("COLUMNS", "200")
	// The README's samples are English whatever the machine's locale
	// (reports follow LC_ALL/LC_MESSAGES/LANG, ui/i18n.Detect).
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", "C.UTF-8")
	blocks := strings.Split(string(b), "```")
	checked := 0
	for i := 1; i < len(blocks); i += 2 {
		body := strings.TrimPrefix(blocks[i], "console")
		body = strings.TrimPrefix(body, "\n")
		if !strings.HasPrefix(body, "$ gpuplan ") {
			continue
		}
		cmds, ok := parseBlock(body)
		if !ok {
			t.Errorf("README block %q is not all gpuplan commands with their output; make it so or show it without \"$ gpuplan\"", strings.SplitN(body, "\n", 2)[0])
			continue
		}
		dir := t.TempDir()
		// Samples may read the shipped examples (docs/examples/…) but
		// write only into the scratch directory.
		if err := os.CopyFS(filepath.Join(dir, "docs", "examples"), os.DirFS(filepath.Join("docs", "examples"))); err != nil {
			t.Fatal(err)
		}
		var rewritten []string
		for _, c := range cmds {
			t.Run(strings.Join(c.args[1:min(len(c.args), 4)], " "), func(t *testing.T) {
				t.Chdir(dir)
				var out, errb bytes.Buffer
				code := run(c.args[1:], strings.NewReader(""), &out, &errb)
				got := trimLines(out.String())
				if code != 0 {
					got = trimLines(errb.String())
				}
				rewritten = append(rewritten, strings.Join(c.lines, "\n")+"\n"+got)
				if *updateREADME {
					return
				}
				if got != trimLines(strings.Join(c.want, "\n")) {
					t.Errorf("README sample for %q is stale (exit %d); the command prints:\n%s", strings.Join(c.args, " "), code, got)
				}
			})
			checked++
		}
		if *updateREADME && len(rewritten) == len(cmds) {
			prefix := blocks[i][:len(blocks[i])-len(body)] // language tag and newline
			blocks[i] = prefix + strings.Join(rewritten, "\n") + "\n"
		}
	}
	if checked < 8 {
		t.Errorf("checked %d README commands, want at least 8", checked)
	}
	if *updateREADME {
		if err := os.WriteFile("README.md", []byte(strings.Join(blocks, "```")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestParseBlock: a block with several commands gives each its output; a
// block with another program or a pipe is not run.
func TestParseBlock(t *testing.T) {
	cmds, ok := parseBlock("$ gpuplan a \\\n    --b c\nout 1\nout 2\n$ gpuplan d\nerr\n")
	if !ok || len(cmds) != 2 || strings.Join(cmds[0].args, " ") != "gpuplan a --b c" || strings.Join(cmds[0].want, "|") != "out 1|out 2" ||
		strings.Join(cmds[1].args, " ") != "gpuplan d" || strings.Join(cmds[1].want, "|") != "err" {
		t.Errorf("parseBlock: %+v, %v", cmds, ok)
	}
	for _, body := range []string{"$ gpuplan catalog instances --json | jq .\n[]\n", "$ gpuplan export -o a.yaml\n$ sky launch a.yaml\n", "output first\n$ gpuplan x\n"} {
		if _, ok := parseBlock(body); ok {
			t.Errorf("parseBlock(%q) should refuse", body)
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
