package cli

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestOffersCountOfShown (a new user's walk): offers H100 --limit 5 said
// "… 48 more rows" and then "5 offers (cheapest region per type)"; the
// count says how many of all are shown.
func TestOffersCountOfShown(t *testing.T) {
	code, out, errs := runCLI(t, "offers", "H100", "--limit", "5")
	m := regexp.MustCompile(`… (\d+) more rows .*\n5 of (\d+) offers shown \(cheapest region per type\)`).FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("exit %d, stdout %q, stderr %q; want \"5 of N offers shown\" under the more-rows line", code, out, errs)
	}
	more, _ := strconv.Atoi(m[1])
	all, _ := strconv.Atoi(m[2])
	if all != more+5 {
		t.Errorf("5 of %d shown with %d more", all, more)
	}
	if _, out, _ := runCLI(t, "offers", "H100"); strings.Contains(out, " shown (") {
		t.Errorf("no --limit, yet the count says shown:\n%s", out)
	}
}
