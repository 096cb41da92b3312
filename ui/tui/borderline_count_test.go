package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// TestFitCountBorderline: the panel's count keeps borderline offers
// apart, in recommend's words for them ("~ borderline (N offers)"): a
// count of every offer ranked read "13 fit" over thirteen offers at ~1%
// headroom, about 15% chance of running out of memory.
func TestFitCountBorderline(t *testing.T) {
	fits, border := model.Offer{Verdict: model.VerdictFits}, model.Offer{Verdict: model.VerdictBorderline}
	for _, tt := range []struct {
		name          string
		offers        []model.Offer
		words, counts string
	}{
		{"all fit", []model.Offer{fits, fits}, "2 fit", "2 offers fit"},
		{"one fits", []model.Offer{fits}, "1 fit", "1 offer fits"},
		{"none fits, 13 borderline", []model.Offer{border, border, border, border, border, border, border, border, border, border, border, border, border},
			"0 fit · ~ borderline (13 offers)", "0 offers fit · ~ borderline (13 offers)"},
		{"one of each", []model.Offer{fits, border}, "1 fit · ~ borderline (1 offer)", "1 offer fits · ~ borderline (1 offer)"},
	} {
		if got := fitWords(nil, tt.offers); got != tt.words {
			t.Errorf("%s: fitWords = %q, want %q", tt.name, got, tt.words)
		}
		if got := fitCount(nil, tt.offers); got != tt.counts {
			t.Errorf("%s: fitCount = %q, want %q", tt.name, got, tt.counts)
		}
	}
}

// TestExportBorderlineSays: exporting a borderline offer says so in the
// dialog before the file is written and in the status line after.
func TestExportBorderlineSays(t *testing.T) {
	m := start(t, newTestApp(t, borderlineCatalog(t), Options{}), size(120, 40), ctrlO)
	i := -1
	for k := range m.offers.shown {
		if o := m.offers.selected(); o != nil && o.Verdict == model.VerdictBorderline {
			i = k
			break
		}
		m = drive(t, m, down)
	}
	if i < 0 {
		t.Fatal("no borderline offer in the offers list")
	}
	m = drive(t, m, ctrlE)
	if m.dialog == nil || !strings.Contains(screenText(m), "~ borderline: about 10% chance of running out of memory") {
		t.Fatalf("the export dialog does not say the offer is borderline:\n%s", screenText(m))
	}
	path := filepath.Join(t.TempDir(), "b.toml")
	m = drive(t, m, msgs(enter, replace(path), enter)...)
	if s := screenText(m); !strings.Contains(s, "exported to") || !strings.Contains(s, "~ borderline: about 10% chance of running out of memory") {
		t.Errorf("after the export the status line does not say the offer is borderline:\n%s", s)
	}
}

// TestPanelCountLineWhole: training Llama 3.1 8B from scratch on the
// embedded catalog leaves only borderline offers on one GPU; the panel's
// count says so, and a part that does not fit beside it goes whole
// (walk: "Offers: 13 fit", then "… 7 rows, +6 in other reg…").
func TestPanelCountLineWhole(t *testing.T) {
	var c config.Config
	c.Workload.Model, c.Workload.Task, c.Workload.GPUs = "llama-3.1-8b", model.TaskTrain, 1
	m := start(t, newTestApp(t, embeddedCatalog(t), Options{Config: &c}), size(120, 40))
	var line string
	for _, l := range strings.Split(screenText(m), "\n") {
		if strings.Contains(l, "Offers: ") {
			line = l
		}
	}
	if !strings.Contains(line, "Offers: 0 fit · ~ borderline (") {
		t.Errorf("count line %q: want 0 fit and the borderline offers apart", line)
	}
	if strings.Contains(line, "…") {
		t.Errorf("count line %q: a part is cut mid-word", line)
	}
}
