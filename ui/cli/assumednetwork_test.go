package cli

import (
	"strings"
	"testing"
)

// TestRecommendAssumedNetworkLine (new-user report: a 26.9-day 2× p5en
// row with no word in the text output): when a multi-node training offer's
// instance type has no network_gbps in the catalog, its time rests on
// another figure (model.Catalog.DefaultNetwork: here the median of the
// catalog's 8-GPU H100 SXM types, issue #30), and the text output says so
// in one line under the table, naming the type and the figure. Lambda's
// gpu_8x_h100_sxm5 has no network figure (Lambda publishes none for its
// on-demand VMs).
func TestRecommendAssumedNetworkLine(t *testing.T) {
	code, out, errs := runCLI(t, "recommend", "--model", "llama-3.1-8b", "--task", "finetune", "--dataset-tokens", "10M",
		"--batch-size", "1", "--checkpointing", "--allow-multi-node", "--gpus", "16", "--strategy", "fsdp",
		"--providers", "lambda", "--gpu", "h100-sxm", "--no-savings")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "2 nodes") {
		t.Fatalf("no multi-node offer in\n%s", out)
	}
	const line = "! 1 offer timed without a network figure in the catalog (gpu_8x_h100_sxm5): at 2400 Gbps (catalog median) between nodes\n"
	if !strings.Contains(out, line) {
		t.Errorf("no line %q in\n%s", line, out)
	}
	// A single-node run says nothing of the network.
	code, out, errs = runCLI(t, "recommend", "--model", "llama-3.1-8b", "--task", "lora", "--providers", "lambda", "--gpu", "h100-sxm", "--no-savings")
	if code != 0 {
		t.Fatalf("single node: exit %d: %s", code, errs)
	}
	if strings.Contains(out, "network figure") {
		t.Errorf("single-node output mentions the assumed network:\n%s", out)
	}
}
