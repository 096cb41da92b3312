package tui

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/market"
)

// TestBrowseEnterAcceptsFilter: enter on the filter line accepts it and
// gives the list the focus, picking nothing; a second enter picks the row
// under the cursor. One enter used to pick the top row at once and
// narrow the whole request (walk: "H100:8 regions=europe" enter pinned
// primeintellect), where k9s (/ then enter) and Charm's list filter only
// accept the filter.
func TestBrowseEnterAcceptsFilter(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), ctrlB)
	before := m.a.key()
	help := func(m app) string { s := strings.Split(screenText(m), "\n"); return s[len(s)-1] }
	if h := help(m); !strings.Contains(h, "enter accept filter") || strings.Contains(h, "pick GPU") {
		t.Errorf("on the line, help %q: want enter to accept the filter, not pick", h)
	}

	m = drive(t, m, msgs(typed("a100-80gb:8"), enter)...)
	if m.screen != screenBrowse || m.a.key() != before || len(m.a.GPUKeys) != 0 {
		t.Fatalf("one enter: screen %v, GPU limit %v, answers changed %v; want the browser, nothing picked",
			m.screen, m.a.GPUKeys, m.a.key() != before)
	}
	if !m.browse.listing || m.browse.input.Focused() {
		t.Errorf("one enter: listing %v, line focused %v; want the list focused", m.browse.listing, m.browse.input.Focused())
	}
	if h := help(m); !strings.Contains(h, "enter pick GPU") || !strings.Contains(h, "/ edit filter") {
		t.Errorf("on the list, help %q: want enter pick GPU and / edit filter", h)
	}

	// / goes back to the line without typing itself; typing on the list
	// edits the line too.
	edited := drive(t, m, runes("/"))
	if edited.browse.listing || edited.browse.input.Value() != "a100-80gb:8" {
		t.Errorf("/ on the list: listing %v, line %q; want the line focused, unchanged", edited.browse.listing, edited.browse.input.Value())
	}
	edited = drive(t, m, msgs(typed(" pricing=spot"))...)
	if edited.browse.listing || edited.browse.input.Value() != "a100-80gb:8 pricing=spot" {
		t.Errorf("typing on the list: listing %v, line %q; want the line focused, the text added", edited.browse.listing, edited.browse.input.Value())
	}
	if edited = drive(t, edited, enter); edited.screen != screenBrowse || len(edited.a.GPUKeys) != 0 {
		t.Errorf("enter after editing: screen %v, GPU limit %v; want it to accept the line again", edited.screen, edited.a.GPUKeys)
	}
	pasted, _ := m.Update(tea.PasteMsg{Content: " --nvlink"})
	if p := pasted.(app); p.browse.listing || p.browse.input.Value() != "a100-80gb:8 --nvlink" {
		t.Errorf("a paste on the list: listing %v, line %q; want it in the line", p.browse.listing, p.browse.input.Value())
	}

	m = drive(t, m, enter)
	if m.screen != screenWizard || len(m.a.GPUKeys) != 1 || m.a.GPUKeys[0] != "a100-80gb" {
		t.Errorf("the second enter: screen %v, GPU limit %v; want the questions, a100-80gb", m.screen, m.a.GPUKeys)
	}
	// The browser opens on the line again.
	if m = drive(t, m, ctrlB); m.browse.listing || !m.browse.input.Focused() {
		t.Errorf("ctrl+b again: listing %v; want the line focused", m.browse.listing)
	}
}

// TestBrowseClearRestores: ctrl+x puts back the providers and regions
// answered before the pick (a second pick does not lose them), keeps a
// choice made after it, and the Where page says what is chosen and by
// what, where its long list hides the ✓.
func TestBrowseClearRestores(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	m.a.Providers, m.a.Regions = []string{"aws", "lambda"}, []string{"us-east-1"}
	dist, gpus, pricing := m.a.Distribution, m.a.GPUs, m.a.Pricing
	m = drive(t, m, msgs(ctrlB, typed("a100-40gb"), enter, enter)...)
	m = drive(t, m, msgs(ctrlB, clearLine, typed("a100-80gb:8"), enter, enter)...) // a second pick
	if !slices.Equal(m.a.Providers, []string{"aws"}) {
		t.Fatalf("the second pick: providers %v, want [aws]", m.a.Providers)
	}
	where := m.wiz.chosen(m.a.Providers, nil, "none")
	if where != "chosen: aws (market pick)" {
		t.Errorf("the Where page's providers say %q; want what the pick chose", where)
	}
	cleared := drive(t, m, ctrlB, ctrl('x'))
	if !slices.Equal(cleared.a.Providers, []string{"aws", "lambda"}) || !slices.Equal(cleared.a.Regions, []string{"us-east-1"}) || len(cleared.a.GPUKeys) != 0 {
		t.Errorf("ctrl+x: providers %v, regions %v, GPUs %v; want the answers before the first pick", cleared.a.Providers, cleared.a.Regions, cleared.a.GPUKeys)
	}
	// The GPU count and pricing too (a verification walk: after ctrl+x the
	// job stayed on the 8 GPUs of an 8-GPU pick).
	if cleared.a.Distribution != dist || cleared.a.GPUs != gpus || cleared.a.Pricing != pricing {
		t.Errorf("ctrl+x after a pick (%s GPUs): distribution %q, GPUs %q, pricing %q; want %q, %q, %q as before the pick",
			m.a.GPUs, cleared.a.Distribution, cleared.a.GPUs, cleared.a.Pricing, dist, gpus, pricing)
	}
	if s := screenText(cleared); !strings.Contains(s, "pick cleared: offers of every GPU on aws, lambda in us-east-1") {
		t.Errorf("ctrl+x: the footer does not say where the offers come from now:\n%s", s)
	}
	if where := cleared.wiz.chosen(cleared.a.Providers, nil, "none"); where != "chosen: aws, lambda" {
		t.Errorf("after ctrl+x the Where page says %q; want the providers, no pick", where)
	}

	// Regions chosen after the pick are the user's: they stay.
	m.a.Regions = []string{"us-west-2"}
	kept := drive(t, m, ctrlB, ctrl('x'))
	if !slices.Equal(kept.a.Regions, []string{"us-west-2"}) || !slices.Equal(kept.a.Providers, []string{"aws", "lambda"}) {
		t.Errorf("ctrl+x after regions were changed: regions %v, providers %v; want [us-west-2] kept, the providers back", kept.a.Regions, kept.a.Providers)
	}
}

// TestClearPickRestoresGPUCount: a pick of an 8-GPU spot row sets one
// node of 8 GPUs on spot; clearing it puts back the GPU count and pricing
// answered before (a verification walk: after ctrl+x the job stayed on
// the pick's 8 GPUs and its strategy moved from DDP to FSDP), unless they
// were changed since the pick.
func TestClearPickRestoresGPUCount(t *testing.T) {
	g := &model.GPU{Key: "h100-sxm"}
	row := &market.Row{GPU: g, Instance: &model.Instance{Provider: "p", Type: "p.8", GPUCount: 8}, Regions: []string{"r"}, Pricing: model.Spot}
	a := answers{Distribution: distSingle, GPUs: "1", Pricing: model.OnDemand}
	a.limitTo(row)
	if a.Distribution != distNode || a.GPUs != "8" || a.Pricing != model.Spot {
		t.Fatalf("the pick: %s, %s GPUs, %s; want one node of 8 on spot", a.Distribution, a.GPUs, a.Pricing)
	}
	a.clearPick()
	if a.Distribution != distSingle || a.GPUs != "1" || a.Pricing != model.OnDemand {
		t.Errorf("cleared: %s, %s GPUs, %s; want single, 1, on-demand as before the pick", a.Distribution, a.GPUs, a.Pricing)
	}
	a = answers{Distribution: distSingle, GPUs: "1", Pricing: model.OnDemand}
	a.limitTo(row)
	a.GPUs = "4" // the user's own answer since the pick
	a.clearPick()
	if a.GPUs != "4" || a.Pricing != model.OnDemand {
		t.Errorf("cleared after the GPUs were answered again: %s GPUs, %s; want 4 kept, on-demand back", a.GPUs, a.Pricing)
	}
}
