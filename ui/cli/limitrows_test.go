package cli

import (
	"encoding/csv"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/ui/report"
)

// TestLimitCountsRows (a new user's walk): --limit 5 showed five table
// rows, but --json's five offers were the first three rows, the third's
// other regions counted as offers. --limit counts rows in every format:
// the JSON and CSV list each region of the rows the table shows.
func TestLimitCountsRows(t *testing.T) {
	args := []string{"recommend", "--model", "qwen3-8b", "--task", "qlora", "--dataset-tokens", "20M", "--limit", "5"}
	_, table, _ := runCLI(t, args...)
	j, _ := runCLIJSON[report.RecommendJSON](t, args, "--json")
	_, csvOut, _ := runCLI(t, append(args, "-o", "csv")...)
	recs, err := csv.NewReader(strings.NewReader(csvOut)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// The table's rows, and the distinct rows of the JSON's offers.
	var rows []string
	for _, o := range j.Offers {
		k := o.Provider + " " + o.InstanceType
		if len(rows) == 0 || rows[len(rows)-1] != k {
			rows = append(rows, k)
		}
	}
	if len(rows) != 5 {
		t.Fatalf("--json --limit 5: %d rows of offers (%v), want 5", len(rows), rows)
	}
	for _, r := range rows {
		p, typ, _ := strings.Cut(r, " ")
		if !strings.Contains(table, typ) || !strings.Contains(table, p) {
			t.Errorf("--json row %q is not in the table:\n%s", r, table)
		}
	}
	if len(recs)-1 != len(j.Offers) {
		t.Errorf("-o csv --limit 5: %d offers, --json %d", len(recs)-1, len(j.Offers))
	}
}
