package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// helpCommands lists the commands of a help page ("Available Commands:").
var helpCommands = regexp.MustCompile(`(?m)^  ([a-z][a-z-]*) {2,}`)

// helpExamples returns the gpuplan invocations in a help page's Examples
// section, parsed as the shell would (quotes, pipes, redirections,
// process substitution): each call's arguments after "gpuplan".
func helpExamples(t *testing.T, help string) [][]string {
	t.Helper()
	_, ex, ok := strings.Cut(help, "\nExamples:\n")
	if !ok {
		return nil
	}
	ex, _, _ = strings.Cut(ex, "\n\n")
	var calls [][]string
	for _, line := range strings.Split(ex, "\n") {
		f, err := syntax.NewParser().Parse(strings.NewReader(line), "")
		if err != nil {
			t.Fatalf("example %q does not parse as shell: %v", line, err)
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			call, ok := n.(*syntax.CallExpr)
			if !ok || len(call.Args) == 0 || call.Args[0].Lit() != "gpuplan" {
				return true
			}
			var args []string
			for _, w := range call.Args[1:] {
				s, err := expand.Literal(nil, w)
				if err != nil {
					t.Fatalf("example %q: %v", line, err)
				}
				args = append(args, s)
			}
			calls = append(calls, args)
			return true
		})
	}
	return calls
}

// TestHelpExamples runs every example of every command's help against the
// embedded catalog: each exits 0, and each recommend ranks at least one
// offer (new-user trial, M4: the 70B example found none). Files the
// examples name are made in a scratch directory.
func TestHelpExamples(t *testing.T) {
	plan, err := os.ReadFile(filepath.Join("testdata", "plan-two-phases.toml"))
	probeRun, perr := os.ReadFile(filepath.Join("testdata", "probe", "qlora-a10g.json"))
	dir := t.TempDir()
	t.Chdir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plan.toml"), plan, 0o644); err != nil {
		t.Fatal(err)
	}
	// result.json as the probe script prints it; probe add keeps it under XDG_DATA_HOME.
	if perr != nil {
		t.Fatal(perr)
	}
	if err := os.WriteFile(filepath.Join(dir, "result.json"), probeRun, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	// gpuplan.toml as the configurator's ctrl+e writes it: workload, search and the offer chosen.
	if code, _, errs := runCLI(t, "export", "--model", "llama-3.1-8b", "--task", "qlora", "--batch-size", "1", "--seq-len", "1024",
		"--dataset-tokens", "20M", "--instance", "gcp/g2-standard-4", "--format", "toml", "-o", "gpuplan.toml"); code != 0 {
		t.Fatalf("export gpuplan.toml: exit %d: %s", code, errs)
	}
	ran := 0
	seen := map[string]bool{}
	var walk func(path []string)
	walk = func(path []string) {
		code, help, errs := runCLI(t, append(append([]string{}, path...), "--help")...)
		if code != 0 {
			t.Fatalf("gpuplan %s --help: exit %d: %s", strings.Join(path, " "), code, errs)
		}
		for _, args := range helpExamples(t, help) {
			key := strings.Join(args, " ")
			switch {
			case seen[key]:
				continue
			case len(args) == 0 || strings.HasPrefix(args[0], "-"):
				continue // the configurator: it needs a terminal (pty_linux_test.go)
			case len(args) > 1 && args[0] == "catalog" && args[1] == "update":
				continue // downloads prices: update_test.go serves them locally
			}
			seen[key] = true
			ran++
			code, out, errs := runCLI(t, args...)
			if code != 0 {
				t.Errorf("help example `gpuplan %s`: exit %d: %s", key, code, errs)
				continue
			}
			if args[0] != "recommend" {
				continue
			}
			if strings.Contains(key, "--json") {
				var j struct{ Offers []json.RawMessage }
				if err := json.Unmarshal([]byte(out), &j); err != nil || len(j.Offers) == 0 {
					t.Errorf("help example `gpuplan %s`: %d offers (%v)", key, len(j.Offers), err)
				}
			} else if strings.Contains(out, "No offer runs this workload") {
				t.Errorf("help example `gpuplan %s` ranks no offer:\n%s", key, out)
			}
		}
		_, cmds, _ := strings.Cut(help, "\nAvailable Commands:\n")
		cmds, _, _ = strings.Cut(cmds, "\n\n")
		for _, m := range helpCommands.FindAllStringSubmatch(cmds, -1) {
			if m[1] != "help" {
				walk(append(append([]string{}, path...), m[1]))
			}
		}
	}
	walk(nil)
	if ran < 20 {
		t.Errorf("ran %d help examples, want the 20 or more the commands show", ran)
	}
}
