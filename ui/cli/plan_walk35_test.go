package cli

import (
	"encoding/json"
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
	code, out, errOut := runCLI(t, "estimate", "--config", file, "--phase", "tune", "--json")
	if code != 0 {
		t.Fatalf("estimate: exit %d: %s", code, errOut)
	}
	var e struct {
		Time struct {
			Hours float64
			Band  struct{ Low, High float64 }
		}
	}
	if err := json.Unmarshal([]byte(out), &e); err != nil || e.Time.Hours <= 0 {
		t.Fatalf("estimate --json: %v, %+v", err, e)
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
		code, _, errOut = runCLI(t, "plan", p, "--no-savings")
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
	code, out, errOut := runCLI(t, "estimate", "--config", file, "--phase", "s", "--json")
	if code != 0 {
		t.Fatalf("estimate: exit %d: %s", code, errOut)
	}
	var e struct {
		Plan struct {
			Fits    bool
			Reasons []string
		}
	}
	if err := json.Unmarshal([]byte(out), &e); err != nil || e.Plan.Fits || len(e.Plan.Reasons) == 0 {
		t.Fatalf("estimate --json: %v, %+v", err, e.Plan)
	}
	code, out, errOut = runCLI(t, "plan", file, "--no-savings")
	if code != 0 {
		t.Fatalf("plan: exit %d: %s", code, errOut)
	}
	want := "✗ phase \"s\": does not fit its pinned offer: " + e.Plan.Reasons[0]
	if !strings.Contains(out, want) || strings.Contains(out, "misses the phase's load") {
		t.Errorf("want %q in:\n%s", want, out)
	}
}
