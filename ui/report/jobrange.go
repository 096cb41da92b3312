package report

import (
	"fmt"
	"strconv"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// JobRangeIn is the 90% range of an offer's job time and cost
// (model.Offer.JobBand): "90% range 6.8 h – 49 h, $1.97–$14.10"; "" without
// a job time. The cost carries the time's range: one figure beside a time
// that may be ×0.5–×3.4 read as a promise (new-user trial).
// p is the language (nil: English).
func JobRangeIn(p *i18n.Printer, o *model.Offer) string {
	h, usd, ok := o.JobBand()
	if !ok {
		return ""
	}
	return p.Sprintf("%.0f%% range %s – %s, %s–%s", BandConfidence*100, HoursIn(p, h[0]), HoursIn(p, h[1]), USD(usd[0]), USD(usd[1]))
}

// JobRangeNoteIn says, under an offers table, that its job time and job
// cost columns are point estimates and how far each may be: "job time
// and job cost are estimates: 90% range ×0.48–×3.4 of each figure",
// "×0.48–×3.4 to ×0.77–×1.3 of each figure, by offer" when the shown
// offers fall in calibration groups with different bands (one GPU, DDP,
// FSDP over a network). A reserved term's cost never falls below the
// term's bill. "" when no shown offer has a job time.
func JobRangeNoteIn(p *i18n.Printer, offers []model.Offer) string {
	return jobRangeNote(p, offers, false)
}

// JobRangeNoteShort is JobRangeNoteIn for the configurator's panel, in
// one short line: "job time and cost: 90% range ×0.48–×3.4"; where the
// shown offers' bands differ, their envelope: "…×0.42–×3.7, by offer".
func JobRangeNoteShort(p *i18n.Printer, offers []model.Offer) string {
	return jobRangeNote(p, offers, true)
}

func jobRangeNote(p *i18n.Printer, offers []model.Offer, short bool) string {
	type span struct{ lo, hi float64 } // as printed: two significant digits
	var seen []span
	for i := range offers {
		o := &offers[i]
		h, _, ok := o.JobBand()
		if !ok || o.JobHours <= 0 {
			continue
		}
		s := span{sig2(h[0] / o.JobHours), sig2(h[1] / o.JobHours)}
		found := false
		for _, x := range seen {
			found = found || x == s
		}
		if !found {
			seen = append(seen, s)
		}
	}
	switch len(seen) {
	case 0:
		return ""
	case 1:
		if short {
			return p.Sprintf("job time and cost: %.0f%% range %s–%s", BandConfidence*100, mult(seen[0].lo), mult(seen[0].hi))
		}
		return p.Sprintf("job time and job cost are estimates: %.0f%% range %s–%s of each figure (out-of-sample errors of the time estimate)",
			BandConfidence*100, mult(seen[0].lo), mult(seen[0].hi))
	}
	lo, hi := seen[0], seen[0]
	for _, s := range seen[1:] { // the narrowest and the widest span, by their slow end
		if s.hi < lo.hi {
			lo = s
		}
		if s.hi > hi.hi {
			hi = s
		}
	}
	if short { // the envelope: "×0.48–×3.4 to ×0.42–×3.7" read as one range of ranges (new-user trial)
		env := seen[0]
		for _, s := range seen[1:] {
			env.lo, env.hi = min(env.lo, s.lo), max(env.hi, s.hi)
		}
		return p.Sprintf("job time and cost: %.0f%% range %s–%s, by offer", BandConfidence*100, mult(env.lo), mult(env.hi))
	}
	return p.Sprintf("job time and job cost are estimates: %.0f%% range from %s–%s to %s–%s of each figure, by offer (out-of-sample errors of the time estimate)",
		BandConfidence*100, mult(lo.lo), mult(lo.hi), mult(hi.lo), mult(hi.hi))
}

// mult is a band multiplier as the notes print it: "×0.48", "×3.4".
func mult(x float64) string { return fmt.Sprintf("×%.2g", x) }

// sig2 rounds x to the two significant digits mult prints.
func sig2(x float64) float64 {
	v, _ := strconv.ParseFloat(fmt.Sprintf("%.2g", x), 64)
	return v
}

// UncalibratedTableNote is, under an offers table, the note that a shown
// offer's time is on a GPU of a vendor no calibration source ran on
// (model.Estimate.UncalibratedNote: AMD's), its range widened; "" when
// none is.
func UncalibratedTableNote(p *i18n.Printer, offers []model.Offer) string {
	for i := range offers {
		if e := offers[i].Estimate; e != nil {
			if m, ok := e.UncalibratedNote(); ok {
				return p.Message(m)
			}
		}
	}
	return ""
}
