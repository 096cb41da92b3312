package cli

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestRecommendSpotShowsExpected: under --pricing spot the table, the
// "best:" line, the Spot line and the savings' "now" give one figure for
// the first offer, its expected job cost with interruptions, and the rows
// are in the order of the cost they show. The tester's report: verda
// 2B300 at $3.92 in the table and on "best:", "expected $4.92" on its Spot
// line and "now $4.92" in the savings, ranked above 4B300 at $3.79.
func TestRecommendSpotShowsExpected(t *testing.T) {
	code, out, errOut := runWithSpot(t, "recommend", "--model", "llama-3.1-8b", "--task", "finetune", "--dataset-tokens", "100M",
		"--limit", "3", "--pricing", "spot")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(out, "\n")
	head := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "provider ") {
			head = i
			break
		}
	}
	if head < 0 {
		t.Fatalf("no table:\n%s", out)
	}
	usd := regexp.MustCompile(`\$[0-9][0-9,]*(?:\.[0-9]+)?`)
	var costs []float64
	var first string
	for _, l := range lines[head+1:] {
		if l == "" || strings.HasPrefix(l, "…") {
			break
		}
		m := usd.FindAllString(l, -1) // $/h, $/month, job cost
		if len(m) < 3 {
			t.Fatalf("row without a job cost: %q", l)
		}
		if first == "" {
			first = m[2]
		}
		v, err := strconv.ParseFloat(strings.NewReplacer("$", "", ",", "").Replace(m[2]), 64)
		if err != nil {
			t.Fatal(err)
		}
		costs = append(costs, v)
	}
	if len(costs) != 3 {
		t.Fatalf("%d rows; want 3:\n%s", len(costs), out)
	}
	for i := 1; i < len(costs); i++ {
		// A bigger host within SizedSlack of one sized to the job ranks
		// after it, and the report says so.
		sized := costs[i] >= costs[i-1]*(1-model.SizedSlack) && strings.Contains(out, "ranks first unless the bigger one costs 10% less") // one oversized type or several
		if costs[i] < costs[i-1] && !sized {
			t.Errorf("rows not sorted by the job cost they show: %v", costs)
		}
	}
	best := regexp.MustCompile(`(?m)^best: (\S+ \S+ in \S+):.*expected \S+ \S+ and (\S+) for the job with interruptions`).FindStringSubmatch(out)
	if best == nil {
		t.Fatalf("no best line with the expected cost:\n%s", out)
	}
	spot := regexp.MustCompile(`(?m)^  Spot ` + regexp.QuoteMeta(best[1]) + `: expected (\S+) `).FindStringSubmatch(out)
	if spot == nil {
		t.Fatalf("no Spot line for %s:\n%s", best[1], out)
	}
	if first != spot[1] || best[2] != spot[1] {
		t.Errorf("first row %s, best %s, Spot line expected %s; want one figure", first, best[2], spot[1])
	}
	if !strings.Contains(out, "now "+spot[1]+")") {
		t.Errorf("savings not measured from %s:\n%s", spot[1], out)
	}
	if !strings.Contains(out, "spot: job time and job cost are expected with interruptions") {
		t.Errorf("no note saying what the spot columns hold:\n%s", out)
	}
}
