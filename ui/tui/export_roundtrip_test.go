package tui

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// New-user walk (ux33): ctrl+e right after picking an offer in the market
// browser (ctrl+b) wrote the new answers' [workload] (gpus = 1) with the
// [selection] of the result still on screen (8×H100), or the reverse; the
// file reopened to another job than the one shown. The export now waits
// for the estimate of the answers, and the file reloads to the same
// answers and the same offer: here the pick's recompute is held back
// while ctrl+e is pressed, as a slow estimate holds it.
func TestExportAfterPickRoundTrips(t *testing.T) {
	cat := testCatalog(t)
	for _, tt := range []struct {
		name  string
		first string // picked and estimated before; "" for none
		pick  string // the browser's filter line, its first row picked
		gpus  int    // the offer's GPUs, and the workload's
	}{
		{"1 to 8 GPUs", "", "H100:8", 8},
		{"8 to 1 GPU", "H100:8", "L4", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := start(t, newTestApp(t, cat, Options{}), size(120, 40))
			if tt.first != "" {
				m = drive(t, m, msgs(ctrl('b'), typed(tt.first), enter, enter)...)
			}
			shown := m.res.best()
			if shown == nil || shown.GPUs == tt.gpus {
				t.Fatalf("the offer before the pick has %v GPUs: the test needs another count", shown)
			}
			m = drive(t, m, msgs(ctrl('b'), replace(tt.pick))...)
			row := m.browse.selected()
			if row == nil {
				t.Fatalf("the browser lists no %s:\n%s", tt.pick, screenText(m))
			}
			m = drive(t, m, enter) // accepts the line
			m.async = true
			next, pick := m.Update(enter) // the pick: its estimate is a command, not run yet
			m = next.(app)
			next, _ = m.Update(ctrlE)
			m = next.(app)
			if m.dialog != nil {
				t.Fatalf("ctrl+e opened the export on the offers of the answers before the pick:\n%s", screenText(m))
			}
			if !strings.Contains(screenText(m), "the export opens when the offers are in") {
				t.Errorf("the footer does not say the export waits:\n%s", screenText(m))
			}
			m = step(t, m, pick).(app) // the estimate comes in: the export opens on it
			if m.dialog == nil {
				t.Fatalf("the estimate came in and no export opened:\n%s", screenText(m))
			}
			if strings.Contains(screenText(m), "the export opens when") {
				t.Errorf("the wait's note stays under the dialog:\n%s", screenText(m))
			}
			path := filepath.Join(t.TempDir(), "pick.toml")
			m = drive(t, m, msgs(enter, replace(path), enter)...)
			c := roundTrip(t, cat, m, path)
			if c.Selection.GPUs != tt.gpus || c.Selection.InstanceType != row.Instance.Type || c.Workload.GPUs != tt.gpus {
				t.Errorf("wrote workload gpus %d, selection %d× %s; want %d× %s", c.Workload.GPUs, c.Selection.GPUs, c.Selection.InstanceType, tt.gpus, row.Instance.Type)
			}
		})
	}
}

// Any key but ctrl+e drops the wait: no dialog opens later over what the
// user went on to do.
func TestExportWaitDroppedByAKey(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	m = drive(t, m, msgs(ctrl('b'), typed("H100:8"), enter)...) // the line accepted
	m.async = true
	next, pick := m.Update(enter)
	m = next.(app)
	next, _ = m.Update(ctrlE)
	m = next.(app)
	next, _ = m.Update(runes("?"))
	m = next.(app)
	m = step(t, m, pick).(app)
	if m.dialog != nil {
		t.Fatalf("the export opened after another key:\n%s", screenText(m))
	}
	if strings.Contains(screenText(m), "the export opens when") {
		t.Errorf("the wait's note stays:\n%s", screenText(m))
	}
}

// The offer exported from the offers list and from an offer's details
// (not the best one) reloads too: the same answers, the offer among the
// reloaded ranking with the figures written.
func TestExportPickedOfferRoundTrips(t *testing.T) {
	cat := testCatalog(t)
	for _, tt := range []struct {
		name string
		keys []tea.Msg
	}{
		{"best", nil},
		{"offers list", msgs(ctrlO, down)},
		{"details", msgs(ctrlO, down, enter)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := start(t, newTestApp(t, cat, Options{}), append([]tea.Msg{size(120, 40)}, tt.keys...)...)
			path := filepath.Join(t.TempDir(), "x.toml")
			m = drive(t, m, msgs(ctrlE, enter, replace(path), enter)...)
			roundTrip(t, cat, m, path)
		})
	}
}

// roundTrip reads the file m exported to path and opens it as --config
// does: the answers are m's, the workload's GPUs are the selection's,
// and the reloaded ranking has the selected offer with the figures the
// file wrote. It returns the file's configuration.
func roundTrip(t *testing.T, cat *model.Catalog, m app, path string) config.Config {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no export (%v):\n%s", err, screenText(m))
	}
	c, err := config.Decode(b)
	if err != nil {
		t.Fatalf("the export does not load: %v\n%s", err, b)
	}
	s := c.Selection
	if s == nil {
		t.Fatalf("no [selection]:\n%s", b)
	}
	if !c.Workload.AutoGPUs && c.Workload.GPUs != 0 && c.Workload.GPUs != s.GPUs {
		t.Errorf("[workload] gpus = %d, [selection] gpus = %d:\n%s", c.Workload.GPUs, s.GPUs, b)
	}
	r := newTestApp(t, cat, Options{Config: &c, ConfigPath: path})
	// The answers as they ask (a.config): a question the answers hide
	// (the GPU count of a single GPU) may reload with its default.
	got, err1 := r.a.config()
	want, err2 := m.a.config()
	if err1 != nil || err2 != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("reloaded answers differ (%v, %v):\n got %+v\nwant %+v", err1, err2, got, want)
	}
	var found *model.Offer
	for i := range r.res.rec.Offers {
		o := &r.res.rec.Offers[i]
		if o.Instance.Provider == s.Provider && o.Instance.Type == s.InstanceType && o.Region == s.Region &&
			o.Pricing == s.Pricing && o.GPUs == s.GPUs && o.Instances == s.Instances {
			found = o
			break
		}
	}
	if found == nil {
		t.Fatalf("the reloaded answers do not rank the selected %s %s (%d GPUs):\n%s", s.Provider, s.InstanceType, s.GPUs, b)
	}
	if again := config.NewSelection(found, cat.AsOf); *again != *s {
		t.Errorf("reloaded offer:\n got %+v\nwant %+v", *again, *s)
	}
	return c
}

// An offer's details shown before the result changed export the offer as
// the current result has it; one the result no longer ranks is not
// exported with answers it was not estimated for.
func TestExportDetailOfferFromCurrentResult(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), ctrlO, down, enter)
	if m.screen != screenDetail || m.detail.offer == nil {
		t.Fatal("no offer's details")
	}
	gone := *m.detail.offer
	gone.Region = "gone-1"
	m.detail.offer = &gone
	m = drive(t, m, ctrlE)
	if m.dialog != nil {
		t.Fatal("an offer the result does not rank was exported")
	}
	if !strings.Contains(screenText(m), "the offers changed since this one was shown") {
		t.Errorf("the footer does not say why:\n%s", screenText(m))
	}
}
