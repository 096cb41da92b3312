package report

import (
	"fmt"
	"io"
	"slices"

	"github.com/gpuplan/gpuplan/model"
)

// BatchHint is the gradient accumulation that opens the cheapest offer a
// ranking left out because its GPUs cannot share the job's global batch
// (model.RejectBatch): "--grad-accum 16 (a global batch of 16) opens aws
// p5en.48xlarge 16×h200 (2 nodes), 6.8 h, $218 for the job".
type BatchHint struct {
	GradAccum   int         // --grad-accum to give
	GlobalBatch int         // the global batch it makes
	Was         int         // the global batch asked
	Left        int         // offers that did not pass for the global batch
	Best        model.Offer // the cheapest offer it opens
	Offers      int         // offers the ranking with the change ranks
	AsOf        string      // the catalog's date (model.Recommendation.AsOf)
	// Spot is set when Best's job time and cost are expected with
	// interruptions (the query's model.Query.SpotView), as the table
	// shows a spot offer.
	Spot bool
}

// maxBatchTries bounds the global batches GlobalBatchFit ranks (each a
// model.Recommend): the smallest that the GPU counts tried need.
const maxBatchTries = 6

// GlobalBatchFit returns, when rec left offers out because their GPUs
// cannot share w's global batch in whole samples (model.RejectBatch: 16
// H200s for a global batch of 8, micro-batch 1 × gradient accumulation
// 8), the accumulation that opens the cheapest of them: for each GPU
// count the search tries (each instance type's GPUs, over 1, 2, 4, …
// nodes up to the node limit) that cannot share it, the smallest global
// batch that count shares (their least common multiple); these ranked by
// model.Recommend with the accumulation that makes it (the micro-batch
// kept), smallest first (at most maxBatchTries), the first that ranks an
// offer on a GPU count the asked batch could not run on is the change (a
// larger batch changes the training more: a global batch of 512 opened
// 32 × H100 for $7 less than 32 did), and its cheapest such offer (the
// job, else the hour) the one named. ok is false when nothing was
// left out for the batch, the micro-batch is per GPU (no global batch to
// share), or no such change opens an offer. The offer is named whether
// or not it beats rec's best: the user learns what the batch ruled out.
//
// --grad-accum is the job's micro-batches per optimizer step, which its
// GPUs share (Workload.OnGPUs); Hugging Face's gradient_accumulation_steps
// is each GPU's (the Trainer's "Total train batch size (w. parallel,
// distributed & accumulation)" is per-device batch × accumulation ×
// world size, transformers trainer.py), so a user reading it that way
// asks for a global batch that most multi-node counts cannot share
// (WriteBatchHint says so).
func GlobalBatchFit(w model.Workload, cat *model.Catalog, q model.Query, rec *model.Recommendation) (BatchHint, bool) {
	left := 0
	for _, r := range rec.Reasons {
		if r.Kind == model.RejectBatch {
			left += r.Count
		}
	}
	w.Defaults()
	if left == 0 || !w.Task.Training() || w.BatchPerGPU {
		return BatchHint{}, false
	}
	tp := max(w.TP, 1)
	global, per := w.GlobalBatch(), max(w.MicroBatch, 1)*max(w.GPUs/tp, 1) // a global batch is a whole number of these
	maxNodes := q.MaxNodes
	if maxNodes <= 0 {
		maxNodes = 64
	}
	if !q.AllowMultiNode {
		maxNodes = 1
	}
	var batches []int
	addCount := func(n int) {
		if dp := n / tp; n%tp == 0 && dp > 0 && global%dp != 0 {
			if b := lcm(global, dp); b%per == 0 && !slices.Contains(batches, b) {
				batches = append(batches, b)
			}
		}
	}
	if !q.AutoGPUs {
		addCount(w.GPUs)
	} else {
		for i := range cat.Instances {
			in := &cat.Instances[i]
			if !in.Offered() || !q.AllowsProvider(in.Provider) {
				continue
			}
			for nodes := 1; nodes <= maxNodes; nodes *= 2 {
				addCount(nodes * in.GPUCount)
			}
		}
	}
	slices.Sort(batches)
	h := BatchHint{Was: global, Left: left}
	found := false
	for _, b := range batches[:min(len(batches), maxBatchTries)] {
		if found {
			break // the smallest batch that opens an offer: a larger one changes the training more
		}
		v := w
		v.GradAccum = b / per
		r, err := model.Recommend(v, cat, q)
		if err != nil {
			continue
		}
		for i := range r.Offers {
			o := &r.Offers[i]
			if dp := o.GPUs / tp; dp < 1 || global%dp == 0 || o.Risky() {
				continue // the batch asked ran there already, or it fits only at the estimate
			}
			shown, spot := *o, false
			if q.SpotView != nil {
				if s, ok := q.SpotView(o); ok {
					shown, spot = s, s.HasJob
				}
			}
			if !found || hintCost(&shown) < hintCost(&h.Best) {
				h.GradAccum, h.GlobalBatch, h.Best, h.Spot, found = v.GradAccum, b, shown, spot, true
				h.Offers, h.AsOf = len(r.Offers), r.AsOf
			}
		}
	}
	return h, found
}

func lcm(a, b int) int {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return a / x * b
}

// Change is h's change as a "What would make it fit" line
// names it.
func (h *BatchHint) Change() model.Message {
	return model.Msg("--grad-accum %d (a global batch of %d, which more GPU counts share)", h.GradAccum, h.GlobalBatch)
}

// WriteBatchHint prints h under the near misses: the change, the offer
// it opens and how many were left out, then what --grad-accum counts.
func WriteBatchHint(out io.Writer, r *Renderer, h BatchHint) error {
	st, p := NewStyles(r), r.Lang
	offer := fitHintOffer(p, &h.Best)
	if o := &h.Best; h.Spot {
		offer = fmt.Sprintf("%s %s %s", o.Instance.Provider, o.Instance.Type, OfferGPUsIn(p, o)) +
			p.Sprintf(", expected %s and %s for the job with interruptions", HoursIn(p, o.JobHours), USD(o.JobUSD))
	}
	s := p.Sprintf("--grad-accum %d (a global batch of %d) opens %s: %s did not pass because their GPUs cannot share the global batch of %d in whole samples",
		h.GradAccum, h.GlobalBatch, offer, Count(p, h.Left, "offer"), h.Was)
	note := p.T("--grad-accum counts the job's micro-batches per optimizer step, which its GPUs share; Hugging Face's gradient_accumulation_steps counts each GPU's (global batch = per-device batch × accumulation × GPUs)")
	_, err := fmt.Fprintf(r.Writer(out), "  %s %s\n    %s\n", st.Good.Render("→"), s, st.Muted.Render(note))
	return err
}
