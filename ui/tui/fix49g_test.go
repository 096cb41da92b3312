package tui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gpuplan/gpuplan/data/hf"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// walk49g item 1: a config.json's torch_dtype sets the precision the
// configurator estimates, as `gpuplan recommend --hf-config` takes it
// (config.WorkloadAnswers.Workload), until the user picks one.
func TestHFConfigDTypeSetsPrecision(t *testing.T) {
	path, err := filepath.Abs(filepath.Join("..", "cli", "testdata", "llama-3.1-8b-awq"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Skip(err)
	}
	cat := testCatalog(t)
	read := hf.Readers()
	// What the CLI resolves: the request without a precision.
	cli := config.WorkloadAnswers{HFConfig: path}
	cli.Task = model.TaskQLoRA
	want, _, err := cli.Resolve(cat, read)
	if err != nil {
		t.Fatal(err)
	}
	if want.Precision != model.AMPFP16 {
		t.Fatalf("the CLI's resolution gives %s, want amp-fp16 from torch_dtype float16", want.Precision)
	}
	m := pickModel(t, newTestApp(t, cat, Options{ReadHFConfig: read.HFConfig}), "hugging")
	tm, _ := m.Update(tea.PasteMsg{Content: path})
	m = drive(t, tm, enter)
	if m.res == nil || m.res.err != nil {
		t.Fatalf("no estimate: %+v", m.res)
	}
	if got := m.res.workload.Precision; got != want.Precision {
		t.Errorf("panel estimates %s, the CLI %s", got, want.Precision)
	}
	if m.a.TrainPrecision != want.Precision {
		t.Errorf("Precision page shows %s, want %s", m.a.TrainPrecision, want.Precision)
	}
	// A precision the user picks wins over the checkpoint's.
	m.a.TrainPrecision = model.AMPBF16
	c, err := m.a.config()
	if err != nil {
		t.Fatal(err)
	}
	if c.Workload.Precision != model.AMPBF16 {
		t.Errorf("a picked amp-bf16 is sent as %q", c.Workload.Precision)
	}
}

// walk49g item 2: while the filter line has an error the rows are the
// last valid filter's, and the line right under the error says so, not
// a note a screen away under the list: "country=zz" over rows from every
// country read as that filter's answer.
func TestBrowseStaleLabelUnderError(t *testing.T) {
	for _, tt := range []struct {
		keys  []tea.Msg
		label string
	}{
		{msgs(ctrlB, tea.PasteMsg{Content: "country=zz"}), "rows of the last valid filter: none (the whole market)"},
		{msgs(ctrlB, typed("l4"), replace("l4 country=zz")), "rows of the last valid filter: l4"},
	} {
		m := start(t, newTestApp(t, testCatalog(t), Options{}), append([]tea.Msg{size(80, 24)}, tt.keys...)...)
		lines := strings.Split(screenText(m), "\n")
		if !strings.HasPrefix(lines[2], "✗ ") {
			t.Fatalf("no error line under the filter:\n%s", screenText(m))
		}
		if got := strings.TrimSpace(lines[3]); !strings.HasPrefix(got, tt.label) {
			t.Errorf("line under the error %q, want %q:\n%s", got, tt.label, screenText(m))
		}
		if strings.Count(screenText(m), "last valid filter") != 1 {
			t.Errorf("the label is said more than once:\n%s", screenText(m))
		}
	}
}

// walk49g item 3: the Regions list's "/" search finds a region by its
// country code, country name and city: /germany and /frankfurt found
// nothing, as the labels held only the region name and code.
func TestRegionSearchByPlace(t *testing.T) {
	cat := embeddedCatalog(t)
	for q, want := range map[string]string{"germany": "eu-central-1 (DE)", "frankfurt": "eu-central-1 (DE)", "london": "eu-west-2 (GB)"} {
		m := start(t, newTestApp(t, cat, Options{}), size(120, 40))
		m = drive(t, m, repeat(tab, 19)...)
		if !strings.Contains(screenText(m), "Regions") {
			t.Fatalf("not on Where:\n%s", screenText(m))
		}
		m = drive(t, m, msgs(tab, runes("/"), typed(q))...) // the Regions list, its search
		if s := screenText(m); !strings.Contains(s, want) {
			t.Errorf("/%s: %s not among the matches:\n%s", q, want, s)
		}
	}
}

// walk49g item 4: the panel's offers are "ranked by job cost", but a host
// sized to the job ranks before a cheaper one renting more GPUs than it
// needs (model.SizedSlack); the panel says so with recommend's note
// (report.SizedTableNote) when such an offer is shown.
func TestPanelSaysSizedRanking(t *testing.T) {
	cat := embeddedCatalog(t)
	var c config.Config
	c.Workload.Model, c.Workload.Task, c.Workload.DatasetTokens = "llama-3.1-8b", model.TaskFinetune, 20e6
	m := start(t, newTestApp(t, cat, Options{Config: &c}), size(120, 40))
	if m.res == nil || m.res.rec.Offers == nil {
		t.Fatalf("no offers: %+v", m.res)
	}
	shown := m.res.rec.Offers
	if !slices.ContainsFunc(shown, func(o model.Offer) bool { return o.Oversized() }) {
		t.Skip("no oversized offer in this catalog's ranking")
	}
	flat := strings.Join(strings.Fields(screenText(m)), " ")
	if !strings.Contains(flat, "ranks first unless the bigger one costs") { // one oversized type or several
		t.Errorf("the panel does not explain the sized ranking:\n%s", screenText(m))
	}
}
