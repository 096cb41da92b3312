package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestServeBorderlineRanking (issue 31 round 4, item 1): 70B at 5
// requests/s of 1k + 300 tokens ranked do's 1×MI300X first at TPOT 97.3 ms
// against the default 100 ms target although its 90% TPOT range reaches
// 334 ms, with no mark. Now such rows carry "~", rank after the rows that
// meet the target across their range, and the JSON says why. Failing
// before: best was do gpu-mi300x1-192gb, no borderline field. Since TPOT
// is vLLM's (latency − TTFT) ÷ (output − 1) (serve.Speed), that row reads
// ~88.5 ms, its range still crossing the target; ~87.4 ms since the
// serving constants were refitted with the first MoE case (MBU 0.73);
// ~90.1 ms since decode pays a fitted per-layer floor (dec13,
// Tuning.LayerOverheadSec). With the replicas left to the planner, the
// offer is now planned on the 3 instances that clear the range (62.7 ms,
// serve.ClearingReplicas), marked "↑" and ranked among the clear rows;
// --replicas 2 gives the borderline row, ranked as before, unless the
// cheapest offer that clears costs over twice it: then it ranks first and
// names that offer (dearer, serve.borderlineFirst).
func TestServeBorderlineRanking(t *testing.T) {
	args := []string{"recommend", "--model", "llama-3.1-70b", "--task", "inference", "--rps", "5", "--prompt-tokens", "1K", "--output-tokens", "300"}
	type offers struct {
		Offers []struct {
			Provider            string  `json:"provider"`
			InstanceType        string  `json:"instance_type"`
			Meets               bool    `json:"meets"`
			Borderline          string  `json:"borderline"`
			Replicas            int     `json:"replicas"`
			TPOTMs              float64 `json:"tpot_ms"`
			Cleared             string  `json:"cleared"`
			ClearedFromReplicas int     `json:"cleared_from_replicas"`
			Dearer              string  `json:"dearer"`
		} `json:"offers"`
	}
	for _, tc := range []struct {
		name     string
		args     []string
		replicas int
		mark     string // the MI300X row's TPOT cell
	}{
		{"replicas left to the planner: the 3 that clear the range", nil, 3, " 62.7 "},
		{"--replicas 2: borderline, as asked", []string{"--replicas", "2"}, 2, " ~90.1 "},
	} {
		code, out, errOut := runCLI(t, append(append(args, tc.args...), "--json", "--limit", "0")...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.name, code, errOut)
		}
		var r offers
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		seen, mi := false, false
		for _, o := range r.Offers {
			if !o.Meets {
				continue
			}
			if o.Borderline == "" && seen {
				t.Errorf("%s: %s %s meets across its range but ranks after a borderline offer", tc.name, o.Provider, o.InstanceType)
			}
			seen = seen || o.Borderline != "" && o.Dearer == ""
			if o.InstanceType != "gpu-mi300x1-192gb" {
				continue
			}
			mi = true
			if o.Replicas != tc.replicas {
				t.Errorf("%s: do gpu-mi300x1-192gb at %d replicas, want %d", tc.name, o.Replicas, tc.replicas)
			}
			if tc.args == nil && (o.Borderline != "" || o.ClearedFromReplicas != 2 || !strings.Contains(o.Cleared, "90% range of the TPOT")) {
				t.Errorf("%s: do gpu-mi300x1-192gb: borderline %q, cleared from %d (%q); want clear, from the 2 whose TPOT range crosses the target", tc.name, o.Borderline, o.ClearedFromReplicas, o.Cleared)
			}
			if tc.args != nil && (!strings.Contains(o.Borderline, "90% range of the TPOT") || o.Cleared != "") {
				t.Errorf("%s: do gpu-mi300x1-192gb: borderline %q, cleared %q; want the TPOT range crossing the target", tc.name, o.Borderline, o.Cleared)
			}
		}
		if !mi || !seen && r.Offers[0].Dearer == "" {
			t.Fatalf("%s: want do gpu-mi300x1-192gb among the offers meeting the target, and borderline offers (found %v, any borderline %v)", tc.name, mi, seen)
		}
		if r.Offers[0].Borderline != "" && r.Offers[0].Dearer == "" {
			t.Errorf("%s: first offer %s %s: borderline %q", tc.name, r.Offers[0].Provider, r.Offers[0].InstanceType, r.Offers[0].Borderline)
		}
		code, out, errOut = runCLI(t, append(append(args, tc.args...), "--limit", "0")...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.name, code, errOut)
		}
		if line := grepLine(out, "gpu-mi300x1-192gb"); !strings.Contains(out, "~ borderline (") || !strings.Contains(line, tc.mark) {
			t.Errorf("%s: table: want %q on the MI300X row and the ~ note:\n%s", tc.name, tc.mark, out)
		}
	}
}

// TestServeNearMissesClosest (issue 31 round 4, item 2): with --tpot-ms 3
// (out of reach for 70B) the near misses listed were do's MI300X at
// 41.4 ms first and an 18 ms row after, though 8×B200 reaches about
// 5 ms; now they come closest first. Failing before: 41.4 ms first.
// Since decode pays a per-layer floor (dec13: 80 layers × ~0.1 ms) the
// closest is about 12 ms (8×MI355X, 8×B200).
func TestServeNearMissesClosest(t *testing.T) {
	code, out, errOut := runCLI(t, "recommend", "--model", "llama-3.1-70b", "--task", "inference", "--rps", "5",
		"--prompt-tokens", "1K", "--output-tokens", "300", "--tpot-ms", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	_, near, ok := strings.Cut(out, "Near misses")
	if !ok {
		t.Fatalf("no near misses:\n%s", out)
	}
	var last float64
	n := 0
	for l := range strings.SplitSeq(near, "\n") {
		var ms float64
		i := strings.Index(l, "time per output token ")
		if i < 0 {
			continue
		}
		if _, err := fmt.Sscanf(l[i:], "time per output token %f ms", &ms); err != nil {
			t.Fatal(err)
		}
		if ms > 13 || ms < last {
			t.Errorf("near miss at %.1f ms after %.1f ms; want the closest (about 12 ms) first, in order: %s", ms, last, l)
		}
		last = ms
		n++
	}
	if n == 0 {
		t.Errorf("no near miss names its TPOT:\n%s", near)
	}
}
