package decide

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// InterruptionRate is how often a spot instance is reclaimed: the fraction
// of instances interrupted in a month, as AWS's Spot Instance Advisor
// publishes it ("Frequency of interruption represents the rate at which
// Spot has reclaimed capacity during the trailing month", in the buckets
// <5%, 5-10%, 10-15%, 15-20% and >20%).
type InterruptionRate struct {
	// PerMonth is the fraction, 0–1, used for the estimate: the middle of a
	// bounded bucket, the lower bound of ">20%", or the user's own figure.
	PerMonth float64 `json:"per_month"`
	// LowPerMonth and HighPerMonth bound it; HighPerMonth is 0 when the
	// bucket has no upper bound (">20%").
	LowPerMonth  float64 `json:"low_per_month"`
	HighPerMonth float64 `json:"high_per_month"`
	Bucket       string  `json:"bucket,omitempty"` // the advisor's label: "5-10%"
	Source       string  `json:"source"`
	// Assumption is true when no published figure exists for this
	// instance and region: a provider default, to be shown as such.
	Assumption bool `json:"assumption"`
}

// ParseAdvisorBucket returns the bounds of a Spot Instance Advisor
// frequency-of-interruption label as fractions: "<5%" → 0, 0.05;
// "5-10%" → 0.05, 0.10; ">20%" → 0.20, 0 (no upper bound).
func ParseAdvisorBucket(label string) (low, high float64, err error) {
	s := strings.TrimSpace(label)
	bad := model.Errorf(ErrInvalidSpot, "interruption bucket %q: want <N%%, N-M%% or >N%%", label)
	num := strings.TrimSuffix(s, "%")
	if num == s {
		return 0, 0, bad
	}
	pct := func(v string) (float64, bool) {
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		return f / 100, err == nil && f >= 0 && f <= 100
	}
	switch {
	case strings.HasPrefix(num, "<"):
		h, ok := pct(num[1:])
		if !ok || h == 0 {
			return 0, 0, bad
		}
		return 0, h, nil
	case strings.HasPrefix(num, ">"):
		l, ok := pct(num[1:])
		if !ok || l >= 1 {
			return 0, 0, bad
		}
		return l, 0, nil
	}
	a, b, ok := strings.Cut(num, "-")
	l, ok1 := pct(a)
	h, ok2 := pct(b)
	if !ok || !ok1 || !ok2 || h <= l {
		return 0, 0, bad
	}
	return l, h, nil
}

// RateFromBucket turns an advisor label into a rate: the middle of a
// bounded bucket, the lower bound of an open one (">20%" is at least 20%).
func RateFromBucket(label, source string) (InterruptionRate, error) {
	l, h, err := ParseAdvisorBucket(label)
	if err != nil {
		return InterruptionRate{}, err
	}
	r := InterruptionRate{LowPerMonth: l, HighPerMonth: h, Bucket: label, Source: source, PerMonth: l}
	if h > 0 {
		r.PerMonth = (l + h) / 2
	}
	return r, nil
}

// PerHour converts the monthly fraction into a Poisson rate per instance
// hour. If a fraction f of instances is interrupted at least once in a
// month of HoursPerMonth hours, P(no interruption) = e^(−λ·730) = 1 − f,
// so λ = −ln(1 − f) / 730; a fraction of 1 or more gives +Inf.
func (r InterruptionRate) PerHour() float64 { return perHour(r.PerMonth) }

func perHour(f float64) float64 {
	if f >= 1 {
		return math.Inf(1)
	}
	return -math.Log1p(-f) / model.HoursPerMonth
}

// YoungInterval returns Young's first-order optimum checkpoint interval,
// √(2·δ·M), in the unit of its arguments: δ is the time to write one
// checkpoint, M the mean time between interruptions. J. W. Young, "A first
// order approximation to the optimum checkpoint interval", Communications
// of the ACM 17(9), 1974.
func YoungInterval(delta, mtbi float64) float64 { return math.Sqrt(2 * delta * mtbi) }

// DalyInterval returns Daly's higher-order optimum checkpoint interval
// (compute time between checkpoints) for Poisson interruptions:
// √(2δM)·[1 + ⅓·√(δ/2M) + ⅑·(δ/2M)] − δ when δ < 2M, else M. To first
// order it is Young's √(2δM). J. T. Daly, "A higher order estimate of the
// optimum checkpoint interval for restart dumps", Future Generation
// Computer Systems 22(3), 2006, §4 (perturbation solution).
func DalyInterval(delta, mtbi float64) float64 {
	if delta >= 2*mtbi {
		return mtbi
	}
	xi := delta / (2 * mtbi)
	return YoungInterval(delta, mtbi)*(1+math.Sqrt(xi)/3+xi/9) - delta
}

// CheckpointWriteHours is the time to write a checkpoint of the given size
// at the given bandwidth (bytes per second), in hours: δ of Young and Daly.
func CheckpointWriteHours(bytes, bytesPerSecond float64) (float64, error) {
	if !(bytes > 0) || !(bytesPerSecond > 0) || math.IsInf(bytes, 0) || math.IsInf(bytesPerSecond, 0) {
		return 0, model.Errorf(ErrInvalidSpot, "checkpoint of %g B at %g B/s: both must be > 0", bytes, bytesPerSecond)
	}
	return bytes / bytesPerSecond / 3600, nil
}

// CheckpointInterval returns τ, the compute hours between checkpoints
// SpotExpectedCost assumes for in, without pricing the job: the given
// in.CheckpointEveryHours, else DalyInterval(δ, 1/λ) with λ = Nodes ×
// Rate.PerHour(); at most in.JobHours when that is known (> 0): τ = W is
// a job that takes no checkpoint of its own, only the final save it
// makes on demand too, which SpotExpectedCost does not charge. It is 0 when
// the job is not interrupted (λ = 0: no periodic checkpoint is needed),
// when every instance is (λ infinite) and when neither δ nor τ is given.
// A launch file writes its checkpoints every τ with it (model/launch), so
// the file saves as often as the spot estimate assumed; without a job
// length (no dataset) the uncapped interval applies.
func CheckpointInterval(in SpotInput) float64 {
	lambda := float64(max(in.Nodes, 1)) * in.Rate.PerHour()
	if !(lambda > 0) || math.IsInf(lambda, 1) {
		return 0
	}
	tau := in.CheckpointEveryHours
	if !(tau > 0) {
		if !(in.CheckpointWriteHours > 0) {
			return 0
		}
		tau = DalyInterval(in.CheckpointWriteHours, 1/lambda)
	}
	if in.JobHours > 0 {
		tau = min(tau, in.JobHours)
	}
	return tau
}

// SpotInput is one job on spot capacity.
type SpotInput struct {
	JobHours           float64 // uninterrupted wall-clock hours of the job (Offer.JobHours)
	SpotUSDPerHour     float64 // the whole deployment on spot
	OnDemandUSDPerHour float64 // the same deployment on demand; 0 when unknown
	// Nodes is the number of instances; a synchronous job stops when any
	// one is reclaimed, so the job's rate is Nodes × the instance's.
	Nodes int
	Rate  InterruptionRate
	// CheckpointWriteHours is δ, the time to save one checkpoint (see
	// CheckpointWriteHours); RestartHours is R, the billed time from an
	// interruption until training resumes (new instance, image, loading
	// the checkpoint).
	CheckpointWriteHours, RestartHours float64
	// CheckpointEveryHours is τ, the compute time between checkpoints;
	// 0 picks DalyInterval.
	CheckpointEveryHours float64
}

// SpotEstimate is the expected outcome of a job on spot beside on-demand.
// Hours are wall-clock, USD the whole job.
type SpotEstimate struct {
	InterruptionsPerHour float64 `json:"interruptions_per_hour"` // λ of the whole deployment
	CheckpointEveryHours float64 `json:"checkpoint_every_hours"` // τ used
	// CheckpointWrites is n = ⌈W/τ⌉ − 1, the periodic checkpoint writes
	// the job pays δ for (SpotExpectedCost): 0 when it takes none (τ ≥ W,
	// or λ = 0); the job's final save is not among them.
	CheckpointWrites      int     `json:"checkpoint_writes"`
	YoungIntervalHours    float64 `json:"young_interval_hours"`
	DalyIntervalHours     float64 `json:"daly_interval_hours"`
	LostHoursPerInterrupt float64 `json:"lost_hours_per_interruption"` // R + (τ+δ)/2; R + W/2 without a checkpoint
	ExpectedInterruptions float64 `json:"expected_interruptions"`
	ExpectedHours         float64 `json:"expected_hours"`
	ExpectedUSD           float64 `json:"expected_usd"`
	P10Hours              float64 `json:"p10_hours"`
	P90Hours              float64 `json:"p90_hours"`
	P10USD                float64 `json:"p10_usd"`
	P90USD                float64 `json:"p90_usd"`
	P10Interruptions      int     `json:"p10_interruptions"`
	P90Interruptions      int     `json:"p90_interruptions"`
	// P50Hours, P50USD and P50Interruptions are the median of the same
	// count, beside the mean (ExpectedHours): with rare interruptions the
	// count is 0 in most runs, so P10, the median and P90 are the job
	// without an interruption while the mean, which the few runs
	// interrupted pull up by a restart and lost work each, is above P90.
	P50Hours            float64          `json:"p50_hours"`
	P50USD              float64          `json:"p50_usd"`
	P50Interruptions    int              `json:"p50_interruptions"`
	OnDemandHours       float64          `json:"on_demand_hours"`
	OnDemandUSD         float64          `json:"on_demand_usd"`          // 0 when the on-demand price is unknown
	SavingUSD           float64          `json:"saving_usd"`             // OnDemandUSD − ExpectedUSD; negative when spot costs more
	HighRateExpectedUSD float64          `json:"high_rate_expected_usd"` // at the bucket's upper bound; 0 when open
	Rate                InterruptionRate `json:"rate"`
}

// ErrSpotNeverFinishes is wrapped when interruptions come faster than the
// job can make progress between them: λ·(R + (τ+δ)/2) ≥ 1 with
// checkpoints, λ·(R + W/2) ≥ 1 for a job that takes none (τ ≥ W). Its
// message names the one that applies.
var ErrSpotNeverFinishes = errors.New("spot job would not finish")

// SpotExpectedCost estimates a job on spot with periodic checkpoints, to
// first order (Young 1974, the model behind YoungInterval):
//
//   - productive time with checkpoints: B = W + n·δ, n = ⌈W/τ⌉ − 1 the
//     periodic writes (checkpointWrites). W hours of compute cut into
//     ⌈W/τ⌉ intervals of at most τ end each with a write but the last,
//     which ends with the job's own final save: a job on demand makes it
//     too, so spot is not charged for it. transformers' Trainer saves
//     that way (DefaultFlowCallback.on_step_end: every save_steps, and at
//     max_steps), so 1.5τ of compute writes once, at τ, and 2τ once.
//     Young's W·(1 + δ/τ), used here before, counted W/τ writes: the
//     final save among them, and a fraction of a write between multiples;
//   - each interruption costs L = R + (τ+δ)/2: the restart, and on average
//     half a checkpoint period of lost work;
//   - interruptions arrive as a Poisson process at λ per wall-clock hour,
//     so the expected wall time T solves T = B + λ·T·L: T = B / (1 − λL),
//     with λ·T interruptions and T × spot price in USD (billed throughout);
//   - the risk range is the 10th and 90th percentile of the Poisson count
//     N ~ Poisson(λT): hours B + N·L; the median (50th) beside it, as the
//     mean T lies above the 90th when P(N = 0) ≥ 0.9 (λT ≤ ln 10/9 ≈ 0.105:
//     most runs are not interrupted, the rare one pays L).
//
// With λ = 0 no checkpoints are needed (τ = W, δ is not paid), nor when
// the interval (Daly's, or the one given) is as long as the job: τ = W,
// n = 0, an interruption losing half the job (L = R + W/2). B steps up by
// δ where W passes each multiple of τ, the first included: the write that
// the launch file (model/launch, SaveSteps) then makes at τ; between them
// it grows as W. The error wraps ErrInvalidSpot for inputs out of range
// and ErrSpotNeverFinishes when λL ≥ 1.
func SpotExpectedCost(in SpotInput) (SpotEstimate, error) {
	bad := func(what string, v float64) (SpotEstimate, error) {
		return SpotEstimate{}, model.Errorf(ErrInvalidSpot, "%s must be a finite number ≥ 0, got %g", what, v)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"job hours", in.JobHours}, {"spot price", in.SpotUSDPerHour}, {"on-demand price", in.OnDemandUSDPerHour},
		{"checkpoint write hours", in.CheckpointWriteHours}, {"restart hours", in.RestartHours},
		{"checkpoint interval", in.CheckpointEveryHours}, {"interruption rate", in.Rate.PerMonth}} {
		if !(f.v >= 0) || math.IsInf(f.v, 0) {
			return bad(f.name, f.v)
		}
	}
	if in.JobHours == 0 {
		return SpotEstimate{}, model.Errorf(ErrInvalidSpot, "job hours must be > 0")
	}
	nodes := max(in.Nodes, 1)
	lambda := float64(nodes) * in.Rate.PerHour()
	e := SpotEstimate{InterruptionsPerHour: lambda, Rate: in.Rate, OnDemandHours: in.JobHours,
		OnDemandUSD: in.JobHours * in.OnDemandUSDPerHour}
	w, delta, r := in.JobHours, in.CheckpointWriteHours, in.RestartHours
	if lambda == 0 {
		e.CheckpointEveryHours = w
		e.ExpectedHours, e.P10Hours, e.P50Hours, e.P90Hours = w, w, w, w
		e.ExpectedUSD = w * in.SpotUSDPerHour
		e.P10USD, e.P50USD, e.P90USD = e.ExpectedUSD, e.ExpectedUSD, e.ExpectedUSD
		e.finish(in)
		return e, nil
	}
	if math.IsInf(lambda, 1) {
		return SpotEstimate{}, model.Errorf(ErrSpotNeverFinishes, "an interruption rate of %.0f%% a month reclaims every instance", in.Rate.PerMonth*100)
	}
	mtbi := 1 / lambda
	if delta > 0 {
		e.YoungIntervalHours = YoungInterval(delta, mtbi)
		e.DalyIntervalHours = DalyInterval(delta, mtbi)
	}
	tau := in.CheckpointEveryHours
	if tau == 0 {
		if delta == 0 {
			return SpotEstimate{}, model.Errorf(ErrInvalidSpot, "give a checkpoint write time (δ > 0) or a checkpoint interval")
		}
		tau = e.DalyIntervalHours
	}
	if tau >= w {
		// A period as long as the job takes no checkpoint: one written at
		// the end saves no work from an interruption, and the job's final
		// save is the same on-demand (a new user's walk: a 6-minute job
		// on spot was 18 minutes, 12 of them one checkpoint at its end, so
		// "spot saves nothing"). An interruption then loses on average
		// half the job: L = R + W/2.
		tau = w
	}
	writes := checkpointWrites(w, tau)
	if writes == 0 {
		delta = 0 // no write is made, so none is lost to an interruption either
	}
	e.CheckpointEveryHours = tau
	e.CheckpointWrites = int(min(writes, maxExactCount))
	base := w
	if delta > 0 { // 0·∞ would be NaN when τ is vanishingly small beside W
		base += writes * delta
	}
	l := r + (tau+delta)/2
	e.LostHoursPerInterrupt = l
	if lambda*l >= 1 {
		if writes == 0 {
			return SpotEstimate{}, model.Errorf(ErrSpotNeverFinishes, "one interruption every %.2g h but each costs %.2g h (restart %.2g h + half of the %.2g h job, which takes no checkpoint)",
				mtbi, l, r, tau)
		}
		return SpotEstimate{}, model.Errorf(ErrSpotNeverFinishes, "one interruption every %.2g h but each costs %.2g h (restart %.2g h + half of %.2g h between checkpoints)",
			mtbi, l, r, tau+delta)
	}
	e.ExpectedHours = base / (1 - lambda*l)
	e.ExpectedInterruptions = lambda * e.ExpectedHours
	e.ExpectedUSD = e.ExpectedHours * in.SpotUSDPerHour
	p10 := poissonQuantile(e.ExpectedInterruptions, 0.10)
	p50 := poissonQuantile(e.ExpectedInterruptions, 0.50)
	p90 := poissonQuantile(e.ExpectedInterruptions, 0.90)
	e.P10Interruptions = int(min(p10, maxExactCount))
	e.P50Interruptions = int(min(p50, maxExactCount))
	e.P90Interruptions = int(min(p90, maxExactCount))
	e.P10Hours = base + p10*l
	e.P50Hours = base + p50*l
	e.P90Hours = base + p90*l
	e.P10USD, e.P50USD, e.P90USD = e.P10Hours*in.SpotUSDPerHour, e.P50Hours*in.SpotUSDPerHour, e.P90Hours*in.SpotUSDPerHour
	if in.Rate.HighPerMonth > 0 && in.Rate.HighPerMonth > in.Rate.PerMonth {
		hi := in
		hi.Rate.PerMonth, hi.Rate.HighPerMonth = in.Rate.HighPerMonth, 0
		hi.CheckpointEveryHours = tau
		if he, err := SpotExpectedCost(hi); err == nil {
			e.HighRateExpectedUSD = he.ExpectedUSD
		}
	}
	e.finish(in)
	return e, nil
}

// checkpointWrites is n = ⌈W/τ⌉ − 1, the periodic checkpoint writes of W
// hours of compute saved every τ (see SpotExpectedCost): 0 for W ≤ τ, 1
// for τ < W ≤ 2τ, and so on. W within a relative 10⁻¹² of a multiple of
// τ counts as that multiple, so that rounding (0.30000000000000004/0.1 =
// 3.0000000000000004) adds no write. It is +Inf when W/τ overflows.
func checkpointWrites(w, tau float64) float64 {
	if !(tau > 0) || !(w > tau) {
		return 0
	}
	return math.Ceil(w/tau*(1-1e-12)) - 1
}

func (e *SpotEstimate) finish(in SpotInput) {
	if in.OnDemandUSDPerHour > 0 {
		e.SavingUSD = e.OnDemandUSD - e.ExpectedUSD
	}
}

// SpotLateChance returns the chance that a job on spot takes longer than
// deadline hours, interruptions counted, and whether it is late: whether
// that chance is more than the 5% a 90% range leaves above its slow end.
// s is the job's spot estimate (SpotExpectedCost), writeHours δ, and
// overrun(h) the chance that the job uninterrupted takes longer than h
// hours (model.Estimate.OverrunChance: the calibration's error
// distribution, 0.05 meaning at most 5% and 0.95 at least 95%).
//
// It uses SpotExpectedCost's own model of the hours, the one its P10–P90
// range is drawn from: W + n·δ + N·L with n = s.CheckpointWrites
// (⌈W/τ⌉ − 1) and N ~ Poisson(λT) (Young 1974; W alone when λ = 0), and
// sums over the count (the law of total probability):
// Σₖ P(N = k) · overrun(D − kL − nδ), a term being 1 once kL + nδ ≥ D.
// n stays the estimate's when W turns out longer or shorter: the launch
// file saves every SaveSteps steps (model/launch), so a slower job
// writes as many checkpoints, each later. The expected hours T are a
// mean: with rare interruptions it can pass a deadline that most runs
// meet, and a deadline above T can still be missed by a run interrupted
// more than λT times.
//
// late is whether the sum, counting the terms overrun reports as "at most
// 5%" as 0, is above 5%: without interruptions it is late exactly when
// the deadline is below the slow end of the time's 90% range, as an
// offer on demand (model.Offer.LateChance), and a deadline a run meets
// unless it is interrupted, rarely, is not late. chance is the sum as
// overrun reports it, within 0.05–0.95 (0.95: at least 95%); 0 when not
// late or without a deadline.
func SpotLateChance(s *SpotEstimate, writeHours, deadline float64, overrun func(hours float64) float64) (chance float64, late bool) {
	if !(deadline > 0) || s == nil || overrun == nil {
		return 0, false
	}
	const tail = 0.05 + 1e-9 // overrun's "at most 5%", with rounding
	writes := 0.0            // n·δ: checkpoints are written only when λ > 0, and a job no longer than τ takes none
	if s.InterruptionsPerHour > 0 && s.CheckpointWrites > 0 && writeHours > 0 {
		writes = float64(s.CheckpointWrites) * writeHours
	}
	mu, l := s.ExpectedInterruptions, s.LostHoursPerInterrupt
	left := func(k int) float64 { return deadline - float64(k)*l - writes } // hours W may take with k interruptions
	if !(mu > 0) || !(l > 0) {
		c := 1.0 // the writes alone pass the deadline
		if h := left(0); h > 0 {
			c = overrun(h)
		}
		if c <= tail {
			return 0, false
		}
		return min(c, 0.95), true
	}
	// From ⌊μ − 10√μ⌋, below which the mass is under e^−50, as
	// poissonQuantileSum, to where the remaining mass is as small, or to
	// where kL + nδ ≥ D makes every later term 1.
	from := max(int(mu-10*math.Sqrt(mu)), 0)
	limit := int(mu + 40*math.Sqrt(mu) + 40)
	logMu := math.Log(mu)
	sum, lo, cdf := 0.0, 0.0, 0.0
	for k := from; k < limit; k++ {
		lg, _ := math.Lgamma(float64(k + 1))
		pk := math.Exp(-mu + float64(k)*logMu - lg)
		h := left(k)
		if h <= 0 { // late whatever W: this count and every higher one
			rest := max(1-cdf, 0)
			sum, lo = sum+rest, lo+rest
			break
		}
		cdf += pk
		c := overrun(h)
		sum += pk * c
		if c > tail {
			lo += pk * c
		}
	}
	if lo <= tail {
		return 0, false
	}
	return min(max(sum, 0.05), 0.95), true
}

// PoissonQuantile returns the smallest k with P(N ≤ k) ≥ q for
// N ~ Poisson(mu): the q-quantile of the interruption count, at most
// maxExactCount (2^53: past it a float64 no longer holds every whole
// number, and a count that large is only ever shown rounded; the risk
// range's hours use the uncapped count).
//
// Its cost does not grow with mu, so a job of any length prices in the
// same time (a sum from 0 cost CPU time in proportion to the job's hours:
// 77 s for a 10^17-token job). Up to poissonExactMean it sums the
// probability mass in log space, from a start ⌊μ − 10√μ⌋ below which the
// mass is under e^−50 (Chernoff: P(N ≤ μ − t) ≤ exp(−t²/2μ)), so at most
// about 20√μ + 40 terms (2,040 at μ = 10^4). Above it the quantile is the
// Cornish–Fisher expansion (Cornish & Fisher 1937; Abramowitz & Stegun
// 26.2.49, 26.2.51) with the Poisson cumulants κ_r = μ (skewness 1/√μ,
// excess kurtosis 1/μ):
//
//	x = μ + z√μ + (z² − 1)/6 + (z − z³)/(72√μ),  z = Φ⁻¹(q)
//
// and the continuity correction k = ⌈x − ½⌉. Its error is O(1/μ) in
// standard units, under one count at μ ≥ 10^4 (TestPoissonQuantileLarge
// checks it against the exact sum on both sides of the switch).
func PoissonQuantile(mu, q float64) int {
	return int(min(poissonQuantile(mu, q), maxExactCount))
}

// poissonQuantile is PoissonQuantile as a float64, not capped: the hours
// of a risk range use it.
func poissonQuantile(mu, q float64) float64 {
	if !(mu > 0) || !(q > 0) {
		return 0
	}
	q = min(q, 1-1e-12)
	if mu > poissonExactMean {
		z := math.Sqrt2 * math.Erfinv(2*q-1)
		s := math.Sqrt(mu)
		x := mu + z*s + (z*z-1)/6 + (z-z*z*z)/(72*s)
		return max(math.Ceil(x-0.5), 0)
	}
	return float64(poissonQuantileSum(mu, q))
}

// poissonExactMean is the largest mean PoissonQuantile sums exactly.
const poissonExactMean = 1e4

// maxExactCount is 2^53, the largest count PoissonQuantile returns.
const maxExactCount = 1 << 53

// poissonQuantileSum is PoissonQuantile by summing the mass from
// ⌊μ − 10√μ⌋ (the mass below it is under e^−50); it takes about
// 20√μ + 40 steps.
func poissonQuantileSum(mu, q float64) int {
	from := max(int(mu-10*math.Sqrt(mu)), 0)
	limit := int(mu + 40*math.Sqrt(mu) + 40)
	logMu := math.Log(mu)
	cdf := 0.0
	for k := from; k < limit; k++ {
		lg, _ := math.Lgamma(float64(k + 1))
		cdf += math.Exp(-mu + float64(k)*logMu - lg)
		if cdf >= q {
			return k
		}
	}
	return limit
}

// ErrInvalidSpot is wrapped by the spot computations when an input is out
// of range.
var ErrInvalidSpot = errors.New("invalid spot estimate input")
