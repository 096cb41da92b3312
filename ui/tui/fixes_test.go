package tui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/gpuplan/gpuplan/model"
)

// Trap: shift+tab on an invalid answer blurred the field, then huh
// refused to leave the page: no field had the focus and no key worked.
// shift+tab on an invalid answer keeps the focus and says why; esc goes
// back anyway, keeping the answer as typed and saying what to fix; the
// form works on after both.
func TestBackFromInvalidAnswer(t *testing.T) {
	for _, sc := range []struct {
		name, page, before string
		field              func(a *answers) *string
	}{
		{"batch", "Batch and length", "Precision", func(a *answers) *string { return &a.Batch }},
		{"gpus", "GPUs and strategy", "Distribution", func(a *answers) *string { return &a.GPUs }},
	} {
		t.Run(sc.name, func(t *testing.T) {
			m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
			if sc.name == "gpus" {
				m = toPage(t, m, "Distribution")
				m = drive(t, m, down, enter) // one node, several GPUs
			}
			m = toPage(t, m, sc.page)
			m = drive(t, m, replace("x")...)
			focused := m.wiz.form.GetFocusedField()
			m = drive(t, m, shiftTab)
			if m.wiz.form.GetFocusedField() != focused || focusedTitle(m) != sc.page {
				t.Fatalf("shift+tab on an invalid answer moved the focus")
			}
			if !strings.Contains(screenText(m), "fix it, or esc goes back") {
				t.Errorf("shift+tab: the screen does not say why it stays:\n%s", screenText(m))
			}
			m = drive(t, m, replace("8")...)
			if got := *sc.field(m.a); got != "8" {
				t.Fatalf("after shift+tab, typing went nowhere: answer %q, want 8", got)
			}
			m = drive(t, m, replace("x")...)
			m = drive(t, m, esc)
			if focusedTitle(m) != sc.before || *sc.field(m.a) != "x" || !strings.Contains(screenText(m), "kept as typed") {
				t.Fatalf("esc on an invalid answer: page %q (want %q), answer %q\n%s", focusedTitle(m), sc.before, *sc.field(m.a), screenText(m))
			}
			before := m.a.key()
			m = drive(t, m, down) // the previous page's field takes keys
			if m.a.key() == before {
				t.Error("after esc, keys change nothing: no field focused")
			}
			m = drive(t, m, up, enter)
			if focusedTitle(m) != sc.page {
				t.Fatalf("enter did not come back to %s (on %s)", sc.page, focusedTitle(m))
			}
			m = drive(t, m, replace("8")...)
			m = drive(t, m, shiftTab)
			if focusedTitle(m) == sc.page {
				t.Errorf("with a valid answer shift+tab did not leave the page")
			}
		})
	}
}

// focusedTitle is the focused page's title.
func focusedTitle(m app) string { return m.wiz.pages[m.wiz.focusedPage()].title }

// pickModel searches the model list for q and picks the first match.
func pickModel(t *testing.T, m app, q string) app {
	t.Helper()
	m = toPage(t, m, "Model")
	return drive(t, m, msgs(runes("/"), typed(q), enter)...)
}

// Answers the panel rejects stop enter on their field (or page), with a
// message that says what to change.
func TestInvalidAnswersStopEnter(t *testing.T) {
	read := func(path string, _ model.Task) (model.Architecture, model.Precision, []string, error) {
		return model.Architecture{}, "", nil, fmt.Errorf("open %s: no such file or directory", path)
	}
	newApp := func() app { return start(t, newTestApp(t, testCatalog(t), Options{ReadHFConfig: read}), size(120, 40)) }

	t.Run("custom shape", func(t *testing.T) {
		m := pickModel(t, newApp(), "custom")
		m = drive(t, m, msgs(enter, enter, replace("100"), enter, replace("3"), enter)...)
		if f, ok := m.wiz.form.GetFocusedField().(*huh.Input); !ok || f.GetValue() != "3" {
			t.Fatalf("enter on heads 3 with hidden 100 moved on (page %s)", focusedTitle(m))
		}
		text := screenText(m)
		if !strings.Contains(text, "hidden must be a multiple of heads") || strings.Contains(text, "head_dim") {
			t.Errorf("the message does not say hidden must be a multiple of heads, or names head_dim:\n%s", text)
		}
	})
	t.Run("config.json path", func(t *testing.T) {
		m := pickModel(t, newApp(), "hugging")
		m = drive(t, m, msgs(typed("/nope/config.json"), enter)...)
		if focusedTitle(m) != "Hugging Face config.json" || !strings.Contains(screenText(m), "✗ config.json: open /nope/config.json") {
			t.Errorf("enter on a missing config.json moved on or said nothing (page %s):\n%s", focusedTitle(m), screenText(m))
		}
	})
	t.Run("dataset", func(t *testing.T) {
		m := toPage(t, newApp(), "Dataset")
		m = drive(t, m, msgs(replace("1e19"), enter)...)
		if _, ok := m.wiz.form.GetFocusedField().(*huh.Input); !ok || !strings.Contains(screenText(m), "dataset size: want at most") {
			t.Errorf("enter on dataset 1e19 moved on or said nothing:\n%s", screenText(m))
		}
	})
	t.Run("qlora needs a transformer", func(t *testing.T) {
		m := pickModel(t, newApp(), "resnet-18") // the default task is QLoRA
		if m.a.Model != "resnet18" {
			t.Fatalf("picked %q", m.a.Model)
		}
		if focusedTitle(m) != "Model" || !strings.Contains(screenText(m), "qlora puts adapters in a transformer") {
			t.Errorf("QLoRA of ResNet-18 moved on or said nothing (page %s):\n%s", focusedTitle(m), screenText(m))
		}
		m = drive(t, m, esc, esc, up, up, enter) // clear the search, back: full fine-tune
		m = drive(t, m, enter)
		if m.a.Task != model.TaskFinetune || focusedTitle(m) == "Model" {
			t.Errorf("after choosing full fine-tune the model page still refuses (task %s, page %s)", m.a.Task, focusedTitle(m))
		}
	})
}

// A custom model's parameter count wins over the shape; the shape sizes
// activations. Left empty, the shape counts.
func TestCustomParamsWin(t *testing.T) {
	m := pickModel(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)), "custom")
	if m.a.Params != "" || !m.res.ok() {
		t.Fatalf("custom starts with params %q (want empty: from the shape), result %v", m.a.Params, m.res.err)
	}
	fromShape := m.res.est.Params
	m = drive(t, m, typed("70B")...)
	if !m.res.ok() || m.res.est.Params != 70e9 {
		t.Fatalf("params 70B: estimate has %.4g parameters (shape alone: %.4g), err %v", m.res.est.Params, fromShape, m.res.err)
	}
	if !strings.Contains(screenText(m), "70B parameters") {
		t.Errorf("the panel does not show 70B:\n%s", screenText(m))
	}
}

// "Counted in" offers the units that apply; inference asks for requests,
// not a dataset in tokens and epochs.
func TestDatasetQuestionsFollowModelAndTask(t *testing.T) {
	m := toPage(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)), "Dataset")
	text := screenText(m)
	if strings.Contains(text, "images") || !strings.Contains(text, "tokens") {
		t.Errorf("an LLM's dataset units:\n%s", text)
	}
	m = start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), enter, down, enter) // inference
	m = toPage(t, m, "Requests")
	m = drive(t, m, replace("1M")...)
	c, err := m.a.config()
	if err != nil || c.Workload.DatasetSamples != 1e6 || c.Workload.DatasetTokens != 0 || c.Workload.Epochs != 1 {
		t.Errorf("inference with 1M requests: %+v, %v", c.Workload, err)
	}
	if text := screenText(m); strings.Contains(text, "Epochs") || strings.Contains(text, "Counted in") {
		t.Errorf("inference asks for epochs or units:\n%s", text)
	}
	m = pickModel(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), enter, up, up, enter), "resnet-50")
	m = toPage(t, m, "Dataset")
	if m.a.DatasetUnit != unitImages || strings.Contains(screenText(m), "tokens") {
		t.Errorf("a CNN's dataset unit is %q:\n%s", m.a.DatasetUnit, screenText(m))
	}
}

// A leading ~/ in a path is the home directory.
func TestTildePaths(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	a := defaultAnswers(testCatalog(t))
	a.Model, a.HFPath = modelHF, " ~/ckpt/config.json"
	c, err := a.config()
	if err != nil || c.Workload.HFConfig != filepath.Join(home, "ckpt/config.json") {
		t.Errorf("config.json ~/ckpt/config.json = %q, %v", c.Workload.HFConfig, err)
	}
	for in, want := range map[string]string{"~": home, "~/a.toml": filepath.Join(home, "a.toml"), "~x/a": "~x/a", "a/~/b": "a/~/b"} {
		if got := expandHome(in); got != want {
			t.Errorf("expandHome(%q) = %q, want %q", in, got, want)
		}
	}
}

// accessible runs the accessible configurator on script.
func accessible(t *testing.T, script string) (out, prompts string, err error) {
	t.Helper()
	var o, p bytes.Buffer
	err = runAccessible(context.Background(), testCatalog(t), Options{In: strings.NewReader(script), Out: &o, Err: &p}, testStyles())
	return o.String(), p.String(), err
}

// Trap: ctrl+d in accessible mode panicked inside huh (a select given an
// invalid last line) with a stack trace, or acted like enter. The end of
// the input on any prompt ends with ErrInputEnded, and the answers so
// far are printed as a file to reopen.
func TestAccessibleInputEnds(t *testing.T) {
	for name, script := range map[string]string{
		"empty":             "",
		"invalid then end":  "q\n",
		"half a line":       "\n2",
		"at the export":     strings.Repeat("\n", 13) + "0\n0\n" + strings.Repeat("\n", 4),
		"in a list":         strings.Repeat("\n", 13) + "1\n",
		"in a custom input": "\n\n",
	} {
		t.Run(name, func(t *testing.T) {
			out, prompts, err := accessible(t, script)
			if !errors.Is(err, ErrInputEnded) {
				t.Fatalf("error = %v, want ErrInputEnded\n%s", err, prompts)
			}
			if err.Error() != "input ended before the questions were answered; nothing was exported" {
				t.Errorf("message %q", err)
			}
			if !strings.Contains(out, "# gpuplan answers so far") || !strings.Contains(out, "[workload]") {
				t.Errorf("the answers so far are not printed:\n%s", out)
			}
		})
	}
}

// Accessible mode shows the default of every question, checks answers as
// it goes (a bad custom shape is asked again at once), offers only the
// units that apply, prints no command-line hints, and after "no" to
// overwriting asks for another name.
func TestAccessibleAsksWell(t *testing.T) {
	dir := t.TempDir()
	taken, free := filepath.Join(dir, "taken.toml"), filepath.Join(dir, "free.toml")
	if err := os.WriteFile(taken, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	custom := fmt.Sprint(len(testCatalog(t).Models) + 1) // "custom…" follows the catalog's models
	script := "\n\n" + custom + "\n" +                   // framework, task, model: custom
		"\n\n100\n3\n4\n\n" + // params, layers, hidden 100, heads 3 (refused), 4, vocab
		strings.Repeat("\n", 10) + "0\n0\n" + strings.Repeat("\n", 4) + // the rest: defaults
		taken + "\nn\n" + free + "\n"
	out, prompts, err := accessible(t, script)
	if err != nil {
		t.Fatalf("%v\n%s", err, prompts)
	}
	for _, want := range []string{"[pytorch]", "[qlora]", "[llama-3.1-8b]", "hidden must be a multiple of heads", "exported to " + free} {
		if !strings.Contains(prompts, want) {
			t.Errorf("prompts lack %q:\n%s", want, prompts)
		}
	}
	if strings.Contains(prompts, "head_dim") || strings.Contains(prompts, "images") {
		t.Errorf("prompts name head_dim or offer images for an LLM:\n%s", prompts)
	}
	if strings.Contains(out, "--limit") {
		t.Errorf("the summary has a command-line hint:\n%s", out)
	}
	if b, _ := os.ReadFile(taken); string(b) != "x" {
		t.Error("the file was overwritten after no")
	}
	if _, err := os.Stat(free); err != nil {
		t.Errorf("not exported to the second name: %v", err)
	}
}

// manyOffersCatalog has enough offers that the table scrolls.
func manyOffersCatalog(tb testing.TB) *model.Catalog {
	c := testCatalog(tb)
	for i := range 40 {
		c.Instances = append(c.Instances, model.Instance{Provider: "gen", Type: fmt.Sprintf("gen-%02d", i), GPU: []string{"l4", "a100-80gb", "h100-sxm"}[i%3],
			GPUCount: 1, VCPUs: 8, MemoryGiB: 64, Prices: []model.RegionPrice{{Region: fmt.Sprintf("r%02d", i), OnDemandUSD: 1 + float64((i*7)%40)/10}},
			Source: "fixture", AsOf: "2026-11-30"})
	}
	c.Index()
	return c
}

// Trap: after a sort or a filter the cursor stayed on its offer but the
// table did not scroll to it: no › on screen, and ctrl+e exported an
// offer the user could not see.
func TestSelectionStaysVisible(t *testing.T) {
	for _, downs := range []int{0, 3, 9, 20, 30} {
		m := start(t, newTestApp(t, manyOffersCatalog(t), Options{}), size(120, 24), ctrlO)
		for range downs {
			m = drive(t, m, down)
		}
		for _, k := range []tea.Msg{runes("s"), runes("s"), runes("s"), runes("s"), runes("p"), runes("p")} {
			m = drive(t, m, k)
			o := m.offers.selected()
			if o == nil {
				t.Fatalf("after %d downs and %s: nothing selected", downs, k)
			}
			var marked string
			for _, l := range strings.Split(screenText(m), "\n") {
				if strings.Contains(l, "›") {
					marked = l
				}
			}
			if !strings.Contains(marked, o.Instance.Type) {
				t.Errorf("after %d downs and %s (sort %s): selected %s, marked row %q", downs, k, m.offers.sort, o.Instance.Type, marked)
			}
		}
	}
}

// Trap: ctrl+o with an answer that does not parse showed "sorted by  (s)"
// and keys that did nothing. The offers screen names the answer, its
// page and how to get there, and offers no sort, filter or details.
func TestOffersWithInvalidAnswer(t *testing.T) {
	m := toPage(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)), "Batch and length")
	m = drive(t, m, append(replace("x"), ctrlO)...)
	text := screenText(m)
	for _, want := range []string{`batch size: want a whole number from 1 to 1048576, got "x"`, "question page 4 of 10: Batch and length", "esc goes back"} {
		if !strings.Contains(text, want) {
			t.Errorf("offers screen lacks %q:\n%s", want, text)
		}
	}
	for _, bad := range []string{"sorted by  ", "s sort", "p provider", "enter details"} {
		if strings.Contains(text, bad) {
			t.Errorf("offers screen shows %q:\n%s", bad, text)
		}
	}
	m = drive(t, m, msgs(esc, replace("8"))...)
	if m.screen != screenWizard || m.a.Batch != "8" {
		t.Errorf("esc and typing did not fix the answer: screen %v, batch %q", m.screen, m.a.Batch)
	}
}

// When the budget, deadline or price limit removes every offer the panel
// says how many each removed, as gpuplan recommend does; messages are
// wrapped, not cut before their cause.
func TestPanelSaysWhatRemovedOffers(t *testing.T) {
	m := toPage(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)), "Price")
	m = drive(t, m, enter)
	m = drive(t, m, typed("1")...) // a $1 monthly budget
	text := strings.Join(strings.Fields(screenText(m)), " ")
	if !strings.Contains(text, "offers of") || !strings.Contains(text, "did not pass:") || !strings.Contains(text, "monthly budget") {
		t.Errorf("the panel does not say the budget removed the offers:\n%s", screenText(m))
	}
	for _, w := range []int{60, 80, 120} {
		m := start(t, newTestApp(t, testCatalog(t), Options{}), size(w, 30))
		m.a.Pricing, m.a.Providers = "reserved-1y", []string{"vast"} // a marketplace: no reserved prices
		m = drive(t, m, runes("?"), runes("?"))                      // recompute
		m.recompute()
		text := strings.Join(strings.Fields(strings.NewReplacer("│", " ", "╭", " ", "╰", " ").Replace(screenText(m))), " ")
		if !strings.Contains(text, "reserved-1y") {
			t.Errorf("width %d: the cause (pricing reserved-1y) is cut:\n%s", w, screenText(m))
		}
		checkFits(t, m.View().Content, w, 30)
	}
}

// Fit advice keeps its numbers when the labels are cut.
func TestFitAdviceKeepsNumbers(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(100, 40), tab, up, up, enter, runes("/"))
	m = drive(t, m, append(typed("llama 3.1 70b"), enter)...)
	n := 0
	for _, l := range strings.Split(screenText(m), "\n") {
		if strings.Contains(l, "✓") || strings.Contains(l, "✗ ") && strings.Contains(l, "→") {
			n++
			if !regexp.MustCompile(`→ [0-9.]+ GiB`).MatchString(l) {
				t.Errorf("advice line lost its number: %q", l)
			}
		}
	}
	if n == 0 {
		t.Fatalf("no fit advice:\n%s", screenText(m))
	}
}

// Offers equal on headroom rank the cheaper first.
func TestHeadroomTiesByPrice(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), ctrlO)
	for m.offers.sort != model.SortHeadroom {
		m = drive(t, m, runes("s"))
	}
	offers := m.res.rec.Offers
	for i := 1; i < len(offers); i++ {
		a, b := offers[i-1], offers[i]
		if a.HeadroomPct == b.HeadroomPct && a.USDPerHour > b.USDPerHour {
			t.Errorf("equal headroom %.1f%%: %s $%.2f ranks before %s $%.2f", a.HeadroomPct, a.Instance.Type, a.USDPerHour, b.Instance.Type, b.USDPerHour)
		}
	}
}

// regionsShown is the region list's lines on screen.
func regionsShown(m app) string {
	text := screenText(m)
	if i := strings.Index(text, "Regions"); i >= 0 {
		return text[i:]
	}
	return ""
}

// Trap: the region list lagged one provider change behind while it was
// not focused. It follows each tick at once.
func TestRegionsFollowProvidersAtOnce(t *testing.T) {
	m := toPage(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)), "Where")
	if r := regionsShown(m); !strings.Contains(r, "eastus") {
		t.Fatalf("no provider chosen: azure's eastus not listed:\n%s", r)
	}
	m = drive(t, m, runes("x")) // aws
	if r := regionsShown(m); strings.Contains(r, "eastus") || !strings.Contains(r, "eu-west-1") {
		t.Errorf("aws ticked: the list is not aws's:\n%s", r)
	}
	m = drive(t, m, down, runes("x")) // azure too
	if r := regionsShown(m); !strings.Contains(r, "eastus") || !strings.Contains(r, "eu-west-1") {
		t.Errorf("aws and azure ticked: the list lacks one's regions:\n%s", r)
	}
}

// focusedIsName reports whether the export dialog's file name has the focus.
func focusedIsName(m app) bool {
	_, ok := m.dialog.form.GetFocusedField().(*huh.Input)
	return m.dialog != nil && ok
}

// The export dialog shows the name it will write (a launch format's own
// name follows the format), returns to the name after "no" to
// overwriting or a failed write, expands ~, and a failed export clears
// an "exported to" from before.
func TestExportDialogName(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), ctrlE, down) // SkyPilot
	if m.dialog.path != "./gpuplan-sky.yaml" || !strings.Contains(screenText(m), "> ./gpuplan-sky.yaml") {
		t.Errorf("SkyPilot picked: name %q\n%s", m.dialog.path, screenText(m))
	}
	m = drive(t, m, up) // back to TOML
	if m.dialog.path != defaultExport {
		t.Errorf("TOML picked again: name %q", m.dialog.path)
	}
	m = drive(t, m, msgs(enter, replace("~/a.toml"), enter)...)
	if _, err := os.Stat(filepath.Join(home, "a.toml")); err != nil || !strings.Contains(screenText(m), "exported to "+filepath.Join(home, "a.toml")) {
		t.Fatalf("~/a.toml not written to the home directory: %v\n%s", err, screenText(m))
	}
	m = drive(t, m, msgs(ctrlE, enter, replace("~/a.toml"), enter)...) // the same name: exists
	if m.dialog == nil || m.dialog.kind != dialogExportOverwrite {
		t.Fatalf("no overwrite question:\n%s", screenText(m))
	}
	m = drive(t, m, runes("n"))
	if !focusedIsName(m) {
		t.Errorf("after no to overwriting the focus is not on the file name")
	}
	m = drive(t, m, msgs(replace(filepath.Join(home, "missing", "b.toml")), enter)...)
	if m.dialog == nil || m.dialog.err == nil || !focusedIsName(m) {
		t.Errorf("after a failed write: dialog error %v, name focused %v", m.dialog != nil && m.dialog.err != nil, m.dialog != nil && focusedIsName(m))
	}
	if strings.Contains(screenText(m), "exported to") {
		t.Errorf("the footer still says exported after a failed export:\n%s", screenText(m))
	}
	m = drive(t, m, typed("x")...)
	if !strings.HasSuffix(m.dialog.path, "b.tomlx") {
		t.Errorf("typing after the error went to %q, not the name", m.dialog.path)
	}
}

// Launch files for an AMD GPU: the dialog says no CUDA stack applies and
// to export the TOML, naming no command-line flag.
func TestExportAMDLaunch(t *testing.T) {
	cat := testCatalog(t)
	cat.Instances = append(cat.Instances, model.Instance{Provider: "amdcloud", Type: "mi300x.1", GPU: "mi300x", GPUCount: 1, VCPUs: 16,
		MemoryGiB: 256, Prices: []model.RegionPrice{{Region: "us", OnDemandUSD: 0.01}}, Source: "fixture", AsOf: "2026-11-30"})
	cat.Index()
	m := start(t, newTestApp(t, cat, Options{}), size(120, 40))
	m.a.Providers = []string{"amdcloud"}
	m.recompute()
	if b := m.res.best(); b == nil || b.GPU.Vendor != "amd" {
		t.Fatalf("best offer %+v, want the AMD one (err %v)", b, m.res.recErr)
	}
	m = drive(t, m, ctrlE, down, enter, enter) // SkyPilot, the name
	text := strings.Join(strings.Fields(strings.ReplaceAll(screenText(m), "║", " ")), " ")
	if m.dialog == nil || m.dialog.err == nil || !strings.Contains(text, "AMD GPU") || !strings.Contains(text, "export the gpuplan TOML") || strings.Contains(text, "--image") {
		t.Errorf("AMD SkyPilot export:\n%s", screenText(m))
	}
}

// Trap: once every question was answered, any later message to the form
// (a cursor blink after an export) set the footer back to "every
// question answered", hiding "exported to".
func TestExportedStaysSaid(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.toml")
	m := start(t, newTestApp(t, testCatalog(t), Options{}), append([]tea.Msg{size(120, 40)}, bertAnswers()...)...)
	m = drive(t, m, msgs(ctrlE, enter, replace(path), enter)...)
	m = drive(t, m, refreshMsg{})
	if !strings.Contains(screenText(m), "exported to "+path) {
		t.Errorf("a later message hid the export's status:\n%s", screenText(m))
	}
}

// With auto GPUs the matcher may shard (FSDP) where DDP, the answer, does
// not fit: the panel says so, and the strategy question explains it.
func TestAutoGPUsStrategyAgrees(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(140, 40), tab, up, up, enter, runes("/"))
	m = drive(t, m, append(typed("phi-3"), enter)...) // full fine-tune of 3.8B: DDP holds 61 GB of states per GPU
	m = drive(t, m, msgs(enter, replace("1"), enter, replace("512"))...)
	m = toPage(t, m, "Distribution")
	m = drive(t, m, down, enter) // one node, several GPUs: auto
	best := m.res.best()
	if best == nil {
		t.Fatalf("no offer:\n%s", screenText(m))
	}
	text := screenText(m)
	if said := strings.Contains(text, "(DDP did not fit)"); said != (best.GPUs > 1 && best.Strategy != model.DDP) {
		t.Errorf("best offer: %d GPUs %s, answer DDP; the panel says DDP did not fit: %v\n%s", best.GPUs, best.Strategy, said, text)
	}
	m.a.Providers, m.a.Batch = []string{"aws"}, "16" // DDP on 8 × H100: 61 GB of states plus activations do not fit
	m = drive(t, m, down, up)
	if best = m.res.best(); best == nil || best.GPUs == 1 || best.Strategy != model.FSDP || !strings.Contains(screenText(m), "(DDP did not fit)") {
		t.Errorf("aws: best offer %+v; the panel should say DDP did not fit:\n%s", best, screenText(m))
	}
	if !strings.Contains(text, "auto GPUs: FSDP where DDP does not fit") {
		t.Errorf("the strategy question does not explain auto GPUs:\n%s", text)
	}
}
