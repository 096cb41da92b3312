package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// walkLoRAServe is a new user's plan: a LoRA of Qwen3 8B (batch 2 × 4096)
// on one L40S, then the same model served for three months on the same
// instance type. No pricing is given: on-demand.
const walkLoRAServe = `schema_version = 1
name = "Qwen3 8B: LoRA, then serve"

[[phase]]
name = "lora"
provider = "aws"
instance = "g6e.xlarge"
region = "us-east-1"
instances = 1
usd_per_hour = 1.861
job_hours = 10
[phase.answers]
model = "qwen3-8b"
task = "lora"
batch_size = "2"
seq_len = "4096"
dataset_tokens = "50M"

[[phase]]
name = "serve"
provider = "aws"
instance = "g6e.xlarge"
region = "us-east-1"
instances = 1
usd_per_hour = 1.861
months = 3
[phase.answers]
model = "qwen3-8b"
task = "inference"
"serve.output_tokens" = "1024"
`

// TestPlanJSONPricingShown: the table prints a phase without pricing as
// on-demand; --json left "pricing": "" for it.
func TestPlanJSONPricingShown(t *testing.T) {
	path := writeFile(t, "plan.toml", walkLoRAServe)
	_, out, errs := runCLI(t, "plan", path, "--json", "--no-savings")
	var j struct {
		Phases []struct {
			Name    string `json:"name"`
			Pricing string `json:"pricing"`
		} `json:"phases"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("%v: %s %s", err, out, errs)
	}
	if len(j.Phases) != 2 {
		t.Fatalf("phases %+v", j.Phases)
	}
	for _, ph := range j.Phases {
		if ph.Pricing != "on-demand" {
			t.Errorf("phase %q: pricing %q, want on-demand as the table shows", ph.Name, ph.Pricing)
		}
	}
}

// TestPlanNotFitNamesOneChange: the LoRA phase needs 83.8 GiB per GPU on
// its L40S (✗); activation checkpointing makes it fit there (about 35
// GiB), which recommend's near misses would name. plan only said "pick
// an offer that fits".
func TestPlanNotFitNamesOneChange(t *testing.T) {
	path := writeFile(t, "plan.toml", walkLoRAServe)
	code, out, errs := runCLI(t, "plan", path, "--no-savings")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (a phase cannot run): %s %s", code, out, errs)
	}
	for _, s := range []string{out, errs} {
		if !strings.Contains(s, "one change fits it there") || !strings.Contains(s, "turn on activation checkpointing") {
			t.Errorf("want the one change that fits the phase on its offer in:\n%s", s)
		}
	}
	_, jout, _ := runCLI(t, "plan", path, "--no-savings", "--json")
	if !strings.Contains(jout, "turn on activation checkpointing") {
		t.Errorf("--json targets lacks the change:\n%s", jout)
	}
}
