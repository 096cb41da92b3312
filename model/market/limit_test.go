package market

import (
	"testing"

	"github.com/gpuplan/gpuplan/model/market/markettest"
)

// TestResultLimit: --limit keeps the first N rows, or the first N of each
// group, whose count and price ranges then span the rows kept, and says
// how many it left out (a row in two region groups counts in each).
func TestResultLimit(t *testing.T) {
	c := markettest.Catalog()
	for _, q := range []Query{{}, {GroupBy: GroupGPU}, {GroupBy: GroupProvider}, {GroupBy: GroupRegion}} {
		for _, n := range []int{0, 1, 2, 1000} {
			full, err := Browse(c, q)
			if err != nil {
				t.Fatal(err)
			}
			res, _ := Browse(c, q)
			hidden := res.Limit(n)
			want := 0
			if len(full.Groups) == 0 && n > 0 {
				want = max(len(full.Rows)-n, 0)
			}
			for gi, g := range full.Groups {
				keep := len(g.Rows)
				if n > 0 {
					keep = min(keep, n)
					want += len(g.Rows) - keep
				}
				got := res.Groups[gi]
				if got.Key != g.Key || len(got.Rows) != keep {
					t.Fatalf("group by %s, limit %d: group %s has %d rows, want %s with %d", q.GroupBy, n, got.Key, len(got.Rows), g.Key, keep)
				}
				for k, i := range got.Rows { // the same rows, in the same order, re-indexed
					if a, b := res.Rows[i], full.Rows[g.Rows[k]]; a.Instance != b.Instance || a.Region != b.Region || a.USDPerHour != b.USDPerHour {
						t.Errorf("group by %s, limit %d: group %s row %d is %s/%s, want %s/%s", q.GroupBy, n, g.Key, k, a.Instance.Type, a.Region, b.Instance.Type, b.Region)
					}
					if u := res.Rows[i].USDPerHour; u < got.MinUSDPerHour || u > got.MaxUSDPerHour {
						t.Errorf("group by %s, limit %d: group %s's range %g–%g leaves out its row at %g", q.GroupBy, n, g.Key, got.MinUSDPerHour, got.MaxUSDPerHour, u)
					}
				}
			}
			if len(full.Groups) == 0 && len(res.Rows) != len(full.Rows)-want {
				t.Errorf("limit %d: %d rows, want %d", n, len(res.Rows), len(full.Rows)-want)
			}
			if n == 1 && want == 0 {
				t.Fatalf("group by %q: every group has one row: the test's premise is gone", q.GroupBy)
			}
			if hidden != want {
				t.Errorf("group by %q, limit %d: Limit() = %d, want %d", q.GroupBy, n, hidden, want)
			}
		}
	}
}
