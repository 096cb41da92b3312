package tui

import (
	"strconv"
	"strings"
	"testing"

	"charm.land/bubbles/v2/table"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/report"
)

// TestJobHoursAddUp: the detail's "time × price = cost" line shows the
// hours with the fewest decimals that make the product the cost shown.
func TestJobHoursAddUp(t *testing.T) {
	for _, tc := range []struct {
		hours, perHour, jobUSD float64
		want, sign             string
	}{
		{1.004, 6.99, 1.004 * 6.99, "1.004 h", "="}, // 1.0 h × $6.99 would be $6.99, not $7.02
		{2.5, 2, 5, "2.5 h", "="},
		{2.285, 2.95, 2.285 * 2.95, "2.285 h", "="}, // 2.3 h × $2.95 = $6.79, not $6.74
		{3.26, 10, 32.6, "3.26 h", "="},
		{2.0, 3.36312, 2.0 * 3.36312, "2.0 h", "≈"}, // $6.73 is not 2.0 × $3.36 shown
		{2.3, 2.29, 100, "2.3 h", "≈"},              // billed otherwise (a term's minimum)
		{0.43, 1.29, 0.43 * 1.29, "26 min", "≈"},
		{72, 1, 72, "3.0 days", "≈"},
	} {
		o := &model.Offer{JobHours: tc.hours, USDPerHour: tc.perHour, JobUSD: tc.jobUSD}
		if got, sign := jobHoursIn(nil, o); got != tc.want || sign != tc.sign {
			t.Errorf("%g h at $%g/h = $%g: %q %s, want %q %s", tc.hours, tc.perHour, tc.jobUSD, got, sign, tc.want, tc.sign)
		}
	}
}

// TestProviderFilterStartsAtTop: p shows another provider's offers with
// the cursor on its first (best) row, not on the old row number.
func TestProviderFilterStartsAtTop(t *testing.T) {
	st := report.NewStyles(&report.Renderer{Dark: true})
	v := newOffersView(&st, table.DefaultKeyMap())
	v.width, v.height = 120, 30
	var offers []model.Offer
	g := &model.GPU{Key: "g", Name: "G"}
	for _, p := range []string{"aws", "aws", "aws", "aws", "gcp", "gcp"} {
		in := &model.Instance{Provider: p, Type: p + "-" + strconv.Itoa(len(offers)), GPU: "g", GPUCount: 1}
		offers = append(offers, model.Offer{Instance: in, GPU: g, Region: "r" + strconv.Itoa(len(offers)), GPUs: 1, USDPerHour: float64(len(offers) + 1)})
	}
	v.setResult(&result{rec: model.Recommendation{Offers: offers}})
	v.table.MoveDown(3) // the last aws row
	v.cycleProvider()   // aws only
	v.cycleProvider()   // gcp only: two rows
	if got := v.table.Cursor(); got != 0 {
		t.Fatalf("cursor on row %d after switching provider, want 0 (the provider's best offer)", got)
	}
}

// TestOffersRiskyAheadNote (new-user walk, S4): when a cheaper offer
// ranks after the ones that fit for its chance of running out of memory,
// the offers table and the panel's notes say so in a line of their own,
// after the "~ job time" one; none when no such offer. At most half the
// best's price it is worth trying first (model.TryFirstShare): the line
// says so in recommend's words, first among the panel's notes.
func TestOffersRiskyAheadNote(t *testing.T) {
	g := &model.GPU{Key: "h100-sxm", Name: "H100", MemoryGiB: 80}
	in := func(typ string, n int) *model.Instance {
		return &model.Instance{Provider: "shadeform", Type: typ, GPU: "h100-sxm", GPUCount: n}
	}
	fits := model.Offer{Instance: in("h100x4", 4), GPU: g, Region: "us", Instances: 1, GPUs: 4, Verdict: model.VerdictFits, USDPerHour: 12.36,
		LateChance: 0.44, DeadlineHours: 30, HasJob: true, JobHours: 28.6, JobUSD: 353}
	risky := model.Offer{Instance: in("massedcompute_H100x2", 2), GPU: g, Region: "desmoines", Instances: 1, GPUs: 2,
		Verdict: model.VerdictBorderline, OOMChance: 0.15, USDPerHour: 7.46}
	const late = "~ job time (1 offer): about 45% chance of missing the 30 h deadline; no offer that fits is sure to meet it" // the first row is late
	const note = "2×h100-sxm at $7.46/h: about 15% chance of running out of memory; ranked after the offers that fit"
	rec := model.Recommendation{Offers: []model.Offer{fits, risky}, Sort: model.SortPrice}
	st := report.NewStyles(&report.Renderer{Dark: true})
	v := newOffersView(&st, table.DefaultKeyMap())
	v.width, v.height = 140, 30
	v.setResult(&result{rec: rec})
	if v.note != late+"\n"+note {
		t.Errorf("offers table note\n got %q\nwant %q", v.note, late+"\n"+note)
	}
	if got := panelNotes(nil, &rec, rec.Offers[:1], false, true); len(got) != 2 || got[0] != late || got[1] != note {
		t.Errorf("panel notes %q, want %q then %q", got, late, note)
	}
	// At $5.46/h, 44% of the best's $12.36/h: worth trying first.
	rec.Offers[1].USDPerHour = 5.46
	const try = "try first: 2×h100-sxm at $5.46/h (56% less): about 15% chance of running out of memory, shown in its first steps"
	v.setResult(&result{rec: rec})
	if v.note != late+"\n"+try {
		t.Errorf("offers table note at $5.46/h\n got %q\nwant %q", v.note, late+"\n"+try)
	}
	if got := panelNotes(nil, &rec, rec.Offers[:1], false, true); len(got) != 2 || got[0] != try || got[1] != late {
		t.Errorf("panel notes %q, want %q then %q", got, try, late)
	}
	if got := panelNotes(nil, &rec, rec.Offers[:1], false, false); len(got) != 2 || got[1] != strings.Replace(note, "7.46", "5.46", 1) {
		t.Errorf("compact panel notes %q, want the short risky note second", got)
	}
	rec.Offers = rec.Offers[:1]
	v.setResult(&result{rec: rec})
	if v.note != late {
		t.Errorf("without a risky offer, note %q, want %q", v.note, late)
	}
}
