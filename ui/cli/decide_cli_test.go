package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/ui/report"
)

// runWithSpot is runCLI with the spot rates wired as main wires them, and
// no advisor feed (so every rate is a labelled default).
func runWithSpot(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	var out, errb bytes.Buffer
	code := Run(Env{Args: args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(string) string { return "" }, Version: "test", LoadCatalog: data.LoadWith, SpotRates: data.SpotRates})
	return code, out.String(), errb.String()
}

func TestRecommendDecisions(t *testing.T) {
	base := []string{"recommend", "--model", "bert-large", "--task", "finetune", "--dataset-samples", "88k", "--epochs", "2",
		"--providers", "aws", "--pricing", "spot", "--json", "--limit", "3"}
	tests := []struct {
		name  string
		extra []string
		code  int
		check func(t *testing.T, j report.RecommendJSON)
	}{
		{"defaults are assumptions", nil, 0, func(t *testing.T, j report.RecommendJSON) {
			s := j.Offers[0].Spot
			if s == nil {
				t.Fatal("no spot object on a spot offer with a job")
			}
			if strings.Join(s.Assumptions, ",") != "interruption rate,checkpoint write speed,restart time" || !s.Rate.Assumption {
				t.Errorf("assumptions %v, rate %+v", s.Assumptions, s.Rate)
			}
			if a := j.Assumptions; a == nil || !a.RestartAssumption || !a.CheckpointWriteAssumption || a.RestartMinutes != 10 || a.HoursPerMonth != 730 {
				t.Errorf("spot_assumptions %+v", a)
			}
			if len(j.Pareto) == 0 || j.Savings == nil || len(j.Savings.Changes) == 0 {
				t.Errorf("pareto %v, savings %+v", j.Pareto, j.Savings)
			}
			// The front is fastest first with cost falling.
			for i := 1; i < len(j.Pareto); i++ {
				if !(j.Pareto[i].Hours >= j.Pareto[i-1].Hours && j.Pareto[i].USD < j.Pareto[i-1].USD) {
					t.Errorf("front not fastest-first with falling cost: %+v", j.Pareto)
				}
			}
		}},
		{"given inputs are not assumptions", []string{"--restart-minutes", "5", "--checkpoint-write-gbps", "2", "--no-savings"}, 0, func(t *testing.T, j report.RecommendJSON) {
			s := j.Offers[0].Spot
			if s == nil || strings.Join(s.Assumptions, ",") != "interruption rate" || s.RestartHours != report.Round(5.0/60, 4) {
				t.Errorf("spot %+v", s)
			}
			if j.Savings != nil {
				t.Errorf("--no-savings: savings %+v", j.Savings)
			}
		}},
		{"max job cost answered", []string{"--max-job-cost", "1000000"}, 0, func(t *testing.T, j report.RecommendJSON) {
			if len(j.Answers) != 1 || j.Answers[0].Offer == nil {
				t.Errorf("answers %+v", j.Answers)
			}
		}},
		{"bad write speed", []string{"--checkpoint-write-gbps", "0"}, 2, nil},
		{"bad restart", []string{"--restart-minutes", "-1"}, 2, nil},
		{"bad finish-by", []string{"--finish-by", "tomorrow"}, 2, nil},
	}
	for _, tt := range tests {
		code, out, errOut := runWithSpot(t, append(append([]string{}, base...), tt.extra...)...)
		if code != tt.code {
			t.Errorf("%s: exit %d, want %d: %s", tt.name, code, tt.code, errOut)
			continue
		}
		if tt.check == nil {
			if strings.Count(errOut, "\n") != 1 {
				t.Errorf("%s: stderr %q, want one line", tt.name, errOut)
			}
			continue
		}
		var j report.RecommendJSON
		if err := json.Unmarshal([]byte(out), &j); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if len(j.Offers) == 0 {
			t.Fatalf("%s: no offers", tt.name)
		}
		tt.check(t, j)
	}
}
