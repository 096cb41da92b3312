package cli

import (
	"strings"
	"testing"
)

// TestServeEstimateThreeGPUs: a 3-GPU box serves Llama 3.3 70B in fp8 at
// 64 concurrent requests as TP 1 × PP 3 (walk49: "✗ does not fit … TP 1
// × PP 1"), --replicas 1 names one replica (it said "0 replicas"), and a
// TP that does not divide the GPUs says which are idle.
func TestServeEstimateThreeGPUs(t *testing.T) {
	base := []string{"estimate", "--model", "llama-3.3-70b", "--task", "inference", "--precision", "fp8", "--gpu", "h100-sxm", "--gpus", "3", "--concurrency", "64"}
	for _, tc := range []struct {
		name  string
		extra []string
		want  string
	}{
		{"split left open", nil, "3 × NVIDIA H100 SXM5 80GB: TP 1 × PP 3, 1 replica"},
		{"--replicas 1", []string{"--replicas", "1"}, "3 × NVIDIA H100 SXM5 80GB: TP 1 × PP 3, 1 replica"},
		{"--tp 2 leaves one idle", []string{"--tp", "2"}, "1 of the 3 GPUs idle: 1 replica of TP 2 × PP 1 on 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, append(append([]string{}, base...), tc.extra...)...)
			if code != 0 || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, stdout lacks %q:\n%s\n%s", code, tc.want, out, errs)
			}
			if strings.Contains(out, "0 replicas") || strings.Contains(out, "does not fit") {
				t.Errorf("stdout says it does not fit or 0 replicas:\n%s", out)
			}
		})
	}
}

// TestServeEstimateReplicasPastGPUs: --replicas given with --gpus rent
// what the replicas need (docs/serving.md), never silently: a warning line
// says how many GPUs and how to hold the plan to those given (walk49:
// --tp 2 --gpus 4 --replicas 4 printed "✓ serves 8 × …" and nothing else).
func TestServeEstimateReplicasPastGPUs(t *testing.T) {
	code, out, errs := runCLI(t, "estimate", "--model", "llama-3.1-8b", "--task", "inference", "--gpu", "h100-sxm", "--gpus", "4", "--tp", "2", "--replicas", "4")
	want := "--replicas 4 of TP 2 × PP 1 need 8 GPUs, more than --gpus 4: planned on 8; leave --replicas out to hold the plan to the 4 given"
	if code != 0 || !strings.Contains(errs, want) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Errorf("exit %d, stderr %q; want one warning line %q", code, errs, want)
	}
	if !strings.Contains(out, "8 × NVIDIA H100 SXM5 80GB") {
		t.Errorf("stdout lacks the 8 GPUs rented:\n%s", out)
	}
	// Within the GPUs given: no warning.
	if code, _, errs := runCLI(t, "estimate", "--model", "llama-3.1-8b", "--task", "inference", "--gpu", "h100-sxm", "--gpus", "4", "--tp", "2", "--replicas", "2"); code != 0 || strings.Contains(errs, "--replicas") {
		t.Errorf("--replicas 2 of TP 2 on 4: exit %d, stderr %q; want no warning", code, errs)
	}
}
