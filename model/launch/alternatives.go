package launch

import "github.com/gpuplan/gpuplan/model"

// Alternatives ranks every catalog offer for workload w on chosen's GPU,
// GPU count and pricing (several nodes only when chosen has them) under
// the user's search, and returns all but chosen itself, best first:
// Options.Alternatives, from which a SkyPilot file keeps the equivalent
// ones as its ordered failover candidates (candidatesFrom). An error of
// the ranking leaves the file with the one offer (nil).
//
// search is the query the user picked chosen under (recommend's, the
// configurator's, export's: config.Config.Query with the flags over it).
// What decides which offers the user accepts carries over, so a file
// never fails over to an offer the search left out (walk54: --country us
// failed over to seeweb in Italy and primeintellect in Finland): the
// providers, regions and countries, the price cap, the monthly and job
// budgets with the hours per month they count, the deadline, the
// exchange rates that let CNY-priced rows in, and the precision fallback.
// What makes the candidates the same job is chosen's, whatever the
// search says: its GPU, GPU count, pricing and nodes, and its strategy
// (KeepStrategy: the file runs one command, so a candidate that fits
// only with another layout is none). The order is the ranking's default,
// cheapest first as the file's header says, not the search's sort.
//
// Across nodes, a training job's gradient traffic is timed at the node
// network, so an offer on a much slower one is not the same job: a
// reseller's VM with no documented fabric, timed at 10 Gbps
// (model.NetworkNoFabric), was the first failover of a 2-node EFA p5
// plan (a new user's walk). An offer whose throughput is past the slow
// end of chosen's own 90% time range (slowerThanRange) is left out;
// one the estimate cannot tell from chosen (GCP's A3 beside p5) stays.
//
// gpuplan export and the configurator's export both call it, so that the
// same configuration writes the same file from either.
func Alternatives(w model.Workload, cat *model.Catalog, chosen *model.Offer, search model.Query) []*model.Offer {
	if chosen == nil || chosen.Instance == nil || chosen.GPU == nil || cat == nil {
		return nil
	}
	q := search
	q.Pricing, q.GPUs, q.InstanceType = chosen.Pricing, []string{chosen.GPU.Key}, ""
	q.AutoGPUs, q.MaxGPUs, q.AllowMultiNode, q.MaxNodes = false, 0, chosen.Instances > 1, 0
	q.KeepStrategy, q.Sort = true, ""
	w.GPUs = chosen.GPUs
	if chosen.Strategy != "" {
		w.Strategy = chosen.Strategy // the layout the file runs (FSDP where data parallel gave way: model.Offer.Replaced)
	}
	rec, err := model.Recommend(w, cat, q)
	if err != nil {
		return nil
	}
	out := make([]*model.Offer, 0, len(rec.Offers))
	for i := range rec.Offers {
		o := &rec.Offers[i]
		if o.Instance.Provider == chosen.Instance.Provider && o.Instance.Type == chosen.Instance.Type && o.Region == chosen.Region {
			continue
		}
		if slowerThanRange(o, chosen) {
			continue
		}
		out = append(out, o)
	}
	return out
}

// slowerThanRange reports whether multi-node training on o is slower
// than the slow end of chosen's 90% time range: o's throughput below
// chosen's over the range's high multiplier (model.Estimate.
// TimeCalibration, the out-of-sample errors of comparable calibration
// cases). False on one node, for inference, and without throughputs.
func slowerThanRange(o, chosen *model.Offer) bool {
	if chosen.Instances <= 1 || chosen.Estimate == nil || o.Estimate == nil || !chosen.Estimate.Workload.Task.Training() {
		return false
	}
	c, x := chosen.Estimate.SamplesPerSecond, o.Estimate.SamplesPerSecond
	hi := chosen.Estimate.TimeCalibration().Hi
	return c > 0 && x > 0 && hi > 0 && x*hi < c
}
