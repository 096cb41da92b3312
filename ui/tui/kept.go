package tui

import (
	"errors"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/ui/report"
)

// computeKept is computeSpot, then matchKept for kept: what the recompute
// runs. kept is the opened file's [selection] while the answers are the
// ones it was kept for (app.keptFor), else nil: the extra match runs
// only then, never for a keystroke that changes the answers.
func computeKept(cat *model.Catalog, cfg config.Config, cfgErr error, hf *hfReader, seq int,
	rate func(provider, region, instanceType string) decide.InterruptionRate, kept *config.Selection) *result {
	r := computeSpot(cat, cfg, cfgErr, hf, seq, rate)
	matchKept(r, cat, kept, rate)
	return r
}

// sameSelection reports whether o is the offer s names: provider,
// instance type, region, pricing, and the GPU and instance counts s
// gives.
func sameSelection(o *model.Offer, s *config.Selection) bool {
	return o.Instance.Provider == s.Provider && o.Instance.Type == s.InstanceType && o.Region == s.Region &&
		o.Pricing == s.Pricing && (s.GPUs == 0 || o.GPUs == s.GPUs) && (s.Instances == 0 || o.Instances == s.Instances)
}

// matchKept finds the offer s names on r's answers when r's ranking
// lacks it, into r.kept, or says in r.keptWhy why it does not run them.
// The ranking keeps one instance type per provider, region and GPU, and
// prefers a host sized to the job, so a type gpuplan export --config
// writes for the file can be missing from it (fix52c: aws g5.2xlarge,
// ranked under g5.xlarge's A10G, was said to be no longer offered and
// re-saved as a T4G g5g.2xlarge in amp-fp16). It matches as gpuplan
// export does (ui/cli exportQuery, exportOffer): the answers on that
// instance type alone (model.Query.InstanceType, the catalog whole), in
// its region and pricing, on the selection's GPU count when the answers
// leave the count to gpuplan, across nodes when that count needs them.
// Serving plans are left alone (their offers are serve.RankServing's).
func matchKept(r *result, cat *model.Catalog, s *config.Selection, rate func(provider, region, instanceType string) decide.InterruptionRate) {
	if s == nil || !r.ok() || r.serve != nil {
		return
	}
	for i := range r.rec.Offers {
		if sameSelection(&r.rec.Offers[i], s) {
			return // ranked: keptOffer finds it there
		}
	}
	var in *model.Instance
	for i := range cat.Instances {
		if x := &cat.Instances[i]; x.Provider == s.Provider && x.Type == s.InstanceType {
			in = x
			break
		}
	}
	if in == nil || !in.Offered() {
		return // gone from the catalog: apply says so
	}
	w, q := r.workload, r.cfg.Query()
	q.Providers, q.Regions, q.InstanceType = []string{s.Provider}, []string{s.Region}, s.InstanceType
	if s.Pricing != "" {
		q.Pricing = s.Pricing
	}
	if q.AutoGPUs && s.GPUs > 0 { // the file's count, as export --config takes it (exportQuery)
		w.GPUs, q.AutoGPUs = s.GPUs, false
		if w.GPUs > 1 && (w.Strategy == "" || w.Strategy == model.Single) {
			w.Strategy = model.DDP // as Defaults and the flags do for several GPUs
		}
	}
	w.Defaults()
	q.AllowMultiNode = q.AllowMultiNode || !q.AutoGPUs && w.GPUs > in.GPUCount
	if rate != nil && q.Pricing == model.Spot {
		q.SpotView = report.SpotView(report.DecideInput{Catalog: cat, Query: q, Rate: rate, Spot: spotAssumptions,
			HoursPerMonth: cmpOrHours(r.cfg.Search.HoursPerMonth)})
	}
	rec, err := model.Recommend(w, cat, q)
	switch {
	case errors.Is(err, model.ErrNoOffers) || err == nil && rec.Considered == 0:
		return // no price there in that mode any more
	case err != nil:
		r.keptWhy = model.Msg("%v", err)
		return
	case len(rec.Offers) == 0:
		r.keptWhy = model.Msg("does not run the workload")
		if len(rec.Rejected) > 0 {
			if r.keptWhy = rec.Rejected[0].ReasonMsg; r.keptWhy.IsZero() {
				r.keptWhy = model.Msg("%s", rec.Rejected[0].Reason)
			}
		}
		return
	}
	// The one the file names, else the cheapest, as export takes it.
	o := &rec.Offers[0]
	for i := range rec.Offers {
		if x := &rec.Offers[i]; x.USDPerHour < o.USDPerHour {
			o = x
		}
	}
	for i := range rec.Offers {
		if x := &rec.Offers[i]; sameSelection(x, s) {
			o = x
			break
		}
	}
	r.kept = o
}
