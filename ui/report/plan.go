package report

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/plan"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/termsafe"
)

// PlanJSON is the --json output of gpuplan plan: each phase as written
// with its cost, and the total.
type PlanJSON struct {
	Name     string          `json:"name,omitempty"`
	Phases   []PlanPhaseJSON `json:"phases"`
	TotalUSD float64         `json:"total_usd"`
	// RunnableTotalUSD sums the phases that can run on their pinned
	// offers, the text's Total, when one cannot (PlanPhaseJSON.CannotRun);
	// absent when every phase can. TotalUSD sums every phase as written.
	RunnableTotalUSD *float64 `json:"runnable_total_usd,omitempty"`
	// Savings is what saves the most on the whole plan; nil when not
	// asked (--no-savings).
	Savings *PlanSavingsJSON `json:"savings,omitempty"`
	// Warnings are the notes gpuplan plan prints on stderr, in English:
	// the catalog's word on each phase's offer and price (plan.Check) and
	// a job_hours far from the estimate (plan.CheckJobHours); [] when
	// none, or without a catalog.
	Warnings []string `json:"warnings"`
}

// PlanPhaseJSON is one phase and its cost (plan.PhaseCost).
type PlanPhaseJSON struct {
	plan.Phase
	BilledHours   float64 `json:"billed_hours"`
	USD           float64 `json:"usd"`
	CommitmentUSD float64 `json:"commitment_usd,omitempty"`
	// Targets says how the pinned offer stands against the phase's
	// serving targets (plan.PhaseCost.Targets); empty when it meets them
	// across the estimate's range.
	Targets string `json:"targets,omitempty"`
	// CannotRun is set when the phase cannot run on its pinned offer at
	// all (plan.PhaseCost.Refused: Targets says why), not only misses
	// its targets; gpuplan plan then exits 1.
	CannotRun bool `json:"cannot_run,omitempty"`
	// Serves says what a serving phase serves besides the model it
	// names: the LoRA adapter, or the fine-tuned checkpoint, a phase
	// before it trains (plan.PhaseCost.Serves); empty otherwise.
	Serves string `json:"serves,omitempty"`
}

// NewPlanJSON builds the JSON view of a priced plan.
func NewPlanJSON(p *plan.Plan, costs []plan.PhaseCost, total float64) PlanJSON {
	out := PlanJSON{Name: p.Name, TotalUSD: Round(total, 2), Warnings: []string{}}
	for i := range costs {
		ph := p.Phases[i]
		// The pricing the table shows (PhasePricing): a phase that names
		// none is on-demand, not "" (the field keeps its name).
		ph.Pricing = cmp.Or(ph.Pricing, model.OnDemand)
		out.Phases = append(out.Phases, PlanPhaseJSON{Phase: ph, BilledHours: Round(billedHours(&p.Phases[i], &costs[i]), 3),
			USD: Round(costs[i].USD, 2), CommitmentUSD: Round(costs[i].CommitmentUSD, 2), Targets: costs[i].Targets.String(), CannotRun: costs[i].Refused, Serves: costs[i].Serves.String()})
	}
	if runs, _, left := runnableTotal(p, costs); len(left) > 0 {
		r := Round(runs, 2)
		out.RunnableTotalUSD = &r
	}
	return out
}

// CannotRunPhases names the phases of p that cannot run on their pinned
// offers (plan.PhaseCost.Refused, marked ✗), in plan order; nil when all
// can.
func CannotRunPhases(p *plan.Plan, costs []plan.PhaseCost) []string {
	_, _, names := runnableTotal(p, costs)
	return names
}

// runnableTotal sums the costs of the phases that can run on their pinned
// offers (runs) and of those that cannot (left), and names the latter.
func runnableTotal(p *plan.Plan, costs []plan.PhaseCost) (runs, leftUSD float64, left []string) {
	for i := range costs {
		if costs[i].Refused && i < len(p.Phases) {
			leftUSD += costs[i].USD
			left = append(left, p.Phases[i].Name)
			continue
		}
		runs += costs[i].USD
	}
	return runs, leftUSD, left
}

// quotedPhases is "phase "serve"" or "phases "a" and "b"" in lang.
func quotedPhases(lang *i18n.Printer, names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(termsafe.String(n))
	}
	if len(q) == 1 {
		return lang.Sprintf("phase %s", q[0])
	}
	return lang.Sprintf("phases %s", lang.Message(model.AndMsg(q)))
}

// billedHours is the hours phase ph is billed for, c being its cost: its
// own (plan.PhaseCost.Hours), or the reserved term's when the whole term
// is owed (model.CommitmentHours: 8,760 h for reserved-1y), so the
// billed hours and the cost agree (walk35: a 10 h job on reserved-1y
// showed "billed h 10" beside a year's cost).
func billedHours(ph *plan.Phase, c *plan.PhaseCost) float64 {
	if c.CommitmentUSD > 0 && c.CommitmentUSD >= c.USD {
		return max(c.Hours, model.CommitmentHours(ph.Pricing))
	}
	return c.Hours
}

// billedText is the billed h column's figure: the hours as plan.Phase.Cost
// bills them, which is unrounded (job_hours, or months × hours_per_month,
// times usd_per_hour): one decimal from an hour (a whole number without
// it), two significant digits below, so a job of 0.01 h reads 0.01 beside
// its cost, not 0 (walk36). plan.MinJobHours, 0.001, is the least a plan
// bills.
func billedText(h float64) string {
	if h > 0 && h < 1 {
		return strconv.FormatFloat(h, 'g', 2, 64)
	}
	return strings.TrimSuffix(fmt.Sprintf("%.1f", h), ".0")
}

// PhaseDuration is a plan phase's duration cell, as gpuplan plan and the
// configurator's plan page show it: the job's time ("2.0 h job"), or the
// months a service runs ("1 month", "6 months × 200 h").
func PhaseDuration(lang *i18n.Printer, ph *plan.Phase) string {
	if ph.Months <= 0 {
		return lang.Sprintf("%s job", HoursIn(lang, ph.JobHours))
	}
	dur := lang.Sprintf("%g months", ph.Months)
	if ph.Months == 1 {
		dur = lang.Sprintf("%g month", ph.Months) // not "1 months" (walk35)
	}
	if ph.HoursPerMonth > 0 {
		dur += lang.Sprintf(" × %g h", ph.HoursPerMonth)
	}
	return dur
}

// PhasePricing is a plan phase's pricing cell. A phase without pricing is
// priced, and checked, as on-demand (plan.Check): the cell says so rather
// than stay blank.
func PhasePricing(lang *i18n.Printer, ph *plan.Phase) string {
	return PricingName(lang, cmp.Or(ph.Pricing, model.OnDemand))
}

// WritePlan prints each phase (offer, duration, billed hours, cost) and
// the total.
func WritePlan(out io.Writer, r *Renderer, p *plan.Plan, costs []plan.PhaseCost, total float64) error {
	st, lang := NewStyles(r), r.Lang
	var b strings.Builder
	if p.Name != "" {
		fmt.Fprintf(&b, "%s\n", st.Title.Render(termsafe.String(p.Name)))
	}
	rows := make([][]string, len(costs))
	var notes, serves []string
	for i, c := range costs {
		ph := &p.Phases[i]
		offer := strings.TrimSpace(fmt.Sprintf("%s %s %s", ph.Provider, ph.Instance, RegionIn(lang, ph.Region)))
		count := "" // kept whole when a long instance name is cut, as the configurator shows it
		if ph.Instances > 1 {
			count = fmt.Sprintf(" ×%d", ph.Instances)
		}
		dur := PhaseDuration(lang, ph)
		cost := USD(c.USD)
		switch {
		case c.CommitmentUSD > 0 && c.CommitmentUSD >= c.USD:
			cost += lang.T(" (whole term)")
		case c.Committed: // more than the duration's hours: say why
			cost += lang.T(" (730 h a month committed)")
		}
		billed := billedHours(ph, &c)
		pricing := PhasePricing(lang, ph)
		name := termsafe.String(ph.Name)
		if !c.Targets.IsZero() {
			// As recommend marks a serving row: ~ borderline, ✗ a miss;
			// the note below the table says why.
			mark := "✗"
			if c.Borderline {
				mark = "~"
			}
			name = mark + " " + name
			notes = append(notes, lang.Sprintf("%s phase %q: %s", mark, ph.Name, lang.Message(c.Targets)))
		}
		if !c.Serves.IsZero() {
			serves = append(serves, lang.Sprintf("→ phase %q: %s", ph.Name, lang.Message(c.Serves)))
		}
		rows[i] = []string{name, r.Cut(termsafe.String(offer), 44-len([]rune(count))) + count, pricing, USDHour(ph.USDPerHour), dur, billedText(billed), cost}
	}
	headers := translate(lang, "phase", "offer", "pricing", "$/h", "duration", "billed h", "cost")
	if lang.Chinese() {
		headers[1] = "报价" // the catalogue's "offer" is the counting word (个报价)
	}
	fmt.Fprintf(&b, "%s\n", r.tableRight(headers, rows, map[int]bool{3: true, 5: true, 6: true}))
	for _, n := range notes {
		fmt.Fprintf(&b, "%s\n", st.Warn.Render(termsafe.String(n)))
	}
	for _, n := range serves {
		fmt.Fprintf(&b, "%s\n", termsafe.String(n))
	}
	// A phase that cannot run on its pinned offer (✗) bills nothing that
	// runs: the Total leaves it out and says so (a new user's walk:
	// "Total $4,088" for a plan whose serving phase cannot run, and every
	// saving then read as "more than the plan's own").
	switch runs, leftUSD, left := runnableTotal(p, costs); {
	case len(left) == 0:
		fmt.Fprintf(&b, "%s %s\n", st.Heading.Render(lang.T("Total")), USD(total))
	case len(left) == len(costs):
		fmt.Fprintf(&b, "%s %s\n", st.Heading.Render(lang.T("Total")),
			lang.Sprintf("— (no phase can run on its pinned offer; %s as written)", USD(leftUSD)))
	case len(left) == 1:
		fmt.Fprintf(&b, "%s %s\n", st.Heading.Render(lang.T("Total")),
			lang.Sprintf("%s for the phases that can run; %s (✗, %s as written) is left out: it cannot run on its pinned offer", USD(runs), quotedPhases(lang, left), USD(leftUSD)))
	default:
		fmt.Fprintf(&b, "%s %s\n", st.Heading.Render(lang.T("Total")),
			lang.Sprintf("%s for the phases that can run; %s (✗, %s as written) are left out: they cannot run on their pinned offers", USD(runs), quotedPhases(lang, left), USD(leftUSD)))
	}
	_, err := io.WriteString(r.Writer(out), b.String())
	return err
}

// PlanSavingsJSON is "what saves the most" over a whole plan: single
// changes, each applied to every phase it applies to (phases), priced by
// the engine against BaseUSD, the plan's phases on the engine's best offers
// now (plan.Savings). Error says why there is no list.
type PlanSavingsJSON struct {
	BaseUSD float64          `json:"base_usd"`
	Changes []PlanChangeJSON `json:"changes"`
	// LeftOut names the phases the engine finds no offer for on their
	// pinned provider, region and GPU type (plan.Savings): BaseUSD and
	// every change leave them out, and no change is tried on them.
	LeftOut []string `json:"left_out,omitempty"`
	Error   string   `json:"error,omitempty"`
}

// PlanChangeJSON is one change of the plan's savings: plan.Saving's
// fields, and PlanSavingUSD, what it saves against the plan's own total
// as the table lists it (PlanSaving: saving_usd, or less when the
// re-priced total is above the plan's own; ≤ 0 is no saving, which the
// table leaves out), absent when a phase cannot run and the plan's own
// total is no baseline.
type PlanChangeJSON struct {
	plan.Saving
	PlanSavingUSD *float64 `json:"plan_saving_usd,omitempty"`
}

// NewPlanSavingsJSON rounds the ranked changes for JSON (dollars to
// cents, percentages to a tenth); leftOut names the phases they leave
// out (plan.Savings); err, when set, is the reason there are none.
// planUSD is the plan's own total the table compares them with
// (PlanOwnWithout), compared is false when a phase cannot run (the table
// then compares nothing).
func NewPlanSavingsJSON(baseUSD, planUSD float64, compared bool, savings []plan.Saving, leftOut []string, err error) *PlanSavingsJSON {
	s := &PlanSavingsJSON{BaseUSD: Round(baseUSD, 2), Changes: []PlanChangeJSON{}, LeftOut: leftOut}
	if err != nil {
		s.Error = err.Error()
		return s
	}
	for _, c := range savings {
		j := PlanChangeJSON{Saving: c}
		if compared {
			usd, _ := PlanSaving(&c, planUSD)
			usd = Round(usd, 2) + 0
			j.PlanSavingUSD = &usd
		}
		// + 0 turns a rounded −0 into 0
		j.USD, j.SavingUSD, j.SavingPct = Round(c.USD, 2), Round(c.SavingUSD, 2)+0, Round(c.SavingPct, 1)+0
		s.Changes = append(s.Changes, j)
	}
	return s
}

// PlanOwnWithout is the plan's own total (the sum of costs, the phases
// as written) without the phases named in leftOut: what WritePlanSavings
// compares the savings with when plan.Savings leaves those out.
func PlanOwnWithout(p *plan.Plan, costs []plan.PhaseCost, leftOut []string) float64 {
	usd := 0.0
	for i := range costs {
		if i < len(p.Phases) && slices.Contains(leftOut, p.Phases[i].Name) {
			continue
		}
		usd += costs[i].USD
	}
	return usd
}

// planSavingsShown bounds the changes the text view lists.
const planSavingsShown = 8

// WritePlanSavings prints the changes that save money on the whole plan,
// largest first, with the phases each changes; when none does, the three
// that cost least more; err says why there is no list. A plan phase pins
// its provider, region and GPU type (plan.PhaseScenarioFor), so a change
// of the workload is priced on that pinned offer, not on the best offer
// of the whole catalog as recommend prices it: its line says so, lest
// "checkpointing costs more" here read as contradicting recommend's
// "checkpointing saves". planUSD is the plan's own total (WritePlan's):
// the header names it beside baseUSD when the two print differently, as
// they do when the estimator's job hours or prices moved since the plan
// was written. cannotRun names the phases that cannot run on their
// pinned offers (CannotRunPhases): the re-priced total runs them on an
// offer that can, the plan's own prices them where they cannot, so the
// header says that and no line is compared with the plan's own.
// leftOut names the phases the savings leave out, the engine finding no
// offer that runs them on their pinned provider, region and GPU type
// (plan.Savings): planUSD is then the plan's own total without them
// (PlanOwnWithout), they are not among cannotRun's re-priced phases,
// and a line under the header says so.
func WritePlanSavings(out io.Writer, r *Renderer, planUSD, baseUSD float64, cannotRun, leftOut []string, savings []plan.Saving, err error) error {
	st, lang := NewStyles(r), r.Lang
	var b strings.Builder
	if err != nil {
		label := lang.T("What saves the most:")
		fmt.Fprintf(&b, "\n%s%s%s\n", st.Heading.Render(label), LabelGap(label), termsafe.String(lang.Error(err)))
		_, err := io.WriteString(r.Writer(out), b.String())
		return err
	}
	cannotRun = slices.DeleteFunc(slices.Clone(cannotRun), func(n string) bool { return slices.Contains(leftOut, n) })
	head := lang.Sprintf("What saves the most on the whole plan (each change alone, on every phase it applies to, priced by the estimator on each phase's pinned provider, region and GPU type; the plan's phases re-priced that way now %s)", USD(baseUSD))
	switch {
	case len(cannotRun) > 0:
		head = lang.Sprintf("What saves the most on the whole plan (each change alone, on every phase it applies to, priced by the estimator on each phase's pinned provider, region and GPU type; the plan's phases re-priced that way now %s, %s on an offer that runs it; the plan's own %s is not compared: it prices what cannot run)",
			USD(baseUSD), quotedPhases(lang, cannotRun), USD(planUSD))
	case len(leftOut) > 0 && USD(planUSD) == USD(baseUSD):
		head = lang.Sprintf("What saves the most on the phases that can run (each change alone, on every phase it applies to, priced by the estimator on each phase's pinned provider, region and GPU type; those phases re-priced that way now %s)", USD(baseUSD))
	case len(leftOut) > 0:
		head = lang.Sprintf("What saves the most on the phases that can run (each change alone, on every phase it applies to, priced by the estimator on each phase's pinned provider, region and GPU type; those phases re-priced that way now %s, against the plan's own %s for them)", USD(baseUSD), USD(planUSD))
	case USD(planUSD) != USD(baseUSD):
		head = lang.Sprintf("What saves the most on the whole plan (each change alone, on every phase it applies to, priced by the estimator on each phase's pinned provider, region and GPU type; the plan's phases re-priced that way now %s, against the plan's own %s)", USD(baseUSD), USD(planUSD))
	}
	fmt.Fprintf(&b, "\n%s\n", st.Heading.Render(head))
	// A phase no offer runs on its pinned GPU type gave up every saving
	// ("none ranked", a walk); the rest are ranked and this says how it
	// is treated.
	switch len(leftOut) {
	case 0:
	case 1:
		fmt.Fprintf(&b, "%s\n", st.Warn.Render(lang.Sprintf("%s is left out of these totals, the plan's own too: the estimator finds no offer that runs it on its pinned provider, region and GPU type, so no change is tried on it; gpuplan recommend --config PLAN --phase NAME prices it where it runs", quotedPhases(lang, leftOut))))
	default:
		fmt.Fprintf(&b, "%s\n", st.Warn.Render(lang.Sprintf("%s are left out of these totals, the plan's own too: the estimator finds no offer that runs them on their pinned providers, regions and GPU types, so no change is tried on them; gpuplan recommend --config PLAN --phase NAME prices each where it runs", quotedPhases(lang, leftOut))))
	}
	line := func(s *plan.Saving, what string) {
		change := s.Change
		if !s.ChangeMsg.IsZero() {
			change = lang.Message(s.ChangeMsg)
		}
		name := lang.Sprintf("%s (%s)", termsafe.String(change), strings.Join(s.Phases, ", "))
		if pinnedKind(s.Kind) {
			// What is kept, not "the pinned offer": the change is priced
			// on the best instance type of the GPU there, which need not
			// be the phase's (walk36: serve int4 weights priced on a
			// one-GPU g5 beside a phase pinned to g5.12xlarge).
			name = lang.Sprintf("%s (%s, same provider, region, GPU)", termsafe.String(change), strings.Join(s.Phases, ", "))
		}
		if s.OOMChance != nil { // priced on a borderline offer, as recommend's savings say
			what += PlanBorderlineNote(lang, *s.OOMChance, s.OOMPhases)
		}
		fmt.Fprintf(&b, "  %s %s\n", PadRight(termsafe.String(name), 60), what)
	}
	// Re-priced above the plan's own total (prices rose since the plan
	// was written, a job's estimated hours are more than its job_hours,
	// a serving phase carries its load only on more instances than it
	// rents), a saving on the re-priced total can still cost more than
	// the plan as written: walk 50's "run on l40s saves $6,002 (60%)" was
	// $2,313 more than the plan's own $1,765. A saving is measured
	// against the plan's own total as printed (PlanSaving): what a change
	// leaves above it is no saving and is not listed, and each line gives
	// the total it leaves. With a phase that cannot run, the plan's own
	// total is no baseline: each line gives the total it leaves, compared
	// with nothing.
	above := USD(planUSD) != USD(baseUSD) && planUSD < baseUSD
	shown := 0
	for i := range savings {
		s := &savings[i]
		saved, pct := s.SavingUSD, s.SavingPct
		if len(cannotRun) == 0 {
			saved, pct = PlanSaving(s, planUSD)
		}
		if shown < planSavingsShown && saved >= minSavingUSD {
			shown++
			what := lang.Sprintf("saves %s (%s)", USD(saved), SavedPct(pct))
			if len(cannotRun) > 0 || above {
				what += lang.Sprintf("; total %s", USD(s.USD))
			}
			line(s, what)
		}
	}
	if shown == 0 {
		// Alone, as recommend's: the dearer changes name no saving.
		b.WriteString("  " + lang.T("no single change saves money") + "\n")
	}
	_, err = io.WriteString(r.Writer(out), b.String())
	return err
}

// PlanSaving is what change s saves against the plan's own total
// planUSD (the phases as written), in USD and as a percentage of it: its
// saving on the re-priced total (s.SavingUSD), but never more than the
// total it leaves is under the plan's own, so a change that leaves the
// bill above the plan as written saves nothing (≤ 0). When the re-priced
// total is at or below the plan's own, that is s.SavingUSD itself.
func PlanSaving(s *plan.Saving, planUSD float64) (usd, pct float64) {
	usd = min(s.SavingUSD, planUSD-s.USD)
	if math.Abs(usd) < 0.005 {
		usd = 0
	}
	if usd == s.SavingUSD || planUSD <= 0 {
		return usd, s.SavingPct
	}
	return usd, usd / planUSD * 100
}

// PlanBorderlineNote is the note after a plan saving priced on a
// borderline offer (plan.Saving's OOMChance and OOMPhases): the phase it
// is about, quoted as the plan table's notes quote theirs (phase "ft70"),
// and its chance of running out of memory; with several phases, all of
// them and the highest chance ("up to"). Without a name (a plan whose
// phases have none) it is the chance alone.
func PlanBorderlineNote(lang *i18n.Printer, chance float64, phases []string) string {
	switch len(phases) {
	case 0:
		return lang.Sprintf(" (borderline: %.0f%% chance of running out of memory)", chance*100)
	case 1:
		return lang.Sprintf(" (borderline on phase %q: %.0f%% chance of running out of memory)", phases[0], chance*100)
	}
	names := make([]string, len(phases))
	for i, n := range phases {
		names[i] = strconv.Quote(n)
	}
	return lang.Sprintf(" (borderline on phases %s: up to %.0f%% chance of running out of memory)", strings.Join(names, lang.T(", ")), chance*100)
}

// pinnedKind reports whether a change of kind k keeps the phase on its
// pinned provider, region and GPU type: a change of the workload
// (precision, batch, checkpointing, sharding), not of the offer (pricing
// mode, GPU type, region).
func pinnedKind(k string) bool {
	switch k {
	case "pricing", "gpu", "region":
		return false
	}
	return true
}
