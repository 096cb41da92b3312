package cli

import (
	"strings"
	"testing"
)

// TestServeExportSaysBorderline (a new user's walk): estimate plans Qwen3
// 8B at 16 concurrent requests on RTX 4090s as TP 1 × 4 replicas on 4
// GPUs, meeting the targets across their 90% ranges (serve.PlanOnGPUNodes);
// export on a 1-GPU instance rents the fewest instances that carry the
// load at the estimate, as recommend ranks that offer: TP 1 × 2 on 2, the
// row recommend marks "~" (the low end of the KV cache's range holds 5 of
// the 8 sequences each replica needs). The file says so in a note, with
// the replicas that meet the targets across the range (4 instances at
// 2 × $1.48/h = $2.96/h), in every format. Failing before: estimate said
// TP 2 × 2 replicas and the script had no word of the risk.
func TestServeExportSaysBorderline(t *testing.T) {
	q := []string{"--model", "qwen3-8b", "--task", "inference", "--concurrency", "16"}
	code, out, errOut := runCLI(t, append([]string{"estimate", "--gpu", "rtx4090"}, q...)...)
	if code != 0 {
		t.Fatalf("estimate: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "4 × NVIDIA GeForce RTX 4090: TP 1 × PP 1, 4 replicas") {
		t.Errorf("estimate: want TP 1 × 4 replicas on 4 GPUs:\n%s", out)
	}
	const note = "# note: borderline (~ in recommend): this split meets the targets only at the estimate, not across its 90% range: the low end of the KV cache's 90% range"
	for _, f := range []string{"torchrun", "docker", "skypilot", "k8s", "toml"} {
		code, out, errOut := runCLI(t, append([]string{"export", "--instance", "runpod/1x_RTX4090_SECURE", "--format", f, "-o", "-"}, q...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", f, code, errOut)
		}
		if !strings.Contains(out, note) || !strings.Contains(out, "# note: --replicas 4 meets the targets across that range: 4 instances, $2.96/h") {
			t.Errorf("%s: want the borderline notes:\n%s", f, out)
		}
		if !strings.Contains(errOut, "borderline (~ in recommend)") {
			t.Errorf("%s: stderr does not say it: %s", f, errOut)
		}
	}
	// The replicas it names meet the targets across the range: no note.
	code, out, errOut = runCLI(t, append([]string{"export", "--instance", "runpod/1x_RTX4090_SECURE", "--format", "torchrun", "-o", "-", "--replicas", "4"}, q...)...)
	if code != 0 || strings.Contains(out, "borderline") || !strings.Contains(out, "TP 1 × PP 1, 4 replicas") {
		t.Errorf("--replicas 4: exit %d, %s\n%s", code, errOut, out)
	}
}
