package tui

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/ui/report"
)

// Issue 31 item 8: after 120×40 → 60×20 → 120×40 the first page's lists
// (Framework, Task) stayed clipped: huh's Group.WithHeight only ever
// shortens a field, and only the fixed-height lists got theirs back; Task
// lost "inference (serving)". The page reads as a fresh start at 120×40.
func TestResizeBackWorkloadPage(t *testing.T) {
	fresh := screenText(start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)))
	for _, small := range [][2]int{{60, 20}, {80, 24}, {80, 12}} {
		t.Run(fmt.Sprintf("%dx%d", small[0], small[1]), func(t *testing.T) {
			m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), size(small[0], small[1]), size(120, 40))
			got := screenText(m)
			if !strings.Contains(got, "inference (serving)") || !strings.Contains(got, "JAX / Flax") {
				t.Errorf("a list lost options after the resize:\n%s", got)
			}
			if got != fresh {
				t.Errorf("back at 120×40:\n%s\nwant, as a fresh start:\n%s", got, fresh)
			}
		})
	}
}

// Issue 31 item 8: at 80×24 the compact panel's best offer was one
// sentence, names first, so the job cost fell off the right edge ("· j…").
func TestCompactPanelShowsJobCost(t *testing.T) {
	m := start(t, newTestApp(t, embeddedCatalog(t), Options{}), size(80, 24))
	b := m.res.best()
	if b == nil || !b.HasJob {
		t.Fatalf("no best offer with a job: %+v", m.res)
	}
	text := screenText(m)
	checkFits(t, m.View().Content, 80, 24)
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "best ") {
			if !strings.Contains(l, report.USD(b.JobUSD)) || !strings.Contains(l, report.USD(b.USDPerHour)) {
				t.Errorf("the best offer's line lacks its job cost %s or price %s:\n%s", report.USD(b.JobUSD), report.USD(b.USDPerHour), text)
			}
			return
		}
	}
	t.Errorf("no best offer line at 80×24:\n%s", text)
}

// Issue 31 item 8: at 120×40 the serving panel's offer rows lost their
// $/Mtok column to the right edge and cut the instance names to eight
// cells ("gpu_…200"). Every row shown ends with its $ per million output
// tokens, and no instance name is cut below 12 cells.
func TestServingPanelRowsWhole(t *testing.T) {
	for _, sz := range [][2]int{{120, 40}, {160, 50}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := embeddedServing(t, sz[0], sz[1])
			text := screenText(m)
			checkFits(t, m.View().Content, sz[0], sz[1])
			rows := 0
			for i := range m.res.serve {
				p := &m.res.serve[i]
				if !p.Meets {
					break
				}
				typ := p.Offer.Instance.Type
				var line string
				for _, l := range strings.Split(text, "\n") {
					if strings.Contains(l, "│") {
						cells := strings.Fields(strings.Trim(l[strings.Index(l, "│")+len("│"):], " │"))
						// The provider may be cut too (primeintellect is 14 cells).
						if len(cells) > 1 && cutOf(cells[0], p.Offer.Instance.Provider) && cutOf(cells[1], typ) && strings.HasSuffix(strings.TrimRight(strings.TrimRight(l, " │"), " "), report.USD(p.USDPerMOutput)) {
							line = l
							break
						}
					}
				}
				if line == "" {
					if rows == 0 {
						t.Errorf("no row ends with %s for %s %s:\n%s", report.USD(p.USDPerMOutput), p.Offer.Instance.Provider, typ, text)
					}
					break // the rows shown end here
				}
				rows++
			}
			if rows < 5 {
				t.Errorf("only %d whole offer rows in the serving panel:\n%s", rows, text)
			}
		})
	}
}

// cutOf reports whether cell is name, or name cut with "…" (cutColumn)
// to no fewer than 12 cells, or to 10 when it keeps whole parts
// (distinctCut: "1x_RTX3090…" of 1x_RTX3090_SECURE): what is left of it,
// in order, its start kept unless the cell starts with "…" and its end
// unless the cell ends with "…".
func cutOf(cell, name string) bool {
	if cell == name {
		return true
	}
	pieces := strings.Split(cell, "…")
	if len(pieces) < 2 || !strings.HasPrefix(name, pieces[0]) || !strings.HasSuffix(name, pieces[len(pieces)-1]) {
		return false
	}
	rest, kept := name[len(pieces[0]):], len([]rune(pieces[0]))
	for _, p := range pieces[1:] {
		i := strings.Index(rest, p)
		if i < 0 {
			return false
		}
		rest, kept = rest[i+len(p):], kept+len([]rune(p))
	}
	whole := func(at int) bool {
		return at <= 0 || at >= len(name) || strings.ContainsRune(nameSeparators, rune(name[at])) || strings.ContainsRune(nameSeparators, rune(name[at-1]))
	}
	least := 12
	if whole(len(pieces[0])) && whole(len(name)-len(pieces[len(pieces)-1])) {
		least = 10
	}
	return kept+len(pieces)-1 >= min(least, len([]rune(name)))
}

// embeddedServing is the configurator on the embedded catalog with the
// first frame's answers but the task: serving Llama 3.1 8B.
func embeddedServing(t *testing.T, w, h int) app {
	t.Helper()
	m := start(t, newTestApp(t, embeddedCatalog(t), Options{}), size(w, h))
	m.a.Task = model.TaskInference
	m.recompute()
	m = drive(t, m, size(w, h))
	if m.res == nil || len(m.res.serve) == 0 {
		t.Fatalf("no serving plan: %+v", m.res)
	}
	return m
}

// Issue 31 item 8: a serving offer's detail showed the training job's
// sections (spot checkpoint assumptions, a job-time chart) and the
// serving offers table a headroom column that is gpu_memory_utilization's
// constant 10%. The detail speaks of serving; the table's columns vary.
func TestServingDetailIsServing(t *testing.T) {
	m := embeddedServing(t, 120, 40)
	m = drive(t, m, ctrlO)
	table := screenText(m)
	if strings.Contains(table, "headroom") {
		t.Errorf("the serving offers table has a headroom column (always 10%%):\n%s", table)
	}
	for _, want := range []string{"TPOT ms", "$/Mtok"} {
		if !strings.Contains(table, want) {
			t.Errorf("the serving offers table lacks %q:\n%s", want, table)
		}
	}
	m = drive(t, m, enter)
	detail := ansi.Strip(m.detail.vp.GetContent())
	for _, bad := range []string{"checkpoint", "Time against cost", "job time", "restart"} {
		if strings.Contains(detail, bad) {
			t.Errorf("the serving detail speaks of %q:\n%s", bad, detail)
		}
	}
	for _, want := range []string{"TPOT", "per million output tokens", "commitment"} {
		if !strings.Contains(detail, want) {
			t.Errorf("the serving detail lacks %q:\n%s", want, detail)
		}
	}
}

// Issue 31 item 8: after a SkyPilot (or any launch-file) export, q quit at
// once and the answers were lost: only the TOML reopens. q asks, as it
// does before any export; after a TOML export it quits at once.
func TestQuitAfterLaunchExportAsks(t *testing.T) {
	dir := t.TempDir()
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	m.a.Epochs = "7" // an answer changed since the start
	m.recompute()
	m = drive(t, m, msgs(ctrlE, down, enter, replace(filepath.Join(dir, "sky.yaml")), enter)...)
	if !strings.Contains(screenText(m), "exported to") {
		t.Fatalf("the SkyPilot export did not happen:\n%s", screenText(m))
	}
	m = drive(t, m, runes("q"))
	if m.dialog == nil || m.dialog.kind != dialogQuit || !strings.Contains(screenText(m), "Quit without saving the answers?") {
		t.Errorf("q after a SkyPilot export did not ask:\n%s", screenText(m))
	}
	m = drive(t, m, esc) // stay
	m = drive(t, m, msgs(ctrlE, enter, replace(filepath.Join(dir, "a.toml")), enter)...)
	_, cmd := m.Update(runes("q"))
	if cmd == nil || m.dialog != nil {
		t.Errorf("q after a TOML export asked:\n%s", screenText(m))
	}
}

// Issue 31 item 8: the model search matched the list's labels only, so a
// Hugging Face id found nothing and the list went blank without a word.
// Ids (and catalog keys) find their model; a search that finds nothing
// says so and what to do.
func TestModelSearchMatchesAliases(t *testing.T) {
	for _, tt := range []struct{ query, want string }{
		{"meta-llama/Llama-3.1-8B", "Llama 3.1 8B"},
		{"Qwen/Qwen2.5-7B", "Qwen2.5 7B"},
		{"qwen2.5-7b", "Qwen2.5 7B"},
		{"google-bert/bert-large-uncased", "BERT-Large (uncased)"},
	} {
		t.Run(tt.query, func(t *testing.T) {
			m := toPage(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)), "Model")
			m = drive(t, m, msgs(runes("/"), typed(tt.query))...)
			text := screenText(m)
			listed := false
			for _, l := range strings.Split(text, "\n") {
				form, _, _ := strings.Cut(l, "│") // the form's column, left of the panel
				listed = listed || strings.HasPrefix(form, "┃ ") && strings.Contains(form, tt.want+" · ")
			}
			if !listed {
				t.Errorf("/%s does not list %s:\n%s", tt.query, tt.want, text)
			}
			for _, l := range strings.Split(text, "\n") {
				if strings.Contains(l, "meta-llama/Meta") || strings.Contains(l, "Instruct") {
					t.Errorf("the list shows an alias:\n%s", text)
				}
			}
			m = drive(t, m, enter, enter) // the filter set, then the answer
			if got, _ := m.cat.Model(m.a.Model); got.Name == "" || !strings.HasPrefix(got.Name, tt.want) {
				t.Errorf("answer %q after /%s, want %s", m.a.Model, tt.query, tt.want)
			}
		})
	}
	m := toPage(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)), "Model")
	m = drive(t, m, msgs(runes("/"), typed("no-such-org/no-such-model"))...)
	if text := screenText(m); !strings.Contains(text, "no model matches") {
		t.Errorf("a search that finds nothing says nothing:\n%s", text)
	}
}

// Issue 31 item 9: choosing ResNet-50 answers its recipe's optimizer (SGD
// with momentum, torchvision's reference), as the batch follows the
// model; an optimizer the user picked stays through a change of model.
func TestOptimizerFollowsModel(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), enter, up, up, up) // Task: train from scratch (no LoRA for a CNN)
	m = toPage(t, m, "Model")
	m = drive(t, m, msgs(runes("/"), typed("resnet-50"), enter)...)
	if m.a.Model != "resnet50" || m.a.Optimizer != model.SGDMomentum {
		t.Fatalf("after ResNet-50: model %q, optimizer %q; want resnet50, sgd-momentum", m.a.Model, m.a.Optimizer)
	}
	if m.res == nil || m.res.workload.Optimizer != model.SGDMomentum {
		t.Errorf("the estimate's optimizer is not sgd-momentum: %+v", m.res)
	}
	m.a.Model = "llama-3.1-8b"
	m.a.reconcile(m.cat, nil)
	if m.a.Optimizer != model.AdamW {
		t.Errorf("back to Llama 3.1 8B: optimizer %q, want adamw", m.a.Optimizer)
	}
	m.a.Optimizer = model.Adafactor // the user's choice
	m.a.Model = "resnet50"
	m.a.reconcile(m.cat, nil)
	if m.a.Optimizer != model.Adafactor {
		t.Errorf("the user's adafactor became %q with ResNet-50", m.a.Optimizer)
	}
}

// Issue 31 item 9: the loss question (the LM head's cross-entropy) was
// asked for CNNs. Training ResNet-50, no page asks it and the recipe is
// still asked; training Llama, the loss is asked.
func TestLossAskedForLanguageModelsOnly(t *testing.T) {
	asked := func(m app) (loss, recipe bool) {
		for _, p := range m.wiz.pages {
			if p.hide != nil && p.hide() {
				continue
			}
			for _, f := range p.fields(true) {
				switch f.(type) {
				case *huh.Select[model.Loss]:
					loss = true
				case *huh.Select[model.Recipe]:
					recipe = true
				}
			}
		}
		return loss, recipe
	}
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), enter, up, up, up) // train from scratch
	if loss, recipe := asked(m); !loss || !recipe {
		t.Errorf("Llama 3.1 8B: loss asked %v, recipe asked %v; want both", loss, recipe)
	}
	m = pickModel(t, toPage(t, m, "Model"), "resnet-50")
	if m.a.Model != "resnet50" {
		t.Fatalf("model %q", m.a.Model)
	}
	if loss, recipe := asked(m); loss || !recipe {
		t.Errorf("ResNet-50: loss asked %v, recipe asked %v; want the recipe only", loss, recipe)
	}
	for range 30 { // walk the pages: none shows a loss
		if strings.Contains(screenText(m), "Loss (language models)") {
			t.Fatalf("a page asks the loss for ResNet-50:\n%s", screenText(m))
		}
		if m.wiz.form.State != huh.StateNormal {
			break
		}
		m = drive(t, m, enter)
	}
}

// Issue 31 item 9: "up to N GPUs" in the configurator. The GPUs answer
// takes ≤8 (or "up to 8"): auto GPUs with at most 8, written to the
// file as max_gpus and read back the same; a bad cap is refused.
func TestGPUsUpTo(t *testing.T) {
	for _, tt := range []struct {
		in   string
		auto bool
		n    int
		bad  bool
	}{
		{"auto", true, 0, false}, {"", true, 0, false}, {"8", false, 8, false},
		{"≤4", true, 4, false}, {"up to 4", true, 4, false}, {"<= 16", true, 16, false}, {"最多 2", true, 2, false},
		{"≤0", false, 0, true}, {"up to many", false, 0, true}, {"two", false, 0, true},
	} {
		auto, n, err := parseGPUs(tt.in)
		if (err != nil) != tt.bad || !tt.bad && (auto != tt.auto || n != tt.n) {
			t.Errorf("parseGPUs(%q) = %v, %d, %v; want %v, %d, error %v", tt.in, auto, n, err, tt.auto, tt.n, tt.bad)
		}
	}
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	m.a.Distribution, m.a.GPUs = distNode, "≤4"
	c, err := m.a.config()
	if err != nil {
		t.Fatal(err)
	}
	if !c.Workload.AutoGPUs || c.Search.MaxGPUs != 4 {
		t.Fatalf("≤4: auto %v, max_gpus %d; want auto, 4", c.Workload.AutoGPUs, c.Search.MaxGPUs)
	}
	b, err := config.Encode(&c)
	if err != nil || !strings.Contains(string(b), "max_gpus = 4") {
		t.Fatalf("the file lacks max_gpus = 4 (%v):\n%s", err, b)
	}
	back, err := config.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if a := answersFromConfig(m.cat, &back); a.GPUs != "≤4" || a.Distribution != distNode {
		t.Errorf("reopened: GPUs %q, distribution %v; want ≤4 on one node", a.GPUs, a.Distribution)
	}
	m.recompute()
	for _, o := range m.res.rec.Offers {
		if o.GPUs > 4 {
			t.Errorf("an offer rents %d GPUs under ≤4: %s", o.GPUs, o.Instance.Type)
		}
	}
}

// Issue 31 item 10: the Chinese offer detail kept English words ("h",
// "min", and the catalog source's "(SkyPilot authors, Apache-2.0),
// filtered") and, at 80 columns, wrapped units away from their numbers
// ("432" at a line's end, "GiB" starting the next).
func TestChineseDetailWords(t *testing.T) {
	m := start(t, newTestApp(t, embeddedCatalog(t), Options{Lang: language.SimplifiedChinese}), size(80, 24), ctrlO, enter)
	if m.screen != screenDetail {
		t.Fatalf("not on an offer's detail:\n%s", screenText(m))
	}
	text := ansi.Strip(m.detail.content(m.detail.offer, m.res, m.cat.AsOf))
	for _, w := range []string{"filtered", "authors", " h ", " min"} {
		if strings.Contains(text, w) {
			t.Errorf("the Chinese detail says %q:\n%s", w, text)
		}
	}
	unit := regexp.MustCompile(`^\s*(GiB|MiB|GB/s|GB|TFLOPS|FLOPs|小时|分钟|h|min|ms|vCPU|个|块)\b`)
	number := regexp.MustCompile(`[0-9]\s*$`)
	lines := strings.Split(text, "\n")
	for i := 1; i < len(lines); i++ {
		if unit.MatchString(lines[i]) && number.MatchString(strings.TrimRight(lines[i-1], " ")) {
			t.Errorf("a unit wrapped away from its number at line %d:\n%s\n%s", i+1, lines[i-1], lines[i])
		}
	}
}
