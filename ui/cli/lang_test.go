package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/text/language"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/data/hf"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/plan"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/tui"
)

// runLang runs the command line in-process with a fixed environment
// (LANG and nothing else that matters).
func runLang(t *testing.T, lang string, args ...string) (int, string, string) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	env := map[string]string{"LANG": lang}
	var out, errb bytes.Buffer
	code := Run(Env{Args: args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string { return env[k] }, Version: "test", LoadCatalog: data.LoadWith,
		RunTUI: func(context.Context, *model.Catalog, tui.Options) error {
			t.Error("RunTUI called without a terminal")
			return nil
		}, Probes: testProbes()})
	return code, out.String(), errb.String()
}

// cliAllowlist is the default allowlist plus what the command line shows
// as typed: catalog names (models, GPUs, providers, instance types,
// regions), command and shell names, flag values in examples and the
// placeholders of Use lines.
func cliAllowlist(t *testing.T) i18n.Allowlist {
	t.Helper()
	cat, _, err := data.LoadWith(nil)
	if err != nil {
		t.Fatal(err)
	}
	a := i18n.DefaultAllowlist()
	for _, g := range cat.GPUs {
		a.Add(g.Key + " " + g.Name + " " + strings.Join(g.Aliases, " ") + " " + g.Vendor + " " + g.Architecture)
	}
	for _, m := range cat.Models {
		a.Add(m.Key + " " + m.Name)
	}
	for _, code := range model.CountryCodes() {
		a.Add(code) // the region cell's "(FI)"
	}
	a.Add("eu north-america") // continents, as --regions takes them
	for _, in := range cat.Instances {
		a.Add(in.Provider + " " + in.Type)
		for _, p := range in.Prices {
			a.Add(p.Region)
		}
	}
	// What the user types: command names, example command lines, flag
	// defaults, the values flags take (as their usage lists them), shell
	// and language codes, and the inputs the error cases echo back.
	root := newRoot(&Env{Args: []string{"--help"}, Getenv: func(string) string { return "" }}) // help builds every command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		a.Add(c.Name())
		for _, l := range strings.Split(c.Example, "\n") {
			cmdLine, _, _ := strings.Cut(l, "#")
			a.Add(cmdLine)
		}
		c.Flags().VisitAll(func(f *pflag.Flag) { a.Add(f.DefValue) })
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	a.Add("autodl rtx4090-1x") // testdata/cny.toml's provider and type, the user's overlay
	// A plan's name and phase names are the user's own words.
	if b, err := os.ReadFile("testdata/plan-answers.toml"); err == nil {
		if pl, err := plan.Decode(b); err == nil {
			a.Add(pl.Name)
			for _, ph := range pl.Phases {
				a.Add(ph.Name)
				// The name a served adapter answers to is an identifier,
				// as a model id (plan.AdapterName).
				if m, ok := ph.Answers["model"]; ok {
					a.Add(plan.AdapterName(strings.ReplaceAll(m, ".", "-"), ph.Name))
				}
			}
		}
	}
	a.Add(`bash zsh fish powershell shell en zh-CN
		train finetune lora qlora inference single sgd-momentum awq gptq trainjob pytorchjob k8s docker torchrun toml
		table json csv markdown wide JSON CSV TOML YAML SkyPilot Kubernetes Kubeflow Trainer Training Operator NGC PEFT
		MLP Transformer ZeRO-Offload safetensors RFC ISO ID GQA MQA
		AWS Azure OCI Oracle GitHub InfiniBand EFA Elastic Fabric Adapter API URL S3
		recomend modle x fr help lama h10 extra zzz foo xx n xff UTF
		Megatron-LM
		phase TiB on-demand reserved-1y reserved-3y cu skypilot Engine
		nvlink nvswitch pcie efa infiniband infinity-fabric roce rdma gpudirect-tcpx gpudirect-tcpxo RoCE RDMA GCP GPUDirect-TCPX TCPXO`) // catalog interconnect and fabric values, as the offers table prints them
	return a
}

const zhLocale = "zh_CN.UTF-8"

// TestChineseCLILeaksNoEnglish: under LANG=zh_CN.UTF-8 the reports, help
// and error lines of the command line have no English word outside the
// allowlist (issue 20: "errors and help are fully in Chinese").
func TestChineseCLILeaksNoEnglish(t *testing.T) {
	allow := cliAllowlist(t)
	cny := "testdata/cny.toml"
	typeCfg := writeFile(t, "type.toml", "schema_version = 1\n[workload]\nmodel = \"bert-large\"\nbatch_size = \"x\"\n")
	rangeCfg := writeFile(t, "range.toml", "schema_version = 1\n[workload]\nmodel = \"bert-large\"\nepochs = -1\n")
	cfg := writeFile(t, "bad.toml", "schema_version = 1\n[workload]\nmodel = \"bert-large\"\nbach_size = 4\n")
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"estimate", "--model", "llama-3.1-8b", "--task", "qlora", "--gpu", "l4"}, 0},
		{[]string{"recommend", "--model", "bert-large", "--task", "finetune", "--dataset-samples", "88k", "--epochs", "2"}, 0},
		{[]string{"offers"}, 0},
		{[]string{"recommend", "--model", "qwen3-8b", "--task", "qlora", "--catalog", cny, "--providers", "autodl"}, 2},
		{[]string{"catalog", "gpus"}, 0},
		{[]string{"--help"}, 0},
		{[]string{"export", "--help"}, 0},
		{[]string{"recommend", "--help"}, 0},
		{[]string{"estimate", "--help"}, 0},
		{[]string{"offers", "--help"}, 0},
		{[]string{"plan", "--help"}, 0},
		{[]string{"plan", "testdata/plan-answers.toml"}, 0},
		{[]string{"catalog", "--help"}, 0},
		{[]string{"catalog", "instances", "--help"}, 0},
		{[]string{"catalog", "update", "--help"}, 0},
		{[]string{"version", "--help"}, 0},
		{[]string{"completion", "--help"}, 0},
		{[]string{"help", "estimate"}, 0},
		{[]string{"catalog", "instances", "h100:8"}, 0},
		{[]string{"recommend", "--model", "bert-large", "--catalog", cny}, 0},
		{[]string{"recomend"}, 2},
		{[]string{"help", "recomend"}, 2},
		{[]string{"catalog", "gpu"}, 2},
		{[]string{"estimate", "--modle", "x"}, 2},
		{[]string{"estimate", "--model", "bert-large", "--batch-size", "x"}, 2},
		{[]string{"estimate", "--config", cfg}, 2},
		{[]string{"estimate", "--config", "/nonexistent/run.toml"}, 2},
		{[]string{"--lang", "fr", "catalog", "gpus"}, 2},
		{[]string{"estimate", "--model", "lama"}, 2},
		{[]string{"estimate", "--model", "bert-large", "--gpu", "h10"}, 2},
		{[]string{"estimate", "--model", "bert-large", "--gpus", "0"}, 2},
		{[]string{"estimate"}, 2},
		{[]string{"catalog"}, 2},
		{[]string{"completion"}, 2},
		{[]string{"export", "--model", "bert-large"}, 2},
		{[]string{"recommend", "--model", "bert-large", "--usd-cny", "-1"}, 2},
		{[]string{"estimate", "--model", "bert-large", "extra"}, 2},
		{[]string{"version"}, 0},
		{[]string{"estimate", "--config", typeCfg}, 2},
		{[]string{"estimate", "--config", rangeCfg}, 2},
		{[]string{"estimate", "--config", t.TempDir()}, 2},
		{[]string{"plan", rangeCfg}, 2},
		{[]string{"offers", "--vram", "3x"}, 2},
		{[]string{"export", "--model", "bert-large", "--instance", "aws/zzz"}, 2},
		{[]string{"recommend", "--model", "bert-large", "--regions", "xx-"}, 2},
		{[]string{"recommend", "--model", "bert-large", "--pricing", "foo"}, 2},
		{[]string{"export", "--model", "bert-large", "--task", "finetune", "--instance", "aws/g6.xlarge", "--pricing", "spot",
			"--format", "skypilot", "--script", "train.py", "-o", filepath.Join(t.TempDir(), "task.yaml")}, 0},
		{[]string{"export", "--model", "llama-3.1-8b", "--task", "qlora", "--instance", "aws/g6.xlarge", "--batch-size", "1", "--seq-len", "1024",
			"--format", "docker", "-o", filepath.Join(t.TempDir(), "qlora.sh")}, 0},
		{[]string{"estimate", "--model", "llama-3.1-8b", "--task", "finetune", "--gpus", "8", "--batch-size", "1", "--gpu", "h100-sxm"}, 0},
		{[]string{"estimate", "--model", "llama-3.1-8b", "--task", "finetune", "--gpus", "8", "--gpu", "h100-sxm"}, 0},
		{[]string{"estimate", "--model", "llama-3.1-8b", "--task", "finetune", "--gpus", "8", "--epochs", "2"}, 0},
		{[]string{"estimate", "--model", "llama-3.1-8b", "--task", "inference", "--gpu", "h100-sxm", "--epochs", "2"}, 0},
		{[]string{"probe", "export", "-o", filepath.Join(t.TempDir(), "a\nb.toml")}, 2},
		{[]string{"probe", "export", "-o", filepath.Join(t.TempDir(), "a\xffb.toml")}, 2},
		{[]string{"estimate", "--model", "llama-3.1-70b", "--task", "inference", "--gpus", "4", "--tp", "2", "--gpu", "l40s"}, 0},
		{[]string{"estimate", "--model", "llama-3.1-70b", "--task", "inference", "--gpus", "2", "--tp", "2", "--gpu", "l40s"}, 0},
		{[]string{"estimate", "--model", "llama-3.1-8b", "--task", "finetune", "--gpus", "4", "--tp", "2", "--batch-size", "1", "--strategy", "ddp", "--gpu", "h100-sxm"}, 0},
		{[]string{"probe", "--help"}, 0},
		{[]string{"probe", "compare", "testdata/probe/qlora-a10g.json"}, 0},
		{[]string{"probe", "compare", "testdata/probe/serve-l40s.json"}, 0},
		{[]string{"probe", "compare", "testdata/probe/none.json"}, 2},
		// No entry point to start (model/launch Plan.NoEntry): each reason in Chinese.
		{[]string{"export", "--model", "bert-large", "--task", "finetune", "--instance", "aws/g6.xlarge", "--format", "torchrun", "-o", filepath.Join(t.TempDir(), "a.sh")}, 2},
		{[]string{"export", "--model", "resnet50", "--task", "finetune", "--instance", "aws/g6.xlarge", "--format", "torchrun", "-o", filepath.Join(t.TempDir(), "b.sh")}, 2},
		{[]string{"export", "--model", "gpt2", "--task", "train", "--instance", "aws/g6.xlarge", "--format", "docker", "-o", filepath.Join(t.TempDir(), "c.sh")}, 2},
		{[]string{"export", "--model", "bert-large", "--task", "inference", "--instance", "aws/g6.xlarge", "--format", "torchrun", "-o", filepath.Join(t.TempDir(), "d.sh")}, 2},
	} {
		code, out, errs := runLang(t, zhLocale, tc.args...)
		name := strings.Join(tc.args, " ")
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d; stderr %s", name, code, tc.code, errs)
		}
		if leaks := i18n.Leaks(out+errs, allow); len(leaks) > 0 {
			t.Errorf("%s: English left in Chinese output: %q\n%s%s", name, leaks, out, errs)
		}
		if strings.Contains(out+errs, "`") { // zh-CN.toml's identifier marks, raw on a terminal (trial 15c)
			t.Errorf("%s: a backquote in Chinese output:\n%s%s", name, out, errs)
		}
	}
}

// TestLangChoice: --lang beats the config's lang key, which beats LANG;
// English output is the same whichever way English was chosen; a language
// without a catalogue is one line and exit 2 (issue 20).
func TestLangChoice(t *testing.T) {
	zhCfg := writeFile(t, "zh.toml", "schema_version = 1\nlang = \"zh-CN\"\n[workload]\nmodel = \"bert-large\"\n")
	enCfg := writeFile(t, "en.toml", "schema_version = 1\nlang = \"en\"\n[workload]\nmodel = \"bert-large\"\n")
	badCfg := writeFile(t, "bad.toml", "schema_version = 1\nlang = \"klingon\"\n[workload]\nmodel = \"bert-large\"\n")
	_, english, _ := runLang(t, "C", "estimate", "--model", "bert-large")
	_, chinese, _ := runLang(t, zhLocale, "estimate", "--model", "bert-large")
	if english == chinese || !strings.Contains(english, "VRAM") || !strings.Contains(chinese, "显存") {
		t.Fatalf("LANG does not pick the language:\n%s\n%s", english, chinese)
	}
	for _, tc := range []struct {
		lang string
		args []string
		want string // "en", "zh" or an error line's start
	}{
		{zhLocale, []string{"--lang", "en", "estimate", "--model", "bert-large"}, "en"},
		{zhLocale, []string{"estimate", "--model", "bert-large", "--lang=en"}, "en"},
		{"C", []string{"--lang", "zh-CN", "estimate", "--model", "bert-large"}, "zh"},
		{"C", []string{"estimate", "--lang", "zh_CN.UTF-8", "--model", "bert-large"}, "zh"},
		{"C", []string{"estimate", "--config", zhCfg}, "zh"},
		{zhLocale, []string{"estimate", "--config", enCfg}, "en"},
		{"C", []string{"estimate", "--config", zhCfg, "--lang", "en"}, "en"},
		{"C", []string{"--lang", "fr", "estimate", "--model", "bert-large"}, "gpuplan: --lang: unknown language \"fr\": use en or zh-CN\n"},
		{zhLocale, []string{"--lang", "fr", "estimate", "--model", "bert-large"}, "gpuplan：--lang：不支持的语言 \"fr\"：请用 en 或 zh-CN\n"},
		{"C", []string{"--lang", "", "estimate"}, "gpuplan: --lang \"\": give en or zh-CN\n"},
		{"C", []string{"estimate", "--config", badCfg}, "gpuplan: " + badCfg + ": lang: unknown language \"klingon\": use en or zh-CN\n"},
	} {
		code, out, errs := runLang(t, tc.lang, tc.args...)
		name := tc.lang + " " + strings.Join(tc.args, " ")
		switch tc.want {
		case "en":
			if code != 0 || out != english {
				t.Errorf("%s: exit %d, want the English report; stderr %s", name, code, errs)
			}
		case "zh":
			if code != 0 || out != chinese {
				t.Errorf("%s: exit %d, want the Chinese report; stderr %s", name, code, errs)
			}
		default:
			if code != ExitUsage || errs != tc.want || out != "" {
				t.Errorf("%s: exit %d, stderr %q; want 2 and %q", name, code, errs, tc.want)
			}
		}
	}
}

// TestErrorLinesByKey: the command line's error lines are rendered from
// their messages and the errors they name (i18n.Printer.Error), so the
// Chinese line is the catalogue's translation with the values kept as
// typed, and the English line is the error's text byte for byte; nothing
// is translated by matching English text against formats (issue 31).
func TestErrorLinesByKey(t *testing.T) {
	p := i18n.New(language.SimplifiedChinese)
	cfgErr := &config.Error{Key: "workload.epochs", Line: 4, Msg: model.Msg("must be > 0, got %v", -1)}
	for _, tc := range []struct {
		err error
		en  string
		zh  string
	}{
		{usage(model.Msg("--config %s: %v", "run.toml", syscall.ENOENT)), "--config run.toml: no such file or directory", "--config run.toml：没有这个文件或目录"},
		{model.Msg("%s: %v", "run.toml", &config.Error{Key: "workload.bach_size", Msg: model.Msg("unknown key %q; did you mean %q?", "bach_size", "batch_size")}),
			`run.toml: workload.bach_size: unknown key "bach_size"; did you mean "batch_size"?`, `run.toml：workload.bach_size：没有键 "bach_size"；是不是 "batch_size"？`},
		{model.Msg("%s: %v", "run.toml", cfgErr), `run.toml: workload.epochs (line 4): must be > 0, got -1`, `run.toml：workload.epochs（第 4 行）：必须大于 0，实际为 -1`},
		{usage(model.Msg("unknown flag --%s; did you mean %s? (see %s --help)", "modle", "--model", "gpuplan estimate")),
			`unknown flag --modle; did you mean --model? (see gpuplan estimate --help)`, `没有参数 --modle；是不是想用 --model？（见 gpuplan estimate --help）`},
		{errors.Join(model.Msg("line %d: %s", 2, "x"), syscall.EACCES), "line 2: x; permission denied", "第 2 行：x；权限不足"},
		{errors.New("nothing we know"), "nothing we know", "nothing we know"}, // no key: as it was
	} {
		if got := oneLine(p, tc.err); got != tc.zh {
			t.Errorf("zh %q:\n got %q\nwant %q", tc.err, got, tc.zh)
		}
		if got := oneLine(nil, tc.err); got != tc.en {
			t.Errorf("en %q: got %q", tc.err, got)
		}
	}
}

// FuzzOneLine: any error text (they carry file names and typed values),
// alone or inside a message, is rendered without a panic, on one line,
// and English is the text as it is.
func FuzzOneLine(f *testing.F) {
	for _, s := range []string{"--config x: no such file or directory", "%s: %s", "a: b or c", "\x00: :", `unknown command "" for ""`} {
		f.Add(s)
	}
	p := i18n.New(language.SimplifiedChinese)
	f.Fuzz(func(t *testing.T, s string) {
		err := model.Msg("--config %s: %v", "run.toml", errors.New(s))
		if got := oneLine(p, err); strings.Contains(got, "\n") {
			t.Fatalf("two lines: %q", got)
		}
		if got := oneLine(nil, errors.New(s)); got != sanitize(strings.ReplaceAll(strings.TrimSpace(s), "\n", "; ")) {
			t.Fatalf("English changed: %q → %q", s, got)
		}
	})
}

// TestChineseHelpAligned: the flag table of Chinese help starts every
// usage at the same display column (CJK placeholders are two cells wide).
func TestChineseHelpAligned(t *testing.T) {
	_, out, _ := runLang(t, zhLocale, "recommend", "--help")
	col, lines := -1, 0
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "  -") && !strings.HasPrefix(l, "      --") {
			col = -1 // a new table (参数, 全局参数) has its own column
			continue
		}
		lines++
		i := strings.Index(l, "--")
		i += strings.Index(l[i:], "   ") // the padding before the usage
		for i >= 0 && i < len(l) && l[i] == ' ' {
			i++
		}
		w := ansi.StringWidth(l[:i])
		if col < 0 {
			col = w
		}
		if w != col {
			t.Errorf("usage at column %d, want %d: %q", w, col, l)
		}
	}
	if lines < 10 {
		t.Fatalf("%d flag lines in:\n%s", lines, out)
	}
}

// FuzzScanFlag: the pre-scan of --lang and --config never panics and
// agrees with the last --name=value it is given.
func FuzzScanFlag(f *testing.F) {
	f.Add("estimate --lang zh-CN", "zh")
	f.Add("--lang", "x")
	f.Add("-- --lang en", "y")
	f.Fuzz(func(t *testing.T, line, v string) {
		if strings.ContainsAny(v, " \t\n") {
			return
		}
		args := append(strings.Fields(line), "--lang="+v)
		before := args[:len(args)-1]
		if slices.Contains(before, "--") || len(before) > 0 && before[len(before)-1] == "--lang" {
			return // after "--", or the value of a bare --lang (as pflag reads it)
		}
		if got, ok := scanFlag(args, "lang"); !ok || got != v {
			t.Fatalf("scanFlag(%q) = %q, %v; want %q", args, got, ok, v)
		}
	})
}

// TestChineseCompletions: the descriptions __complete prints beside each
// candidate (commands, lists, flags) are in Chinese under zh-CN, as the
// help is (trial 15b N9); English stays English. Cobra's "Completion ended
// with directive" on stderr is for the shell script, which discards it.
func TestChineseCompletions(t *testing.T) {
	allow := cliAllowlist(t)
	for _, args := range [][]string{
		{"__complete", ""},
		{"__complete", "catalog", ""},
		{"__complete", "recommend", "--"},
		{"__complete", "export", "--"},
		{"__complete", "offers", "--"},
		{"__complete", "estimate", "--h"},
		{"__complete", "--"},
	} {
		code, out, errs := runLang(t, zhLocale, args...)
		name := strings.Join(args, " ")
		if code != 0 || strings.Count(out, "\t") < 1 {
			t.Errorf("%s: exit %d, %d candidates with descriptions: %s", name, code, strings.Count(out, "\t"), errs)
		}
		if leaks := i18n.Leaks(out, allow); len(leaks) > 0 {
			t.Errorf("%s: English left in Chinese completions: %q\n%s", name, leaks, out)
		}
		if strings.Contains(out, "`") {
			t.Errorf("%s: a backquote in Chinese completions:\n%s", name, out)
		}
	}
	_, out, _ := runLang(t, "C", "__complete", "")
	if !strings.Contains(out, "recommend\tRank the cloud GPU offers that run a workload, by cost\n") {
		t.Errorf("English completions changed:\n%s", out)
	}
}

// TestChineseDataWarnings: the warnings loading overlays prints (a
// SkyPilot vms.csv's skipped rows, the kept catalog fields, the load
// guards on a TOML price patch) are in Chinese under zh-CN, names and
// numbers as they are (trial 15b: they stayed English). The fixtures are
// data/testdata/skypilot's, plus a retired and a re-counted type.
func TestChineseDataWarnings(t *testing.T) {
	allow := cliAllowlist(t)
	allow.Add("FPGA TPU Gaudi Inferentia Trainium AcceleratorCount N1 n1-standard DWS flex-start flex_start GCP sa-east us-eats") // names: accelerators, columns, machine series, regions
	var args []string
	for _, f := range []string{"aws/vms.csv", "gcp/vms.csv", "lambda/vms.csv", "azure/vms.csv", "cheap.toml"} {
		args = append(args, "--catalog", filepath.Join("testdata", "overlays", f))
	}
	_, _, english := runLang(t, "C", append(args, "catalog", "gpus")...)
	code, _, errs := runLang(t, zhLocale, append(args, "catalog", "gpus")...)
	if code != 0 || strings.Count(errs, "\n") != strings.Count(english, "\n") || strings.Count(errs, "\n") < 12 {
		t.Fatalf("exit %d; %d warnings in Chinese, %d in English:\n%s\n%s", code, strings.Count(errs, "\n"), strings.Count(english, "\n"), errs, english)
	}
	for _, line := range strings.Split(strings.TrimSpace(errs), "\n") {
		if leaks := i18n.Leaks(line, allow); len(leaks) > 0 {
			t.Errorf("English left: %q in\n%s", leaks, line)
		}
	}
}

// TestChineseErrorsByKey: errors that reached the Chinese command line in
// English — filter errors, provider errors, value hints, loader errors,
// Hugging Face config.json errors, flag errors, a vms.csv's summarised
// warnings — are rendered from their message keys, whole, with no English
// word left (issue 31: "Chinese without guesswork"). Every line is one
// line and keeps the values the user typed.
func TestChineseErrorsByKey(t *testing.T) {
	allow := cliAllowlist(t)
	allow.Add("awz Q z") // what the cases type
	dir := t.TempDir()
	badOverlay := writeFile(t, "bad.toml", "schema_version = 1\n[[instance]]\nprovider = \"aws\"\ntype = \"zz.new\"\ngpu = \"t4\"\ngpu_count = 2000\nvcpus = 4\nmemory_gib = 16\nsource = \"x\"\nas_of = 2026-11-30\nprices = [{ region = \"us-east-1\", on_demand = 1.0 }]\n")
	hfPath := filepath.Join(dir, "config.json")
	if err := os.WriteFile(hfPath, []byte(`{"model_type": "llama", "hidden_size": "big"`), 0o644); err != nil {
		t.Fatal(err)
	}
	csv := filepath.Join(dir, "aws", "vms.csv")
	var rows strings.Builder
	rows.WriteString("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n")
	for i := range 5 { // spot above on-demand: three shown, two counted
		fmt.Fprintf(&rows, "zz%d.xlarge,T4,1,4,16,,0.5,0.9,us-east-1,use1-az1\n", i)
	}
	if err := os.MkdirAll(filepath.Dir(csv), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(csv, []byte(rows.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string // a part of the Chinese output
	}{
		{[]string{"offers", "H100:x"}, "两次给出名称"},                                                                  // a filter error
		{[]string{"recommend", "--model", "bert-large", "--providers", "awz"}, `没有云厂商 "awz"`},                     // a provider error
		{[]string{"estimate", "--params", "7B", "--layers", "32", "--hidden", "4096", "--heads", "33"}, "模型结构无效"}, // an architecture value hint
		{[]string{"estimate", "--model", "bert-large", "--task", "inference", "--precision", "amp-bf16"}, "不是推理精度"},
		{[]string{"estimate", "--params", "7Q"}, `--params "7Q"：`},                       // a quantity, its flag
		{[]string{"catalog", "gpus", "--catalog", badOverlay}, "`gpu_count` 必须是 1–1024"}, // a loader error
		{[]string{"estimate", "--hf-config", hfPath}, "JSON"},                            // a Hugging Face config.json error
		{[]string{"offers", "-z"}, "没有短参数"},                                              // pflag's error, by its type
		{[]string{"catalog", "gpus", "--catalog", csv}, "另有 2 条同类警告"},                    // a vms.csv's warnings, summarised
	} {
		t.Setenv("XDG_CONFIG_HOME", t.TempDir())
		t.Setenv("HOME", t.TempDir())
		var stdout, stderr bytes.Buffer
		Run(Env{Args: tc.args, Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Version: "test",
			Getenv: func(k string) string { return map[string]string{"LANG": zhLocale}[k] }, LoadCatalog: data.LoadWith, Readers: hf.Readers()})
		out, errs := stdout.String(), stderr.String()
		name := strings.Join(tc.args, " ")
		if !strings.Contains(out+errs, strings.ReplaceAll(tc.want, "`", "")) {
			t.Errorf("%s: no %q in:\n%s%s", name, tc.want, out, errs)
		}
		if leaks := i18n.Leaks(errs, allow); len(leaks) > 0 {
			t.Errorf("%s: English left in Chinese output: %q\n%s", name, leaks, errs)
		}
	}
}
