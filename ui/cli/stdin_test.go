package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/tui"
)

// runCLIIn is runCLI with stdin.
func runCLIIn(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	var out, errb bytes.Buffer
	code := Run(Env{Args: args, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
		Getenv: func(string) string { return "" }, Version: "test", LoadCatalog: data.LoadWith,
		RunTUI: func(context.Context, *model.Catalog, tui.Options) error {
			t.Error("RunTUI called without a terminal")
			return nil
		}})
	return code, out.String(), errb.String()
}

// Trap (issue 17): `--config -` was read as a file named "-". It reads
// standard input, with a config's limits; the configurator, whose
// keyboard is standard input, refuses it in one line.
func TestConfigFromStdin(t *testing.T) {
	const cfg = "schema_version = 1\n[workload]\nmodel = \"llama-3.1-8b\"\ntask = \"inference\"\n"
	for _, tc := range []struct {
		name, stdin string
		args        []string
		code        int
		out, err    string
	}{
		{"estimate", cfg, []string{"estimate", "--config", "-", "--gpu", "l4"}, 0, "Llama 3.1 8B · serving", ""},
		{"bad TOML", "schema_version = 1\n[workload\n", []string{"estimate", "--config", "-"}, 2, "", "gpuplan: standard input:"},
		{"too large", "# " + strings.Repeat("x", 300<<10) + "\n", []string{"estimate", "--config", "-"}, 2, "", "above the 256 KiB limit"},
		{"configurator", cfg, []string{"--config", "-"}, 2, "", "the configurator reads keys from standard input"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLIIn(t, tc.stdin, tc.args...)
			if code != tc.code || !strings.Contains(out, tc.out) || !strings.Contains(errs, tc.err) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q", code, out, errs, tc.code, tc.out, tc.err)
			}
			if tc.code == 2 && strings.Count(strings.TrimSpace(errs), "\n") > 0 {
				t.Errorf("stderr is more than one line: %q", errs)
			}
		})
	}
}
