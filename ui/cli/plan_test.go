package cli

import (
	"os"
	"strings"
	"testing"
)

func TestPlanCommand(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		out  []string // in stdout
		err  string   // in stderr
	}{
		// fine-tune 14.5 h × $0.2977 = $4.32; serve 6 × 300 h × $0.8048 =
		// $1,448.64; total $1,452.96.
		{"two phases", []string{"plan", "testdata/plan-two-phases.toml"}, 0,
			[]string{"fine-tune", "$4.32", "6 months × 300 h", "1800", "$1,449", "Total $1,453"}, ""},
		{"json", []string{"plan", "testdata/plan-two-phases.toml", "--json"}, 0,
			[]string{`"total_usd": 1452.96`, `"billed_hours": 1800`, `"usd": 4.32`}, ""},
		{"not TOML", []string{"plan", "plan_test.go"}, 2, nil, "plan_test.go: line"},
		{"missing file", []string{"plan", "testdata/nothing.toml"}, 2, nil, "no such file"},
		{"no file", []string{"plan"}, 2, nil, "plan needs a file: gpuplan plan PLAN.toml"},
	}
	for _, tt := range tests {
		code, out, errOut := runCLI(t, tt.args...)
		if code != tt.code {
			t.Errorf("%s: exit %d, want %d; stderr %q", tt.name, code, tt.code, errOut)
		}
		for _, w := range tt.out {
			if !strings.Contains(out, w) {
				t.Errorf("%s: stdout lacks %q:\n%s", tt.name, w, out)
			}
		}
		if tt.err != "" && (!strings.Contains(errOut, tt.err) || strings.Count(errOut, "\n") != 1) {
			t.Errorf("%s: stderr %q, want one line with %q", tt.name, errOut, tt.err)
		}
	}
}

// TestPlanCheckedAgainstCatalog: plan prices with the file's figures but
// says, one warning line each, which offers the catalog does not have or
// prices otherwise; the total stays the plan's.
func TestPlanCheckedAgainstCatalog(t *testing.T) {
	code, out, errOut := runCLI(t, "plan", "--no-savings", "testdata/plan-two-phases.toml")
	if code != 0 || !strings.Contains(out, "Total $1,453") {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	if want := `warning: phase "fine-tune": gcp g2-standard-8 is not in the catalog`; !strings.Contains(errOut, want) || strings.Count(errOut, "\n") != 1 {
		t.Errorf("stderr %q, want one line with %q", errOut, want)
	}
	// The serve phase, g6.xlarge on demand in us-east-1, at half its price.
	b, err := os.ReadFile("testdata/plan-two-phases.toml")
	if err != nil {
		t.Fatal(err)
	}
	cheap := writeFile(t, "plan.toml", strings.Replace(string(b), "usd_per_hour = 0.8048", "usd_per_hour = 0.4024", 1))
	_, _, errOut = runCLI(t, "plan", "--no-savings", cheap)
	if want := `phase "serve": the plan prices aws g6.xlarge in us-east-1 (on-demand) at $0.4024/h; the catalog (as of `; !strings.Contains(errOut, want) || !strings.Contains(errOut, "says $0.8048/h") {
		t.Errorf("stderr %q, want the price difference with the catalog's $0.8048/h", errOut)
	}
	_, _, errOut = runCLI(t, "plan", "--no-savings", "--lang", "zh-CN", cheap)
	if want := `阶段 "serve"：计划给 aws g6.xlarge（us-east-1，按需实例）的价格是 $0.4024/小时`; !strings.Contains(errOut, want) {
		t.Errorf("zh-CN stderr %q, want %q", errOut, want)
	}
}

// A phase's answers naming a model the catalog lacks exit 2 when the plan
// is read, as recommend --config --phase does (re-attack 5, finding 9).
func TestPlanUnknownModel(t *testing.T) {
	p := writeFile(t, "plan.toml", "schema_version = 1\n[[phase]]\nname = \"ft\"\nusd_per_hour = 1.0\njob_hours = 2.0\n[phase.answers]\nmodel = \"llama-9.9-nope\"\ntask = \"qlora\"\n")
	code, _, errOut := runCLI(t, "plan", p)
	if want := `phase "ft" answers.model: unknown model "llama-9.9-nope"`; code != 2 || !strings.Contains(errOut, want) || strings.Count(errOut, "\n") != 1 {
		t.Errorf("exit %d, stderr %q; want 2 and one line with %q", code, errOut, want)
	}
}

// `plan -` reads standard input as --config - does, and a plan over the
// size cap says "plan", not "config" (re-attack 5, finding 10).
func TestPlanStdinAndCap(t *testing.T) {
	b, err := os.ReadFile("testdata/plan-two-phases.toml")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLIIn(t, string(b), "plan", "--no-savings", "-")
	if code != 0 || !strings.Contains(out, "Total $1,453") {
		t.Errorf("plan -: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	big := "# " + strings.Repeat("x", 257<<10) + "\n" + string(b)
	if code, _, errOut = runCLIIn(t, big, "plan", "-"); code != 2 || !strings.Contains(errOut, "above the 256 KiB limit for a plan") {
		t.Errorf("plan - over the cap: exit %d, stderr %q", code, errOut)
	}
	p := writeFile(t, "big.toml", big)
	if code, _, errOut = runCLI(t, "plan", p); code != 2 || !strings.Contains(errOut, "limit for a plan") {
		t.Errorf("plan FILE over the cap: exit %d, stderr %q", code, errOut)
	}
}

// Tiny or absurd figures given on the command line are one line and exit
// 2 (attack test 3, L4): a dataset of less than one token or sample, and
// an exchange rate outside 1–20 CNY per USD, the same bound for offers and
// recommend (offers took 0 and 1e-300, recommend refused 0).
func TestTinyFiguresRefused(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"estimate", "--model", "gpt2", "--dataset-tokens", "1e-300"}, "--dataset-tokens must be ≥ 1, got 1e-300"},
		{[]string{"estimate", "--model", "gpt2", "--dataset-samples", "0.5"}, "--dataset-samples must be ≥ 1, got 0.5"},
		{[]string{"estimate", "--model", "gpt2", "--dataset-tokens", "1M", "--epochs", "1e-300"}, "--epochs: 1e-300 epochs of a 1e+06-sample or -token dataset is less than one sample or token in all"},
		{[]string{"estimate", "--config", writeFile(t, "c.toml", "schema_version = 1\n[workload]\nmodel = \"gpt2\"\ndataset_tokens = 1e-300\n")},
			"workload.dataset_tokens: must be ≥ 1, got 1e-300; leave the key out for no dataset"},
		{[]string{"offers", "--usd-cny", "0"}, `--usd-cny "0": want how many CNY one USD buys, from 1 to 20, e.g. 7.1`},
		{[]string{"offers", "--usd-cny", "1e-300"}, `--usd-cny "1e-300": want how many CNY one USD buys, from 1 to 20`},
		{[]string{"offers", "--usd-cny", "0.14"}, `--usd-cny "0.14": want how many CNY one USD buys`},
		{[]string{"recommend", "--model", "gpt2", "--usd-cny", "0"}, `--usd-cny "0": want how many CNY one USD buys, from 1 to 20`},
		{[]string{"recommend", "--model", "gpt2", "--usd-cny", "710"}, `--usd-cny "710": want how many CNY one USD buys, from 1 to 20`},
		{[]string{"recommend", "--config", writeFile(t, "r.toml", "schema_version = 1\n[workload]\nmodel = \"gpt2\"\n[search]\nusd_cny = 0.14\n")},
			"search.usd_cny: want how many CNY one USD buys, from 1 to 20, e.g. 7.1; got 0.14"},
	} {
		code, out, errOut := runCLI(t, tc.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %.80q, stderr %q; want exit 2 and one line with %q", tc.args, code, out, errOut, tc.want)
		}
	}
	if code, _, errOut := runCLI(t, "offers", "--usd-cny", "7.1", "h100"); code != 0 {
		t.Errorf("--usd-cny 7.1: exit %d: %s", code, errOut)
	}
}
