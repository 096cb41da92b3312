package advice

import (
	"reflect"

	"github.com/gpuplan/gpuplan/model"
)

// Early ranks a savings list's workload changes (8-bit AdamW states, a
// smaller micro-batch, checkpointing, bf16, FSDP, int8/int4 weights:
// every ScenarioChanges kind but pricing, GPU type and region) on a
// goroutine of their own, started as soon as the workload and query are
// known, before the Recommend they belong to. Those changes read nothing
// of the Recommendation (a changed workload starts from no estimates of
// its: CheapestFinder), so each is the same cheapest offer whenever it
// is ranked; Savings then reads them here instead of ranking them
// itself. Why: recommend --json keeps both cores of a two-core machine
// busy from the ranking on, except for the moments it does one thing at
// a time (setting the scan up, merging and sorting its two halves), and
// the workload changes were ranked after it (8-bit AdamW states alone a
// whole new set of estimates, ~0.25 ms of its ~2.9 ms after main; issue
// 32). Started here they fill the first of those moments.
type Early struct {
	s    Scenario        // the base, defaulted, as Savings builds it
	want map[string]bool // the changes ranked, by name
	done chan struct{}
	got  map[string]earlyOffer // by name; read once done is closed
}

// earlyOffer is one change's cheapest offer, as Savings' eval keeps it.
type earlyOffer struct {
	offer *SavingOffer
	usd   float64
	ok    bool
}

// StartEarly starts ranking the workload changes of w on cat for q (the
// workload and query a Recommend of cat is about to rank, and Savings to
// be given); nil when there are none. It indexes cat first, so that the
// ranking and the caller's Recommend only read it.
func StartEarly(cat *model.Catalog, w model.Workload, q model.Query) *Early {
	w.Defaults()
	s := Scenario{Workload: w, Query: q}
	var changes []Change[Scenario]
	for _, c := range ScenarioChanges(s, nil, nil) {
		if workloadChange(c.Kind) {
			changes = append(changes, c)
		}
	}
	if len(changes) == 0 {
		return nil
	}
	cat.EnsureIndex()
	e := &Early{s: s, want: make(map[string]bool, len(changes)), done: make(chan struct{}), got: make(map[string]earlyOffer, len(changes))}
	for _, c := range changes {
		e.want[c.Name] = true
	}
	// Each Apply works on a copy of s, its slices cloned: the goroutine
	// writes nothing Savings reads.
	go func() {
		defer close(e.done)
		find := cheapestJob{model.NewCheapestFinder(cat)}
		for _, c := range changes {
			sc := c.Apply(s)
			var r earlyOffer
			if o, ok := find.Offer(sc.Workload, sc.Query); ok {
				r = earlyOffer{savingOffer(o), jobCost(o), true}
			}
			e.got[c.Name] = r
		}
	}()
	return e
}

// workloadChange reports whether a ScenarioChanges kind changes the
// workload rather than the search (Recommendation.CheapestWithin reads
// the search's changes off the ranking itself).
func workloadChange(kind string) bool {
	return kind != "pricing" && kind != "gpu" && kind != "region"
}

// offer returns change name's cheapest offer when e ranks it for s,
// waiting for e's ranking to end; hit is false when e is nil, was
// started for another base than s, or does not rank that change.
func (e *Early) offer(s *Scenario, name string) (r earlyOffer, hit bool) {
	if e == nil || !e.want[name] {
		return earlyOffer{}, false
	}
	<-e.done
	if !reflect.DeepEqual(&e.s, s) {
		return earlyOffer{}, false
	}
	r, hit = e.got[name]
	return r, hit
}
