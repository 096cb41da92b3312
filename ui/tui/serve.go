package tui

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"charm.land/huh/v2"

	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/launch/probescript"
	"github.com/gpuplan/gpuplan/model/serve"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/report"
)

// serveAnswers are the serving questions of the inference path for an LLM
// (the [serve] table), as typed. The context length and the concurrent
// sequences are the "Batch and length" page's answers.
type serveAnswers struct {
	WeightFormat serve.WeightFormat // "": from the precision (a quantized config.json's format)
	KVCacheDType serve.KVCacheDType
	PromptTokens string // empty: the context minus the output
	OutputTokens string // empty: 256 (model.DefaultGenTokens)
	RopeScaling  string // yarn:FACTOR[:ORIGINAL] as --rope-scaling takes it; empty: none
	RPS          string // requests per second; empty: the concurrent sequences are the load
	TTFTMs       string // empty: no target
	TPOTMs       string // empty: serve.DefaultTPOTTargetMs; none: no target
	TP           int    // 0: auto

	// asked: the file gave max_model_len or concurrency, which the Batch
	// and length page's questions ask (askFileKeys): their answers are
	// written back there, as the file had them.
	asked struct{ MaxModelLen, Concurrency bool }

	extra serve.Serving // the file's [serve] keys not asked: pp, replicas, engine settings, an adapter, …
}

// servingLLM reports whether the answers plan serving (serve.ServesModel):
// inference of a generative model with a known shape.
func (a *answers) servingLLM(cat *model.Catalog) bool {
	if a.Task != model.TaskInference {
		return false
	}
	m, ok := a.arch(cat)
	return ok && serve.ServesModel(&m)
}

// fromServing fills the answers from a file's [serve] table.
func (s *serveAnswers) fromServing(v serve.Serving) {
	s.WeightFormat, s.KVCacheDType, s.TP = v.WeightFormat, v.KVCacheDType, v.TP
	s.PromptTokens, s.OutputTokens = fmtInt(v.PromptTokens), fmtInt(v.OutputTokens)
	s.RopeScaling = v.RopeScaling.String()
	s.RPS, s.TTFTMs, s.TPOTMs = fmtFloatOrEmpty(v.RequestsPerSec), fmtFloatOrEmpty(v.TTFTTargetMs), fmtFloatOrEmpty(v.TPOTTargetMs)
	if v.NoTPOTTarget && v.TPOTTargetMs == 0 {
		s.TPOTMs = "none" // the file's tpot_ms = 0: empty would be the default
	}
	// Every key the questions do not ask is kept as the file has it
	// (pp, replicas, engine settings, an adapter served): the whole table
	// less the answers, so a key added to serve.Serving is not dropped on
	// a save (rope_scaling was, and the plan was refused above the model's
	// positions). max_model_len and concurrency stay here until
	// answers.fromConfig makes them the answers of the questions that ask
	// them (askFileKeys).
	x := v
	x.WeightFormat, x.KVCacheDType, x.TP = "", "", 0
	x.PromptTokens, x.OutputTokens, x.RopeScaling = 0, 0, serve.RopeScaling{}
	x.RequestsPerSec, x.TTFTTargetMs, x.TPOTTargetMs, x.NoTPOTTarget = 0, 0, 0, false
	// What Workload.Serving and the search derive again, not asked for.
	x.DefaultTPOT, x.PerToken, x.AsReleased, x.AllowPrecisionFallback, x.DTypeAuto = false, false, false, false, false
	x.AllowMultiNode, x.BudgetMonthUSD, x.HoursPerMonth = false, 0, 0
	if v.LoRA != nil {
		l := *v.LoRA
		x.LoRA = &l
	}
	s.extra = x
}

// askFileKeys makes a serving file's keys that the Batch and length
// page asks the answers of its questions, which a save writes back to
// the same keys (answers.config): the context length ([serve]
// max_model_len, else [workload] context_len, as config.WorkloadAnswers
// .Serving reads them before seq_len) and the concurrent sequences
// ([serve] concurrency, else [workload] sequences, before batch_size).
// Kept aside, the file's key won over the question: the question showed
// the model's default while the plan served the file's value, and an edit
// changed nothing (a helper's walk: max_model_len 8192 in the file, 2048
// typed, still planned at 8192). An image model's length is its image
// size: its keys stay aside.
func (a *answers) askFileKeys(cat *model.Catalog, w *config.WorkloadAnswers) {
	if a.Task != model.TaskInference {
		return
	}
	s, x := &a.Serve, &a.extra
	if n := cmp.Or(s.extra.MaxModelLen, x.ContextLen); n > 0 && !a.vision(cat) {
		x.asked.SeqLen = w.SeqLen
		a.Length, a.fill.fileLength = fmtInt(n), true // the file's, kept as if typed
		s.asked.MaxModelLen, x.asked.ContextLen = s.extra.MaxModelLen > 0, x.ContextLen > 0
		s.extra.MaxModelLen, x.ContextLen = 0, 0
	}
	if n := cmp.Or(s.extra.Concurrency, x.Sequences); n > 0 {
		x.asked.MicroBatch = w.MicroBatch
		a.Batch, a.fill.fileBatch = fmtInt(n), true
		s.asked.Concurrency, x.asked.Sequences = s.extra.Concurrency > 0, x.Sequences > 0
		s.extra.Concurrency, x.Sequences = 0, 0
	}
}

// toFileKeys writes the answers askFileKeys took from a file's keys back
// to them: the context length to max_model_len and context_len, the
// concurrent sequences to concurrency and sequences, as the file had
// them, and seq_len and batch_size as the file had them, so the file
// saved asks what the file opened did (TestOneRequestThreeWays).
func (a *answers) toFileKeys(w *config.WorkloadAnswers) {
	s, x := &a.Serve, &a.extra
	if (s.asked.MaxModelLen || x.asked.ContextLen) && !a.fill.vision {
		if s.asked.MaxModelLen {
			w.Serve.MaxModelLen = w.SeqLen
		}
		if x.asked.ContextLen {
			w.ContextLen = w.SeqLen
		}
		w.SeqLen = x.asked.SeqLen
	}
	if s.asked.Concurrency || x.asked.Sequences {
		if s.asked.Concurrency && w.Serve.RequestsPerSec == 0 {
			w.Serve.Concurrency = w.MicroBatch
		}
		if x.asked.Sequences {
			w.Sequences = w.MicroBatch
		}
		w.MicroBatch = x.asked.MicroBatch
	}
}

// serving returns the [serve] request: the answers over the file's keys.
func (s *serveAnswers) serving() (serve.Serving, error) {
	v := s.extra
	v.WeightFormat, v.KVCacheDType, v.TP = s.WeightFormat, s.KVCacheDType, s.TP
	if v.KVCacheDType == serve.KVAuto {
		v.KVCacheDType = "" // the default: not written
	}
	tokens := func(label, in string) (int, error) {
		if strings.TrimSpace(in) == "" {
			return 0, nil
		}
		n, err := config.ParseTokens(in)
		if err != nil || n < 1 || n > 1<<24 {
			return 0, model.Msg("%s: want a whole number of tokens such as 512 or 2k, got %q", model.Msg(label), clipped(in))
		}
		return n, nil
	}
	var err error
	if v.PromptTokens, err = tokens("prompt tokens", s.PromptTokens); err != nil {
		return v, err
	}
	if v.OutputTokens, err = tokens("output tokens", s.OutputTokens); err != nil {
		return v, err
	}
	if v.RopeScaling, err = serve.ParseRopeScaling(s.RopeScaling); err != nil {
		return v, err
	}
	if v.RequestsPerSec, err = parsePositive("requests per second", s.RPS, 1e6); err != nil {
		return v, err
	}
	if v.RequestsPerSec > 0 {
		v.Concurrency = 0
	}
	if v.TTFTTargetMs, err = parsePositive("time to first token", s.TTFTMs, 3.6e6); err != nil {
		return v, err
	}
	if v.TPOTTargetMs, v.NoTPOTTarget, err = parseTPOT(s.TPOTMs); err != nil {
		return v, err
	}
	return v, nil
}

// parseTPOT reads the TPOT answer: empty, the default
// (serve.DefaultTPOTTargetMs, applied by the model); none, no target
// (--tpot-ms none); or milliseconds.
func parseTPOT(in string) (ms float64, none bool, err error) {
	if strings.EqualFold(strings.TrimSpace(in), "none") {
		return 0, true, nil
	}
	ms, err = parsePositive("time per output token", in, 3.6e6)
	return ms, false, err
}

// servePage asks the serving questions; hidden unless serving an LLM.
func (w *wizard) servePage(input func(title, desc string, v *string, validate func(string) error) *huh.Input) page {
	a, cat := w.a, w.cat
	T := w.lang.T
	tokens := func(label string) func(string) error {
		return func(in string) error {
			if strings.TrimSpace(in) == "" {
				return nil
			}
			if n, err := config.ParseTokens(in); err != nil || n < 1 || n > 1<<24 {
				return model.Msg("%s: want a whole number of tokens such as 512 or 2k, got %q", model.Msg(label), clipped(in))
			}
			return nil
		}
	}
	s := &a.Serve
	return page{title: "Serving", hide: func() bool { return !a.servingLLM(cat) }, check: func() error { return servingError(a, cat) }, fields: func(bool) []huh.Field {
		return []huh.Field{
			newSelect[serve.WeightFormat](w.theme).Title(T("Weight format")).Description(T("as vLLM loads the checkpoint")).Options(
				huh.NewOption(T("as released (gpt-oss: MXFP4, DeepSeek-V3/R1: fp8) or the precision (a quantized config.json: its format)"), serve.WeightFormat("")),
				huh.NewOption("bf16", serve.WeightBF16), huh.NewOption("fp16", serve.WeightFP16),
				huh.NewOption(T("fp8    8-bit float weights"), serve.WeightFP8), huh.NewOption(T("int8   W8A16"), serve.WeightInt8),
				huh.NewOption(T("AWQ    4-bit, group 128"), serve.WeightAWQ), huh.NewOption(T("GPTQ   4-bit, group 128"), serve.WeightGPTQ),
				huh.NewOption(T("bitsandbytes 4-bit NF4"), serve.WeightBNB),
				huh.NewOption(T("MXFP4  experts 4-bit, rest bf16 (gpt-oss)"), serve.WeightMXFP4)).
				Value(&s.WeightFormat),
			newSelect[serve.KVCacheDType](w.theme).Title(T("KV cache")).Inline(true).Options(
				huh.NewOption("auto", serve.KVAuto), huh.NewOption("fp8", serve.KVFP8), huh.NewOption("fp8_e5m2", serve.KVFP8E5M2)).Value(&s.KVCacheDType),
			input(T("Prompt tokens"), T("average per request; empty: the context minus the output"), &s.PromptTokens, tokens("prompt tokens")),
			input(T("Output tokens"), T("generated per request; empty: 256"), &s.OutputTokens, tokens("output tokens")),
			input(T("YaRN scaling"), T("past the model's positions: yarn:FACTOR or yarn:FACTOR:ORIGINAL, such as yarn:2; empty: none"),
				&s.RopeScaling, func(in string) error { _, err := serve.ParseRopeScaling(in); return err }),
			input(T("Requests per second"), T("empty: the concurrent sequences are the load"), &s.RPS, positiveValidator("requests per second", 1e6)),
			input(T("Time to first token (ms)"), T("target; empty: none"), &s.TTFTMs, positiveValidator("time to first token", 3.6e6)),
			input(T("Time per output token (ms)"), w.lang.Sprintf("target; empty: %g, faster than people read; none: no target", serve.DefaultTPOTTargetMs),
				&s.TPOTMs, func(in string) error { _, _, err := parseTPOT(in); return err }),
			newSelect[int](w.theme).Title(T("Tensor parallel")).Inline(true).Options(
				huh.NewOption("auto", 0), huh.NewOption("1", 1), huh.NewOption("2", 2), huh.NewOption("4", 4), huh.NewOption("8", 8)).Value(&s.TP),
		}
	}}
}

// servingError is what serve.Serving.Validate says of the serving answers
// taken together (prompt plus output tokens over the context, say), so the
// Serving page is not left with an answer every plan refuses: each field's
// own check passes such a pair (walk 49e: 5000 + 500 over a context of
// 2048 went on to offers left from an earlier answer). nil when the
// answers do not serve an LLM, or are not read yet (a field's own check,
// or a config.json still to read, says it).
func servingError(a *answers, cat *model.Catalog) error {
	if !a.servingLLM(cat) {
		return nil
	}
	cfg, err := a.config()
	if err != nil {
		return nil
	}
	w, _, err := cfg.Workload.Resolve(cat, config.Readers{})
	if err != nil {
		return nil
	}
	w.Defaults()
	s := cfg.Workload.Serving(&w)
	cfg.Search.ServeSearch(&s)
	return fieldWords(s.Validate(&w.Model))
}

// fieldWords is err in the configurator's words where the command line's
// name a flag: a context length above the model's positions
// (serve.PositionsError) names the Serving page's YaRN scaling field
// rather than --rope-scaling. Other errors are returned as they are.
func fieldWords(err error) error {
	var pe *serve.PositionsError
	if !errors.As(err, &pe) {
		return err
	}
	switch {
	case pe.Rope.IsZero() && pe.Factor > 0:
		return model.Msg("context length %d is above the model's %d positions; vLLM serves a RoPE model past them with YaRN: give YaRN scaling yarn:%d on the Serving page (%d × %d = %d positions)",
			pe.MaxModelLen, pe.Positions, pe.Factor, pe.Original, pe.Factor, pe.Original*pe.Factor)
	case pe.Factor > 0:
		return model.Msg("context length %d is above the %d positions of YaRN scaling %s (%d × %g); give yarn:%d on the Serving page (%d × %d = %d positions)",
			pe.MaxModelLen, pe.Positions, pe.Rope, pe.RopeOriginal, pe.Rope.Factor, pe.Factor, pe.Original, pe.Factor, pe.Original*pe.Factor)
	case !pe.Rope.IsZero():
		return model.Msg("context length %d is above the %d positions of YaRN scaling %s, and no YaRN factor up to %d reaches it", pe.MaxModelLen, pe.Positions, pe.Rope, serve.MaxRopeFactor)
	}
	return model.Msg("context length %d is above the model's %d positions", pe.MaxModelLen, pe.Positions)
}

// computeServe plans serving for r's workload on the catalog's offers
// (serve.RankServing) when the answers serve an LLM; r.serve stays nil
// otherwise.
func computeServe(r *result, cat *model.Catalog, cfg *config.Config) {
	w := &r.workload
	if w.Task != model.TaskInference || !serve.ServesModel(&w.Model) {
		return
	}
	r.floated = nil // a GPU count floated is the training matcher's; serving plans its own
	d := *w
	d.Defaults()
	s := cfg.Workload.Serving(&d)
	cfg.Search.ServeSearch(&s)
	candidates := serve.Offers(cat, cfg.Search.Query(true))
	if s.Nodes > 0 && d.GPUs > 0 {
		// A market pick's host (answers.config): its GPU count on one node.
		candidates = slices.DeleteFunc(candidates, func(o serve.Offer) bool { return o.GPUsPerNode != d.GPUs })
	}
	plans, err := serve.RankServing(&d.Model, s, candidates)
	if err == nil {
		err = s.Validate(&d.Model) // RankServing validates on an offer: none left, none checked
	}
	if err != nil {
		err = fieldWords(err)
		// The offers ranked above are the training matcher's, not plans
		// of this request: none is shown, opened, added or exported.
		r.err, r.rec.Offers, r.hints, r.advice, r.tips = err, nil, nil, nil, nil
		return
	}
	r.serving, r.serve = &s, plans
	if r.serve == nil {
		r.serve = []serve.Plan{}
	}
	// The offers screen, the detail and the export list the plans that
	// meet the targets, in the serving order, as offers.
	hours := cmp.Or(cfg.Search.HoursPerMonth, model.HoursPerMonth)
	var offers []model.Offer
	for i := range plans {
		p := &plans[i]
		if !p.Meets || p.Offer.Instance == nil {
			continue
		}
		var fallback model.Precision // the weight format vLLM loads instead of the one asked for
		if p.FallbackFrom != "" {
			fallback = model.Precision(p.Serving.WeightFormat)
		}
		offers = append(offers, model.Offer{Instance: p.Offer.Instance, GPU: p.Offer.GPU, Region: p.Offer.Region, Fallback: fallback,
			Pricing: p.Offer.Pricing, Instances: p.Nodes, GPUs: p.GPUs, USDPerHour: p.USDPerHour, MonthlyUSD: model.MonthlyUSD(p.Offer.Pricing, p.USDPerHour, hours),
			NeedBytes: p.Memory.BudgetBytes, UsableBytes: p.Memory.TotalBytes,
			HeadroomPct: 100 * (1 - p.Memory.BudgetBytes/p.Memory.TotalBytes), Estimate: r.est, Asked: w.Precision,
			// The "job" is a million output tokens: its time and cost (serveHeaders).
			HasJob: true, JobHours: 1e6 / p.OutputTokensPerSec / 3600, JobUSD: p.USDPerMOutput})
	}
	r.rec.Offers, r.recErr = offers, nil
}

// servePlanFor returns the serving plan behind offer o, or nil.
func servePlanFor(r *result, o *model.Offer) *serve.Plan {
	if r == nil {
		return nil
	}
	for i := range r.serve {
		if p := &r.serve[i]; p.Offer.Instance == o.Instance && p.Offer.Region == o.Region {
			return p
		}
	}
	return nil
}

// serveLines is the panel for a serving plan: the best offer's memory as
// vLLM lays it out (KV capacity, concurrent sequences), its speed
// (TTFT, TPOT, tokens/s) and cost per million tokens, then the cheapest
// offers meeting the targets.
func (p panel) serveLines(r *result, iw, ih int, compact bool) []string {
	st, lang, T := p.st, p.lang, p.lang.T
	var lines []string
	add := func(s ...string) { lines = append(lines, s...) }
	head := st.Title.Render(modelTitle(lang, r)) + st.Muted.Render(" · "+T("serving"))
	meets := 0
	for i := range r.serve {
		if r.serve[i].Meets {
			meets++
		}
	}
	if len(r.serve) == 0 {
		add(head, st.Bad.Render(T("no offer to serve from with these providers, regions and prices")))
		return lines
	}
	best := &r.serve[0]
	// The offer kept (a reopened file's, an opened phase's pin) when it is
	// not the best is the one described, as the training panel describes
	// it (estimateLines): ctrl+e exports it. The header named the weights
	// of the top-ranked row (fp16 on a V100) for a phase whose A10G serves
	// bf16, and a short panel never named the phase's offer (walk37).
	var picked *serve.Plan
	if p.chosen != nil {
		if c := servePlanFor(r, p.chosen); c != nil && c != best {
			picked = c
		}
	}
	top := cmp.Or(picked, best) // the plan the lines below describe
	bs := &top.Serving
	add(head)
	load := lang.Sprintf("%d concurrent", bs.Concurrency)
	if bs.RequestsPerSec > 0 {
		load = lang.Sprintf("%.3g requests/s", bs.RequestsPerSec)
	}
	add(st.Muted.Render(lang.Sprintf("%s weights · KV %s · %d + %d tokens of %d · %s", report.WeightFormatLabel(lang, bs), bs.KVCacheDType,
		bs.PromptTokens, bs.OutputTokens, bs.MaxModelLen, load)))
	if rope := report.RopeNoteIn(lang, &r.workload.Model, bs); rope != "" { // as recommend's header says it
		add(st.Muted.Render(rope))
	}
	if !compact {
		add("")
	}
	where := lang.Sprintf("%s, TP %d × PP %d, %s", report.ServeOfferName(lang, &top.Offer), top.TP, top.PP, report.Count(lang, top.Replicas, "replica"))
	reasons := report.ServeReasons(lang, top)
	switch {
	case picked != nil:
		if !compact {
			add(st.Heading.Render(T("Picked offer")) + st.Muted.Render(" · "+p.chosenWhose()))
		}
		add(st.Good.Render(T("picked")+" ") + printable(where))
	case best.Meets:
		add(st.Good.Render(T("best")+" ") + where)
	case best.Fits:
		add(st.Warn.Render(T("! no offer meets the targets; closest")+" ") + where)
	default:
		label := T("✗ no offer holds the model:")
		add(st.Bad.Render(label+report.LabelGap(label)) + strings.Join(reasons, lang.T("; ")))
		return lines
	}
	if fb := top.Fallback; !fb.IsZero() { // as report.WriteServeEstimate words it
		line := st.Warn.Render("↺ " + lang.Message(fb))
		if compact { // one line: the weights line above names the format served
			add(line)
		} else { // wrapped: what is served comes last
			add(wrapLines(line, iw)...)
		}
	}
	m := &top.Memory
	add(st.Heading.Render(T("KV cache")+" ") + st.Value.Render(lang.Sprintf("%s tokens", model.FormatCount(float64(m.KVTokens)))) +
		st.Muted.Render(" · "+report.ServeConcurrencyIn(lang, m, bs.MaxModelLen)))
	if !compact { // a small screen keeps the cost line before the layout
		add(st.Muted.Render(lang.Sprintf("per GPU: weights %s + activations %s + KV %s of %s", report.GiB(m.Weights),
			report.GiB(m.Activation), report.GiB(m.KVCache), report.GiB(m.BudgetBytes))))
	}
	pf := &top.Perf
	add(st.Heading.Render(T("Speed")+" ")+lang.Sprintf("%.0f output tokens/s · TTFT %.0f ms · TPOT %.1f ms", top.OutputTokensPerSec, pf.TTFTSec*1e3, pf.TPOTSec*1e3),
		st.Heading.Render(T("Cost")+" ")+lang.Sprintf("%s per million output tokens", st.Value.Render(report.USD(top.USDPerMOutput)))+
			st.Muted.Render(" · "+lang.Sprintf("%s input", report.USD(top.USDPerMInput))+" · "+lang.Sprintf("%s/h", report.USDHour(top.USDPerHour))))
	for _, reason := range reasons {
		add(st.Warn.Render("! ") + reason)
	}
	if bl := top.Borderline; !bl.IsZero() { // as recommend's "borderline:" under its best line
		add(st.Warn.Render("~ ") + lang.Message(bl))
	}
	if c := report.ClearedNoteShort(lang, top); c != "" { // as recommend's "↑" under its best line: more replicas than the fewest
		add(wrapLines(st.Muted.Render(c), iw)...)
	}
	if ne := report.NotExportedIn(lang, top); ne != "" { // as recommend's "not exported:" under its best line
		add(wrapLines(st.Warn.Render(report.RayMark+" "+ne), iw)...)
	}
	// A price months behind the catalog, as recommend's "!" under its best
	// line and the training panel's under its offers: wrapped, not cut
	// before "check it before renting".
	if o := &top.Offer; o.Instance != nil {
		if l := report.OldPriceLineShort(lang, o.Priced(), o.CatalogAsOf); l != "" {
			for i, s := range panelNoteLines([]string{l}, iw-2) {
				mark := "  "
				if i == 0 {
					mark = "! "
				}
				add(st.Warn.Render(mark + s))
			}
		}
	}
	if picked != nil && !compact {
		// The best, which the figures above are not: the first row below.
		add("", st.Good.Render(T("best")+" ")+report.Truncate(report.USD(best.USDPerMOutput)+"/Mtok · "+printable(lang.Sprintf("%s, TP %d × PP %d, %s", report.ServeOfferName(lang, &best.Offer), best.TP, best.PP,
			report.Count(lang, best.Replicas, "replica"))), iw-ansi.StringWidth(T("best"))-1)) // the price first: a long name is cut, not it
	}
	add("")
	order := T("by $ per hour that carries the load") // serve.RankServing's order for the question
	if bs.PerToken {
		order = T("by $ per million output tokens")
	}
	add(st.Heading.Render(lang.Sprintf("Offers: %d of %d meet the targets", meets, len(r.serve))) + st.Muted.Render(" · "+order))
	// A replica across instances (serve.Plan.NoExport) is marked as
	// recommend marks it (report.ServeRowIn: the node count, "§" on the
	// split), its note under the rows.
	ray := slices.ContainsFunc(r.serve, func(p serve.Plan) bool { return p.Meets && !p.NoExport.IsZero() })
	// More replicas than the fewest that carry the load (serve.Plan.Cleared)
	// are marked "↑" on the split, as recommend's table marks them.
	cleared := slices.ContainsFunc(r.serve, func(p serve.Plan) bool { return p.Meets && !p.Cleared.IsZero() })
	var note, clearedNote []string
	if ray {
		note = wrapLines(st.Warn.Render(report.RayNoteShort(lang)), iw)
	}
	if cleared {
		clearedNote = wrapLines(st.Muted.Render(report.ClearedLegendShort(lang)), iw)
	}
	// Borderline rows: "~" on the TPOT when its range is the cause, "~KV"
	// on the split when the KV cache's is (the panel has no KV column), as
	// recommend marks the column of the cause (report.ServeRowIn); a
	// legend line for each kind shown.
	kinds := map[serve.BorderlineKind][]string{}
	for _, k := range []serve.BorderlineKind{serve.BorderlineTPOT, serve.BorderlineKV} {
		if slices.ContainsFunc(r.serve, func(p serve.Plan) bool { return p.Meets && !p.Borderline.IsZero() && p.BorderlineOn == k }) {
			kinds[k] = wrapLines(st.Warn.Render(report.BorderlineKindShort(lang, k)), iw)
		}
	}
	room := ih - len(lines) - 1 - len(note) - len(clearedNote) - len(kinds[serve.BorderlineTPOT]) - len(kinds[serve.BorderlineKV])
	var rows [][]string
	var marks []string // the split's marks of each row: "§", "↑"
	var keys []string  // the GPU key of each row (plainRows)
	shownRay, shownCleared := false, false
	shownKind := map[serve.BorderlineKind]bool{}
	for i := range r.serve {
		if len(rows) >= room || !r.serve[i].Meets {
			break
		}
		p := &r.serve[i]
		row := report.ServeRowIn(lang, p)
		typ := row[1]
		if in := p.Offer.Instance; in != nil {
			typ = printable(in.Type) // whole: plainRows cuts it to its column (ServeRow cuts at 26 cells, at the end)
		}
		var mark []string
		if !p.NoExport.IsZero() {
			mark = append(mark, report.RayMark)
			shownRay = true
		}
		if !p.Cleared.IsZero() { // ServeRowIn marks the split; the marks alone are kept for a narrow table
			mark = append(mark, report.ClearedMark)
			shownCleared = true
		}
		if !p.Borderline.IsZero() {
			shownKind[p.BorderlineOn] = true
			if p.BorderlineOn == serve.BorderlineKV {
				mark = append(mark, report.KVBorderlineMark)
				row[4] += " " + report.KVBorderlineMark
			}
		}
		// The price the offers are ranked by: $ per hour that carries the
		// load, or per million output tokens with no load given (a new
		// user's walk: "by $ per hour" above a $/Mtok column that read
		// unsorted).
		price := row[10]
		if !bs.PerToken {
			price = row[9]
		}
		rows = append(rows, []string{row[0], typ, row[3], row[4], row[7], price})
		marks = append(marks, strings.Join(mark, " "))
		key := ""
		if p.Offer.Instance != nil {
			key = p.Offer.Instance.GPU
		}
		keys = append(keys, key)
	}
	if len(rows) > 0 {
		headers := []string{T("provider"), T("instance"), T("GPUs"), T("split"), "TPOT ms", T("$/Mtok")}
		if !bs.PerToken {
			headers[5] = "$/h"
		}
		whole := make([][]string, len(rows)) // plainRows cuts the cells in place
		for i := range rows {
			whole[i] = slices.Clone(rows[i])
		}
		table := plainRows(headers, rows, iw, 3, 3, keys) // the split goes first when the names need room
		if head, _, _ := strings.Cut(table, "\n"); (shownRay || shownCleared || shownKind[serve.BorderlineKV]) && !strings.Contains(head, T("split")) {
			// Its "§" and "↑" stay, alone in the column (the GPUs keep their node count).
			for i := range whole {
				whole[i][3] = marks[i]
			}
			headers[3] = ""
			table = plainRows(headers, whole, iw, 3, -1, keys)
		}
		add(strings.Split(table, "\n")...)
	}
	if shownRay {
		add(note...)
	}
	if shownCleared {
		add(clearedNote...)
	}
	for _, k := range []serve.BorderlineKind{serve.BorderlineTPOT, serve.BorderlineKV} {
		if shownKind[k] {
			add(kinds[k]...)
		}
	}
	return lines
}

// plainRows lays rows out in columns within width cells: the first
// names columns are names (left-aligned, cut with cutTable), the others
// figures (right-aligned, never cut). To fit, the widest name column
// gives a cell at a time down to nameFloor cells, so the names share the
// cut and none is cut to an unreadable stub while another stays whole
// (issue 31: "gpu_…200" beside a whole "1×quadro-rtx-6000 ↺fp16"); then
// the column drop (-1: none) goes; then the names give way down to
// nameLeast cells. The figures the rows are compared by (TPOT, $/Mtok)
// stay in view. keys[i], when not "", is the GPU key of row i's GPUs
// cell (column 2): a key is never cut mid-word (report.CutGPUs); the
// column keeps its cells whole (without a precision note's words) until
// the names are at nameFloor, then a key loses whole words from its end,
// its count and nodes staying.
func plainRows(headers []string, rows [][]string, width, names, drop int, keys []string) string {
	// The column drop goes before a name is cut below nameRoomy: at
	// 120×40 the serving panel kept TP×PP×replicas and read
	// "primei…llect  datacr…0__45" (#31).
	const nameRoomy, nameFloor, nameLeast = 16, 12, 6
	widths := make([]int, len(headers))
	for c, h := range headers {
		widths[c] = ansi.StringWidth(h)
		for _, r := range rows {
			widths[c] = max(widths[c], ansi.StringWidth(r[c]))
		}
	}
	natural := slices.Clone(widths)
	total := func() int {
		t := -2 // no gap after the last column
		for _, w := range widths {
			if w > 0 {
				t += w + 2
			}
		}
		return t
	}
	// shrink takes a cell from the widest name column above floor, until
	// the table fits.
	wholeFloor, keyLeast := 0, 0 // the GPUs' widest cell with its key whole, and with it cut to whole words
	for i, k := range keys {
		if k != "" && names > 2 {
			wholeFloor = max(wholeFloor, report.GPUsWhole(rows[i][2]))
			keyLeast = max(keyLeast, report.GPUsLeast(rows[i][2], k))
		}
	}
	gpuFloor := wholeFloor
	shrink := func(floor int) {
		for total() > width {
			widest := -1
			for c := range names {
				f := floor
				if c == 2 {
					f = max(min(f, wholeFloor), gpuFloor)
					if floor == math.MaxInt { // the GPUs alone, down to gpuFloor
						f = gpuFloor
					}
				}
				if widths[c] > f && (widest < 0 || widths[c] > widths[widest]) {
					widest = c
				}
			}
			if widest < 0 {
				return
			}
			widths[widest]--
		}
	}
	shrink(nameRoomy)
	if total() > width && drop >= 0 {
		// The GPU keys lose whole words if that alone keeps the split
		// (at 80 columns it did, cutting a key mid-word: "7×a10…gb");
		// else the split goes and the keys stay whole.
		kept := slices.Clone(widths)
		gpuFloor = keyLeast
		shrink(math.MaxInt)
		if total() > width {
			widths, gpuFloor = kept, wholeFloor
			widths[drop] = 0
		}
	}
	shrink(nameFloor)
	gpuFloor = keyLeast
	shrink(nameFloor)
	shrink(nameLeast)
	if names > 2 && widths[2] > 0 {
		used := ansi.StringWidth(headers[2])
		for i, r := range rows {
			if i < len(keys) && keys[i] != "" {
				r[2] = report.CutGPUs(r[2], keys[i], widths[2])
			}
			used = max(used, ansi.StringWidth(r[2]))
		}
		// A key cut by whole words may leave cells over: the names cut
		// before it take them back, the instance type first.
		for _, c := range []int{1, 0} {
			more := min(natural[c]-widths[c], widths[2]-used)
			if more > 0 {
				widths[c] += more
				widths[2] -= more
			}
		}
	}
	cutWidths := slices.Clone(widths)
	for c := names; c < len(cutWidths); c++ {
		cutWidths[c] = math.MaxInt // the figures are never cut
	}
	cutTable(rows, cutWidths, -1)
	line := func(r []string) string {
		var b strings.Builder
		for c, v := range r {
			switch {
			case widths[c] == 0: // dropped
			case c >= names:
				b.WriteString(strings.Repeat(" ", max(widths[c]-ansi.StringWidth(v), 0)) + v + "  ")
			default:
				b.WriteString(v + strings.Repeat(" ", max(widths[c]-ansi.StringWidth(v), 0)) + "  ")
			}
		}
		return report.Truncate(strings.TrimRight(b.String(), " "), width)
	}
	hs := slices.Clone(headers)
	for c := range names {
		hs[c] = report.Truncate(hs[c], widths[c])
	}
	out := []string{line(hs)}
	for _, r := range rows {
		out = append(out, line(r))
	}
	return strings.Join(out, "\n")
}

// servePayload is the launch file for serving on the dialog's offer: its
// instance type planned with serve.PlanServing and written by
// model/launch Serve (vllm serve script, docker run of the vLLM image,
// SkyServe YAML, Kubernetes Deployment and Service). The TOML is the
// configuration alone, whose [serve] table reopens the request.
// joinReasons is a serving plan's reasons as one message, "; " between
// them, each in the reader's language when it has its message
// (serve.Plan.ReasonMsgs, in the order of Reasons).
func joinReasons(reasons []string, msgs []model.Message) model.Message {
	var out model.Message
	for i, r := range reasons {
		m := model.Msg("%s", r)
		if len(msgs) == len(reasons) {
			m = msgs[i]
		}
		if i == 0 {
			out = m
			continue
		}
		out = model.Msg("%s; %s", out, m)
	}
	return out
}

func (d *dialog) servePayload() ([]byte, error) {
	if d.format == launch.FormatTOML {
		return config.Encode(&d.cfg)
	}
	o := d.offer
	a := &o.Estimate.Workload.Model
	so := serve.OfferFor(o.Instance, o.GPU, o.USDPerHour/float64(max(o.Instances, 1)),
		fmt.Sprintf("%s %s %s %s", o.Instance.Provider, o.Instance.Type, o.Region, o.Pricing))
	so.Region, so.Pricing, so.Discount = o.Region, o.Pricing, o.Discount
	p, err := serve.PlanServing(a, *d.serving, so)
	if err != nil {
		return nil, err
	}
	if !p.Fits {
		return nil, model.Msg("%s cannot serve the model: %v", o.Instance.Type, joinReasons(p.Reasons, p.ReasonMsgs))
	}
	opt := launch.ServeOptions{NamedAs: d.cfg.Workload.Model, Region: o.Region, Pricing: o.Pricing, Notes: slices.Clone(d.notes)}
	// The loaded file's [export] options, as gpuplan export --config
	// gives them to its serving file (applyExportOptions): the name, the
	// model id, the image, and a region --region pinned, on its own offer
	// (walk54: the training formats took them, serving's did not).
	if e := d.cfg.Export; !e.IsZero() {
		opt.Name, opt.ModelID, opt.Image = e.Name, e.ModelID, e.Image
	}
	opt.RegionGiven, opt.Where = d.regionScope(o.Region)
	srv, err := launch.NewServe(a, &p, opt)
	if err != nil {
		return nil, err
	}
	return probescript.RenderServe(srv, d.format)
}

// headers are the offers table's column titles: for serving, the job
// columns are the time and cost of a million output tokens.
func (v *offersView) headers() []string {
	h := report.OfferHeadersIn(v.lang)
	if v.serving {
		h[6], h[7], h[8] = v.lang.T("1M tok time"), v.lang.T("$/Mtok out"), "TPOT ms"
	}
	return h
}
