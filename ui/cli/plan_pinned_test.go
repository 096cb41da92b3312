package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestPlanMarksPinnedServing: a serving phase whose pinned offer meets
// its targets only at the estimate says so on its row (issue 31: the
// example plan pinned two T4s, TPOT 90.3 ms at the estimate, its 90%
// range 66.8–162.8 ms crossing the default 100 ms target, and the row
// carried no word while the savings re-priced the plan at twice its
// total). testdata/plan-answers.toml still pins them (95.3 ms since the
// PCIe all-reduce takes NCCL's measured times, serve.allReduceSec; its
// range 67.2–126.4 ms still crosses the target); the shipped example
// now pins four T4s (49 ms, whole range under the target) and is unmarked.
// Since the serving constants were refitted with the first MoE case (MBU
// 0.73, the TPOT range ×0.727–×1.241), TP 2 over the two T4s takes just
// over 100 ms at 8 requests, and the plan that meets across its range
// (TP 2, two replicas) needs two instances: the row is marked ✗, saying so,
// where the one-instance TP 1 plan (88.6 ms, 71.4–122.0 ms) is borderline.
// Since decode pays a fitted per-layer floor (dec13) and the TPOT range
// widened (×0.66–×1.47), no layout of the pinned T4s meets across its
// range: the one-instance TP 1 plan (84.5 ms, 57.3–127.9 ms) is kept and
// the row is marked borderline (~) again.
func TestPlanMarksPinnedServing(t *testing.T) {
	code, out, errOut := runCLI(t, "plan", "testdata/plan-answers.toml", "--no-savings")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var row string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "n1-standard-8+2xT4") {
			row = l
		}
	}
	if !strings.HasPrefix(row, "~ serve ") {
		t.Errorf("the 2×T4 serve row is not marked: %q\n%s", row, out)
	}
	code, out, errOut = runCLI(t, "plan", "testdata/plan-answers.toml", "--no-savings", "--json")
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errOut)
	}
	var j struct {
		Phases []struct {
			Name, Targets string
		}
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if len(j.Phases) != 2 || j.Phases[0].Targets != "" || !strings.Contains(j.Phases[1].Targets, "borderline on its pinned offer") {
		t.Errorf("--json targets: %+v", j.Phases)
	}

	code, out, errOut = runCLI(t, "plan", "../../docs/examples/plan.toml", "--no-savings")
	if code != 0 {
		t.Fatalf("example: exit %d: %s", code, errOut)
	}
	if strings.Contains(out, "~") || strings.Contains(out, "✗") || !strings.Contains(out, "n1-standard-16+4xT4") {
		t.Errorf("the shipped example plan is not on an offer that meets its targets across the range:\n%s", out)
	}
}

// TestPlanMarksPinnedServingShort: a serving phase pinned to one
// g2-standard-4 (one L4) cannot carry 8 requests within 100 ms per token
// (about 141 ms on one; the serving ranking takes two nodes): its row is
// marked ✗ and says how many instances carry the load.
func TestPlanMarksPinnedServingShort(t *testing.T) {
	p := writeFile(t, "plan.toml", `schema_version = 1
[[phase]]
name = "serve"
provider = "gcp"
instance = "g2-standard-4"
region = "us-central1"
pricing = "on-demand"
instances = 1
usd_per_hour = 0.7068
months = 6.0
[phase.answers]
context_len = "8192"
model = "llama-3.1-8b"
precision = "int4"
sequences = "8"
task = "inference"
`)
	code, out, errOut := runCLI(t, "plan", p, "--no-savings")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, w := range []string{"✗ serve ", `✗ phase "serve": carries the phase's load on 2 instances of its pinned offer; the plan rents 1`} {
		if !strings.Contains(out, w) {
			t.Errorf("stdout lacks %q:\n%s", w, out)
		}
	}
}
