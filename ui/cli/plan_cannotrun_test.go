package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestPlanCannotRunExits1: gpuplan plan exited 0 when its phases could
// not run on their pinned offers, the table all ✗ (a new user's walk),
// and a job refused for a precision its GPU lacks was said not to "fit"
// its offer, which reads as memory. A plan with a phase that cannot run
// prints its table (or JSON, cannot_run set), then exits 1 with one line
// naming the phase; the verdict names the reason's kind; a phase marked ✗
// that runs (short of its serving targets) and a plan that runs exit 0.
func TestPlanCannotRunExits1(t *testing.T) {
	const precision = `schema_version = 1
[[phase]]
name = "ft"
provider = "aws"
instance = "g4dn.xlarge"
region = "us-east-1"
instances = 1
usd_per_hour = 0.526
job_hours = 14.5
[phase.answers]
dataset_tokens = "100M"
model = "llama-3.1-8b"
task = "lora"
precision = "fp8"
`
	const runs = `schema_version = 1
[[phase]]
name = "serve"
provider = "aws"
instance = "g5.12xlarge"
region = "us-east-1"
instances = 1
usd_per_hour = 5.672
months = 1
[phase.answers]
model = "llama-3.1-8b"
task = "inference"
"serve.requests_per_sec" = "2"
`
	const verdict = "cannot run on its pinned offer (precision support): NVIDIA T4 has no fp8; it would run amp-fp16 (allow_precision_fallback)"
	path := writeFile(t, "fp8.toml", precision)
	code, out, errs := runCLI(t, "plan", path, "--no-savings")
	last := `gpuplan: ` + path + `: phase "ft" cannot run on its pinned offer (marked ✗): pick an offer that runs it (gpuplan recommend --config PLAN --phase NAME)` + "\n"
	if code != ExitError || !strings.Contains(out, "✗ ft ") || !strings.Contains(out, `✗ phase "ft": `+verdict+"\n") || !strings.Contains(out, "Total — (no phase can run on its pinned offer; $7.63 as written)") {
		t.Errorf("plan: exit %d, want %d and the table with %q:\n%s", code, ExitError, verdict, out)
	}
	if !strings.HasSuffix(errs, last) || !strings.Contains(errs, `phase "ft": the job cannot run on its offer aws g4dn.xlarge (precision support: NVIDIA T4 has no fp8`) || strings.Contains(errs, "does not fit") {
		t.Errorf("plan: stderr %q, want the warning in the reason's words and last %q", errs, last)
	}
	code, out, errs = runCLI(t, "plan", path, "--no-savings", "--json")
	var doc struct {
		Phases []struct {
			Targets   string `json:"targets"`
			CannotRun bool   `json:"cannot_run"`
		} `json:"phases"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != ExitError || len(doc.Phases) != 1 || !doc.Phases[0].CannotRun || doc.Phases[0].Targets != verdict || !strings.HasSuffix(errs, last) {
		t.Errorf("plan --json: exit %d (%v), phases %+v, stderr %q; want exit %d, cannot_run and %q", code, err, doc.Phases, errs, ExitError, verdict)
	}
	// export --phase refuses it in the same words, exit 2.
	code, _, errs = runCLI(t, "export", "--config", path, "--phase", "ft", "--format", "torchrun", "-o", "-")
	if code != ExitUsage || !strings.Contains(errs, `phase "ft" `+verdict) {
		t.Errorf("export --phase: exit %d, stderr %q; want %d and %q", code, errs, ExitUsage, verdict)
	}
	// Marked ✗ but runs: carries its load on 2 instances where the plan rents 1.
	code, out, errs = runCLI(t, "plan", writeFile(t, "runs.toml", runs), "--no-savings")
	if code != ExitOK || !strings.Contains(out, `✗ phase "serve": carries the phase's load on 2 instances`) || strings.Contains(errs, "cannot run") {
		t.Errorf("plan, a phase short of its targets: exit %d, want 0:\n%s%s", code, out, errs)
	}
	if code, _, errs = runCLI(t, "plan", "testdata/plan-two-phases.toml", "--no-savings"); code != ExitOK {
		t.Errorf("plan-two-phases: exit %d: %s", code, errs)
	}
}
