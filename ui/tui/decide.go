package tui

import (
	"fmt"
	"io"
	"math"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/advice"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/report"
)

// decider computes the detail view's decisions: an offer's spot estimate
// and commitment break-even, and the time-against-cost chart. cat is the
// catalog the offers come from; rate is Options.SpotRate (nil: no spot
// estimates).
type decider struct {
	cat  *model.Catalog
	rate func(provider, region, instanceType string) decide.InterruptionRate
}

// spotAssumptions are the configurator's spot inputs: the defaults, each
// an assumption (the command line has flags to change them).
var spotAssumptions = decide.SpotAssumptions{CheckpointWriteBytesPerSecond: decide.DefaultCheckpointWriteBytesPerSecond,
	RestartHours: decide.DefaultRestartHours, WriteDefaulted: true, RestartDefaulted: true}

// content is the detail view's text: offerDetail, then the decisions.
func (d *detailView) content(o *model.Offer, r *result, asOf string) string {
	s := offerDetail(d.lang, d.st, o, r, asOf, d.vp.Width())
	if d.dec.cat == nil || r == nil {
		return s
	}
	lines := d.dec.lines(d.lang, d.st, o, r, d.vp.Width())
	for i := range lines {
		lines[i] = wrapBlock(lines[i], d.vp.Width()) // flags and regions whole (wrapLines)
	}
	return s + "\n" + strings.Join(lines, "\n")
}

// lines are the "Spot and commitments" and "Time against cost" sections;
// for a serving offer, serveLines.
func (dc decider) lines(lang *i18n.Printer, st *report.Styles, o *model.Offer, r *result, width int) []string {
	if servePlanFor(r, o) != nil {
		return dc.serveLines(lang, st, o, r, width)
	}
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, lang.Sprintf(format, args...)) }
	T := lang.T
	add("")
	add("%s", st.Heading.Render(T("Spot and commitments")))
	var rate decide.InterruptionRate
	if dc.rate != nil {
		rate = dc.rate(o.Instance.Provider, o.Region, o.Instance.Type)
	}
	hpm := r.cfg.Search.HoursPerMonth
	od := decide.ForOffer(dc.cat, o, rate, spotAssumptions, min(hpm, model.HoursPerMonth))
	switch {
	case dc.rate == nil:
	case od.Spot != nil:
		add("  spot: %s", report.SpotLineIn(lang, od.Spot, spotAssumptions))
	case od.SpotErr != "":
		add("  spot: %s", T(od.SpotErr))
	case !o.HasJob:
		add("  %s", st.Muted.Render(T("spot: no job to time (give a dataset size)")))
	case od.Prices.Spot == 0:
		add("  %s", st.Muted.Render(T("spot: not sold on spot here")))
	}
	if len(od.Commitment) > 0 {
		add("  commitment: %s", report.CommitmentLineIn(lang, od.Commitment))
	} else {
		add("  %s", st.Muted.Render(lang.Sprintf("commitment: no published 1- or 3-year rate for %s", o.Instance.Provider)))
	}
	if dc.rate != nil {
		add("  %s", st.Muted.Render(lang.Sprintf("assumptions: checkpoint write %.3g GB/s (a gp3 disk), restart %.0f min; commitments at %.0f h/month",
			spotAssumptions.CheckpointWriteBytesPerSecond/1e9, spotAssumptions.RestartHours*60, cmpOrHours(hpm))))
	}
	shown := r.rec.Offers // the chart plots what the list shows (spot: expected with interruptions)
	if len(r.shown) == len(shown) {
		shown = r.shown
	}
	pts := decide.OfferPoints(shown)
	if len(pts) < 2 {
		return lines
	}
	front := decide.ParetoFront(report.FittingPoints(&r.rec, pts)) // of the offers that fit, as recommend's
	add("")
	add("%s", st.Heading.Render(lang.Sprintf("Time against cost: %d of %d offers on the front", len(front), len(pts))))
	sel := selectedIndex(r.rec.Offers, o)
	add("%s", timeCostChart(lang, st, pts, front, sel, max(min(width-2, 72), 30), 10, jobAxis))
	return lines
}

// serveLines are a serving offer's decisions: a service runs every hour
// of the month, so the commitment (a 1- or 3-year rate against
// on-demand) is the choice to weigh; spot's checkpoint-and-restart model
// is a training job's and is left out. The chart puts each offer's TPOT
// (what a reader of the stream waits per token) against its $ per
// million output tokens, the two the serving ranking weighs.
func (dc decider) serveLines(lang *i18n.Printer, st *report.Styles, o *model.Offer, r *result, width int) []string {
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, lang.Sprintf(format, args...)) }
	hpm := cmpOrHours(r.cfg.Search.HoursPerMonth)
	add("")
	add("%s", st.Heading.Render(lang.T("Commitments")))
	od := decide.ForOffer(dc.cat, o, decide.InterruptionRate{}, spotAssumptions, hpm)
	if len(od.Commitment) > 0 {
		add("  commitment: %s", report.CommitmentLineIn(lang, od.Commitment))
	} else {
		add("  %s", st.Muted.Render(lang.Sprintf("commitment: no published 1- or 3-year rate for %s", o.Instance.Provider)))
	}
	add("  %s", st.Muted.Render(lang.Sprintf("a service runs all month: commitments compared at %.0f h/month", hpm)))
	var pts []decide.TimeCost
	for i := range r.rec.Offers {
		if p := servePlanFor(r, &r.rec.Offers[i]); p != nil && p.Perf.TPOTSec > 0 {
			pts = append(pts, decide.TimeCost{Index: i, Hours: p.Perf.TPOTSec, USD: p.USDPerMOutput})
		}
	}
	if len(pts) < 2 {
		return lines
	}
	front := decide.ParetoFront(pts)
	add("")
	add("%s", st.Heading.Render(lang.Sprintf("TPOT against $ per million output tokens: %d of %d offers on the front", len(front), len(pts))))
	sel := selectedIndex(r.rec.Offers, o)
	add("%s", timeCostChart(lang, st, pts, front, sel, max(min(width-2, 72), 30), 10, tpotAxis))
	return lines
}

// chartAxis is what a timeCostChart's x axis shows: its title, linear
// and logarithmic, the values' format, and the legend of the front.
type chartAxis struct {
	title, logTitle, front string
	format                 func(lang *i18n.Printer, x float64) string
}

var (
	// jobAxis: a training job's time, in hours.
	jobAxis = chartAxis{"job time →", "job time (log) →", "%s Pareto front (nothing faster and cheaper)  %c this offer  %c other offers",
		func(lang *i18n.Printer, h float64) string { return report.HoursIn(lang, h) }}
	// tpotAxis: a serving offer's time per output token, in seconds.
	tpotAxis = chartAxis{"TPOT →", "TPOT (log) →", "%s Pareto front (nothing with a shorter TPOT and cheaper)  %c this offer  %c other offers",
		func(lang *i18n.Printer, sec float64) string { return lang.Sprintf("%.3g ms", sec*1e3) }}
)

func cmpOrHours(h float64) float64 {
	if h > 0 {
		return min(h, model.HoursPerMonth)
	}
	return model.HoursPerMonth
}

// selectedIndex is the position of o (a copy) in offers, or −1.
func selectedIndex(offers []model.Offer, o *model.Offer) int {
	for i := range offers {
		x := &offers[i]
		if x.Instance == o.Instance && x.Region == o.Region && x.Pricing == o.Pricing && x.GPUs == o.GPUs {
			return i
		}
	}
	return -1
}

// Chart marks: an offer, an offer on the Pareto front, the offer shown.
const (
	markOffer    = '·'
	markFront    = '•'
	markSelected = '◆'
)

// timeCostChart draws pts as job time (x, as axis shows it) against cost
// (y) on a width × height canvas of cells, axes included: the Pareto
// front in the good colour, the selected offer (index sel) on top. Both
// axes are logarithmic when the values span more than ten times, as
// offers do.
func timeCostChart(lang *i18n.Printer, st *report.Styles, pts, front []decide.TimeCost, sel, width, height int, axis chartAxis) string {
	minX, maxX, minY, maxY := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		minX, maxX = min(minX, p.Hours), max(maxX, p.Hours)
		minY, maxY = min(minY, p.USD), max(maxY, p.USD)
	}
	yLabels := []string{report.USD(maxY), report.USD(minY)}
	left := max(lipgloss.Width(yLabels[0]), lipgloss.Width(yLabels[1])) + 1
	plotW, plotH := max(width-left-1, 8), max(height-2, 3)
	scale := func(v, lo, hi float64, n int) int {
		if hi <= lo || !(v > 0) || !(lo > 0) {
			return 0
		}
		f := (v - lo) / (hi - lo)
		if hi/lo > 10 {
			f = math.Log(v/lo) / math.Log(hi/lo)
		}
		return min(max(int(math.Round(f*float64(n-1))), 0), n-1)
	}
	grid := make([][]rune, plotH)
	style := make([][]int, plotH) // 0 offer, 1 front, 2 selected
	for i := range grid {
		grid[i] = []rune(strings.Repeat(" ", plotW))
		style[i] = make([]int, plotW)
	}
	put := func(p decide.TimeCost, mark rune, s int) {
		x, y := scale(p.Hours, minX, maxX, plotW), plotH-1-scale(p.USD, minY, maxY, plotH)
		if style[y][x] <= s {
			grid[y][x], style[y][x] = mark, s
		}
	}
	for _, p := range pts {
		put(p, markOffer, 0)
	}
	for _, p := range front {
		put(p, markFront, 1)
	}
	for _, p := range pts {
		if p.Index == sel {
			put(p, markSelected, 2)
		}
	}
	var b strings.Builder
	for i := range grid {
		label := ""
		switch i {
		case 0:
			label = yLabels[0]
		case plotH - 1:
			label = yLabels[1]
		}
		b.WriteString(strings.Repeat(" ", left-lipgloss.Width(label)-1) + label + " │")
		for j, r := range grid[i] {
			switch style[i][j] {
			case 1:
				b.WriteString(st.Good.Render(string(r)))
			case 2:
				b.WriteString(st.Value.Render(string(r)))
			default:
				b.WriteString(st.Muted.Render(string(r)))
			}
		}
		b.WriteString("\n")
	}
	b.WriteString(strings.Repeat(" ", left) + "└" + strings.Repeat("─", plotW) + "\n")
	lo, hi := axis.format(lang, minX), axis.format(lang, maxX)
	mid := lang.T(axis.title)
	if math.Abs(maxX/math.Max(minX, 1e-12)) > 10 {
		mid = lang.T(axis.logTitle)
	}
	gap := max(plotW-lipgloss.Width(lo)-lipgloss.Width(hi)-lipgloss.Width(mid), 2)
	b.WriteString(strings.Repeat(" ", left+1) + lo + strings.Repeat(" ", gap/2) + mid + strings.Repeat(" ", gap-gap/2) + hi + "\n")
	b.WriteString(st.Muted.Render(lang.Sprintf(axis.front, string(markFront), markSelected, markOffer)))
	return b.String()
}

// accessibleDecisions are the accessible summary's decisions for res
// (report.Decide with the configurator's spot assumptions and its query,
// so under spot pricing the offers are ranked, and shown, at their
// expected cost with interruptions as recommend's are); nil without
// offers.
func accessibleDecisions(cat *model.Catalog, res *result, rate func(provider, region, instanceType string) decide.InterruptionRate) *report.Decisions {
	if len(res.rec.Offers) == 0 {
		return nil
	}
	return report.Decide(&res.rec, report.DecideInput{Catalog: cat, Workload: res.workload, Query: res.cfg.Query(), Rate: rate, Spot: spotAssumptions,
		HoursPerMonth: cmpOrHours(res.cfg.Search.HoursPerMonth)})
}

// writeAccessibleDecisions is the accessible summary's part of the
// detail view: the spot and commitment lines of the best offers and,
// instead of the chart, the Pareto front as a table.
// d is accessibleDecisions'.
func writeAccessibleDecisions(w io.Writer, r *report.Renderer, res *result, d *report.Decisions) error {
	if len(res.rec.Offers) == 0 || d == nil {
		return nil
	}
	if err := report.WriteDecisions(w, r, &res.rec, d); err != nil {
		return err
	}
	if len(d.Front) == 0 {
		return nil
	}
	fmt.Fprintln(w)
	return report.WritePareto(w, r, &res.rec, d, nil)
}

// computeSpot is compute, then decideSpot with rate: what the
// configurator's recompute command runs, off the update path. Under spot
// pricing the matcher weighs a region's hosts on the figures decideSpot
// shows (report.SpotView), as recommend's does.
func computeSpot(cat *model.Catalog, cfg config.Config, cfgErr error, hf *hfReader, seq int, rate func(provider, region, instanceType string) decide.InterruptionRate) *result {
	var view func(*model.Offer) (model.Offer, bool)
	var spot *report.DecideInput
	if rate != nil && cfgErr == nil {
		spot = &report.DecideInput{Catalog: cat, Query: cfg.Query(), Rate: rate, Spot: spotAssumptions,
			HoursPerMonth: cmpOrHours(cfg.Search.HoursPerMonth)}
		view = report.SpotView(*spot)
	}
	r := computeView(cat, cfg, cfgErr, hf, seq, view, spot)
	decideSpot(r, cat, rate)
	return r
}

// decideSpot makes r's views tell recommend --pricing spot's story: under
// spot pricing, with spot rates (Options.SpotRate), it runs report.Decide
// as recommend does (the configurator's spot assumptions, its query), so
// r.rec.Offers are ranked by the expected job cost or time with
// interruptions (report.Decide's spotRank; the offers that would not
// finish last) and r.shown holds the display copies carrying those
// figures (Decisions.ShownOffers), which the offers list, the panel and
// the detail show. r.rec.Offers stay the real offers, at the
// uninterrupted job time the plan's phases and the exports write (see
// newPhase). It runs in the recompute's command, never in View: Decide
// times each spot offer three times (decide.ForOffer at the job and at
// both ends of its time's range). Serving plans are left alone: spot's
// checkpoint-and-restart model is a training job's (decider.serveLines).
func decideSpot(r *result, cat *model.Catalog, rate func(provider, region, instanceType string) decide.InterruptionRate) {
	if rate == nil || !r.ok() || r.serve != nil || len(r.rec.Offers) == 0 {
		return
	}
	q := r.cfg.Query()
	if q.Pricing != model.Spot {
		return
	}
	bestGPU := r.rec.Offers[0].GPU
	d := report.Decide(&r.rec, report.DecideInput{Catalog: cat, Workload: r.workload, Query: q, Rate: rate, Spot: spotAssumptions,
		HoursPerMonth: cmpOrHours(r.cfg.Search.HoursPerMonth)})
	if d.SpotLast < len(r.rec.Offers) { // all of them: none is ranked after another for it
		r.spotLast = d.SpotLast
	}
	for i := range r.rec.Offers {
		if d.SpotShown(i) {
			r.spotShown = true
			r.shown = d.ShownOffers(&r.rec)
			break
		}
	}
	if b := r.best(); b != nil && b.Estimate != nil && b.GPU != bestGPU {
		// The tips are the best offer's GPU's (compute): another best now.
		r.tips = advice.Tips(b.Estimate.Workload, b.GPU, panelTips)
	}
}
