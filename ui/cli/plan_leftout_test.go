package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// walkLeftOut is a new user's plan: a full fine-tune of Llama 3.1 70B
// pinned on one L4 (aws g6.xlarge), which no L4 offer there runs (✗),
// then Llama 3.1 8B served on an L40S, which runs.
const walkLeftOut = `schema_version = 1
name = "70b ft then serve"
[[phase]]
name = "ft"
provider = "aws"
instance = "g6.xlarge"
region = "us-east-1"
instances = 1
usd_per_hour = 0.805
job_hours = 40
[phase.answers]
model = "llama-3.1-70b"
task = "fine-tune"
dataset_tokens = "100M"

[[phase]]
name = "serve"
provider = "aws"
instance = "g6e.xlarge"
region = "us-east-1"
instances = 1
usd_per_hour = 1.861
months = 3
[phase.answers]
model = "llama-3.1-8b"
task = "inference"
"serve.requests_per_sec" = "1"
`

// TestPlanSavingsLeaveOutPhaseWithNoOffer: the walk's plan printed "Total
// $4,076 for the phases that can run", then "What saves the most: none
// ranked … (no offers: the plan as it stands has no cost to compare
// with)": one phase the estimator finds no offer for on its pinned
// provider, region and GPU type gave up on the whole plan. The savings
// now rank the phases that can run, against the plan's own total of
// them, and say that the ✗ phase is left out of every total and no
// change is tried on it; --json names it in savings.left_out.
func TestPlanSavingsLeaveOutPhaseWithNoOffer(t *testing.T) {
	path := writeFile(t, "walk.toml", walkLeftOut)
	code, out, errs := runCLI(t, "plan", path)
	if code != ExitError {
		t.Errorf("exit %d, want %d (a phase cannot run): %s", code, ExitError, errs)
	}
	for _, w := range []string{
		"Total $4,076 for the phases that can run",
		"What saves the most on the phases that can run (",
		"those phases re-priced that way now $4,076)",
		`phase "ft" is left out of these totals, the plan's own too: the estimator finds no offer that runs it on its pinned provider, region and GPU type, so no change is tried on it; gpuplan recommend --config PLAN --phase NAME prices it where it runs`,
		// The serve phase is ranked (its changes are in --json, below);
		// none saves money, and a dearer change is not listed as one.
		"no single change saves money",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("want %q in:\n%s", w, out)
		}
	}
	if strings.Contains(out, "none ranked") {
		t.Errorf("the savings gave up on the whole plan:\n%s", out)
	}
	_, out, _ = runCLI(t, "plan", path, "--json")
	var doc struct {
		Savings struct {
			BaseUSD float64  `json:"base_usd"`
			LeftOut []string `json:"left_out"`
			Changes []struct {
				Phases []string `json:"phases"`
			} `json:"changes"`
			Error string `json:"error"`
		} `json:"savings"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	s := doc.Savings
	if s.Error != "" || s.BaseUSD <= 0 || len(s.LeftOut) != 1 || s.LeftOut[0] != "ft" || len(s.Changes) == 0 {
		t.Errorf("savings %+v: want base_usd > 0, left_out [ft] and changes", s)
	}
	for _, c := range s.Changes {
		for _, p := range c.Phases {
			if p == "ft" {
				t.Errorf("a change tried on the left-out phase: %+v", c)
			}
		}
	}
	_, out, _ = runCLI(t, "plan", path, "--lang", "zh-CN")
	if strings.Contains(out, "无法排序") || strings.Contains(out, "： ") || strings.Contains(out, "left out") {
		t.Errorf("zh-CN: want the ranked list, in Chinese, no space after a full-width colon:\n%s", out)
	}
}
