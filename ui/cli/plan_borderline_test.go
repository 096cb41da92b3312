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
	p := writeFile(t, "plan.toml", "schema_version = 1\n"+ft70Phase)
	j := planSavingsJSON(t, p)
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
	code, out, errOut := runWithSpot(t, "plan", p)
	if code != 0 || !strings.Contains(out, "run on b200") || !strings.Contains(out, `(borderline on phase "ft70": 10% chance of running out of memory)`) {
		t.Errorf("text: exit %d, %s%s", code, out, errOut)
	}
}

// TestPlanSavingsBorderlineNamesPhase: in a plan of several phases, a
// saving priced on a borderline offer names the phase whose offer is
// borderline, as the plan table's notes name theirs (phase "ft70"), in
// text, JSON (oom_phases) and Chinese; "(borderline: 10% …)" alone left
// the reader to guess which of the phases it meant.
func TestPlanSavingsBorderlineNamesPhase(t *testing.T) {
	p := writeFile(t, "plan.toml", `schema_version = 1
[[phase]]
name = "prep"
provider = "aws"
instance = "g5.xlarge"
region = "us-east-1"
pricing = "on-demand"
instances = 1
usd_per_hour = 1.006
job_hours = 1
[phase.answers]
model = "bert-large"
task = "finetune"
dataset_samples = "88k"

`+ft70Phase)
	j := planSavingsJSON(t, p)
	marked := 0
	for _, c := range j.Savings.Changes {
		if c.OOMChance == nil {
			if len(c.OOMPhases) != 0 {
				t.Errorf("%q: oom_phases %q without an oom_chance", c.Change, c.OOMPhases)
			}
			continue
		}
		marked++
		if strings.Join(c.OOMPhases, ",") != "ft70" {
			t.Errorf("%q: oom_phases %q, want [ft70]", c.Change, c.OOMPhases)
		}
	}
	if marked == 0 {
		t.Fatalf("no change marked borderline: %+v", j.Savings.Changes)
	}
	code, out, errOut := runWithSpot(t, "plan", p)
	if want := `(borderline on phase "ft70": 10% chance of running out of memory)`; code != 0 || !strings.Contains(out, want) {
		t.Errorf("text: exit %d, want %s in\n%s%s", code, want, out, errOut)
	}
	if strings.Contains(out, "(borderline: ") {
		t.Errorf("text: a borderline note names no phase:\n%s", out)
	}
	code, out, errOut = runLang(t, "zh_CN.UTF-8", "plan", p)
	if want := `（阶段 "ft70" 显存紧张：约 10% 的概率显存不足）`; code != 0 || !strings.Contains(out, want) {
		t.Errorf("zh-CN: exit %d, want %s in\n%s%s", code, want, out, errOut)
	}
}

// ft70Phase is a 70B full fine-tune with checkpointing on 8 × B300 on
// spot, whose savings include B200s at a 10% chance of running out of
// memory.
const ft70Phase = `[[phase]]
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
`

// planSavingsJSON is plan --json's savings for the plan file p.
func planSavingsJSON(t *testing.T, p string) (j struct {
	Savings report.PlanSavingsJSON `json:"savings"`
}) {
	t.Helper()
	code, out, errOut := runWithSpot(t, "plan", p, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	return j
}
