package cli

import (
	"strings"
	"testing"
)

// TestRecommendAssumedNetworkLine (new-user report: a 26.9-day 2× p5en
// row with no word in the text output): when a multi-node training offer's
// instance type has no network_gbps in the catalog, its time rests on
// another figure, and the text output says so in one line under the
// table, naming the type, the figure and which way it errs. Lambda's
// on-demand VMs name neither a network figure nor a fabric (Lambda
// publishes none), so they are timed at the assumed 10 Gbps
// (model.NoFabricNetwork), not at the median of the catalog's InfiniBand
// and EFA nodes (new-user walk: that median made separately rented VMs
// as fast as EFA-joined ones, while the note said its error was "far too
// long").
func TestRecommendAssumedNetworkLine(t *testing.T) {
	code, out, errs := runCLI(t, "recommend", "--model", "llama-3.1-8b", "--task", "finetune", "--dataset-tokens", "10M",
		"--batch-size", "1", "--checkpointing", "--allow-multi-node", "--gpus", "16", "--strategy", "fsdp",
		"--providers", "lambda", "--gpu", "h100-sxm", "--no-savings")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "nodes)") {
		t.Fatalf("no multi-node offer in\n%s", out)
	}
	const line = "! 1 offer timed without a network figure in the catalog (gpu_1x_h100_sxm5): at 10 Gbps (assumed: no fabric documented) between nodes; the assumed figure is the slowest the catalog documents, so their cross-node time errs long, far too long if the provider joins them with InfiniBand or RDMA (--network-gbps)\n"
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
