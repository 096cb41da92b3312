package cli

import (
	"strings"
	"testing"
)

// TestNamedCommandBuiltAlone: a command line naming a command builds
// that command alone (newRoot); its help, flags and an error must read
// as they do from the whole tree, which `gpuplan help NAME` builds.
func TestNamedCommandBuiltAlone(t *testing.T) {
	for _, name := range []string{"estimate", "version", "catalog", "export", "recommend", "offers", "plan"} {
		_, alone, _ := runCLI(t, name, "--help")
		_, whole, _ := runCLI(t, "help", name)
		if alone == "" || alone != whole {
			t.Errorf("%s --help built alone differs from `help %s`:\n--- alone\n%s\n--- whole\n%s", name, name, alone, whole)
		}
	}
	// An unknown flag fails the same way, with cobra's message.
	codeAlone, _, errAlone := runCLI(t, "recommend", "--no-such-flag")
	if codeAlone != 2 || errAlone == "" {
		t.Errorf("recommend --no-such-flag: exit %d, stderr %q; want 2 and a message", codeAlone, errAlone)
	}
}

// TestTypoAfterRootFlags: root flags and their values before a mistyped
// command keep the "did you mean"; they do not hide the typo.
func TestTypoAfterRootFlags(t *testing.T) {
	for _, args := range [][]string{
		{"recomend"},
		{"--lang", "en", "recomend"},
		{"--lang=en", "recomend"},
		{"--catalog", "x.toml", "recomend", "--model", "m"},
	} {
		code, _, errOut := runCLI(t, args...)
		if code != 2 || !strings.Contains(errOut, `did you mean "recommend"`) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and the suggestion", args, code, errOut)
		}
	}
	if code, out, errOut := runCLI(t, "--lang", "en", "version"); code != 0 || !strings.Contains(out, "gpuplan test") {
		t.Errorf("--lang en version: exit %d, %q %q", code, out, errOut)
	}
}

// TestConfiguratorBuildsRootAlone: a command line that opens the
// configurator builds no command (their flags are not read), and the
// root's help, which lists them, still builds them all.
func TestConfiguratorBuildsRootAlone(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, true},
		{[]string{"--config", "run.toml"}, true},
		{[]string{"--catalog", "x.toml", "--lang=zh-CN"}, true},
		{[]string{"--help"}, false},
		{[]string{"-h"}, false},
		{[]string{"--catalog", "x.toml", "--help"}, false},
		{[]string{"--", "recommend"}, false},
		{[]string{"--catalog", "x.toml", "recommend"}, false},
	} {
		env := &Env{Args: tc.args, Getenv: func(string) string { return "" }}
		root := newRoot(env)
		if got := len(root.Commands()) == 1; got != tc.want { // the completion command is always there
			t.Errorf("%q: %d commands built; want the root alone: %t", tc.args, len(root.Commands()), tc.want)
		}
	}
	_, out, _ := runCLI(t, "--help")
	for _, name := range []string{"estimate", "recommend", "offers", "export", "catalog", "plan", "version"} {
		if !strings.Contains(out, "  "+name+" ") {
			t.Errorf("gpuplan --help does not list %s:\n%s", name, out)
		}
	}
}
