package tui

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"charm.land/lipgloss/v2"
	"charm.land/lipgloss/v2/table"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/advice"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/probe"
	"github.com/gpuplan/gpuplan/model/serve"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/report"
)

// result is one recompute of the answers: what the workload needs, the
// offers that run it and, when none does, what to change.
type result struct {
	seq      int
	cfg      config.Config
	err      error // the first answer that does not parse, resolve or validate
	workload model.Workload
	// hfModel is the architecture read from the answers' config.json,
	// kept also when the workload on it does not validate (a BERT's 512
	// learned positions under the previous model's 4096 tokens), so that
	// learnHF can learn it and the length follow its default; zero when
	// no config.json was read.
	hfModel  model.Architecture
	warnings []string        // resolving the answers (English only: model gives them as text)
	warnMsgs []model.Message // the workload's, for translation
	est      *model.Estimate // per-GPU need, no GPU
	rec      model.Recommendation
	recErr   error // no instance passes the filters
	advice   []advice.Advice
	adviceOn *model.GPU // the largest GPU the advice is for
	// hints are what would make the workload rank offers when none does,
	// each change alone, as recommend's "What would make it fit"
	// (report.WouldFit): a budget or deadline, not only memory.
	hints   []report.FitHint
	tips    []advice.Tip   // on the best offer's GPU: the changes that save the most
	serving *serve.Serving // the serving request, when the answers serve an LLM
	serve   []serve.Plan   // its plans, serve.RankServing's order; nil when not serving
	// shown are rec's offers as the views show them (decideSpot,
	// report.Decisions.ShownOffers): under spot pricing with spot rates, a
	// spot offer at its expected job time and cost with interruptions,
	// parallel to rec.Offers, which Decide ranked by those figures. nil
	// when they are rec's own. Display copies only: selection, a and
	// ctrl+e take rec.Offers.
	shown []model.Offer
	// spotShown reports whether a shown offer is at its expected figures
	// with interruptions: the views then say so (report.SpotShownNote).
	spotShown bool
	// spotLast is how many offers decideSpot ranked after the rest, their
	// spot job never finishing (report.Decisions.SpotLast), when some
	// others finish; 0 otherwise.
	spotLast int
	// floated is the best offer with the GPU count left to float (auto
	// GPUs, as recommend without --gpus), when the answers fix a count,
	// the best offer rents GPUs it does not use, and floating is clearly
	// cheaper (floatedBest); nil otherwise.
	floated *model.Offer
	// kept is the offer of the opened file's [selection] when the ranking
	// lacks it (another type of its provider, region and GPU stands for
	// them), matched on the answers as gpuplan export --config matches it
	// (matchKept); keptWhy says why that offer does not run the answers
	// when the catalog still has it. Both zero when the ranking has it or
	// no selection was looked for.
	kept    *model.Offer
	keptWhy model.Message
	elapsed time.Duration
}

// shownOffers are the offers as the list and the panel show them
// (result.shown), parallel to r.rec.Offers.
func (r *result) shownOffers() []model.Offer {
	if r == nil {
		return nil
	}
	if r.shown != nil {
		return r.shown
	}
	return r.rec.Offers
}

// shownRec is r.rec with the shown offers: for the notes that read the
// whole ranking (report.RiskyAheadNoteShort).
func (r *result) shownRec() *model.Recommendation {
	rec := r.rec
	rec.Offers = r.shownOffers()
	return &rec
}

// shownAt is the shown copy of r's offer of o's instance type, region,
// pricing and GPUs when the views show it at its expected spot figures
// (result.spotShown), else nil.
func (r *result) shownAt(o *model.Offer) *model.Offer {
	if r == nil || !r.spotShown || o == nil || len(r.shown) != len(r.rec.Offers) {
		return nil
	}
	i := selectedIndex(r.rec.Offers, o)
	if i < 0 || r.shown[i].JobUSD == r.rec.Offers[i].JobUSD && r.shown[i].JobHours == r.rec.Offers[i].JobHours {
		return nil
	}
	return &r.shown[i]
}

// spotLastNote says, as recommend --pricing spot warns, how many offers
// were ranked after the rest for their spot job never finishing; "" for
// none.
func spotLastNote(lang *i18n.Printer, r *result) string {
	if r == nil || r.spotLast == 0 {
		return ""
	}
	return lang.Message(model.Msg("%v ranked after the rest: their spot job would not finish, interruptions coming faster than it progresses between them (the Spot lines say why)", model.CountMsg(r.spotLast, "offer")))
}

// shownOf is the shown copy of o, one of r.rec.Offers (the same pointer
// when it has none).
func (r *result) shownOf(o *model.Offer) *model.Offer {
	if r == nil || r.shown == nil || o == nil {
		return o
	}
	for i := range r.rec.Offers {
		if &r.rec.Offers[i] == o {
			return &r.shown[i]
		}
	}
	return o
}

// ok reports whether the answers gave an estimate.
func (r *result) ok() bool { return r != nil && r.err == nil && r.est != nil }

// best returns the top offer, or nil.
func (r *result) best() *model.Offer {
	if r == nil || len(r.rec.Offers) == 0 {
		return nil
	}
	return &r.rec.Offers[0]
}

// same is r's offer of o's instance type, region, pricing and GPU count,
// nil when r ranks none such: o as the current result has it.
func (r *result) same(o *model.Offer) *model.Offer {
	if r == nil || o == nil {
		return nil
	}
	for i := range r.rec.Offers {
		x := &r.rec.Offers[i]
		if x.Instance == o.Instance && x.Region == o.Region && x.Pricing == o.Pricing && x.GPUs == o.GPUs && x.Instances == o.Instances {
			return x
		}
	}
	return nil
}

// hfReader reads config.json files once per path: the path input changes
// a letter at a time, and files are read in command goroutines. The lock
// guards the cache only, never a read: a slow file (a FIFO, a stalled
// network mount) holds up the command reading it, not the screen, which
// only peeks at the cache — except the path question's enter, which
// waits for the path in the field (check).
type hfReader struct {
	read    func(path string, task model.Task) (model.Architecture, model.Precision, []model.Message, error)
	mu      sync.Mutex
	seen    map[string]hfEntry
	reading map[string]chan struct{} // by hfKey: closed when that read ends
	// wait bounds how long check waits for a read; 0 means hfCheckWait.
	wait time.Duration
}

// hfCheckWait bounds the wait of enter on a config.json path whose read
// has not finished: the local files it is for read in milliseconds (the
// reader refuses FIFOs and files above 4 MiB before reading them), so
// only a stalled mount reaches it, and enter then stops and says so.
const hfCheckWait = 2 * time.Second

type hfEntry struct {
	a   model.Architecture
	p   model.Precision
	ws  []model.Message
	err error
}

// check returns a function that reports whether path reads as a
// config.json for task, or nil when there is no reader. It runs on the
// update path when enter leaves the question (huh validates there), so it
// judges the path now in the field: a path read already answers from the
// cache; otherwise it reads it, or joins the read under way, and waits up
// to the bound. Judging only finished reads let a path pasted and entered
// in one go pass unread (the trial's M2: a 200 MB file, a negative
// hidden_size went through).
func (h *hfReader) check() func(path string, task model.Task) error {
	if h == nil || h.read == nil {
		return nil
	}
	return func(path string, task model.Task) error {
		task = cmp.Or(task, model.TaskTrain) // as model.Workload.Resolve reads it
		done := make(chan error, 1)
		go func() {
			defer func() {
				if r := recover(); r != nil {
					done <- fmt.Errorf("reading it failed: %v", r)
				}
			}()
			_, _, _, err := h.get(path, task)
			done <- err
		}()
		wait := cmp.Or(h.wait, hfCheckWait)
		timer := time.NewTimer(wait)
		defer timer.Stop()
		select {
		case err := <-done:
			return err
		case <-timer.C:
			return model.Msg("still reading it after %s (a slow disk or mount?): press enter again once the panel shows it", wait)
		}
	}
}

func hfKey(path string, task model.Task) string { return string(task) + "\x00" + path }

// peek returns the cached read of path, if any; it never blocks on a read.
func (h *hfReader) peek(path string, task model.Task) (hfEntry, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	e, ok := h.seen[hfKey(path, task)]
	return e, ok
}

// get reads path once per task and caches the answer. The read runs
// without the lock; a second caller for the same path and task while it
// runs waits for it rather than reading again.
func (h *hfReader) get(path string, task model.Task) (model.Architecture, model.Precision, []model.Message, error) {
	k := hfKey(path, task)
	for {
		h.mu.Lock()
		if e, ok := h.seen[k]; ok {
			h.mu.Unlock()
			return e.a, e.p, e.ws, e.err
		}
		ch, busy := h.reading[k]
		if !busy {
			break // still locked: this caller reads
		}
		h.mu.Unlock()
		<-ch // then the cache has it, or the read panicked and this caller reads
	}
	ch := make(chan struct{})
	if h.reading == nil {
		h.reading = map[string]chan struct{}{}
	}
	h.reading[k] = ch
	h.mu.Unlock()
	defer func() { // also when read panics: the waiters must not wait for ever
		h.mu.Lock()
		delete(h.reading, k)
		h.mu.Unlock()
		close(ch)
	}()
	a, p, ws, err := h.read(path, task)
	h.mu.Lock()
	if h.seen == nil {
		h.seen = map[string]hfEntry{}
	}
	h.seen[k] = hfEntry{a, p, ws, err}
	h.mu.Unlock()
	return a, p, ws, err
}

// compute estimates the configuration and matches it against the
// catalog. It is pure apart from reading config.json files, so it can run
// in a command; cfgErr is the answers' parse error, shown as is.
func compute(cat *model.Catalog, cfg config.Config, cfgErr error, hf *hfReader, seq int) *result {
	return computeView(cat, cfg, cfgErr, hf, seq, nil, nil)
}

// computeView is compute with the matcher's spot view (model.Query.
// SpotView; nil: none) and the spot rates and assumptions the hints'
// change to spot pricing is priced with (report.WouldFit; nil: none), as
// computeSpot gives them.
func computeView(cat *model.Catalog, cfg config.Config, cfgErr error, hf *hfReader, seq int, view func(*model.Offer) (model.Offer, bool), spot *report.DecideInput) *result {
	start := time.Now()
	r := &result{seq: seq, cfg: cfg, err: cfgErr}
	defer func() { r.elapsed = time.Since(start) }()
	if cfgErr != nil {
		return r
	}
	var rd config.Readers
	if hf != nil && hf.read != nil {
		rd.HFConfig = hf.get
	}
	w, ws, err := cfg.Workload.Resolve(cat, rd)
	if cfg.Workload.HFConfig != "" {
		r.hfModel = w.Model
	}
	if err != nil {
		r.err = err
		return r
	}
	r.workload = w
	r.warnings, r.warnMsgs = ws, w.WarningMessages()
	e, err := model.Compute(w, nil)
	if err != nil {
		r.err = config.AsError(err)
		return r
	}
	r.est = &e
	q := cfg.Query()
	q.SpotView = view
	r.rec, r.recErr = model.Recommend(w, cat, q)
	if b := r.best(); b != nil && b.Estimate != nil {
		r.tips = advice.Tips(b.Estimate.Workload, b.GPU, panelTips)
	}
	if b := r.best(); b != nil {
		r.floated = floatedBest(cat, cfg, rd, b)
	}
	if len(r.rec.Offers) == 0 && r.recErr == nil {
		r.hints = report.WouldFit(w, cat, cfg.Query(), &r.rec, spot)
		if h, ok := autoGPUsHint(w, cat, cfg.Query(), &r.rec); ok {
			r.hints = append(r.hints, h)
		}
	}
	if len(r.rec.Offers) == 0 {
		// What saves memory, only when memory is what blocks: the need
		// past the largest GPU's usable memory. A workload that fits it
		// and finds no offer misses on something else (100000 GPUs, no
		// instance that large: walk 49e ticked ZeRO-3 and 8-bit AdamW).
		if g := cmp.Or(pickedGPU(cat, cfg.Search.GPUs), largestGPU(cat, cfg.Search.Providers)); g != nil && e.Memory.Total() > model.UsableBytes(g) { // pickedGPU: browse.go
			r.advice, r.adviceOn = advice.FitAdviceOn(w, g, model.UsableBytes(g), cat.LargestNode(g)), g
		}
	}
	computeServe(r, cat, &cfg) // serving an LLM: the panel and the offers are vLLM's plans
	return r
}

// floatMargin is how much cheaper the floated count's best offer must be
// for the panel to name it: a clear saving, not a rounding.
const floatMargin = 0.8

// floatedBest is the best offer with the GPU count left to float (gpus
// auto, strategy auto, as recommend without --gpus ranks), when the
// answers fix a count and best rents GPUs it does not use ("uses 1 of the
// 2 GPUs you pay for"), and it costs under floatMargin of best; else nil.
// Qwen3 235B on "single GPU" ranked 1 of 2 B200 at $58.67 for the job
// where recommend gave 8 MI300X at $16.73 (walk 49e). Only such a best
// pays for the second ranking.
func floatedBest(cat *model.Catalog, cfg config.Config, rd config.Readers, best *model.Offer) *model.Offer {
	if cfg.Workload.GPUsAuto() || best.Instance == nil || best.GPUs >= best.Instances*best.Instance.GPUCount {
		return nil
	}
	c := cfg
	c.Workload.GPUs, c.Workload.AutoGPUs, c.Workload.Strategy = 0, true, ""
	c.Search.MaxGPUs = 0
	w, _, err := c.Workload.Resolve(cat, rd)
	if err != nil {
		return nil
	}
	rec, err := model.Recommend(w, cat, c.Query())
	if err != nil || len(rec.Offers) == 0 {
		return nil
	}
	o := &rec.Offers[0]
	if cost, base := hintCost(o), hintCost(best); o.HasJob != best.HasJob || base <= 0 || cost > floatMargin*base {
		return nil
	}
	return o
}

// hintCost is what an offer costs for the comparison of floatedBest: the
// job when timed, else an hour.
func hintCost(o *model.Offer) float64 {
	if o.HasJob {
		return o.JobUSD
	}
	return o.USDPerHour
}

// floatLines say what floating the GPU count saves (floatedBest), as the
// tips say theirs, and which answers float it.
func (p panel) floatLines(r *result, width int) []string {
	f, best := r.floated, r.best()
	if f == nil || best == nil {
		return nil
	}
	st, T := p.st, p.lang.T
	unit := T("job")
	if !f.HasJob {
		unit = T("per hour")
	}
	fig := fmt.Sprintf("%s %s (%s → %s)", unit, report.SignedPct(-100*(1-hintCost(f)/hintCost(best))), report.USD(hintCost(best)), report.USD(hintCost(f)))
	how := p.lang.Sprintf("%s: auto", T("GPUs"))
	if r.cfg.Workload.Strategy == model.Single {
		how = p.lang.Sprintf("%s: %s, then %s: auto", T("Distribution"), T("one node, several GPUs"), T("GPUs"))
	}
	line := st.Good.Render("↓ ") + st.Value.Render(fig) + " " + p.lang.Sprintf("on %s, letting the GPU count float (%s)", printable(report.OfferGPUsIn(p.lang, f)), how)
	return append(wrapLines(line, width), "")
}

// autoGPUsHint is "with GPUs: auto" and what it ranks first, when a fixed
// GPU count no instance has (or the node limit) removed offers that auto
// GPUs, the fewest whole instances that fit, would rank. report.WouldFit
// tries allowing several nodes, which does not help a count past every
// node limit.
func autoGPUsHint(w model.Workload, cat *model.Catalog, q model.Query, rec *model.Recommendation) (report.FitHint, bool) {
	if q.AutoGPUs || !slices.ContainsFunc(rec.Reasons, func(r model.ReasonCount) bool {
		return r.Kind == model.RejectGPUCount || r.Kind == model.RejectNodes
	}) {
		return report.FitHint{}, false
	}
	q.AutoGPUs = true
	auto, err := model.Recommend(w, cat, q)
	if err != nil || len(auto.Offers) == 0 {
		return report.FitHint{}, false
	}
	return report.FitHint{Change: model.Msg("with %s: %s", model.Msg("GPUs"), "auto"), Offers: len(auto.Offers), Best: auto.Offers[0]}, true
}

// largestGPU is the GPU with the most usable memory that the providers
// rent out: what fit advice aims at when nothing fits.
func largestGPU(cat *model.Catalog, chosen []string) *model.GPU {
	var best *model.GPU
	for i := range cat.Instances {
		in := &cat.Instances[i]
		if !in.Offered() || len(chosen) > 0 && !slices.Contains(chosen, in.Provider) ||
			len(chosen) == 0 && slices.Contains(model.MarketplaceProviders, in.Provider) {
			continue
		}
		g, err := cat.GPU(in.GPU)
		if err == nil && (best == nil || g.MemoryBytes() > best.MemoryBytes()) {
			best = g
		}
	}
	return best
}

// panel is the live estimate beside (or under) the questions.
type panel struct {
	st            *report.Styles
	res           *result
	pending       bool // a newer result is on its way
	width, height int
	cache         *panelCache   // shared by copies: View has a value receiver
	lang          *i18n.Printer // the panel's language (nil: English)
	probes        []probe.Kept  // the user's kept probe runs (Options.Probes)
	// chosen is the offer a reopened file's [selection] picked, as res
	// ranks it (app.keptOffer); nil when none is, and the panel shows
	// the best offer's figures.
	chosen *model.Offer
	// chosenPhase names the plan's phase whose pinned offer chosen is
	// (app.keptPhase); "" for a file's [selection].
	chosenPhase string
	// chosenExported says chosen is the last export's [selection], not an
	// opened file's (the panel said "the file's" after a plain ctrl+e).
	chosenExported bool
}

// chosenWhose says whose the chosen offer is: the file's or the phase's.
func (p *panel) chosenWhose() string {
	if p.chosenPhase != "" {
		return printable(p.lang.Sprintf("phase %q's, as ctrl+o lists it", p.chosenPhase))
	}
	if p.res != nil && p.chosen == p.res.kept {
		// Matched on its own (matchKept): ctrl+o's ranking has another
		// type of its GPU there.
		if p.chosenExported {
			return p.lang.T("the one exported, not in ctrl+o's ranking")
		}
		return p.lang.T("the file's, not in ctrl+o's ranking")
	}
	if p.chosenExported {
		return p.lang.T("the one exported, as ctrl+o lists it")
	}
	return p.lang.T("the file's, as ctrl+o lists it")
}

// panelCache keeps the last drawing: the panel changes only with its
// result or size, not with every keystroke (recomputes arrive later).
type panelCache struct {
	res            *result
	chosen         *model.Offer
	chosenPhase    string
	chosenExported bool
	width, height  int
	compact        bool
	out            string
}

func (p *panel) setSize(w, h int) { p.width, p.height = max(w, 0), max(h, 0) }

// modelTitle names the estimated model: "Llama 3.1 8B · 8.03B parameters".
func modelTitle(lang *i18n.Printer, r *result) string {
	w := &r.workload
	name := w.Model.Name
	if name == "" {
		name = lang.Sprintf("custom %s", string(w.Model.Family))
	}
	s := name + " · " + lang.Sprintf("%s parameters", model.FormatCount(r.est.Params))
	if r.est.TrainableParams > 0 && r.est.TrainableParams < r.est.Params {
		s += lang.Sprintf(" (%s trained)", model.FormatCount(r.est.TrainableParams))
	}
	return printable(s)
}

// view renders the panel inside its border, width × height cells; compact
// (under the form) shows the essentials in fewer lines.
func (p panel) view(compact bool) string {
	if c := p.cache; c != nil && c.res == p.res && c.chosen == p.chosen && c.chosenPhase == p.chosenPhase && c.chosenExported == p.chosenExported && c.width == p.width && c.height == p.height && c.compact == compact && c.out != "" {
		return c.out
	}
	out := p.render(compact)
	if p.cache != nil {
		*p.cache = panelCache{res: p.res, chosen: p.chosen, chosenPhase: p.chosenPhase, chosenExported: p.chosenExported, width: p.width, height: p.height, compact: compact, out: out}
	}
	return out
}

func (p panel) render(compact bool) string {
	st := p.st
	iw := max(p.width-st.Panel.GetHorizontalFrameSize(), 0)
	ih := max(p.height-st.Panel.GetVerticalFrameSize(), 0)
	var lines []string
	add := func(s ...string) { lines = append(lines, s...) }
	r := p.res
	switch {
	case r == nil:
		add(st.Muted.Render(p.lang.T("estimating…")))
	case r.err != nil:
		add(st.Heading.Render(p.lang.T("Estimate")), st.Muted.Render("—"))
		add(wrapLines(st.Bad.Render(errTextIn(p.lang, r.err)), iw)...) // wrapped, never cut: the cause is at the end
	default:
		lines = p.estimateLines(r, iw, ih, compact)
	}
	for i := range lines {
		lines[i] = report.Truncate(lines[i], iw)
	}
	if len(lines) > ih {
		lines = lines[:ih]
	}
	// Lip Gloss v2 sizes include the border and padding.
	return st.Panel.Width(iw + st.Panel.GetHorizontalFrameSize()).Height(ih + st.Panel.GetVerticalFrameSize()).
		Render(strings.Join(lines, "\n"))
}

// errIn is err in lang: a model.Message (the answers' parse errors, the
// model's) through the catalogue, any other error's text as a key; in
// Chinese, an error no key matches (a sentinel's words around a message:
// "invalid serving workload: prompt_tokens + output_tokens …") as the
// panel renders it (errTextIn), where the status line read it in English
// (walk49).
func errIn(lang *i18n.Printer, err error) string {
	var m model.Message
	if errors.As(err, &m) && m.String() == err.Error() {
		return lang.Message(m)
	}
	if s := err.Error(); lang.T(s) != s || !lang.Chinese() {
		return lang.T(s)
	}
	return errTextIn(lang, err)
}

// errTextIn is errText in lang.
func errTextIn(lang *i18n.Printer, err error) string {
	var m model.Message
	if errors.As(err, &m) && m.String() == err.Error() {
		return printable(lang.Message(m))
	}
	// An error that carries its message (a *config.Error or
	// *model.FieldError: "framework:
	// qlora quantizes with bitsandbytes…") through the catalogue, as the
	// CLI renders it (i18n.Printer.Error); by its English text it was
	// never found, and the Chinese panel printed English.
	var mm interface{ Message() model.Message }
	if errors.As(err, &mm) {
		// Not when errText rewrites it for the configurator (head_dim);
		// its key loses "workload." as errText drops it (a config.Error
		// keys the field so).
		if e, ok := mm.(error); ok && errText(err) == strings.TrimPrefix(e.Error(), "workload.") {
			return printable(strings.TrimPrefix(lang.Message(mm.Message()), "workload."))
		}
	}
	s := errText(err)
	if t := lang.T(s); t != s || !lang.Chinese() {
		return t
	}
	// Not a sentence of the catalogue (a wrapper's own words around a
	// message, a *fs.PathError): rendered by its structure, as the CLI
	// prints it (i18n.Printer.Error), not left in English.
	return printable(lang.Error(err))
}

// errText is an error as a sentence for the panel and footer.
func errText(err error) string {
	s := err.Error()
	for _, sentinel := range []error{config.ErrInvalid, model.ErrInvalidWorkload, model.ErrInvalidArchitecture, model.ErrNoOffers} {
		s = strings.TrimPrefix(s, sentinel.Error()+": ")
	}
	s = strings.TrimPrefix(s, "workload.")
	s = strings.TrimSuffix(s, " (list them with gpuplan catalog instances)") // a command-line hint
	// The configurator asks for no head_dim: say what to change instead.
	// Errors quote paths and names from files: printable, never escapes.
	return printable(strings.Replace(s, "; give head_dim", ": hidden must be a multiple of heads", 1))
}

func (p panel) estimateLines(r *result, iw, ih int, compact bool) []string {
	if r.serve != nil {
		return p.serveLines(r, iw, ih, compact)
	}
	st, T := p.st, p.lang.T
	e := r.est
	w := &r.workload
	// The offers as the list shows them (result.shown): under spot, at
	// their expected job time and cost with interruptions, as recommend's.
	best := r.shownOf(r.best())
	if p.chosen != nil {
		// The offer the reopened file picked: its figures, as the file
		// wrote them ([estimate] is the picked offer's).
		best = r.shownOf(p.chosen)
	}
	offers := r.shownOffers()
	if best != nil && best.Estimate != nil {
		head := best.Estimate.Workload // with "auto" GPUs, the count and strategy the best offer uses
		// The precision asked for, as the CLI's header: a GPU's fallback
		// (amp-fp16 on a GPU without bf16) is marked on its offer (↺).
		head.Precision = r.workload.Precision
		w = &head
	}
	var lines []string
	add := func(s ...string) { lines = append(lines, s...) }

	need := e.Memory.Total()
	capacity, onGPU := 0.0, ""
	if best != nil {
		capacity = best.UsableBytes
		need = best.NeedBytes
		onGPU = " · " + p.lang.Sprintf("%s: %s usable", best.GPU.Name, report.GiB(best.UsableBytes))
	} else if r.adviceOn != nil {
		capacity = model.UsableBytes(r.adviceOn)
		onGPU = " · " + p.lang.Sprintf("largest GPU %s: %s usable", r.adviceOn.Name, report.GiB(capacity))
	}
	mem := e.Memory
	if best != nil && best.Estimate != nil {
		mem = best.Estimate.Memory
	}
	title := st.Title.Render(modelTitle(p.lang, r))
	vram := st.Heading.Render(T("VRAM per GPU")+" ") + st.Value.Render(report.GiB(need)) + st.Muted.Render(onGPU)
	bar := report.VRAMBar(mem, capacity, max(min(iw, 72), 4), st)
	if compact {
		add(title+st.Muted.Render(" · "+taskName(p.lang, w.Task)+" · "+string(w.Precision)), vram, bar)
		var notes []string // all the offers': one row may be all there is room for
		if best != nil {
			notes = panelNotes(p.lang, r.shownRec(), offers, false, false)
		}
		// The reopened file's pick first (the figures above are its): on
		// a short panel it takes the best offer's row and its notes.
		picked := p.chosen != nil && ih-len(lines) >= 2 // the pick and the count
		if picked {
			add(st.Good.Render(padCells(T("picked"), 7)) + offerLine(p.lang, best, iw-7))
			if ih-len(lines)-1-len(notes) < 1 {
				notes = nil
			}
		}
		if tips := p.tipLines(r, r.shownOf(r.best())); len(tips) > 1 && ih-len(lines) >= 3+len(notes) { // the top tip, the best offer, the notes and the count
			add(tips[1])
		}
		if best != nil {
			// The job cost's range, when two offers keep their room under it.
			if n := report.JobRangeNoteShort(p.lang, offers[:min(len(offers), max(ih-len(lines)-1-len(notes), 1))]); n != "" && ih-len(lines)-2-len(notes) >= 2 {
				notes = append(notes, n)
			}
			// What the spot rows' figures are, when the best offer and
			// the next keep their rows under it.
			if r.spotShown && ih-len(lines)-len(notes) >= 4 {
				notes = append(notes, report.SpotShownNote(p.lang, r.rec.Sort))
			}
			room := ih - len(lines) - 1 - len(notes) // the count under the list, and the notes of the "~" rows and risky offers
			var shown []model.Offer
			used := 0
			if n := max(room, 1); !picked || room > 0 {
				shown, used = report.CollapseRegions(offers, n)
			}
			for i, g := range shown {
				prefix := st.Muted.Render("     ")
				switch i {
				case 0:
					prefix = st.Good.Render(padCells(T("best"), 5))
				case 1: // a second offer with no label read as a second "best"
					prefix = st.Muted.Render(padCells(T("then"), 5))
				}
				add(prefix + offerLine(p.lang, &g, iw-5))
			}
			for _, note := range notes {
				add(st.Warn.Render(report.Truncate(note, iw)))
			}
			add(compactCountLine(p.lang, st, shown, offers, used, iw, r.rec.AsOf))
		} else {
			lines = append(lines, p.noFitLines(r, iw)...)
		}
		return lines
	}
	summary := report.DescribeWorkloadIn(p.lang, w)
	asked := r.cfg.Workload.Strategy
	if asked == "" {
		asked = model.DDP // the default of several GPUs (the strategy answer auto names none)
	}
	if best != nil && asked != model.Single && w.GPUs > 1 && w.Strategy != asked {
		// The matcher falls back from DDP to FSDP where DDP does not fit,
		// or fits only at the estimate (model.Offer.Replaced): said as
		// estimate's note says it, not "did not fit" for a DDP that fits
		// at the estimate (estlayout).
		if best.Replaced == model.VerdictBorderline {
			summary += p.lang.Sprintf(" (%s was borderline)", strings.ToUpper(string(asked)))
		} else {
			summary += p.lang.Sprintf(" (%s did not fit)", strings.ToUpper(string(asked)))
		}
	}
	pe := e // the estimate shown: the best offer's when there is one
	if best != nil && best.Estimate != nil {
		pe = best.Estimate
	}
	add(title, st.Muted.Render(summary), st.Muted.Render(report.DescribeShapeIn(p.lang, w)))
	add(p.recipeLines(pe)...)
	add("")
	add(vram, bar)
	add(p.memoryDetailLines(pe, best)...)
	add(p.probeLines(pe, iw)...)
	parts := report.BreakdownLinesIn(p.lang, mem, st)
	if iw >= 72 && len(parts) > 2 { // two columns
		half := (len(parts) + 1) / 2
		for i := 0; i < half; i++ {
			l := parts[i]
			if i+half < len(parts) {
				l += "   " + parts[i+half]
			}
			add(l)
		}
	} else {
		add(parts...)
	}
	add("")
	if best == nil {
		add(p.noFitLines(r, iw)...)
	} else {
		add(p.tipLines(r, r.shownOf(r.best()))...) // the tips are the best offer's GPU's (compute)
		add(p.floatLines(r, iw)...)
		if p.chosen != nil {
			add("", st.Heading.Render(T("Picked offer"))+st.Muted.Render(" · "+p.chosenWhose()),
				offerLine(p.lang, p.chosen, iw))
		}
		sortName := map[model.SortKey]string{model.SortPrice: "price per hour", model.SortMonthly: "monthly cost",
			model.SortJob: "job cost", model.SortTime: "job time", model.SortHeadroom: "VRAM headroom"}[r.rec.Sort]
		head := len(lines) // the count, written once the rows are known
		add("")
		room := ih - len(lines) - 2 // keep two lines for warnings
		warn := append(offerWorkloadWarnings(p.lang, r, best), p.lang.Messages(best.WarningMessages())...)
		// The best price months behind the catalog, as under recommend's
		// best: wrapped, not cut before "check it before renting".
		var oldPrice []string
		if l := report.OldPriceLineShort(p.lang, best, r.rec.AsOf); l != "" {
			oldPrice = panelNoteLines([]string{l}, iw-2)
		}
		if len(warn) == 0 && len(oldPrice) == 0 {
			room += 2
		}
		// Room for the notes the rows may have (SizedTableNote: of every offer, as the rows are not known yet).
		notes := panelNoteLines(panelNotes(p.lang, r.shownRec(), offers, false, true), iw)
		var spotNote []string // what the spot rows' figures are (recommend's note under its table)
		if r.spotShown {
			spotNote = panelNoteLines([]string{report.SpotShownNote(p.lang, r.rec.Sort)}, iw)
		}
		if n := spotLastNote(p.lang, r); n != "" {
			spotNote = append(spotNote, panelNoteLines([]string{n}, iw)...)
		}
		var rows []model.Offer
		used := 0
		if n := room - 3 - len(notes) - len(spotNote); n > 0 { // the notes, and the job cost's range under the list
			rows, used = report.CollapseRegions(offers, n)
			// The room kept was for every offer's notes; the rows shown
			// may have fewer (a note of an offer far down the list): the
			// rest goes to more rows while theirs still fit (the first
			// screen had kept three empty lines under its notes).
			if left := room - 3 - len(spotNote); n < left && used < len(offers) {
				more, usedMore := report.CollapseRegions(offers, left-len(panelNoteLines(panelNotes(p.lang, r.shownRec(), rows, false, true), iw)))
				if len(more) > len(rows) && len(more)+len(panelNoteLines(panelNotes(p.lang, r.shownRec(), more, false, true), iw)) <= left {
					rows, used = more, usedMore
				}
			}
		}
		tail := []string{p.lang.Sprintf("ranked by %s", T(sortName)), T("ctrl+o shows all")}
		count := p.lang.Sprintf("Offers: %s", fitWords(p.lang, offers))
		if merged := mergedRowsNote(p.lang, len(rows), used, len(offers)); merged != "" {
			tail = append([]string{merged}, tail...)
		}
		for len(tail) > 0 && lipgloss.Width(count+" · "+strings.Join(tail, " · ")) > iw {
			tail = tail[:len(tail)-1] // ctrl+o goes first: the footer has it too; whole parts, never "in other reg…"
		}
		lines[head] = st.Heading.Render(count)
		if len(tail) > 0 {
			lines[head] += st.Muted.Render(" · " + strings.Join(tail, " · "))
		}
		if offers := rows; len(offers) > 0 {
			table, onCost := offersTableCost(p.lang, offers, iw, st)
			add(strings.Split(table, "\n")...)
			for _, l := range panelNoteLines(panelNotes(p.lang, r.shownRec(), offers, onCost, true), iw) {
				add(st.Warn.Render(l))
			}
			for _, l := range spotNote {
				add(st.Muted.Render(l))
			}
			if note := report.JobRangeNoteShort(p.lang, offers); note != "" {
				add(st.Muted.Render(report.Truncate(note, iw)))
			}
		}
		for _, s := range warn {
			add(st.Warn.Render("! ") + s)
		}
		for i, l := range oldPrice {
			mark := "  "
			if i == 0 {
				mark = "! "
			}
			add(st.Warn.Render(mark + l))
		}
	}
	return lines
}

// compactCountLine is the compact panel's last line: how many offers fit,
// led by the "~ borderline" verdict of the shown offers when one is (the
// wide panel's warning and table mark; a new user read a bare "best" at
// 80×24 as safe while recommend gave it a 10% chance of running out of
// memory). It shares the count's line so the best offer and the next keep
// theirs at 80×24; "ctrl+o shows them all" goes first when the line is
// too long (the footer has ctrl+o too). A best offer whose price is
// months older than the catalog dated asOf (report.OldPriceMark) leads
// it the same way, after the borderline verdict when both are.
func compactCountLine(lang *i18n.Printer, st *report.Styles, shown, offers []model.Offer, used, width int, asOf string) string {
	count, fit := fitCount(lang, offers), len(offers)
	if merged := mergedRowsNote(lang, len(shown), used, fit); merged != "" {
		count += " · " + merged
	}
	all := lang.Sprintf("%s · ctrl+o shows them all", count)
	note := report.BorderlineNoteShort(lang, shown)
	if len(shown) > 0 {
		if old := report.OldPriceMark(lang, &shown[0], asOf); old != "" && note == "" {
			note = old
		} else if old != "" && lipgloss.Width(note+" · "+old+" · "+count) <= width {
			note += " · " + old
		}
	}
	if note == "" {
		return st.Muted.Render(all)
	}
	rest := " · " + all
	if lipgloss.Width(note+rest) > width {
		rest = " · " + count
	}
	return st.Warn.Render(note) + st.Muted.Render(rest)
}

// mergedRowsNote says why a list of every offer that fits has fewer rows
// than the count above it ("2 fit" over one row, new-user walk ux33):
// an offer in several regions at one price is one row ("IN +1",
// report.CollapseRegions). It is "" when the rows are the offers, and
// when the list is cut short of them (used < fit: "ctrl+o shows all"
// says that).
func mergedRowsNote(lang *i18n.Printer, rows, used, fit int) string {
	if rows == 0 || used < fit || rows >= fit {
		return ""
	}
	return lang.Sprintf("%s, +%d in other regions", report.Count(lang, rows, "row"), fit-rows)
}

// panelNotes are the lines under the panel's offers: why offers of
// shown have a "~" job time (report.LateNoteShort; on the job cost when
// lateOnCost), why a host sized to the job ranks before a cheaper one
// that rents more GPUs (report.SizedTableNote, recommend's note: "ranked
// by job cost" alone read as a wrong order, walk49g; when sized, for
// the panel's table), and the cheaper offer of the whole ranking rec ranked
// after the ones that fit for its chance of running out of memory
// (report.RiskyAheadNoteShort; under a table, first and in the words of
// report.TryFirstNoteShort when it is worth trying first). The late offers are counted as rows, one
// per run of regions at one price (report.CollapseRegions), as the
// offers list (ctrl+o) and recommend's table count them: the compact
// panel, which passes every offer, said "64 offers" where they said 50.
func panelNotes(lang *i18n.Printer, rec *model.Recommendation, shown []model.Offer, lateOnCost, sized bool) []string {
	var notes []string
	rows, _ := report.CollapseRegions(shown, len(shown))
	var sizedNote string
	if sized { // a table of the rows: the compact panel's one-line offers rank no visible order
		sizedNote = report.SizedTableNote(lang, shown, rec.Sort)
	}
	risky := report.RiskyAheadNoteShort(lang, rec)
	if try := report.TryFirstNoteShort(lang, rec); try != "" && sized {
		// Worth trying before the best (model.TryFirstShare): first, in
		// the words of recommend's "try first:" line. The compact panel
		// (sized false) keeps the short note, the line under its best.
		notes, risky = append(notes, try), ""
	}
	for _, note := range []string{report.LateNoteShort(lang, rows, lateOnCost), sizedNote, risky, report.AssumedNetworkNoteShort(lang, shown)} {
		if note != "" {
			notes = append(notes, note)
		}
	}
	return notes
}

// panelNoteLines lays the panel's notes out in width cells, each wrapped to
// two lines at most: a note cut at one line lost its point ("about 10%
// chance of ru…", new-user trial), and more than two would push the
// offers off the panel.
func panelNoteLines(notes []string, width int) []string {
	var lines []string
	for _, note := range notes {
		w := wrapLines(note, width)
		if len(w) > 2 {
			rest := make([]string, 0, len(w)-1)
			for _, l := range w[1:] {
				rest = append(rest, strings.TrimRight(l, " "))
			}
			w = append(w[:1], report.Truncate(strings.Join(rest, " "), width))
		}
		lines = append(lines, w...)
	}
	return lines
}

// panelTips is how many tips the panel shows: the offers need the room.
const panelTips = 2

// tipLines are the panel's tips (advice.Tips on the best offer's GPU):
// figures first, so a narrow panel cuts the words, never the saving; the
// job's dollars when the offer bills by the hour (not a reserved term).
func (p panel) tipLines(r *result, best *model.Offer) []string {
	if len(r.tips) == 0 || best == nil {
		return nil
	}
	st, T := p.st, p.lang.T
	lines := []string{st.Heading.Render(T("What saves the most")) + st.Muted.Render(" · "+p.lang.Sprintf("on %s, each change alone", best.GPU.Name))}
	for i := range r.tips {
		t := &r.tips[i]
		fig := T("VRAM") + " " + report.SignedPct(-t.MemorySavedPct())
		if t.BaseGPUHours > 0 {
			fig += p.lang.Sprintf(", job %s", report.SignedPct(-t.CostSavedPct()))
			// Not under spot's expected cost (result.spotShown): the tip
			// scales GPU hours, and the interruptions' cost does not scale
			// with them.
			if best.HasJob && best.CommitmentUSD == 0 && !r.spotShown && math.Round(t.CostSavedPct()) != 0 {
				fig += " (" + report.USD(best.JobUSD) + " → " + report.USD(best.JobUSD*t.GPUHours/t.BaseGPUHours) + ")"
			}
		}
		lines = append(lines, st.Good.Render("↓ ")+st.Value.Render(fig)+" "+printable(tipChange(p.lang, t)))
	}
	return append(lines, "")
}

// wrapLines wraps s to width cells, as lines. A line never ends after a
// hyphen: ansi.Wrap (under lipgloss) breaks there, and a fit hint's
// --optimizer read "--" at one line's end and "optimizer" on the next
// (adamw-8bit and us-east-1 split the same way). The hyphens are no-break
// hyphens (U+2011, one cell as "-" is, so the widths stay) while wrapping,
// as report.WrapLine does for the command line.
func wrapLines(s string, width int) []string {
	s = strings.ReplaceAll(s, "-", noBreakHyphen)
	s = lipgloss.NewStyle().Width(max(width, 1)).Render(s)
	return strings.Split(strings.ReplaceAll(s, noBreakHyphen, "-"), "\n")
}

// hang indents every line of lines but the first by n spaces (a wrapped
// line's continuation under its text, past its mark); lines is changed.
func hang(lines []string, n int) []string {
	for i := 1; i < len(lines); i++ {
		lines[i] = strings.Repeat(" ", n) + lines[i]
	}
	return lines
}

// wrapBlock is wrapLines as one block of lines.
func wrapBlock(s string, width int) string { return strings.Join(wrapLines(s, width), "\n") }

// noBreakHyphen is U+2011, a hyphen no wrap breaks after (wrapLines).
const noBreakHyphen = "\u2011"

// noFitLines say why nothing fits and what would help, in width cells:
// causes are wrapped, never cut, and numbers are kept before labels.
func (p panel) noFitLines(r *result, width int) []string {
	st := p.st
	var lines []string
	if r.recErr != nil {
		return wrapLines(st.Bad.Render("✗ "+errTextIn(p.lang, r.recErr)), width)
	}
	lines = append(lines, st.Bad.Render(p.lang.T("✗ no offer runs this workload with these answers")))
	if len(r.rec.Reasons) > 0 { // budget, deadline, price limit: what removed them
		lines = append(lines, wrapLines(st.Muted.Render(report.ReasonSummaryIn(p.lang, &r.rec)), width)...)
	}
	// The workload's warnings, as estimate and recommend print them above
	// the offers (a global batch the GPUs cannot share, a sequence past the
	// model's positions): with no offer, the panel said none (walk 49e).
	for _, s := range offerWorkloadWarnings(p.lang, r, nil) {
		lines = append(lines, wrapLines(st.Warn.Render("! ")+s, width)...)
	}
	if len(r.hints) > 0 { // recommend's answer: a budget or a limit may be what blocks, not memory
		lines = append(lines, st.Heading.Render(p.lang.T("What would make it fit (each line on its own)")))
		for i := range r.hints {
			h := r.hints[i]
			h.Change = hintChange(h.Change)
			lines = append(lines, wrapLines(st.Good.Render("→ ")+report.FitHintLine(p.lang, &h), width)...)
		}
	} else if len(r.advice) > 0 {
		lines = append(lines, st.Heading.Render(p.lang.Sprintf("What would fit %s (each line on its own):", r.adviceOn.Name)))
		for _, a := range r.advice {
			mark := report.AdviceMark(st, &a) // "~": fits at the estimate, not across its band, as estimate marks it
			need := " → " + report.GiB(a.Total)
			if a.Fits { // what to act on: whole, its flags too, the lines after the first hanging under the text
				lines = append(lines, hang(wrapLines(mark+" "+adviceChange(p.lang, &a)+need, width-2), 2)...)
				continue
			}
			lines = append(lines, mark+" "+report.Truncate(adviceChange(p.lang, &a), width-2-lipgloss.Width(need))+need)
		}
	}
	for i, x := range r.rec.Rejected {
		if i == 3 {
			break
		}
		lines = append(lines, st.Muted.Render(fmt.Sprintf("  %s %s: %s", x.Instance.Provider, x.Instance.Type, report.RejectionReason(p.lang, &x))))
	}
	return lines
}

// offerWorkloadWarnings are the workload's warnings as the offer runs
// it (with "auto" GPUs the count is the offer's, not the answer's).
func offerWorkloadWarnings(lang *i18n.Printer, r *result, o *model.Offer) []string {
	if o == nil || o.Estimate == nil {
		out := make([]string, 0, len(r.warnings)+len(r.warnMsgs))
		for _, w := range r.warnings {
			out = append(out, lang.T(w))
		}
		return append(out, lang.Messages(r.warnMsgs)...)
	}
	w := o.Estimate.Workload
	return lang.Messages(w.WarningMessages())
}

// hintChange names a would-fit change by the configurator's question
// where report.WouldFit names the CLI's flag ("without --budget-job"):
// the configurator has no flags.
func hintChange(m model.Message) model.Message {
	empty := func(q string) model.Message { return model.Msg("with %s empty", model.Msg(q)) }
	answer := func(q, a string) model.Message { return model.Msg("with %s: %s", model.Msg(q), model.Msg(a)) }
	switch m.Key {
	case "without --deadline-hours":
		return empty("Deadline (hours)")
	case "without --budget-month":
		return empty("Monthly budget (USD)")
	case "without --budget-job":
		return empty("Job budget (USD)")
	case "with --allow-precision-fallback":
		return answer("Precision fallback", "yes")
	case "with --allow-multi-node":
		return answer("Distribution", "several nodes (multi-node)")
	case "without --max-gpus":
		return model.Msg("with %s: %s", model.Msg("GPUs"), "auto") // typed as is in either language
	}
	return m
}

// tipChange is a tip's change in lang (its message when it has one).
func tipChange(lang *i18n.Printer, t *advice.Tip) string {
	if !t.Bare.IsZero() { // the panel cuts a tip's words to its width: the flags would be cut first
		return lang.Message(t.Bare)
	}
	if t.Msg.IsZero() {
		return lang.T(t.Change)
	}
	return lang.Message(t.Msg)
}

// adviceChange is an advice's change in lang (its message when it has one).
func adviceChange(lang *i18n.Printer, a *advice.Advice) string {
	if a.Msg.IsZero() {
		return lang.T(a.Change)
	}
	return lang.Message(a.Msg)
}

// offerLine is one offer in a sentence of at most width cells, for the
// compact panel: the names (provider, type, region, GPUs), then the
// figures, which are never cut: the names give way first, so the job
// cost stays in view at 80 columns (issue 31; it fell off as "· j…").
// With a job the figures are its price, time and cost; without one, the
// price per hour and per month.
func offerLine(lang *i18n.Printer, o *model.Offer, width int) string {
	where := printable(fmt.Sprintf("%s %s %s", o.Instance.Provider, o.Instance.Type, report.OfferRegionIn(lang, o.Instance.Provider, o.Region)))
	gpus := printable(report.OfferGPUsIn(lang, o))
	if o.Instances > 1 {
		// The instances rented beside the type, as the plan page names a
		// phase's offer ("p4d.24xlarge ×2"): at the end of the GPUs, "(2
		// nodes)" was the first cut, and a phase renting two p4d read as
		// one with 16 GPUs (walk37).
		where = printable(fmt.Sprintf("%s %s ×%d %s", o.Instance.Provider, o.Instance.Type, o.Instances, report.OfferRegionIn(lang, o.Instance.Provider, o.Region)))
		gpus = strings.Replace(gpus, lang.Sprintf(" (%d nodes)", o.Instances), "", 1)
	}
	borderline := o.Verdict == model.VerdictBorderline
	if borderline { // the wide table's mark (markBorderline); the count line says what it means
		gpus = "~" + gpus
	}
	names := where + " " + gpus
	mark := ""
	if _, origin := o.Provenance(); model.FromOverlay(origin) {
		mark = report.OverlayMark // an overlay's price (#29)
	}
	figures := lang.Sprintf("%s/h %s/mo", report.USDHour(o.USDPerHour)+mark, report.USD(o.MonthlyUSD))
	if o.HasJob {
		hours := report.HoursIn(lang, o.JobHours)
		if o.Late() { // may miss the deadline: the table's mark; the note under the list says why
			hours = "~" + hours
		}
		figures = lang.Sprintf("%s/h · job %s %s", report.USDHour(o.USDPerHour)+mark, hours, report.USD(o.JobUSD))
	}
	room := width - lipgloss.Width(figures) - 1
	if room < 8 { // too narrow for both: the figures alone
		if borderline {
			return report.Truncate("~"+figures, width)
		}
		return report.Truncate(figures, width)
	}
	if lipgloss.Width(names) > room {
		// The provider, type and region give way first (down to 8
		// cells, or to the type and its instance count), then the GPUs' precision note and whole words of their
		// key (report.CutGPUs), never a key cut mid-word: cut from the
		// end, the line lost its GPUs ("best primeintellect
		// datacrunch__1xRTXPRO600…") or cut them ("1×quadro-rt…").
		keep := 8
		if o.Instances > 1 { // "p4de.24xlarge ×2" whole (walk37), the region may go
			keep = lipgloss.Width(printable(fmt.Sprintf("%s %s ×%d ", o.Instance.Provider, o.Instance.Type, o.Instances)))
		}
		g := report.CutGPUs(gpus, o.GPU.Key, room-1-min(lipgloss.Width(where), keep))
		names = g
		if left := room - 1 - lipgloss.Width(g); left > 0 {
			names = report.Truncate(where, left) + " " + g
		}
	}
	return report.Truncate(names, room) + " " + figures
}

// offerRow is report.OfferRow with every cell printable: names come from
// catalogs and overlays.
func offerRow(lang *i18n.Printer, o *model.Offer) []string {
	row := report.OfferRowIn(lang, o)
	row[1], row[2] = o.Instance.Type, report.OfferRegionIn(lang, o.Instance.Provider, o.Region) // whole: the tables cut them to their columns (cutColumn), report cuts at the end
	if o.GPUs > 1 && o.Strategy != model.DDP && o.Strategy != model.Single && o.Strategy != "" {
		// A sharded layout is not implied by the count, as DDP is: with
		// auto GPUs the matcher shards where DDP does not fit (the CLI's
		// strategy column); last, as the tables cut a cell's middle.
		row[3] += " " + report.LayoutName(lang, o.Strategy)
	}
	if _, origin := o.Provenance(); model.FromOverlay(origin) {
		row[4] += report.OverlayMark // an overlay's price, as the CLI's tables mark it (#29); the detail names the file
	}
	for i := range row {
		row[i] = printable(row[i])
	}
	return row
}

// markBorderline puts "~" (report.OfferRowIn's borderline mark on the
// headroom) before cell col of the rows whose offer is borderline, for a
// table without the headroom column: the mark stays in view at every
// width (trial L6). Row i is offers[shown[i]], or offers[i] when shown is
// nil. It reports whether it marked any.
func markBorderline(rows [][]string, shown []int, offers []model.Offer, col int) bool {
	marked := false
	for i, r := range rows {
		j := i
		if shown != nil {
			j = shown[i]
		}
		if offers[j].Verdict == model.VerdictBorderline && !strings.HasPrefix(r[col], "~") {
			r[col] = "~" + r[col]
			marked = true
		}
	}
	return marked
}

// markLateCost puts "~" (report.OfferRowIn's mark on the job time of an
// offer that may miss the deadline) before cell col, the job cost, of
// the rows whose offer is late, for a table without the job-time column:
// the mark stays in view, as markBorderline's. Row i is offers[shown[i]],
// or offers[i] when shown is nil. It reports whether it marked any.
func markLateCost(rows [][]string, shown []int, offers []model.Offer, col int) bool {
	marked := false
	for i, r := range rows {
		j := i
		if shown != nil {
			j = shown[i]
		}
		if offers[j].Late() && !strings.HasPrefix(r[col], "~") {
			r[col] = "~" + r[col]
			marked = true
		}
	}
	return marked
}

// offerColumns are the panel table's columns, widest set first; the
// first set that fits the width is used.
var offerColumns = [][]int{
	{0, 1, 2, 3, 4, 5, 6, 7, 8}, // provider instance region GPUs $/h $/month job-time job-cost headroom
	{0, 1, 2, 3, 4, 5, 7, 8},
	{0, 1, 2, 3, 4, 7, 8},
	{0, 1, 2, 3, 4, 7},
	{0, 1, 2, 4, 7},
	{0, 1, 4, 7},
}

// shrinkable columns may be cut (with "…") down to this many cells
// before a column is dropped: provider, instance, region and GPUs, the
// widest first, so a long provider name gives way before the GPUs are
// cut to a stub ("1×qu…p16" beside a whole "primeintellect").
var shrinkable = map[int]int{0: 6, 1: 10, 2: 9, 3: 8}

// roomyShrinkable are the widths the names keep while a figure another
// implies ($/month, the job's time, the headroom) can go instead, as in
// the offers table (tableShrinkRoomy): at 120×40 the panel showed
// "prim…ect  …__30__120  1×h1…sxm" beside a $/month column (#31).
var roomyShrinkable = map[int]int{0: 10, 1: 16, 2: 9, 3: 10}

// namesShrinkable are the widths the provider and instance type keep
// once the figures another implies are gone: below them a GPU key loses
// whole words first (report.CutGPUs).
var namesShrinkable = map[int]int{0: 8, 1: 12, 2: 9, 3: 9}

// tightRoomyShrinkable is the next step: the instance type, which names
// the offer, keeps 14 cells while the provider and region go down to 8
// and 9 (the GPUs to 11: "1×a100-80gb").
var tightRoomyShrinkable = map[int]int{0: 8, 1: 14, 2: 9, 3: 11}

// offersTable renders offers as a borderless table at most width cells
// wide: the instance, region and GPU columns are cut first (ending in
// "…"), then columns are dropped, never the other way round.
func offersTable(lang *i18n.Printer, offers []model.Offer, width int, st *report.Styles) string {
	out, _ := offersTableCost(lang, offers, width, st)
	return out
}

// offersTableCost is offersTable, and whether the table has no job-time
// column, so a late offer's "~" is on its job cost (markLateCost) and
// the note under it names the job cost (report.LateNoteShort).
func offersTableCost(lang *i18n.Printer, offers []model.Offer, width int, st *report.Styles) (_ string, lateOnCost bool) {
	rows := make([][]string, len(offers))
	for i := range offers {
		rows[i] = offerRow(lang, &offers[i])
	}
	const pad = 2 // PaddingRight below
	type attempt struct {
		cols    []int
		least   map[int]int
		cutKeys bool // the GPU keys may lose whole words (report.CutGPUs)
	}
	var attempts []attempt
	var narrowest []int // the narrowest set with the region and the GPUs
	for _, least := range []map[int]int{roomyShrinkable, tightRoomyShrinkable, namesShrinkable} {
		for _, cols := range offerColumns {
			if slices.Contains(cols, 2) && slices.Contains(cols, 3) { // the region (it tells two regions of a type apart) and the GPUs stay
				attempts = append(attempts, attempt{cols: cols, least: least})
				narrowest = cols
			}
		}
	}
	// The figures gone and the names at 8 and 12 cells: the GPU keys lose
	// whole words ("1 of 8×a100…") before the names are cut further (#31).
	attempts = append(attempts, attempt{cols: narrowest, least: namesShrinkable, cutKeys: true})
	for i, cols := range offerColumns {
		attempts = append(attempts, attempt{cols: cols, least: shrinkable})
		if i+1 < len(offerColumns) && !slices.Contains(offerColumns[i+1], 3) {
			// The narrowest set with the GPUs: their keys lose whole words
			// ("1×rtx-pro…") before the column goes.
			attempts = append(attempts, attempt{cols: cols, least: shrinkable, cutKeys: true})
		}
	}
	gpuCells, gpuOffers := make([]string, len(rows)), make([]*model.Offer, len(rows))
	for i, r := range rows {
		gpuCells[i], gpuOffers[i] = r[3], &offers[i]
	}
	nodes := nodesFloor(gpuCells, gpuOffers)
	// A GPU key is never cut mid-word (report.CutGPUs): its column keeps
	// the widest cell without its precision note's words, but in the
	// cutKeys sets and the last, where a key may lose whole words from its
	// end.
	whole, keyLeast := 0, 0
	for i, c := range gpuCells {
		mark := 0 // a borderline offer's "~" (markBorderline)
		if gpuOffers[i].Verdict == model.VerdictBorderline {
			mark = 1
		}
		whole = max(whole, report.GPUsWhole(c)+mark)
		keyLeast = max(keyLeast, report.GPUsLeast(c, gpuOffers[i].GPU.Key)+mark)
	}
	for n, at0 := range attempts {
		cols := at0.cols
		headers := pick(report.OfferHeadersIn(lang), cols)
		picked := make([][]string, len(rows))
		for i, r := range rows {
			picked[i] = pick(r, cols)
		}
		at := -1
		if !slices.Contains(cols, 8) { // no headroom column, so no "~" in it
			at = slices.Index(cols, 3) // the GPUs, else the instance
			if at < 0 {
				at = slices.Index(cols, 1)
			}
			markBorderline(picked, nil, offers, at)
		}
		if c := slices.Index(cols, 7); c >= 0 && !slices.Contains(cols, 6) { // no job time, so no "~" in it: on the job cost
			markLateCost(picked, nil, offers, c)
		}
		widths := make([]int, len(cols))
		total := 0
		for c := range cols {
			widths[c] = lipgloss.Width(headers[c])
			for _, r := range picked {
				widths[c] = max(widths[c], lipgloss.Width(r[c]))
			}
			total += widths[c] + pad
		}
		if g := slices.Index(cols, 3); g >= 0 && total > width {
			// The GPUs give up their precision note's words first
			// ("1×quadro-rtx-6000 ↺amp-fp16" → "1×quadro-rtx-6000 ↺"): the
			// mark stays, and the GPU name is not cut to a stub.
			total -= widths[g]
			widths[g] = lipgloss.Width(headers[g])
			for _, r := range picked {
				r[g] = report.GPUsNoNote(r[g])
				widths[g] = max(widths[g], lipgloss.Width(r[g]))
			}
			total += widths[g]
		}
		for over := total - width; over > 0; over = total - width {
			// Cut the widest shrinkable column by one cell at a time; a
			// GPU key that may be cut gives way after the other names.
			cutKeys := at0.cutKeys || n == len(attempts)-1
			pick := func(keys bool) int {
				widest := -1
				for c := range cols {
					if cols[c] == 3 && cutKeys && !keys {
						continue
					}
					least, ok := at0.least[cols[c]]
					least = max(least, lipgloss.Width(headers[c])) // headers are not cut
					if cols[c] == 3 {                              // the GPU's key stays whole (report.CutGPUs), a multi-node offer's count and nodes too
						if cutKeys {
							least = max(least, keyLeast)
						} else {
							least = max(least, nodes, whole)
						}
					}
					if ok && widths[c] > least && (widest < 0 || widths[c] > widths[widest]) {
						widest = c
					}
				}
				return widest
			}
			widest := pick(false)
			if widest < 0 && cutKeys {
				widest = pick(true)
			}
			if widest < 0 {
				break
			}
			widths[widest]--
			total--
		}
		if total > width && n < len(attempts)-1 {
			continue
		}
		if g := slices.Index(cols, 3); g >= 0 { // the GPU's key gives way, by whole words, before its count and nodes
			for i, r := range picked {
				r[g] = report.CutGPUs(r[g], offers[i].GPU.Key, widths[g])
			}
			// A key cut by whole words may leave cells over: the names
			// cut before it take them back, the instance type first.
			var order []int
			for _, c := range []int{1, 0, 2} {
				if k := slices.Index(cols, c); k >= 0 {
					order = append(order, k)
				}
			}
			giveBack(picked, widths, g, order, lipgloss.Width(headers[g]))
		}
		if rc := slices.Index(cols, 2); rc >= 0 {
			shortenRegions(lang, picked, rc, widths[rc])
		}
		cutTable(picked, widths, slices.Index(cols, 2)) // the region's name is cut, never its "+N"
		if at >= 0 {
			// A cut name lost its leading "~" to the "…": put it back in
			// the same width ("~…GB__10__60"), so the mark survives.
			for i, r := range picked {
				if offers[i].Verdict == model.VerdictBorderline && !strings.HasPrefix(r[at], "~") {
					if rs := []rune(r[at]); len(rs) >= 2 {
						r[at] = "~…" + string(rs[2:])
					}
				}
			}
		}
		t := table.New().Headers(headers...).Rows(picked...).Wrap(false).
			Border(lipgloss.HiddenBorder()).BorderTop(false).BorderBottom(false).BorderLeft(false).BorderRight(false).
			BorderColumn(false).BorderHeader(false).
			StyleFunc(func(row, col int) lipgloss.Style {
				s := lipgloss.NewStyle().PaddingRight(pad)
				if row == table.HeaderRow {
					return s.Inherit(st.Heading).Foreground(st.Muted.GetForeground())
				}
				if cols[col] >= 4 {
					return s.Align(lipgloss.Right)
				}
				return s
			})
		out := t.Render()
		if total > width { // even the narrowest set: cut the lines, with "…"
			lines := strings.Split(out, "\n")
			for i := range lines {
				lines[i] = report.Truncate(lines[i], width)
			}
			out = strings.Join(lines, "\n")
		}
		return out, !slices.Contains(cols, 6)
	}
	return "", false
}

// giveBack hands the cells column g's cells leave over (its widest cell,
// or head, the width of its header, narrower than widths[g]) to the
// columns in order (shown) whose widest cell is wider than their width, each as
// many as it lacks, first come first served; rows are cut to widths
// after. A GPUs column cut by cells and then its keys by whole words
// (report.CutGPUs) leaves such cells while a name beside it is cut.
func giveBack(rows [][]string, widths []int, g int, order []int, head int) {
	used := head
	for _, r := range rows {
		used = max(used, lipgloss.Width(r[g]))
	}
	for _, k := range order {
		if used >= widths[g] {
			return
		}
		if widths[k] == 0 { // a column dropped stays dropped
			continue
		}
		full := 0
		for _, r := range rows {
			full = max(full, lipgloss.Width(r[k]))
		}
		if more := min(full-widths[k], widths[g]-used); more > 0 {
			widths[k] += more
			widths[g] -= more
		}
	}
}

func pick(row []string, cols []int) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = row[c]
	}
	return out
}

// fitCount is "1 offer fits", "8 offers fit", and, when some of offers
// are borderline, "0 offers fit · ~ borderline (13 offers)": the
// ranking keeps borderline offers, and a count of them all read as
// offers that fit (walk: "13 offers fit", all thirteen at ~1% headroom,
// about 15% chance of running out of memory).
func fitCount(lang *i18n.Printer, offers []model.Offer) string {
	b := borderlineCount(offers)
	s := lang.Sprintf("%d offers fit", len(offers)-b)
	if len(offers)-b == 1 {
		s = lang.T("1 offer fits")
	}
	if b > 0 {
		s += " · " + lang.Sprintf("~ borderline (%s)", report.Count(lang, b, "offer"))
	}
	return s
}

// fitWords is the panel's count of offers: "8 fit", or with the
// borderline ones apart in recommend's words for them (its table note's
// "~ borderline (13 offers)"): "0 fit · ~ borderline (13 offers)".
func fitWords(lang *i18n.Printer, offers []model.Offer) string {
	b := borderlineCount(offers)
	if b == 0 {
		return lang.Sprintf("%d fit", len(offers))
	}
	return lang.Sprintf("%d fit", len(offers)-b) + " · " + lang.Sprintf("~ borderline (%s)", report.Count(lang, b, "offer"))
}

// borderlineCount is how many of offers are borderline: the top of their
// 90% memory band is past the usable VRAM (model.VerdictBorderline).
func borderlineCount(offers []model.Offer) int {
	n := 0
	for i := range offers {
		if offers[i].Verdict == model.VerdictBorderline {
			n++
		}
	}
	return n
}

// taskName is a task as the compact panel names it: the request value in
// English ("finetune"), words in Chinese (report's "task …" messages).
func taskName(lang *i18n.Printer, t model.Task) string {
	if !lang.Chinese() {
		return string(t)
	}
	return lang.T("task " + string(t))
}
