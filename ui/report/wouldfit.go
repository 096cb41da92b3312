package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/advice"
	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// FitHint is one change, applied alone, that makes a workload no offer
// runs rank offers: a memory change (advice.FitAdviceOn) or a search limit
// dropped, with the ranking it gives.
type FitHint struct {
	Change model.Message // "turn on activation checkpointing (…)", "without --deadline-hours"
	Offers int           // offers ranked with the change
	Best   model.Offer   // the first of them
	AsOf   string        // the catalog's date (model.Recommendation.AsOf)
	// Spot is set for the change to spot pricing when Best's job time
	// and cost are expected with interruptions (spotShownOffer), as
	// recommend --pricing spot shows them.
	Spot bool
	// Caveat is said under the hint: for spot, the warning recommend
	// --pricing spot prints under its best (model.SpotWarning, or
	// model.SpotRestartWarning when the job takes no checkpoint).
	Caveat model.Message
}

// WouldFitJSON is a FitHint in recommend --json ("would_fit").
type WouldFitJSON struct {
	Change string    `json:"change"`
	Offers int       `json:"offers"`
	Best   OfferJSON `json:"best"`
	Caveat string    `json:"caveat,omitempty"`
}

// NewWouldFitJSON lays out hints for JSON, nil for none.
func NewWouldFitJSON(hints []FitHint) []WouldFitJSON {
	var out []WouldFitJSON
	for i := range hints {
		out = append(out, WouldFitJSON{Change: hints[i].Change.String(), Offers: hints[i].Offers, Best: NewOfferJSON(&hints[i].Best, hints[i].AsOf),
			Caveat: hints[i].Caveat.String()})
	}
	return out
}

// FitHintLine is one hint as WriteWouldFit words it, without its arrow
// and caveat: the configurator's panel shows the same lines.
func FitHintLine(p *i18n.Printer, h *FitHint) string {
	if h.Spot && h.Best.HasJob {
		o := &h.Best
		best := fmt.Sprintf("%s %s %s", o.Instance.Provider, o.Instance.Type, OfferGPUsIn(p, o)) +
			p.Sprintf(", expected %s and %s for the job with interruptions", HoursIn(p, o.JobHours), USD(o.JobUSD))
		return p.Sprintf("%s: %s, best %s", p.Message(h.Change), Count(p, h.Offers, "offer"), best)
	}
	return p.Sprintf("%s: %s, best %s", p.Message(h.Change), Count(p, h.Offers, "offer"), fitHintOffer(p, &h.Best))
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
	fmt.Fprintf(&b, "\n%s\n", st.Heading.Render(p.T("What would make it fit (each line on its own)")))
	for i := range hints {
		h := &hints[i]
		fmt.Fprintf(&b, "  %s %s\n", st.Good.Render("→"), FitHintLine(p, h))
		if !h.Caveat.IsZero() {
			fmt.Fprintf(&b, "    %s %s\n", st.Warn.Render("!"), p.Message(h.Caveat))
		}
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
	return s + p.Sprintf(", %s per hour", USDHour(o.USDPerHour))
}

// maxFitHints is how many changes "What would make it fit" lists.
const maxFitHints = 4

// WouldFit returns, when rec ranks no offer, the single changes that make
// some offer rank, best first (the cheapest job, else hour, of the ranking
// each gives), at most maxFitHints. The changes are those estimate --gpu
// advises (advice.FitAdviceOn: nothing that GPU cannot run, sharded up to
// the largest node the catalog rents it in) for the GPU of the nearest
// near miss, or the largest GPU when no near miss was short of memory
// (a Qwen3 14B fine-tune on V100s was told nothing: every change that fit
// trained in pure bf16, which a V100 cannot), dropping each
// search limit that removed offers, when a price or budget limit
// removed on-demand offers, paying spot (spotHint), and when GPU counts
// could not share the global batch, the accumulation that opens the
// cheapest of them (GlobalBatchFit). Each is ranked by
// model.Recommend as the command would with it: computed, never a canned
// answer. spot gives the spot rates and assumptions recommend --pricing
// spot prices with (its Query is ignored); nil prices spot offers at
// their list price, uninterrupted.
func WouldFit(w model.Workload, cat *model.Catalog, q model.Query, rec *model.Recommendation, spot *DecideInput) []FitHint {
	if len(rec.Offers) > 0 {
		return nil
	}
	type change struct {
		msg model.Message
		w   model.Workload
		q   model.Query
	}
	var changes []change
	if g, sized := fitTarget(cat, rec, w, q.AutoGPUs); g != nil {
		node := cat.LargestNode(g)
		for _, a := range advice.FitAdviceRanked(sized, g, model.UsableBytes(g), node) {
			v := a.Workload
			if v.GPUs == sized.GPUs && v.Strategy == sized.Strategy { // not a sharding change: the command's own GPUs
				v.GPUs, v.Strategy = w.GPUs, w.Strategy
				keepBatch(&v, w, sized)
			}
			c := change{a.Msg, v, q}
			if v.GPUs > node && !q.AllowMultiNode {
				// More GPUs than one node of them: ranked across nodes, as
				// the hint's flags then say (a walk: Qwen3 14B on T4 had no
				// hint while estimate advised ZeRO-3 over 32 GPUs).
				c.msg, c.q.AllowMultiNode = model.Msg("%v, across nodes (--allow-multi-node)", a.Msg), true
			}
			changes = append(changes, c)
		}
	}
	for _, r := range rec.Reasons {
		c := change{w: w, q: q}
		switch r.Kind {
		case model.RejectDeadline:
			c.msg, c.q.DeadlineHours = model.Msg("without --deadline-hours"), 0
		case model.RejectGPUCount:
			c.msg, c.q.AllowMultiNode = model.Msg("with --allow-multi-node"), true
		case model.RejectGPULimit:
			c.msg, c.q.MaxGPUs = model.Msg("without --max-gpus"), 0
		case model.RejectPrecision:
			c.msg, c.q.AllowPrecisionFallback = model.Msg("with --allow-precision-fallback"), true
		case model.RejectPrice:
			c.msg, c.q.MaxUSDPerHour = model.Msg("without --max-price-hour"), 0
		case model.RejectBudget:
			c.msg, c.q.BudgetMonthUSD = model.Msg("without --budget-month"), 0
		case model.RejectJobBudget:
			c.msg, c.q.BudgetJobUSD = model.Msg("without --budget-job"), 0
		default:
			continue
		}
		changes = append(changes, c)
	}
	var hints []FitHint
	if h, ok := spotHint(w, cat, q, rec, spot); ok {
		hints = append(hints, h)
	}
	if h, ok := GlobalBatchFit(w, cat, q, rec); ok {
		hints = append(hints, FitHint{Change: h.Change(), Offers: h.Offers, Best: h.Best, AsOf: h.AsOf})
	}
	for _, c := range changes {
		r, err := model.Recommend(c.w, cat, c.q)
		if err != nil || len(r.Offers) == 0 {
			continue
		}
		hints = append(hints, FitHint{Change: c.msg, Offers: len(r.Offers), Best: r.Offers[0], AsOf: r.AsOf})
	}
	slices.SortStableFunc(hints, func(a, b FitHint) int { return cmp.Compare(hintCost(&a.Best), hintCost(&b.Best)) })
	return hints[:min(len(hints), maxFitHints)]
}

// keepBatch gives v, a change to sized (w on the GPUs of its near miss)
// moved back to w's GPUs, w's batch when the change left sized's alone:
// the accumulation Defaults shares over sized's GPUs (a LoRA recipe's 16
// is 2 on 8) is another global batch on w's (2, which no 4- or 8-GPU
// offer splits), where the flags the hint names run w's.
func keepBatch(v *model.Workload, w, sized model.Workload) {
	sized.Defaults()
	if v.MicroBatch != sized.MicroBatch || v.GradAccum != sized.GradAccum || v.BatchPerGPU != sized.BatchPerGPU {
		return // the change's own batch, per GPU or global as it says
	}
	w.Defaults()
	v.MicroBatch, v.GradAccum = w.MicroBatch, w.GradAccum
}

// spotHint is the change to spot pricing of an on-demand search that a
// price or budget limit left without an offer (a 70B fine-tune over a
// $200 job budget on aws, gcp and azure: nothing on demand, spot 16 ×
// H200 at an expected $93.44): the offers recommend --pricing spot ranks
// within the limits, each at its expected job time and cost with
// interruptions when spot's rates are given (spotShownOffer, as the
// table shows them; one whose expected cost is past the job budget, or
// whose job would never finish, is left out), the cheapest of them, and
// the caveat recommend --pricing spot prints under its best. ok is
// false when the search is not on demand, no such limit removed offers,
// or no spot offer passes.
func spotHint(w model.Workload, cat *model.Catalog, q model.Query, rec *model.Recommendation, spot *DecideInput) (FitHint, bool) {
	if q.Pricing != model.OnDemand && q.Pricing != "" || !slices.ContainsFunc(rec.Reasons, func(r model.ReasonCount) bool {
		return r.Kind == model.RejectJobBudget || r.Kind == model.RejectBudget || r.Kind == model.RejectPrice
	}) {
		return FitHint{}, false
	}
	sq := q
	sq.Pricing = model.Spot
	in := DecideInput{Catalog: cat, Query: sq, HoursPerMonth: q.HoursPerMonth}
	if spot != nil {
		in.Rate, in.Spot = spot.Rate, spot.Spot
		if spot.HoursPerMonth > 0 {
			in.HoursPerMonth = spot.HoursPerMonth
		}
	}
	sq.SpotView = SpotView(in)
	r, err := model.Recommend(w, cat, sq)
	if err != nil {
		return FitHint{}, false
	}
	hpm := cmp.Or(in.HoursPerMonth, model.HoursPerMonth)
	h := FitHint{Change: model.Msg("pay spot instead of on-demand (--pricing spot)"), AsOf: r.AsOf}
	for i := range r.Offers {
		o := &r.Offers[i]
		shown, caveat := *o, model.Msg(model.SpotWarning)
		if in.Rate != nil && o.HasJob {
			rate := in.Rate(o.Instance.Provider, o.Region, o.Instance.Type)
			od := decide.ForOffer(cat, o, rate, in.Spot, hpm)
			switch {
			case od.SpotNeverFinishes:
				continue
			case od.Spot != nil:
				shown = spotShownOffer(o, &od, rate, in, hpm)
				if od.Spot.InterruptionsPerHour > 0 && od.Spot.CheckpointWrites == 0 {
					caveat = model.Msg(model.SpotRestartWarning)
				}
			}
		}
		if q.BudgetJobUSD > 0 && shown.HasJob && shown.JobUSD > q.BudgetJobUSD {
			continue // within the budget at the list price, not with interruptions
		}
		h.Offers++
		// The best as the table ranks it: an offer that fits across its
		// memory band before one that fits only at the estimate.
		if better := h.Offers == 1 || h.Best.Risky() && !shown.Risky() ||
			h.Best.Risky() == shown.Risky() && hintCost(&shown) < hintCost(&h.Best); better {
			h.Best, h.Caveat, h.Spot = shown, caveat, in.Rate != nil && shown.HasJob
		}
	}
	return h, h.Offers > 0
}

// hintCost is what a hint's best offer costs: the job when timed, else an
// hour (all hints of one workload are timed alike).
func hintCost(o *model.Offer) float64 {
	if o.HasJob {
		return o.JobUSD
	}
	return o.USDPerHour
}

// fitTarget is what fit advice aims at: the GPU of the nearest near miss
// short of memory, and w on the GPUs that near miss was tried on when
// recommend picks the GPU count (sharded as the matcher shards: FSDP for
// training without a strategy), so advice weighs what the ranking
// weighs; else the offered GPU with the most usable memory and w as it
// is. The GPU is nil when the catalog offers none.
func fitTarget(cat *model.Catalog, rec *model.Recommendation, w model.Workload, autoGPUs bool) (*model.GPU, model.Workload) {
	for _, x := range rec.Rejected {
		if x.Kind != model.RejectVRAM {
			continue
		}
		g, err := cat.GPU(x.Instance.GPU)
		if err != nil {
			break
		}
		if n := max(x.Instances, 1) * x.Instance.GPUCount; autoGPUs && n > max(w.GPUs, 1) {
			w.GPUs = n
			if w.Task.Training() && (w.Strategy == "" || w.Strategy == model.Single || w.Strategy == model.DDP) {
				w.Strategy = model.FSDP
			}
		}
		return g, w
	}
	var best *model.GPU
	for i := range cat.Instances {
		in := &cat.Instances[i]
		if !in.Offered() {
			continue
		}
		if g, err := cat.GPU(in.GPU); err == nil && (best == nil || model.UsableBytes(g) > model.UsableBytes(best)) {
			best = g
		}
	}
	return best, w
}

// NearMissHint is the one change that makes the nearest near miss short
// of memory fit across its 90% range on its own GPUs (NearMissFit).
type NearMissHint struct {
	Miss   model.Rejection
	Change model.Message
	Total  float64 // per-GPU bytes with the change
	// PureBF16 is set when the change trains in pure bf16 (PureBF16):
	// WriteNearMissFit adds its convergence caveat.
	PureBF16 bool
}

// PureBF16 reports whether advice a trains w in pure bf16 where w does
// not: bf16 weights and AdamW states with no fp32 master copy.
func PureBF16(w *model.Workload, a *advice.Advice) bool {
	return a.Workload.Task.Training() && a.Workload.Precision == model.BF16 && w.Precision != model.BF16
}

// PureBF16CaveatIn is the line under advice that trains in pure bf16:
// without fp32 master weights, round-to-nearest bf16 weight updates
// "often cancel small updates, which degrades the convergence and model
// accuracy", and stochastic rounding or Kahan summation in the optimizer
// recover it (Zamirai et al., "Revisiting BFloat16 Training", 2020,
// arXiv:2010.06192, abstract: up to 7% absolute validation accuracy
// across their seven applications). The advice saves memory; this says what it can cost.
func PureBF16CaveatIn(p *i18n.Printer) string {
	return p.T("pure bf16 has no fp32 master weights: rounding each AdamW update to bf16 can cancel small updates and hurt convergence (Zamirai et al. 2020, \"Revisiting BFloat16 Training\"); keep mixed precision if another change fits, or use an optimizer with Kahan summation or stochastic rounding")
}

// NearMissFit returns, when offers rank but the nearest near miss was
// short of memory, the first change advice.FitAdviceOn finds that fits
// that miss's usable VRAM across its 90% range, on the GPUs the ranking
// tried it on (fitTarget), never one that GPU cannot run: a full fine-tune of an 8B at the default micro-batch
// ranks B300s while 8×H100 "needs 163.9 GiB per GPU", and one smaller
// micro-batch makes it fit there (a new user's walk read "8×H100 cannot
// fine-tune an 8B"). ok is false when no change fits or nothing ranks
// (WouldFit says then what would).
func NearMissFit(w model.Workload, cat *model.Catalog, q model.Query, rec *model.Recommendation) (h NearMissHint, ok bool) {
	if len(rec.Offers) == 0 {
		return h, false
	}
	i := slices.IndexFunc(rec.Rejected, func(x model.Rejection) bool { return x.Kind == model.RejectVRAM })
	if i < 0 {
		return h, false
	}
	g, sized := fitTarget(cat, rec, w, q.AutoGPUs)
	if g == nil {
		return h, false
	}
	miss := rec.Rejected[i]
	host := max(miss.Instances, 1) * miss.Instance.GPUCount
	for _, a := range advice.FitAdviceOn(sized, g, model.UsableBytes(g), cat.LargestNode(g)) {
		// The line names the near miss's host: a change to more GPUs than
		// it has does not fit it there, and one that fixes the GPU count
		// (--gpus) cannot be re-run beside --max-gpus (a walk: "jarvislabs
		// 2x_L4 would fit with one change: … --gpus 4").
		if a.Verdict != model.VerdictFits || a.Workload.GPUs > host || q.MaxGPUs > 0 && a.Workload.GPUs != sized.GPUs {
			continue
		}
		return NearMissHint{Miss: miss, Change: a.Msg, Total: a.Total, PureBF16: PureBF16(&sized, &a)}, true
	}
	return h, false
}

// WriteNearMissFit prints h under the near misses: "→ runpod
// 4x_B200_SECURE would fit with one change, at 59.77 GiB per GPU: turn on
// activation checkpointing (about 33% more compute)".
func WriteNearMissFit(out io.Writer, r *Renderer, h NearMissHint) error {
	st, p := NewStyles(r), r.Lang
	s := p.Sprintf("%s %s would fit with one change, at %s per GPU: %s", h.Miss.Instance.Provider, h.Miss.Instance.Type, GiB(h.Total), p.Message(h.Change))
	if h.PureBF16 {
		s += "\n    " + st.Muted.Render(PureBF16CaveatIn(p))
	}
	_, err := fmt.Fprintf(r.Writer(out), "  %s %s\n", st.Good.Render("→"), s)
	return err
}
