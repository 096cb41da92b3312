package plan

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

func TestPhaseConfigFromAnswers(t *testing.T) {
	b, err := os.ReadFile("../../docs/examples/plan.toml")
	if err != nil {
		t.Fatal(err)
	}
	if !IsPlan(b) {
		t.Fatal("docs/examples/plan.toml is not seen as a plan")
	}
	pl, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	ft, err := pl.Phase("fine-tune")
	if err != nil {
		t.Fatal(err)
	}
	c, err := ft.ConfigFromAnswers()
	if err != nil {
		t.Fatal(err)
	}
	// dataset_tokens = "100M" as typed is 1e8 tokens (ParseQuantity's M = 10⁶).
	w := c.Workload
	if w.Model != "llama-3.1-8b" || w.Task != model.TaskQLoRA || w.DatasetTokens != 1e8 || w.MicroBatch != 1 || w.SeqLen != 2048 {
		t.Errorf("fine-tune request %+v", w)
	}
	if s := c.Selection; s == nil || s.Provider != "gcp" || s.InstanceType != "g2-standard-4" || s.Pricing != model.Spot || s.JobHours != 21.586 {
		t.Errorf("fine-tune selection %+v", c.Selection)
	}
	sv, _ := pl.Phase("serve")
	c, err = sv.ConfigFromAnswers()
	if err != nil {
		t.Fatal(err)
	}
	if w := c.Workload; w.Task != model.TaskInference || w.Precision != model.INT4 || w.ContextLen != 8192 || w.Sequences != 8 {
		t.Errorf("serve request %+v", w)
	}
}

func TestPhaseAnswersTOML(t *testing.T) {
	for _, tc := range []struct {
		answers map[string]string
		want    string // the TOML lines after schema_version, or the error's text
		err     bool
	}{
		{map[string]string{"model": "llama-3.1-8b", "batch_size": "8", "epochs": "1.5"},
			"[workload]\nbatch_size = 8\nepochs = 1.5\nmodel = \"llama-3.1-8b\"\n", false},
		{map[string]string{"dataset_samples": "1,281,167", "checkpointing": "true", "gpus": "auto"},
			"[workload]\ncheckpointing = true\ndataset_samples = 1.281167e+06\ngpus = \"auto\"\n", false},
		{map[string]string{"lora_targets": "q_proj, v_proj", "search.pricing": "spot", "search.regions": "us-east-1"},
			"[workload]\nlora_targets = [\"q_proj\", \"v_proj\"]\n\n[search]\npricing = \"spot\"\nregions = [\"us-east-1\"]\n", false},
		{map[string]string{"workload.custom.layers": "32", "model": `a"b\c`},
			"[workload]\nmodel = \"a\\\"b\\\\c\"\n\n[workload.custom]\nlayers = 32\n", false},
		{map[string]string{"Bad Key": "1"}, "not a key", true},
		{map[string]string{"launch.nodes": "2"}, `unknown table "launch"`, true},
		{map[string]string{"model": "x\x1b[2J"}, "control characters", true},
	} {
		p := Phase{Name: "p", Answers: tc.answers}
		b, err := p.ConfigTOML()
		if tc.err {
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v: err %v, want %q", tc.answers, err, tc.want)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", tc.answers, err)
		}
		if got := strings.TrimPrefix(string(b), "schema_version = 1\n\n"); got != tc.want {
			t.Errorf("%v:\n%s\nwant\n%s", tc.answers, got, tc.want)
		}
	}
}

func TestPhaseAnswersErrors(t *testing.T) {
	for _, tc := range []struct {
		answers map[string]string
		want    string
	}{
		{map[string]string{"model": "llama-3.1-8b", "batch_size": "eight"}, `phase "p" answers.batch_size: want a whole number such as 8, got "eight"`},
		{map[string]string{"model": "llama-3.1-8b", "batch_sise": "8"}, `did you mean "batch_size"?`},
		{map[string]string{"model": "llama-3.1-8b", "task": "qlroa"}, `phase "p" answers.task`},
		{map[string]string{"model": "llama-3.1-8b", "search.pricing": "cheap"}, `phase "p" answers.search.pricing`},
		{map[string]string{}, `phase "p"`},
	} {
		p := Phase{Name: "p", Answers: tc.answers}
		_, err := p.ConfigFromAnswers()
		if err == nil || !errors.Is(err, config.ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err %v, want %q", tc.answers, err, tc.want)
		}
	}
}

func TestPlanPhasePick(t *testing.T) {
	pl := Plan{Phases: []Phase{{Name: "fine-tune"}, {Name: "serve"}}}
	if p, err := pl.Phase("serve"); err != nil || p != &pl.Phases[1] {
		t.Errorf("Phase(serve) = %v, %v", p, err)
	}
	for _, tc := range []struct{ name, want string }{
		{"", `a plan with phases "fine-tune", "serve": pick one with --phase NAME`},
		{"serv", `no phase "serv"; did you mean "serve"?`},
		{"zzzzzzzz", `no phase "zzzzzzzz"; the plan's phases are "fine-tune", "serve"`},
	} {
		_, err := pl.Phase(tc.name)
		if err == nil || !errors.Is(err, ErrNoPhase) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Phase(%q): %v, want %q", tc.name, err, tc.want)
		}
	}
	if IsPlan([]byte("schema_version = 1\n[workload]\nmodel = \"gpt2\"\n")) {
		t.Error("a configuration without [[phase]] is seen as a plan")
	}
}

// TestPhaseAnswersRoundTrip: a configuration's answers as a phase's read
// back as the same request.
func TestPhaseAnswersRoundTrip(t *testing.T) {
	in := "schema_version = 1\n[workload]\nmodel = \"llama-3.1-8b\"\ntask = \"qlora\"\nbatch_size = 4\nseq_len = 2048\ndataset_tokens = 2e7\nepochs = 3\ncheckpointing = true\nlora_targets = [\"q\", \"v\"]\ngpus = \"auto\"\n[search]\nproviders = [\"gcp\", \"aws\"]\npricing = \"spot\"\nhours_per_month = 300\n"
	c, err := config.Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	a, err := config.PhaseAnswers(&c)
	if err != nil {
		t.Fatal(err)
	}
	if a["model"] != "llama-3.1-8b" || a["batch_size"] != "4" || a["search.providers"] != "gcp,aws" || a["search.pricing"] != "spot" || a["gpus"] != "auto" {
		t.Errorf("answers %v", a)
	}
	p := Phase{Name: "x", Answers: a}
	back, err := p.ConfigFromAnswers()
	if err != nil {
		t.Fatal(err)
	}
	c1, _ := config.Encode(&config.Config{Workload: c.Workload, Search: c.Search})
	c2, _ := config.Encode(&config.Config{Workload: back.Workload, Search: back.Search})
	if string(c1) != string(c2) {
		t.Errorf("round trip differs:\n%s\nwant\n%s", c2, c1)
	}
}

// FuzzPhaseAnswers: any answer (key and value as typed) gives a request
// or a *config.Error naming the phase, never a panic; a request's answers
// read back the same.
func FuzzPhaseAnswers(f *testing.F) {
	f.Add("batch_size", "8")
	f.Add("dataset_tokens", "100M")
	f.Add("search.regions", "us-east-1,us-west-2")
	f.Add("lora_targets", `["q", "v"]`)
	f.Add("model", `x" = 1 [workload`)
	f.Add("workload.custom.layers", "1e99")
	f.Fuzz(func(t *testing.T, k, v string) {
		p := Phase{Name: "p", Answers: map[string]string{"model": "llama-3.1-8b", k: v}}
		c, err := p.ConfigFromAnswers()
		if err != nil {
			var ce *config.Error
			if !errors.As(err, &ce) || !strings.HasPrefix(ce.Key, "phase \"p\"") && !strings.HasPrefix(ce.Key, "answers.") {
				t.Fatalf("%q = %q: error %v is not a config.Error naming the phase", k, v, err)
			}
			return
		}
		a, err := config.PhaseAnswers(&c)
		if err != nil {
			t.Fatal(err)
		}
		back, err := (&Phase{Name: "p", Answers: a}).ConfigFromAnswers()
		if err != nil {
			t.Fatalf("%q = %q: answers %v do not read back: %v", k, v, a, err)
		}
		b1, _ := config.Encode(&config.Config{Workload: c.Workload, Search: c.Search})
		b2, _ := config.Encode(&config.Config{Workload: back.Workload, Search: back.Search})
		if !bytes.Equal(b1, b2) {
			t.Fatalf("%q = %q: read back differs:\n%s\nwant\n%s", k, v, b2, b1)
		}
	})
}

func TestPhaseConfigPath(t *testing.T) {
	dir := filepath.Join("plans", "llama")
	for _, tt := range []struct{ config, want string }{
		{"", ""},
		{"serve.toml", filepath.Join(dir, "serve.toml")},
		{filepath.Join("..", "x.toml"), filepath.Join("plans", "x.toml")},
		{string(filepath.Separator) + filepath.Join("tmp", "x", "real.toml"), string(filepath.Separator) + filepath.Join("tmp", "x", "real.toml")},
	} {
		p := Phase{Name: "p", Config: tt.config}
		if got := p.ConfigPath(dir); got != tt.want {
			t.Errorf("ConfigPath(%q) of config %q = %q, want %q", dir, tt.config, got, tt.want)
		}
	}
}

// TestPhaseConfigure: a phase's own offer is the selection of the
// configuration it stands for, whatever a file it names picked (walk36b:
// a file exported for aws g5.xlarge made estimate --phase and export
// --phase work on it where plan priced the phase's gcp g2-standard-4); a
// phase without pricing is on-demand, as plan prices it; one without an
// offer keeps the file's.
func TestPhaseConfigure(t *testing.T) {
	file := config.Config{Estimate: &config.EstimateSummary{GPU: "a10g"},
		Selection: &config.Selection{Provider: "aws", InstanceType: "g5.xlarge", Region: "us-east-1", GPU: "a10g", GPUs: 1, Instances: 1, Pricing: model.Spot, USDPerHour: 1.006}}
	tests := []struct {
		name  string
		phase Phase
		want  *config.Selection
	}{
		{"the phase's offer", Phase{Name: "tune", Provider: "gcp", Instance: "g2-standard-4", Region: "us-central1", Instances: 1, USDPerHour: 0.7, JobHours: 2},
			&config.Selection{Provider: "gcp", InstanceType: "g2-standard-4", Region: "us-central1", Instances: 1, Pricing: model.OnDemand, USDPerHour: 0.7, JobHours: 2, JobUSD: 1.4}},
		{"its pricing and instances", Phase{Name: "serve", Provider: "aws", Instance: "g5.12xlarge", Region: "us-east-1", Pricing: model.Reserved1y, Instances: 2, USDPerHour: 7, Months: 12},
			&config.Selection{Provider: "aws", InstanceType: "g5.12xlarge", Region: "us-east-1", Instances: 2, Pricing: model.Reserved1y, USDPerHour: 7}},
		{"no offer: the file's", Phase{Name: "x", Months: 1}, file.Selection},
	}
	for _, tt := range tests {
		c := tt.phase.Configure(file)
		if c.Selection == nil || *c.Selection != *tt.want {
			t.Errorf("%s: selection %+v, want %+v", tt.name, c.Selection, tt.want)
		}
		if keep := tt.want == file.Selection; (c.Estimate != nil) != keep {
			t.Errorf("%s: estimate %+v kept %v, want %v", tt.name, c.Estimate, c.Estimate != nil, keep)
		}
	}
	if file.Selection.InstanceType != "g5.xlarge" {
		t.Errorf("Configure changed the file's selection: %+v", file.Selection)
	}
}
