package cli

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
)

// TestConfigPhase: estimate and recommend read a plan with --config and a
// phase with --phase; the phase's answers are the request.
func TestConfigPhase(t *testing.T) {
	plan := "testdata/plan-answers.toml" // docs/examples/plan.toml
	tests := []struct {
		name string
		args []string
		code int
		out  []string // in stdout
		err  string   // in stderr, one line
	}{
		// dataset_tokens = "100M" at seq_len 2048: 1e8 / 2048 = 48,828
		// samples, "48.8k".
		{"fine-tune phase", []string{"estimate", "--config", plan, "--phase", "fine-tune"}, 0,
			[]string{"Llama 3.1 8B · qlora", "batch 1 × 2048 tokens", "48.8k samples"}, ""},
		// flags still override the phase's answers
		{"flag over phase", []string{"estimate", "--config", plan, "--phase", "fine-tune", "--seq-len", "1024"}, 0,
			[]string{"batch 1 × 1024 tokens", "97.7k samples"}, ""},
		// The phase's offer, gcp n1-standard-8+2xT4, has two T4s: the GPUs
		// of the estimate, as a configuration's picked offer; serving is
		// planned on them with max_model_len 8192 = 7936 prompt + 256
		// output tokens. Two TP 1 replicas of 4 requests each decode at
		// about 89 ms, their range crossing the default 100 ms TPOT, and one
		// TP 2 replica of 8 at just over it (serving constants refitted with
		// the first MoE case), so auto replicas add a node: two TP 2
		// replicas meet the target across their range. Since decode pays a
		// per-layer floor (dec13) the TP 1 replicas take 84.5 ms (57.3–127.9
		// ms) and no layout meets across its range, so the phase keeps its
		// two T4s as two TP 1 replicas, borderline.
		{"serve phase", []string{"estimate", "--config", plan, "--phase", "serve"}, 0,
			[]string{"7936 prompt + 256 output tokens per request · 8 concurrent requests", "~ serves, borderline: 2 × NVIDIA T4: TP 1 × PP 1, 2 replicas", "crosses the 100.0 ms target"}, ""},
		{"phase's GPU", []string{"estimate", "--config", plan, "--phase", "fine-tune"}, 0,
			[]string{"wall clock on 1 × NVIDIA L4"}, ""},
		// export takes --phase as recommend does: the phase's workload on
		// its offer (gcp g2-standard-4, one L4, spot at the phase's price).
		{"export phase", []string{"export", "--config", plan, "--phase", "fine-tune", "--format", "skypilot"}, 0,
			[]string{"Llama 3.1 8B qlora on 1 node × gcp g2-standard-4 (1 × L4 each), us-central1, spot", "use_spot: true"}, ""},
		{"export phase, --pricing wins", []string{"export", "--config", plan, "--phase", "fine-tune", "--format", "skypilot", "--pricing", "on-demand"}, 0,
			[]string{"us-central1, on-demand", "use_spot: false"}, ""},
		{"export without phase", []string{"export", "--config", plan}, 2, nil,
			`a plan with phases "fine-tune", "serve": pick one with --phase NAME`},
		{"no phase", []string{"recommend", "--config", plan}, 2, nil,
			`a plan with phases "fine-tune", "serve": pick one with --phase NAME`},
		{"typo", []string{"estimate", "--config", plan, "--phase", "serv"}, 2, nil, `did you mean "serve"?`},
		{"phase without plan", []string{"estimate", "--model", "gpt2", "--phase", "serve"}, 2, nil, "give the plan with --config"},
		// the serve phase names serve.toml and has no answers: that file is read
		{"config file of a phase", []string{"estimate", "--config", writeFile(t, "plan.toml", strings.Replace(twoPhases(t), "name = \"serve\"\n", "name = \"serve\"\nconfig = \"serve.toml\"\n", 1)), "--phase", "serve"}, 2, nil, "serve.toml"},
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

func TestConfigPhaseStdinAndBadAnswers(t *testing.T) {
	b, err := os.ReadFile("testdata/plan-answers.toml")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLIIn(t, string(b), "estimate", "--config", "-", "--phase", "fine-tune")
	if code != 0 || !strings.Contains(out, "48.8k samples") {
		t.Errorf("plan on stdin: exit %d, stderr %q, stdout %s", code, errOut, out)
	}
	bad := strings.Replace(string(b), `batch_size = "1"`, `batch_size = "one"`, 1)
	code, _, errOut = runCLIIn(t, bad, "estimate", "--config", "-", "--phase", "fine-tune")
	if want := `phase "fine-tune" answers.batch_size: want a whole number such as 8, got "one"`; code != 2 || !strings.Contains(errOut, want) || strings.Count(errOut, "\n") != 1 {
		t.Errorf("bad answer: exit %d, stderr %q, want one line with %q", code, errOut, want)
	}
	conf := "schema_version = 1\n[workload]\nmodel = \"gpt2\"\n"
	code, _, errOut = runCLIIn(t, conf, "estimate", "--config", "-", "--phase", "serve")
	if code != 2 || !strings.Contains(errOut, "has no [[phase]] tables") {
		t.Errorf("--phase on a configuration: exit %d, stderr %q", code, errOut)
	}
}

// TestPlanSavings: gpuplan plan ranks single changes over the whole plan.
// testdata/plan-answers.toml: fine-tune on gcp g2-standard-4 spot
// ($0.2818/h, the engine's ~22–24 h, 4 h of them dequantizing QLoRA's 4-bit
// weights), serve on one n1-standard-8 with two T4s on-demand ($1.08/h)
// for 6 months × 730 h = 4,380 h, borderline there (TP 1 × 2 at 84.5 ms,
// its range to 131.2 ms crossing the 100 ms target, the adapter the
// fine-tune trains served on it). Re-priced by the
// estimator on the pinned provider, region and GPU type, the service
// stays on the instance it rents, which runs it at the estimate, as the
// plan prices it: 4,380 × $1.08 + ~22 × $0.2818 ≈ $4,736, beside the
// plan's own $4,737. It was re-priced on the ranking's first plan, two
// such instances that clear the range ($2.16/h, $9,467), and "run on l4
// (serve) saves $3,269" then left a bill of $6,198, $1,461 more than the
// plan as written: no saving (plan.PhaseScenario.pricePinned). Spot for
// the service is not offered: a service must stay up, and spot capacity
// is reclaimed at short notice (issue 31 round 4, item 9); the
// fine-tune's changes remain.
func TestPlanSavings(t *testing.T) {
	code, out, errOut := runCLI(t, "plan", "testdata/plan-answers.toml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Contains(out, "pay spot instead of on-demand (serve)") {
		t.Errorf("spot offered for the service:\n%s", out)
	}
	// The serving phase's one instance of two T4s (TP 1 × 2, 4 of the 8
	// sequences each, range to 131.2 ms with the LoRA slots of the
	// adapter the fine-tune trains read in every decode step:
	// plan.LinkTrained) is borderline; 2 instances,
	// TP 1 × 4 at 2 each (44.9 ms, range to 69.5), meet the target across
	// the range, as recommend plans that offer (serve.ClearingReplicas).
	// Failing before: the verdict named no instance count.
	if want := `~ phase "serve": borderline on its pinned offer: the 90% range of the TPOT, 57.2–131.2 ms, crosses the 100.0 ms target; 2 instances of it meet the targets across that range`; !strings.Contains(out, want) {
		t.Errorf("stdout lacks %q:\n%s", want, out)
	}
	for _, w := range []string{"What saves the most on the whole plan", "now $4,736, against the plan's own $4,737", "(fine-tune)"} {
		if !strings.Contains(out, w) {
			t.Errorf("stdout lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, "run on l4") {
		t.Errorf("a dearer GPU for the service listed as a saving:\n%s", out)
	}
	code, out, errOut = runCLI(t, "plan", "testdata/plan-answers.toml", "--json")
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errOut)
	}
	var j struct {
		Savings struct {
			BaseUSD float64 `json:"base_usd"`
			Changes []struct {
				Change    string
				SavingUSD float64 `json:"saving_usd"`
				SavingPct float64 `json:"saving_pct"`
				Phases    []string
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil || len(j.Savings.Changes) == 0 {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	top := j.Savings.Changes[0]
	if s := j.Savings; math.Abs(s.BaseUSD-4736) > 1 || top.SavingUSD <= 0 || !slices.Equal(top.Phases, []string{"fine-tune"}) {
		t.Errorf("--json savings: base %g, first %+v", s.BaseUSD, top)
	}
	for _, c := range j.Savings.Changes {
		if strings.HasPrefix(c.Change, "pay spot") && slices.Contains(c.Phases, "serve") {
			t.Errorf("--json: spot for the service: %+v", c)
		}
	}
	// A phase without answers or a file: the plan is still priced, and
	// the savings say why they are missing.
	code, out, _ = runCLI(t, "plan", "testdata/plan-two-phases.toml")
	if code != 0 || !strings.Contains(out, "Total $1,453") || !strings.Contains(out, `What saves the most: phase "serve" has neither answers nor config`) {
		t.Errorf("plan without answers: exit %d:\n%s", code, out)
	}
	code, out, _ = runCLI(t, "plan", "testdata/plan-answers.toml", "--no-savings")
	if code != 0 || strings.Contains(out, "saves") {
		t.Errorf("--no-savings: exit %d:\n%s", code, out)
	}
}

// TestConfiguratorOpensPlan: gpuplan --config PLAN.toml is accepted (the
// configurator then asks for a terminal), and a plan whose answers do not
// decode is refused by key first.
func TestConfiguratorOpensPlan(t *testing.T) {
	code, _, errOut := runCLI(t, "--config", "testdata/plan-answers.toml")
	if code != 2 || !strings.Contains(errOut, "needs a terminal") {
		t.Errorf("plan: exit %d, stderr %q; want the terminal's error, the plan read", code, errOut)
	}
	b, err := os.ReadFile("testdata/plan-answers.toml")
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "plan.toml")
	if err := os.WriteFile(bad, []byte(strings.Replace(string(b), `seq_len = "2048"`, `seq_len = "long"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCLI(t, "--config", bad)
	if want := `phase "fine-tune" answers.seq_len: "long" is not a token count; want e.g. 4096, 8K (8192) or 8k (8000)`; code != 2 || !strings.Contains(errOut, want) {
		t.Errorf("bad plan: exit %d, stderr %q, want %q", code, errOut, want)
	}
}

// BenchmarkPlanSavings is gpuplan plan on the two-phase example with what
// saves the most (every change priced by the engine over both phases),
// against BenchmarkPlanNoSavings for the pricing alone.
func BenchmarkPlanSavings(b *testing.B)   { benchPlan(b) }
func BenchmarkPlanNoSavings(b *testing.B) { benchPlan(b, "--no-savings") }

func benchPlan(b *testing.B, extra ...string) {
	b.Setenv("XDG_CONFIG_HOME", b.TempDir())
	b.Setenv("HOME", b.TempDir())
	args := append([]string{"plan", "testdata/plan-answers.toml", "--json"}, extra...)
	for b.Loop() {
		var out, errb bytes.Buffer
		if code := Run(Env{Args: args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
			Getenv: func(string) string { return "" }, Version: "test", LoadCatalog: data.LoadWith}); code != 0 {
			b.Fatalf("exit %d: %s", code, errb.String())
		}
	}
}

// TestPhaseConfigPath: a phase's config is relative to the plan's folder
// (attack test M2: "/tmp/x/real.toml" became PLANDIR/tmp/x/real.toml) and
// stays in it (issue 29: an absolute path, a .. or a link out of the
// folder read any file and a parse error showed a fragment of it). What
// is in the folder goes through the bounded reader: a link to /dev/zero
// is refused as out of the folder, a FIFO in it as not a regular file.
func TestPhaseConfigPath(t *testing.T) {
	planDir, elsewhere := t.TempDir(), t.TempDir()
	abs := filepath.Join(elsewhere, "real.toml")
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(abs, bertConfig)
	write(filepath.Join(planDir, "rel.toml"), strings.Replace(bertConfig, "seq_len = 384", "seq_len = 256", 1))
	os.Mkdir(filepath.Join(planDir, "sub"), 0o755)
	write(filepath.Join(planDir, "sub", "in.toml"), strings.Replace(bertConfig, "seq_len = 384", "seq_len = 128", 1))
	for _, l := range [][2]string{{abs, "out.toml"}, {"/dev/zero", "zero.toml"}, {filepath.Join("sub", "in.toml"), "inside.toml"}} {
		if err := os.Symlink(l[0], filepath.Join(planDir, l[1])); err != nil {
			t.Skip(err)
		}
	}
	fifo := filepath.Join(planDir, "fifo.toml")
	if err := mkfifo(fifo); err != nil {
		t.Skip(err)
	}
	phase := func(name, config string) string {
		return `
[[phase]]
name = "` + name + `"
config = "` + config + `"
provider = "aws"
instance = "g6.xlarge"
region = "us-east-1"
pricing = "on-demand"
instances = 1
usd_per_hour = 0.8048
months = 1.0
hours_per_month = 100.0
`
	}
	planFile := filepath.Join(planDir, "plan.toml")
	write(planFile, "schema_version = 1\n"+phase("rel", "rel.toml")+phase("sub", "sub/in.toml")+phase("inside", "inside.toml")+
		phase("out", "out.toml")+phase("zero", "zero.toml")+phase("fifo", "fifo.toml"))
	for _, tt := range []struct{ phase, want string }{{"rel", `"seq_len": 256`}, {"sub", `"seq_len": 128`}, {"inside", `"seq_len": 128`}} {
		code, out, errOut := runCLI(t, "estimate", "--config", planFile, "--phase", tt.phase, "--json")
		if code != 0 || !strings.Contains(out, tt.want) {
			t.Errorf("phase %s: exit %d, stdout lacks %s; stderr %q", tt.phase, code, tt.want, errOut)
		}
	}
	link := func(file string) string {
		return "gpuplan: " + planFile + `: phase "` + strings.TrimSuffix(file, ".toml") + `" config ` + filepath.Join(planDir, file) + ": a link to a file outside the plan's folder; copy the configuration file beside the plan\n"
	}
	for _, tt := range []struct{ phase, want string }{
		{"out", link("out.toml")},
		{"zero", link("zero.toml")},
		{"fifo", "gpuplan: " + planFile + `: phase "fifo" config ` + fifo + ": not a regular file: is a FIFO (named pipe)\n"},
	} {
		for _, args := range [][]string{{"estimate", "--config", planFile, "--phase", tt.phase}, {"--config", planFile, "--phase", tt.phase}} {
			code, out, errOut := runCLI(t, args...)
			if code != 2 || out != "" || errOut != tt.want {
				t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", args, code, out, errOut, tt.want)
			}
		}
	}
	// The configurator without --phase reads every phase's configuration
	// file, as gpuplan plan does: the first refused one is said and exits
	// 2, where it opened on default answers (attack round 9).
	if code, out, errOut := runCLI(t, "--config", planFile); code != 2 || out != "" || errOut != link("out.toml") {
		t.Errorf("--config plan: exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, errOut, link("out.toml"))
	}
}

// twoPhases is testdata/plan-two-phases.toml (a plan whose phases name no
// configuration file).
func twoPhases(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/plan-two-phases.toml")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A phase whose answers do not decode or whose configuration file cannot
// be read stops the plan: one line naming the phase and the key or file,
// exit 2, with --no-savings too (attack test 3, M2: each was priced with
// exit 0, the error only inside the savings line).
func TestPlanRefusesBadPhase(t *testing.T) {
	answers := func(a string) string {
		return strings.Replace(twoPhases(t), "[phase.answers]\n", "[phase.answers]\n"+a+"\n", 1)
	}
	config := func(file string) string {
		return strings.Replace(twoPhases(t), "name = \"serve\"\n", "name = \"serve\"\nconfig = \""+file+"\"\n", 1)
	}
	for _, tc := range []struct{ name, plan, want string }{
		{"batch size 0", answers(`batch_size = "0"`), `phase "fine-tune" answers.batch_size: must be 1–1048576, got 0`},
		{"batch size NaN", answers(`batch_size = "NaN"`), `phase "fine-tune" answers.batch_size: want a whole number such as 8, got "NaN"`},
		{"negative tokens", strings.Replace(twoPhases(t), `dataset_tokens = "100M"`, `dataset_tokens = "-100M"`, 1), `phase "fine-tune" answers.dataset_tokens: want a count such as 20M or 2e7, got "-100M"`},
		{"unknown key", answers(`evil = "x"`), `phase "fine-tune" answers.evil: unknown key "evil"`},
		{"search pricing", answers(`"search.pricing" = "free"`), `phase "fine-tune" answers.search.pricing: pricing "free"`},
		{"/dev/zero", config("/dev/zero"), `phase "serve" config: "/dev/zero" is outside the plan's folder; put the configuration file beside the plan (or in a folder under it) and give its relative path, without a leading / or ..`},
		{"FIFO", config("fifo.toml"), `phase "serve" config DIR/fifo.toml: not a regular file: is a FIFO (named pipe)`},
		{"missing", config("nothing.toml"), `phase "serve" config DIR/nothing.toml: no such file or directory`},
		{"not TOML, elsewhere", config("/etc/passwd"), `phase "serve" config: "/etc/passwd" is outside the plan's folder; put the configuration file beside the plan (or in a folder under it) and give its relative path, without a leading / or ..`},
		{"up and out", config("../x.toml"), `phase "serve" config: "../x.toml" is outside the plan's folder; put the configuration file beside the plan (or in a folder under it) and give its relative path, without a leading / or ..`},
		// Issue 29: two names that read as one, refused on plan without
		// advice about --phase, which plan does not take.
		{"case twin names", strings.Replace(twoPhases(t), `name = "serve"`, `name = "Fine-Tune."`, 1), `phase[1].name: "Fine-Tune." reads as the name of phase[0] ("fine-tune") once case, accents, separators (. _ - : / , + and spaces) and look-alike characters (UTS #39) are set aside; give each phase a name that differs in its letters or digits (a phase is picked by its name)` + "\n"},
		// Issue 29: a model the catalog lacks, named in the file, is
		// refused as it is in answers.
		{"unknown model in the file", config("unknown.toml"), `phase "serve" config DIR/unknown.toml: workload.model: unknown model "nosuch-model" (list them with gpuplan catalog models)`},
	} {
		dir := t.TempDir()
		if err := mkfifo(filepath.Join(dir, "fifo.toml")); err != nil {
			t.Skip(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "unknown.toml"), []byte("schema_version = 1\n[workload]\nmodel = \"nosuch-model\"\ntask = \"inference\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "plan.toml")
		if err := os.WriteFile(path, []byte(tc.plan), 0o644); err != nil {
			t.Fatal(err)
		}
		tc.want = "gpuplan: " + path + ": " + strings.ReplaceAll(tc.want, "DIR", dir)
		for _, args := range [][]string{{"plan", path}, {"plan", path, "--no-savings"}, {"plan", path, "--json"}} {
			code, out, errOut := runCLI(t, args...)
			if code != 2 || out != "" || !strings.HasPrefix(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("%s %v: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", tc.name, args[2:], code, out, errOut, tc.want)
			}
		}
	}
}

// A plan's phases cannot name files outside the plan's folder through
// their answers or through the configuration file a phase names
// (hf_config, safetensors): a plan someone sends would otherwise make
// gpuplan read, and quote in an error, any file of the user's (attack
// round 8, #4). One line naming the phase and the key, exit 2, and the
// secret never printed.
func TestPhaseFilesStayInPlanFolder(t *testing.T) {
	planDir, elsewhere := t.TempDir(), t.TempDir()
	secret := filepath.Join(elsewhere, "credentials")
	if err := os.WriteFile(secret, []byte(`{"hidden_size": "hf_SECRETTOKEN123"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(planDir, "c.toml"), []byte("schema_version = 1\n[workload]\nhf_config = \"../"+filepath.Base(elsewhere)+"/credentials\"\ntask = \"finetune\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	head := "schema_version = 1\n[[phase]]\nname = \"p\"\nprovider = \"aws\"\ninstance = \"g6.xlarge\"\nregion = \"us-east-1\"\npricing = \"on-demand\"\ninstances = 1\nusd_per_hour = 0.8048\nmonths = 1.0\nhours_per_month = 100.0\n"
	for _, tt := range []struct{ name, plan, want string }{
		{"answers absolute", head + "[phase.answers]\nhf_config = \"" + secret + "\"\n", `phase[0].answers.hf_config: "` + secret + `" is outside the plan's folder`},
		{"answers dotted", head + "[phase.answers]\n\"workload.safetensors\" = \"../x\"\n", `is outside the plan's folder`},
		{"config file names it", head + "config = \"c.toml\"\n", `phase "p" hf_config ../` + filepath.Base(elsewhere) + `/credentials is outside the plan's folder`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			planFile := filepath.Join(planDir, "plan.toml")
			if err := os.WriteFile(planFile, []byte(tt.plan), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errOut := runCLI(t, "estimate", "--config", planFile, "--phase", "p", "--json")
			if code != 2 || !strings.Contains(errOut, tt.want) || strings.Contains(out+errOut, "SECRETTOKEN") || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
				t.Errorf("exit %d\nstdout %s\nstderr %s\nwant exit 2 and one line with %q", code, out, errOut, tt.want)
			}
		})
	}
}
