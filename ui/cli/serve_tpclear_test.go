package cli

import (
	"strings"
	"testing"
)

// TestRecommendSplitAsRented (a new user's walk): Llama 3.1 8B at
// --max-model-len 32768 × 8 requests on yotta ranked the 2 × RTX 5090
// instances at TP 2 × 4 (4 nodes, 62.4 ms, 72 output tokens/s, $5.20/h),
// where --tp 1 gives TP 1 × 8 on the same 4 nodes (16.3 ms, 178 tokens/s)
// for the same $5.20: TP 1's fewest replicas, 4, meet the targets only at
// the estimate, and the split was chosen on them. Splits are compared as
// rented (serve.ClearingReplicas within clearCostCap), so the row, the
// best line and export are TP 1 × 8. estimate --gpu rtx-5090 keeps TP 1 ×
// 3 borderline, naming the 8 that clear (over twice the GPUs), as
// recommend does on the 1-GPU instance. Failing before: TP2×PP1×4 in the
// row and --tensor-parallel-size 2 in the export; estimate said "8 GPUs
// chosen, not 3" and planned 8 replicas.
//
// The walk runs at --max-model-len 32000: with the RTX 5090's 31.36 GiB
// of usable memory a replica's 97.9k KV tokens hold 2 sequences of 32768
// (so 4 replicas, and the 8 that clear are not over twice) but 3 of 32000.
// There TP 2 × 4 is 61.1 ms and 74 tokens/s, TP 1 × 8 16.3 ms and 182
// tokens/s, and the 1-GPU TP 1 × 3 ~75.1 ms.
func TestRecommendSplitAsRented(t *testing.T) {
	q := []string{"--task", "inference", "--model", "llama-3.1-8b", "--max-model-len", "32000", "--concurrency", "8"}
	const inst = "2x28v238g_NVIDIA_GeForce_RTX_5090_32G_SECURE"
	code, out, errOut := runCLI(t, append([]string{"recommend", "--providers", "yotta"}, q...)...)
	if code != 0 {
		t.Fatalf("recommend: exit %d: %s", code, errOut)
	}
	if row := grepLine(out, inst); !strings.Contains(row, "TP1×PP1×8 ↑") || !strings.Contains(row, " 16.3 ") || !strings.Contains(row, " 182 ") || !strings.Contains(row, "$5.20") {
		t.Errorf("%s row %q, want TP 1 × 8 at 16.3 ms, 182 tokens/s, $5.20/h, marked ↑:\n%s", inst, row, out)
	}
	if strings.Contains(out, "TP2×") {
		t.Errorf("a TP 2 row, where TP 1 clears for the same price:\n%s", out)
	}
	if row := grepLine(out, "1x14v119g_"); !strings.Contains(row, "TP1×PP1×3 ") || !strings.Contains(row, "~75.1") {
		t.Errorf("1-GPU row %q, want TP 1 × 3 borderline (~75.1 ms): its 8 that clear cost over twice", row)
	}

	code, out, errOut = runCLI(t, append([]string{"export", "--providers", "yotta", "--instance", "yotta/" + inst, "--format", "skypilot", "-o", "-"}, q...)...)
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"TP 1 × PP 1, 8 replicas", "--tensor-parallel-size 1 ", "# note: 8 replicas chosen: the fewest that carry the load, 4,"} {
		if !strings.Contains(out, want) {
			t.Errorf("export lacks %q:\n%s", want, out)
		}
	}

	code, out, errOut = runCLI(t, append([]string{"estimate", "--gpu", "rtx-5090"}, q...)...)
	if code != 0 {
		t.Fatalf("estimate: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"~ serves, borderline: 3 × NVIDIA GeForce RTX 5090: TP 1 × PP 1, 3 replicas",
		"; --replicas 8 meets them across the range on 8 GPUs, over twice as many"} {
		if !strings.Contains(out, want) {
			t.Errorf("estimate lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "GPUs chosen, not") {
		t.Errorf("estimate chose more GPUs than the borderline 3 within the cap:\n%s", out)
	}
}
