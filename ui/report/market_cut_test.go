package report

import "testing"

// TestCutMarketCellsPerGroup: each group's table is cut by only as much as
// it is over the width, not by what the widest group needs (walk: at 80
// columns "8× h100…" in every region group although only one was over).
// Columns provider, instance, GPUs, region: header widths 8+2, 8+2, 4+2,
// 6+2. Narrow group: "aws" 5, "p5.48xlarge" 13, "8× h100-sxm" 13,
// "us-east-1" 11 = 42 cells, under 45, so nothing is cut. Wide group:
// region "australia-southeast1" 22 cells makes 53, 8 over: the instance
// "a3-megagpu-8g" (13 cells) can only go to minInstanceCells = 12,
// "a3-megagpu-…" (1 cell), the GPUs cell then loses the other 7 (11 - 7
// = 4 cells, no fewer than the header's 4): CutGPUs keeps "8× " and the
// key's first word, "8× h100…".
func TestCutMarketCellsPerGroup(t *testing.T) {
	header := []string{"provider", "instance", "GPUs", "region"}
	shown := []bool{true, true, true, true}
	narrow := [][]string{{"aws", "p5.48xlarge", "8× h100-sxm", "us-east-1"}}
	wide := [][]string{{"gcp", "a3-megagpu-8g", "8× h100-sxm", "australia-southeast1"}}
	cutMarketCells(header, narrow, []string{"h100-sxm"}, shown, 45)
	cutMarketCells(header, wide, []string{"h100-sxm"}, shown, 45)
	if got := narrow[0][2]; got != "8× h100-sxm" {
		t.Errorf("narrow group's GPUs cut to %q, want it whole", got)
	}
	if got := narrow[0][1]; got != "p5.48xlarge" {
		t.Errorf("narrow group's instance cut to %q, want it whole", got)
	}
	if got := wide[0][1]; got != "a3-megagpu-…" {
		t.Errorf("wide group's instance %q, want a3-megagpu-…", got)
	}
	if got := wide[0][2]; got != "8× h100…" {
		t.Errorf("wide group's GPUs %q, want 8× h100…", got)
	}
}
