package tui

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/report"
)

// page is one group of questions, shown one at a time; hide says when it
// does not apply (a custom shape only for "custom…").
type page struct {
	title string
	hide  func() bool
	// check, when set, must pass before the page is left forward: it
	// covers answers on other pages too, so a failure in the accessible
	// runner asks again from the page titled backTo (default: this one).
	check  func() error
	backTo string
	// fields builds the page's fields; static builds fixed options for
	// huh's accessible runner, which never evaluates OptionsFunc.
	fields func(static bool) []huh.Field
}

// wizard is the question form, bound to *answers: huh writes the bound
// values on every cursor move and keystroke, so the panel follows.
type wizard struct {
	form   *pagedForm
	theme  huh.Theme // given to each field as it is built
	pages  []page
	fields [][]huh.Field // per page, as built for form; nil until the page is built
	inputs []boundInput
	a      *answers
	cat    *model.Catalog
	width  int
	height int
	sized  bool
	// groups are the pages' groups as built (nil until); sizedAt[i] is the sizeGen
	// group i was last sized for. huh sizes a group by drawing every field
	// in it, so only the page on screen is sized (setSize), the others
	// when they come on screen.
	groups  []*huh.Group
	sizedAt []int
	sizeGen int
	pending tea.Cmd // from the groups setSize redrew, for app.Update to return

	// regions are the region options for the chosen providers, read by
	// the options function in a command goroutine; regionGen changes
	// with the providers so huh never serves a cached, stale list.
	regionsMu   sync.Mutex
	regionSnap  struct{ providers, regions []string }
	regionGen   int
	lastProvKey string
	// regionsChanged says the providers changed since the form last saw
	// regionGen: huh re-reads options when a field updates, so the form
	// needs one more message, else the list lags one change behind.
	regionsChanged bool

	// readHF reads a config.json (cached), for the path's validation; nil
	// when this build cannot read one.
	readHF func(path string, task model.Task) error
	// pricing are the Pricing selects built (a Price page each for jobs
	// and for serving an LLM), bound to one answer.
	pricing []*huh.Select[model.Pricing]
	// inferPrec is the Inference precision select, once built: the model
	// answer refills its value (a model released quantized starts at its
	// release's precision), and a select built before that would keep its
	// cursor on the old value, so Enter wrote bf16 (walk w16).
	inferPrec *huh.Select[model.Precision]
	// inferRelease is the release the Inference precision select's labels
	// were built for (releaseLabel): a model released quantized labels its
	// default by the released format, so it is rebuilt when that changes.
	inferRelease model.Precision
	// units are the "Counted in" selects built, whose options follow
	// whether the model takes images (unitVision, as last set).
	units      []*huh.Select[string]
	unitVision bool

	lang *i18n.Printer // the questions' language (nil: English); answers stay English

	keys *huh.KeyMap
	// heights are the lists' heights as built (modelListHeight, …): huh's
	// Group.WithHeight only ever shortens a field, so setSize gives them
	// back before it sizes their page again.
	heights map[huh.Field]int
	// checks validate a field's current answer as its own validator does
	// (huh runs those only on enter and blur), so that a move back can be
	// refused before huh blurs the field and strands the focus.
	checks map[huh.Field]func() error
}

// boundInput is a text input and its answer. When the answer changes
// from outside (a model's defaults), the input is set again; while the
// user types in it, it is left alone.
type boundInput struct {
	field *huh.Input
	value *string
	shown string
}

// newWizard builds the form over a; readHF checks a config.json path
// (nil: this build reads none, and the model list does not offer it).
// width 0 leaves the form unsized until setSize.
func newWizard(a *answers, cat *model.Catalog, readHF func(string, model.Task) error, theme huh.Theme, width, height int, lang *i18n.Printer) *wizard {
	hfEnabled := readHF != nil
	w := &wizard{a: a, cat: cat, width: width, height: height, checks: map[huh.Field]func() error{}, heights: map[huh.Field]int{}, readHF: readHF, theme: theme, lang: lang}
	w.syncRegions()
	w.pages = w.buildPages(hfEnabled)
	w.fields, w.groups, w.sizedAt = make([][]huh.Field, len(w.pages)), make([]*huh.Group, len(w.pages)), make([]int, len(w.pages))
	keys := huh.NewDefaultKeyMap()
	keys.Quit.SetEnabled(false)                   // ctrl+c is ours: it asks before quitting
	keys.Input.AcceptSuggestion.SetEnabled(false) // ctrl+e is ours: export
	keys.Text.Editor.SetEnabled(false)
	// huh toggles on space and x and says only x; docs/configurator.md
	// gives both (walk49: ? on the Where page left space out).
	keys.MultiSelect.Toggle.SetHelp("x/space", keys.MultiSelect.Toggle.Help().Desc)
	w.keys = keys
	w.form = newPagedForm(w)
	if width > 0 && height > 0 { // width 0: the first layout sizes the first page
		w.setSize(width, height)
	}
	return w
}

// newSelect is huh.NewSelect with theme set first: Options measures the
// options in the field's styles, and without a theme huh v2 builds its
// default one again for every option it measures.
func newSelect[T comparable](theme huh.Theme) *huh.Select[T] {
	s := huh.NewSelect[T]()
	s.WithTheme(theme)
	return s
}

// newMultiSelect is huh.NewMultiSelect with theme set first (newSelect).
// multiTitle is a list's title as a huh.MultiSelect gets it: with a
// space after it, since huh writes a search kept after enter right after
// the title (MultiSelect.titleView: "Providers/prime"); the space makes
// it "Providers /prime", and is blank otherwise.
func multiTitle(s string) string { return s + " " }

func newMultiSelect[T comparable](theme huh.Theme) *huh.MultiSelect[T] {
	s := huh.NewMultiSelect[T]()
	s.WithTheme(theme)
	return s
}

// setSize sizes the page on screen for the form's box. huh sizes a group
// by drawing each of its fields (huh.Group.WithWidth, WithHeight), so a
// page is sized when it is on screen and the size has changed since it
// last was, not every page on each resize; app.Update lays out after
// every message, before the frame is drawn. The pages' forms keep no
// width or height of their own: huh reads them only for a
// tea.WindowSizeMsg, which the forms never get.
func (w *wizard) setSize(width, height int) {
	if width != w.width || height != w.height || !w.sized {
		w.width, w.height, w.sized = width, height, true
		w.sizeGen++
	}
	i := w.focusedPage()
	if w.sizedAt[i] == w.sizeGen {
		return
	}
	again := w.sizedAt[i] > 0
	if again {
		// Sized before, maybe for a smaller box: each list gets the height
		// the group would give it as built (the group's rule: shortened
		// to the box, our groups having no title or footer), in one call,
		// as a list shortened twice or grown then shortened scrolls
		// otherwise than a list sized once. A field built without a
		// height (every option shown: Framework, Task) gets 0 back, huh's
		// "as tall as its options", or it stays as short as the smallest
		// box it was ever shrunk to (issue 31: Task lost "inference").
		for _, f := range w.fields[i] {
			f.WithHeight(min(w.heights[f], max(height, 3)))
		}
	}
	w.sizedAt[i] = w.sizeGen
	g := w.groups[i].WithWidth(max(width, 10)).WithHeight(max(height, 3))
	if again && w.form.shown[i] {
		// huh draws a group's fields into its viewport only in Update and
		// Init (show): without one a page on screen shows as drawn for
		// the old size until the next key.
		_, cmd := g.Update(refreshMsg{})
		w.pending = tea.Batch(w.pending, cmd)
	}
}

// takePending returns the commands setSize's redraws returned, once.
func (w *wizard) takePending() tea.Cmd {
	cmd := w.pending
	w.pending = nil
	return cmd
}

// sync runs after every form update: answers changed from outside are
// shown again in their inputs, and the region options follow the providers.
func (w *wizard) sync() {
	focused := w.form.GetFocusedField()
	for i := range w.inputs {
		b := &w.inputs[i]
		if huh.Field(b.field) == focused {
			b.shown = *b.value
			continue
		}
		if *b.value != b.shown {
			// Through empty, so that the cursor lands at the end of the
			// new text (SetValue keeps a cursor that is still in range).
			empty := ""
			b.field.Value(&empty)
			b.field.Value(b.value)
			b.shown = *b.value
		}
	}
	for _, s := range w.pricing { // the other Price page's, when the task changed
		if v, _ := s.Hovered(); huh.Field(s) != focused && v != w.a.Pricing {
			s.Value(&w.a.Pricing)
		}
	}
	if s := w.inferPrec; s != nil && w.releasedPrec() != w.inferRelease {
		w.inferRelease = w.releasedPrec()
		s.Options(w.precisionOptions(model.InferencePrecisions, w.inferRelease, true)...)
		s.Value(&w.a.InferPrecision)
	}
	if s := w.inferPrec; s != nil {
		// Focused too: huh moves the value with the cursor, so a value
		// that differs from the hovered option was refilled from outside.
		if v, _ := s.Hovered(); v != w.a.InferPrecision {
			s.Value(&w.a.InferPrecision)
		}
	}
	w.syncRegions()
	if v := w.a.fill.vision; v != w.unitVision {
		w.unitVision = v
		for _, u := range w.units {
			u.Options(w.unitOptions(v)...)
		}
	}
}

func (w *wizard) syncRegions() {
	key := strings.Join(w.a.Providers, ",")
	w.regionsMu.Lock()
	defer w.regionsMu.Unlock()
	if key != w.lastProvKey {
		w.regionGen++
		w.lastProvKey = key
		w.regionsChanged = true
	}
	w.regionSnap.providers = slices.Clone(w.a.Providers)
	w.regionSnap.regions = slices.Clone(w.a.Regions)
}

// regionOptions lists the chosen providers' regions (and any prefix
// patterns from a loaded file), each selected when it is an answer.
func (w *wizard) regionOptions() []huh.Option[string] {
	w.regionsMu.Lock()
	chosen, selected := w.regionSnap.providers, w.regionSnap.regions
	w.regionsMu.Unlock()
	names, by := regionsOf(w.cat, chosen)
	var opts []huh.Option[string]
	for _, r := range selected {
		if isRegionPattern(r) && model.ContinentWords(r) == nil {
			opts = append(opts, huh.NewOption(printable(r)+w.lang.T(" (prefix)"), r).Selected(true))
		}
	}
	// Continents first: every chosen provider's regions there, whatever
	// each calls them (model.Catalog.Geo).
	for _, c := range regionContinents(w.cat, names, by) {
		opts = append(opts, huh.NewOption(w.lang.T(continentLabels[c])+w.lang.T(" (all providers)"), c).Selected(slices.Contains(selected, c)))
	}
	for _, r := range names {
		label := report.RegionIn(w.lang, r) // "location not stated" for a placeholder, not "earth"
		if g, ok := w.cat.Geo(by[r][0], r); ok && g.Country != "" {
			label += model.RegionCountrySuffix(r, g.Country) + regionPlace(label, g)
		}
		if len(chosen) != 1 {
			label += "  " + strings.Join(by[r], ", ")
		}
		opts = append(opts, huh.NewOption(report.Truncate(printable(label), 60), r).Selected(slices.Contains(selected, r)))
	}
	return opts
}

// regionPlace is what a region's option adds after its name and country
// code: its city and country name ("  Frankfurt, Germany"), each left out
// when the label already says it. huh's "/" filter matches an option's
// label only, so the place is written there: /germany and /frankfurt
// find eu-central-1 (walk49g: they found nothing).
func regionPlace(label string, g model.RegionGeo) string {
	var parts []string
	low := strings.ToLower(label)
	for _, p := range []string{g.City, model.CountryName(g.Country)} {
		if p != "" && !strings.Contains(low, strings.ToLower(p)) {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "  " + strings.Join(parts, ", ")
}

// leftOutHere are the model.LeftOutReason lines that name a command-line
// flag (--hf-config, catalog models) as the configurator says them: its
// way to a config.json is the model list's last item (walk, 2026-12-06).
var leftOutHere = map[string]string{
	"model %q is left out on purpose: its config.json could not be found word for word, and the Qwen3 entries of the same size hold 40,960 positions where the 2507 releases hold 262,144; give its config.json with --hf-config (the Instruct-2507 releases are in the catalog: gpuplan catalog models 2507)": "model %q is left out on purpose: its config.json could not be found word for word, and the Qwen3 entries of the same size hold 40,960 positions where the 2507 releases hold 262,144; give its config.json with the list's last item, Hugging Face config.json… (the Instruct-2507 releases are in this list: search 2507)",
	"model %q is left out on purpose: it has phi-4's layers but 32,768 positions (its model card: 32k tokens) where the phi-4 entry holds 16,384, and its config.json could not be found word for word; give its config.json with --hf-config (the nearest key is phi-4)":                                      "model %q is left out on purpose: it has phi-4's layers but 32,768 positions (its model card: 32k tokens) where the phi-4 entry holds 16,384, and its config.json could not be found word for word; give its config.json with the list's last item, Hugging Face config.json… (the nearest is phi-4)",
}

// focusedPage returns the index of the page on screen.
func (w *wizard) focusedPage() int { return w.form.cur }

// position returns where page i is among the pages that apply, and how many apply.
func (w *wizard) position(i int) (pos, total int) {
	for j, p := range w.pages {
		if p.hide != nil && p.hide() {
			continue
		}
		total++
		if j <= i {
			pos = total
		}
	}
	return pos, total
}

// typing reports whether the focused field takes free text or is being
// filtered, so that q and ? are letters there, not commands.
func (w *wizard) typing() bool {
	f := w.form.GetFocusedField()
	if _, ok := f.(*huh.Input); ok {
		return true
	}
	for _, b := range f.KeyBinds() {
		if b.Enabled() && slices.Contains(b.Keys(), "esc") {
			return true // a filter is open or set: esc belongs to it
		}
	}
	return false
}

// skipToEnd shows the last page that applies (the offers were left back
// to the questions after the last one).
func (w *wizard) skipToEnd() tea.Cmd {
	for i := len(w.pages) - 1; i > 0; i-- {
		if w.form.applies(i) {
			return w.form.goTo(i)
		}
	}
	return w.form.goTo(0)
}

// familyLabels name the model families in the list, in order.
var familyLabels = []struct {
	f     model.Family
	label string
}{
	{model.FamilyDecoder, "LLM"}, {model.FamilyEncoder, "encoder"}, {model.FamilyEncoderDecoder, "seq2seq"},
	{model.FamilyViT, "ViT"}, {model.FamilyCNN, "CNN"}, {model.FamilyUNet, "U-Net"},
}

// modelOptions lists the catalog's models grouped by family (LLMs first),
// largest first within a family, then "custom…" and config.json.
func modelOptions(cat *model.Catalog, hfEnabled bool, lang *i18n.Printer) []huh.Option[string] {
	order := map[model.Family]int{}
	for i, f := range familyLabels {
		order[f.f] = i
	}
	ms := slices.Clone(cat.Models)
	sort.SliceStable(ms, func(i, j int) bool {
		if order[ms[i].Family] != order[ms[j].Family] {
			return order[ms[i].Family] < order[ms[j].Family]
		}
		return ms[i].ParamCount() > ms[j].ParamCount()
	})
	opts := make([]huh.Option[string], 0, len(ms)+2)
	for _, m := range ms {
		label := padCells(lang.T(familyLabels[order[m.Family]].label), 7)
		opts = append(opts, huh.NewOption(printable(fmt.Sprintf("%s %s · %s", label, m.Name, model.FormatCount(m.ParamCount()))), m.Key))
	}
	opts = append(opts, huh.NewOption(lang.T("custom… (type the shape or parameter count)"), modelCustom))
	if hfEnabled {
		opts = append(opts, huh.NewOption(lang.T("Hugging Face config.json…"), modelHF))
	}
	return opts
}

// The lists' heights, title and description included, whatever the
// window: the group shortens them to the form's box (wizard.setSize), so
// a page looks the same whether it was built at a small or a large size
// (a page is built when first shown, and the form is rebuilt by
// startFrom, backAnyway and toWizard). They are the heights a start has
// always had: a dozen models in view.
const (
	modelListHeight = 14
	providersHeight = 8
	regionsHeight   = 8
)

func (w *wizard) buildPages(hfEnabled bool) []page {
	return slices.Concat(w.modelPages(hfEnabled), w.trainingPages(), w.recipePages(), w.switchPages(),
		[]page{w.quantPage()}, w.datasetPages(), []page{w.servePage(w.input)}, w.deploymentPages())
}

// inference and training say which kind of workload the answers are,
// for the pages that show for one only.
func (a *answers) inference() bool { return a.Task == model.TaskInference }
func (a *answers) training() bool  { return !a.inference() }

// input returns a text question bound to v, checked by validate as it is
// typed and when the page is left.
func (w *wizard) input(title, desc string, v *string, validate func(string) error) *huh.Input {
	in := huh.NewInput().Title(title).Description(desc).Value(v).Validate(validate)
	w.inputs = append(w.inputs, boundInput{field: in, value: v, shown: *v})
	w.checks[in] = func() error { return validate(*v) }
	return in
}

// modelPages ask what is run and on which model: the framework and task,
// the model, and a custom shape or a Hugging Face config.json.
func (w *wizard) modelPages(hfEnabled bool) []page {
	a, cat := w.a, w.cat
	T := w.lang.T
	input := w.input
	return []page{
		{title: "Workload", fields: func(bool) []huh.Field {
			return []huh.Field{
				newSelect[model.Framework](w.theme).Title(T("Framework")).Options(
					huh.NewOption("PyTorch", model.PyTorch), huh.NewOption(T("TensorFlow / Keras"), model.TensorFlow),
					huh.NewOption(T("JAX / Flax"), model.JAX)).Value(&a.Framework),
				newSelect[model.Task](w.theme).Title(T("Task")).Options(
					huh.NewOption(T("train from scratch"), model.TaskTrain), huh.NewOption(T("full fine-tune"), model.TaskFinetune),
					huh.NewOption(T("LoRA fine-tune (16-bit base)"), model.TaskLoRA), huh.NewOption(T("QLoRA fine-tune (4-bit base)"), model.TaskQLoRA),
					huh.NewOption(T("inference (serving)"), model.TaskInference)).Value(&a.Task),
			}
		}},
		{title: "Model", backTo: "Workload", check: func() error { return adapterError(a, cat) }, fields: func(static bool) []huh.Field {
			title, desc := T("Model"), T("/ searches; custom… and config.json are at the end")
			opts := modelOptions(cat, hfEnabled, w.lang)
			if static {
				s := newSelect[string](w.theme).Title(title).Description(desc).Options(opts...).Height(modelListHeight).Value(&a.Model)
				return []huh.Field{s} // huh's accessible runner, which draws nothing
			}
			// "/" finds a model by its catalog key and Hugging Face ids
			// too (meta-llama/Llama-3.1-8B): the window draws the labels.
			for i := range opts {
				if m, err := cat.Model(opts[i].Value); err == nil {
					opts[i].Key = searchKey(opts[i].Key, strings.Join(append([]string{m.Key}, m.Aliases...), " "))
				}
			}
			s := newSelect[string](w.theme).Title(title).Description(desc).Options(opts...).Height(modelListHeight).Value(&a.Model)
			hint := func(query string) string {
				// A model left out on purpose says why, as estimate --model
				// and catalog models do; a name in part ("flu") is not one.
				if reason, ok := model.LeftOutReason(query); ok {
					if k, ok := leftOutHere[reason.Key]; ok && hfEnabled {
						reason.Key = k
					}
					return w.lang.Message(reason)
				}
				return T("no model matches: esc clears the search; custom… and config.json, at the end, take any other model")
			}
			c := cacheSelect(s, title, desc, opts, modelListHeight, &a.Model, hint) // forty options: the dozen in view drawn once per keystroke
			c.WithTheme(w.theme)
			w.heights[c] = modelListHeight
			return []huh.Field{c}
		}},
		{title: "Custom model", hide: func() bool { return a.Model != modelCustom }, fields: func(bool) []huh.Field {
			heads := wholeValidator("heads", 0, maxHeads)
			vocab := wholeValidator("vocabulary", 0, maxVocab)
			return []huh.Field{
				input(T("Parameters"), T("empty: counted from the shape; a count (70B) wins, the shape then sizes activations"),
					&a.Params, countValidator("parameters", maxParams)),
				input(T("Layers"), T("transformer blocks"), &a.Layers, wholeValidator("layers", 0, maxLayers)),
				input(T("Hidden size"), T("d_model"), &a.Hidden, wholeValidator("hidden size", 0, maxHidden)),
				input(T("Attention heads"), T("hidden must be a multiple of heads"), &a.Heads, func(s string) error {
					if err := heads(s); err != nil {
						return err
					}
					return with(&a.Heads, s, a.shapeError)
				}),
				input(T("Vocabulary"), T("tokens"), &a.Vocab, func(s string) error {
					if err := vocab(s); err != nil {
						return err
					}
					return with(&a.Vocab, s, func() error { return a.customError(cat) })
				}),
			}
		}},
		{title: "Hugging Face config.json", hide: func() bool { return a.Model != modelHF }, fields: func(bool) []huh.Field {
			return []huh.Field{input(T("config.json"), T("a config.json file or a model directory; ~ is your home"), &a.HFPath, func(s string) error {
				path := expandHome(strings.TrimSpace(s))
				if path == "" {
					return errors.New(T("config.json: give a path"))
				}
				if w.readHF != nil {
					if err := w.readHF(path, a.Task); err != nil {
						return model.Msg("config.json: %v", err) // a message: the footer says it in the reader's language
					}
				}
				return nil
			})}
		}},
	}
}

// precisionNotes say what each precision of the Precision pages means.
var precisionNotes = map[model.Precision]string{
	model.AMPBF16: "mixed bf16 (Ampere and newer)",
	model.AMPFP16: "mixed fp16 with loss scaling",
	model.BF16:    "pure bf16 weights and compute",
	model.FP32:    "full precision",
	model.TF32:    "fp32 weights, tf32 matmuls",
	model.FP8:     "fp8 compute (Ada, Hopper)",
	model.FP16:    "fp16 weights and compute",
	// AWQ is 4-bit only: vLLM's AWQConfig refuses weight_bits != 4
	// ("Currently, only 4-bit weight quantization is supported for AWQ",
	// model_executor/layers/quantization/awq.py).
	model.INT8: "8-bit GPTQ or bitsandbytes",
	model.INT4: "4-bit weights (GPTQ/AWQ)",
}

// servingNotes replace precisionNotes on the inference Precision page.
// vLLM serves an fp8 checkpoint below compute capability 8.9 as
// weight-only W8A16 through FP8 Marlin (serve.FormatOn), so fp8 there is
// not fp8 compute.
var servingNotes = map[model.Precision]string{
	model.FP8: "fp8 (weight-only before Ada)",
}

// precisionNoteWidth is the widest a precision option may be, in cells,
// so that it stays on one line of the narrowest form (44 cells in
// app.layout, less the field's bar and the cursor).
const precisionNoteWidth = 44 - 4

// releasedPrec is the inference precision that stands for the chosen
// model's released format (releasedPrecision), "" when the model was not
// released quantized.
func (w *wizard) releasedPrec() model.Precision {
	if !w.a.fill.released {
		return ""
	}
	return w.a.fill.inferPrec
}

// precisionOptions are the options of a Precision page. released is the
// precision a model released quantized fills in (releasedPrec, "" for
// none): its option names the released format, as estimate and the panel
// do, and not the precision that stands for it — gpt-oss's MXFP4 is int4
// here, which read "int4 (GPTQ/AWQ)" on the page (new-user trial).
func (w *wizard) precisionOptions(list []model.Precision, released model.Precision, serving bool) []huh.Option[model.Precision] {
	T := w.lang.T
	opts := make([]huh.Option[model.Precision], len(list))
	for i, p := range list {
		note := precisionNotes[p]
		if n, ok := servingNotes[p]; ok && serving {
			note = n
		}
		label := fmt.Sprintf("%-9s %s", p, T(note))
		switch {
		case p != released:
		case p == model.INT4: // serve.WeightMXFP4, releasedPrecision's only 4-bit release
			label = fmt.Sprintf("%-9s %s", "mxfp4", T("as released: 4-bit MoE experts"))
		default:
			label = fmt.Sprintf("%-9s %s", p, w.lang.Sprintf("as released: %s weights", string(p)))
		}
		opts[i] = huh.NewOption(label, p)
	}
	return opts
}

// trainingPages ask how it runs: the precision (and its fallback), the
// batch and length, the optimizer and the memory savers.
func (w *wizard) trainingPages() []page {
	a, cat := w.a, w.cat
	T := w.lang.T
	input := w.input
	inference, training := a.inference, a.training
	fallbackConfirm := func() huh.Field {
		return huh.NewConfirm().Title(T("Precision fallback")).
			Description(T("accept GPUs without this precision (bf16 runs as fp16, fp8 as bf16)")).
			Affirmative(T("allow")).Negative(T("no")).Value(&a.PrecisionFallback)
	}
	ckptConfirm := func() huh.Field {
		return huh.NewConfirm().Title(T("Activation checkpointing")).
			Description(w.lang.Sprintf("recompute activations in backward: less memory, about %d%% more compute", 33)).
			Affirmative(T("on")).Negative(T("off")).Value(&a.Checkpointing)
	}
	flashConfirm := func() huh.Field {
		return huh.NewConfirm().Title(T("Flash attention")).
			Description(T("fused attention that never stores the s² scores (PyTorch SDPA default)")).
			Affirmative(T("on")).Negative(T("off")).Value(&a.Flash)
	}
	// The optimizer in backward frees each gradient once stepped (torchtune
	// optimizer_in_bwd); the workload refuses it with gradient
	// accumulation and DeepSpeed, and says so.
	oibConfirm := func() huh.Field {
		return huh.NewConfirm().Title(T("Optimizer in backward")).
			Description(T("step each parameter as soon as its gradient is ready and free it (torchtune optimizer_in_bwd); not with gradient accumulation or DeepSpeed")).
			Affirmative(T("on")).Negative(T("off")).Value(&a.Switches.OptimizerInBackward)
	}
	return []page{
		{title: "Precision", hide: inference, fields: func(bool) []huh.Field {
			return []huh.Field{newSelect[model.Precision](w.theme).Title(T("Training precision")).
				Options(w.precisionOptions(model.TrainingPrecisions, "", false)...).Value(&a.TrainPrecision)}
		}},
		{title: "Precision", hide: training, fields: func(bool) []huh.Field {
			w.inferRelease = w.releasedPrec()
			w.inferPrec = newSelect[model.Precision](w.theme).Title(T("Inference precision")).
				Options(w.precisionOptions(model.InferencePrecisions, w.inferRelease, true)...).Value(&a.InferPrecision)
			return []huh.Field{w.inferPrec}
		}},
		{title: "Precision fallback", hide: func() bool { p := a.precision(); return p != model.BF16 && p != model.FP8 },
			fields: func(bool) []huh.Field { return []huh.Field{fallbackConfirm()} }},
		{title: "Batch and length", fields: func(bool) []huh.Field {
			bind := []any{&a.Task, &a.fill.vision}
			batch := input(T("Batch size per GPU"), T("the model's default until changed"), &a.Batch, func(s string) error {
				_, err := parseWhole(a.batchLabel(), s, 1, 1<<20)
				return err
			})
			batch.TitleFunc(func() string {
				if inference() {
					return T("Concurrent sequences")
				}
				return T("Batch size per GPU")
			}, bind)
			length := input(T("Sequence length (tokens)"), T("the model's default until changed"), &a.Length, func(s string) error {
				_, err := a.parseLength(s) // as the answers read it: a length that passes here is estimated
				return err
			})
			length.TitleFunc(func() string {
				switch {
				case a.fill.vision:
					return T("Image size (pixels per side)")
				case inference():
					return T("Context length (tokens)")
				}
				return T("Sequence length (tokens)")
			}, bind)
			return []huh.Field{batch, length}
		}},
		{title: "Optimizer", hide: inference, fields: func(bool) []huh.Field {
			return []huh.Field{newSelect[model.Optimizer](w.theme).Title(T("Optimizer")).Options(optimizerOptions(T)...).Value(&a.Optimizer)}
		}},
		{title: "Memory savers", hide: func() bool { return inference() || a.fill.noAttention }, fields: func(bool) []huh.Field {
			return []huh.Field{ckptConfirm(), flashConfirm(), oibConfirm()}
		}},
		// A CNN has no attention layers: the same page without the flash question.
		{title: "Memory savers", hide: func() bool { return inference() || !a.fill.noAttention }, fields: func(bool) []huh.Field {
			return []huh.Field{ckptConfirm(), oibConfirm()}
		}},
		// vLLM picks its attention backend itself: no question when serving an LLM.
		{title: "Memory savers", hide: func() bool { return training() || a.servingLLM(cat) || a.fill.noAttention }, fields: func(bool) []huh.Field { return []huh.Field{flashConfirm()} }},
	}
}

// datasetPages ask how much work there is: a training dataset, or the
// requests a batch inference serves.
func (w *wizard) datasetPages() []page {
	a, cat := w.a, w.cat
	T := w.lang.T
	input := w.input
	inference, training := a.inference, a.training
	return []page{
		{title: "Dataset", hide: inference, fields: func(bool) []huh.Field {
			w.unitVision = a.fill.vision
			unit := newSelect[string](w.theme).Title(T("Counted in")).Inline(true).
				Options(w.unitOptions(a.fill.vision)...).Value(&a.DatasetUnit)
			w.units = append(w.units, unit)
			return []huh.Field{
				input(T("Dataset size per epoch"), T("a count: 20M, 88k, 1.28M; empty for no job time"), &a.Dataset, jobCountValidator("dataset size", maxDataset)),
				unit,
				input(T("Epochs"), T("passes over the dataset"), &a.Epochs, positiveValidator("epochs", 1e6)),
			}
		}},
		// Serving an LLM is costed per million tokens at the load of the
		// Serving page; a request count is for batch inference.
		{title: "Requests", hide: func() bool { return training() || a.servingLLM(cat) }, fields: func(bool) []huh.Field {
			return []huh.Field{input(T("Requests to serve"), T("a count: 1M, 250k; empty for no serving time"), &a.Dataset, jobCountValidator("requests", maxDataset))}
		}},
	}
}

// deploymentPages ask where and how wide it runs: the distribution, GPUs
// and strategy, providers and regions, and the price limits.
func (w *wizard) deploymentPages() []page {
	a, cat := w.a, w.cat
	T := w.lang.T
	input := w.input
	inference := a.inference
	return []page{
		{title: "Distribution", hide: func() bool { return a.servingLLM(cat) }, fields: func(bool) []huh.Field {
			return []huh.Field{newSelect[string](w.theme).Title(T("Distribution")).Options(
				huh.NewOption(T("single GPU"), distSingle),
				huh.NewOption(T("one node, several GPUs"), distNode),
				huh.NewOption(T("several nodes (multi-node)"), distMulti)).Value(&a.Distribution)}
		}},
		{title: "GPUs and strategy", hide: func() bool { return a.Distribution == distSingle || a.servingLLM(cat) }, fields: func(bool) []huh.Field {
			validate := func(s model.Strategy) error {
				if inference() && s.ZeROStage() > 0 {
					return model.Msg("%s shards training state; inference replicates the model: pick DDP", s)
				}
				return nil
			}
			strategy := newSelect[model.Strategy](w.theme).Title(T("Strategy")).Options(
				huh.NewOption(T("auto    DDP, or FSDP where DDP does not fit"), strategyAuto),
				huh.NewOption(T("DDP     every GPU holds all model states"), model.DDP),
				huh.NewOption(T("FSDP    fully sharded (like ZeRO-3)"), model.FSDP),
				huh.NewOption(T("ZeRO-1  shards optimizer states"), model.ZeRO1),
				huh.NewOption(T("ZeRO-2  + gradients"), model.ZeRO2),
				huh.NewOption(T("ZeRO-3  + parameters"), model.ZeRO3)).Value(&a.Strategy).Validate(validate).
				DescriptionFunc(func() string {
					if auto, n, err := parseGPUs(a.GPUs); auto && err == nil && !inference() {
						return T("auto GPUs: auto tries FSDP where DDP does not fit")
					} else if err == nil && n > 1 && !inference() { // one GPU shards nothing
						return T("auto tries FSDP where DDP does not fit on these GPUs")
					}
					return ""
				}, &a.GPUs)
			w.checks[strategy] = func() error { return validate(a.Strategy) }
			return []huh.Field{
				input(T("GPUs"), T("auto: the fewest whole instances that fit; ≤8 (or up to 8): the same, at most 8 GPUs; or a number"), &a.GPUs, gpusValidator),
				strategy,
			}
		}},
		{title: "Where", fields: func(static bool) []huh.Field {
			var provs []huh.Option[string]
			// A provider with nothing offered (every type retired) is not
			// offered, unless the answers loaded name it (trial L9: cudo).
			offered := cat.OfferedProviders()
			for _, p := range providers(cat) {
				label := p
				switch {
				case !slices.Contains(offered, p) && !slices.Contains(a.Providers, p):
					continue
				case !slices.Contains(offered, p):
					label += T(" (retired: no offers)")
				case slices.Contains(model.MarketplaceProviders, p):
					label += T(" (marketplace: only when chosen)")
				}
				provs = append(provs, huh.NewOption(label, p).Selected(slices.Contains(a.Providers, p)))
			}
			// The descriptions say what is chosen: a long list shows only
			// its first options, and a pick in the market browser chooses
			// one provider and its regions far down it (walk: "none
			// chosen" read over primeintellect, chosen by a pick).
			// (huh runs a DescriptionFunc on a later update: Description
			// gives the first frame its text.)
			regionsDesc := func() string { return w.chosen(a.Regions, nil, T("none chosen: all regions")) }
			regions := newMultiSelect[string](w.theme).Title(multiTitle(T("Regions"))).DescriptionFunc(regionsDesc, &a.Regions).
				Description(regionsDesc()).Height(regionsHeight).Value(&a.Regions)
			if !static {
				regions.OptionsFunc(w.regionOptions, &w.regionGen)
			}
			// The options are set now as well, from the answers: huh's
			// focus and blur write the selected options back to the
			// answer, so a field still waiting for its options function
			// wrote none and dropped the regions chosen (a form rebuilt
			// after the offers list, walk 49e).
			w.syncRegions()
			regions.Options(w.regionOptions()...)
			provsDesc := func() string {
				return w.chosen(a.Providers, a.extra.ExtraProviders, T("none chosen: every provider but marketplaces"))
			}
			provsField := newMultiSelect[string](w.theme).Title(multiTitle(T("Providers"))).DescriptionFunc(provsDesc, &a.Providers).
				Description(provsDesc()).Options(provs...).Height(providersHeight).Value(&a.Providers)
			w.heights[provsField], w.heights[regions] = providersHeight, regionsHeight
			return []huh.Field{provsField, regions}
		}},
		// Serving an LLM is priced per hour and per million tokens: it has
		// no job, so no job budget or deadline (one page each way, as
		// Precision is, so the page count stays).
		{title: "Price", hide: func() bool { return a.servingLLM(cat) }, fields: func(bool) []huh.Field { return w.priceFields(input, true) }},
		{title: "Price", hide: func() bool { return !a.servingLLM(cat) }, fields: func(bool) []huh.Field { return w.priceFields(input, false) }},
	}
}

// chosen is a list question's description: what is chosen ("chosen:
// primeintellect", "chosen: FI, IS", "chosen: us-east-1, us-west-1 +3"),
// and that the market browser's pick chose it while it stands; none when
// nothing is.
func (w *wizard) chosen(list, extra []string, none string) string {
	all := append(slices.Clone(list), extra...)
	if len(all) == 0 {
		return none
	}
	s := w.lang.Sprintf("chosen: %s", shortList(w.lang, all, 2)) // one line beside the panel
	if w.a.pick.On && len(w.a.GPUKeys) > 0 {
		s += " " + w.lang.T("(market pick)") // ctrl+x in the browser clears it, as the footer and the browser say
	}
	return printable(s)
}

// priceFields are the Price page's questions; job adds the job budget and
// the deadline, which apply to a job with a size (not to serving an LLM).
func (w *wizard) priceFields(input func(title, desc string, v *string, check func(string) error) *huh.Input, job bool) []huh.Field {
	a, T := w.a, w.lang.T
	pricing := newSelect[model.Pricing](w.theme).Title(T("Pricing")).Inline(true).
		Options(localOptions(w.lang, model.PricingModes)...).Value(&a.Pricing)
	w.pricing = append(w.pricing, pricing)
	fs := []huh.Field{
		pricing,
		input(T("Monthly budget (USD)"), T("empty: no limit"), &a.Budget, positiveValidator("monthly budget", 1e10)),
	}
	if job {
		fs = append(fs, input(T("Job budget (USD)"), T("the whole job; empty: no limit"), &a.BudgetJob, positiveValidator("job budget", 1e10)))
	}
	fs = append(fs, input(T("Hours per month"), T("hours used; 730 is always on"), &a.Hours, positiveValidator("hours per month", 744)))
	if job {
		fs = append(fs, input(T("Deadline (hours)"), T("the job must finish within; empty: none"), &a.Deadline, positiveValidator("deadline", 1e7)))
	}
	return fs
}

// fieldError is the error of field f's current answer, or nil.
func (w *wizard) fieldError(f huh.Field) error {
	if check, ok := w.checks[f]; ok {
		return check()
	}
	return nil
}

// pageError is the first error among page i's answers, or nil.
func (w *wizard) pageError(i int) error {
	for _, f := range w.fields[i] {
		if f.Skip() {
			continue
		}
		if err := w.fieldError(f); err != nil {
			return err
		}
	}
	return nil
}

// isPrev reports whether msg moves the form back a field (shift+tab).
func (w *wizard) isPrev(msg tea.KeyPressMsg) bool {
	k := w.keys
	return key.Matches(msg, k.Input.Prev, k.Select.Prev, k.MultiSelect.Prev, k.Confirm.Prev)
}

// onFirstField reports whether the focus is on the page's first field, so
// that moving back leaves the page.
func (w *wizard) onFirstField() bool {
	f := w.form.GetFocusedField()
	for _, x := range w.fields[w.focusedPage()] {
		if !x.Skip() {
			return x == f
		}
	}
	return false
}

// backError says why the form cannot move back now: huh refuses to leave
// a page with an invalid answer, after blurring the field, which would
// leave no field focused. nil when the move is safe.
func (w *wizard) backError(leavesPage bool) error {
	if err := w.fieldError(w.form.GetFocusedField()); err != nil {
		return err
	}
	if leavesPage {
		return w.pageError(w.focusedPage())
	}
	return nil
}

// with runs check with *answer set to s, the value being validated (the
// accessible prompts set the answer only once it is accepted).
func with(answer *string, s string, check func() error) error {
	old := *answer
	*answer = s
	defer func() { *answer = old }()
	return check()
}

// padCells pads s with spaces to n terminal cells (a CJK character is
// two): fmt's %-Ns counts bytes.
func padCells(s string, n int) string {
	return s + strings.Repeat(" ", max(n-lipgloss.Width(s), 0))
}

// unitOptions are the dataset units as options, labelled in w's language.
func (w *wizard) unitOptions(vision bool) []huh.Option[string] {
	return localOptions(w.lang, unitOptions(vision))
}

// localOptions are options whose values are request values (English,
// as a config file writes them) and whose labels are in lang.
func localOptions[T ~string](lang *i18n.Printer, values []T) []huh.Option[T] {
	out := make([]huh.Option[T], len(values))
	for i, v := range values {
		out[i] = huh.NewOption(lang.T(string(v)), v)
	}
	return out
}

// optimizerOptions are the optimizer page's options: the name, then what
// its states take, in a column as wide as the widest name in the
// reader's language, measured in display cells. The labels were padded by
// hand to 12 characters: "SGD+momentum" (12) and "分页 AdamW 8-bit" (16
// cells) ran past the column, "分页 AdamW" (10 cells) stopped short of it
// (walk37). The paged 8-bit AdamW is "Paged AdamW" with "8-bit" leading
// its description, so no name is wider than "SGD+momentum".
func optimizerOptions(T func(string) string) []huh.Option[model.Optimizer] {
	opts := []struct {
		name, what string
		v          model.Optimizer
	}{
		{"AdamW", "8 bytes of state per parameter", model.AdamW},
		{"Adam", "8 bytes of state per parameter", model.Adam},
		{"AdamW fused", "8 bytes per parameter, no step temporary (fused=True)", model.AdamWFused},
		{"SGD", "no state", model.SGD},
		{"SGD+momentum", "4 bytes per parameter", model.SGDMomentum},
		{"Adafactor", "factored second moments", model.Adafactor},
		{"AdamW 8-bit", "2 bytes per parameter (bitsandbytes)", model.AdamW8bit},
		{T("Paged AdamW"), "8 bytes per parameter in unified memory (bitsandbytes)", model.PagedAdamW},
		{T("Paged AdamW"), "8-bit: 2 bytes per parameter in unified memory (bitsandbytes)", model.PagedAdamW8bit},
	}
	col := 0
	for _, o := range opts {
		col = max(col, ansi.StringWidth(o.name)) // names are the libraries' own, "Paged AdamW" translated
	}
	out := make([]huh.Option[model.Optimizer], len(opts))
	for i, o := range opts {
		out[i] = huh.NewOption(report.PadRight(o.name, col)+" "+T(o.what), o.v)
	}
	return out
}
