package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

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

// manualFiles are the Markdown files of the manual, whose samples
// TestREADMESamples runs: the README and every page of docs/.
func manualFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs/*.md pages (%v)", err)
	}
	return append([]string{"README.md"}, docs...)
}

// TestREADMESamples keeps the README and docs/ honest: every ``` block
// made of "$ gpuplan …" commands (continued with \), each followed by what
// it prints, is run, one command after another in a scratch directory (so
// -o FILE writes there). A command that succeeds must print its sample on
// stdout; one that fails (exit 2, a usage error) on stderr. Tables are laid
// out as on a terminal 200 columns wide. The README must show estimate,
// recommend and export. Regenerate with go test . -run README -update-readme.
func TestREADMESamples(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_DATA_HOME", t.TempDir()) // no catalog update results
	t.Setenv("NO_COLOR", "1")
	t.Setenv("COLUMNS", "200")
	// The samples are English whatever the machine's locale (reports
	// follow LC_ALL/LC_MESSAGES/LANG, ui/i18n.Detect); the Chinese page's
	// samples ask for Chinese with --lang zh-CN.
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", "C.UTF-8")
	checked := 0
	for _, file := range manualFiles(t) {
		t.Run(file, func(t *testing.T) {
			cmds := checkSamples(t, file)
			checked += len(cmds)
			if file != "README.md" {
				return
			}
			for _, want := range []string{"estimate", "recommend", "export"} {
				if !slices.ContainsFunc(cmds, func(c readmeCommand) bool { return slices.Contains(c.args, want) }) {
					t.Errorf("the README shows no checked gpuplan %s sample; a newcomer needs one", want)
				}
			}
		})
	}
	if checked < 8 {
		t.Errorf("checked %d README and docs commands, want at least 8", checked)
	}
}

// checkSamples runs the console samples of one Markdown file (see
// TestREADMESamples) and returns the commands it ran; with -update-readme
// it rewrites the file with what they print.
func checkSamples(t *testing.T, file string) []readmeCommand {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(string(b), "```")
	var all []readmeCommand
	for i := 1; i < len(blocks); i += 2 {
		body := strings.TrimPrefix(blocks[i], "console")
		body = strings.TrimPrefix(body, "\n")
		if !strings.HasPrefix(body, "$ gpuplan ") {
			continue
		}
		cmds, ok := parseBlock(body)
		if !ok {
			t.Errorf("%s block %q is not all gpuplan commands with their output; make it so or show it without \"$ gpuplan\"", file, strings.SplitN(body, "\n", 2)[0])
			continue
		}
		dir := t.TempDir()
		// Samples may read the shipped examples (docs/examples/…) but
		// write only into the scratch directory.
		if err := os.CopyFS(filepath.Join(dir, "docs", "examples"), os.DirFS(filepath.Join(root, "docs", "examples"))); err != nil {
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
					t.Errorf("%s sample for %q is stale (exit %d); the command prints:\n%s", file, strings.Join(c.args, " "), code, got)
				}
			})
		}
		all = append(all, cmds...)
		if *updateREADME && len(rewritten) == len(cmds) {
			prefix := blocks[i][:len(blocks[i])-len(body)] // language tag and newline
			blocks[i] = prefix + strings.Join(rewritten, "\n") + "\n"
		}
	}
	if *updateREADME {
		if err := os.WriteFile(file, []byte(strings.Join(blocks, "```")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return all
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

// mdLink matches a Markdown link's target: [text](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestManualLinks: every relative link of the README and docs/ names a
// file that exists and, after #, a heading of that file (as GitHub spells
// its anchors), and the README links every docs/ page, so moving a section
// cannot leave a dangling link or an orphan page.
func TestManualLinks(t *testing.T) {
	files := manualFiles(t)
	anchors := map[string]map[string]bool{}
	text := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text[f] = string(b)
		anchors[f] = headingAnchors(string(b))
	}
	for _, f := range files {
		for _, m := range mdLink.FindAllStringSubmatch(withoutCode(text[f]), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			dest := f
			if path != "" {
				dest = filepath.Clean(filepath.Join(filepath.Dir(f), path))
				if _, err := os.Stat(dest); err != nil {
					t.Errorf("%s links %q: %v", f, target, err)
					continue
				}
			}
			if anchor == "" {
				continue
			}
			if a, ok := anchors[dest]; !ok {
				t.Errorf("%s links %q: an anchor in a file that is not part of the manual", f, target)
			} else if !a[anchor] {
				t.Errorf("%s links %q: %s has no heading with that anchor", f, target, dest)
			}
		}
	}
	for _, f := range files[1:] {
		if !strings.Contains(text["README.md"], "]("+filepath.ToSlash(f)) {
			t.Errorf("the README does not link %s", f)
		}
	}
}

// headingAnchors returns the anchors GitHub gives the headings of a
// Markdown text: lower case, letters, digits, '-' and '_' kept, spaces
// turned into '-', everything else dropped; a repeated anchor gets -1, -2….
func headingAnchors(md string) map[string]bool {
	out := map[string]bool{}
	for _, line := range strings.Split(withoutCode(md), "\n") {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		title := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(title) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		for i := 1; out[a]; i++ {
			a = fmt.Sprintf("%s-%d", b.String(), i)
		}
		out[a] = true
	}
	return out
}

// withoutCode blanks the ``` blocks of a Markdown text, whose lines are
// neither headings nor links.
func withoutCode(md string) string {
	blocks := strings.Split(md, "```")
	for i := 1; i < len(blocks); i += 2 {
		blocks[i] = strings.Repeat("\n", strings.Count(blocks[i], "\n"))
	}
	return strings.Join(blocks, "```")
}

// TestHeadingAnchors: anchors as GitHub writes them.
func TestHeadingAnchors(t *testing.T) {
	got := headingAnchors("# gpuplan\n## Browsing the market: `gpuplan offers`\n### Language: `--lang` (English, 简体中文)\n## Keys\n## Keys\n```\n# not a heading\n```\n")
	for _, want := range []string{"gpuplan", "browsing-the-market-gpuplan-offers", "language---lang-english-简体中文", "keys", "keys-1"} {
		if !got[want] {
			t.Errorf("no anchor %q in %v", want, got)
		}
	}
	if got["not-a-heading"] {
		t.Error("a line in a code block taken for a heading")
	}
}

// The README is the newcomer's one screen of what, how and where to read
// on (issue 28: under 300 lines); the manual lives in docs/.
func TestREADMEShort(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b, []byte("\n")); n >= 300 {
		t.Errorf("README.md has %d lines, want under 300: move detail to docs/", n)
	}
}
