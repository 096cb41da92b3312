package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpuplan/gpuplan/model"
)

// Names before figures (#31): at 80×24 the offers table cut provider and
// instance names to 6 and 10 cells ("pri…ct", "datac…_182") while it
// still showed the job's time beside its cost, and at 120×40 the GPUs
// column kept the width of its longest cell while the types were cut.
// The figures another implies go first: the names keep 10 and 16 cells,
// every cut is marked "…", and no two rows read the same.
func TestOfferNamesBeforeFigures(t *testing.T) {
	cat := testCatalog(t)
	for i, typ := range []string{"datacrunch__1xH100_80GB__30__120", "massedcompute__1xA100_80GB__30__120", "datacrunch__1xL40S_48GB__30__120"} {
		gpu := []string{"h100-sxm", "a100-80gb", "l40s"}[i]
		cat.Instances = append(cat.Instances, model.Instance{Provider: "primeintellect", Type: typ, GPU: gpu, GPUCount: 1, VCPUs: 16,
			MemoryGiB: 120, Source: "test fixture", AsOf: "2026-11-30", Prices: []model.RegionPrice{{Region: "FI", OnDemandUSD: 0.97}}})
	}
	cat.Index()
	cfg := qloraConfig(nil, model.OnDemand, 1)
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		m := start(t, newTestApp(t, cat, Options{Config: cfg}), size(sz[0], sz[1]), ctrlO)
		checkFits(t, screenText(m), sz[0], sz[1])
		cols, rows := m.offers.table.Columns(), m.offers.table.Rows()
		if cols[1].Width < min(10, len("primeintellect")) || cols[2].Width < 16 {
			t.Errorf("%dx%d: provider %d and instance %d cells wide, want ≥ 10 and ≥ 16:\n%s", sz[0], sz[1], cols[1].Width, cols[2].Width, screenText(m))
		}
		whole := map[string]bool{}
		for _, in := range cat.Instances {
			whole[in.Provider], whole[in.Type] = true, true
		}
		seen := map[string]bool{}
		for _, r := range rows {
			for _, c := range r[1:3] {
				if !whole[c] && !strings.Contains(c, "…") {
					t.Errorf("%dx%d: %q is cut with no ellipsis", sz[0], sz[1], c)
				}
				if ansi.StringWidth(c) > cols[2].Width {
					t.Errorf("%dx%d: %q wider than its column", sz[0], sz[1], c)
				}
			}
			key := strings.Join(r[1:5], "|")
			if seen[key] {
				t.Errorf("%dx%d: two rows read %s", sz[0], sz[1], key)
			}
			seen[key] = true
		}
		if n := strings.Count(screenText(m), "prim"); n != 3 {
			t.Errorf("%dx%d: %d rows of primeintellect, want 3:\n%s", sz[0], sz[1], n, screenText(m))
		}
	}
}

// The panel's table at 120×40 (#31): in Chinese it kept the headroom
// column (余量) and cut every instance type to 10 cells ("gpu_1…sxm4");
// the names now keep at least 12 cells while a figure can go instead.
func TestPanelNamesBeforeHeadroom(t *testing.T) {
	for _, opts := range []Options{{}, zhOptions()} {
		m := start(t, newTestApp(t, testCatalog(t), opts), size(120, 40))
		text := screenText(m)
		rows := 0
		for _, l := range strings.Split(text, "\n") {
			_, after, ok := strings.Cut(l, "│ lambda ")
			if !ok {
				continue
			}
			rows++
			typ := strings.Fields(after)[0]
			if w := ansi.StringWidth(typ); w < 12 && strings.Contains(typ, "…") {
				t.Errorf("%v: the panel cuts an instance type to %d cells: %q\n%s", opts.Lang, w, typ, text)
			}
		}
		if rows == 0 {
			t.Fatalf("%v: no lambda row in the panel:\n%s", opts.Lang, text)
		}
	}
}

// The serving panel's table (#31): at 120×40 it kept the split column
// (TP×PP×replicas, which the "best" line above states) and cut the names
// to 12 cells, "primei…llect  datacr…__1450"; the split goes first now.
func TestServingPanelNamesBeforeSplit(t *testing.T) {
	headers := []string{"provider", "instance", "GPUs", "split", "TPOT ms", "$/Mtok"}
	rows := [][]string{
		{"primeintellect", "datacrunch__8xH200_141GB__176__1450", "8×h200", "TP8×PP1×1", "9.6", "$1.33"},
		{"primeintellect", "datacrunch__8xH100_80GB__176__1480", "8×h100-sxm", "TP8×PP1×1", "10.7", "$1.46"},
		{"hyperstack", "n3-H100x8-NVLink", "8×h100-sxm", "TP8×PP1×1", "10.7", "$1.44"},
	}
	out := plainRows(headers, rows, 67, 3, 3, nil)
	for _, l := range strings.Split(out, "\n") {
		if ansi.StringWidth(l) > 67 {
			t.Errorf("wider than 67 cells: %q", l)
		}
		f := strings.Fields(l)
		if f[0] == "provider" {
			// The instance column keeps 16 cells (primeintellect's 14, two
			// of padding, then 16 and two): its names may use fewer, cut
			// at whole parts (distinctCut: "…8xH200_141GB…").
			if at := ansi.StringWidth(l[:strings.Index(l, "GPUs")]); at < 14+2+16+2 {
				t.Errorf("names cut below 16 cells while the split is shown:\n%s", out)
			}
			continue
		}
		if f[0] != "primeintellect" && f[0] != "hyperstack" {
			t.Errorf("provider cut:\n%s", out)
			break
		}
	}
}
