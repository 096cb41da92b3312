package cli

import (
	"strings"
	"testing"
)

// TestServeExportSaysBorderline (a new user's walk): estimate plans Qwen3
// 8B at 16 concurrent requests on RTX 4090s as TP 1 × 4 replicas on 4
// GPUs, meeting the targets across their 90% ranges (serve.PlanOnGPUNodes);
// export on a 1-GPU instance wrote the fewest instances that carry the
// load at the estimate, TP 1 × 2 on 2, the row recommend marks "~" (the
// low end of the KV cache's range holds 5 of the 8 sequences each replica
// needs), with a note naming --replicas 4. The planner now rents the 4
// that clear the range, as recommend ranks the offer (serve.ClearingReplicas:
// 3 replicas still hold 6 each), and the file says why not 2 (4 instances
// at $2.96/h, 2 at 2 × $0.74/h = $1.48/h) in every format; --replicas 2
// writes the borderline split with its note, and --replicas 4 the same
// files with no note. Failing before the planner cleared: 2 replicas.
func TestServeExportSaysBorderline(t *testing.T) {
	q := []string{"--model", "qwen3-8b", "--task", "inference", "--concurrency", "16"}
	code, out, errOut := runCLI(t, append([]string{"estimate", "--gpu", "rtx4090"}, q...)...)
	if code != 0 {
		t.Fatalf("estimate: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "4 × NVIDIA GeForce RTX 4090: TP 1 × PP 1, 4 replicas") {
		t.Errorf("estimate: want TP 1 × 4 replicas on 4 GPUs:\n%s", out)
	}
	const cleared = "# note: 4 replicas chosen: the fewest that carry the load, 2, meet the targets only at the estimate (the low end of the KV cache's 90% range"
	const borderline = "# note: borderline (~ in recommend): this split meets the targets only at the estimate, not across its 90% range: the low end of the KV cache's 90% range"
	for _, f := range []string{"torchrun", "docker", "skypilot", "k8s", "toml"} {
		code, out, errOut := runCLI(t, append([]string{"export", "--instance", "runpod/1x_RTX4090_SECURE", "--format", f, "-o", "-"}, q...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", f, code, errOut)
		}
		if !strings.Contains(out, cleared) || !strings.Contains(out, "--replicas 2 plans them at $1.48/h") || !strings.Contains(out, "$2.96/h; TP 1 × PP 1, 4 replicas") {
			t.Errorf("%s: want 4 replicas at $2.96/h and why not 2:\n%s", f, out)
		}
		if strings.Contains(out, "borderline") || strings.Contains(errOut, "borderline") {
			t.Errorf("%s: the 4 replicas written are not borderline:\n%s\n%s", f, out, errOut)
		}
	}
	code, out, errOut = runCLI(t, append([]string{"export", "--instance", "runpod/1x_RTX4090_SECURE", "--format", "torchrun", "-o", "-", "--replicas", "2"}, q...)...)
	if code != 0 || !strings.Contains(out, borderline) || !strings.Contains(out, "TP 1 × PP 1, 2 replicas") || strings.Contains(out, "chosen") ||
		!strings.Contains(errOut, "borderline (~ in recommend)") {
		t.Errorf("--replicas 2: exit %d, want the borderline split and its note: %s\n%s", code, errOut, out)
	}
	code, out, errOut = runCLI(t, append([]string{"export", "--instance", "runpod/1x_RTX4090_SECURE", "--format", "torchrun", "-o", "-", "--replicas", "4"}, q...)...)
	if code != 0 || strings.Contains(out, "borderline") || strings.Contains(out, "chosen") || !strings.Contains(out, "TP 1 × PP 1, 4 replicas") {
		t.Errorf("--replicas 4: exit %d, %s\n%s", code, errOut, out)
	}
}
