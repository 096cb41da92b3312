package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// FitHint is one change, applied alone, that makes a workload no offer
// runs rank offers: a memory change (advice.FitAdvice) or a search limit
// dropped, with the ranking it gives.
type FitHint struct {
	Change model.Message // "turn on activation checkpointing (…)", "without --deadline-hours"
	Offers int           // offers ranked with the change
	Best   model.Offer   // the first of them
}

// WouldFitJSON is a FitHint in recommend --json ("would_fit").
type WouldFitJSON struct {
	Change string    `json:"change"`
	Offers int       `json:"offers"`
	Best   OfferJSON `json:"best"`
}

// NewWouldFitJSON lays out hints for JSON, nil for none.
func NewWouldFitJSON(hints []FitHint) []WouldFitJSON {
	var out []WouldFitJSON
	for i := range hints {
		out = append(out, WouldFitJSON{Change: hints[i].Change.String(), Offers: hints[i].Offers, Best: NewOfferJSON(&hints[i].Best)})
	}
	return out
}

// WriteWouldFit prints, under a ranking with no offer, what would make the
// workload fit, as estimate --gpu does for one GPU: each change alone, the
// offers it ranks and the best of them ("turn on activation
// checkpointing: 72 offers, best nebius gpu-b200-… 8×b200, 24.7 h,
// $1,086 for the job"). Nothing when hints is empty.
func WriteWouldFit(out io.Writer, r *Renderer, hints []FitHint) error {
	if len(hints) == 0 {
		return nil
	}
	st, p := NewStyles(r), r.Lang
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s\n", st.Heading.Render(p.T("What would make it fit (each change alone)")))
	for i := range hints {
		h := &hints[i]
		fmt.Fprintf(&b, "  %s %s\n", st.Good.Render("→"), p.Sprintf("%s: %s, best %s", p.Message(h.Change), Count(p, h.Offers, "offer"), fitHintOffer(p, &h.Best)))
	}
	_, err := io.WriteString(r.Writer(out), b.String())
	return err
}

// fitHintOffer names an offer and what it costs: the job when timed, else
// the hour.
func fitHintOffer(p *i18n.Printer, o *model.Offer) string {
	s := fmt.Sprintf("%s %s %s", o.Instance.Provider, o.Instance.Type, OfferGPUsIn(p, o))
	if o.HasJob {
		return s + p.Sprintf(", %s, %s for the job", HoursIn(p, o.JobHours), USD(o.JobUSD))
	}
	return s + p.Sprintf(", %s per hour", USD(o.USDPerHour))
}
