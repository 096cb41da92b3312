package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/dustin/go-humanize"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/advice"
	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// RecommendJSON is the --json output of gpuplan recommend: the estimate
// (of the top offer when there is one), the offers in ranked order and the
// near misses. Field names are a contract for scripts.
type RecommendJSON struct {
	// Estimate is the first offer's: the workload in the layout its row
	// shows (GPUs, strategy, precision fallback, accumulation), timed on
	// its GPUs, so estimate.memory is offers[0]'s vram_need_gib in full;
	// the workload as asked when no offer runs it.
	Estimate EstimateJSON `json:"estimate"`
	// EstimateAsAsked is the workload on the GPUs and strategy asked (1 GPU
	// without --gpus), before the search picks a layout per offer: the
	// "VRAM … per GPU on N GPU(s)" figure the text's header prints (walk:
	// 14.41 GiB on 1 GPU in the header, 11.29 GiB, the best offer's 4×V100
	// FSDP, in estimate). No GPU: no time. Left out only when the caller
	// gives no such estimate.
	EstimateAsAsked *EstimateJSON `json:"estimate_as_asked,omitempty"`
	Sort            string        `json:"sort"`
	// Offers are those of the table's first --limit rows (10 unless
	// given; 0 lists all), each region an offer: a list of 1,200 offers
	// is 1.7 MB that a script reading the best few parses whole, so
	// --json shows what the table shows, as gh's --json keeps --limit.
	Offers []OfferJSON `json:"offers"`
	// OffersTotal counts every offer ranked, before --limit.
	OffersTotal int             `json:"offers_total"`
	Rejected    []RejectionJSON `json:"rejected"`
	// RiskyAhead is the offer that would rank first but for its chance
	// of running out of memory (model.Recommendation.RiskyAhead), ranked
	// after the offers that fit; left out when there is none.
	RiskyAhead *RiskyAheadJSON `json:"risky_ahead,omitempty"`
	// Decisions (AddDecisions): spot inputs, the time-against-cost front
	// and the single changes that save the most.
	Assumptions *AssumptionsJSON `json:"spot_assumptions,omitempty"`
	Pareto      []ParetoJSON     `json:"pareto,omitempty"`
	Savings     *SavingsJSON     `json:"savings,omitempty"`
	Answers     []Answer         `json:"answers,omitempty"` // --finish-by, --max-job-cost
	// WouldFit: when no offer runs the workload, each change that would
	// make some rank (WriteWouldFit).
	WouldFit []WouldFitJSON `json:"would_fit,omitempty"`
	// stream, when set, gives the offers instead of Offers
	// (NewRecommendJSONStream).
	stream *offerStream
}

// OfferJSON is one offer. Prices are USD; job fields are null without a
// dataset.
type OfferJSON struct {
	Provider        string  `json:"provider"`
	InstanceType    string  `json:"instance_type"`
	Region          string  `json:"region"`
	GPU             string  `json:"gpu"`
	GPUCount        int     `json:"gpu_count"`
	GPUsPerInstance int     `json:"gpus_per_instance"`
	Instances       int     `json:"instances"`
	Strategy        string  `json:"strategy"`
	GPUMemoryGiB    float64 `json:"gpu_memory_gib"`
	VRAMNeedGiB     float64 `json:"vram_need_gib"`
	VRAMHeadroomPct float64 `json:"vram_headroom_pct"`
	// Verdict is "fits" or "borderline" (model.FitVerdict), as estimate's;
	// OOMChance, when borderline, the probability (0.05–0.95, to the
	// nearest 0.05) that the job runs out of memory: needs more than all
	// the GPU memory the driver exposes (model.OOMBytes), not the usable
	// VRAM the verdict weighs (which keeps model.FitMargin free).
	Verdict   string   `json:"verdict"`
	OOMChance *float64 `json:"oom_chance,omitempty"`
	// DeadlineMissChance is, when the deadline falls inside the 90% range
	// of the job's time (model.Offer.LateChance; under --pricing spot, a
	// spot offer's time with interruptions: report's spotLate), the probability
	// (0.05–0.95, to the nearest 0.05) that the job takes longer; left
	// out when the range's slow end meets it or there is no deadline.
	DeadlineMissChance *float64 `json:"deadline_miss_chance,omitempty"`
	Pricing            string   `json:"pricing"`
	PricePerHourUSD    float64  `json:"price_per_hour_usd"`
	MonthlyCostUSD     float64  `json:"monthly_cost_usd"`
	JobHours           *float64 `json:"job_hours"`
	JobCostUSD         *float64 `json:"job_cost_usd"`
	// JobHoursLow … JobCostHighUSD are the 90% ranges of job_hours and
	// job_cost_usd (model.Offer.JobBand): the time estimate's
	// out-of-sample range, each end billed at the offer's price; left
	// out without a job time.
	JobHoursLow    *float64 `json:"job_hours_low,omitempty"`
	JobHoursHigh   *float64 `json:"job_hours_high,omitempty"`
	JobCostLowUSD  *float64 `json:"job_cost_low_usd,omitempty"`
	JobCostHighUSD *float64 `json:"job_cost_high_usd,omitempty"`
	Warnings       []string `json:"warnings"`
	Source         string   `json:"source"`
	AsOf           string   `json:"as_of"`
	// Origin is where the price came from: "embedded" or an overlay path
	// (catalog update's or the user's).
	Origin string `json:"origin"`
	// CommitmentUSD is a reserved term's bill (model.Offer.CommitmentUSD)
	// and OnDemandJobUSD the same job at the on-demand price; left out
	// when they do not apply. GPUsNeeded is the fewest GPUs of this type
	// that run the job (model.Offer.SizedGPUs): below gpu_count ×
	// instances, the offer rents more than the job needs.
	CommitmentUSD  *float64 `json:"commitment_usd,omitempty"`
	OnDemandJobUSD *float64 `json:"on_demand_job_usd,omitempty"`
	GPUsNeeded     int      `json:"gpus_needed,omitempty"`
	// BatchSize and GradAccum split the global batch over this offer's
	// GPUs (model.Workload.OnGPUs): micro-batch per GPU and accumulation
	// steps; training only.
	BatchSize int `json:"batch_size,omitempty"`
	GradAccum int `json:"grad_accum,omitempty"`
	// Spot and Commitment are filled by AddDecisions.
	Spot       *SpotJSON          `json:"spot,omitempty"`
	Commitment []decide.BreakEven `json:"commitment,omitempty"`
	// Country (ISO 3166-1 alpha-2), City and Continent are where Region
	// is, as offers --json gives them; "" when not known. Added last, so
	// the members before keep their places.
	Country   string `json:"country"`
	City      string `json:"city"`
	Continent string `json:"continent"`
	// RegionsUnconfirmed is set when the provider's regions say where a
	// price applies, not where the type is offered (model.RegionsUnconfirmed:
	// Lambda, OCI), so region is no place the type is known to be in;
	// left out otherwise.
	RegionsUnconfirmed bool `json:"regions_unconfirmed,omitempty"`
	// PriceAgeDays is how many days as_of is older than the catalog's date
	// (model.Offer.PriceAgeDays; gpuplan version gives the date): the
	// same on every run of one catalog, whatever the day. Past 90
	// (market.StaleAfter) the text flags the price as old.
	PriceAgeDays int `json:"price_age_days"`
	// VRAMBandHighGiB is the top of the 90% range of vram_need_gib on this
	// offer's GPUs and layout (model.Estimate.MemoryBand), the figure the
	// verdict weighs against the usable VRAM; offers on different layouts
	// have different tops, so the table's borderline note gives a range
	// and each offer its own here. Left out without a band.
	VRAMBandHighGiB *float64 `json:"vram_band_high_gib,omitempty"`
}

// RiskyAheadJSON names the offer of RecommendJSON.RiskyAhead: Rank is
// its 1-based place in the full ranking (past offers when --limit cut
// it), OOMChance its chance of running out of memory (0.15–0.95, to the
// nearest 0.05) and Note the line the table prints.
type RiskyAheadJSON struct {
	Rank            int     `json:"rank"`
	Provider        string  `json:"provider"`
	InstanceType    string  `json:"instance_type"`
	Region          string  `json:"region"`
	GPU             string  `json:"gpu"`
	GPUCount        int     `json:"gpu_count"`
	PricePerHourUSD float64 `json:"price_per_hour_usd"`
	OOMChance       float64 `json:"oom_chance"`
	Note            string  `json:"note"`
	// JobHours and JobCostUSD are its job's time and cost (its own, as
	// offers[] give them: uninterrupted under spot); left out without a
	// job time.
	JobHours   *float64 `json:"job_hours,omitempty"`
	JobCostUSD *float64 `json:"job_cost_usd,omitempty"`
	// Share is its figure on the sort key over the first offer's, as the
	// table shows them (model.RankedFigure: the job's cost or time, the
	// price per hour or month). TryFirst is set when that is at most
	// model.TryFirstShare and at most 1 − oom_chance
	// (model.Recommendation.TryFirst): the text names it under "best:"
	// ("try first:"), as worth trying before the best. FitsWith is the
	// change that makes it fit across its memory range on its own host
	// (Decisions.TryFirst, advice.FitOffer), when the savings found one;
	// left out otherwise.
	Share    float64       `json:"share"`
	TryFirst bool          `json:"try_first"`
	FitsWith *FitsWithJSON `json:"fits_with,omitempty"`
}

// FitsWithJSON is the change that makes a borderline offer fit across
// its memory range on its own host (advice.OfferFit): the change as the
// savings name it and its kind, and the offer it makes: GPUs, instances,
// price, its job's time and cost (its own, as offers[] give them) and
// USD, what the savings price it at (a spot job's expected cost with
// interruptions).
type FitsWithJSON struct {
	Change          string   `json:"change"`
	Kind            string   `json:"kind"`
	GPUCount        int      `json:"gpu_count"`
	Instances       int      `json:"instances"`
	PricePerHourUSD float64  `json:"price_per_hour_usd"`
	JobHours        *float64 `json:"job_hours,omitempty"`
	JobCostUSD      *float64 `json:"job_cost_usd,omitempty"`
	USD             float64  `json:"usd"`
}

// setTryFirst fills ra's share, try_first and fits_with from shown, the
// ranking as the table shows it, and fit (Decisions.TryFirst; nil: none).
func (ra *RiskyAheadJSON) setTryFirst(shown *model.Recommendation, fit *advice.OfferFit) {
	o, _ := shown.RiskyAhead()
	if o == nil {
		return
	}
	ra.Share = 0
	if top := model.RankedFigure(&shown.Offers[0], shown.Sort); top > 0 && !math.IsInf(top, 1) {
		ra.Share = Round(model.RankedFigure(o, shown.Sort)/top, 4)
	}
	t, _, _ := shown.TryFirst()
	ra.TryFirst, ra.FitsWith = t != nil, nil
	if t == nil || fit == nil {
		return
	}
	f := &fit.Offer
	ra.FitsWith = &FitsWithJSON{Change: fit.Change, Kind: fit.Kind, GPUCount: f.GPUs, Instances: f.Instances,
		PricePerHourUSD: Round(f.USDPerHour, 4), USD: Round(fit.USD, 2)}
	if f.HasJob {
		ra.FitsWith.JobHours, ra.FitsWith.JobCostUSD = ptr(RoundHours(f.JobHours)), ptr(RoundUSD(f.JobUSD))
	}
}

// RejectionJSON is one near miss.
type RejectionJSON struct {
	Provider        string  `json:"provider"`
	InstanceType    string  `json:"instance_type"`
	Region          string  `json:"region"`
	PricePerHourUSD float64 `json:"price_per_hour_usd"` // all instances together
	Instances       int     `json:"instances"`
	Reason          string  `json:"reason"`
}

// Round rounds v to the given number of decimal digits (JSON figures).
func Round(v float64, digits int) float64 {
	p := math.Pow10(digits)
	return math.Round(v*p) / p
}

// RoundHours rounds a time in hours as JSON and CSV give job hours: to 3
// decimals (3.6 s), and below an hour to 4 significant digits besides, as
// a configuration's [selection] job_hours is (config.NewSelection), so a
// job of seconds is not 0 h (walk: a 0.25 s fine-tune read "job_hours": 0
// beside the table's "1 min").
func RoundHours(h float64) float64 {
	if h == 0 || math.Abs(h) >= 1 || math.IsNaN(h) || math.IsInf(h, 0) {
		return Round(h, 3)
	}
	return roundSig(h, 4)
}

// RoundUSD rounds a job's cost as JSON and CSV give it: to the cent, and
// below half a cent to 2 significant digits, as the table writes it (USD,
// show.SmallUSD), so a job of seconds is not "job_cost_usd": 0 beside the
// table's $0.0000096 (a new user's walk).
func RoundUSD(v float64) float64 {
	if v <= 0 || v >= 0.005 || math.IsNaN(v) || math.IsInf(v, 0) {
		return Round(v, 2)
	}
	return roundSig(v, 2)
}

// roundSig rounds v to n significant digits.
func roundSig(v float64, n int) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', n, 64), 64)
	return r
}

// NewOfferJSON is the JSON view of one offer of a catalog dated asOf
// (model.Recommendation.AsOf), from which its price_age_days counts.
func NewOfferJSON(o *model.Offer, asOf string) OfferJSON { return newOfferJSON(o, asOf, nil) }

// newOfferJSON is NewOfferJSON with the warnings formatted through memo
// (nil: each formatted anew).
func newOfferJSON(o *model.Offer, asOf string, memo messageMemo) OfferJSON {
	j := OfferJSON{
		Provider: o.Instance.Provider, InstanceType: o.Instance.Type, Region: o.Region, GPU: o.GPU.Key,
		GPUCount: o.GPUs, GPUsPerInstance: o.Instance.GPUCount, Instances: o.Instances, Strategy: string(o.Strategy),
		GPUMemoryGiB: o.GPU.MemoryGiB, VRAMNeedGiB: Round(o.NeedBytes/model.GiB, 2), VRAMHeadroomPct: Round(o.HeadroomPct, 1),
		Verdict: string(o.Verdict),
		Pricing: string(o.Pricing), PricePerHourUSD: Round(o.USDPerHour, 4), MonthlyCostUSD: Round(o.MonthlyUSD, 2),
		Warnings: memo.strings(o.WarningMessages()),
		Country:  o.Geo.Country, City: o.Geo.City, Continent: o.Geo.Continent,
	}
	j.Source, j.Origin, j.AsOf = o.PriceProvenance() // an overlay's region price names the overlay
	j.RegionsUnconfirmed = model.RegionsUnconfirmed(o.Instance.Provider)
	j.PriceAgeDays = o.PriceAgeDays(asOf)
	if o.Verdict == model.VerdictBorderline {
		j.OOMChance = ptr(model.RoundChance(o.OOMChance))
	}
	if o.Late() {
		j.DeadlineMissChance = ptr(model.RoundChance(o.LateChance))
	}
	if o.HasJob {
		j.JobHours, j.JobCostUSD = ptr(RoundHours(o.JobHours)), ptr(RoundUSD(o.JobUSD))
	}
	if h, usd, ok := o.JobBand(); ok {
		j.JobHoursLow, j.JobHoursHigh = ptr(RoundHours(h[0])), ptr(RoundHours(h[1]))
		j.JobCostLowUSD, j.JobCostHighUSD = ptr(Round(usd[0], 2)), ptr(Round(usd[1], 2))
	}
	if o.CommitmentUSD > 0 {
		j.CommitmentUSD = ptr(Round(o.CommitmentUSD, 2))
	}
	if v, ok := o.OnDemandJobUSD(); ok {
		j.OnDemandJobUSD = ptr(Round(v, 2))
	}
	j.GPUsNeeded = o.SizedGPUs
	if e := o.Estimate; e != nil && e.Workload.Task.Training() {
		j.BatchSize, j.GradAccum = e.Workload.MicroBatch, e.Workload.GradAccum
	}
	if e := o.Estimate; e != nil && e.MemoryBand[1] > 0 {
		j.VRAMBandHighGiB = ptr(Round(e.MemoryBand[1]/model.GiB, 2))
	}
	return j
}

// NewRecommendJSON builds the JSON view. base is the estimate of the
// workload as given, used when no offer fits.
func NewRecommendJSON(r *model.Recommendation, base *model.Estimate, limit int) RecommendJSON {
	out, n := newRecommendHead(r, base, limit)
	// Sized up front: grown by append, a few hundred offers made three
	// copies, each a run of fresh pages in a short-lived process.
	out.Offers = make([]OfferJSON, 0, n)
	// ~900 offers carry ~500 warnings, a dozen of them distinct.
	memo := messageMemo{}
	for i := range n {
		out.Offers = append(out.Offers, newOfferJSON(&r.Offers[i], r.AsOf, memo))
	}
	return out
}

// NewRecommendJSONStream is NewRecommendJSON then AddDecisions(r, d),
// except that the offers are not held: Offers stays nil and EachOffer
// lays them out one at a time, as a writer walks them (~900 OfferJSON
// were ~300 KB of fresh pages in a command that writes each once). For
// a writer that knows EachOffer (the CLI's); encoding/json sees no offers.
func NewRecommendJSONStream(r *model.Recommendation, base *model.Estimate, limit int, d *Decisions) RecommendJSON {
	out, n := newRecommendHead(r, base, limit)
	out.stream = &offerStream{rec: r, n: n, d: d, memo: messageMemo{}}
	out.addDecisionsHead(r, d) // all but the savings: EndOffers
	return out
}

// EndOffers fills a streamed j's savings, once they are in: the writer
// calls it after the offers, which it lays out while Decide's savings
// are ranked aside (DecideInput.SavingsAside). It does nothing for a j
// that is not streamed.
func (j *RecommendJSON) EndOffers() {
	if j.stream != nil && j.stream.d != nil {
		j.Savings = newSavingsJSON(j.stream.d)
	}
}

// eachOf calls f with a pointer to each element of s in order, stopping
// at its first error: a held list's EachOffer or EachRow.
func eachOf[T any](s []T, f func(*T) error) error {
	for i := range s {
		if err := f(&s[i]); err != nil {
			return err
		}
	}
	return nil
}

// offerStream is where a streamed RecommendJSON's offers come from.
type offerStream struct {
	rec  *model.Recommendation
	n    int
	d    *Decisions
	memo messageMemo
}

// Streamed reports whether j's offers come from NewRecommendJSONStream
// (EachOffer), not from Offers.
func (j *RecommendJSON) Streamed() bool { return j.stream != nil }

// EachOffer calls f with each of j's offers in order, stopping at its
// first error: j.Offers, or a stream's, each laid out in turn (f must
// not keep the pointer).
func (j *RecommendJSON) EachOffer(f func(*OfferJSON) error) error {
	if j.stream == nil {
		return eachOf(j.Offers, f)
	}
	l := OfferLayout{j: j, memo: j.stream.memo}
	return l.Each(0, j.stream.n, f)
}

// OfferCount is how many offers EachOffer walks.
func (j *RecommendJSON) OfferCount() int {
	if j.stream == nil {
		return len(j.Offers)
	}
	return j.stream.n
}

// OfferLayout lays out j's offers by index, for a writer that lays them
// out on more than one goroutine: one OfferLayout each, as each has its
// own memo of formatted messages.
type OfferLayout struct {
	j    *RecommendJSON
	memo messageMemo
	o    OfferJSON // one for all: f's argument escapes
}

// NewOfferLayout returns a layout of j's offers for one goroutine.
func (j *RecommendJSON) NewOfferLayout() *OfferLayout {
	return &OfferLayout{j: j, memo: messageMemo{}}
}

// Each calls f with each of the offers [from, to) of EachOffer's list,
// in order, stopping at its first error (f must not keep the pointer).
func (l *OfferLayout) Each(from, to int, f func(*OfferJSON) error) error {
	st := l.j.stream
	if st == nil {
		return eachOf(l.j.Offers[from:to], f)
	}
	for i := from; i < to; i++ {
		l.o = newOfferJSON(&st.rec.Offers[i], st.rec.AsOf, l.memo)
		if st.d != nil {
			addOfferDecision(&l.o, &st.d.Offers[i], st.d)
			if w := st.d.shownWarnings(st.rec, i, l.memo); w != nil {
				l.o.Warnings = w
			}
		}
		if err := f(&l.o); err != nil {
			return err
		}
	}
	return nil
}

// newRecommendHead is NewRecommendJSON without its offers, and how many
// offers it has.
func newRecommendHead(r *model.Recommendation, base *model.Estimate, limit int) (RecommendJSON, int) {
	n := OffersInRows(r.Offers, limit) // --limit counts the table's rows
	out := RecommendJSON{Sort: string(r.Sort), OffersTotal: len(r.Offers), Rejected: make([]RejectionJSON, 0, len(r.Rejected))}
	if len(r.Offers) > 0 && r.Offers[0].Estimate != nil {
		out.Estimate = NewEstimateJSON(r.Offers[0].Estimate, nil)
	} else {
		out.Estimate = NewEstimateJSON(base, nil)
	}
	if base != nil {
		asked := NewEstimateJSON(base, nil)
		out.EstimateAsAsked = &asked
	}
	if o, at := r.RiskyAhead(); o != nil {
		out.RiskyAhead = &RiskyAheadJSON{Rank: at + 1, Provider: o.Instance.Provider, InstanceType: o.Instance.Type, Region: o.Region,
			GPU: o.GPU.Key, GPUCount: o.GPUs, PricePerHourUSD: Round(o.USDPerHour, 4), OOMChance: model.RoundChance(o.OOMChance),
			Note: RiskyAheadNote(nil, r)}
		if o.HasJob {
			out.RiskyAhead.JobHours, out.RiskyAhead.JobCostUSD = ptr(RoundHours(o.JobHours)), ptr(RoundUSD(o.JobUSD))
		}
		out.RiskyAhead.setTryFirst(r, nil)
	}
	for _, x := range r.Rejected {
		out.Rejected = append(out.Rejected, RejectionJSON{Provider: x.Instance.Provider, InstanceType: x.Instance.Type,
			Region: x.Region, PricePerHourUSD: Round(x.USDPerHour, 4), Instances: max(x.Instances, 1), Reason: x.Reason})
	}
	return out, n
}

// OfferRow is one table row of an offer: provider, instance, region,
// GPUs, $/h, $/month, job time, job cost, headroom.
func OfferRow(o *model.Offer) []string { return OfferRowIn(nil, o) }

// OfferRowIn is OfferRow in p's language.
func OfferRowIn(p *i18n.Printer, o *model.Offer) []string {
	gpus := OfferGPUsIn(p, o)
	job, cost := "—", "—"
	if o.HasJob {
		job, cost = HoursIn(p, o.JobHours), USD(o.JobUSD)
		if o.Late() {
			job = "~" + job // may miss the deadline; the warning has the range
		}
	}
	headroom := fmt.Sprintf("%.0f%%", o.HeadroomPct)
	if o.Verdict == model.VerdictBorderline {
		headroom = "~" + headroom // as estimate's "~ borderline"; the warning has the band
	}
	region := OfferRegionCaveatIn(p, o.Instance.Provider, o.Region)
	if base, more, _ := strings.Cut(o.Region, " +"); !model.RegionUnstated(base) && region == RegionIn(p, o.Region) {
		// The country as offers tags it: "it-fr2 (IT)" (walk49).
		if tag := model.RegionCountrySuffix(base, o.Geo.Country); tag != "" {
			region = RegionIn(p, base) + tag
			if more != "" {
				region += " +" + more
			}
		}
		region = CutRegion(region, 18) // "location not stated" and "any of N regions" whole: cut, they would read as a place
	}
	return []string{o.Instance.Provider, Truncate(o.Instance.Type, 26), region, gpus, USDHour(o.USDPerHour), USD(o.MonthlyUSD), job, cost, headroom}
}

// OfferGPUs is an offer's GPUs cell: "1×h100", "16×h100 (2 nodes)", or
// "1 of 8×h200" when the job uses fewer GPUs than the offer rents (the
// count first, so a cut cell still says it).
func OfferGPUs(o *model.Offer) string { return OfferGPUsIn(nil, o) }

// OfferGPUsIn is OfferGPUs in p's language.
func OfferGPUsIn(p *i18n.Printer, o *model.Offer) string {
	gpus := fmt.Sprintf("%d×%s", o.GPUs, o.GPU.Key)
	if rented := o.Rented(); o.GPUs < rented {
		gpus = p.Sprintf("%d of %d×%s", o.GPUs, rented, o.GPU.Key)
	}
	if o.Instances > 1 {
		gpus += p.Sprintf(" (%d nodes)", o.Instances)
	}
	if o.Fallback != "" { // the GPU lacks the precision asked for and runs this one instead
		gpus += " ↺" + string(o.Fallback)
	}
	return gpus
}

// CommitmentHeaders title CommitmentCells' columns, shown after
// OfferHeaders when an offer commits to a reserved term.
var CommitmentHeaders = []string{"commitment", "job share", "on-demand"}

// CommitmentCells are a reserved offer's term bill (model.Offer's
// CommitmentUSD), the job's share of it (job hours × the reserved $/h:
// what the job costs when the term is used by other work too) and the
// same job at the on-demand price (model.Offer.OnDemandJobUSD); "—"
// where a figure is unknown.
func CommitmentCells(o *model.Offer) []string {
	out := []string{"—", "—", "—"}
	if o.CommitmentUSD > 0 {
		out[0] = USD(o.CommitmentUSD)
	}
	if o.HasJob {
		out[1] = USD(o.JobHours * o.USDPerHour)
	}
	if v, ok := o.OnDemandJobUSD(); ok {
		out[2] = USD(v)
	}
	return out
}

// commitmentTableNote explains CommitmentCells under a table of reserved
// offers, and the $/month and job cost columns a commitment bills
// whatever is used (model.MonthlyUSD, model.CommitmentHours), or is ""
// when none commits.
func commitmentTableNote(p *i18n.Printer, offers []model.Offer) string {
	for i := range offers {
		if o := &offers[i]; o.CommitmentUSD > 0 {
			month := float64(model.HoursPerMonth) // or the 744 h of a 31-day month used, each committed
			if o.USDPerHour > 0 {
				month = max(month, o.MonthlyUSD/o.USDPerHour)
			}
			return p.Sprintf("%s: $/month bills %.0f h and job cost the %s h term whatever the job uses (a commitment bills every month in full); job share = job time × the reserved $/h (if other work fills the term); on-demand = job time × the on-demand $/h",
				PricingName(p, o.Pricing), month, humanize.Comma(int64(model.CommitmentHours(o.Pricing))))
		}
	}
	return ""
}

// UnconfirmedRegionsNote is the line under a table of collapsed offers
// (CollapseRegions) when a row says "any of N regions" (OfferRegionIn):
// whose catalog regions those are and why no one of them is named, as
// offers' "region availability not published" note says it; "" when no
// row does.
func UnconfirmedRegionsNote(p *i18n.Printer, offers []model.Offer) string {
	return unconfirmedRegionsNote(p, offers, false)
}

// RecommendRegionsNote is UnconfirmedRegionsNote for recommend's table,
// whose rows also name one region "(unconfirmed)" (OfferRegionCaveatIn).
func RecommendRegionsNote(p *i18n.Printer, offers []model.Offer) string {
	return unconfirmedRegionsNote(p, offers, true)
}

func unconfirmedRegionsNote(p *i18n.Printer, offers []model.Offer, singles bool) string {
	var providers []string
	anyOf, one := false, false
	for i := range offers {
		o := &offers[i]
		_, many := unconfirmedRegions(o.Instance.Provider, o.Region)
		single := singles && unconfirmedRegion(o.Instance.Provider, o.Region)
		anyOf, one = anyOf || many, one || single
		if (many || single) && !slices.Contains(providers, o.Instance.Provider) {
			providers = append(providers, o.Instance.Provider)
		}
	}
	names := strings.Join(providers, p.T(", "))
	switch {
	case anyOf && one:
		return p.Sprintf("any of N regions, (unconfirmed) (%s): the catalog lists each type in every region at one price; which regions offer a type is not published", names)
	case one:
		return p.Sprintf("(unconfirmed) region (%s): the catalog lists each type in every region at one price; whether that region offers it is not published", names)
	case anyOf:
		return p.Sprintf("any of N regions (%s): the catalog lists each type in every region at one price; which regions offer a type is not published", names)
	}
	return ""
}

// SizedTableNote explains the ranking of an oversized offer in a table
// (model.SizedSlack), or is "" when no shown offer rents more GPUs than
// the job needs. recommend's table and the configurator's panel show it.
// It names the oversized types ranked below a row whose figure is higher
// (the walk of 2026-12-06 found a second one, below a dearer row, left
// unexplained), else the first oversized type shown; a type in several
// regions once, at most three and a count.
func SizedTableNote(p *i18n.Printer, offers []model.Offer, k model.SortKey) string {
	if k == model.SortTime || k == model.SortHeadroom {
		return ""
	}
	// An offer is below a dearer row when the highest figure of the rows
	// before it, among those that fit or those that are risky as it is, is
	// higher: one pass.
	var top [2]float64 // [fits, risky]
	top[0], top[1] = math.Inf(-1), math.Inf(-1)
	var named []*model.Offer
	first := -1
	for i := range offers {
		o := &offers[i]
		g, v := b2i(o.Risky()), model.RankedFigure(o, k)
		demoted := top[g] > v
		top[g] = max(top[g], v)
		if !o.Oversized() {
			continue
		}
		if first < 0 {
			first = i
		}
		if demoted && !slices.ContainsFunc(named, func(e *model.Offer) bool { return e.Instance.Type == o.Instance.Type }) {
			named = append(named, o)
		}
	}
	switch {
	case first < 0:
		return ""
	case len(named) == 0:
		named = []*model.Offer{&offers[first]}
	}
	if len(named) == 1 {
		o := named[0]
		return p.Sprintf("%s rents %d GPUs where %d would run the job: a host sized to the job ranks first unless the bigger one costs %.0f%% less",
			o.Instance.Type, o.Rented(), o.SizedGPUs, model.SizedSlack*100)
	}
	const shown = 3
	var names []string
	for _, o := range named[:min(len(named), shown)] {
		names = append(names, o.Instance.Type)
	}
	list := strings.Join(names, p.T(", "))
	if len(named) > shown {
		list = p.Sprintf("%s and %d more", list, len(named)-shown)
	}
	// Short enough for the configurator's panel, two lines at 120x40.
	return p.Sprintf("%s rent more GPUs than the job needs: a host sized to it ranks first unless the bigger one costs %.0f%% less",
		list, model.SizedSlack*100)
}

// RiskyAheadNote says, in one line, which offer would rank first but
// for its chance of running out of memory (model.Recommendation.
// RiskyAhead), and that it is ranked after the offers that fit: "2×h100-sxm
// (shadeform massedcompute_H100x2) at $5.46/h is cheaper but has about a
// 15% chance of running out of memory: ranked after the offers that fit
// (--gpus 2 --strategy fsdp ranks the offers on 2 GPUs)". Empty when
// there is none.
func RiskyAheadNote(p *i18n.Printer, rec *model.Recommendation) string {
	o, _ := rec.RiskyAhead()
	if o == nil {
		return ""
	}
	what, chance := riskyAheadFigure(p, o, rec.Sort), model.RoundChance(o.OOMChance)*100
	gpus, name := OfferGPUsIn(p, o), o.Instance.Provider+" "+o.Instance.Type
	var note string
	if rec.Sort == model.SortTime {
		note = p.Sprintf("%s (%s) in %s is faster but has about a %.0f%% chance of running out of memory: ranked after the offers that fit", gpus, name, what, chance)
	} else {
		note = p.Sprintf("%s (%s) at %s is cheaper but has about a %.0f%% chance of running out of memory: ranked after the offers that fit", gpus, name, what, chance)
	}
	if rec.AutoGPUs && o.GPUs != rec.Offers[0].GPUs {
		strategy := "" // the default of several GPUs is DDP, which may not fit where FSDP does
		if o.Strategy != model.Single && o.Strategy != model.DDP {
			strategy = " --strategy " + string(o.Strategy)
		}
		if o.GPUs == 1 {
			note += p.Sprintf(" (--gpus 1%s ranks the offers on 1 GPU)", strategy)
		} else {
			note += p.Sprintf(" (--gpus %d%s ranks the offers on %d GPUs)", o.GPUs, strategy, o.GPUs)
		}
	}
	return note
}

// TryFirstLines are the lines under the "best:" line that name the risky
// offer worth trying first (model.Recommendation.TryFirst) among rec's
// offers, as d shows them (rec is d.Shown's): the offer, its figure on
// the sort key and how much less it is than the best's; its chance of
// running out of memory, and why trying it risks little (a training step
// reaches its peak in its first iterations: model.TryFirstShare); and,
// when the savings found one (Decisions.TryFirst, advice.FitOffer), the
// change that makes it fit across its memory range with what it then
// costs. The first line is label-less: the caller renders label, then
// line. Empty when there is no such offer.
//
//	try first: oci BM.GPU.MI355X.8 in any of 3 regions: 8×mi355x, 17.0 h and $1,167 for the job, 99.9% less than best
//	  ~ about a 10% chance of running out of memory (borderline: ranked after the offers that fit); …
//	  with activation checkpointing (…) it fits across its memory range: 8×mi355x, 22.2 h and $1,529 for the job
func TryFirstLines(p *i18n.Printer, rec *model.Recommendation, d *Decisions) (first string, more []string) {
	o, at, share := rec.TryFirst()
	if o == nil {
		return "", nil
	}
	where := p.Sprintf("%s %s in %s", o.Instance.Provider, o.Instance.Type, BestRegionIn(p, rec.Offers[at:]))
	if model.RegionUnstated(o.Region) {
		where = p.Sprintf("%s %s (location not stated)", o.Instance.Provider, o.Instance.Type)
	}
	less := SavedPct(100 * (1 - share))
	if rec.Sort == model.SortTime {
		first = p.Sprintf("%s: %s, %s, %s less time than best", where, OfferGPUsIn(p, o), tryFirstFigure(p, o, rec.Sort), less)
	} else {
		first = p.Sprintf("%s: %s, %s, %s less than best", where, OfferGPUsIn(p, o), tryFirstFigure(p, o, rec.Sort), less)
	}
	more = append(more, p.Sprintf("  ~ about a %.0f%% chance of running out of memory (borderline: ranked after the offers that fit); a training step reaches its peak memory in its first iterations, so a failed try costs minutes of rent, not the job (gpuplan probe measures them)",
		model.RoundChance(o.OOMChance)*100))
	if d != nil && d.TryFirst != nil {
		f := &d.tryFirstShown
		change := p.T(d.TryFirst.Change)
		if !d.TryFirst.Msg.IsZero() {
			change = p.Message(d.TryFirst.Msg)
		}
		more = append(more, p.Sprintf("  with %s it fits across its memory range: %s, %s", change, OfferGPUsIn(p, f), tryFirstFigure(p, f, rec.Sort)))
	}
	return first, more
}

// tryFirstFigure is riskyAheadFigure with the job's time and cost both on
// the job keys, as the "best:" line gives them: "17.0 h and $1,167 for the
// job".
func tryFirstFigure(p *i18n.Printer, o *model.Offer, k model.SortKey) string {
	if (k == model.SortJob || k == model.SortTime) && o.HasJob {
		return p.Sprintf("%s and %s for the job", HoursIn(p, o.JobHours), USD(o.JobUSD))
	}
	return riskyAheadFigure(p, o, k)
}

// HeadlineShare is the least share of the cost now that a change of the
// workload must save for the "best:" lines to name it (HeadlineSaving):
// the complement of model.TryFirstShare, so a change that at least
// halves the cost is named as a borderline offer at half the cost is.
const HeadlineShare = 1 - model.TryFirstShare

// HeadlineSaving is the saving the "best:" lines lift from d's savings
// list ("What saves the most"): the largest saving of a change to the
// workload (advice.Saving.Kind other than pricing, gpu and region: a
// recipe setting such as activation checkpointing or 8-bit AdamW states,
// which no row of the table shows, where a GPU type or region is a row
// of its own and spot the "Spot" line's) when it saves at least
// HeadlineShare of the cost now, priced on an offer that fits across its
// memory range, and not the change TryFirstLines names on the same offer.
// nil when there is none or the savings are off.
func HeadlineSaving(d *Decisions) *advice.Saving {
	if d == nil || d.SavingsBase <= 0 {
		return nil
	}
	for i := range d.Savings {
		s := &d.Savings[i]
		if s.Kind == "pricing" || s.Narrows() || s.OOMChance != nil {
			continue // no recipe change, or priced on a borderline offer
		}
		if s.SavingPct < HeadlineShare*100 || sameAsTryFirst(s, d.TryFirst) {
			return nil // sorted: none after it saves more; or named already
		}
		return s
	}
	return nil
}

// sameAsTryFirst reports whether s is the change TryFirstLines already
// names, priced on the same offer (f, Decisions.TryFirst; nil: none).
func sameAsTryFirst(s *advice.Saving, f *advice.OfferFit) bool {
	return f != nil && s.Offer != nil && s.Change == f.Change && s.Offer.Provider == f.Offer.Instance.Provider &&
		s.Offer.InstanceType == f.Offer.Instance.Type && s.Offer.Region == f.Offer.Region
}

// HeadlineSavingLine is HeadlineSaving in words for the line under
// "best:" (rec is the ranking as d shows it): "8-bit AdamW states
// (bitsandbytes) saves $1.2M (99.9%) on daytona 8×mi355x (location not
// stated): $1,028 for the job". Empty when there is none.
func HeadlineSavingLine(p *i18n.Printer, rec *model.Recommendation, d *Decisions) string {
	s := HeadlineSaving(d)
	if s == nil || len(rec.Offers) == 0 {
		return ""
	}
	change := p.T(s.Change)
	if !s.ChangeMsg.IsZero() {
		change = p.Message(s.ChangeMsg)
	}
	if rec.Offers[0].HasJob {
		return p.Sprintf("%s saves %s (%s)%s: %s for the job", change, USD(s.SavingUSD), SavedPct(s.SavingPct), savingOfferNote(p, s), USD(s.USD))
	}
	return p.Sprintf("%s saves %s (%s)%s: %s a month", change, USD(s.SavingUSD), SavedPct(s.SavingPct), savingOfferNote(p, s), USD(s.USD))
}

// RiskyAheadNoteShort is RiskyAheadNote in one short line, for the
// configurator's panel and offers table: "2×h100-sxm at $5.46/h: about
// 15% chance of running out of memory; ranked after the offers that fit".
func RiskyAheadNoteShort(p *i18n.Printer, rec *model.Recommendation) string {
	o, _ := rec.RiskyAhead()
	if o == nil {
		return ""
	}
	return p.Sprintf("%s at %s: about %.0f%% chance of running out of memory; ranked after the offers that fit",
		OfferGPUsIn(p, o), riskyAheadFigure(p, o, rec.Sort), model.RoundChance(o.OOMChance)*100)
}

// TryFirstNoteShort is TryFirstLines in one short line, for the
// configurator's wide panel and offers list (which wrap a note to two
// lines), in place of RiskyAheadNoteShort when the risky offer ahead is
// worth trying first (model.Recommendation.TryFirst): "try first:
// 1×v100-16gb at $1.53 for the job (73% less): about 10% chance of
// running out of memory, shown in its first steps". Empty when there is
// none. The compact panel keeps RiskyAheadNoteShort, already the line
// under its best offer, whose one line would lose the chance to a longer
// one.
func TryFirstNoteShort(p *i18n.Printer, rec *model.Recommendation) string {
	o, _, share := rec.TryFirst()
	if o == nil {
		return ""
	}
	return p.Sprintf("try first: %s at %s (%s less): about %.0f%% chance of running out of memory, shown in its first steps",
		OfferGPUsIn(p, o), riskyAheadFigure(p, o, rec.Sort), SavedPct(100*(1-share)), model.RoundChance(o.OOMChance)*100)
}

// riskyAheadFigure is the figure o is ranked by under k: "$5.46/h",
// "$3,986/month", "$120 for the job", "12.5 h for the job".
func riskyAheadFigure(p *i18n.Printer, o *model.Offer, k model.SortKey) string {
	switch k {
	case model.SortMonthly:
		return p.Sprintf("%s/month", USD(o.MonthlyUSD))
	case model.SortJob:
		return p.Sprintf("%s for the job", USD(o.JobUSD))
	case model.SortTime:
		return p.Sprintf("%s for the job", HoursIn(p, o.JobHours))
	}
	return p.Sprintf("%s/h", USDHour(o.USDPerHour))
}

// AssumedNetworkNote says, in one line, that the times of the multi-node
// offers of offers whose instance type has no network figure in the
// catalog rest on another figure (model.Offer.AssumesNetwork: the user's
// --network-gbps; for a type naming no GPU fabric either
// model.AssumedNetworkGbps, model.NoFabricNetwork; else the catalog's
// median for the GPU and node size), naming the types and the figures,
// and which way each figure can err: "! 2 offers timed without a network
// figure in the catalog (datacrunch__8xH200..., BM.GPU4.8): at 10 Gbps
// (no fabric documented), 250 Gbps (catalog median) between nodes; ...".
// Empty when there is none.
func AssumedNetworkNote(p *i18n.Printer, offers []model.Offer) string {
	n, types, figs, assumed, median := assumedNetwork(p, offers)
	if n == 0 {
		return ""
	}
	names := strings.Join(types, ", ")
	if len(types) > assumedNetworkNames { // one line: the first few, then a count
		names = p.Sprintf("%s and %d more", strings.Join(types[:assumedNetworkNames], ", "), len(types)-assumedNetworkNames)
	}
	line := p.Sprintf("! %d %s timed without a network figure in the catalog (%s): at %s between nodes",
		n, p.T(marketPlural(n, "offer", "offers")), names, strings.Join(figs, ", "))
	// Which way each figure errs: the slowest documented long, a median
	// of other types' fabrics short.
	switch {
	case assumed && median:
		line += p.Sprintf("; the assumed figure is the slowest the catalog documents, so their cross-node time errs long, far too long if the provider joins them with InfiniBand or RDMA; a catalog median is other types' fabric, so their cross-node time is too short if theirs is slower (--network-gbps)")
	case assumed:
		line += p.Sprintf("; the assumed figure is the slowest the catalog documents, so their cross-node time errs long, far too long if the provider joins them with InfiniBand or RDMA (--network-gbps)")
	case median:
		line += p.Sprintf("; a catalog median is other types' fabric, so their cross-node time is too short if theirs is slower (--network-gbps)")
	}
	return line
}

// assumedNetworkNames is how many instance types AssumedNetworkNote names.
const assumedNetworkNames = 4

// AssumedNetworkNoteShort is AssumedNetworkNote in one short line, for the
// configurator's panel: "! 2 offers: cross-node time at 2400 Gbps
// (catalog median; no network figure)".
func AssumedNetworkNoteShort(p *i18n.Printer, offers []model.Offer) string {
	n, _, figs, _, _ := assumedNetwork(p, offers)
	if n == 0 {
		return ""
	}
	return p.Sprintf("! %d %s: cross-node time at %s (no network figure)",
		n, p.T(marketPlural(n, "offer", "offers")), strings.Join(figs, ", "))
}

// networkFigure names a figure an offer without a network figure is timed
// at: "2400 Gbps (catalog median)".
func networkFigure(p *i18n.Printer, o *model.Offer) string {
	gbps := o.NetworkGbps()
	switch o.Estimate.Host.NetworkFrom {
	case model.NetworkGiven:
		return p.Sprintf("%.0f Gbps (--network-gbps)", gbps)
	case model.NetworkCatalog:
		return p.Sprintf("%.0f Gbps (catalog median)", gbps)
	case model.NetworkNoFabric:
		return p.Sprintf("%.0f Gbps (assumed: no fabric documented)", gbps)
	}
	return p.Sprintf("%.0f Gbps (assumed)", gbps)
}

// assumedNetwork counts the offers of offers timed without their type's
// network figure and lists their instance types and the figures they are
// timed at, each once, in order; assumed is set when one of them is
// timed at model.AssumedNetworkGbps, median when one is timed at the
// catalog's median.
func assumedNetwork(p *i18n.Printer, offers []model.Offer) (n int, types, figs []string, assumed, median bool) {
	seen := map[string]bool{}
	for i := range offers {
		if o := &offers[i]; o.AssumesNetwork() {
			n++
			if !seen[o.Instance.Type] {
				seen[o.Instance.Type] = true
				types = append(types, o.Instance.Type)
			}
			if f := networkFigure(p, o); !seen["\x00"+f] {
				seen["\x00"+f] = true
				figs = append(figs, f)
			}
			switch o.Estimate.Host.NetworkFrom {
			case model.NetworkAssumedSource, model.NetworkNoFabric:
				assumed = true
			case model.NetworkCatalog:
				median = true
			}
		}
	}
	return n, types, figs, assumed, median
}

// borderlineTableNote explains the "~" headroom mark of OfferRow when a
// shown offer is borderline: the top of its 90% memory band is past its
// usable VRAM (model.VerdictBorderline), as estimate's "~ borderline".
// It counts the table's rows, as lateTableNote does.
func borderlineTableNote(p *i18n.Printer, offers []model.Offer) string {
	n, lo, top, chance := borderlineSummary(p, offers)
	if n == 0 {
		return ""
	}
	// Rows on different layouts have different bands: one figure, the
	// highest, read as every row's (fresh-user walk: 1 GPU's 319.43 GiB
	// quoted beside FSDP ×8 rows that need 163.86 GiB), so a range then.
	format := "~ borderline (%d %s): the %.0f%% band reaches %s per GPU, past the usable VRAM (the %.0f%% margin kept free); %s chance of running out of memory, that is of needing more than all the driver exposes; leave room or use a smaller micro-batch"
	smaller := false // a smaller micro-batch exists on one of them
	for i := range offers {
		if o := &offers[i]; o.Verdict == model.VerdictBorderline && o.Estimate.Workload.MicroBatch > 1 {
			smaller = true
		}
	}
	if !smaller {
		format = "~ borderline (%d %s): the %.0f%% band reaches %s per GPU, past the usable VRAM (the %.0f%% margin kept free); %s chance of running out of memory, that is of needing more than all the driver exposes; leave room"
	}
	if GiB(lo) != GiB(top) {
		format = "~ borderline (%d %s): the %.0f%% band reaches %s–%s per GPU, each row on its own layout, past the usable VRAM (the %.0f%% margin kept free); %s chance of running out of memory, that is of needing more than all the driver exposes; leave room or use a smaller micro-batch"
		if !smaller {
			format = "~ borderline (%d %s): the %.0f%% band reaches %s–%s per GPU, each row on its own layout, past the usable VRAM (the %.0f%% margin kept free); %s chance of running out of memory, that is of needing more than all the driver exposes; leave room"
		}
		return p.Sprintf(format, n, p.T(marketPlural(n, "row", "rows")), BandConfidence*100, strings.TrimSuffix(GiB(lo), " GiB"), GiB(top), model.FitMargin*100, chance)
	}
	return p.Sprintf(format, n, p.T(marketPlural(n, "row", "rows")), BandConfidence*100, GiB(top), model.FitMargin*100, chance)
}

// BorderlineNoteShort is borderlineTableNote in one short line, for the
// configurator's compact panel, whose offers carry the "~" mark on their
// GPUs: "~ borderline: about 10% chance of running out of memory". Empty
// when no offer of offers is borderline.
func BorderlineNoteShort(p *i18n.Printer, offers []model.Offer) string {
	n, _, _, chance := borderlineSummary(p, offers)
	if n == 0 {
		return ""
	}
	return p.Sprintf("~ borderline: %s chance of running out of memory", chance)
}

// borderlineSummary counts the borderline offers of offers, the lowest
// and highest of the tops of their 90% memory bands (each on its offer's
// layout), and their chance of running out of memory ("about 10%", or
// "10–40%" when they differ; model.RoundChance).
func borderlineSummary(p *i18n.Printer, offers []model.Offer) (n int, low, top float64, chance string) {
	lo, hi := 1.0, 0.0
	for i := range offers {
		if o := &offers[i]; o.Verdict == model.VerdictBorderline {
			n++
			if b := o.Estimate.MemoryBand[1]; n == 1 || b < low {
				low = b
			}
			top = max(top, o.Estimate.MemoryBand[1])
			lo, hi = min(lo, model.RoundChance(o.OOMChance)), max(hi, model.RoundChance(o.OOMChance))
		}
	}
	chance = p.Sprintf("about %.0f%%", hi*100)
	if lo < hi {
		chance = p.Sprintf("%.0f–%.0f%%", lo*100, hi*100)
	}
	return n, low, top, chance
}

// lateTableNote explains the "~" job-time mark of OfferRow when a shown
// offer may miss the deadline: the deadline falls inside the 90% range of
// its time (model.Offer.Late), so it ranks after every offer whose range
// meets the deadline at its slow end. onCost: the table has no job-time
// column (fitTable dropped it) and the mark is on the job cost, which the
// note then names.
// It counts the table's rows, as the reader counts the marks: an offer in
// other regions at one price shares a row (CollapseRegions), so 185 late
// offers may make 98 rows (fresh-user walk: "98 offers" beside JSON's 185).
func lateTableNote(p *i18n.Printer, offers []model.Offer, onCost bool) string {
	n, chance, deadline := lateSummary(p, offers)
	if n == 0 {
		return ""
	}
	format := "~ job time (%d %s): %s chance of missing the %s h deadline, which falls inside the %.0f%% range of the time; ranked after the offers that meet it at the range's slow end"
	if onCost {
		format = "~ job cost (%d %s): %s chance of missing the %s h deadline, which falls inside the %.0f%% range of the job time; ranked after the offers that meet it at the range's slow end"
	}
	// The first row late: no offer that fits meets the deadline, as they
	// rank by fit, then lateness (compareOffers); "ranked after the offers
	// that meet it" read as if some did (walk48).
	if offers[0].Late() {
		format = "~ job time (%d %s): %s chance of missing the %s h deadline, which falls inside the %.0f%% range of the time; no offer that fits meets it at the range's slow end"
		if onCost {
			format = "~ job cost (%d %s): %s chance of missing the %s h deadline, which falls inside the %.0f%% range of the job time; no offer that fits meets it at the range's slow end"
		}
	}
	return p.Sprintf(format, n, p.T(marketPlural(n, "row", "rows")), chance, deadline, BandConfidence*100)
}

// LateNoteShort is lateTableNote in one short line, for the
// configurator's panel and offers table, which have one line for it:
// "~ job time (3 offers): about 40% chance of missing the 24 h deadline;
// ranked after the offers that meet it" (a whole sentence: "ranked
// after" alone read as a line cut short). Empty when no offer of offers
// is late. onCost: the table has no job-time column and the mark is on
// the job cost ("~ job cost (3 offers): …").
func LateNoteShort(p *i18n.Printer, offers []model.Offer, onCost bool) string {
	n, chance, deadline := lateSummary(p, offers)
	if n == 0 {
		return ""
	}
	format := "~ job time (%d %s): %s chance of missing the %s h deadline; ranked after the offers that meet it"
	if onCost {
		format = "~ job cost (%d %s): %s chance of missing the %s h deadline; ranked after the offers that meet it"
	}
	if offers[0].Late() { // ranked first and late: none meets it
		format = "~ job time (%d %s): %s chance of missing the %s h deadline; no offer that fits is sure to meet it"
		if onCost {
			format = "~ job cost (%d %s): %s chance of missing the %s h deadline; no offer that fits is sure to meet it"
		}
	}
	return p.Sprintf(format, n, p.T(marketPlural(n, "offer", "offers")), chance, deadline)
}

// lateSummary counts the late offers of offers (model.Offer.Late) and
// says their chance of missing the deadline ("about 40%", or "15–35%"
// when they differ), with the deadline in hours.
func lateSummary(p *i18n.Printer, offers []model.Offer) (n int, chance, deadline string) {
	lo, hi := 1.0, 0.0
	for i := range offers {
		if o := &offers[i]; o.Late() {
			n++
			deadline = model.FormatAsGiven(o.DeadlineHours) // as given: 2.4, not 2 (walk37)
			lo, hi = min(lo, model.RoundChance(o.LateChance)), max(hi, model.RoundChance(o.LateChance))
		}
	}
	chance = p.Sprintf("about %.0f%%", hi*100)
	if lo < hi {
		chance = p.Sprintf("%.0f–%.0f%%", lo*100, hi*100)
	}
	return n, chance, deadline
}

// dropOrder is which offer columns go first when the terminal is narrow:
// $/month, headroom, job time, region.
var dropOrder = []int{5, 8, 6, 2}

// SortColumn is the OfferHeaders column an offers table is sorted by,
// which narrow tables keep; -1 for none.
func SortColumn(k model.SortKey) int {
	switch k {
	case model.SortPrice:
		return 4
	case model.SortMonthly:
		return 5
	case model.SortTime:
		return 6
	case model.SortJob:
		return 7
	case model.SortHeadroom:
		return 8
	}
	return -1
}

// DropOrder is dropOrder without the column sorted by (SortColumn), which
// a table never drops.
func DropOrder(k model.SortKey) []int {
	sorted := SortColumn(k)
	return slices.DeleteFunc(slices.Clone(dropOrder), func(c int) bool { return c == sorted })
}

// fitTable renders the offers table within width cells, dropping the least
// needed columns until it fits (width ≤ 0: no limit), never the column
// sorted by. A dropped column's "~" moves to a cell that stays, as the
// configurator's tables move it: the job time's (a late offer) to the
// job cost, the headroom's (a borderline one) to the GPUs. kept says
// which columns of headers the table shows, for the notes under it.
func fitTable(r *Renderer, headers []string, rows [][]string, width int, sort model.SortKey) (out string, kept []bool) {
	keep := make([]bool, len(headers))
	for i := range keep {
		keep[i] = true
	}
	render := func() string {
		var hs []string
		var idx []int
		for i, k := range keep {
			if k {
				hs = append(hs, headers[i])
				idx = append(idx, i)
			}
		}
		rs := make([][]string, len(rows))
		for i, row := range rows {
			for _, j := range idx {
				cell := row[j]
				switch {
				case j == 7 && !keep[6] && strings.HasPrefix(row[6], "~"): // late: OfferRowIn's job-time mark
					cell = "~" + cell
				case j == 3 && !keep[8] && strings.HasPrefix(row[8], "~"): // borderline: its headroom mark
					cell = "~" + cell
				}
				rs[i] = append(rs[i], cell)
			}
		}
		return r.table(hs, rs, func(col int) bool { return idx[col] >= 4 })
	}
	out = render()
	order := DropOrder(sort)
	if len(headers) > len(OfferHeaders) { // reserved: the job cost already shows the term's bill
		order = append(order, len(OfferHeaders))
	}
	for _, col := range order {
		if width <= 0 || lipgloss.Width(out) <= width {
			break
		}
		keep[col] = false
		out = render()
	}
	// Still too wide (Chinese headers are two cells a rune; a precision
	// note makes the GPUs cell 27 cells): the terminal would wrap each
	// row, cutting a GPU key across two lines. The GPUs' precision notes
	// give their words (the "↺" stays), then the instance type is cut at
	// its end, as OfferRowIn cuts it, down to minInstanceCells; a GPU key
	// is never cut (CutGPUs).
	if width <= 0 || lipgloss.Width(out) <= width {
		return out, keep
	}
	for i := range rows {
		rows[i][3] = GPUsNoNote(rows[i][3])
	}
	out = render()
	if over := lipgloss.Width(out) - width; over > 0 && keep[1] {
		widest := 0
		for _, row := range rows {
			widest = max(widest, lipgloss.Width(row[1]))
		}
		n := max(widest-over, minInstanceCells, lipgloss.Width(headers[1]))
		for i := range rows {
			rows[i][1] = Truncate(rows[i][1], n)
		}
		out = render()
	}
	return out, keep
}

// minInstanceCells is the fewest cells fitTable cuts an instance type
// to: "Standard_NC…" still names the family, as the configurator's
// tables keep 10–16.
const minInstanceCells = 12

// ReasonSummary accounts for every priced offer: shown, removed by which
// check, or another host of the same GPU in the same region that the
// table does not keep (model.Recommend: dearer, or slower at about the
// same job cost in the slot kept for speed).
func ReasonSummary(rec *model.Recommendation) string { return ReasonSummaryIn(nil, rec) }

// ReasonSummaryIn is ReasonSummary in p's language.
func ReasonSummaryIn(p *i18n.Printer, rec *model.Recommendation) string {
	removed := 0
	var parts []string
	for _, r := range rec.Reasons {
		removed += r.Count
		parts = append(parts, p.Sprintf("%[1]s %[2]s", model.Grouped(r.Count), p.T(string(r.Kind))))
	}
	s := p.Sprintf("%s %s of %s priced", model.Grouped(len(rec.Offers)), p.T(marketPlural(len(rec.Offers), "offer", "offers")), model.Grouped(rec.Considered))
	if len(parts) > 0 {
		s += p.Sprintf("; did not pass: %s", strings.Join(parts, p.T(", ")))
	}
	if dup := rec.Considered - removed - len(rec.Offers); dup > 0 {
		s += p.Sprintf("; %s %s of a GPU already listed in the same region left out", model.Grouped(dup), p.T(marketPlural(dup, "other host", "other hosts")))
	}
	return s
}

// CollapseRegions keeps the first n offers, one per instance type, GPU
// count and price: the same offer in other regions shows as "+N" on its
// region. used is how many of offers the n stand for.
func CollapseRegions(offers []model.Offer, n int) (out []model.Offer, used int) {
	starts, lens := RegionRuns(offers, max(n, 0))
	for k, i := range starts {
		o := offers[i]
		if same := lens[k] - 1; same > 0 {
			o.Region += fmt.Sprintf(" +%d", same) // whole: tables cut what does not fit, never into a look-alike name
		}
		out = append(out, o)
		used = i + lens[k]
	}
	return out, used
}

// SameButRegion reports whether two offers differ only by region.
func SameButRegion(a, b *model.Offer) bool {
	if a.Instance != b.Instance || a.GPUs != b.GPUs || a.USDPerHour != b.USDPerHour || a.JobUSD != b.JobUSD || a.Pricing != b.Pricing {
		return false
	}
	// A price an overlay set is not the catalog's, even when equal: its
	// row names the overlay (OverlayMark).
	as, ao := a.Provenance()
	bs, bo := b.Provenance()
	return as == bs && ao == bo && a.PriceAsOf() == b.PriceAsOf()
}

// RegionIn is a region name as p's tables and sentences write it
// (model.RegionShown): a placeholder naming no place (Daytona's "earth")
// as "location not stated", a Vast.ai name with an empty part without the
// empty part. JSON and CSV keep the name itself.
func RegionIn(p *i18n.Printer, region string) string {
	if base, more, _ := strings.Cut(region, " +"); model.RegionUnstated(base) {
		if more != "" {
			more = " +" + more
		}
		return p.T("location not stated") + more
	}
	return model.RegionShown(region)
}

// OfferRegionIn is RegionIn for a region of provider's, which may end in
// " +N" (other regions at the same price, CollapseRegions): a provider
// whose catalog regions say where a price applies, not where a type is
// offered (model.RegionsUnconfirmed: Lambda, OCI), has several of them
// written "any of N regions", never the first of them by name, which read
// as the place (walk49: Lambda's "asia-northeast-1 +16" read as Tokyo to
// a US user, the type being in no known region more than any other).
func OfferRegionIn(p *i18n.Printer, provider, region string) string {
	if n, ok := unconfirmedRegions(provider, region); ok {
		return p.Sprintf("any of %d regions", n)
	}
	return RegionIn(p, region)
}

// OfferRegionCaveatIn is OfferRegionIn for recommend's table and "best:"
// line, where one region of such a provider (after --country or
// --region) keeps its caveat, "europe-central-1 (unconfirmed)": the
// catalog lists the type there as everywhere, which does not say it is
// offered there (new-user walk: --country de showed Lambda's
// europe-central-1 as a plain place while --json said
// regions_unconfirmed). The configurator's narrow panels keep
// OfferRegionIn.
func OfferRegionCaveatIn(p *i18n.Printer, provider, region string) string {
	if unconfirmedRegion(provider, region) {
		return p.Sprintf("%s (unconfirmed)", RegionIn(p, region))
	}
	return OfferRegionIn(p, provider, region)
}

// unconfirmedRegion reports whether region, one region of provider's
// (no " +N"), names a place the provider's catalog does not confirm
// (model.RegionsUnconfirmed).
func unconfirmedRegion(provider, region string) bool {
	return model.RegionsUnconfirmed(provider) && region != "" && !strings.Contains(region, " +") && !model.RegionUnstated(region)
}

// BestRegionIn is the region of offers[0] (ranked offers) as a "best:"
// line names it: RegionIn, or for a provider whose regions are unconfirmed
// (OfferRegionIn) "any of N regions" when the offers after it differ only
// by region, as its table row says.
func BestRegionIn(p *i18n.Printer, offers []model.Offer) string {
	top := &offers[0]
	if !model.RegionsUnconfirmed(top.Instance.Provider) {
		return RegionIn(p, top.Region)
	}
	first, _ := CollapseRegions(offers, 1)
	return OfferRegionCaveatIn(p, top.Instance.Provider, first[0].Region)
}

// ShortRegionIn is a region cell as a column too narrow for it writes it:
// "any of N regions" (OfferRegionIn) as "any of N", which still reads as
// no place where a cut "any …ions" said nothing; any other cell as it is.
func ShortRegionIn(p *i18n.Printer, cell string) string {
	digits := strings.TrimFunc(cell, func(r rune) bool { return r < '0' || r > '9' })
	n, err := strconv.Atoi(digits)
	if err != nil || cell != p.Sprintf("any of %d regions", n) {
		return cell
	}
	return p.Sprintf("any of %d", n)
}

// OfferRegionArg is OfferRegionIn as an argument of a sentence built as a
// model.Message (RegionArg).
func OfferRegionArg(provider, region string) any {
	if n, ok := unconfirmedRegions(provider, region); ok {
		return model.Msg("any of %d regions", n)
	}
	return RegionArg(region)
}

// unconfirmedRegions returns how many regions a "name +N" region of
// provider stands for, when provider's regions are unconfirmed
// (model.RegionsUnconfirmed) and it stands for more than one.
func unconfirmedRegions(provider, region string) (int, bool) {
	if !model.RegionsUnconfirmed(provider) {
		return 0, false
	}
	_, more, ok := strings.Cut(region, " +")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(more)
	if err != nil || n < 1 {
		return 0, false
	}
	return n + 1, true
}

// RegionArg is a region as an argument of a sentence built as a
// model.Message: a placeholder naming no place (Daytona's "earth") as the
// message "location not stated", translated with the sentence, keeping a
// " +N" of other regions; any other name as model.RegionShown writes it.
// JSON fields that hold the region itself keep the name; a sentence does
// not.
func RegionArg(region string) any {
	if base, more, _ := strings.Cut(region, " +"); model.RegionUnstated(base) {
		if more != "" {
			return model.Msg("%s +%s", model.Msg("location not stated"), more)
		}
		return model.Msg("location not stated")
	}
	return model.RegionShown(region)
}

// regionCell is a table's region cell: RegionIn cut to n cells with
// CutRegion, but "location not stated" whole (cut, it would read as a
// place), as OfferRow writes it.
func (r *Renderer) regionCell(p *i18n.Printer, region string, n int) string {
	shown := RegionIn(p, region)
	if base, _, _ := strings.Cut(region, " +"); model.RegionUnstated(base) || r != nil && r.Plain {
		return shown
	}
	return CutRegion(shown, n)
}

// CutRegion is Truncate for a region that may end in " +N" (other
// regions at the same price): the name is cut, never the count, so a cut
// region cannot read as a longer region name.
func CutRegion(s string, n int) string {
	base, more, ok := strings.Cut(s, " +")
	if !ok || ansi.StringWidth(s) <= n {
		return Truncate(s, n)
	}
	suffix := " +" + more
	return Truncate(base, max(n-ansi.StringWidth(suffix), 4)) + suffix
}

// Truncate cuts s to at most n cells, ending in "…" when cut; wide (CJK)
// runes count as two cells.
func Truncate(s string, n int) string {
	if lipgloss.Width(s) <= n {
		return s
	}
	return ansi.Truncate(s, n, "…")
}

// OfferLayoutIn is an offer's layout when it is not the one w asked for
// (the header's figure): "fsdp ×4, 12.25 GiB/GPU", the strategy the
// matcher ran on the offer's GPUs (with auto GPUs it shards where the
// asked layout does not fit: model.Match) and the VRAM it needs per GPU
// there; "" when the offer runs w's strategy. One GPU and DDP are one
// layout here: DDP replicates what one GPU holds, and the GPUs cell gives
// the count.
// p is the language (nil: English).
func OfferLayoutIn(p *i18n.Printer, o *model.Offer, w *model.Workload) string {
	replicated := func(s model.Strategy) model.Strategy {
		if s == model.Single || s == "" {
			return model.DDP
		}
		return s
	}
	if replicated(o.Strategy) == replicated(w.Strategy) {
		return ""
	}
	return p.Sprintf("%s ×%d, %s/GPU", LayoutName(p, o.Strategy), o.GPUs, GiB(o.NeedBytes))
}

// LayoutName is a strategy as its framework writes it in prose (torch
// FSDP, DDP; DeepSpeed ZeRO-3), "single" in p's language.
func LayoutName(p *i18n.Printer, s model.Strategy) string {
	switch s {
	case model.DDP, model.FSDP:
		return strings.ToUpper(string(s))
	case model.ZeRO1, model.ZeRO2, model.ZeRO3:
		return "ZeRO-" + strings.TrimPrefix(string(s), "zero")
	}
	return StrategyName(p, s)
}

// SpotShownNote says, under an offers table whose spot offers show their
// expected job time and cost with interruptions (Decisions.ShownOffers),
// what those columns hold and that the ranking reads them.
// The job and time keys rank by them; the others do not read them.
func SpotShownNote(p *i18n.Printer, k model.SortKey) string {
	if k == model.SortJob || k == model.SortTime {
		return p.T("spot: job time and job cost are expected with interruptions (checkpoint writes, restarts, lost work), as the Spot lines price them; the offers are ranked by them")
	}
	return p.T("spot: job time and job cost are expected with interruptions (checkpoint writes, restarts, lost work), as the Spot lines price them")
}

// allSpot reports whether every offer of offers is priced at spot rates
// (and there is one).
func allSpot(offers []model.Offer) bool {
	for i := range offers {
		if offers[i].Pricing != model.Spot {
			return false
		}
	}
	return len(offers) > 0
}

// OfferHeaders are the column titles matching OfferRow.
var OfferHeaders = []string{"provider", "instance", "region", "GPUs", "$/h", "$/month", "job time", "job cost", "headroom"}

// OfferHeadersIn are OfferHeaders in p's language.
func OfferHeadersIn(p *i18n.Printer) []string {
	out := make([]string, len(OfferHeaders))
	for i, h := range OfferHeaders {
		out[i] = p.T(h)
	}
	return out
}

// WriteRecommend prints the readable report of gpuplan recommend: the
// workload and its VRAM need, the ranked offers as a table, their warnings
// and the near misses.
func WriteRecommend(out io.Writer, r *Renderer, rec *model.Recommendation, base *model.Estimate, limit, width int) error {
	return WriteRecommendHint(out, r, rec, base, limit, width, " (--limit 0 shows all)")
}

// WriteRecommendHint is WriteRecommend with the hint after "… N more offers"
// (the configurator has no --limit).
func WriteRecommendHint(out io.Writer, r *Renderer, rec *model.Recommendation, base *model.Estimate, limit, width int, moreHint string) error {
	return WriteRecommendDecided(out, r, rec, base, limit, width, moreHint, nil)
}

// WriteRecommendDecided is WriteRecommendHint with Decide's decisions d
// for rec (nil: none): the offers as d shows them (Decisions.ShownOffers),
// so under --pricing spot a spot offer's job time and cost, in the table
// and on the "best:" line, are the expected ones with interruptions its
// Spot line gives, in the order Decide ranked them, and a note under the
// table says so.
func WriteRecommendDecided(out io.Writer, r *Renderer, rec *model.Recommendation, base *model.Estimate, limit, width int, moreHint string, d *Decisions) error {
	spotTop := d.SpotShown(0)
	spotAny := false
	for i := range rec.Offers {
		spotAny = spotAny || d.SpotShown(i)
	}
	rec = d.Shown(rec)
	st := NewStyles(r)
	p := r.Lang
	var b strings.Builder
	w := &base.Workload
	name := ModelName(p, w, base.Params)
	fmt.Fprintf(&b, "%s%s\n", st.Title.Render(name), st.Muted.Render(" · "+DescribeWorkloadIn(p, w)))
	fmt.Fprintf(&b, "%s\n", st.Muted.Render(DescribeShapeIn(p, w)))
	gpus := p.Sprintf("on %d GPU", w.GPUs)
	if w.GPUs > 1 {
		gpus = p.Sprintf("on %d GPUs", w.GPUs)
	}
	if limit <= 0 {
		limit = len(rec.Offers)
	}
	offers, shown := CollapseRegions(rec.Offers, limit)
	layouts, otherLayout := make([]string, len(offers)), false
	for i := range offers {
		layouts[i] = OfferLayoutIn(p, &offers[i], w)
		otherLayout = otherLayout || layouts[i] != ""
	}
	// The table is laid out first: the header names the strategy column
	// only when the width leaves it (fresh-user walk: the note named a
	// column fitTable had dropped).
	var rows [][]string
	var overlays overlayPrices
	var table, commitNote string
	var kept []bool
	var hidden []string
	if len(rec.Offers) > 0 {
		// Offers that differ only by region (same type, GPUs and prices)
		// share one row: "us-east-1 +7" (CollapseRegions above).
		rows = make([][]string, len(offers))
		marked := make([]bool, len(offers))
		for i := range offers {
			rows[i] = OfferRowIn(p, &offers[i])
			source, origin := offers[i].Provenance()
			marked[i] = overlays.add(source, origin, offers[i].PriceAsOf())
		}
		markPrices(rows, 4, marked)
		if r.Plain {
			plainOfferRows(p, rows, rec.Offers, limit)
		}
		var headers []string
		headers, commitNote = OfferHeadersIn(p), commitmentTableNote(p, offers)
		if allSpot(offers) {
			// The rate is the spot one: said where it is read (new-user
			// walk: --pricing spot without a dataset showed "$/h" alone).
			headers[4] = p.T("spot $/h")
		}
		if commitNote != "" { // reserved: the term, the job's share and on-demand beside the bill
			headers = append(headers, translate(p, CommitmentHeaders...)...)
			for i := range rows {
				rows[i] = append(rows[i], CommitmentCells(&offers[i])...)
			}
		}
		if otherLayout {
			headers = append(headers, p.T("strategy"))
			for i := range rows {
				rows[i] = append(rows[i], layouts[i])
			}
		}
		table, kept = fitTable(r, headers, rows, width, rec.Sort)
		for j, k := range kept {
			if !k {
				hidden = append(hidden, headers[j])
			}
		}
	}
	strategyShown := otherLayout && kept[len(kept)-1]
	// Every row in one other layout (FSDP ×8 where DDP was asked and needs
	// 182 GiB per GPU): the header gives the rows' figure and names the
	// asked one beside it (walk49: "VRAM 182.33 GiB per GPU on 8 GPUs as
	// asked" over rows that all said FSDP ×8, 33.64 GiB/GPU).
	uniform := otherLayout && len(offers) > 0
	for i := range layouts {
		uniform = uniform && layouts[i] == layouts[0]
	}
	switch {
	case uniform:
	case otherLayout && rec.AutoGPUs && !strategyShown: // the strategy column hidden to fit: say where it is
		gpus += p.T(" before the search picks GPUs (each offer uses the GPU count it shows; some use another layout, which the hidden strategy column names)")
	case otherLayout && !strategyShown:
		gpus += p.T(" as asked (some offers use another layout, which the hidden strategy column names)")
	case otherLayout && rec.AutoGPUs: // the figure is the asked layout's; rows that shard say so (new-user report: FSDP ×4 never named)
		gpus += p.T(" before the search picks GPUs (each offer uses the GPU count it shows; the strategy column names another layout and its VRAM per GPU)") // no GPU count was asked
	case otherLayout:
		gpus += p.T(" as asked (the strategy column names another layout and its VRAM per GPU)")
	case rec.AutoGPUs:
		gpus += p.T(" (each offer uses the GPU count it shows)")
	}
	if uniform {
		o := &offers[0]
		rows := p.Sprintf("on %d GPU", o.GPUs)
		if o.GPUs > 1 {
			rows = p.Sprintf("on %d GPUs", o.GPUs)
		}
		asked := w.Strategy
		if asked == model.Single || asked == "" {
			asked = model.DDP // one GPU's figure is what DDP replicates (OfferLayoutIn)
		}
		if rec.AutoGPUs { // no GPU count was asked: the figure is the search's start, not "as asked"
			p.Fprintf(&b, "%s %s per GPU %s with %s, the layout every row uses (%s %s needs %s per GPU); ranked by %s\n",
				st.Heading.Render(p.T("VRAM")), GiB(o.NeedBytes), rows, LayoutName(p, o.Strategy), LayoutName(p, asked), gpus, GiB(base.Memory.Total()), SortName(p, rec.Sort))
		} else {
			p.Fprintf(&b, "%s %s per GPU %s with %s, the layout every row uses (%s as asked needs %s per GPU); ranked by %s\n",
				st.Heading.Render(p.T("VRAM")), GiB(o.NeedBytes), rows, LayoutName(p, o.Strategy), LayoutName(p, asked), GiB(base.Memory.Total()), SortName(p, rec.Sort))
		}
	} else {
		p.Fprintf(&b, "%s %s per GPU %s; ranked by %s\n", st.Heading.Render(p.T("VRAM")), GiB(base.Memory.Total()), gpus, SortName(p, rec.Sort))
	}
	if rec.AutoGPUs && w.Task.Training() {
		fmt.Fprintf(&b, "%s\n", st.Muted.Render(GlobalBatchNoteIn(p, w, rec.Offers)))
	}
	if m, ok := w.GlobalBatchChange(); ok { // --gpus that cannot share the batch asked
		fmt.Fprintf(&b, "%s %s\n", st.Warn.Render("!"), p.Message(m))
	}
	fmt.Fprintf(&b, "%s\n\n", st.Muted.Render(ReasonSummaryIn(p, rec)))
	if len(rec.Offers) == 0 {
		fmt.Fprintf(&b, "%s\n", st.Bad.Render(p.T("No offer runs this workload with these filters.")))
	} else {
		fmt.Fprintf(&b, "%s\n", table)
		if line := hiddenColumnsLine(p, hidden, width, moreHint != ""); line != "" {
			for _, l := range strings.Split(line, "\n") { // a line each: Render pads a block to its widest line
				fmt.Fprintf(&b, "%s\n", st.Muted.Render(l))
			}
		}
		if n := len(rec.Offers); n > shown {
			// Rows, as --limit 0 would print them (one per run of regions at
			// the same price), not the region prices they stand for.
			// The header counts offers (a region's price each), as the
			// configurator's panel does; the table's rows merge the regions
			// at one price, so the footer names both (new-user trial: "445
			// more offers" under "1132 offers" read as two counts of one thing).
			runs, _ := RegionRuns(rec.Offers, -1)
			more := len(runs) - len(offers)
			fmt.Fprintf(&b, "%s\n", st.Muted.Render(p.Sprintf("… %s more %s%s; the %s offers make %s rows: the same offer in other regions at one price shares a row (+N)",
				model.Grouped(more), p.T(marketPlural(more, "row", "rows")), p.T(moreHint), model.Grouped(n), model.Grouped(len(runs)))))
		}
		for _, note := range []string{borderlineTableNote(p, offers), lateTableNote(p, offers, !kept[6]), RiskyAheadNote(p, rec), AssumedNetworkNote(p, offers), oldPricesTableNote(p, offers, rec.AsOf)} {
			if note != "" {
				fmt.Fprintf(&b, "%s\n", st.Warn.Render(note))
			}
		}
		for i := range offers {
			if o := &offers[i]; o.Fallback != "" {
				fmt.Fprintf(&b, "%s\n", st.Muted.Render(p.Sprintf("↺ is the precision a GPU runs in place of %s, which it lacks; its row is timed in that precision", o.Asked)))
				break
			}
		}
		spotNote := ""
		if spotAny {
			spotNote = SpotShownNote(p, rec.Sort)
		}
		for _, note := range append(overlays.legend(p, OverlayMark), commitNote, SizedTableNote(p, offers, rec.Sort), spotNote, JobRangeNoteIn(p, offers), UncalibratedTableNote(p, offers), RecommendRegionsNote(p, offers)) {
			if note != "" {
				fmt.Fprintf(&b, "%s\n", st.Muted.Render(note))
			}
		}
		top := &rec.Offers[0]
		if model.RegionUnstated(top.Region) { // not "in location not stated" (Daytona's "earth")
			p.Fprintf(&b, "\n%s %s %s (location not stated): %s per hour, %s per month", st.Good.Render(p.T("best:")), top.Instance.Provider, top.Instance.Type, USDHour(top.USDPerHour), USD(top.MonthlyUSD))
		} else {
			p.Fprintf(&b, "\n%s %s %s in %s: %s per hour, %s per month", st.Good.Render(p.T("best:")), top.Instance.Provider, top.Instance.Type, BestRegionIn(p, rec.Offers), USDHour(top.USDPerHour), USD(top.MonthlyUSD))
		}
		switch {
		case top.HasJob && spotTop:
			p.Fprintf(&b, ", expected %s and %s for the job with interruptions", HoursIn(p, top.JobHours), USD(top.JobUSD))
		case top.HasJob:
			p.Fprintf(&b, ", %s and %s for the job", HoursIn(p, top.JobHours), USD(top.JobUSD))
		}
		if rng := JobRangeIn(p, top); rng != "" { // the cost carries the time's range
			p.Fprintf(&b, " (%s; %s)\n", PricingName(p, top.Pricing), rng)
		} else {
			p.Fprintf(&b, " (%s)\n", PricingName(p, top.Pricing))
		}
		for _, wn := range p.Messages(d.spotWarnings(0, top.WarningMessages())) {
			fmt.Fprintf(&b, "  %s %s\n", st.Warn.Render("!"), wn)
		}
		if l := OldPriceLine(p, top, rec.AsOf); l != "" { // the price acted on is months behind the catalog
			fmt.Fprintf(&b, "  %s %s\n", st.Warn.Render("!"), l)
		}
		// A borderline offer far cheaper than the best: named here, not
		// only under the table (model.TryFirstShare; walk: best 1.2 years
		// and $1.2M, 8×MI355X at $1,167 ranked fifth).
		if first, more := TryFirstLines(p, rec, d); first != "" {
			fmt.Fprintf(&b, "%s\n", p.Sprintf("%s: %s", st.Warn.Render(p.T("try first")), first))
			for _, l := range more {
				fmt.Fprintf(&b, "%s\n", st.Warn.Render(l))
			}
		}
		// A change of the recipe that saves half or more: lifted from
		// "What saves the most", printed pages below (walk: "8-bit AdamW
		// states saves $1.2M" under a $1.2M best).
		if line := HeadlineSavingLine(p, rec, d); line != "" {
			fmt.Fprintf(&b, "%s\n", p.Sprintf("%s: %s", st.Good.Render(p.T("biggest saving")), line))
		}
	}
	if d != nil {
		for i := range d.Answers {
			fmt.Fprintf(&b, "%s %s\n", st.Good.Render("→"), AnswerText(p, &d.Answers[i]))
		}
	}
	if len(rec.Rejected) > 0 {
		fmt.Fprintf(&b, "\n%s\n", st.Heading.Render(p.T("Near misses (nearest to fitting)")))
		// The provider column is as wide as its longest name, 10 at least:
		// primeintellect (14) pushed its row out of line (walk49).
		pw := 10
		for i := range rec.Rejected {
			pw = max(pw, lipgloss.Width(rec.Rejected[i].Instance.Provider))
		}
		for _, x := range rec.Rejected {
			fmt.Fprintf(&b, "  %-*s %-26s %9s  %s\n", pw, x.Instance.Provider, r.Cut(x.Instance.Type, 26), RejectionPrice(p, &x), RejectionReason(p, &x))
		}
	}
	_, err := io.WriteString(r.Writer(out), b.String())
	return err
}

// RejectionPrice is what a near miss would cost per hour: "$0.42/h",
// "$142.42/h", or "8 × $0.42/h" when the job would rent several
// instances, so the price is never read as one instance's. It is to the
// cent at every size (model.USDCents), as the reasons beside it say
// prices and limits (new-user walk: "$100/h" beside "$100.13/h is above
// the $50.00/h limit").
func RejectionPrice(p *i18n.Printer, x *model.Rejection) string {
	if x.Instances > 1 {
		return p.Sprintf("%d × %s/h", x.Instances, model.USDCents(x.USDPerHour/float64(x.Instances)))
	}
	return p.Sprintf("%s/h", model.USDCents(x.USDPerHour))
}

// RejectionReason is a near miss's reason in p's language (its message
// when the matcher kept one, else the English reason as a key).
func RejectionReason(p *i18n.Printer, x *model.Rejection) string {
	if x.ReasonMsg.IsZero() {
		return p.T(x.Reason)
	}
	return p.Message(x.ReasonMsg)
}

// SortName is a sort key in p's language: the flag value in English
// ("job"), words in Chinese.
func SortName(p *i18n.Printer, k model.SortKey) string {
	if !p.Chinese() {
		return string(k)
	}
	return p.T("sort " + string(k))
}

// GlobalBatchNoteIn says what recommend did with w's global batch when it
// picked the GPU count per offer: kept, its accumulation shared out over
// the GPUs (model.Workload.OnGPUs, with the split on the offer with the
// most GPUs as the example), or, with the micro-batch per GPU
// (model.Workload.BatchPerGPU), grown with them.
func GlobalBatchNoteIn(p *i18n.Printer, w *model.Workload, offers []model.Offer) string {
	if w.BatchPerGPU {
		return p.Sprintf("no gradient accumulation given: the micro-batch of %d is per GPU, so the global batch is %d × each offer's GPUs (--grad-accum fixes it)",
			w.MicroBatch, w.MicroBatch)
	}
	var most, nearest *model.Workload
	for i := range offers {
		if e := offers[i].Estimate; e != nil && e.Workload.GPUs > 1 && (most == nil || e.Workload.GPUs > most.GPUs) {
			most = &e.Workload
		}
		// The adapter recipe's 16 on GPUs that cannot share it runs the
		// nearest they share (model.Workload.OnGPUs): "kept on every
		// offer" would not be true of them.
		if e := offers[i].Estimate; e != nil && e.Workload.GlobalBatch() != w.GlobalBatch() && (nearest == nil || e.Workload.GPUs > nearest.GPUs) {
			nearest = &e.Workload
		}
	}
	if nearest != nil {
		return p.Sprintf("global batch %d (micro-batch %d × gradient accumulation %d) where an offer's GPUs share it; on the others the LoRA/QLoRA recipe's nearest they share, e.g. %d GPUs at %d × %d (a global batch of %d)",
			w.GlobalBatch(), w.MicroBatch, w.GradAccum, nearest.GPUs, nearest.MicroBatch, nearest.GradAccum, nearest.GlobalBatch())
	}
	if most == nil {
		return p.Sprintf("global batch %d (micro-batch %d × gradient accumulation %d) kept on every offer", w.GlobalBatch(), w.MicroBatch, w.GradAccum)
	}
	return p.Sprintf("global batch %d (micro-batch %d × gradient accumulation %d) kept on every offer: its GPUs share it, e.g. %d GPUs at %d × %d",
		w.GlobalBatch(), w.MicroBatch, w.GradAccum, most.GPUs, most.MicroBatch, most.GradAccum)
}

// hiddenColumnsLine names the columns fitTable hid to fit width, as
// WriteMarket's footer does and in its words: "Hidden to fit 80 columns:
// $/month, headroom (-o wide shows them)." wide: the command has -o wide
// (gpuplan recommend; kubectl get -o wide,
// https://kubectl.docs.kubernetes.io/references/kubectl/get/options/wide);
// the configurator's printed report has no flags and only names them.
// Wrapped at width between the names, each kept whole. "" when none is
// hidden.
func hiddenColumnsLine(p *i18n.Printer, hidden []string, width int, wide bool) string {
	if len(hidden) == 0 {
		return ""
	}
	keep := strings.NewReplacer(" ", "\u00a0", "-", "\u2011")
	names := make([]string, len(hidden))
	for i, h := range hidden {
		names[i] = keep.Replace(h)
	}
	var line string
	if wide {
		line = p.Sprintf("Hidden to fit %d columns: %s (-o wide shows them).", width, strings.Join(names, p.T(", ")))
		line = strings.Replace(line, "-o wide", keep.Replace("-o wide"), 1)
	} else {
		line = p.Sprintf("Hidden to fit %d columns: %s.", width, strings.Join(names, p.T(", ")))
	}
	lines := strings.Split(ansi.Wrap(line, width, "、"), "\n")
	for i, l := range lines {
		lines[i] = strings.NewReplacer("\u00a0", " ", "\u2011", "-").Replace(strings.TrimRight(l, " "))
	}
	return strings.Join(lines, "\n")
}
