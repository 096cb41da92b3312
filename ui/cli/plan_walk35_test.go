package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlanJobHoursDearerHost: plan's job_hours check covers a phase
// pinned to a type recommend leaves out as a dearer host of a GPU it
// already lists in the region (walk35: aws g5.2xlarge beside g5.xlarge,
// one A10G each; job_hours = 0.01 for a job estimate --phase times at
// about 3.2 h was priced at a cent, unflagged; 1000 h likewise). The
// note gives estimate --phase's own hours and 90% range for the phase.
func TestPlanJobHoursDearerHost(t *testing.T) {
	const file = "testdata/plan-dearer-host.toml"
	e, _ := runCLIJSON[struct {
		Time struct {
			Hours float64
			Band  struct{ Low, High float64 }
		}
	}](t, nil, "estimate", "--config", file, "--phase", "tune", "--json")
	if e.Time.Hours <= 0 {
		t.Fatalf("estimate --json: %+v", e)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, hours := range []string{"0.01", "1000"} {
		p := filepath.Join(t.TempDir(), "p.toml")
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), "job_hours = 0.01", "job_hours = "+hours, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errOut := runCLI(t, "plan", p, "--no-savings")
		if code != 0 {
			t.Fatalf("plan: exit %d: %s", code, errOut)
		}
		want := fmt.Sprintf("phase \"tune\": job_hours = %s, but the estimate on aws g5.2xlarge is %.3g h (90%% range %.3g–%.3g h)", hours, e.Time.Hours, e.Time.Band.Low, e.Time.Band.High)
		if !strings.Contains(errOut, want) {
			t.Errorf("job_hours = %s: no %q in:\n%s", hours, want, errOut)
		}
	}
}

// TestPlanServingDoesNotFit: a serving phase whose model does not fit the
// instances it rents says so on its row, with estimate --phase's reason
// and figure (walk35: Llama 3.1 70B on one g5.8xlarge, one A10G, was
// said to miss its latency target at 290 ms per output token, a
// pipeline over instances the phase does not rent, where estimate said
// 114.2 GiB per GPU short).
func TestPlanServingDoesNotFit(t *testing.T) {
	const file = "testdata/plan-serve-nofit.toml"
	e, _ := runCLIJSON[struct {
		Plan struct {
			Fits    bool
			Reasons []string
		}
	}](t, nil, "estimate", "--config", file, "--phase", "s", "--json")
	if e.Plan.Fits || len(e.Plan.Reasons) == 0 {
		t.Fatalf("estimate --json: %+v", e.Plan)
	}
	code, out, errOut := runCLI(t, "plan", file, "--no-savings")
	if code != ExitError { // a phase that cannot run: the table, then exit 1
		t.Fatalf("plan: exit %d, want %d: %s", code, ExitError, errOut)
	}
	want := "✗ phase \"s\": does not fit its pinned offer: " + e.Plan.Reasons[0]
	if !strings.Contains(out, want) || strings.Contains(out, "misses the phase's load") {
		t.Errorf("want %q in:\n%s", want, out)
	}
}

// TestPlanFileWording: walk35's plan-file findings, each one line in the
// user's words (a plan written to a temporary folder; base is a LoRA
// phase on one aws g5.xlarge, two months):
//   - a training phase with months is priced as a service, said so on
//     stderr, and its fit is still checked (LoRA on 8B does not fit an
//     A10G: the row is ✗);
//   - an inference phase with job_hours is said to be priced unchecked;
//   - instances left out is "missing", not "got 0";
//   - instances = 1.5 (or 2.0) is "a whole number", not the TOML
//     decoder's Go types;
//   - a reserved-1y job shows the term's 8760 billed hours beside the
//     term's cost, in the table and --json's billed_hours;
//   - pricing left out shows on-demand, the mode it is priced and
//     checked as;
//   - one month is "1 month";
//   - config naming a plan file says it is a plan, not `unknown key "name"`.
func TestPlanFileWording(t *testing.T) {
	const base = `schema_version = 1
[[phase]]
name = "tune"
provider = "aws"
instance = "g5.xlarge"
region = "us-east-1"
pricing = "on-demand"
instances = 1
usd_per_hour = 1.006
months = 2
[phase.answers]
model = "llama-3.1-8b"
task = "lora"
dataset_tokens = "10M"
`
	edit := func(pairs ...string) string { return strings.NewReplacer(pairs...).Replace(base) }
	tests := []struct {
		name, file string
		code       int
		args       []string
		out, err   []string // in stdout, stderr
		notErr     string
	}{
		// The phase does not fit its offer: the table, then exit 1.
		{"months on a training phase", base, ExitError, nil,
			[]string{"✗ tune", "2 months      1460"},
			[]string{`phase "tune" trains (task lora) but gives months = 2: it is priced as a service, 1460 h on its offer`, "the job does not fit its offer aws g5.xlarge"}, ""},
		{"job_hours on an inference phase", edit(`task = "lora"`, `task = "inference"`, "months = 2", "job_hours = 5"), 0, nil,
			nil, []string{`phase "tune" is an inference phase but gives job_hours = 5: it is priced as a job of those hours, which are not checked`}, ""},
		{"instances left out", edit("instances = 1\n", ""), 2, nil,
			nil, []string{`phase "tune" instances: missing: give how many instances of the offer aws g5.xlarge the phase rents`}, "got 0"},
		{"instances 1.5", edit("instances = 1\n", "instances = 1.5\n"), 2, nil,
			nil, []string{`phase "tune" instances: must be a whole number of instances (1–131072), got 1.5`}, "float64"},
		{"instances 2.0", edit("instances = 1\n", "instances = 2.0\n"), 2, nil,
			nil, []string{`phase "tune" instances: must be a whole number, written without a decimal point: instances = 2`}, "float64"},
		{"reserved job", edit(`pricing = "on-demand"`, `pricing = "reserved-1y"`, `task = "lora"`, `task = "qlora"`, "months = 2", "job_hours = 10"), 0, nil,
			[]string{"reserved-1y  $1.01  10.0 h job      8760  $8,813 (whole term)"}, nil, ""},
		{"reserved job --json", edit(`pricing = "on-demand"`, `pricing = "reserved-1y"`, `task = "lora"`, `task = "qlora"`, "months = 2", "job_hours = 10"), 0, []string{"--json"},
			[]string{`"billed_hours": 8760`}, nil, ""},
		{"pricing left out, one month", edit(`pricing = "on-demand"`+"\n", "", "months = 2", "months = 1"), ExitError, nil,
			[]string{"g5.xlarge us-east-1  on-demand  $1.01  1 month        730"}, nil, ""},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		p := filepath.Join(dir, "p.toml")
		if err := os.WriteFile(p, []byte(tt.file), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runCLI(t, append([]string{"plan", p, "--no-savings"}, tt.args...)...)
		if code != tt.code {
			t.Errorf("%s: exit %d, want %d; stderr %q", tt.name, code, tt.code, errOut)
		}
		for _, w := range tt.out {
			if !strings.Contains(out, w) {
				t.Errorf("%s: stdout lacks %q:\n%s", tt.name, w, out)
			}
		}
		for _, w := range tt.err {
			if !strings.Contains(errOut, w) {
				t.Errorf("%s: stderr lacks %q:\n%s", tt.name, w, errOut)
			}
		}
		if tt.notErr != "" && strings.Contains(errOut, tt.notErr) {
			t.Errorf("%s: stderr has %q:\n%s", tt.name, tt.notErr, errOut)
		}
	}

	// A phase's config naming a plan file.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "c1.toml"), []byte(base), 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "p.toml")
	if err := os.WriteFile(p, []byte("schema_version = 1\n[[phase]]\nname = \"a\"\nprovider = \"aws\"\ninstance = \"g5.xlarge\"\nregion = \"us-east-1\"\ninstances = 1\nusd_per_hour = 1.006\nmonths = 1\nconfig = \"c1.toml\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"plan", p}, {"estimate", "--config", p, "--phase", "a"}} {
		code, _, errOut := runCLI(t, args...)
		if want := `phase "a" config ` + filepath.Join(dir, "c1.toml") + ` is a plan file ([[phase]] tables), not a configuration`; code != 2 || !strings.Contains(errOut, want) || strings.Contains(errOut, "unknown key") {
			t.Errorf("%v: exit %d, stderr %q, want %q", args, code, errOut, want)
		}
	}
}
