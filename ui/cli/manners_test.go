package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/gpuplan/gpuplan/data"
)

// TestHelpBooleans: every command's help shows booleans as gh does,
// "--json", never pflag's "--json[=true|false]".
func TestHelpBooleans(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"estimate", "--help"}, {"recommend", "--help"}, {"export", "--help"},
		{"catalog", "--help"}, {"version", "--help"}, {"completion", "--help"}} {
		code, out, errs := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		if strings.Contains(out, "[=true|false]") {
			t.Errorf("%v prints [=true|false]:\n%s", args, out)
		}
		if !strings.Contains(out, "  -h, --help ") {
			t.Errorf("%v: no plain -h, --help line:\n%s", args, out)
		}
	}
	// The booleans still parse both ways.
	for _, args := range [][]string{{"version", "--json"}, {"version", "--json=true"}} {
		if code, out, errs := runCLI(t, args...); code != 0 || !strings.HasPrefix(out, "{") {
			t.Errorf("%v: exit %d, out %q, err %s", args, code, out, errs)
		}
	}
	if code, out, _ := runCLI(t, "version", "--json=false"); code != 0 || strings.HasPrefix(out, "{") {
		t.Errorf("--json=false printed JSON: %q", out)
	}
}

// TestSuggestFlag: the closest flag by name; issue 18's --output got --tp.
func TestSuggestFlag(t *testing.T) {
	names := []string{"model", "gpu", "gpus", "tp", "output", "json", "batch-size", "seq-len", "providers", "regions", "pricing", "config", "hf-config"}
	for _, tc := range []struct{ in, want string }{
		{"output", "output"},  // exact name on a command that lacks it is not here; see below
		{"outptu", "output"},  // transposition: one edit (OSA)
		{"modle", "model"},    // transposition: one edit; Levenshtein's 2 was too far for 5 letters
		{"ofset", ""},         // not near anything here
		{"out", "output"},     // a prefix
		{"outputs", "output"}, // the flag is the name's start
		{"provider", "providers"},
		{"region", "regions"},
		{"batch", "batch-size"},
		{"gpuz", "gpu"},
		{"tpp", "tp"},
		{"verbose", ""},              // nothing near: no guess
		{"ut", ""},                   // "ut" occurs in "output" but is no prefix
		{"config-json", "hf-config"}, // meant, not spelt: --config is a TOML file
	} {
		got := suggestFlag(tc.in, names)
		if tc.in == "output" {
			got = suggestFlag(tc.in, slices.DeleteFunc(slices.Clone(names), func(s string) bool { return s == "output" }))
			tc.want = "" // without --output, nothing: never --tp
		}
		if got != tc.want {
			t.Errorf("suggestFlag(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	code, _, errs := runCLI(t, "recommend", "--model", "bert-large", "--outptu", "json")
	if code != ExitUsage || !strings.Contains(errs, "did you mean -o/--output?") {
		t.Errorf("exit %d: %s", code, errs)
	}
	code, _, errs = runCLI(t, "estimate", "--modle", "bert-large")
	if code != ExitUsage || !strings.Contains(errs, "unknown flag --modle; did you mean --model?") {
		t.Errorf("--modle: exit %d: %s", code, errs)
	}
}

// TestOutputFlag: -o json is --json, -o csv prints one record per offer
// or catalog row, and --json with -o csv is refused.
func TestOutputFlag(t *testing.T) {
	_, viaJSON, _ := runCLI(t, "estimate", "--model", "bert-large", "--json")
	code, viaO, errs := runCLI(t, "estimate", "--model", "bert-large", "-o", "json")
	if code != 0 || viaO != viaJSON {
		t.Errorf("-o json differs from --json (exit %d, %s)", code, errs)
	}
	code, out, errs := runCLI(t, "recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--providers", "aws", "-o", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) < 2 || recs[0][0] != "provider" || recs[0][1] != "instance_type" {
		t.Fatalf("bad CSV (%v):\n%s", err, out)
	}
	var rec struct {
		Offers      []json.RawMessage `json:"offers"`
		OffersTotal int               `json:"offers_total"`
	}
	// -o csv lists every offer unless --limit is given (a spreadsheet
	// export); --json, read by scripts, keeps the table's --limit, as
	// gh's --json does, and counts the rest in offers_total.
	_, js, _ := runCLI(t, "recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--providers", "aws", "--json", "--limit", "0")
	if err := json.Unmarshal([]byte(js), &rec); err != nil || len(rec.Offers) != len(recs)-1 || rec.OffersTotal != len(rec.Offers) {
		t.Errorf("CSV has %d offers, JSON with --limit 0 %d of %d (%v)", len(recs)-1, len(rec.Offers), rec.OffersTotal, err)
	}
	_, js, _ = runCLI(t, "recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--providers", "aws", "--json")
	_, table, _ := runCLI(t, "recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--providers", "aws")
	shown := 0
	for _, l := range strings.Split(table, "\n") {
		if strings.HasPrefix(l, "aws ") {
			shown++
		}
	}
	rec.Offers = nil
	if err := json.Unmarshal([]byte(js), &rec); err != nil || len(rec.Offers) < shown || shown != 10 || len(rec.Offers) >= len(recs)-1 || rec.OffersTotal != len(recs)-1 {
		t.Errorf("without --limit: the table shows %d rows, JSON %d offers of %d, CSV %d (%v); want the table's 10 rows, each region an offer, and every offer counted", shown, len(rec.Offers), rec.OffersTotal, len(recs)-1, err)
	}
	for _, r := range recs[1:] {
		if r[0] != "aws" || strings.Contains(r[1], "…") {
			t.Errorf("record %v: want a full aws instance name", r)
		}
	}
	code, out, _ = runCLI(t, "catalog", "instances", "--provider", "gcp", "-o", "csv")
	if code != 0 || !strings.HasPrefix(out, "provider,instance_type,") || !strings.Contains(out, "\ngcp,a3-megagpu-8g,") {
		t.Errorf("catalog CSV: exit %d\n%.300s", code, out)
	}
	for _, args := range [][]string{{"catalog", "gpus", "--json", "-o", "csv"}, {"estimate", "--model", "bert-large", "-o", "csv"}, {"catalog", "gpus", "-o", "yaml"}} {
		if code, _, errs := runCLI(t, args...); code != ExitUsage || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, want 2 with one line: %q", args, code, errs)
		}
	}
}

// complete runs cobra's __complete, as the bash, zsh and fish scripts do,
// and returns the candidates (descriptions cut) and the directive.
func complete(t *testing.T, args ...string) ([]string, cobra.ShellCompDirective) {
	t.Helper()
	code, out, errs := runCLI(t, append([]string{cobra.ShellCompRequestCmd}, args...)...)
	if code != 0 {
		t.Fatalf("__complete %v: exit %d: %s", args, code, errs)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	last := lines[len(lines)-1]
	var d int
	if !strings.HasPrefix(last, ":") || json.Unmarshal([]byte(last[1:]), &d) != nil {
		t.Fatalf("__complete %v: no :directive line:\n%s", args, out)
	}
	var vals []string
	for _, l := range lines[:len(lines)-1] {
		v, _, _ := strings.Cut(l, "\t")
		vals = append(vals, v)
	}
	return vals, cobra.ShellCompDirective(d)
}

// TestCompletion drives the __complete protocol that the generated bash,
// zsh and fish scripts call, for every kind of value.
func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish"} {
		code, script, errs := runCLI(t, "completion", shell)
		if code != 0 || !strings.Contains(script, "__complete") {
			t.Errorf("completion %s: exit %d, script does not call __complete (%s)", shell, code, errs)
		}
	}
	noFile := cobra.ShellCompDirectiveNoFileComp
	for _, tc := range []struct {
		name      string
		args      []string
		has, lack []string
		directive cobra.ShellCompDirective
	}{
		{"--model keys", []string{"estimate", "--model", ""}, []string{"llama-3.1-8b", "bert-large"}, nil, noFile},
		{"--gpu keys", []string{"recommend", "--gpu", ""}, []string{"h100-sxm", "a100-80gb"}, nil, noFile},
		{"--instance providers first", []string{"export", "--instance", ""}, []string{"aws/", "gcp/"}, []string{"aws/p5.48xlarge"}, noFile | cobra.ShellCompDirectiveNoSpace},
		{"--instance types", []string{"export", "--instance", "aws/p"}, []string{"aws/p5.48xlarge", "aws/p4de.24xlarge"}, []string{"gcp/a3-megagpu-8g"}, noFile},
		{"--providers list", []string{"recommend", "--providers", "aws,"}, []string{"aws,gcp", "aws,lambda"}, []string{"aws,aws", "aws,cudo"}, noFile | cobra.ShellCompDirectiveNoSpace},
		{"--instance providers leave out the retired", []string{"export", "--instance", ""}, []string{"lambda/"}, []string{"cudo/"}, noFile | cobra.ShellCompDirectiveNoSpace},
		{"--regions of chosen providers", []string{"recommend", "--providers", "gcp", "--regions", ""}, []string{"us-central1"}, []string{"us-east-1"}, noFile | cobra.ShellCompDirectiveNoSpace},
		{"--region of the instance", []string{"export", "--instance", "aws/p5.48xlarge", "--region", ""}, []string{"us-east-1"}, []string{"us-central1"}, noFile},
		{"--format", []string{"export", "--format", ""}, []string{"toml", "skypilot", "torchrun", "docker", "k8s", "pytorchjob"}, nil, noFile},
		{"--k8s-kind", []string{"export", "--k8s-kind", ""}, []string{"trainjob", "pytorchjob"}, nil, noFile},
		{"--task", []string{"estimate", "--task", ""}, []string{"train", "finetune", "lora", "qlora", "inference"}, nil, noFile},
		{"--precision", []string{"estimate", "--precision", ""}, []string{"amp-bf16", "fp8", "int4"}, nil, noFile},
		{"--strategy", []string{"recommend", "--strategy", ""}, []string{"ddp", "fsdp", "zero3"}, nil, noFile},
		{"--pricing", []string{"recommend", "--pricing", ""}, []string{"on-demand", "spot", "reserved-1y"}, nil, noFile},
		{"--sort", []string{"recommend", "--sort", ""}, []string{"price", "job"}, nil, noFile},
		{"-o on recommend", []string{"recommend", "-o", ""}, []string{"table", "json", "csv"}, nil, noFile},
		{"--lang, nothing typed", []string{"recommend", "--lang", ""}, []string{"en", "zh-CN"}, nil, noFile},
		{"--lang, half typed", []string{"--lang", "zh-"}, []string{"zh-CN"}, nil, noFile},
		{"--lora-targets", []string{"estimate", "--lora-targets", "q,"}, []string{"q,k", "q,down"}, []string{"q,q"}, noFile | cobra.ShellCompDirectiveNoSpace},
		{"--batch-size is a number", []string{"estimate", "--batch-size", ""}, nil, nil, noFile},
		{"--config is a TOML file", []string{"recommend", "--config", ""}, []string{"toml"}, nil, cobra.ShellCompDirectiveFilterFileExt},
		{"catalog lists", []string{"catalog", ""}, []string{"gpus", "instances", "models"}, nil, noFile},
		// Only candidates that start with the typed word, ignoring case.
		{"--model by prefix", []string{"recommend", "--model", "LLAMA-3.1"}, []string{"llama-3.1-8b", "llama-3.1-70b"}, []string{"resnet18", "bert-large", "llama-2-7b"}, noFile},
		{"--gpu by prefix", []string{"estimate", "--gpu", "h1"}, []string{"h100-sxm"}, []string{"a100-80gb", "l4"}, noFile},
		{"--task by prefix", []string{"estimate", "--task", "q"}, []string{"qlora"}, []string{"train", "lora"}, noFile},
		{"--providers by prefix", []string{"recommend", "--providers", "aws,g"}, []string{"aws,gcp"}, []string{"aws,lambda"}, noFile | cobra.ShellCompDirectiveNoSpace},
		// gpuplan offers: its enum flags and GPU-spec arguments.
		{"offers --pricing", []string{"offers", "--pricing", ""}, []string{"on-demand", "spot", "reserved-1y", "flex-start", "capacity-block"}, nil, noFile},
		{"offers --arch", []string{"offers", "--arch", ""}, []string{"x86_64", "arm64"}, nil, noFile},
		{"offers --interconnect", []string{"offers", "--interconnect", "nv"}, []string{"nvlink", "nvswitch"}, []string{"pcie", "fast"}, noFile},
		{"offers --group-by", []string{"offers", "--group-by", ""}, []string{"gpu", "provider", "region"}, nil, noFile},
		{"offers --sort", []string{"offers", "--sort", "vr"}, []string{"vram-price", "vram"}, []string{"price", "gpu-price"}, noFile},
		{"offers GPU spec", []string{"offers", "H1"}, []string{"h100-sxm", "h100-pcie"}, []string{"a100-80gb"}, noFile},
		{"offers second GPU spec", []string{"offers", "a100-80gb:8,l"}, []string{"a100-80gb:8,l4"}, []string{"a100-80gb:8,h100-sxm", "l4"}, noFile},
		{"offers GPU count is the user's", []string{"offers", "h100-sxm:"}, nil, []string{"h100-sxm"}, noFile},
		{"catalog instances GPU spec", []string{"catalog", "instances", "l4"}, []string{"l4"}, []string{"h100-sxm"}, noFile},
		{"completion shells", []string{"completion", ""}, []string{"bash", "zsh", "fish"}, nil, noFile},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vals, d := complete(t, tc.args...)
			for _, h := range tc.has {
				if !slices.Contains(vals, h) {
					t.Errorf("candidates lack %q: %v", h, vals)
				}
			}
			for _, l := range tc.lack {
				if slices.Contains(vals, l) {
					t.Errorf("candidates have %q", l)
				}
			}
			if d != tc.directive {
				t.Errorf("directive %v, want %v", d, tc.directive)
			}
		})
	}
}

// TestPipedTables: on a pipe the tables print whole names and no rule, so
// a name can be pasted back into --instance; COLUMNS asks for the
// terminal's layout (rule, cut names) through a pipe.
func TestPipedTables(t *testing.T) {
	run := func(columns string, args ...string) string { t.Helper(); return runColumns(t, columns, args...) }
	rec := []string{"recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--providers", "lambda", "--limit", "0"}
	// The providers of the catalog this test was written on: nebius's H200 host ranks in the first 12.
	serve := []string{"recommend", "--model", "llama-3.1-8b", "--task", "inference", "--limit", "12", "--providers", "aws,azure,gcp,lambda,nebius,oci,paperspace,fluidstack,do"}
	for _, args := range [][]string{rec, serve, {"offers"}, {"offers", "--group-by", "provider"}, {"catalog", "instances"}, {"catalog", "gpus"}, {"catalog", "models"}} {
		out := run("", args...)
		// "… N more offers" under a --limit is not a cut name.
		if body := regexp.MustCompile(`(?m)^… .*$`).ReplaceAllString(out, ""); strings.Contains(body, "…") || strings.Contains(out, "─") {
			t.Errorf("%v piped: cut names or box lines:\n%s", args, out)
		}
		for i, l := range strings.Split(out, "\n") {
			if strings.TrimRight(l, " ") != l {
				t.Errorf("%v piped: line %d ends in blanks: %q", args, i+1, l)
				break
			}
		}
	}
	// The serving table names nebius's H200 host whole (new-user trial:
	// "gpu-h200-sxm_1gpu-16vcpu-…").
	if out := run("", serve...); !strings.Contains(out, "gpu-h200-sxm_1gpu-16vcpu-200gb ") {
		t.Errorf("piped serving table cuts the name:\n%s", out)
	}
	// lambda's gh200 is priced in 17 regions, which say where the price
	// applies, not where it is offered: "any of 17 regions", whole, piped
	// or not (walk49: "asia-northeast-1 +16" read as Tokyo).
	if out := run("", rec...); !strings.Contains(out, "any of 17 regions") {
		t.Errorf("piped region is not whole:\n%s", out)
	}
	if out := run("200", rec...); !strings.Contains(out, "─") || !strings.Contains(out, "any of 17 regions") {
		t.Errorf("COLUMNS=200: want the terminal layout:\n%s", out)
	}
	// Every piped instance name is one --instance takes.
	out := run("", "catalog", "instances", "--provider", "azure")
	for _, l := range strings.Split(out, "\n")[1:min(12, strings.Count(out, "\n"))] {
		f := strings.Fields(l)
		if len(f) < 2 || f[0] != "azure" {
			continue
		}
		if code, _, errs := runCLI(t, "export", "--model", "bert-base", "--instance", "azure/"+f[1], "--format", "toml", "--pricing", "on-demand"); code == ExitUsage && strings.Contains(errs, "unknown") {
			t.Errorf("piped name %q is not accepted by --instance: %s", f[1], errs)
		}
	}
}

// TestUnknownCommand: a mistyped command is named as such, with cobra's
// suggestion, even when flags follow it (new-user trial: `recomend
// --model x` said "unknown flag --model").
func TestUnknownCommand(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"recomend", "--model", "x"}, `unknown command "recomend" for "gpuplan"; did you mean "recommend"? (see gpuplan --help)`},
		{[]string{"estimat"}, `unknown command "estimat" for "gpuplan"; did you mean "estimate"? (see gpuplan --help)`},
		{[]string{"ofers", "H100"}, `unknown command "ofers" for "gpuplan"; did you mean "offers"? (see gpuplan --help)`},
		{[]string{"frobnicate", "--gpu", "h100"}, `unknown command "frobnicate" for "gpuplan" (see gpuplan --help)`},
	} {
		code, _, errs := runCLI(t, tc.args...)
		if code != ExitUsage || errs != "gpuplan: "+tc.want+"\n" {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
	// help with a topic that names no command says so, as a typo does
	// (trial 15: `help recomend` printed the root's help, exit 0).
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"help", "recomend"}, `unknown help topic "recomend"; did you mean "recommend"? (see gpuplan --help)`},
		{[]string{"--lang", "en", "help", "ofers"}, `unknown help topic "ofers"; did you mean "offers"? (see gpuplan --help)`},
		{[]string{"help", "catalog", "gpu"}, `unknown help topic "catalog gpu"; did you mean "catalog gpus"? (see gpuplan --help)`},
		{[]string{"help", "frobnicate"}, `unknown help topic "frobnicate" (see gpuplan --help)`},
	} {
		code, out, errs := runCLI(t, tc.args...)
		if code != ExitUsage || out != "" || errs != "gpuplan: "+tc.want+"\n" {
			t.Errorf("%v: exit %d, stdout %d bytes, stderr %q; want 2, none and %q", tc.args, code, len(out), errs, tc.want)
		}
	}
	// Known commands, aliases and cobra's own still run; help on a real
	// command is its --help.
	for _, args := range [][]string{{"version"}, {"help", "estimate"}, {"help", "catalog", "gpus"}, {"help", "help"}, {"help", "completion", "bash"}, {"help"}, {"__complete", "estim"}} {
		if code, _, errs := runCLI(t, args...); code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
	}
	_, viaHelp, _ := runCLI(t, "help", "catalog", "gpus")
	_, viaFlag, _ := runCLI(t, "catalog", "gpus", "--help")
	if viaHelp != viaFlag || !strings.Contains(viaHelp, "gpuplan catalog gpus") {
		t.Errorf("help catalog gpus differs from catalog gpus --help:\n%s\n---\n%s", viaHelp, viaFlag)
	}
}

// runColumns runs gpuplan with args on the embedded catalog, COLUMNS set
// to columns ("" unset) and nothing else in the environment, as on a
// pipe, and returns its standard output; a non-zero exit fails t.
func runColumns(t *testing.T, columns string, args ...string) string {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	var out, errb bytes.Buffer
	code := Run(Env{Args: args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Version: "test", LoadCatalog: data.LoadWith,
		Getenv: func(k string) string {
			if k == "COLUMNS" {
				return columns
			}
			return ""
		}})
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errb.String())
	}
	return out.String()
}
