package plan

import (
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/serve"
)

// Pinned is a serving phase on its pinned offer as rented: the plan on
// the instances the phase rents and the verdict every command gives of
// it (gpuplan plan marks the row with it, estimate --phase prints Plan,
// export --phase refuses with it).
type Pinned struct {
	// Plan is the serving plan held to the phase's instances
	// (serve.PlanOnNodes): a pipeline over no more of them than it
	// rents, the shortest that fits (PP 1 first, as serve.PlanServing
	// grows it), else PP 1's, whose reason is why the model does not fit.
	Plan serve.Plan
	// Verdict is zero when Plan meets the phase's load and latency
	// targets across the estimate's 90% range; else, in this order:
	// "does not fit its pinned offer" (memory, weight format), "needs
	// more GPUs than one instance of its pinned offer has" (a replica
	// over several instances, which vLLM runs on a Ray cluster:
	// Plan.Spans), "carries the phase's load on N instances" (the
	// replicas the request gives need N instances, more than the phase
	// rents, or the serving ranking on more instances meets the load),
	// "misses the phase's load and latency targets", "borderline" (with
	// the instances of the offer that meet the targets across the
	// estimate's 90% range, when more do).
	Verdict model.Message
	// Borderline is true when Verdict is the borderline one: Plan meets
	// the targets at the estimate only (serve.Plan.Borderline).
	Borderline bool
	// Refused is true when the phase cannot run on its pinned offer as
	// planned: the model does not fit, or a replica spans instances
	// (without allow_multi_node); export --phase writes nothing then.
	Refused bool
}

// PinnedOffers is the serving offers of the phase's pinned instance type
// among those its query allows (serve.Offers: its provider, region and
// pricing mode, PhaseScenarioFor), cheapest region first.
func (ph *PhaseScenario) PinnedOffers(cat *model.Catalog, instance string) []serve.Offer {
	var offers []serve.Offer
	for _, o := range serve.Offers(cat, ph.Query) {
		if o.Instance != nil && o.Instance.Type == instance {
			offers = append(offers, o)
		}
	}
	return offers
}

// PinnedServing plans serving request s of model a on n instances of
// offer o, as a plan phase pinned to o rents them, and gives the verdict
// of gpuplan plan, estimate --phase and export --phase alike (walk36: plan
// said a 70B phase on two 4-GPU instances needed a Ray cluster where
// estimate --phase said 14.7 GiB short on one instance's 4 GPUs, and
// export --phase said a 70B phase on one A10G needed 8 GPUs and Ray where
// the other two said 114.2 GiB per GPU short).
//
// The plan is serve.PlanOnNodes on the n instances with a pipeline of PP
// 1, 2, 4 … up to n stages (or s.PP when the request pins it): the first
// that fits, else PP 1's, whose reason is what one instance lacks. A
// replica over several instances is pipeline parallel across nodes, which
// vLLM runs on a Ray cluster (vLLM docs, "Distributed inference and
// serving": tensor parallel inside a node, pipeline parallel across
// nodes, multi-node needs Ray): without s.AllowMultiNode it is refused
// with that reason (serve.Plan.Spans), not judged on memory it does not
// have. The error wraps serve.ErrInvalid.
func PinnedServing(a *model.Architecture, s serve.Serving, o serve.Offer, n int) (Pinned, error) {
	n = max(n, 1)
	pps := []int{s.PP}
	if s.PP == 0 {
		pps = nil
		for pp := 1; pp <= n && pp <= max(a.Layers, 1); pp *= 2 {
			pps = append(pps, pp)
		}
	}
	var pin Pinned
	for j, pp := range pps {
		held := s
		held.PP = pp
		p, err := serve.PlanOnNodes(a, held, o, n)
		if err != nil {
			return Pinned{}, err
		}
		if j == 0 || p.Fits {
			pin.Plan = p
		}
		if p.Fits {
			break
		}
	}
	p := &pin.Plan
	switch {
	case !p.Fits:
		pin.Verdict, pin.Refused = model.Msg("does not fit its pinned offer"), true
		if len(p.ReasonMsgs) > 0 {
			pin.Verdict = model.Msg("does not fit its pinned offer: %v", p.ReasonMsgs[0])
		}
	case !p.Spans.IsZero():
		pin.Verdict, pin.Refused = model.Msg("needs more GPUs than one instance of its pinned offer has: %v", p.Spans), true
	case p.Nodes > n:
		// Replicas (or TP × PP × replicas GPUs) the request gives rent
		// what they need (serve.PlanOnNodes), past what the phase rents:
		// the plan prices n instances, export would write p.Nodes. The
		// same verdict as auto replicas that carry the load on more
		// instances (walk52: serve.replicas = 3 on one g6.xlarge was only
		// "borderline", priced at $0.80/h, exported at $2.41/h).
		if p.Meets {
			pin.Verdict = model.Msg("carries the phase's load on %d instances of its pinned offer; the plan rents %d", p.Nodes, n)
			break
		}
		pin.Verdict = model.Msg("needs %d instances of its pinned offer for the replicas it asks for (the plan rents %d), and misses the phase's load and latency targets on them", p.Nodes, n)
		if len(p.ReasonMsgs) > 0 {
			pin.Verdict = model.Msg("needs %d instances of its pinned offer for the replicas it asks for (the plan rents %d), and misses the phase's load and latency targets on them: %v", p.Nodes, n, p.ReasonMsgs[0])
		}
	case !p.Meets:
		// More instances of the offer may carry what these do not: the
		// serving ranking's plan on the offer, its nodes not held.
		if q, err := serve.PlanServing(a, s, o); err == nil && q.Meets && q.Nodes > n {
			pin.Verdict = model.Msg("carries the phase's load on %d instances of its pinned offer; the plan rents %d", q.Nodes, n)
			break
		}
		pin.Verdict = model.Msg("misses the phase's load and latency targets on its pinned offer")
		if len(p.ReasonMsgs) > 0 {
			pin.Verdict = model.Msg("misses the phase's load and latency targets on its pinned offer: %v", p.ReasonMsgs[0])
		}
	case !p.Borderline.IsZero():
		pin.Verdict, pin.Borderline = model.Msg("borderline on its pinned offer: %v", p.Borderline), true
		// More instances of the offer may meet the targets across their
		// 90% ranges: the serving ranking's plan on the offer, its nodes
		// not held, rents the fewest that do when the replicas are the
		// planner's (serve.ClearingReplicas).
		if q, err := serve.PlanServing(a, s, o); err == nil && s.Replicas == 0 && q.Meets && q.Borderline.IsZero() && q.Nodes > n {
			pin.Verdict = model.Msg("borderline on its pinned offer: %v; %d instances of it meet the targets across that range", p.Borderline, q.Nodes)
		}
	}
	return pin, nil
}

// PinnedServeNote is the verdict of the serving phase on its own pinned
// offer (its instance type, region and pricing mode; instances nodes):
// PinnedServing's, on the request the phase's current scenario asks;
// refused when the phase cannot run there (Pinned.Refused, or a GPU vLLM
// does not run on). Zero when the phase serves no LLM (Serve nil) or cat
// does not list the instance type (Check says so).
func (ph *PhaseScenario) PinnedServeNote(cat *model.Catalog, instance string, instances int) (msg model.Message, borderline, refused bool) {
	if ph.Serve == nil {
		return model.Message{}, false, false
	}
	offers := ph.PinnedOffers(cat, instance)
	if len(offers) == 0 {
		// serve.Offers leaves out the GPUs vLLM does not run on, which
		// estimate --phase and export --phase refuse (serve.Unservable):
		// the row says so rather than price the phase unmarked (walk50:
		// a serving phase on two P100s was priced at $1,102 with no mark).
		msg = ph.unservable(cat, instance)
		return msg, false, !msg.IsZero()
	}
	pin, err := PinnedServing(&ph.Workload.Model, ph.serving(), offers[0], instances)
	if err != nil {
		return model.Message{}, false, false
	}
	return pin.Verdict, pin.Borderline, pin.Refused
}

// unservable is the verdict of a serving phase whose pinned instance type
// has a GPU vLLM does not run on (serve.Unservable), or zero: the instance
// type is not in cat under the phase's providers (Check says so), or its
// GPU serves.
func (ph *PhaseScenario) unservable(cat *model.Catalog, instance string) model.Message {
	for i := range cat.Instances {
		in := &cat.Instances[i]
		if in.Type != instance || !ph.Query.AllowsProvider(in.Provider) {
			continue
		}
		if g, err := cat.GPU(in.GPU); err == nil {
			if why := serve.Unservable(g); !why.IsZero() {
				return model.Msg("cannot serve with vLLM on its pinned offer: %v", why)
			}
		}
	}
	return model.Message{}
}

// ServingError is what serve.Serving.Validate says of the phase's
// serving request (prompt plus output tokens over max_model_len, say),
// as estimate --phase refuses it; nil when the phase serves no LLM or the
// request is valid. RankServing and PinnedServing validate only on an
// offer, and PinnedServeNote left such a phase unmarked (walk 49e: plan
// priced a phase estimate refused).
func (ph *PhaseScenario) ServingError() error {
	if ph.Serve == nil {
		return nil
	}
	s := ph.serving()
	return s.Validate(&ph.Workload.Model)
}

// Refusal is why export --phase writes nothing for the phase named name
// on its pinned offer (Refused: the model does not fit, or a replica
// spans instances), in the words export exits with and estimate --phase
// --json gives as not_exported (walk36b: it said "exportable": true of a
// phase export refused); zero when export writes the phase.
func (pin *Pinned) Refusal(name string) model.Message {
	if !pin.Refused {
		return model.Message{}
	}
	return model.Msg("phase %q %v (see gpuplan recommend --task inference)", name, pin.Verdict)
}
