package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/tui"
)

// runCLI runs the command line with fake streams and returns the exit
// status, stdout and stderr.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // no catalog.d overlays from the user running the tests
	t.Setenv("HOME", t.TempDir())
	var out, errb bytes.Buffer
	code := Run(Env{Args: args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(string) string { return "" }, Version: "test", LoadCatalog: data.LoadWith,
		RunTUI: func(context.Context, *model.Catalog, tui.Options) error {
			t.Error("RunTUI called without a terminal")
			return nil
		}, Probes: testProbes()})
	return code, out.String(), errb.String()
}

// runCLIJSON runs the command line base with args after it, which must
// exit 0, and decodes its stdout (a --json document) into a T; it
// returns stderr too.
func runCLIJSON[T any](t *testing.T, base []string, args ...string) (T, string) {
	t.Helper()
	code, out, errs := runCLI(t, append(slices.Clone(base), args...)...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	var d T
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	return d, errs
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const bertConfig = `schema_version = 1
[workload]
model = "bert-large"
task = "finetune"
batch_size = 32
seq_len = 384
dataset_samples = 88000.0
epochs = 2
gpus = 1
[search]
providers = ["aws", "gcp"]
pricing = "on-demand"
`

func TestRecommendConfigReproducesFlags(t *testing.T) {
	path := writeFile(t, "run.toml", bertConfig)
	code, fromFile, stderr := runCLI(t, "recommend", "--config", path, "--json", "--limit", "5")
	if code != 0 {
		t.Fatalf("recommend --config: exit %d: %s", code, stderr)
	}
	_, fromFlags, _ := runCLI(t, "recommend", "--model", "bert-large", "--task", "finetune", "--batch-size", "32",
		"--seq-len", "384", "--dataset-samples", "88000", "--epochs", "2", "--gpus", "1", "--providers", "aws,gcp", "--json", "--limit", "5")
	if fromFile != fromFlags {
		t.Errorf("recommend --config differs from the same flags:\n%s\nvs\n%s", fromFile, fromFlags)
	}

	// Flags override the file.
	_, spot, _ := runCLI(t, "recommend", "--config", path, "--pricing", "spot", "--json", "--limit", "1")
	if !strings.Contains(spot, `"pricing": "spot"`) {
		t.Errorf("--pricing spot did not override the file:\n%s", spot)
	}
	_, est, _ := runCLI(t, "estimate", "--config", path, "--batch-size", "8", "--json")
	if !strings.Contains(est, `"batch_size": 8`) || !strings.Contains(est, `"seq_len": 384`) {
		t.Errorf("estimate --config --batch-size 8: want batch 8 from the flag and seq_len 384 from the file:\n%s", est)
	}
}

func TestConfigErrorsNameFileAndKey(t *testing.T) {
	tests := []struct {
		name, content string
		args          []string
		want          string
	}{
		{"wrong type", strings.Replace(bertConfig, "batch_size = 32", `batch_size = "x"`, 1), nil,
			`run.toml: workload.batch_size (line 5): want a whole number such as 8, got "x"`},
		{"typo", strings.Replace(bertConfig, "seq_len", "seqlen", 1), nil, `did you mean "seq_len"?`},
		{"file value invalid", strings.Replace(bertConfig, "gpus = 1", "gpus = 2\ntp = 4", 1), nil,
			"run.toml: workload.tp: tensor-parallel degree 4 must divide gpus 2"},
		{"flag value invalid names the flag", bertConfig, []string{"--tp", "3"}, "--tp: tensor-parallel degree 3 must divide gpus 1"},
		{"unknown provider in the file", strings.Replace(bertConfig, `"gcp"`, `"gpc"`, 1), nil,
			`run.toml: search.providers: unknown provider "gpc"; did you mean "gcp"?`},
		{"unknown model", strings.Replace(bertConfig, "bert-large", "bert-lrage", 1), nil, `run.toml: workload.model: unknown model "bert-lrage"`},
		// walk37: a file's region was reported as --regions, without the file.
		{"unknown region in the file", strings.Replace(bertConfig, `pricing = "on-demand"`, "pricing = \"on-demand\"\nregions = [\"mars-1\"]", 1), nil,
			`run.toml: search.regions: unknown region "mars-1"`},
		{"region close to one in the file", strings.Replace(bertConfig, `pricing = "on-demand"`, "pricing = \"on-demand\"\nregions = [\"us-east-l\"]", 1), nil,
			`run.toml: search.regions: unknown region "us-east-l"; did you mean`},
		{"unknown region in a flag", bertConfig, []string{"--regions", "mars-1"}, `gpuplan: --regions: unknown region "mars-1"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, "run.toml", tt.content)
			code, _, stderr := runCLI(t, append([]string{"recommend", "--config", path}, tt.args...)...)
			if code != ExitUsage || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want exit 2 and one line containing %q", code, stderr, tt.want)
			}
		})
	}
	code, _, stderr := runCLI(t, "estimate", "--config", filepath.Join(t.TempDir(), "missing.toml"))
	if code != ExitUsage || !strings.Contains(stderr, "missing.toml: no such file") {
		t.Errorf("missing file: exit %d, %q", code, stderr)
	}
}

// TestServeConfigErrorsNameFile (walk37): a serving request's file
// value the search refuses names the file, as a training request's does.
func TestServeConfigErrorsNameFile(t *testing.T) {
	const serving = "schema_version = 1\n[workload]\nmodel = \"llama-3.1-8b\"\ntask = \"inference\"\n[serve]\nmax_model_len = 4096\n[search]\n"
	for _, tt := range []struct{ search, want string }{
		{"regions = [\"mars-1\"]\n", `serve.toml: search.regions: unknown region "mars-1"`},
		{"providers = [\"awz\"]\n", `serve.toml: search.providers: unknown provider "awz"`},
	} {
		path := writeFile(t, "serve.toml", serving+tt.search)
		code, _, stderr := runCLI(t, "recommend", "--config", path)
		if code != ExitUsage || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("exit %d, stderr %q; want exit 2 and one line containing %q", code, stderr, tt.want)
		}
	}
}

// TestEnumSuggests (walk37): a misspelt choice, in a flag or a file, is
// told the closest valid one, as a plan's pricing is; task = "qlorra" was
// given only the list.
func TestEnumSuggests(t *testing.T) {
	path := writeFile(t, "run.toml", strings.Replace(bertConfig, `task = "finetune"`, `task = "qlorra"`, 1))
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"recommend", "--config", path}, `run.toml: workload.task (line 4): task "qlorra": did you mean "qlora"? want train, finetune, lora, qlora or inference`},
		{[]string{"recommend", "--model", "bert-large", "--pricing", "spott"}, `--pricing "spott": did you mean "spot"? want on-demand, spot, reserved-1y or reserved-3y`},
		{[]string{"recommend", "--model", "bert-large", "--task", "qlorra"}, `--task "qlorra": did you mean "qlora"?`},
		{[]string{"recommend", "--model", "bert-large", "--sort", "zzzzzzzz"}, `--sort "zzzzzzzz": want price,`},
		// In Chinese too: the TOML library keeps an enum's error as text
		// only (model.RememberMessage), which was printed in English.
		{[]string{"recommend", "--lang", "zh-CN", "--config", path}, `task "qlorra"：是不是 "qlora"？应为 train、finetune、lora、qlora 或 inference`},
		{[]string{"recommend", "--lang", "zh-CN", "--config", writeFile(t, "spot.toml", strings.Replace(bertConfig, `pricing = "on-demand"`, `pricing = "spott"`, 1))},
			`pricing "spott"：是不是 "spot"？`},
	} {
		code, _, stderr := runCLI(t, tt.args...)
		if code != ExitUsage || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line containing %q", tt.args, code, stderr, tt.want)
		}
	}
}

// Without a terminal the configurator does not start: one line, exit 2,
// and no "open /dev/tty" error.
func TestConfiguratorNeedsTerminal(t *testing.T) {
	for _, args := range [][]string{nil, {"--config", writeFile(t, "run.toml", bertConfig)}} {
		code, stdout, stderr := runCLI(t, args...)
		if code != ExitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 ||
			!strings.Contains(stderr, "gpuplan recommend") || strings.Contains(stderr, "/dev/tty") {
			t.Errorf("gpuplan %v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
}

// gpuplan --config FILE refuses a file the configurator could not fix
// (an unknown model, a tp it does not ask about) before opening, by key.
func TestConfiguratorConfigErrors(t *testing.T) {
	for _, tt := range []struct{ content, want string }{
		{strings.Replace(bertConfig, "bert-large", "bert-lrage", 1), `run.toml: workload.model: unknown model "bert-lrage"`},
		{strings.Replace(bertConfig, "gpus = 1", "gpus = 2\ntp = 4", 1), "run.toml: workload.tp: tensor-parallel degree 4 must divide gpus 2"},
	} {
		path := writeFile(t, "run.toml", tt.content)
		code, _, stderr := runCLI(t, "--config", path)
		if code != ExitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("exit %d, stderr %q; want exit 2 with %q", code, stderr, tt.want)
		}
	}
}

// TestAllowPrecisionFallback (LoRA: --task inference of an LLM plans
// serving, where vLLM runs fp8 weights on any GPU): fp8 asked for is a requirement; GPUs without
// it (A10G, T4: no fp8 before compute capability 8.9) are near misses
// naming the fallback, unless --allow-precision-fallback or the file's
// allow_precision_fallback accepts them; export keeps the answer.
func TestAllowPrecisionFallback(t *testing.T) {
	cat, _, err := data.LoadWith(nil)
	if err != nil {
		t.Fatal(err)
	}
	base := []string{"recommend", "--json", "--limit", "0", "--model", "llama-3.1-8b", "--task", "lora", "--batch-size", "1", "--seq-len", "1024", "--precision", "fp8", "--gpus", "1", "--providers", "aws"}
	fallbacks := func(args ...string) (offers, rejected int) {
		t.Helper()
		code, out, stderr := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var rec struct {
			Offers []struct {
				GPU string `json:"gpu"`
			} `json:"offers"`
			Rejected []struct {
				Reason string `json:"reason"`
			} `json:"rejected"`
		}
		if err := json.Unmarshal([]byte(out), &rec); err != nil {
			t.Fatal(err)
		}
		for _, o := range rec.Offers {
			if g, err := cat.GPU(o.GPU); err == nil {
				if ok, _ := g.Supports(model.FP8); !ok {
					offers++
				}
			}
		}
		for _, r := range rec.Rejected {
			if strings.Contains(r.Reason, "has no fp8; it would run") {
				rejected++
			}
		}
		return offers, rejected
	}
	if o, r := fallbacks(base...); o != 0 || r == 0 {
		t.Errorf("default: %d offers without fp8 (want 0), %d near misses naming the fallback (want some)", o, r)
	}
	if o, r := fallbacks(append(base, "--allow-precision-fallback")...); o == 0 || r != 0 {
		t.Errorf("--allow-precision-fallback: %d offers without fp8 (want some), %d near misses for it (want 0)", o, r)
	}
	file := writeFile(t, "fallback.toml", "schema_version = 1\n[workload]\nmodel = \"llama-3.1-8b\"\ntask = \"lora\"\nbatch_size = 1\nseq_len = 1024\nprecision = \"fp8\"\ngpus = 1\n[search]\nproviders = [\"aws\"]\nallow_precision_fallback = true\n")
	if o, r := fallbacks("recommend", "--json", "--limit", "0", "--config", file); o == 0 || r != 0 {
		t.Errorf("allow_precision_fallback = true: %d offers without fp8 (want some), %d near misses for it", o, r)
	}
	code, out, stderr := runCLI(t, "export", "--config", file, "--instance", "aws/p4d.24xlarge", "--allow-precision-fallback", "--format", "toml", "-o", "-")
	if code != 0 || !strings.Contains(out, "allow_precision_fallback = true") {
		t.Errorf("export: exit %d %s; the file lacks allow_precision_fallback = true:\n%s", code, stderr, out)
	}
}

// A catalog.d file that cannot be read stops the commands that need the
// catalog with one line naming it and the way out (exit 2), but not
// version or help (issue 29: it stopped every command, version too).
func TestBrokenCatalogDir(t *testing.T) {
	config := t.TempDir()
	dir := filepath.Join(config, "gpuplan", "catalog.d")
	os.MkdirAll(dir, 0o755)
	bad := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(bad, []byte("schema_version = 1\n[[instance]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	line := bad + ":3: expected end of table array name delimiter ']', but got '\\n' instead; fix the file, or move it out of " + dir
	run := func(args ...string) (int, string, string) {
		t.Setenv("XDG_CONFIG_HOME", config)
		t.Setenv("XDG_DATA_HOME", t.TempDir())
		var out, errb bytes.Buffer
		code := Run(Env{Args: args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
			Getenv: func(string) string { return "" }, Version: "test", LoadCatalog: data.LoadWith})
		return code, out.String(), errb.String()
	}
	if code, out, errs := run("catalog", "gpus"); code != 2 || out != "" || errs != "gpuplan: "+line+"\n" {
		t.Errorf("catalog gpus: exit %d, stdout %q, stderr %q; want 2 and %q", code, out, errs, line)
	}
	if code, out, errs := run("version"); code != 0 || out != "gpuplan test (catalog not loaded: see the warning above)\n" || errs != "gpuplan: warning: "+line+"\n" {
		t.Errorf("version: exit %d, stdout %q, stderr %q; want 0, the version and the warning", code, out, errs)
	}
	for _, args := range [][]string{{"help"}, {"--version"}, {"estimate", "--help"}} {
		if code, out, errs := run(args...); code != 0 || out == "" || errs != "" {
			t.Errorf("%v: exit %d, stderr %q; want 0 and nothing on stderr", args, code, errs)
		}
	}
}
