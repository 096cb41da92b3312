package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/tui"
)

// hiddenLambda and hiddenAWS are what catalog update writes for types
// its fetch no longer lists (data/update writeOverlay): two of lambda's,
// one of aws's.
const hiddenLambda = `schema_version = 1
provider = "lambda"

[[instance]]
type = "gpu_1x_a10"
missing_since = 2026-12-01
missing_source = "test: not in the latest fetch"

[[instance]]
type = "gpu_1x_a6000"
missing_since = 2026-12-02
missing_source = "test: not in the latest fetch"
`

const hiddenAWS = `schema_version = 1
provider = "aws"

[[instance]]
type = "g5.xlarge"
missing_since = 2026-12-02
missing_source = "test: not in the latest fetch"
`

// TestHiddenTypesSaid: after catalog update marks types a mirror no
// longer lists (missing_since), recommend and offers leave them out; they
// now say so on stderr, once per provider of the query, with the latest
// date, the command that fetches again and the overlay to remove (issue
// 29: the types vanished without a word).
func TestHiddenTypesSaid(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_DATA_HOME", "")
	updateDir := filepath.Join(home, ".local", "share", "gpuplan", "catalog.d")
	if err := os.MkdirAll(updateDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"skypilot-lambda.toml": hiddenLambda, "skypilot-aws.toml": hiddenAWS} {
		if err := os.WriteFile(filepath.Join(updateDir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := Run(Env{Args: args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
			Getenv: func(string) string { return "" }, Version: "test", LoadCatalog: data.LoadWith,
			UpdateDir: data.UpdateDir,
			RunTUI:    func(context.Context, *model.Catalog, tui.Options) error { return nil }, Probes: testProbes()})
		return code, out.String(), errb.String()
	}
	lambda := "gpuplan: warning: lambda: 2 instance types hidden: missing from the latest catalog update (2026-12-02); `gpuplan catalog update --providers lambda` again or remove ~/.local/share/gpuplan/catalog.d/skypilot-lambda.toml to see them\n"
	aws := "gpuplan: warning: aws: 1 instance type hidden: missing from the latest catalog update (2026-12-02); `gpuplan catalog update --providers aws` again or remove ~/.local/share/gpuplan/catalog.d/skypilot-aws.toml to see them\n"
	for _, tc := range []struct {
		args       []string
		want, lack []string
	}{
		{[]string{"offers", "--providers", "lambda"}, []string{lambda}, []string{"aws:"}},
		{[]string{"offers", "A10"}, []string{lambda, aws}, nil},
		{[]string{"recommend", "--model", "gpt2", "--providers", "lambda"}, []string{lambda}, []string{"aws:"}},
		{[]string{"recommend", "--model", "llama-3.1-8b", "--task", "inference", "--providers", "lambda,aws"}, []string{lambda, aws}, nil},
	} {
		code, out, errs := run(tc.args...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", tc.args, code, errs)
			continue
		}
		for _, w := range tc.want {
			if strings.Count(errs, w) != 1 {
				t.Errorf("%v: stderr does not say once %q:\n%s", tc.args, w, errs)
			}
		}
		for _, l := range tc.lack {
			if strings.Contains(errs, l) {
				t.Errorf("%v: stderr names a provider not asked (%s):\n%s", tc.args, l, errs)
			}
		}
		if strings.Contains(out, "gpu_1x_a10 ") {
			t.Errorf("%v: a hidden type is listed:\n%s", tc.args, out)
		}
	}
}
