package cli

import (
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/ui/report"
)

// minRestartMinutes bounds --restart-minutes below, 0 (an instant
// restart) aside: a tenth of a minute (6 s), a policy bound under any
// cloud VM's start; 1e-300 printed as a restart of 0 minutes that was
// not one (attack r29b F4).
const minRestartMinutes = 0.1

// decideFlags are recommend's flags for the decisions beyond the price
// list: spot assumptions, the Pareto view and the direct questions.
type decideFlags struct {
	writeGBps, restartMin float64
	pareto                bool
	finishBy              string
	maxJobCost            float64
	noSavings             bool
	// spot is env.SpotRates started ahead of the ranking (startSpotRates);
	// nil: decide loads the rates itself.
	spot *spotLoad
	// savingsAside ranks the savings beside the writing of the offers
	// (report.DecideInput.SavingsAside): recommend --json, whose writer
	// waits for them after the offers.
	savingsAside bool
}

// spotLoad is a load of the spot rates running on its own goroutine: the
// embedded defaults are a TOML decode (~0.2 ms) that nothing in the
// ranking waits for, so on a second core it overlaps model.Recommend.
type spotLoad struct {
	done     chan struct{}
	rate     func(provider, region, instanceType string) decide.InterruptionRate
	warnings []model.Message
	err      error
}

// startSpotRates starts load; nil without a loader.
func startSpotRates(load func() (func(provider, region, instanceType string) decide.InterruptionRate, []model.Message, error)) *spotLoad {
	if load == nil {
		return nil
	}
	s := &spotLoad{done: make(chan struct{})}
	go func() {
		defer close(s.done)
		s.rate, s.warnings, s.err = load()
	}()
	return s
}

func (f *decideFlags) register(fs *pflag.FlagSet) {
	fs.Var(floatValue{&f.writeGBps}, "checkpoint-write-gbps", "GB/s a node writes a checkpoint at, for spot estimates (default 0.131: a gp3 disk's 125 MiB/s baseline, an assumption)")
	fs.Var(floatValue{&f.restartMin}, "restart-minutes", "minutes from a spot interruption to training again (default 10, an assumption)")
	fs.BoolVar(&f.pareto, "pareto", false, "list the offers no other offer beats on both job time and cost, with what each step faster costs")
	fs.StringVar(&f.finishBy, "finish-by", "", "the cheapest offer that finishes by a date (2027-01-31: by its start, UTC; or an RFC 3339 time) or within a duration (36h, 3d, 2w)")
	fs.Var(floatValue{&f.maxJobCost}, "max-job-cost", "the fastest offer whose whole job costs at most this many USD")
	fs.BoolVar(&f.noSavings, "no-savings", false, "skip the \"what saves the most\" list (it re-runs the ranking once per change)")
}

// assumptions returns the spot inputs: the flags given, else the defaults
// marked as assumptions.
func (f *decideFlags) assumptions(fs *pflag.FlagSet) (decide.SpotAssumptions, error) {
	a := defaultSpotAssumptions()
	if fs.Changed("checkpoint-write-gbps") {
		if !(f.writeGBps >= decide.MinCheckpointWriteGBps && f.writeGBps <= decide.MaxCheckpointWriteGBps) {
			return a, usage(model.Msg("--checkpoint-write-gbps must be %v–%d (GB/s per node), got %v", decide.MinCheckpointWriteGBps, decide.MaxCheckpointWriteGBps, f.writeGBps))
		}
		a.CheckpointWriteBytesPerSecond, a.WriteDefaulted = f.writeGBps*1e9, false
	}
	if fs.Changed("restart-minutes") {
		if !(f.restartMin == 0 || f.restartMin >= minRestartMinutes && f.restartMin <= decide.MaxRestartMinutes) {
			return a, usage(model.Msg("--restart-minutes must be 0 or %g–%d (a week), got %v", minRestartMinutes, decide.MaxRestartMinutes, f.restartMin))
		}
		a.RestartHours, a.RestartDefaulted = f.restartMin/60, false
	}
	if fs.Changed("finish-by") { // refused before the ranking, not after it
		if _, err := ParseFinishBy(f.finishBy, time.Now()); err != nil {
			return a, usage(err)
		}
	}
	if fs.Changed("max-job-cost") && !(f.maxJobCost > 0) {
		return a, usage(model.Msg("--max-job-cost must be > 0, got %v", f.maxJobCost))
	}
	return a, nil
}

// defaultSpotAssumptions are the spot estimate's checkpoint write speed
// and restart time when no flag gives them, each marked as defaulted.
func defaultSpotAssumptions() decide.SpotAssumptions {
	return decide.SpotAssumptions{CheckpointWriteBytesPerSecond: decide.DefaultCheckpointWriteBytesPerSecond, RestartHours: decide.DefaultRestartHours,
		WriteDefaulted: true, RestartDefaulted: true}
}

// ParseFinishBy reads --finish-by: a date (2006-01-02, the start of that
// day in UTC), an RFC 3339 time, a Go duration (36h, 90m) or a whole
// number of days or weeks (3d, 2w); it returns the hours from now.
func ParseFinishBy(s string, now time.Time) (float64, error) {
	s = strings.TrimSpace(s)
	bad := model.Msg("--finish-by %q: want a date (2027-01-31), an RFC 3339 time, or a duration (36h, 3d, 2w)", s)
	for _, layout := range []string{time.RFC3339, time.DateOnly} {
		if t, err := time.Parse(layout, s); err == nil {
			if h := decide.HoursUntil(now, t); h > 0 {
				return h, nil
			}
			return 0, model.Msg("--finish-by %q is not in the future (now %s); give a later date or a duration such as 3d", s, now.UTC().Format("2006-01-02 15:04 MST"))
		}
	}
	for suffix, hours := range map[string]float64{"d": 24, "w": 24 * 7} {
		if n, ok := strings.CutSuffix(s, suffix); ok {
			v, err := strconv.ParseFloat(n, 64)
			if err != nil || !(v > 0) || v > 1e6 {
				return 0, bad
			}
			return v * hours, nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, bad
	}
	return d.Hours(), nil
}

// decide computes the decisions for rec and, with --pareto, --finish-by
// or --max-job-cost, the answers; warnings come from the spot data.
func (f *decideFlags) decide(cmd *cobra.Command, env *Env, cat *model.Catalog, w model.Workload, q model.Query, rec *model.Recommendation) (*report.Decisions, []model.Message, error) {
	a, err := f.assumptions(cmd.Flags())
	if err != nil {
		return nil, nil, err
	}
	in := report.DecideInput{Catalog: cat, Workload: w, Query: q, Spot: a, HoursPerMonth: q.HoursPerMonth, Savings: !f.noSavings, SavingsAside: f.savingsAside, Hints: true}
	var warnings []model.Message
	if f.spot == nil {
		f.spot = startSpotRates(env.SpotRates)
	}
	if f.spot != nil {
		<-f.spot.done
		if f.spot.err != nil {
			return nil, nil, f.spot.err
		}
		in.Rate, warnings = f.spot.rate, f.spot.warnings
	}
	return report.Decide(rec, in), warnings, nil
}

// spotView is model.Query.SpotView for recommend --pricing spot:
// report.SpotView with the flags' assumptions and the rates f.spot loads
// (startSpotRates), waited for at the first spot offer the matcher weighs
// against another host of its group, so the host kept per provider,
// region and GPU is the one the shown ranking puts first. nil off spot
// pricing, without a loader or with bad assumption flags (decide says so).
func (f *decideFlags) spotView(fs *pflag.FlagSet, cat *model.Catalog, q model.Query) func(*model.Offer) (model.Offer, bool) {
	if q.Pricing != model.Spot || f.spot == nil {
		return nil
	}
	a, err := f.assumptions(fs)
	if err != nil {
		return nil
	}
	return report.SpotView(report.DecideInput{Catalog: cat, Query: q, Rate: f.waitedRate(), Spot: a, HoursPerMonth: q.HoursPerMonth})
}

// waitedRate is the interruption rate f.spot loads, waited for at its
// first call; a zero rate when the load failed (decide reports it).
func (f *decideFlags) waitedRate() func(provider, region, instanceType string) decide.InterruptionRate {
	s := f.spot
	return func(provider, region, instanceType string) decide.InterruptionRate {
		<-s.done
		if s.rate == nil {
			return decide.InterruptionRate{}
		}
		return s.rate(provider, region, instanceType)
	}
}

// spotInput is the spot rates and assumptions recommend --pricing spot
// prices with (the flags' assumptions, the rates f.spot loads, waited for
// at the first spot offer priced), for report.WouldFit's change to spot
// pricing; nil without a loader or with bad assumption flags (decide says
// so), which prices spot at the list price.
func (f *decideFlags) spotInput(fs *pflag.FlagSet, cat *model.Catalog) *report.DecideInput {
	if f.spot == nil {
		return nil
	}
	a, err := f.assumptions(fs)
	if err != nil {
		return nil
	}
	return &report.DecideInput{Catalog: cat, Rate: f.waitedRate(), Spot: a}
}

// answers returns the direct questions asked (--finish-by, --max-job-cost).
// The points are d's shown offers: under --pricing spot the expected time
// and cost with interruptions, as the table shows and ranks them.
func (f *decideFlags) answers(fs *pflag.FlagSet, rec *model.Recommendation, d *report.Decisions, now time.Time) ([]report.Answer, error) {
	var out []report.Answer
	if !fs.Changed("finish-by") && !fs.Changed("max-job-cost") {
		return nil, nil // no question: no points (one per offer, ~900)
	}
	pts := decide.OfferPoints(d.ShownOffers(rec))
	if fs.Changed("finish-by") {
		h, err := ParseFinishBy(f.finishBy, now)
		if err != nil {
			return nil, usage(err)
		}
		out = append(out, report.AnswerFinishWithin(rec, d, pts, h, f.finishBy))
	}
	if fs.Changed("max-job-cost") {
		out = append(out, report.AnswerMaxJobCost(rec, d, pts, f.maxJobCost))
	}
	return out, nil
}

// lazySpotRate reads the spot rates on first use (the configurator's
// first offer detail), not before the screen opens; nil without a loader.
// A feed that cannot be read leaves the embedded defaults, which are
// labelled as assumptions anyway.
func lazySpotRate(load func() (func(provider, region, instanceType string) decide.InterruptionRate, []model.Message, error)) func(provider, region, instanceType string) decide.InterruptionRate {
	if load == nil {
		return nil
	}
	var once sync.Once
	var rate func(provider, region, instanceType string) decide.InterruptionRate
	return func(provider, region, instanceType string) decide.InterruptionRate {
		once.Do(func() { rate, _, _ = load() })
		if rate == nil {
			return decide.InterruptionRate{Source: "no spot data could be loaded", Assumption: true}
		}
		return rate(provider, region, instanceType)
	}
}
