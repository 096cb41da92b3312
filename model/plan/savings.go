package plan

import (
	"cmp"
	"math"
	"slices"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/advice"
	"github.com/gpuplan/gpuplan/model/serve"
)

// PhaseScenario is one phase of a plan as the engine prices it: the
// phase's workload and search, and its duration as the plan gives it.
type PhaseScenario struct {
	Name string
	// Provider, Instance and Region are the phase's pinned offer ("" when
	// it names none), so Savings can say when the catalog has no price
	// for it in the phase's pricing mode (unpricedPhase).
	Provider, Instance, Region string
	// Instances is the phase's instance count (Phase.Instances): a
	// serving phase is priced on them as rented when they run it
	// (pricePinned).
	Instances int
	advice.Scenario
	// JobHours is the plan's job time, used when the engine cannot time
	// the job (no dataset); 0 for a service.
	JobHours float64
	// Months and HoursPerMonth are a service's duration (Phase).
	Months, HoursPerMonth float64
	// Serve is the serving request of a phase that serves an LLM
	// (serve.ServesModel), nil otherwise: such a phase is priced on the
	// serving ranking's first plan (serve.RankServing: the cheapest per
	// hour that carries a fixed load, or per million output tokens when
	// no load is given), as recommend --task inference ranks it, not on
	// the batch estimate. ServePrecision is the
	// workload's precision Serve's weight format came from: a change of
	// precision (serve int8 or int4 weights) serves that format instead.
	Serve          *serve.Serving
	ServePrecision model.Precision
}

// WithServing returns ph priced as the serving request s (the phase's
// workload resolved by config.WorkloadAnswers.Serving).
func (ph PhaseScenario) WithServing(s serve.Serving) PhaseScenario {
	ph.Serve, ph.ServePrecision = &s, ph.Workload.Precision
	return ph
}

// serving is the request the phase's current scenario asks: Serve, with
// the weight format of a changed precision.
func (ph *PhaseScenario) serving() serve.Serving {
	s := *ph.Serve
	if ph.Workload.Precision != ph.ServePrecision {
		s.WeightFormat = serve.WeightFormatFor(ph.Workload.Precision)
		s.AllowPrecisionFallback = s.AllowPrecisionFallback || s.WeightFormat == serve.WeightBF16
	}
	return s
}

// servePlans ranks the phase's serving request on the offers its query
// allows (serve.Offers, serve.RankServing).
func (ph *PhaseScenario) servePlans(cat *model.Catalog) ([]serve.Plan, error) {
	return serve.RankServing(&ph.Workload.Model, ph.serving(), serve.Offers(cat, ph.Query))
}

// priceServing prices the phase over the service's months (a
// commitment's whole term at least) at the lower of two prices per hour:
// its pinned offer as rented, when that runs it (pricePinned), and the
// serving ranking's first plan that meets the load and targets; ok is
// false when neither does.
//
// The ranking alone re-priced a phase on a plan the plan does not rent:
// one borderline on its instances went to the more instances that clear
// the 90% range (serve.ClearingReplicas), and without a load the
// ranking's key is $ per million output tokens, not the $ per hour a
// phase is billed. A walk's serve phase, one g6e.xlarge borderline at a
// 32768-token context, was re-priced on two: the savings' base was
// $8,159 against the plan's own $4,094, and "serve int4 weights saves
// $4,076 (50%)" saved only what the re-pricing had added.
func (ph *PhaseScenario) priceServing(cat *model.Catalog) (float64, bool) {
	usd, ok := math.Inf(1), false
	if h, pinned := ph.pricePinned(cat); pinned {
		usd, ok = h, true
	}
	if plans, err := ph.servePlans(cat); err == nil && len(plans) > 0 && plans[0].Meets {
		usd, ok = min(usd, plans[0].USDPerHour), true
	}
	if !ok {
		return 0, false
	}
	c, err := (&Phase{Name: ph.Name, Pricing: cmp.Or(ph.Query.Pricing, model.OnDemand), USDPerHour: usd, Months: ph.Months,
		HoursPerMonth: ph.HoursPerMonth, JobHours: ph.JobHours}).Cost()
	return c.USD, err == nil
}

// pricePinned is the price per hour of the serving phase on its pinned
// offer as rented: its Instances of its instance type, at the catalog's
// price in the pricing mode its query asks, when the query still allows
// that type (a change of GPU or region moves the phase off it) and the
// request runs there and meets its load and targets at the estimate
// (PinnedServing: borderline is kept, as the plan rents it and marks it
// ~; a request that needs more instances, misses or does not fit is
// not). ok is false otherwise.
func (ph *PhaseScenario) pricePinned(cat *model.Catalog) (float64, bool) {
	if ph.Instance == "" {
		return 0, false
	}
	offers := ph.PinnedOffers(cat, ph.Instance)
	if len(offers) == 0 {
		return 0, false
	}
	n := max(ph.Instances, 1)
	pin, err := PinnedServing(&ph.Workload.Model, ph.serving(), offers[0], n)
	if err != nil || pin.Refused || !pin.Plan.Meets || pin.Plan.Nodes > n {
		return 0, false
	}
	return offers[0].USDPerHour * float64(n), true
}

// Scenario is a plan's phases as the engine prices them.
type Scenario []PhaseScenario

// Saving is a single change to a plan and what it saves over the
// whole plan; Phases names the phases it changes.
type Saving struct {
	advice.Saving
	Phases []string `json:"phases"`
	// OOMPhases, set with OOMChance, names the phases whose offers are
	// borderline under the change (OOMChance is the highest of their
	// chances), in plan order: of a plan's several phases, the ones the
	// chance is about.
	OOMPhases []string `json:"oom_phases,omitempty"`
}

// PhaseScenarioFor returns the scenario of phase p on its chosen offer: w
// (the phase's workload, resolved from its answers), searched on p's
// provider, region and pricing mode and on the GPU of p's instance type
// in cat (all GPUs when cat does not list the type), with the search's
// other answers from q.
func PhaseScenarioFor(p *Phase, w model.Workload, q model.Query, cat *model.Catalog) PhaseScenario {
	q.Pricing = cmp.Or(p.Pricing, q.Pricing)
	if p.Provider != "" {
		q.Providers = []string{p.Provider}
	}
	if p.Region != "" {
		q.Regions = []string{p.Region}
	}
	for i := range cat.Instances {
		if in := &cat.Instances[i]; in.Provider == p.Provider && in.Type == p.Instance {
			q.GPUs = []string{in.GPU}
			break
		}
	}
	if p.Instances > 1 {
		// A phase rented as several instances is searched as such, as
		// JobHours times it: without multi-node offers a 4-node job on 32
		// GPUs found no offer and the plan "had no cost to compare with".
		q.AllowMultiNode = true
		q.MaxNodes = max(q.MaxNodes, p.Instances)
	}
	if p.HoursPerMonth > 0 {
		q.HoursPerMonth = p.HoursPerMonth
	}
	w.Defaults() // changes act on the answers after defaults, as Savings
	return PhaseScenario{Name: p.Name, Provider: p.Provider, Instance: p.Instance, Region: p.Region, Instances: p.Instances, Scenario: advice.Scenario{Workload: w, Query: q}, JobHours: p.JobHours,
		Months: p.Months, HoursPerMonth: p.HoursPerMonth}
}

// PriceOn prices the phase on offer o as the plan prices a phase
// (Phase.Cost): a job for the engine's job hours on o (the plan's
// JobHours when the engine has none), a service for its months; on a
// 1- or 3-year commitment at least the whole term.
func (ph *PhaseScenario) PriceOn(o *model.Offer) (float64, error) {
	pp := Phase{Name: ph.Name, Pricing: o.Pricing, USDPerHour: o.USDPerHour, Months: ph.Months, HoursPerMonth: ph.HoursPerMonth}
	if ph.Months == 0 {
		pp.JobHours = ph.JobHours
		if o.HasJob {
			pp.JobHours = o.JobHours
		}
	}
	c, err := pp.Cost()
	return c.USD, err
}

// PriceWithSpot is PriceOn, but a job on spot (o.Pricing spot, a job the
// engine timed, the phase not rented by the month) at spot's expected cost
// with its interruptions counted, spot(o) (advice.SpotJobCost: the spot
// estimate recommend shows beside each offer), when spot is not nil; ok
// is false when that job would not finish on spot or cannot be priced.
func (ph *PhaseScenario) PriceWithSpot(o *model.Offer, spot advice.SpotJobCost) (float64, bool) {
	if spot != nil && o.Pricing == model.Spot && o.HasJob && ph.Months == 0 {
		usd, ok := spot(o)
		return usd, ok && !math.IsNaN(usd) && !math.IsInf(usd, 0) && usd >= 0
	}
	usd, err := ph.PriceOn(o)
	return usd, err == nil
}

// Eval returns an eval for advice.RankSavings over a whole plan: each phase
// on the engine's best offer for its scenario (model.Recommend's first offer:
// the cheapest job with a dataset, else the cheapest hour; a serving
// phase's first plan of the serving ranking, PhaseScenario.Serve), priced
// by PriceWithSpot, summed: a spot job at its expected cost with
// interruptions when spot is given (as advice.Savings prices recommend's
// "pay spot", so the two commands agree on one job), else at the bare
// rate, as advice.EvalCheapestJob. ok is false when a phase has no offer,
// or its job would not finish on spot.
//
// Each phase keeps its own estimates from one call to the next (most
// changes only change the query), so the eval must not be called
// concurrently.
func Eval(cat *model.Catalog, spot advice.SpotJobCost) func(Scenario) (float64, bool) {
	eval := evalRisk(cat, spot)
	return func(pl Scenario) (float64, bool) {
		usd, _, _, ok := eval(pl)
		return usd, ok
	}
}

// evalRisk is Eval that also returns the highest chance of running out
// of memory among the training phases' offers that are borderline
// (model.Offer.Risky, to the nearest 0.05), 0 when none is, and the names
// of those phases in plan order: the engine's cheapest offer ranks a
// borderline one after every offer that fits, so it is priced only when
// nothing runs the phase across its memory range, and a saving priced on
// it says so, as recommend's do, naming the phase.
func evalRisk(cat *model.Catalog, spot advice.SpotJobCost) func(Scenario) (usd, oomChance float64, oomPhases []string, ok bool) {
	var finders []*model.CheapestFinder
	return func(pl Scenario) (float64, float64, []string, bool) {
		for len(finders) < len(pl) {
			finders = append(finders, model.NewCheapestFinder(cat))
		}
		total, risk := 0.0, 0.0
		var risky []string
		for i := range pl {
			ph := &pl[i]
			if ph.Serve != nil {
				usd, ok := ph.priceServing(cat)
				if !ok {
					return 0, 0, nil, false
				}
				total += usd
				continue
			}
			o, ok := finders[i].Offer(ph.Workload, ph.Query)
			if !ok {
				return 0, 0, nil, false
			}
			usd, ok := ph.PriceWithSpot(o, spot)
			if !ok {
				return 0, 0, nil, false
			}
			if o.Risky() {
				risk = max(risk, model.RoundChance(o.OOMChance))
				risky = append(risky, ph.Name)
			}
			total += usd
		}
		return total, risk, risky, true
	}
}

// Changes lists the single changes worth trying on a plan: the union
// of each phase's advice.ScenarioChanges (gpuKeys[i] and regions[i] are phase
// i's candidates), by name. A change is applied to every phase it was
// listed for ("pay spot instead of on-demand" to every on-demand
// training phase, never to a serving one, which must stay up;
// "run on l4" to every phase that is not on l4 alone); phases[name] says
// which.
func Changes(pl Scenario, gpuKeys, regions [][]string) (changes []advice.Change[Scenario], phases map[string][]string) {
	type perPhase struct {
		i int
		c advice.Change[advice.Scenario]
	}
	var order []string
	byName := map[string][]perPhase{}
	for i := range pl {
		var g, r []string
		if i < len(gpuKeys) {
			g = gpuKeys[i]
		}
		if i < len(regions) {
			r = regions[i]
		}
		for _, c := range advice.ScenarioChanges(pl[i].Scenario, g, r) {
			if pl[i].Serve != nil && c.Kind == "pricing" && c.Name == model.Msg("pay %s instead of %s", model.Msg(string(model.Spot)), model.Msg(string(cmp.Or(pl[i].Query.Pricing, model.OnDemand)))).String() {
				// A service must stay up: spot capacity is reclaimed at short
				// notice (every cloud's spot terms), so it is no saving for a
				// serving phase; its launch files say so when asked for.
				continue
			}
			if _, ok := byName[c.Name]; !ok {
				order = append(order, c.Name)
			}
			byName[c.Name] = append(byName[c.Name], perPhase{i, c})
		}
	}
	phases = map[string][]string{}
	for _, name := range order {
		each := byName[name]
		for _, e := range each {
			phases[name] = append(phases[name], pl[e.i].Name)
		}
		changes = append(changes, advice.Change[Scenario]{Name: name, Msg: each[0].c.Msg, Kind: each[0].c.Kind,
			Apply: func(b Scenario) Scenario {
				b = slices.Clone(b)
				for _, e := range each {
					b[e.i].Scenario = e.c.Apply(b[e.i].Scenario)
				}
				return b
			}})
	}
	return changes, phases
}

// Savings ranks the single changes to a plan by what they save over
// the whole plan, priced by the real engine (Eval): each phase's GPU
// types and regions tried are those of up to maxEach of its cheapest
// offers on its provider and pricing mode, as Savings does for one job.
// baseUSD is the plan as it stands, priced the same way. spot, when not
// nil, prices a spot job at its expected cost with interruptions (Eval).
//
// A phase the engine finds no offer for on its pinned provider, region
// and GPU type (a 70B full fine-tune pinned on one L4) is left out:
// leftOut names such phases in plan order, baseUSD and every saving are
// of the other phases, and no change is tried on it, as the plan's Total
// leaves out a phase that cannot run. A walk's plan had every saving
// given up ("none ranked … no cost to compare with") for one such
// phase beside a serving phase that could be ranked. The error is
// returned when no phase is left, or a phase's pricing mode has no price
// (unpricedPhase).
func Savings(cat *model.Catalog, pl Scenario, maxEach int, spot advice.SpotJobCost) (baseUSD float64, out []Saving, leftOut []string, err error) {
	baseUSD, out, err = savings(cat, pl, maxEach, spot)
	if err == nil {
		return baseUSD, out, nil, nil
	}
	if m, ok := unpricedPhase(cat, pl); ok {
		return 0, nil, nil, m
	}
	var runs Scenario
	eval := Eval(cat, spot)
	for i := range pl {
		if _, ok := eval(Scenario{pl[i]}); ok {
			runs = append(runs, pl[i])
		} else {
			leftOut = append(leftOut, pl[i].Name)
		}
	}
	if len(runs) == 0 || len(leftOut) == 0 {
		return 0, nil, nil, err
	}
	baseUSD, out, err = savings(cat, runs, maxEach, spot)
	if err != nil {
		return 0, nil, nil, err
	}
	return baseUSD, out, leftOut, nil
}

// savings is Savings over every phase of pl: the error when one has no
// offer.
func savings(cat *model.Catalog, pl Scenario, maxEach int, spot advice.SpotJobCost) (baseUSD float64, out []Saving, err error) {
	gpus := make([][]string, len(pl))
	regions := make([][]string, len(pl))
	for i := range pl {
		q := pl[i].Query
		q.GPUs, q.Regions, q.Sort = nil, nil, ""
		if pl[i].Serve != nil { // the serving ranking's offers that carry the load
			ph := pl[i]
			ph.Query = q
			plans, _ := ph.servePlans(cat)
			for j := range plans {
				if p := &plans[j]; p.Meets && len(gpus[i]) < maxEach && !slices.Contains(gpus[i], p.Offer.GPU.Key) {
					gpus[i] = append(gpus[i], p.Offer.GPU.Key)
				}
				if p := &plans[j]; p.Meets && len(regions[i]) < maxEach && !slices.Contains(regions[i], p.Offer.Region) {
					regions[i] = append(regions[i], p.Offer.Region)
				}
			}
			continue
		}
		rec, err := model.Recommend(pl[i].Workload, cat, q)
		if err != nil {
			continue // the phase's own changes still run; eval says if it has no offer
		}
		for j := range rec.Offers {
			o := &rec.Offers[j]
			if len(gpus[i]) < maxEach && !slices.Contains(gpus[i], o.GPU.Key) {
				gpus[i] = append(gpus[i], o.GPU.Key)
			}
			if len(regions[i]) < maxEach && !slices.Contains(regions[i], o.Region) {
				regions[i] = append(regions[i], o.Region)
			}
		}
	}
	changes, phases := Changes(pl, gpus, regions)
	// Which change an eval prices: RankSavings applies each change and
	// evaluates the result before the next, so the change applied last is
	// the one priced; a borderline offer under it is kept by name.
	evalR, current := evalRisk(cat, spot), ""
	type borderline struct {
		chance float64
		phases []string
	}
	risk := map[string]borderline{}
	for i := range changes {
		apply, name := changes[i].Apply, changes[i].Name
		changes[i].Apply = func(b Scenario) Scenario {
			current = name
			return apply(b)
		}
	}
	eval := func(s Scenario) (float64, bool) {
		usd, r, phases, ok := evalR(s)
		if ok && r > 0 && current != "" {
			risk[current] = borderline{r, phases}
		}
		return usd, ok
	}
	baseUSD, ranked, err := advice.RankSavings(pl, eval, changes)
	if err != nil {
		return 0, nil, model.Msg("none ranked: the estimator finds no offer for a phase on its pinned provider, region and GPU type (%v); pick one that fits with gpuplan recommend --config PLAN --phase NAME", err)
	}
	out = make([]Saving, len(ranked))
	for i, s := range ranked {
		out[i] = Saving{Saving: s, Phases: phases[s.Change]}
		if r, ok := risk[s.Change]; ok {
			out[i].OOMChance, out[i].OOMPhases = &r.chance, r.phases
		}
	}
	return baseUSD, out, nil
}

// unpricedPhase says why Savings ranks nothing when the cause is a
// phase's price, not its fit: a phase the engine prices on nothing
// (Eval of it alone fails) whose pinned instance type the catalog lists
// in its region without a price in the phase's pricing mode (as Check
// warns: "the catalog has no reserved-1y price for …"), with the modes
// the catalog does price it in there. ok is false when no phase is so
// (walk37: a reserved-1y phase on a type without a reserved price was
// told the estimator "finds no offer … pick one that fits").
func unpricedPhase(cat *model.Catalog, pl Scenario) (model.Message, bool) {
	eval := Eval(cat, nil) // a phase priced on nothing, whatever spot says
phases:
	for i := range pl {
		ph := &pl[i]
		if ph.Provider == "" || ph.Instance == "" || ph.Region == "" {
			continue
		}
		if _, ok := eval(Scenario{*ph}); ok {
			continue
		}
		pricing := cmp.Or(ph.Query.Pricing, model.OnDemand)
		for j := range cat.Instances {
			in := &cat.Instances[j]
			if in.Provider != ph.Provider || in.Type != ph.Instance {
				continue
			}
			for k := range in.Prices {
				rp := &in.Prices[k]
				if rp.Region != ph.Region {
					continue
				}
				if _, ok := cat.Price(in, rp, pricing, nil); ok {
					continue phases // priced: this phase's cause is elsewhere
				}
				var modes []string
				for _, m := range model.PricingModes {
					if _, ok := cat.Price(in, rp, m, nil); ok {
						modes = append(modes, string(m)) // as a plan file and --pricing write it
					}
				}
				if len(modes) == 0 {
					return model.Msg("none ranked: the catalog has no %s price for phase %q's %s %s in %s, nor any other, so the plan as it stands has no cost to compare changes with", model.Msg(string(pricing)), ph.Name, ph.Provider, ph.Instance, ph.Region), true
				}
				return model.Msg("none ranked: the catalog has no %s price for phase %q's %s %s in %s, so the plan as it stands has no cost to compare changes with; give the phase a pricing mode the catalog prices there (%v) to rank them", model.Msg(string(pricing)), ph.Name, ph.Provider, ph.Instance, ph.Region, model.OrMsg(modes)), true
			}
		}
	}
	return model.Message{}, false
}
