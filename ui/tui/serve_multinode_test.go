package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/serve"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/report"
)

// servingMultiNode answers TestServingPanel's 70B service split TP 8 ×
// PP 2 (pp as a reopened file sets it) with several nodes allowed: on
// the 8-GPU instances each replica spans 2 of them, which vLLM runs on a
// Ray cluster gpuplan does not write (serve.Plan.NoExport); the 1-GPU
// instances cannot hold TP 8.
func servingMultiNode(m *app) {
	a := m.a
	a.Task, a.Model, a.InferPrecision = model.TaskInference, "llama-3.1-70b", model.BF16
	a.Batch, a.Length, a.Distribution = "32", "8K", distMulti
	a.Serve = serveAnswers{WeightFormat: serve.WeightAWQ, KVCacheDType: serve.KVAuto, PromptTokens: "2K", OutputTokens: "512", TPOTMs: "50", TP: 8}
	a.Serve.extra.PP = 2
	m.recompute()
}

// TestServingMultiNodeMarked: the configurator marks serving offers that
// need a Ray cluster as recommend does (ui/cli TestServeMultiNodeMarked):
// the panel's rows name their nodes, "(2 nodes)", and carry "§" on the
// split (report.ServeRowIn), the best offer says "not exported:" and why
// (report.NotExportedIn), and the § note is under the rows; the offers
// list marks the GPUs cell and has the note; the detail says it; ctrl+e
// on such an offer writes nothing and says why, and the form's ctrl+e
// (the best offer) writes the answers' TOML but no launch file.
func TestServingMultiNodeMarked(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := start(t, newTestApp(t, testCatalog(t), Options{}), size(sz[0], sz[1]))
			servingMultiNode(&m)
			meets := 0
			for i := range m.res.serve {
				p := &m.res.serve[i]
				if !p.Meets {
					continue
				}
				meets++
				if p.Nodes != 2 || p.NoExport.IsZero() {
					t.Errorf("%s: %d nodes, NoExport %q; want 2 and a reason", p.Offer.Name, p.Nodes, p.NoExport)
				}
			}
			if meets != 2 {
				t.Fatalf("%d plans meet the targets; want the two 8-GPU instances", meets)
			}
			p := m.panel
			p.cache = nil
			p.setSize(sz[0], sz[1])
			view := p.view(false)
			checkFits(t, view, sz[0], sz[1])
			text := flat(strings.ReplaceAll(ansi.Strip(view), "│", " "))
			for _, want := range []string{"16×h100-sxm (2 nodes) TP8×PP2×1 §",
				"§ not exported: one replica spans 2 instances (TP 8 × PP 2 over 8 GPUs each): vLLM runs it on a Ray cluster, which gpuplan does not export",
				"§ one replica spans instances: vLLM runs it on a Ray cluster, which gpuplan does not export (ctrl+e refuses it)"} {
				if !strings.Contains(text, want) {
					t.Errorf("the panel lacks %q:\n%s", want, ansi.Strip(view))
				}
			}
			golden.RequireEqual(t, []byte(ansi.Strip(view)))
		})
	}
}

// TestServingMultiNodeOffersAndExport: the offers list and the detail
// mark such offers; ctrl+e on one refuses with recommend's reason and
// writes nothing; from the form, the export dialog writes the TOML and
// refuses a launch format with the same reason, in Chinese too.
func TestServingMultiNodeOffersAndExport(t *testing.T) {
	for _, zh := range []bool{false, true} {
		t.Run(fmt.Sprint("zh=", zh), func(t *testing.T) {
			opts := Options{}
			if zh {
				opts = zhOptions()
			}
			dir := t.TempDir()
			t.Chdir(dir)
			m := start(t, newTestApp(t, testCatalog(t), opts), size(120, 40))
			servingMultiNode(&m)
			best := &m.res.serve[0]
			reason := report.NotExportedIn(m.lang, best)
			if reason == "" {
				t.Fatal("the best plan exports")
			}
			// The GPUs cell as the training offers' (report.OfferGPUsIn), and "§";
			// the Chinese headers are wider: the cell is cut in its middle there.
			nodes, note := "16×a100-80gb (2 nodes) §", "§ one replica spans instances"
			if zh {
				nodes, note = "节点） §", "§ 一个副本跨多个实例"
				if !strings.HasPrefix(reason, "不导出：一个副本跨 2 个实例") {
					t.Errorf("the reason in Chinese: %q", reason)
				}
			}
			o := drive(t, m, ctrlO)
			text := screenText(o)
			if !strings.Contains(text, nodes) || !strings.Contains(text, note) {
				t.Errorf("the offers list lacks the node count, § or its note:\n%s", text)
			}
			d := drive(t, o, enter)
			if detail := flat(ansi.Strip(d.detail.content(d.detail.offer, d.res, d.cat.AsOf))); !strings.Contains(detail, flat("§ "+reason)) {
				t.Errorf("the detail lacks %q:\n%s", reason, detail)
			}
			for name, from := range map[string]app{"offers": o, "detail": d} {
				r := drive(t, from, ctrlE)
				if r.dialog != nil || r.footer.status != "✗ "+reason || !r.footer.isErr {
					t.Errorf("%s: ctrl+e opened a dialog (%v) or said %q; want %q", name, r.dialog != nil, r.footer.status, "✗ "+reason)
				}
			}
			// From the form, the pick is the best offer: the answers save as the TOML,
			// and a launch format says why not.
			w := drive(t, m, ctrlE)
			if w.dialog == nil || w.dialog.noExport != reason {
				t.Fatalf("the form's ctrl+e: dialog %v", w.dialog)
			}
			w = drive(t, w, down, enter) // SkyPilot
			if w.dialog == nil || !strings.Contains(flat(screenText(w)), flat(reason)) {
				t.Errorf("the dialog takes SkyPilot for a § offer:\n%s", screenText(w))
			}
			d2 := w.dialog.again(newTheme())
			d2.format = launch.FormatDocker
			if _, _, _, err := d2.payload(); err == nil || err.Error() != reason {
				t.Errorf("a docker payload for a § offer: %v", err)
			}
			t2 := drive(t, m, append([]tea.Msg{ctrlE, enter}, msgs(replace("run.toml"), enter)...)...)
			b, err := os.ReadFile(filepath.Join(dir, "run.toml"))
			if err != nil || !strings.Contains(string(b), "allow_multi_node = true") || !strings.Contains(string(b), "pipeline_parallel_size = 2") {
				t.Errorf("the TOML of the answers: %v\n%s\n%s", err, b, screenText(t2))
			}
			if zh {
				allow := zhAllowlist(t)
				for _, s := range []string{text, reason, note} {
					if leaks := i18n.Leaks(s, allow); len(leaks) > 0 {
						t.Errorf("English in Chinese: %s\n%s", strings.Join(leaks, " "), s)
					}
				}
			}
		})
	}
}

// TestServingMultiNodeNarrow: where the names need the room, the panel's
// split column gives way to a column holding "§" alone (the GPUs keep
// their node count at 72 cells), and the offers list puts a cut GPUs
// cell's "§" back: every row keeps its mark.
func TestServingMultiNodeNarrow(t *testing.T) {
	for _, w := range []int{56, 64, 72} {
		m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
		servingMultiNode(&m)
		p := m.panel
		p.cache = nil
		p.setSize(w, 30)
		view := ansi.Strip(p.view(false))
		checkFits(t, view, w, 30)
		rows := 0
		for _, l := range strings.Split(view, "\n") {
			if !strings.HasPrefix(strings.TrimLeft(l, "│ "), "aws ") {
				continue
			}
			rows++
			if !strings.Contains(l, " § ") || w >= 72 && !strings.Contains(l, "(2 nodes)") {
				t.Errorf("width %d: a row without its § or node count: %q\n%s", w, l, view)
			}
		}
		if rows != 2 {
			t.Errorf("width %d: %d rows:\n%s", w, rows, view)
		}
	}
	for _, w := range []int{80, 100} {
		m := start(t, newTestApp(t, testCatalog(t), Options{}), size(w, 30))
		servingMultiNode(&m)
		m = drive(t, m, ctrlO)
		rows := 0
		for _, l := range strings.Split(screenText(m), "\n") {
			if strings.Contains(l, "aws ") && strings.Contains(l, "$") {
				rows++
				if !strings.Contains(l, " § ") {
					t.Errorf("width %d: an offer without its §: %q\n%s", w, l, screenText(m))
				}
			}
		}
		if rows != 2 {
			t.Errorf("width %d: %d offers:\n%s", w, rows, screenText(m))
		}
	}
}
