package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/ui/report"
)

// TestPlanSavingsSayBorderline: a plan's saving priced on a borderline
// offer says its chance of running out of memory, as recommend's savings
// do (walk45b: "run on b200 saves $23" where recommend marks that offer
// borderline, 10%). A 70B full fine-tune with checkpointing on 8 × B300 on
// spot: on B200s it runs only at a 10% chance of running out of memory.
func TestPlanSavingsSayBorderline(t *testing.T) {
	p := writeFile(t, "plan.toml", `schema_version = 1
[[phase]]
name = "ft70"
provider = "aws"
instance = "p6-b300.48xlarge"
region = "us-west-2"
pricing = "spot"
instances = 1
usd_per_hour = 33.43
job_hours = 2.2
[phase.answers]
dataset_tokens = "100M"
model = "llama-3.1-70b"
task = "finetune"
checkpointing = "true"
`)
	code, out, errOut := runWithSpot(t, "plan", p, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var j struct {
		Savings report.PlanSavingsJSON `json:"savings"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	safe := 0
	for _, c := range j.Savings.Changes {
		switch {
		case c.Change == "run on b200" && (c.OOMChance == nil || *c.OOMChance != 0.1):
			t.Errorf("%q: oom_chance %v, want 0.1", c.Change, c.OOMChance)
		case c.OOMChance != nil:
		default:
			safe++
		}
	}
	if safe == 0 {
		t.Errorf("every change marked borderline: %+v", j.Savings.Changes)
	}
	code, out, errOut = runWithSpot(t, "plan", p)
	if code != 0 || !strings.Contains(out, "run on b200") || !strings.Contains(out, "(borderline: 10% chance of running out of memory)") {
		t.Errorf("text: exit %d, %s%s", code, out, errOut)
	}
}
