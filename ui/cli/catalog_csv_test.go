package cli

import (
	"encoding/csv"
	"slices"
	"strings"
	"testing"
)

// TestCatalogCSVSourced: `catalog --help` says "Every row carries its source
// and as_of date", and every catalog entry has both (docs/schemas.md); the
// CSV of catalog gpus and models kept them out (walk fix50c: the models CSV
// had neither, the GPU CSV no as_of). New columns go last, so columns read
// by position keep theirs.
func TestCatalogCSVSourced(t *testing.T) {
	for _, tc := range []struct {
		list  string
		first []string // the columns as they were, in place
		added []string
	}{
		{"gpus", []string{"key", "name", "vendor", "architecture", "memory_gib", "memory_bandwidth_gbps",
			"fp32_tflops", "tf32_tflops", "bf16_tflops", "fp16_tflops", "fp8_tflops", "compute_capability", "source"}, []string{"as_of"}},
		{"models", []string{"key", "name", "family", "params", "active_params"}, []string{"source", "params_source", "as_of"}},
	} {
		code, out, errs := runCLI(t, "catalog", tc.list, "-o", "csv")
		if code != 0 {
			t.Fatalf("catalog %s -o csv: exit %d: %s", tc.list, code, errs)
		}
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil || len(recs) < 2 {
			t.Fatalf("catalog %s -o csv: %v (%d records)", tc.list, err, len(recs))
		}
		want := append(append([]string{}, tc.first...), tc.added...)
		if !slices.Equal(recs[0], want) {
			t.Fatalf("catalog %s -o csv header:\n got %q\nwant %q", tc.list, recs[0], want)
		}
		for _, r := range recs[1:] {
			for _, col := range append([]string{"source", "as_of"}, tc.added...) {
				if v := r[slices.Index(want, col)]; v == "" {
					t.Errorf("catalog %s -o csv: %s: empty %s", tc.list, r[0], col)
				}
			}
		}
	}
}
