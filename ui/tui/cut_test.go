package tui

import (
	"slices"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// cutName's three styles, worked by hand: n−1 cells of text and "…"; the
// middle gives the start the odd cell.
func TestCutName(t *testing.T) {
	for _, tt := range []struct {
		s    string
		n    int
		how  cutStyle
		want string
	}{
		{"gpu_8x_v100", 11, cutMiddle, "gpu_8x_v100"},        // fits
		{"gpu_8x_v100", 10, cutMiddle, "gpu_8…v100"},         // 5 + … + 4
		{"gpu_8x_v100_n", 10, cutMiddle, "gpu_8…00_n"},       // 5 + … + 4
		{"H100_PCIE_80GB::8", 9, cutMiddle, "H100…B::8"},     // 4 + … + 4
		{"abcdef", 3, cutMiddle, "ab…"},                      // too narrow for both ends
		{"n1-standard-8+2xV100", 10, cutStart, "…-8+2xV100"}, // … + 9
		{"n1-standard-8+2xV100", 10, cutEnd, "n1-standa…"},   // 9 + …
		{"北京一区二区", 7, cutMiddle, "北…区"},                      // 2 cells a rune: the start's 3 cells hold 北, the end's 3 hold 区
		{"北京一区二区", 8, cutMiddle, "北京…区"},                     // start 4: 北京; end 3: 区 (二区 would be 4)
	} {
		got := cutName(tt.s, tt.n, tt.how)
		if ansi.StringWidth(got) > tt.n {
			t.Errorf("cutName(%q, %d) = %q: %d cells", tt.s, tt.n, got, ansi.StringWidth(got))
		}
		if got != tt.want {
			t.Errorf("cutName(%q, %d, %d) = %q, want %q", tt.s, tt.n, tt.how, got, tt.want)
		}
	}
}

// cutColumn keeps distinct names distinct: the middle when that does,
// else the end kept; a region's "+N" is never cut.
func TestCutColumn(t *testing.T) {
	for _, tt := range []struct {
		name   string
		cells  []string
		n      int
		region bool
		want   []string
	}{
		{"lambda's V100 types (trial L5): the middle keeps them apart", []string{"gpu_8x_v100", "gpu_8x_v100_n", "gpu_8x_v100"}, 10, false,
			[]string{"gpu_8…v100", "gpu_8…00_n", "gpu_8…v100"}},
		{"GCP's types agree at both ends: the end is kept", []string{"n1-standard-8+2xV100", "n1-standard-16+4xV100", "n1-standard-16+2xV100"}, 10, false,
			[]string{"…-8+2xV100", "…16+4xV100", "…16+2xV100"}},
		{"all fit: unchanged", []string{"gcp", "lambda"}, 6, false, []string{"gcp", "lambda"}},
		{"a region keeps its +N", []string{"asia-northeast-1 +16", "us-east-1"}, 14, true, []string{"asia-…st-1 +16", "us-east-1"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := slices.Clone(tt.cells)
			cutColumn(got, tt.n, tt.region)
			if !slices.Equal(got, tt.want) {
				t.Errorf("cutColumn(%q, %d) = %q, want %q", tt.cells, tt.n, got, tt.want)
			}
		})
	}
}
