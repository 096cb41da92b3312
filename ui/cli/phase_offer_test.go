package cli

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestEstimatePhaseOnItsOffer: estimate --config PLAN --phase NAME
// estimates the phase on its own offer's GPUs, as gpuplan plan does, so
// both print the same memory and time for the phase (a new-user walk:
// estimate used the answers' 1 GPU, 249.81 GiB per GPU, where plan used
// the offer's 8, 115.8 GiB). Where the catalog lacks the phase's
// instance type, estimate says in one line that it estimates on the
// answers' count.
func TestEstimatePhaseOnItsOffer(t *testing.T) {
	const path = "testdata/plan-offer-gpus.toml"
	code, out, errs := runCLI(t, "plan", path, "--json")
	if code != ExitError { // phase train does not fit its offer: the JSON, then exit 1
		t.Fatalf("plan: exit %d, want %d: %s", code, ExitError, errs)
	}
	var doc struct{ Warnings []string }
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	find := func(re string) []string {
		t.Helper()
		r := regexp.MustCompile(re)
		for _, w := range doc.Warnings {
			if m := r.FindStringSubmatch(w); m != nil {
				return m
			}
		}
		t.Fatalf("plan says nothing matching %s: %q", re, doc.Warnings)
		return nil
	}
	type estimate struct {
		Workload struct{ GPUs int }
		Memory   struct {
			PerGPU struct{ Total float64 } `json:"per_gpu_bytes"`
		}
		Time *struct {
			Hours float64
			Band  struct{ Low, High float64 }
		}
	}
	est := func(phase string) (estimate, string) {
		t.Helper()
		code, out, errs := runCLI(t, "estimate", "--config", path, "--phase", phase, "--json")
		if code != 0 {
			t.Fatalf("estimate --phase %s: exit %d: %s", phase, code, errs)
		}
		var e estimate
		if err := json.Unmarshal([]byte(out), &e); err != nil {
			t.Fatal(err)
		}
		return e, errs
	}

	// lora fits its 8 GPUs: plan times it against job_hours.
	m := find(`phase "lora": job_hours = [^,]*, but the estimate on \S+ \S+ is (\S+) h \(90% range (\S+)–(\S+) h\)`)
	e, _ := est("lora")
	if e.Workload.GPUs != 8 || e.Time == nil {
		t.Fatalf("estimate --phase lora: %d GPUs, time %v; want the offer's 8, timed", e.Workload.GPUs, e.Time)
	}
	for i, v := range []float64{e.Time.Hours, e.Time.Band.Low, e.Time.Band.High} {
		if got := strconv.FormatFloat(v, 'g', 3, 64); got != m[i+1] {
			t.Errorf("lora: estimate --phase says %s h where plan says %s h (%s)", got, m[i+1], m[0])
		}
	}

	// train does not fit: plan says its memory per GPU, and that the
	// answers' 1 GPU is not the offer's 8; estimate says both.
	m = find(`phase "train": the job does not fit its offer \S+ \S+ \(needs (\S+) GiB per GPU`)
	e, errs = est("train")
	if got := fmt.Sprintf("%.1f", e.Memory.PerGPU.Total/(1<<30)); e.Workload.GPUs != 8 || got != m[1] {
		t.Errorf("train: estimate --phase says %d GPUs, %s GiB per GPU; plan %s GiB on the offer's 8", e.Workload.GPUs, got, m[1])
	}
	note := find(`phase "train": the answers say 1 GPU, but its offer .*`)[0]
	if !strings.Contains(errs, note) {
		t.Errorf("train: estimate --phase does not say %q:\n%s", note, errs)
	}

	// An offer the catalog lacks: the answers' count, said in one line.
	e, errs = est("unknown")
	const say = `phase "unknown": its offer lambda gpu_3x_nothing is not in the catalog, so this estimate is on the answers' GPU count`
	if e.Workload.GPUs != 1 || !strings.Contains(errs, say) {
		t.Errorf("unknown: %d GPUs; stderr %q, want %q", e.Workload.GPUs, errs, say)
	}

	// --gpus asks another question: it wins, with no note.
	if code, out, errs := runCLI(t, "estimate", "--config", path, "--phase", "train", "--gpus", "2", "--json"); code != 0 || !strings.Contains(out, `"gpus": 2,`) || strings.Contains(errs, "answers say") {
		t.Errorf("--phase train --gpus 2: exit %d, want 2 GPUs and no note: %s", code, errs)
	}
}
