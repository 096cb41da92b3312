package report

import "testing"

// TestCutMarketCellsPerGroup: each group's table is cut by only as much as
// it is over the width, not by what the widest group needs (walk: at 80
// columns "8× h100…" in every region group although only one was over).
// Columns provider, instance, GPUs, region, each its widest cell plus
// two. Narrow group: "provider" 10, "p5.48xlarge" 13, "8× h100-sxm" 13,
// "us-east-1" 11 = 47 cells, the width, so nothing is cut. Wide group:
// "a3-megagpu-8g" 15 and "australia-southeast1" 22 make 60, 13 over: the
// instance can only go to minInstanceCells = 12, "a3-megagpu-…" (1
// cell), the GPUs cell then as far as CutGPUs goes, "8× " and the key's
// first word: "8× h100…".
func TestCutMarketCellsPerGroup(t *testing.T) {
	header := []string{"provider", "instance", "GPUs", "region"}
	shown := []bool{true, true, true, true}
	narrow := [][]string{{"aws", "p5.48xlarge", "8× h100-sxm", "us-east-1"}}
	wide := [][]string{{"gcp", "a3-megagpu-8g", "8× h100-sxm", "australia-southeast1"}}
	cutMarketCells(header, narrow, []string{"h100-sxm"}, shown, 47)
	cutMarketCells(header, wide, []string{"h100-sxm"}, shown, 47)
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
