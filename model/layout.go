package model

// openLayouts are the layouts tried, in order, on one count of one GPU
// for a training job that names no strategy (Query.KeepStrategy unset):
// data parallel, then FSDP over the same GPUs. pickLayout picks among
// them; the matcher (matcher.strategies) and estimate (OpenLayout) try
// the same ones.
var openLayouts = [...]Strategy{DDP, FSDP}

// pickLayout is the one rule that picks the layout on one count of one
// GPU among the layouts tried there in order, so that recommend, export
// --instance, plan's phases (matcher.shape) and estimate (OpenLayout)
// take the same one: the first that fits across its 90% memory band;
// else the first that fits only at the estimate (borderline: its band's
// top past the usable memory, Offer.Risky, ranked after every offer that
// fits); else none. try(i) estimates layout i and gives its verdict
// (layoutVerdict; VerdictNoFit for one that does not run there for
// another reason: host RAM, the deadline, an estimate error). try is
// called in order and not past the first layout that fits across its
// band, so a layout not needed is not estimated. pickLayout returns the
// layout picked and its index, or the last tried and -1 when none fits
// even at the estimate (the caller says why from it), and the first
// layout's verdict: the workload's own, which says why it gave way when
// the index is past 0 (Offer.Replaced, Layout.Replaced).
//
// A borderline layout gives way to a later one that fits across its
// band, as one that does not fit at all does — FSDP where DDP is
// borderline — and is kept when none does (walk47: Llama 3.1 8B QLoRA on
// 8 × RTX A4000, DDP borderline and FSDP fitting: without a deadline the
// borderline DDP stood, ranked after the offers that fit, and --finish-by
// and --max-job-cost missed the FSDP layout). Before the rule was one
// function, estimate took FSDP only where DDP did not fit at all and
// said "~ borderline, about 10% chance of running out of memory" for
// 4 × V100 16GB where recommend ranked FSDP first at 11.29 GiB
// (estlayout).
func pickLayout[L any](n int, try func(i int) (L, FitVerdict)) (_ L, at int, first FitVerdict) {
	var last, borderline L
	at = -1
	for i := range n {
		l, v := try(i)
		if i == 0 {
			first = v
		}
		switch {
		case v == VerdictFits:
			return l, i, first
		case v == VerdictBorderline && at < 0:
			borderline, at = l, i
		}
		last = l
	}
	if at >= 0 {
		return borderline, at, first
	}
	return last, -1, first
}

// layoutVerdict is a layout's memory verdict as pickLayout weighs it:
// VerdictNoFit when its estimate need (bytes per GPU, ResidentNeed) is
// past usable; VerdictBorderline when only its 90% band's top is
// (VerdictFor: Offer.Risky); else VerdictFits.
func layoutVerdict(need float64, band [2]float64, usable float64) FitVerdict {
	switch {
	case need > usable:
		return VerdictNoFit
	case VerdictFor(band, usable) == VerdictBorderline:
		return VerdictBorderline
	}
	return VerdictFits
}

// Layout is the layout OpenLayout takes for a job on a fixed count of
// one GPU, and why.
type Layout struct {
	// Estimate is the layout taken: the job's own (DDP) unless FSDP over
	// the same GPUs replaces it.
	Estimate Estimate
	// Replaced is the job's own layout's verdict on the GPU when FSDP
	// replaces it: VerdictNoFit (its estimate past the usable memory) or
	// VerdictBorderline (its estimate within it, its 90% band's top past
	// it); "" when the job's own is kept.
	Replaced FitVerdict
	// Tried is FSDP's estimate when it was tried and not taken: no
	// layout fits across its band, so DDP is kept whether it fits only at
	// the estimate or not at all; nil when FSDP was not tried (DDP fits
	// across its band) or could not be made (TriedErr).
	Tried    *Estimate
	TriedErr error
}

// OpenLayout is the layout recommend (matcher.shape), export --instance
// and plan's phases take for w's training on its w.GPUs of g when no
// strategy is named (Query.KeepStrategy unset), for estimate to take the
// same: the layouts openLayouts lists, picked by pickLayout. e is w's
// estimate on g (Compute(w, g)), which is kept when the rule does not
// apply — not training, a strategy other than DDP (named, or FSDP and
// ZeRO that the matcher keeps too), one data-parallel group, a GPU that
// cannot run the precision (CannotRun: the matcher rejects it before any
// layout) — or when no layout fits even at the estimate. FSDP is
// estimated from w, not e's defaulted workload, so it resolves its own
// recipe as estimate --strategy fsdp does. Host RAM, which the matcher
// also weighs, is the instance's and is not checked here.
func OpenLayout(w Workload, e Estimate, g *GPU) Layout {
	if d := &e.Workload; !d.Task.Training() || d.Strategy != DDP || d.GPUs/max(d.TP, 1) < 2 || g == nil || !CannotRun(d, g).IsZero() {
		return Layout{Estimate: e}
	}
	usable := UsableBytes(g)
	out := Layout{Estimate: e}
	l, at, own := pickLayout(len(openLayouts), func(i int) (*Estimate, FitVerdict) {
		if i == 0 { // e's own, DDP
			return &e, layoutVerdict(e.ResidentNeed(), e.ResidentBand(), usable)
		}
		v := w
		v.Strategy = openLayouts[i]
		s, err := Compute(v, g)
		if err != nil {
			out.TriedErr = err
			return nil, VerdictNoFit
		}
		out.Tried = &s
		return &s, layoutVerdict(s.ResidentNeed(), s.ResidentBand(), usable)
	})
	if at > 0 {
		return Layout{Estimate: *l, Replaced: own}
	}
	return out
}
