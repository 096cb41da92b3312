package model

// OnInstance is w on instance type in of cat as Recommend shapes and
// times it there (matcher.shape: the GPU count, the strategy FSDP falls
// back to, memory, host RAM, precision and framework support; the time
// retimed over the type's own host, matcher.estimateOn), priced at
// usdPerHour per instance in region: the offer Recommend would make of
// that type, found without Recommend's scan. Recommend keeps one offer
// per provider, region and GPU (offerGroup), so a dearer host of a GPU
// already listed, AWS g5.2xlarge beside g5.xlarge, is in neither its
// offers nor its near misses; a plan that pins such a type is still
// checked through this (walk35: plan's job_hours check skipped
// g5.2xlarge). q's limits (price, budget, deadline) and filters
// (providers, GPUs, regions) are not applied: the type is the caller's
// choice. When the job does not run on the type, kind and why say why
// and o is zero; err is w's own error (Workload.Validate).
func OnInstance(w Workload, cat *Catalog, in *Instance, region string, usdPerHour float64, q Query) (o Offer, kind RejectKind, why Message, err error) {
	w.Defaults()
	if err := w.Validate(); err != nil {
		return Offer{}, "", Message{}, err
	}
	g, err := cat.GPU(in.GPU)
	if err != nil {
		return Offer{}, "", Message{}, err
	}
	q = recommendQuery(q, &w)
	m := newMatcher(w, cat, q, nil)
	m.cache = make(map[estimateKey]*estimateResult, 16)
	d, kind, why := m.shape(in, g)
	if !why.IsZero() {
		return Offer{}, kind, why, nil
	}
	o, _ = m.offer(in, g, region, usdPerHour, d)
	o.Geo, _ = cat.Geo(in.Provider, region)
	o.Estimate = m.fullEstimate(d.r) // its own, not a ring's
	return o, "", Message{}, nil
}
