package report

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/internal/stack"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/advice"
	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/termsafe"
)

// Decisions are the answers beyond the price list for one
// recommendation: each offer's spot estimate and commitment break-even,
// the time-against-cost Pareto front, and the single changes that save
// the most. Build with Decide.
type Decisions struct {
	Offers        []decide.Decision // parallel to Recommendation.Offers
	Spot          decide.SpotAssumptions
	HoursPerMonth float64
	Front         []decide.TimeCost // ParetoFront of every offer, fastest first
	SavingsBase   float64           // the plan's cost the savings are measured against
	Savings       []advice.Saving
	SavingsErr    string
	Hints         bool // name the command-line flags that change the assumptions
	// Answers are the direct questions' answers (--finish-by,
	// --max-job-cost): WriteRecommendDecided prints them under best:,
	// where the question is answered, not pages below after the spot and
	// savings sections (a new user's walk: the answer to --finish-by 2d
	// was line 64 of 64).
	Answers []Answer
	// SpotLast is how many spot offers whose job would not finish
	// (decide.Decision.SpotNeverFinishes) Decide ranked after the others
	// (all of them when every offer is one).
	SpotLast int
	// shown are the offers as the views show them (ShownOffers), parallel
	// to the recommendation's; nil when they are its own.
	shown []model.Offer
	// TryFirst is the change that makes the risky offer worth trying
	// first (model.Recommendation.TryFirst, on the offers as the views
	// show them) fit across its memory range on its own host
	// (advice.FitOffer); nil when there is no such offer, no change makes
	// it fit, or the savings are off (--no-savings: no ranking per
	// change). tryFirstShown is its offer as the views show it (spot: the
	// expected job with interruptions, SpotView).
	TryFirst      *advice.OfferFit
	tryFirstShown model.Offer

	// savingsDone is closed when savings ranked aside
	// (DecideInput.SavingsAside) are in; nil when Decide ranked them.
	savingsDone chan struct{}
}

// WaitSavings waits for the savings Decide ranks aside
// (DecideInput.SavingsAside); it returns at once otherwise. SavingsBase,
// Savings and SavingsErr are not to be read before it returns.
func (d *Decisions) WaitSavings() {
	if d != nil && d.savingsDone != nil {
		<-d.savingsDone
	}
}

// DecideInput is what Decide needs beyond the recommendation.
type DecideInput struct {
	Catalog  *model.Catalog
	Workload model.Workload
	Query    model.Query
	// Rate gives the interruption rate of a spot instance type in a region
	// (data.SpotRates); nil leaves out the spot estimates.
	Rate          func(provider, region, instanceType string) decide.InterruptionRate
	Spot          decide.SpotAssumptions
	HoursPerMonth float64 // the user's use a month for commitments; 0: 730
	// Savings turns on the "what saves the most" list (a few dozen
	// Recommend calls).
	Savings bool
	// SavingsAside ranks the savings on another goroutine: Decide returns
	// once the offers' decisions and the front are in, and the caller
	// calls Decisions.WaitSavings before it reads them (recommend --json
	// lays the offers out meanwhile, on the machine's other core; the
	// ranking reads rec and never writes it, model.CheapestFinder).
	SavingsAside bool
	Hints        bool // see Decisions.Hints
}

// savingsPerKind bounds the GPU types and regions tried by Savings.
const savingsPerKind = 6

// Decide computes the decisions for rec.
func Decide(rec *model.Recommendation, in DecideInput) *Decisions {
	d := &Decisions{Spot: in.Spot, HoursPerMonth: in.HoursPerMonth, Hints: in.Hints, Offers: make([]decide.Decision, len(rec.Offers))}
	if d.HoursPerMonth == 0 {
		d.HoursPerMonth = model.HoursPerMonth
	}
	savings := in.Savings && len(rec.Offers) > 0
	// Savings ranked aside read rec alone: they start before the offers'
	// decisions, on the machine's other core, which is idle from the end
	// of the ranking until the offers are laid out (~0.5 ms of recommend
	// --json's), unless spot moves offers first (spotFinishersFirst), as
	// the savings read the offers' order.
	early := savings && in.SavingsAside && in.Query.Pricing != model.Spot
	if early {
		d.rankSavingsAside(rec, in)
	}
	rates := make([]decide.InterruptionRate, len(rec.Offers))
	for i := range rec.Offers {
		o := &rec.Offers[i]
		if in.Rate != nil {
			rates[i] = in.Rate(o.Instance.Provider, o.Region, o.Instance.Type)
		}
		d.Offers[i] = decide.ForOffer(in.Catalog, o, rates[i], in.Spot, d.HoursPerMonth)
		if in.Rate == nil { // no rates at all: no spot estimate rather than a rate of zero
			d.Offers[i].Spot, d.Offers[i].SpotErr, d.Offers[i].SpotNeverFinishes = nil, "", false
		}
	}
	if in.Query.Pricing == model.Spot {
		d.shown = spotShown(rec.Offers, d.Offers, rates, in, d.HoursPerMonth)
		if d.shown != nil {
			spotLateOwn(rec, d.shown)
		}
		d.SpotLast = spotRank(rec, d.Offers, &d.shown)
	}
	if savings {
		d.fitTryFirst(rec, in)
	}
	if savings && in.SavingsAside && !early { // before the front: it needs none of it
		d.rankSavingsAside(rec, in)
	}
	// The front of what the views show: under --pricing spot the expected
	// time and cost with interruptions (ShownOffers), as the table ranks
	// them; otherwise the offers' own. Of the offers that fit across their
	// memory range when any has a job time (FittingPoints), as the ranking
	// and the answers weigh them.
	d.Front = decide.ParetoFront(FittingPoints(rec, decide.OfferPoints(d.ShownOffers(rec))))
	if savings && !in.SavingsAside {
		d.rankSavings(rec, in)
	}
	return d
}

// spotShown are offers as the views show them under --pricing spot: a
// spot offer with a spot estimate (decide.Decision.Spot) carries its
// expected job time and cost with interruptions (checkpoint writes,
// restarts, lost work: decide.SpotExpectedCost) in JobHours and JobUSD,
// and the 90% range of its time (Estimate.TimeBand, on a copy of the
// estimate) is the expected time at each end of the uninterrupted time's
// range, so JobBand and the table's range note carry the time estimate's
// errors through the spot model. Other offers are copied as they are. nil
// when no offer has a spot estimate: the views show the offers' own.
//
// The table, the "best:" line and the Spot lines then tell one story: a
// user acting on the table's first row pays what its Spot line says
// (tester's report: "$3.92" in the table and "best:", "expected $4.92"
// in the Spot line and the savings for the same verda 2B300 job).
func spotShown(offers []model.Offer, ds []decide.Decision, rates []decide.InterruptionRate, in DecideInput, hoursPerMonth float64) []model.Offer {
	var out []model.Offer
	for i := range offers {
		o, od := &offers[i], &ds[i]
		if od.Spot == nil || o.Pricing != model.Spot {
			continue
		}
		if out == nil {
			out = slices.Clone(offers)
		}
		out[i] = spotShownOffer(o, od, rates[i], in, hoursPerMonth)
	}
	return out
}

// spotShownOffer is o as spotShown shows it, od its decision with a spot
// estimate, rate its interruption rate.
func spotShownOffer(o *model.Offer, od *decide.Decision, rate decide.InterruptionRate, in DecideInput, hoursPerMonth float64) model.Offer {
	s := *o
	s.JobHours, s.JobUSD = od.Spot.ExpectedHours, od.Spot.ExpectedUSD
	if o.Estimate == nil || o.Estimate.TimeBand[1] <= 0 {
		return s
	}
	e := *o.Estimate
	for k, h := range o.Estimate.TimeBand {
		at := *o
		at.JobHours, at.JobUSD = h, h*o.USDPerHour
		if x := decide.ForOffer(in.Catalog, &at, rate, in.Spot, hoursPerMonth).Spot; x != nil {
			e.TimeBand[k] = x.ExpectedHours
		}
	}
	s.Estimate = &e
	spotLate(&s, o, od, in.Query.DeadlineHours)
	return s
}

// SpotView is model.Query.SpotView for in (its Catalog, Rate, Spot,
// HoursPerMonth and the query's deadline): a spot offer as Decide will
// show and rank it (spotShownOffer: the expected job time and cost with
// interruptions, the time range at them, late on them); one whose job
// would not finish on spot (decide.ErrSpotNeverFinishes), which Decide
// ranks after every other, at an infinite job time and cost. The matcher
// weighs the hosts of one provider, region and GPU on it, so the host it
// keeps is the one the shown ranking puts first. nil without rates (no
// spot estimates) or off spot pricing.
func SpotView(in DecideInput) func(o *model.Offer) (model.Offer, bool) {
	if in.Rate == nil || in.Query.Pricing != model.Spot {
		return nil
	}
	hpm := in.HoursPerMonth
	if hpm == 0 {
		hpm = model.HoursPerMonth
	}
	return func(o *model.Offer) (model.Offer, bool) {
		if o.Pricing != model.Spot {
			return *o, false
		}
		rate := in.Rate(o.Instance.Provider, o.Region, o.Instance.Type)
		od := decide.ForOffer(in.Catalog, o, rate, in.Spot, hpm)
		switch {
		case od.SpotNeverFinishes:
			v := *o
			v.JobHours, v.JobUSD = math.Inf(1), math.Inf(1)
			return v, true
		case od.Spot == nil:
			return *o, false
		}
		return spotShownOffer(o, &od, rate, in, hpm), true
	}
}

// spotLate judges the shown spot offer s (of o, with its decision od)
// against the deadline on its time with interruptions, as the table shows
// it, not on the uninterrupted time the ranking weighed (model.Offer.
// LateChance): late when decide.SpotLateChance says the chance is above
// the 5% a 90% range leaves (its hours W + n·δ + N·L, n = ⌈W/τ⌉ − 1
// checkpoint writes, N ~ Poisson(λT), summed over N with the time
// estimate's calibration) or when the deadline falls below the slow end of the time range s shows (the
// expected time at each end of the uninterrupted range: its warning and
// the table's note say the deadline falls inside it). An offer the ranking
// found late stays late (a spot job takes no less than W). Its chance is
// SpotLateChance's, at least the uninterrupted one.
func spotLate(s, o *model.Offer, od *decide.Decision, deadline float64) {
	if !(deadline > 0) || !o.HasJob || o.Estimate == nil || !o.Estimate.HasTime {
		return
	}
	c := spotMissChance(s, o, od, deadline, o.LateChance)
	if c == 0 {
		s.LateChance = 0
		return
	}
	s.LateChance, s.DeadlineHours = c, deadline
}

// spotMissChance is spotLate's chance that the shown spot offer s (of o,
// with its decision od) takes longer than hours: 0 when
// decide.SpotLateChance finds it not late, own (the uninterrupted
// chance, model.Offer.LateChance's) is 0 and hours meets the slow end of
// the time range s shows; otherwise SpotLateChance's chance, at least
// own, within 0.05–0.95.
func spotMissChance(s, o *model.Offer, od *decide.Decision, hours, own float64) float64 {
	chance, late := decide.SpotLateChance(od.Spot, od.CheckpointWriteHours, hours, o.Estimate.OverrunChance)
	if !late && own == 0 && hours >= s.Estimate.TimeBand[1] {
		return 0
	}
	return min(max(chance, own, 0.05), 0.95)
}

// MissChance returns the chance that the i-th of rec's offers, as d shows
// it (ShownOffers), takes longer than hours, judged as --deadline-hours
// judges its deadline: 0 when the slow end of the offer's 90% time range
// meets hours (at most the 5% a 90% range leaves above it); otherwise, on
// demand, model.Estimate.OverrunChance(hours) (model.Offer.LateChance's
// rule, VerdictFor on Estimate.TimeBand), and for a spot offer shown with
// interruptions the chance spotLate gives a deadline of hours
// (spotMissChance: decide.SpotLateChance, at least the uninterrupted
// chance). A job costs more than usd exactly when it takes longer than
// the hours usd buys at its price (model.Offer.JobBand bills each end of
// the time range alike; a reserved term that commits to more than usd is
// over it on every figure), so MissChance(rec, i, usd/USDPerHour) is the
// chance of going over a job budget. d may be nil: rec's own offers.
func (d *Decisions) MissChance(rec *model.Recommendation, i int, hours float64) float64 {
	o := &rec.Offers[i]
	if !(hours > 0) || !o.HasJob || o.Estimate == nil || !o.Estimate.HasTime || o.Estimate.TimeBand[1] <= 0 {
		return 0
	}
	own := 0.0
	if model.VerdictFor(o.Estimate.TimeBand, hours) != model.VerdictFits {
		own = o.Estimate.OverrunChance(hours)
	}
	if d == nil || !d.SpotShown(i) {
		return own
	}
	s := &d.ShownOffers(rec)[i]
	if s.Estimate == nil || s.Estimate == o.Estimate { // no time range with interruptions (spotShownOffer)
		return own
	}
	return spotMissChance(s, o, &d.Offers[i], hours, own)
}

// spotLateOwn gives rec's own offers the late chance their shown offers
// carry (spotLate), on a copy of rec.Offers when one changes (a
// Recommendation may be shared): JSON's deadline_miss_chance, the answers
// and the ranking's order read them.
func spotLateOwn(rec *model.Recommendation, shown []model.Offer) {
	copied := false
	for i := range shown {
		o := &rec.Offers[i]
		if o.LateChance == shown[i].LateChance && o.DeadlineHours == shown[i].DeadlineHours {
			continue
		}
		if !copied {
			rec.Offers, copied = slices.Clone(rec.Offers), true
			o = &rec.Offers[i]
		}
		o.LateChance, o.DeadlineHours = shown[i].LateChance, shown[i].DeadlineHours
	}
}

// spotRank orders, under --pricing spot, rec.Offers (a copy: a
// Recommendation may be shared), ds and *shown alike by what the views
// show: the offers whose spot job would not finish
// (decide.ErrSpotNeverFinishes: interruptions come faster than the job
// progresses between them) after the others, their order kept; the rest
// by the ranking's order (model.CompareOffers, the sort key and its ties)
// on the shown offers, so by the expected job cost or time with
// interruptions where there is a spot estimate. It returns how many
// offers would not finish. Ranked by their bare price, offers that would
// not finish were printed as best, unmarked, above a Spot line saying the
// job would not finish (attack r29); and a spot job ranked by its
// uninterrupted cost could lead the table at $3.79 behind one costing
// $3.92 that its Spot line prices at $4.92 (tester's report).
func spotRank(rec *model.Recommendation, ds []decide.Decision, shown *[]model.Offer) int {
	never := 0
	for i := range ds {
		if ds[i].SpotNeverFinishes {
			never++
		}
	}
	view := *shown
	if view == nil {
		view = rec.Offers
	}
	order := make([]int, len(ds))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c := cmp.Compare(b2i(ds[a].SpotNeverFinishes), b2i(ds[b].SpotNeverFinishes)); c != 0 {
			return c
		}
		if *shown == nil && never == 0 {
			return 0 // nothing shown otherwise: the ranking's order
		}
		return model.CompareOffers(&view[a], &view[b], rec.Sort)
	})
	moved := false
	for i, j := range order {
		moved = moved || i != j
	}
	if !moved {
		return never
	}
	offers := make([]model.Offer, len(order))
	dec := make([]decide.Decision, len(order))
	var sh []model.Offer
	if *shown != nil {
		sh = make([]model.Offer, len(order))
	}
	for i, j := range order {
		offers[i], dec[i] = rec.Offers[j], ds[j]
		if sh != nil {
			sh[i] = view[j]
		}
	}
	rec.Offers = offers
	copy(ds, dec)
	*shown = sh
	return never
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ShownOffers are rec's offers as the views show them: under --pricing
// spot, a spot offer with a spot estimate at its expected job time and
// cost with interruptions (see spotShown), in the order Decide ranked
// them by those figures; otherwise rec's own. rec is the recommendation
// Decide was given (its offers in Decide's order), or a Shown copy of it.
// JSON keeps rec's offers: job_cost_usd stays the uninterrupted cost,
// spot.expected_usd the expected one.
func (d *Decisions) ShownOffers(rec *model.Recommendation) []model.Offer {
	if d == nil || len(d.shown) != len(rec.Offers) {
		return rec.Offers
	}
	return d.shown
}

// Shown is rec with ShownOffers: what the text report and the
// configurator's offer list print. A copy; rec is left as it is.
func (d *Decisions) Shown(rec *model.Recommendation) *model.Recommendation {
	r := *rec
	r.Offers = d.ShownOffers(rec)
	return &r
}

// SpotShown reports whether the i-th of ShownOffers shows its expected
// job time and cost with interruptions rather than its uninterrupted one.
func (d *Decisions) SpotShown(i int) bool {
	return d != nil && d.shown != nil && i < len(d.Offers) && d.Offers[i].Spot != nil && d.shown[i].Pricing == model.Spot
}

// rankSavingsAside ranks d's savings on a goroutine of their own
// (DecideInput.SavingsAside; WaitSavings waits for them).
func (d *Decisions) rankSavingsAside(rec *model.Recommendation, in DecideInput) {
	d.savingsDone = make(chan struct{})
	go func() {
		defer close(d.savingsDone)
		stack.Grow() // the ranking's matcher goes 64 KB deep
		d.rankSavings(rec, in)
	}()
}

// fitTryFirst fills d.TryFirst: the change that makes the risky offer
// worth trying first (TryFirst of the offers as d shows them) fit across
// its memory range on its own host, priced as the savings price it.
func (d *Decisions) fitTryFirst(rec *model.Recommendation, in DecideInput) {
	_, at, _ := d.Shown(rec).TryFirst()
	if at < 0 || in.Catalog == nil {
		return
	}
	fit, ok := advice.FitOffer(in.Catalog, in.Workload, in.Query, rec, &rec.Offers[at], SpotJobCost(in.Catalog, in.Rate, in.Spot, d.HoursPerMonth))
	if !ok {
		return
	}
	d.TryFirst, d.tryFirstShown = &fit, fit.Offer
	if view := SpotView(in); view != nil {
		if s, ok := view(&fit.Offer); ok {
			d.tryFirstShown = s
		}
	}
}

// rankSavings fills d's savings (advice.Savings).
func (d *Decisions) rankSavings(rec *model.Recommendation, in DecideInput) {
	var err error
	d.SavingsBase, d.Savings, err = advice.Savings(in.Catalog, in.Workload, in.Query, rec, savingsPerKind, SpotJobCost(in.Catalog, in.Rate, in.Spot, d.HoursPerMonth))
	if err != nil {
		d.SavingsErr = err.Error()
	}
}

// SpotJobCost prices a spot offer's job for the savings (Decide's, and
// gpuplan plan's through plan.Savings) as the "Spot" line beside the
// offers does: decide.ForOffer with the rates and assumptions given, its
// expected cost with checkpoints and restarts counted
// (decide.SpotExpectedCost), so "pay spot" and that line say the same
// dollars for one offer. A job that would not finish on spot is no saving
// (ok false); one with no spot estimate (no price to compare, a serving
// job) keeps its bare price. nil without rates: the offers then have no
// spot estimate either, and spot keeps its bare price.
func SpotJobCost(cat *model.Catalog, rate func(provider, region, instanceType string) decide.InterruptionRate, a decide.SpotAssumptions, hoursPerMonth float64) advice.SpotJobCost {
	if rate == nil {
		return nil
	}
	return func(o *model.Offer) (float64, bool) {
		od := decide.ForOffer(cat, o, rate(o.Instance.Provider, o.Region, o.Instance.Type), a, hoursPerMonth)
		switch {
		case od.Spot != nil:
			return od.Spot.ExpectedUSD, true
		case od.SpotErr != "":
			return 0, false
		}
		return o.JobUSD, true
	}
}

// SpotJSON is an offer's job on spot with interruptions counted
// (decide.SpotExpectedCost), with the assumptions it rests on.
type SpotJSON struct {
	decide.SpotEstimate
	CheckpointWriteHours float64 `json:"checkpoint_write_hours"`
	RestartHours         float64 `json:"restart_hours"`
	// Assumptions names each input that is not a published figure:
	// "interruption rate", "checkpoint write speed", "restart time".
	Assumptions []string `json:"assumptions"`
}

// ParetoJSON is one offer on the time-against-cost front. Its Index is
// the offer's place in the whole ranking (rec.Offers), of which the
// JSON's offers are the first --limit rows: offers[index] only when they
// reach it, so it carries the members a reader acts on.
type ParetoJSON struct {
	decide.TimeCost
	Provider     string `json:"provider"`
	InstanceType string `json:"instance_type"`
	Region       string `json:"region"`
	Pricing      string `json:"pricing"`
}

// SavingsJSON is the "what saves the most" list: single changes priced by
// the real engine against BaseUSD, the cheapest offer's job (or month).
type SavingsJSON struct {
	BaseUSD float64         `json:"base_usd"`
	Changes []advice.Saving `json:"changes"`
	Error   string          `json:"error,omitempty"`
	// Headline is the change of changes the text lifts under "best:"
	// ("biggest saving:", HeadlineSaving): a change to the workload that
	// saves at least half the cost now on an offer that fits; left out
	// when there is none.
	Headline *advice.Saving `json:"headline,omitempty"`
}

// AssumptionsJSON are the spot inputs used for every offer.
type AssumptionsJSON struct {
	CheckpointWriteGBPerSecond float64 `json:"checkpoint_write_gb_per_s"`
	CheckpointWriteAssumption  bool    `json:"checkpoint_write_assumption"`
	RestartMinutes             float64 `json:"restart_minutes"`
	RestartAssumption          bool    `json:"restart_assumption"`
	HoursPerMonth              float64 `json:"hours_per_month"`
}

// AddDecisions fills the decision fields of j (built by NewRecommendJSON
// with the same limit) from d.
func (j *RecommendJSON) AddDecisions(rec *model.Recommendation, d *Decisions) {
	for i := range j.Offers {
		addOfferDecision(&j.Offers[i], &d.Offers[i], d)
		if w := d.shownWarnings(rec, i, nil); w != nil {
			j.Offers[i].Warnings = w
		}
	}
	j.addDecisionsHead(rec, d)
}

// shownWarnings are, for the i-th offer of rec when it is shown at its
// expected figures under spot (SpotShown) and late (spotLate), the
// shown offer's warnings, formatted through memo: its "may miss the
// deadline" gives the time range the table shows, with interruptions, as
// the text report's does, beside the chance JSON's deadline_miss_chance
// gives. When its spot plan takes no checkpoint, the spot warning says
// so (spotWarnings), as the text's does. nil otherwise: the offer's own
// warnings stand.
func (d *Decisions) shownWarnings(rec *model.Recommendation, i int, memo messageMemo) []string {
	o := &rec.Offers[i]
	if d.SpotShown(i) && d.shown[i].Late() {
		o = &d.shown[i]
	} else if !d.noCheckpoint(i) {
		return nil
	}
	return memo.strings(d.spotWarnings(i, o.WarningMessages()))
}

// spotWarnings is msgs, the i-th offer's warnings, with SpotWarning's
// "checkpoint often and resume" made model.SpotRestartWarning when the
// offer's spot plan takes no checkpoint though interruptions are priced
// (SpotLineIn's "no checkpoint: … an interruption restarts it"): one
// report does not advise both. msgs itself otherwise.
func (d *Decisions) spotWarnings(i int, msgs []model.Message) []model.Message {
	if !d.noCheckpoint(i) {
		return msgs
	}
	out := slices.Clone(msgs)
	for j := range out {
		if out[j].Key == model.SpotWarning {
			out[j] = model.Msg(model.SpotRestartWarning)
		}
	}
	return out
}

// noCheckpoint reports whether the i-th offer's spot plan prices
// interruptions but takes no checkpoint (the job is shorter than the
// checkpoint interval): an interruption restarts the job.
func (d *Decisions) noCheckpoint(i int) bool {
	if d == nil || i >= len(d.Offers) || d.Offers[i].Spot == nil {
		return false
	}
	e := d.Offers[i].Spot
	return e.InterruptionsPerHour > 0 && e.CheckpointWrites == 0
}

// addOfferDecision fills an offer's decision fields from its decision od.
func addOfferDecision(o *OfferJSON, od *decide.Decision, d *Decisions) {
	if od.Spot != nil {
		o.Spot = newSpotJSON(od.Spot, d.Spot, od)
	}
	for _, b := range od.Commitment {
		o.Commitment = append(o.Commitment, roundBreakEven(b))
	}
}

// addDecisionsHead is AddDecisions apart from the offers: the spot
// assumptions, the Pareto front and the savings; nothing for a nil d.
func (j *RecommendJSON) addDecisionsHead(rec *model.Recommendation, d *Decisions) {
	if d == nil {
		return
	}
	if ra := j.RiskyAhead; ra != nil {
		if d.shown != nil {
			// Its sentence names the figure the table shows (spot: the
			// expected job cost with interruptions), as the text report's
			// does; its members keep the offer's own (walk45c: "$5.20" in
			// JSON, "$8.00" in the table).
			ra.Note = RiskyAheadNote(nil, d.Shown(rec))
		}
		ra.setTryFirst(d.Shown(rec), d.TryFirst)
	}
	j.Assumptions = &AssumptionsJSON{CheckpointWriteGBPerSecond: Round(d.Spot.CheckpointWriteBytesPerSecond/1e9, 4),
		CheckpointWriteAssumption: d.Spot.WriteDefaulted, RestartMinutes: Round(d.Spot.RestartHours*60, 2),
		RestartAssumption: d.Spot.RestartDefaulted, HoursPerMonth: d.HoursPerMonth}
	j.Pareto = []ParetoJSON{}
	for _, p := range d.Front {
		o := &rec.Offers[p.Index]
		j.Pareto = append(j.Pareto, ParetoJSON{TimeCost: decide.TimeCost{Index: p.Index, Hours: RoundHours(p.Hours), USD: RoundUSD(p.USD)},
			Provider: o.Instance.Provider, InstanceType: o.Instance.Type, Region: o.Region, Pricing: string(o.Pricing)})
	}
	if j.stream == nil {
		j.Savings = newSavingsJSON(d)
	}
}

// newSavingsJSON is d's savings as JSON, nil when there are none (not
// asked, --no-savings, or nothing to compare with); it waits for savings
// ranked aside.
func newSavingsJSON(d *Decisions) *SavingsJSON {
	d.WaitSavings()
	if d.Savings == nil && d.SavingsErr == "" {
		return nil
	}
	s := &SavingsJSON{BaseUSD: Round(d.SavingsBase, 2), Changes: []advice.Saving{}, Error: d.SavingsErr}
	round := func(c advice.Saving) advice.Saving {
		c.USD, c.SavingUSD, c.SavingPct = Round(c.USD, 2), Round(c.SavingUSD, 2), Round(c.SavingPct, 1)
		return c
	}
	for _, c := range d.Savings {
		s.Changes = append(s.Changes, round(c))
	}
	if h := HeadlineSaving(d); h != nil {
		c := round(*h)
		s.Headline = &c
	}
	return s
}

// spotAssumptions lists the inputs of an estimate that are assumptions.
func spotAssumptions(rate decide.InterruptionRate, a decide.SpotAssumptions) []string {
	out := []string{}
	if rate.Assumption {
		out = append(out, "interruption rate")
	}
	if a.WriteDefaulted {
		out = append(out, "checkpoint write speed")
	}
	if a.RestartDefaulted {
		out = append(out, "restart time")
	}
	return out
}

func newSpotJSON(e *decide.SpotEstimate, a decide.SpotAssumptions, od *decide.Decision) *SpotJSON {
	r := *e
	for _, f := range []*float64{&r.InterruptionsPerHour, &r.Rate.PerMonth, &r.Rate.LowPerMonth, &r.Rate.HighPerMonth} {
		*f = Round(*f, 6)
	}
	for _, f := range []*float64{&r.CheckpointEveryHours, &r.YoungIntervalHours, &r.DalyIntervalHours, &r.LostHoursPerInterrupt,
		&r.ExpectedInterruptions, &r.ExpectedHours, &r.P10Hours, &r.P50Hours, &r.P90Hours, &r.OnDemandHours} {
		*f = Round(*f, 3)
	}
	for _, f := range []*float64{&r.ExpectedUSD, &r.P10USD, &r.P50USD, &r.P90USD, &r.OnDemandUSD, &r.SavingUSD, &r.HighRateExpectedUSD} {
		*f = Round(*f, 2)
	}
	s := &SpotJSON{SpotEstimate: r, RestartHours: Round(a.RestartHours, 4), Assumptions: spotAssumptions(e.Rate, a)}
	s.CheckpointWriteHours = Round(od.CheckpointWriteHours, 4)
	return s
}

func roundBreakEven(b decide.BreakEven) decide.BreakEven {
	b.USDPerHour = Round(b.USDPerHour, 4)
	for _, f := range []*float64{&b.MonthlyUSD, &b.TermUSD, &b.OnDemandMonthlyUSD, &b.SpotMonthlyUSD, &b.EffectiveUSDPerUsedHour} {
		*f = Round(*f, 2)
	}
	b.VsOnDemandHoursPerMonth, b.VsSpotHoursPerMonth = Round(b.VsOnDemandHoursPerMonth, 1), Round(b.VsSpotHoursPerMonth, 1)
	return b
}

// SpotLineIn is SpotLine in lang's language.
func SpotLineIn(lang *i18n.Printer, e *decide.SpotEstimate, a decide.SpotAssumptions) string {
	var b strings.Builder
	if e.ExpectedUSD > e.P90USD && USD(e.ExpectedUSD) != USD(e.P90USD) {
		// Rare interruptions (P(N = 0) ≥ 0.9, decide.SpotExpectedCost):
		// P10, the median and P90 are the job uninterrupted, and the mean
		// the table ranks by is above P90, pulled up by the few runs that
		// pay an interruption. Named as a mean, with the median, it does
		// not read as a range that misses its own figure.
		lang.Fprintf(&b, "expected %s (a mean above P90: median %s, P10–P90 %s–%s; most runs are not interrupted, a rare interruption adds %s) in %s, %.2f interruptions",
			USD(e.ExpectedUSD), USD(e.P50USD), USD(e.P10USD), USD(e.P90USD), HoursIn(lang, e.LostHoursPerInterrupt),
			HoursIn(lang, e.ExpectedHours), e.ExpectedInterruptions)
	} else {
		lang.Fprintf(&b, "expected %s (P10–P90 %s–%s) in %s, %.2f interruptions", USD(e.ExpectedUSD), USD(e.P10USD), USD(e.P90USD),
			HoursIn(lang, e.ExpectedHours), e.ExpectedInterruptions)
	}
	switch {
	case e.InterruptionsPerHour > 0 && e.CheckpointWrites == 0:
		// decide.SpotExpectedCost takes none (τ ≥ W): one at the end
		// saves nothing, and the final save is made on demand too.
		lang.Fprintf(&b, "; no checkpoint: the job is shorter than the checkpoint interval, so an interruption restarts it")
	case e.InterruptionsPerHour > 0:
		lang.Fprintf(&b, "; checkpoint every %s", HoursIn(lang, e.CheckpointEveryHours))
	}
	switch {
	case e.OnDemandUSD > 0 && e.ExpectedUSD >= e.OnDemandUSD:
		// Interruptions can cost more than the discount (walk45b: daytona
		// MI355X, spot $148 expected against $142 on-demand, said nothing).
		lang.Fprintf(&b, "; on-demand %s costs no more: spot saves nothing on this job", USD(e.OnDemandUSD))
	case e.OnDemandUSD > 0:
		lang.Fprintf(&b, "; on-demand %s", USD(e.OnDemandUSD))
	}
	rate := lang.Sprintf("%.0f%%/month", e.Rate.PerMonth*100)
	if e.Rate.Bucket != "" {
		rate += lang.Sprintf(" (bucket %s)", e.Rate.Bucket)
	}
	if as := spotAssumptions(e.Rate, a); len(as) > 0 {
		lang.Fprintf(&b, "; rate %s; assumption: %s", rate, strings.Join(translate(lang, as...), lang.T(", ")))
	} else {
		lang.Fprintf(&b, "; rate %s from AWS Spot Instance Advisor", rate)
	}
	return b.String()
}

// CommitmentLineIn is CommitmentLine in lang's language.
func CommitmentLineIn(lang *i18n.Printer, bs []decide.BreakEven) string {
	var parts []string
	for _, b := range bs {
		term := strings.TrimPrefix(string(b.Term), "reserved-")
		if lang.Chinese() {
			term = PricingName(lang, b.Term)
		}
		s := lang.Sprintf("%s at %s/h", term, USDHour(b.USDPerHour))
		if b.VsOnDemandHoursPerMonth > 0 {
			s += lang.Sprintf(" beats on-demand above %.0f h/month", b.VsOnDemandHoursPerMonth)
		} else {
			s += lang.T(" never beats on-demand")
		}
		if b.VsSpotHoursPerMonth > 0 {
			s += lang.Sprintf(", spot above %.0f h/month", b.VsSpotHoursPerMonth)
		} else if b.SpotMonthlyUSD > 0 {
			s += lang.T(", never spot")
		}
		verdict := "on-demand is cheaper"
		switch {
		case b.BeatsOnDemand && b.BeatsSpot:
			verdict = "the cheapest"
		case b.BeatsOnDemand:
			verdict = "beats on-demand, spot is cheaper"
		}
		s += lang.Sprintf(" (at %.0f h/month: %s/month committed vs %s on-demand: %s)", b.UsedHoursPerMonth, USD(b.MonthlyUSD), USD(b.OnDemandMonthlyUSD), lang.T(verdict))
		parts = append(parts, s)
	}
	return strings.Join(parts, lang.T("; "))
}

// decisionOffers is how many offers of the table get spot and commitment
// lines in the text report.
const decisionOffers = 3

// WriteDecisions prints, after WriteRecommend, the spot and commitment
// lines of the first shown offers, the spot assumptions, and the "What
// saves the most" list.
func WriteDecisions(out io.Writer, r *Renderer, rec *model.Recommendation, d *Decisions) error {
	if len(rec.Offers) == 0 {
		return nil
	}
	st := NewStyles(r)
	lang := r.Lang
	var b strings.Builder
	// The offers as the table shows them (ShownOffers): its rows, and so
	// these lines, join regions whose shown figures agree.
	all := d.ShownOffers(rec)
	offers, _ := CollapseRegions(all, decisionOffers)
	idx := 0
	var lines []string
	spot := false
	for i := range offers {
		// CollapseRegions skips same-but-region offers; find the original.
		for idx < len(all) && !(all[idx].Instance == offers[i].Instance && all[idx].GPUs == offers[i].GPUs && all[idx].USDPerHour == offers[i].USDPerHour) {
			idx++
		}
		if idx == len(all) {
			break
		}
		od := &d.Offers[idx]
		o := &offers[i]
		name := lang.Sprintf("%s %s in %s", o.Instance.Provider, r.Cut(o.Instance.Type, 26), OfferRegionIn(lang, o.Instance.Provider, o.Region))
		if model.RegionUnstated(o.Region) { // not "in location not stated"
			name = lang.Sprintf("%s %s (location not stated)", o.Instance.Provider, r.Cut(o.Instance.Type, 26))
		}
		if od.Spot != nil {
			spot = true
			lines = append(lines, lang.Sprintf("  %s %s: %s", st.Key.Render(lang.T("Spot")), name, SpotLineIn(lang, od.Spot, d.Spot)))
		} else if od.SpotErr != "" {
			lines = append(lines, lang.Sprintf("  %s %s: %s", st.Key.Render(lang.T("Spot")), name, lang.T(od.SpotErr)))
		}
		if len(od.Commitment) > 0 {
			lines = append(lines, lang.Sprintf("  %s %s: %s", st.Key.Render(lang.T("Commitment")), name, CommitmentLineIn(lang, od.Commitment)))
		} else {
			lines = append(lines, lang.Sprintf("  %s %s: no published 1- or 3-year rate for %s", st.Key.Render(lang.T("Commitment")), name, o.Instance.Provider))
		}
		idx++
	}
	if len(lines) > 0 {
		fmt.Fprintf(&b, "\n%s\n%s\n", st.Heading.Render(lang.T("Spot and commitments")), strings.Join(lines, "\n"))
		if spot {
			fmt.Fprintf(&b, "  %s\n", st.Muted.Render(AssumptionLineIn(lang, d)))
		}
	}
	if d.WaitSavings(); len(d.Savings) > 0 {
		head := lang.Sprintf("What saves the most (each change alone, priced by the estimator; now %s)", USD(d.SavingsBase))
		if !rec.Offers[0].HasJob { // no dataset: each change weighed by the month (advice.EvalCheapestJob)
			head = lang.Sprintf("What saves the most (each change alone, priced by the estimator; now %s a month)", USD(d.SavingsBase))
		}
		fmt.Fprintf(&b, "\n%s\n", st.Heading.Render(head))
		b.WriteString(SavingsListFor(lang, rec, d.Savings, 6))
	}
	_, err := io.WriteString(r.Writer(out), b.String())
	return err
}

// AssumptionLineIn is AssumptionLine in lang's language.
func AssumptionLineIn(lang *i18n.Printer, d *Decisions) string {
	hint := func(flag string) string {
		if d.Hints {
			return lang.T("; ") + flag
		}
		return ""
	}
	w := lang.Sprintf("checkpoint write %.3g GB/s", d.Spot.CheckpointWriteBytesPerSecond/1e9)
	if d.Spot.WriteDefaulted {
		w += lang.Sprintf(" (assumption: gp3 disk baseline%s)", hint("--checkpoint-write-gbps"))
	}
	r := lang.Sprintf("restart %.0f min", d.Spot.RestartHours*60)
	if d.Spot.RestartDefaulted {
		r += lang.Sprintf(" (assumption%s)", hint("--restart-minutes"))
	}
	return lang.Sprintf("spot inputs: %s, %s; commitments at %.0f h/month", w, r, d.HoursPerMonth)
}

// Answer is the reply to a direct question: "finish by DATE at the
// lowest cost" (CheapestWithin) or "the fastest within $X"
// (FastestWithin). Offer is nil when nothing qualifies.
type Answer struct {
	Question string      `json:"question"`
	Limit    float64     `json:"limit"` // hours or USD
	Offer    *ParetoJSON `json:"offer"`
	// MissChance is, when Offer meets the limit only on its expected
	// figure (its 90% range does not), the chance (0.05–0.95, to the
	// nearest 0.05) that it misses it (Decisions.MissChance); left out
	// otherwise. Riskier is, when Offer meets the limit across its range,
	// the cheaper (--finish-by) or faster (--max-job-cost) offer that
	// meets it only on its expected figure, and RiskierMissChance its
	// chance of missing it; left out when there is none.
	MissChance        *float64    `json:"miss_chance,omitempty"`
	Riskier           *ParetoJSON `json:"riskier_offer,omitempty"`
	RiskierMissChance *float64    `json:"riskier_miss_chance,omitempty"`
	Text              string      `json:"text"`
	// TryFirst is, when Offer fits across its memory range, a borderline
	// offer that meets the limit across its time range at most half
	// Offer's cost (--finish-by) or time (--max-job-cost), and at most
	// 1 − its chance of running out of memory (TryFirstOOMChance): the
	// "try first:" rule under best (model.TryFirstShare) on the answer's
	// own question. Left out otherwise. Added after Text, so the members
	// before keep their places.
	TryFirst          *ParetoJSON `json:"try_first_offer,omitempty"`
	TryFirstOOMChance *float64    `json:"try_first_oom_chance,omitempty"`
	// Msg is Text as a message, for the text report's language; JSON
	// keeps the English Text.
	Msg model.Message `json:"-"`
}

// setText sets a's Text (English) and Msg.
func (a *Answer) setText(m model.Message) { a.Msg, a.Text = m, m.String() }

// AnswerText is a's text in lang's language.
func AnswerText(lang *i18n.Printer, a *Answer) string {
	if a.Msg.IsZero() {
		return lang.T(a.Text)
	}
	return lang.Message(a.Msg)
}

func answerOffer(rec *model.Recommendation, p decide.TimeCost) *ParetoJSON {
	o := &rec.Offers[p.Index]
	return &ParetoJSON{TimeCost: decide.TimeCost{Index: p.Index, Hours: RoundHours(p.Hours), USD: RoundUSD(p.USD)},
		Provider: o.Instance.Provider, InstanceType: o.Instance.Type, Region: o.Region, Pricing: string(o.Pricing)}
}

func describePoint(rec *model.Recommendation, p decide.TimeCost) model.Message {
	m := describeFit(rec, p)
	if o := &rec.Offers[p.Index]; o.Late() { // the table's "~" job time: say it, as the borderline's chance
		return model.Msg("%v (may miss the %s h deadline: about %.0f%% chance)", m, model.FormatAsGiven(o.DeadlineHours), model.RoundChance(o.LateChance)*100)
	}
	return m
}

// describeFit is describePoint without the deadline.
func describeFit(rec *model.Recommendation, p decide.TimeCost) model.Message {
	o := &rec.Offers[p.Index]
	region := regionArgAt(rec.Offers, p.Index)
	if model.RegionUnstated(o.Region) { // not "in location not stated" (Daytona's "earth")
		if o.Risky() {
			return model.Msg("%s %s (location not stated, %s): %s, %s (borderline: %.0f%% chance of running out of memory)", o.Instance.Provider, o.Instance.Type, model.Msg(string(o.Pricing)),
				hoursMsg(p.Hours), USD(p.USD), model.RoundChance(o.OOMChance)*100)
		}
		return model.Msg("%s %s (location not stated, %s): %s, %s", o.Instance.Provider, o.Instance.Type, model.Msg(string(o.Pricing)),
			hoursMsg(p.Hours), USD(p.USD))
	}
	if o.Risky() {
		return model.Msg("%s %s in %s (%s): %s, %s (borderline: %.0f%% chance of running out of memory)", o.Instance.Provider, o.Instance.Type, region, model.Msg(string(o.Pricing)),
			hoursMsg(p.Hours), USD(p.USD), model.RoundChance(o.OOMChance)*100)
	}
	return model.Msg("%s %s in %s (%s): %s, %s", o.Instance.Provider, o.Instance.Type, region, model.Msg(string(o.Pricing)),
		hoursMsg(p.Hours), USD(p.USD))
}

// regionArgAt is the region of offers[i] as a sentence names it
// (RegionArg); for a provider whose regions are unconfirmed, "any of N
// regions" when the offers beside it differ only by region (OfferRegionArg),
// as its table row says.
func regionArgAt(offers []model.Offer, i int) any {
	o := &offers[i]
	if !model.RegionsUnconfirmed(o.Instance.Provider) {
		return RegionArg(o.Region)
	}
	n := 1
	for j := i; j > 0 && SameButRegion(&offers[j-1], &offers[j]); j-- {
		n++
	}
	for j := i; j+1 < len(offers) && SameButRegion(&offers[j], &offers[j+1]); j++ {
		n++
	}
	if n == 1 {
		return RegionArg(o.Region)
	}
	return OfferRegionArg(o.Instance.Provider, fmt.Sprintf("%s +%d", o.Region, n-1))
}

// FittingPoints are the points whose offers fit across their memory range
// (not model.Offer.Risky), all of pts when none does: the time-against-cost
// front is drawn from them (walk45c: a borderline 8×B200 stood on the
// front, unmarked, and kept the cheapest offer that fits off it), and an
// answer picks among them first, as the ranking puts borderline offers
// after every offer that fits (walk45b: --finish-by answered with an offer
// the same run called 10% likely to run out of memory).
func FittingPoints(rec *model.Recommendation, pts []decide.TimeCost) []decide.TimeCost {
	out := make([]decide.TimeCost, 0, len(pts))
	for _, p := range pts {
		if !rec.Offers[p.Index].Risky() {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return pts
	}
	return out
}

// answerTiers are the points an answer picks from, in turn, as the
// ranking orders its offers: those that fit across their memory range
// and meet both the deadline and the answer's limit at the slow end of
// their time range (neither model.Offer.Risky nor Late, and miss(p) = 0;
// under spot on the time with interruptions, spotLate and MissChance),
// then those that fit (FittingPoints), then all of pts. A late offer
// cheaper than every offer on time was the answer to --finish-by while
// the table ranked it after them; so was one that met --finish-by only
// on its expected time, 13.4 h against 14 h with a range to 35.8 h
// (fresh-user walk), where --deadline-hours 14 put a 1.7 h offer first.
// When only a late, risky or borderline offer meets the limit, its line
// says its chance. miss may be nil: no limit of its own.
func answerTiers(rec *model.Recommendation, pts []decide.TimeCost, miss func(decide.TimeCost) float64) [][]decide.TimeCost {
	fit := FittingPoints(rec, pts)
	onTime := make([]decide.TimeCost, 0, len(fit))
	for _, p := range fit {
		if o := &rec.Offers[p.Index]; !o.Risky() && !o.Late() && (miss == nil || miss(p) == 0) {
			onTime = append(onTime, p)
		}
	}
	return [][]decide.TimeCost{onTime, fit, pts}
}

// hoursMsg is Hours as a message, each unit translated as HoursIn's
// ("1.7 h" is "1.7 小时" in Chinese, as the configurator says it, not
// "1.7 h"; "4.2 days" is "4.2 天").
func hoursMsg(h float64) model.Message {
	switch {
	case h <= 0 || math.IsNaN(h):
		return model.Msg("%s", "—")
	case h < 1:
		return model.Msg("%.0f min", math.Max(h*60, 1))
	case h < 48:
		return model.Msg("%.1f h", h)
	case h < 24*365:
		return model.Msg("%.1f days", h/24)
	case h < 24*365*1000:
		return model.Msg("%.1f years", h/24/365)
	case h < 24*365*1e6: // a far --finish-by date: 7973 years, not 8e+03
		return model.Msg("%.0f years", h/24/365)
	}
	return model.Msg("%.2g years", h/24/365)
}

// AnswerFinishWithin answers "the cheapest offer that finishes within
// hours" (asked as as, e.g. "2027-01-31"), judging the limit as
// --deadline-hours judges its deadline: the cheapest offer whose 90%
// time range meets it (Decisions.MissChance 0: at most 5% chance of
// missing it) answers before a cheaper one that meets it only on its
// expected time, as the ranking puts offers that may miss the deadline
// after every one that meets it; a user who asks what finishes by a date
// is asking for a finish they can count on, and --deadline-hours 14 and
// --finish-by 14h then name the same offer. The cheaper, riskier offer
// is named with its chance (Riskier), so the saving it would bring is not
// hidden; when only a risky offer meets the limit, it answers, saying
// its chance (MissChance). d gives the shown offers' figures (nil: rec's
// own).
func AnswerFinishWithin(rec *model.Recommendation, d *Decisions, pts []decide.TimeCost, hours float64, as string) Answer {
	a := Answer{Question: "finish-by " + as, Limit: Round(hours, 3)}
	if len(pts) == 0 {
		a.setText(model.Msg("no offer has a job time: give a dataset (--dataset-samples or --dataset-tokens)"))
		return a
	}
	miss := func(p decide.TimeCost) float64 { return d.MissChance(rec, p.Index, hours) }
	p, ok := pick(rec, pts, miss, func(pts []decide.TimeCost) (decide.TimeCost, bool) { return decide.CheapestWithin(pts, hours) })
	if ok {
		a.Offer = answerOffer(rec, p)
		m := describePoint(rec, p)
		if c := miss(p); c > 0 {
			a.MissChance = ptr(model.RoundChance(c))
			m = model.Msg("%v (may take longer than %s: about %.0f%% chance)", m, hoursMsg(hours), model.RoundChance(c)*100)
		} else if q, ok := decide.CheapestWithin(FittingPoints(rec, pts), hours); ok && q.USD < p.USD && USD(q.USD) != USD(p.USD) && !rec.Offers[q.Index].Late() && miss(q) > 0 {
			// Cheaper as printed: "cheaper" beside the same "$3.40" read as a
			// slip (walk48), and a saving under a cent is not one.
			c := miss(q)
			a.Riskier, a.RiskierMissChance = answerOffer(rec, q), ptr(model.RoundChance(c))
			m = model.Msg("%v; cheaper, but may take longer than %s (about %.0f%% chance): %v", m, hoursMsg(hours), model.RoundChance(c)*100, describePoint(rec, q))
		}
		if q, ok := tryFirstPoint(rec, pts, p, miss, func(pts []decide.TimeCost) (decide.TimeCost, bool) { return decide.CheapestWithin(pts, hours) },
			func(p decide.TimeCost) float64 { return p.USD }); ok {
			a.TryFirst, a.TryFirstOOMChance = answerOffer(rec, q), ptr(model.RoundChance(rec.Offers[q.Index].OOMChance))
			m = model.Msg("%v; far cheaper to try first: %v", m, describePoint(rec, q))
		}
		a.setText(model.Msg("cheapest finishing within %s: %s", hoursMsg(hours), m))
		return a
	}
	fast := slices.MinFunc(pts, func(a, b decide.TimeCost) int { return cmp.Compare(a.Hours, b.Hours) })
	a.setText(model.Msg("no offer finishes within %s; the fastest is %s", hoursMsg(hours), describePoint(rec, fast)))
	return a
}

// tryFirstPoint is, for an answer p that fits across its memory range,
// the borderline point of pts (model.Offer.Risky, not late) that meets
// the answer's limit across its time range (miss 0) and is the answer's
// own pick among them (within), when its figure (fig: the cost for
// --finish-by, the time for --max-job-cost) is at most
// min(model.TryFirstShare, 1 − its chance) of p's: the rule of the "try
// first:" line under best (model.Recommendation.TryFirst), put to the
// answer's question (walk: --finish-by 300d answered a 224-day, $1.55M
// GB300 while 8×MI355X, borderline at about 10%, ran the job in 17 h for
// $1,167). ok is false otherwise.
func tryFirstPoint(rec *model.Recommendation, pts []decide.TimeCost, p decide.TimeCost, miss func(decide.TimeCost) float64,
	within func([]decide.TimeCost) (decide.TimeCost, bool), fig func(decide.TimeCost) float64) (decide.TimeCost, bool) {
	if rec.Offers[p.Index].Risky() || !(fig(p) > 0) {
		return decide.TimeCost{}, false
	}
	var risky []decide.TimeCost
	for _, q := range pts {
		if o := &rec.Offers[q.Index]; o.Risky() && !o.Late() && miss(q) == 0 {
			risky = append(risky, q)
		}
	}
	q, ok := within(risky)
	if !ok || fig(q) > min(model.TryFirstShare, 1-model.RoundChance(rec.Offers[q.Index].OOMChance))*fig(p) {
		return decide.TimeCost{}, false
	}
	return q, true
}

// pick is the first answer of within in answerTiers' tiers.
func pick(rec *model.Recommendation, pts []decide.TimeCost, miss func(decide.TimeCost) float64, within func([]decide.TimeCost) (decide.TimeCost, bool)) (decide.TimeCost, bool) {
	for _, tier := range answerTiers(rec, pts, miss) { // only a late, risky or borderline offer meets it: its line says so
		if p, ok := within(tier); ok {
			return p, true
		}
	}
	return decide.TimeCost{}, false
}

// AnswerMaxJobCost answers "the fastest offer whose job costs at most
// usd", judging the budget as AnswerFinishWithin judges its limit: the
// job's cost has the range of its time (model.Offer.JobBand), and it goes
// over usd exactly when the job takes longer than the hours usd buys
// (Decisions.MissChance at usd ÷ the offer's price). The fastest offer
// that stays within usd across its range answers before a faster one
// within it only on its expected cost, which is named with its chance
// (Riskier); when only a risky offer is within usd, it answers, saying
// its chance. --budget-job, a filter, still weighs the expected cost.
func AnswerMaxJobCost(rec *model.Recommendation, d *Decisions, pts []decide.TimeCost, usd float64) Answer {
	a := Answer{Question: "max-job-cost", Limit: usd}
	if len(pts) == 0 {
		a.setText(model.Msg("no offer has a job cost: give a dataset (--dataset-samples or --dataset-tokens)"))
		return a
	}
	miss := func(p decide.TimeCost) float64 {
		if h := rec.Offers[p.Index].USDPerHour; h > 0 {
			return d.MissChance(rec, p.Index, usd/h)
		}
		return 0
	}
	p, ok := pick(rec, pts, miss, func(pts []decide.TimeCost) (decide.TimeCost, bool) { return decide.FastestWithin(pts, usd) })
	if ok {
		a.Offer = answerOffer(rec, p)
		m := describePoint(rec, p)
		if c := miss(p); c > 0 {
			a.MissChance = ptr(model.RoundChance(c))
			m = model.Msg("%v (may cost more than %s: about %.0f%% chance)", m, USD(usd), model.RoundChance(c)*100)
		} else if q, ok := decide.FastestWithin(FittingPoints(rec, pts), usd); ok && q.Hours < p.Hours && hoursMsg(q.Hours).String() != hoursMsg(p.Hours).String() && !rec.Offers[q.Index].Late() && miss(q) > 0 {
			// Faster as printed, as the finish-by answer's "cheaper".
			c := miss(q)
			a.Riskier, a.RiskierMissChance = answerOffer(rec, q), ptr(model.RoundChance(c))
			m = model.Msg("%v; faster, but may cost more than %s (about %.0f%% chance): %v", m, USD(usd), model.RoundChance(c)*100, describePoint(rec, q))
		}
		if q, ok := tryFirstPoint(rec, pts, p, miss, func(pts []decide.TimeCost) (decide.TimeCost, bool) { return decide.FastestWithin(pts, usd) },
			func(p decide.TimeCost) float64 { return p.Hours }); ok {
			a.TryFirst, a.TryFirstOOMChance = answerOffer(rec, q), ptr(model.RoundChance(rec.Offers[q.Index].OOMChance))
			m = model.Msg("%v; far faster to try first: %v", m, describePoint(rec, q))
		}
		a.setText(model.Msg("fastest within %s: %s", USD(usd), m))
		return a
	}
	cheap := slices.MinFunc(pts, func(a, b decide.TimeCost) int { return cmp.Compare(a.USD, b.USD) })
	a.setText(model.Msg("no offer's job costs %s or less; the cheapest is %s", USD(usd), describePoint(rec, cheap)))
	return a
}

// ParetoStep is how a front point compares with the next slower, cheaper
// one: "2.0× faster for +10%".
func ParetoStep(p, next decide.TimeCost) string { return ParetoStepIn(nil, p, next) }

// ParetoStepIn is ParetoStep in lang's language.
func ParetoStepIn(lang *i18n.Printer, p, next decide.TimeCost) string {
	if next.USD <= 0 || p.Hours <= 0 {
		return ""
	}
	pct := (p.USD/next.USD - 1) * 100
	if pct < 1 {
		return lang.Sprintf("%.1f× faster for +%.1f%%", next.Hours/p.Hours, pct)
	}
	return lang.Sprintf("%.1f× faster for +%.0f%%", next.Hours/p.Hours, pct)
}

// WritePareto prints the time-against-cost front, fastest first, each
// point with what it costs over the next cheaper one, then the answers.
func WritePareto(out io.Writer, r *Renderer, rec *model.Recommendation, d *Decisions, answers []Answer) error {
	st := NewStyles(r)
	lang := r.Lang
	var b strings.Builder
	switch {
	case len(rec.Offers) == 0:
		fmt.Fprintf(&b, "%s\n", st.Bad.Render(lang.T("No offer runs this workload with these filters.")))
	case len(d.Front) == 0:
		fmt.Fprintf(&b, "%s\n", st.Muted.Render(lang.T("No offer has a job time: give a dataset (--dataset-samples or --dataset-tokens) to weigh time against cost.")))
	default:
		fmt.Fprintf(&b, "%s\n", st.Heading.Render(lang.Sprintf("Time against cost: %d of %d offers are on the front (none is both faster and cheaper)", len(d.Front), len(rec.Offers))))
		rows := make([][]string, len(d.Front))
		for i, p := range d.Front {
			o := &rec.Offers[p.Index]
			step := lang.T("cheapest")
			if i+1 < len(d.Front) {
				step = ParetoStepIn(lang, p, d.Front[i+1])
			}
			rows[i] = []string{HoursIn(lang, p.Hours), USD(p.USD), step, o.Instance.Provider, r.Cut(o.Instance.Type, 26), r.regionCell(lang, o.Region, 18), fmt.Sprintf("%d×%s", o.GPUs, o.GPU.Key), PricingName(lang, o.Pricing)}
		}
		fmt.Fprintf(&b, "%s\n", r.tableRight(translate(lang, "job time", "job cost", "vs next cheaper", "provider", "instance", "region", "GPUs", "pricing"), rows, map[int]bool{0: true, 1: true}))
	}
	for i := range answers {
		fmt.Fprintf(&b, "%s %s\n", st.Good.Render("→"), AnswerText(lang, &answers[i]))
	}
	_, err := io.WriteString(r.Writer(out), b.String())
	return err
}

// WriteDecisionsAnswers is WriteDecisions followed by the answers to the
// direct questions, unless d carries them (Decisions.Answers: printed
// under best: by WriteRecommendDecided).
func WriteDecisionsAnswers(out io.Writer, r *Renderer, rec *model.Recommendation, d *Decisions, answers []Answer) error {
	if err := WriteDecisions(out, r, rec, d); err != nil {
		return err
	}
	if len(answers) == 0 || d != nil && len(d.Answers) > 0 {
		return nil
	}
	st := NewStyles(r)
	var b strings.Builder
	b.WriteString("\n")
	for i := range answers {
		fmt.Fprintf(&b, "%s %s\n", st.Good.Render("→"), AnswerText(r.Lang, &answers[i]))
	}
	_, err := io.WriteString(r.Writer(out), b.String())
	return err
}

// minSavingUSD hides changes that make no difference (a filter that keeps
// the offer already chosen).
const minSavingUSD = 0.005

// SavingsList renders up to n changes that save money, largest first; when
// none does, the up to 3 that cost least more, so the user sees the
// current choice is already the cheapest.
func SavingsList(savings []advice.Saving, n int) string { return SavingsListIn(nil, savings, n) }

// SavingsListFor is SavingsListIn for the savings of rec (advice.Savings):
// a saving that is an offer of rec's table already (advice.Saving.Rank) is
// said as that row and why it ranks below the best, not as a filter to
// set ("row 2 (primeintellect 8×a100-80gb in DE) is $0.17 (4%) cheaper
// but rents 8 GPUs for a 1-GPU job").
func SavingsListFor(lang *i18n.Printer, rec *model.Recommendation, savings []advice.Saving, n int) string {
	return savingsList(lang, rec, savings, n)
}

// SavedPct is a saving's share of the cost it is taken from, percent: whole
// from 1%, one decimal below ("0.3%": $10 of $3,102 is not "0%"), and
// "<0.1%" below that; and alike at the other end, one decimal from 99.5%
// and ">99.9%" above that, as only a free change saves 100% (walk: "saves
// $1.2M (100%)" of a $1.2M job read as free; it costs $1,028).
func SavedPct(p float64) string {
	switch {
	case p >= 99.95 && p < 100:
		return ">99.9%"
	case p >= 99.5 && p < 100:
		return fmt.Sprintf("%.1f%%", p)
	case p >= 0.95:
		return fmt.Sprintf("%.0f%%", p)
	case p >= 0.1:
		return fmt.Sprintf("%.1f%%", p)
	}
	return "<0.1%"
}

// SavingsListIn is SavingsList in lang's language; changes are padded by
// display width.
func SavingsListIn(lang *i18n.Printer, savings []advice.Saving, n int) string {
	return savingsList(lang, nil, savings, n)
}

// savingsList is SavingsListFor; rec nil names a ranked offer by its rank.
func savingsList(lang *i18n.Printer, rec *model.Recommendation, savings []advice.Saving, n int) string {
	change := func(s *advice.Saving) string {
		if s.ChangeMsg.IsZero() {
			return PadRight(lang.T(s.Change), 52)
		}
		return PadRight(lang.Message(s.ChangeMsg), 52)
	}
	var b strings.Builder
	shown := 0
	for _, s := range savings {
		if shown == n || s.SavingUSD < minSavingUSD {
			break
		}
		shown++
		if s.Rank > 0 && s.Offer != nil {
			b.WriteString(rankedSavingLine(lang, rec, &s) + "\n")
			continue
		}
		line := lang.Sprintf("  %s saves %s (%s)\n", change(&s), USD(s.SavingUSD), SavedPct(s.SavingPct))
		b.WriteString(strings.TrimSuffix(line, "\n") + savingOfferNote(lang, &s) + "\n")
	}
	if shown > 0 {
		return b.String()
	}
	// Alone: every other change costs more, and "the nearest: rent in
	// tor1 … costs $1,022 more" named no saving (fresh-user walk); JSON's
	// savings still list them.
	b.WriteString(lang.T("  no single change saves money\n"))
	return b.String()
}

// rankedSavingLine says a saving that is an offer the ranking already
// lists (advice.Saving.Rank) as what it is: that row of the table (rec's,
// regions at one price sharing a row as the table does; rec nil: the
// offer's rank), what it saves and why it ranks below the best.
func rankedSavingLine(lang *i18n.Printer, rec *model.Recommendation, s *advice.Saving) string {
	o := s.Offer
	name := lang.Sprintf("%s %d×%s in %s", termsafe.String(o.Provider), o.GPUs, termsafe.String(o.GPU), termsafe.String(RegionIn(lang, o.Region)))
	if model.RegionUnstated(o.Region) { // not "in location not stated"
		name = lang.Sprintf("%s %d×%s (location not stated)", termsafe.String(o.Provider), o.GPUs, termsafe.String(o.GPU))
	}
	var why string
	if rec != nil && s.Rank <= len(rec.Offers) {
		r := &rec.Offers[s.Rank-1]
		switch {
		case r.Oversized():
			why = lang.Sprintf("but rents %d GPUs for a %d-GPU job", r.Rented(), r.SizedGPUs)
		case r.Risky():
			why = lang.Sprintf("but has about a %.0f%% chance of running out of memory", model.RoundChance(r.OOMChance)*100)
		case r.Late():
			why = lang.Sprintf("but may miss the %s h deadline", model.FormatAsGiven(r.DeadlineHours))
		}
	}
	if why == "" {
		why = lang.T("but ranks below the best")
	}
	if rec == nil {
		return lang.Sprintf("  the offer ranked %d (%s) is %s (%s) cheaper %s", s.Rank, name, USD(s.SavingUSD), SavedPct(s.SavingPct), why)
	}
	row := 0
	starts, lens := RegionRuns(rec.Offers, -1)
	for k := range starts {
		if s.Rank-1 >= starts[k] && s.Rank-1 < starts[k]+lens[k] {
			row = k + 1
			break
		}
	}
	return lang.Sprintf("  row %d (%s) is %s (%s) cheaper %s", row, name, USD(s.SavingUSD), SavedPct(s.SavingPct), why)
}

// savingOfferNote is what a saving line adds about the offer it is priced
// on (advice.Saving.Offer): the offer when it is not the one the cost now
// is priced on (" on runpod 8×mi300x in CA": a spot saving where the
// current provider has no spot price is another provider's), and when it
// is borderline its chance of running out of memory (" (borderline: 5%
// chance of running out of memory)"), as the table marks it "~".
func savingOfferNote(lang *i18n.Printer, s *advice.Saving) string {
	o := s.Offer
	if o == nil {
		return ""
	}
	var note string
	switch {
	case s.OtherOffer && model.RegionsUnconfirmed(o.Provider):
		// Its region is the first of several at the price by name, no place
		// the type is known to be in (OfferRegionIn): not named.
		note = lang.Sprintf(" on %s %d×%s", termsafe.String(o.Provider), o.GPUs, termsafe.String(o.GPU))
	case s.OtherOffer && model.RegionUnstated(o.Region): // not "in location not stated"
		note = lang.Sprintf(" on %s %d×%s (location not stated)", termsafe.String(o.Provider), o.GPUs, termsafe.String(o.GPU))
	case s.OtherOffer:
		note = lang.Sprintf(" on %s %d×%s in %s", termsafe.String(o.Provider), o.GPUs, termsafe.String(o.GPU), termsafe.String(RegionIn(lang, o.Region)))
	}
	if s.OOMChance != nil {
		note += lang.Sprintf(" (borderline: %.0f%% chance of running out of memory)", *s.OOMChance*100)
	}
	return note
}
