package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
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
	read := func(path string, _ model.Task) (model.Architecture, model.Precision, []model.Message, error) {
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

// "Counted in" offers the units that apply; inference asks for requests,
// not a dataset in tokens and epochs.
func TestDatasetQuestionsFollowModelAndTask(t *testing.T) {
	m := toPage(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)), "Dataset")
	text := screenText(m)
	if strings.Contains(text, "images") || !strings.Contains(text, "tokens") {
		t.Errorf("an LLM's dataset units:\n%s", text)
	}
	// An encoder's inference is batch work with a request count; an LLM's
	// is served (its load is asked on the Serving page, not here).
	m = pickModel(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), enter, down, enter), "bert-large") // inference
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

// pageOf drives to page title n (by pressing enter) and returns the app.
func toPage(t *testing.T, m app, title string) app {
	t.Helper()
	for range 40 {
		if m.wiz.pages[m.wiz.focusedPage()].title == title {
			return m
		}
		m = drive(t, m, enter)
	}
	t.Fatalf("page %q not reached", title)
	return m
}

// Trap: cascading choices showing empty, stale or wrongly preselected
// options. Regions follow the providers: a region only one provider has
// goes when that provider goes, and does not come back with it.
func TestCascadingRegions(t *testing.T) {
	m := toPage(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)), "Where")
	regionOptions := func() []string {
		var out []string
		for _, o := range m.wiz.regionOptions() {
			out = append(out, o.Value)
		}
		return out
	}
	if got := regionOptions(); !slices.Contains(got, "us-east-1") || !slices.Contains(got, "us-central1") || slices.Contains(got, "Bavaria, DE, EU") {
		t.Fatalf("no provider chosen: regions %v, want all but the marketplace's", got)
	}
	// Providers are listed alphabetically: aws azure gcp lambda vast.
	m = drive(t, m, runes("x"), tab) // aws
	if got := regionOptions(); !slices.Equal(got, []string{"eu-west-1", "us-east-1"}) {
		t.Errorf("aws: regions %v, want eu-west-1 us-east-1", got)
	}
	m = drive(t, m, down, runes("x")) // us-east-1 (the list is sorted: eu-west-1, us-east-1)
	if !slices.Equal(m.a.Regions, []string{"us-east-1"}) {
		t.Fatalf("regions = %v, want us-east-1", m.a.Regions)
	}
	m = drive(t, m, shiftTab, runes("x"), down, down, runes("x"), tab) // aws off, gcp on
	if !slices.Equal(m.a.Providers, []string{"gcp"}) {
		t.Fatalf("providers = %v, want gcp", m.a.Providers)
	}
	if len(m.a.Regions) != 0 {
		t.Errorf("after switching to gcp the regions are %v: stale", m.a.Regions)
	}
	if got := regionOptions(); !slices.Equal(got, []string{"europe-west4", "us-central1"}) {
		t.Errorf("gcp: regions %v", got)
	}
	if view := ansi.Strip(m.View().Content); strings.Contains(view, "eu-west-1") {
		t.Errorf("the screen still shows aws's regions:\n%s", view)
	}
	for _, r := range m.res.rec.Offers {
		if r.Instance.Provider != "gcp" {
			t.Errorf("offer from %s after choosing gcp only", r.Instance.Provider)
		}
	}
	m = drive(t, m, shiftTab, up, up, runes("x"), tab) // aws back on
	if len(m.a.Regions) != 0 {
		t.Errorf("choosing aws again brought back regions %v", m.a.Regions)
	}
}

// Trial L9: cudo, every type retired on 2026-03-31, was offered in the
// Providers question. A provider with nothing offered is left out, unless
// the answers loaded name it: then it shows, marked.
func TestProvidersLeaveOutRetired(t *testing.T) {
	cat := embeddedCatalog(t)
	if slices.Contains(cat.OfferedProviders(), "cudo") || !slices.Contains(providers(cat), "cudo") {
		t.Skip("the catalog no longer has cudo as a retired provider")
	}
	m := toPage(t, start(t, newTestApp(t, cat, Options{}), size(120, 40)), "Where")
	if text := screenText(m); strings.Contains(text, "cudo") || !strings.Contains(text, "azure") {
		t.Errorf("the Providers question offers cudo, or lacks azure:\n%s", text)
	}
	cfg := &config.Config{}
	cfg.Workload.Model = defaultModel
	cfg.Search.Providers = []string{"cudo"}
	m = toPage(t, start(t, newTestApp(t, cat, Options{Config: cfg}), size(120, 40)), "Where")
	if text := screenText(m); !strings.Contains(text, "cudo (retired: no offers)") {
		t.Errorf("a file's cudo is not shown marked:\n%s", text)
	}
}
