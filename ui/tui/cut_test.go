package tui

import (
	"slices"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// cutName's splits, worked by hand: n−1 cells of text and "…"; split 0
// keeps the start and the end (the start gets the odd cell), 1 the end,
// 2 the start, 3… the others from the middle out (n 10: tails 4, 9, 0,
// 5, 3, 6, 2, 7, 1, 8, then none).
func TestCutName(t *testing.T) {
	for _, tt := range []struct {
		s    string
		n, k int
		want string
		ok   bool
	}{
		{"gpu_8x_v100", 11, 0, "gpu_8x_v100", true},           // fits
		{"gpu_8x_v100", 10, 0, "gpu_8…v100", true},            // 5 + … + 4
		{"gpu_8x_v100_n", 10, 0, "gpu_8…00_n", true},          // 5 + … + 4
		{"H100_PCIE_80GB::8", 9, 0, "H100…B::8", true},        // 4 + … + 4
		{"abcdef", 3, 0, "ab…", true},                         // too narrow for both ends
		{"n1-standard-8+2xV100", 10, 1, "…-8+2xV100", true},   // … + 9
		{"n1-standard-8+2xV100", 10, 2, "n1-standa…", true},   // 9 + …
		{"n1-standard-8+2xV100", 10, 3, "n1-s…xV100", true},   // 4 + … + 5
		{"n1-standard-8+2xV100", 10, 8, "n1-stand…0", true},   // tail 1: 8 + … + 1
		{"n1-standard-8+2xV100", 10, 9, "n…8+2xV100", true},   // tail 8: 1 + … + 8
		{"n1-standard-8+2xV100", 10, 10, "n1-st…V100", false}, // past the last: split 0's
		{"北京一区二区", 7, 0, "北…区", true},                         // 2 cells a rune: the start's 3 cells hold 北, the end's 3 hold 区
		{"北京一区二区", 8, 0, "北京…区", true},                        // start 4: 北京; end 3: 区 (二区 would be 4)
	} {
		got, ok := cutName(tt.s, tt.n, tt.k)
		if ansi.StringWidth(got) > tt.n {
			t.Errorf("cutName(%q, %d, %d) = %q: %d cells", tt.s, tt.n, tt.k, got, ansi.StringWidth(got))
		}
		if got != tt.want || ok != tt.ok {
			t.Errorf("cutName(%q, %d, %d) = %q, %v; want %q, %v", tt.s, tt.n, tt.k, got, ok, tt.want, tt.ok)
		}
	}
}

// cutColumn keeps distinct names distinct where the width allows: the
// start and end, else the end, else the start, else another split; a
// region's "+N" is never cut.
func TestCutColumn(t *testing.T) {
	for _, tt := range []struct {
		name   string
		cells  []string
		n      int
		region bool
		want   []string
	}{
		{"lambda's V100 types (trial L5): start and end keep them apart", []string{"gpu_8x_v100", "gpu_8x_v100_n", "gpu_8x_v100"}, 10, false,
			[]string{"gpu_8…v100", "gpu_8…00_n", "gpu_8…v100"}},
		{"GCP's types agree at both ends: their ends are kept", []string{"n1-standard-8+2xV100", "n1-standard-16+4xV100", "n1-standard-16+2xV100"}, 10, false,
			[]string{"…-8+2xV100", "…16+4xV100", "…16+2xV100"}},
		// nebius's: start and end merge all three (gpu-h…00gb). Each
		// keeps the part where it parts from its nearest name instead: the
		// H100s' GPU counts, the H200's GPU, each its own.
		{"each name keeps its distinguishing part", []string{"gpu-h100-sxm_1gpu-16vcpu-200gb", "gpu-h100-sxm_8gpu-128vcpu-1600gb", "gpu-h200-sxm_1gpu-16vcpu-200gb"}, 10, false,
			[]string{"…1gpu…", "…8gpu…", "gpu-h200…"}},
		// All four of nebius's at 10 cells: the distinguishing parts are
		// shared by two ("…1gpu…" of both GPUs), and so is every split
		// (the end: 1- or 8-GPU; the start: H100 or H200), so each takes the
		// first split shared by two whose cut no name before it took.
		{"no split of their own: the least shared, not yet taken", []string{"gpu-h100-sxm_1gpu-16vcpu-200gb", "gpu-h100-sxm_8gpu-128vcpu-1600gb",
			"gpu-h200-sxm_1gpu-16vcpu-200gb", "gpu-h200-sxm_8gpu-128vcpu-1600gb"}, 10, false,
			[]string{"…cpu-200gb", "…pu-1600gb", "gpu-h200-…", "gpu-…600gb"}},
		// primeintellect's (walk: "datacru…10__60"): the cloud, then the
		// GPUs, then vCPUs and RAM; start and end name no GPU, the part
		// after the cloud does.
		{"a marketplace type keeps its GPUs, not the cloud's name and the sizes", []string{"datacrunch__1xA100_80GB__22__120", "datacrunch__1xRTX6000Ada_48GB__10__60",
			"datacrunch__1xH100_80GB__30__120", "hyperstack__1xA4000_16GB__4__21", "seeweb"}, 14, false,
			[]string{"…1xA100_80GB…", "…1xRTX6000Ada…", "…1xH100_80GB…", "hyperst…_4__21", "seeweb"}},
		// Two of one GPU part at their vCPUs, which split 0 cuts in two
		// ("datacru…2__120"): the end from there.
		{"two of one GPU keep their sizes", []string{"datacrunch__1xA100_80GB__22__120", "datacrunch__1xA100_80GB__44__182"}, 14, false,
			[]string{"…80GB__22__120", "…80GB__44__182"}},
		// One GPU from two clouds: "…1xA6000_48GB…" would be both's; the
		// start's first cells tell them apart.
		{"one GPU from two clouds keeps the clouds' starts", []string{"datacrunch__1xA6000_48GB__10__60", "hyperstack__1xA6000_48GB__28__58",
			"datacrunch__1xH100_80GB__30__120", "hyperstack__1xA4000_16GB__4__21"}, 14, false,
			[]string{"datac…1xA6000…", "hyper…1xA6000…", "…1xH100_80GB…", "…1xA4000_16GB…"}},
		{"the start through the part when it fits", []string{"1x_RTX6000Ada_SECURE", "1x_RTXA5000_SECURE", "1x_A40_SECURE"}, 14, false,
			[]string{"1x_RTX6000Ada…", "1x_RTXA5000…", "1x_A40_SECURE"}},
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
