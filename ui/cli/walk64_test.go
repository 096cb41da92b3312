package cli

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/ui/termsafe"
)

// The walk of 2026-12-06 (new user, issue 32's close): each case failed
// before its fix.

// An error docs/cli.md quotes is the one the program prints: the quote
// read "did you mean a10, H100 or h20?" after the GPUs of 2025–2026
// changed the nearest names.
func TestDocsQuotedErrors(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, tt := range []struct {
		args   []string
		quoted string // as docs/cli.md quotes it, up to its " …"
	}{
		{[]string{"offers", "H10:8"}, `gpuplan: gpu spec "H10:8": unknown GPU "H10"; did you mean H100, h100-nvl or h100-pcie?`},
	} {
		if !strings.Contains(doc, tt.quoted) {
			t.Errorf("docs/cli.md does not quote %q", tt.quoted)
		}
		code, _, errOut := runCLI(t, tt.args...)
		if code != 2 || !strings.HasPrefix(errOut, tt.quoted) {
			t.Errorf("%v: exit %d, stderr %q; docs/cli.md quotes %q", tt.args, code, errOut, tt.quoted)
		}
	}
}

// --providers cudo,aws left cudo out in silence, where --providers cudo
// alone says it shut down.
func TestRetiredProviderAmongOthersSaid(t *testing.T) {
	const line = "--providers: cudo shut down on 2026-03-31: left out; the other providers named are searched"
	for _, args := range [][]string{
		{"recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--providers", "cudo,aws", "--limit", "1"},
		{"offers", "A100:8", "--providers", "aws,cudo"},
		{"offers", "A100:8", "--providers", "cudo,cudo,aws"},
	} {
		code, out, errOut := runCLI(t, args...)
		if code != 0 || out == "" || strings.Count(errOut, line) != 1 {
			t.Errorf("%v: exit %d, stderr %q; want the rows and %q once", args, code, errOut, line)
		}
	}
	// --all lists a retired provider's types: nothing is left out.
	if code, _, errOut := runCLI(t, "offers", "--all", "--providers", "aws,cudo"); code != 0 || strings.Contains(errOut, "shut down") {
		t.Errorf("offers --all: exit %d, stderr %q; want no left-out line", code, errOut)
	}
	// export leaves it out of the file it writes, and says so: the file
	// named cudo and warned on every reload, naming a flag it was not given.
	out := filepath.Join(t.TempDir(), "job.toml")
	code, _, errOut := runCLI(t, "export", "--model", "llama-3.1-8b", "--task", "qlora", "--instance", "aws/g6e.xlarge", "--providers", "cudo,aws", "--format", "toml", "-o", out)
	b, err := os.ReadFile(out)
	if code != 0 || err != nil || !strings.Contains(errOut, line) || !strings.Contains(string(b), `providers = ["aws"]`) {
		t.Errorf("export: exit %d, stderr %q, file:\n%s", code, errOut, b)
	}
	code, _, errOut = runCLI(t, "export", "--model", "llama-3.1-8b", "--task", "inference", "--instance", "aws/g5.2xlarge", "--providers", "cudo,aws", "-o", "-")
	if code != 0 || strings.Count(errOut, line) != 1 {
		t.Errorf("export --task inference: exit %d, stderr %q; want %q once", code, errOut, line)
	}
	// An unknown type of it points at the list that shows its former types.
	code, _, errOut = runCLI(t, "export", "--model", "llama-3.1-8b", "--task", "qlora", "--instance", "cudo/x", "-o", "-")
	if code != 2 || !strings.Contains(errOut, `unknown cudo instance type "x", and cudo shut down on 2026-03-31 (its former types: gpuplan catalog instances --all --providers cudo)`) {
		t.Errorf("export --instance cudo/x: exit %d, stderr %q", code, errOut)
	}
	if code, out, errOut := runCLI(t, "catalog", "instances", "--all", "--providers", "cudo"); code != 0 || !strings.Contains(out, "cudo") {
		t.Errorf("catalog instances --all --providers cudo: exit %d, %q", code, errOut)
	}
	// A file naming it is searched without it, the warning naming the file's key.
	cfg := filepath.Join(t.TempDir(), "c.toml")
	if err := os.WriteFile(cfg, []byte("schema_version = 1\n[workload]\nmodel = \"llama-3.1-8b\"\ntask = \"qlora\"\n[search]\nproviders = [\"cudo\", \"aws\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCLI(t, "recommend", "--config", cfg, "--limit", "1")
	if code != 0 || !strings.Contains(errOut, "search.providers: cudo shut down on 2026-03-31: left out") {
		t.Errorf("recommend --config: exit %d, stderr %q", code, errOut)
	}
	// A list of providers still offering says nothing.
	if _, _, errOut := runCLI(t, "offers", "A100:8", "--providers", "aws,gcp"); strings.Contains(errOut, "shut down") {
		t.Errorf("aws,gcp: stderr %q", errOut)
	}
}

// plan without a file printed cobra's "accepts 1 arg(s), received 0".
func TestPlanNeedsAFile(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"plan"}, "gpuplan: plan needs a file: gpuplan plan PLAN.toml"},
		{[]string{"plan", "a.toml", "b.toml"}, `gpuplan: plan reads one file, got 2 ("a.toml", "b.toml"): give one`},
		{[]string{"plan", "a.toml", "b.toml", "c.toml"}, `gpuplan: plan reads one file, got 3 ("a.toml", "b.toml"…)`},
		{[]string{"plan", ""}, "gpuplan: plan needs a file: gpuplan plan PLAN.toml"},
		{[]string{"plan", " "}, "gpuplan: plan needs a file: gpuplan plan PLAN.toml"},
	} {
		code, out, errOut := runCLI(t, tt.args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line starting %q", tt.args, code, errOut, tt.want)
		}
	}
}

// A quoted "llama 70b" found only the alias DeepSeek-R1-Distill-Llama-70B
// (one model); the words unquoted list the four Llama 70Bs.
func TestCatalogQuotedWordsAreWords(t *testing.T) {
	_, apart, _ := runCLI(t, "catalog", "models", "llama", "70b")
	code, quoted, errOut := runCLI(t, "catalog", "models", "llama 70b")
	if code != 0 || quoted != apart || strings.Count(quoted, "\n") < 5 {
		t.Errorf(`catalog models "llama 70b": exit %d %s:\n%s\nwant as llama 70b:\n%s`, code, errOut, quoted, apart)
	}
	if code, _, errOut := runCLI(t, "catalog", "models", " "); code != 2 || !strings.Contains(errOut, "names nothing") {
		t.Errorf(`catalog models " ": exit %d, %q; want refused`, code, errOut)
	}
}

// One optimizer step is "1 step".
func TestEstimateOneStep(t *testing.T) {
	code, out, errOut := runCLI(t, "estimate", "--model", "llama-3.1-8b", "--dataset-tokens", "1K", "--gpu", "h100")
	if code != 0 || !strings.Contains(out, "(1 step)") || strings.Contains(out, "(1 steps)") {
		t.Errorf("exit %d, %s; want (1 step) in:\n%s", code, errOut, out)
	}
}

// FuzzListValue: a list flag's value is refused or read whole: never a
// panic, no name holding a control character, and String() reads back
// (as pflag's GetStringSlice and the help's default do) to the same names.
func FuzzListValue(f *testing.F) {
	for _, s := range []string{"eu,rope", "eu\nrope", `"united states",de`, `"korea, republic of"`, `a"b`, "", ",,", " , ", "aws\r\nx", "\x1b]0;x\a", "aws\u2028", "\u200bde"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var v []string
		l := newList(&v)
		if err := l.Set(s); err != nil {
			return
		}
		for _, name := range v {
			if strings.IndexFunc(name, func(r rune) bool { return !termsafe.Safe(r) }) >= 0 {
				t.Fatalf("%q: accepted %q", s, name)
			}
		}
		str := l.String()
		if len(v) == 0 || len(v) == 1 && v[0] == "" { // both name nothing (listNamesSome refuses them alike)
			if str != "" && str != "[]" {
				t.Fatalf("%q: no names, String %q", s, str)
			}
			return
		}
		r := csv.NewReader(strings.NewReader(strings.TrimSuffix(strings.TrimPrefix(str, "["), "]")))
		back, err := r.Read()
		if err != nil || !slices.Equal(back, v) {
			t.Fatalf("%q: names %q, String %q reads back %q (%v)", s, v, str, back, err)
		}
	})
}

// A price the guards flag is "held" only when it is held back: with
// --trust-overlay it ranks, and the row said "(held: looks fake)" beside
// "ranked as --trust-overlay asks" (verification walk, 2026-12-06).
func TestTrustedFlaggedRowNotHeld(t *testing.T) {
	const overlay = `schema_version = 1

[[instance]]
provider = "nebius"
type = "gpu-h100-sxm_1gpu-16vcpu-200gb"
source = "our deal"
prices = [{ region = "eu-north1", on_demand = 0.01 }]
`
	code, out, errs, _ := runWithCatalogD(t, overlay, "offers", "H100:1", "--providers", "nebius")
	if code != 0 || !strings.Contains(out, "gpu-h100-sxm_1gpu-16vcpu-200gb (looks fake; trusted)") || strings.Contains(out, "(held") {
		t.Errorf("--trust-overlay: exit %d, stderr %q:\n%s", code, errs, out)
	}
	code, out, errs, _ = runWithCatalogDTrust(t, overlay, "offers", "H100:1", "--providers", "nebius", "--all")
	if code != 0 || !strings.Contains(out, "gpu-h100-sxm_1gpu-16vcpu-200gb (held: looks fake)") || strings.Contains(out, "trusted)") {
		t.Errorf("untrusted --all: exit %d, stderr %q:\n%s", code, errs, out)
	}
}
