package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestServeMultiNodeMarked: a serving replica across instances (TP 8 ×
// PP 2 on 8-GPU instances) is a near miss "(allow_multi_node)" without
// --allow-multi-node; with it the offer is ranked (the flag is not said
// to be ignored), and every such row says gpuplan cannot export it
// (a Ray cluster): "§" in the table, "not exported:" under the best line,
// "exportable": false with not_exported in --json; and export of that
// offer refuses it (exit 2), as the mark says (a new user's trial: 17
// offers ranked after "--allow-multi-node ignored", then export exit 2).
func TestServeMultiNodeMarked(t *testing.T) {
	args := []string{"recommend", "--model", "qwen2.5-72b", "--task", "inference", "--concurrency", "8", "--tp", "8", "--pp", "2", "--providers", "aws,lambda"}
	code, out, errs := runCLI(t, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("without --allow-multi-node: exit %d: %s", code, errs)
	}
	var d struct {
		Meeting int
		Offers  []struct {
			Provider     string `json:"provider"`
			InstanceType string `json:"instance_type"`
			Exportable   bool   `json:"exportable"`
			NotExported  string `json:"not_exported"`
		}
		Rejected []struct{ Reason string }
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if d.Meeting != 0 || len(d.Rejected) == 0 || !strings.Contains(d.Rejected[0].Reason, "(allow_multi_node)") {
		t.Fatalf("without --allow-multi-node: %d meeting, misses %+v; want none, the first miss naming allow_multi_node", d.Meeting, d.Rejected)
	}
	code, out, errs = runCLI(t, append(args, "--allow-multi-node", "--json")...)
	if code != 0 {
		t.Fatalf("--allow-multi-node: exit %d: %s", code, errs)
	}
	if strings.Contains(errs, "ignored") {
		t.Errorf("--allow-multi-node changes the ranking, yet stderr says: %s", errs)
	}
	d.Offers = nil
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Offers) == 0 {
		t.Fatal("--allow-multi-node: no offer ranked")
	}
	lambda := ""
	for _, o := range d.Offers {
		if o.Exportable || !strings.Contains(o.NotExported, "Ray cluster, which gpuplan does not export") {
			t.Errorf("%s %s: exportable %v, not_exported %q; want false, naming the Ray cluster", o.Provider, o.InstanceType, o.Exportable, o.NotExported)
		}
		if o.Provider == "lambda" && lambda == "" {
			lambda = o.Provider + "/" + o.InstanceType
		}
	}
	code, out, errs = runCLI(t, append(args, "--allow-multi-node")...)
	if code != 0 || !strings.Contains(out, "TP8×PP2×1 "+"§") || !strings.Contains(out, "§ one replica spans instances") || !strings.Contains(out, "  not exported: one replica spans 2 instances") {
		t.Errorf("--allow-multi-node text: exit %d, want § rows, its note and a not-exported line:\n%s%s", code, out, errs)
	}
	code, _, errs = runCLI(t, "export", "--model", "qwen2.5-72b", "--task", "inference", "--concurrency", "8", "--tp", "8", "--pp", "2", "--allow-multi-node", "--instance", lambda, "--format", "docker", "-o", "-")
	if code != 2 || !strings.Contains(errs, "Ray cluster") {
		t.Errorf("export %s of a § row: exit %d, %s; want 2 naming the Ray cluster", lambda, code, errs)
	}
}
