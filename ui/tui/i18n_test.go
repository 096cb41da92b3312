package tui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/serve"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/report"
)

// zhOptions is the configurator in Simplified Chinese, as LANG=zh_CN.UTF-8
// or --lang zh-CN give it.
func zhOptions() Options { return Options{Lang: language.SimplifiedChinese} }

// zhScreen is one screen of the configurator reached by keys from the
// start, or by setting answers (serving).
type zhScreen struct {
	name string
	keys []tea.Msg
	set  func(m *app) // answers set directly, then recomputed
	then []tea.Msg    // keys after set
}

// zhScreens are the screens a user meets on the three journeys (train,
// fine-tune, serve): the questions, the filled panel, the offers list and
// an offer's detail, the export and quit dialogs, the market browser, the
// full key help, a workload that fits nowhere, and the serving panel.
func zhScreens() []zhScreen {
	answered := bertAnswers()
	filled := answered[:len(answered)-4]
	then := func(keys ...tea.Msg) []tea.Msg { return append(append([]tea.Msg{}, answered...), keys...) }
	return []zhScreen{
		{name: "first"},
		{name: "filled", keys: filled},
		{name: "offers", keys: answered},
		{name: "detail", keys: then(enter)},
		{name: "export", keys: then(enter, ctrlE)},
		{name: "quit", keys: then(ctrlC)},
		{name: "plan-add", keys: then(runes("a"))},                        // the phase's name prompt over the plan screen
		{name: "plan", keys: then(runes("a"), enter)},                     // the plan screen with that phase
		{name: "plan-deleted", keys: then(runes("a"), enter, runes("d"))}, // that phase deleted: "deleted phase … · u: undo"
		{name: "browse", keys: msgs(ctrl('b'))},
		{name: "browse-grouped", keys: msgs(ctrl('b'), tab, ctrl('g'))},
		{name: "offers-sorted", keys: then(runes("s"))},
		{name: "help", keys: msgs(runes("?"))},
		{name: "nofit", keys: msgs(tab, up, up, enter, runes("/"), typed("llama 3.1 70b"), enter)},
		{name: "model-left-out", keys: msgs(enter, enter, runes("/"), typed("phi-4-reasoning"))}, // the model search says why Phi-4-reasoning is left out
		{name: "invalid", keys: invalidBatch()},
		{name: "invalid-offers", keys: append(invalidBatch(), ctrlO)},
		{name: "warnings", set: func(m *app) { // the catalog's, as the command line passes them: in the screens' language
			m.notice = newNotice([]string{m.lang.Sprintf(keptGPUsWarning, "Downloads/lambda/vms.csv",
				report.Count(m.lang, 1, "type"), "lambda/gpu_8x_h100_sxm5 (12 × h100-sxm ≠ 8 × h100-sxm)")})
			m.layout() // as newApp does with Options.Warnings: the footer's keys follow
		}},
		{name: "serving", set: serving},
		{name: "serving-detail", set: serving, then: msgs(ctrlO, enter)}, // commitments and the TPOT chart
		{name: "serving-offers", set: serving, then: msgs(ctrlO)},        // the serving offers list and its columns
		// A replica across instances (a Ray cluster): "§", the node count, its notes, ctrl+e's refusal.
		{name: "serving-multinode", set: servingMultiNode},
		{name: "serving-multinode-offers", set: servingMultiNode, then: msgs(ctrlO)},
		{name: "serving-multinode-detail", set: servingMultiNode, then: msgs(ctrlO, enter)},
		{name: "serving-multinode-refused", set: servingMultiNode, then: msgs(ctrlO, ctrlE)},
	}
}

// serving answers the questions for a 70B service (TestServingPanel's).
func serving(m *app) {
	a := m.a
	a.Task, a.Model, a.InferPrecision = model.TaskInference, "llama-3.1-70b", model.BF16
	a.Batch, a.Length = "32", "8K"
	a.Serve = serveAnswers{WeightFormat: serve.WeightAWQ, KVCacheDType: serve.KVAuto, PromptTokens: "2K", OutputTokens: "512", TPOTMs: "50"}
	m.recompute()
}

// invalidBatch types a batch size that does not parse.
func invalidBatch() []tea.Msg {
	return msgs(enter, up, up, enter, runes("/"), typed("bert-large"), enter, enter, replace("0"), enter)
}

// zhApp drives sc at w×h with opts.
func zhApp(t *testing.T, opts Options, sc zhScreen, w, h int) app {
	t.Helper()
	m := start(t, newTestApp(t, testCatalog(t), opts), append([]tea.Msg{size(w, h)}, sc.keys...)...)
	if sc.set != nil {
		sc.set(&m)
	}
	return drive(t, m, sc.then...)
}

// TestChineseGolden pins the Chinese screens at 80×24 and 120×40 beside
// the English ones (TestGolden): every line fits the terminal's cells with
// CJK counted as two, and nothing is cut mid-character (ansi.Truncate
// never splits a rune; checkFits measures display width).
func TestChineseGolden(t *testing.T) {
	for _, sc := range zhScreens() {
		switch sc.name {
		case "first", "filled", "offers", "detail", "export", "serving", "warnings":
		default:
			continue
		}
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s/%dx%d", sc.name, sz[0], sz[1]), func(t *testing.T) {
				t.Parallel()
				m := zhApp(t, zhOptions(), sc, sz[0], sz[1])
				view := m.View().Content
				checkFits(t, view, sz[0], sz[1])
				text := ansi.Strip(view)
				if strings.ContainsRune(text, '\uFFFD') {
					t.Errorf("a character was cut in half:\n%s", text)
				}
				golden.RequireEqual(t, []byte(text))
			})
		}
	}
	t.Run("too-small/59x19", func(t *testing.T) {
		m := zhApp(t, zhOptions(), zhScreen{}, 59, 19)
		view := m.View().Content
		checkFits(t, view, 59, 19)
		if text := strings.Join(strings.Fields(ansi.Strip(view)), ""); !strings.Contains(text, "终端太小") {
			t.Errorf("the too-small screen is not in Chinese:\n%s", view)
		}
		golden.RequireEqual(t, []byte(ansi.Strip(view)))
	})
}

// zhAllowlist is the default allowlist with the test catalog's names:
// models, GPUs, providers, instance types and regions are shown as the
// catalog writes them.
func zhAllowlist(t *testing.T) i18n.Allowlist {
	allow := i18n.DefaultAllowlist()
	cat := testCatalog(t)
	for _, m := range cat.Models {
		allow.Add(m.Name + " " + m.Key)
	}
	for _, g := range cat.GPUs {
		allow.Add(g.Name + " " + g.Key + " " + g.Vendor)
	}
	for _, in := range cat.Instances {
		allow.Add(in.Provider + " " + in.Type + " " + in.Interconnect + " " + in.Source)
		for _, p := range in.Prices {
			allow.Add(p.Region)
		}
	}
	// Keys as typed (the footer names them), request values the user
	// types or picks (option values stay English), file names.
	allow.Add(`esc enter tab shift ctrl pgup pgdn pgdown home end
		a b c d e g n o p q r s u x y
		toml TOML YAML SkyPilot torchrun docker run Kubernetes Job PyTorchJob Keras Flax
		AWQ GPTQ W8A16 awq gptq int8 vram regions providers max-price pricing spot europe auto efa
		sort group-by gpu gpu-price
		LLM seq2seq Ada Hopper Ampere momentum absmax Liger Cut Cross-Entropy Transformer
		lambda sxm fine-tune
		English L`) // an overlay's cloud and GPU key (warnings), a phase's default name (plan-add), the help's language switch (named in its own language)
	// model-left-out: the name typed in the model search and, in its
	// reason, phi-4 and --hf-config (cut from its dashes where it wraps).
	allow.Add("phi-4-reasoning phi-4 hf-config")
	return allow
}

// TestChineseLeaks drives the main screens in Chinese with a tracing
// printer: no English word outside the allowlist may show, and the keys
// the catalogue lacks are listed (zh-CN.toml is where they go).
func TestChineseLeaks(t *testing.T) {
	allow := zhAllowlist(t)
	p := i18n.NewTracing(language.SimplifiedChinese)
	for _, sc := range zhScreens() {
		for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
			m := zhApp(t, Options{lang: p}, sc, sz[0], sz[1])
			text := ansi.Strip(m.View().Content)
			if m.screen == screenDetail {
				text += "\n" + ansi.Strip(m.detail.content(m.detail.offer, m.res, m.cat.AsOf)) // below the fold too
			}
			if leaks := i18n.Leaks(text, allow); len(leaks) > 0 {
				t.Errorf("%s at %dx%d: English left in Chinese: %s\n%s", sc.name, sz[0], sz[1], strings.Join(leaks, " "), text)
			}
		}
	}
	if keys := p.Untranslated(); len(keys) > 0 {
		t.Errorf("%d messages have no Chinese in ui/i18n/zh-CN.toml:\n%s", len(keys), strings.Join(quoteAll(keys), "\n"))
		if path := os.Getenv("GPUPLAN_UNTRANSLATED"); path != "" { // a translator's worklist
			_ = os.WriteFile(path, []byte(strings.Join(quoteAll(keys), "\n")+"\n"), 0o644)
		}
	}
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// The answers' parse errors are messages: Chinese in the footer and the
// panel, the English text unchanged (worked from zh-CN.toml by hand).
func TestParseErrorsTranslate(t *testing.T) {
	zh := i18n.New(language.SimplifiedChinese)
	_, whole := parseWhole("batch size", "xy", 1, 1<<20)
	_, count := parseCount("dataset size", "lots", maxDataset)
	a := defaultAnswers(testCatalog(t))
	a.Task, a.Model = model.TaskQLoRA, "resnet-50"
	adapter := adapterError(a, testCatalog(t))
	for _, tt := range []struct {
		err    error
		en, zh string
	}{
		{whole, `batch size: want a whole number from 1 to 1048576, got "xy"`, `批大小：应为 1 到 1048576 之间的整数，收到 "xy"`},
		{count, `dataset size: want a count such as 20M, 88k or 1.2B, got "lots"`, `数据集大小：应为数量，如 20M、88k 或 1.2B，收到 "lots"`},
		{gpusValidator("two"), `GPUs: want auto, ≤ a number (≤8: at most 8) or a number such as 8, got "two"`, `GPU 数：应为 auto、≤ 某数（≤8 即最多 8 块）或整数（如 8），收到 "two"`},
		{adapter, "qlora puts adapters in a transformer's layers; ResNet-50 is a cnn: pick a transformer, or go back (esc) and choose full fine-tune",
			"QLoRA 微调 把适配器放在 Transformer 的层中；ResNet-50 是 CNN 模型：请选 Transformer 模型，或返回（esc）改选全参数微调"},
		{errors.New("plain"), "plain", "plain"},
	} {
		if got := errIn(nil, tt.err); got != tt.en || tt.err.Error() != tt.en {
			t.Errorf("English: %q (Error %q), want %q", got, tt.err.Error(), tt.en)
		}
		if got := errIn(zh, tt.err); got != tt.zh {
			t.Errorf("Chinese: %q, want %q", got, tt.zh)
		}
	}
}

// Options.Lang picks the language; the zero tag follows the environment
// as the command line gives it (Getenv), English without one.
func TestOptionsLanguage(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "LANG" {
				return v
			}
			return ""
		}
	}
	for _, tt := range []struct {
		opts    Options
		chinese bool
	}{
		{Options{}, false},
		{Options{Lang: language.SimplifiedChinese}, true},
		{Options{Getenv: env("zh_CN.UTF-8")}, true},
		{Options{Getenv: env("en_US.UTF-8")}, false},
		{Options{Getenv: env("zh_CN.UTF-8"), Lang: language.English}, false}, // --lang en wins
	} {
		if got := tt.opts.printer().Chinese(); got != tt.chinese {
			t.Errorf("%+v: Chinese = %v, want %v", tt.opts.Lang, got, tt.chinese)
		}
	}
}

// The accessible prompts and the summary are Chinese too: every question
// answered with its default (enter), no export.
func TestChineseAccessible(t *testing.T) {
	var o, p bytes.Buffer
	script := strings.Repeat("\n", 19) + "0\n0\n" + strings.Repeat("\n", 6) // every default (TestAccessible), lists ended with 0, no export
	err := runAccessible(context.Background(), testCatalog(t), Options{In: strings.NewReader(script), Out: &o, Err: &p, Lang: language.SimplifiedChinese}, testStyles())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"无障碍模式", "== 工作负载 ==", "把回答导出到文件"} {
		if !strings.Contains(p.String(), want) {
			t.Errorf("prompts lack %q:\n%s", want, p.String())
		}
	}
	allow := zhAllowlist(t)
	// huh's accessible runner writes its own English hints ("Enter a
	// number between 1 and 3", "Choose [y/N]"): the library has no
	// catalogue, so they are left out of the check.
	allow.Add(`Enter a number between and Choose Input Select options selection Confirm to`)
	// The brackets show the answer as the config file writes it (the
	// request value a user may look up in the README), optimizer names
	// as their libraries spell them.
	allow.Add(`qlora single on-demand tokens Adafactor Adam SGD`)
	for name, text := range map[string]string{"prompts": p.String(), "summary": o.String()} {
		if leaks := i18n.Leaks(text, allow); len(leaks) > 0 {
			t.Errorf("%s: English left in Chinese: %s\n%s", name, strings.Join(leaks, " "), text)
		}
	}
}

// A failed export says why in Chinese: the file writer's own reasons
// are messages (a missing directory, a directory given as the name),
// translated in the dialog; the path is shown as typed.
func TestChineseExportErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ name, path, want string }{
		{"a missing directory", filepath.Join(dir, "missing", "a.toml"), "目录 " + filepath.Join(dir, "missing") + " 不存在；请先创建它，或换一个位置"},
		{"a directory", dir, dir + " 是目录；请给出文件名，如 " + filepath.Join(dir, "gpuplan.toml")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := start(t, newTestApp(t, testCatalog(t), zhOptions()), size(120, 40), ctrlE, enter)
			m = drive(t, m, msgs(replace(tt.path), enter)...)
			if m.dialog == nil || m.dialog.err == nil {
				t.Fatalf("no error in the dialog:\n%s", screenText(m))
			}
			if got := flat(screenText(m)); !strings.Contains(got, flat("✗ "+tt.want)) {
				t.Errorf("the dialog does not say %q:\n%s", tt.want, screenText(m))
			}
		})
	}
}

// Trial 15c B3: the Chinese offers table cut instance names the English
// one shows whole at 120 columns (gpu_1x_gh2…): its GPU cells were five
// cells wider ("8×rtx-pro-6000 中的 1 块" against "1 of 8×rtx-pro-6000"),
// and a cut one lost the count the English puts first. Every GPU cell is
// no wider in Chinese than in English, in cells (CJK: 2), and starts
// with the count used; at 120×40 on the embedded catalog the columns cut
// to fit (instance, region) are as wide in Chinese as in English.
func TestChineseOffersAsWide(t *testing.T) {
	zh := i18n.New(language.SimplifiedChinese)
	h200 := &model.GPU{Key: "h200"}
	node := &model.Instance{GPUCount: 8}
	offers := []model.Offer{
		{GPU: h200, Instance: node, Instances: 1, GPUs: 1},  // 1 of 8×h200
		{GPU: h200, Instance: node, Instances: 2, GPUs: 16}, // 16×h200 (2 nodes)
		{GPU: h200, Instance: node, Instances: 2, GPUs: 12}, // 12 of 16×h200 (2 nodes)
	}
	cols := map[language.Tag][]int{}
	for _, l := range []language.Tag{language.English, language.SimplifiedChinese} {
		m := start(t, newTestApp(t, embeddedCatalog(t), Options{Lang: l}), size(120, 40), ctrlO)
		for _, c := range m.offers.table.Columns() {
			cols[l] = append(cols[l], c.Width)
		}
		if l == language.English {
			offers = append(offers, m.offers.all...)
		}
	}
	for _, o := range offers {
		en, cn := report.OfferGPUsIn(nil, &o), report.OfferGPUsIn(zh, &o)
		if lipgloss.Width(cn) > lipgloss.Width(en) {
			t.Errorf("GPU cell %q is %d cells, the English %q %d", cn, lipgloss.Width(cn), en, lipgloss.Width(en))
		}
		if want := fmt.Sprint(o.GPUs); !strings.HasPrefix(cn, want) {
			t.Errorf("GPU cell %q does not start with the %s GPUs used", cn, want)
		}
	}
	en, cn := cols[language.English], cols[language.SimplifiedChinese]
	for c, name := range map[int]string{2: "instance", 3: "region"} {
		if cn[c] < en[c] {
			t.Errorf("the %s column is %d cells in Chinese, %d in English (widths %v against %v)", name, cn[c], en[c], cn, en)
		}
	}
}
