package tui

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gpuplan/gpuplan/model"
)

// formText is the form's column of the screen (left of the panel, the
// "┃ " of the focused field cut), its lines joined by spaces: a hint as
// the reader reads it, whatever its wrapping.
func formText(m app) string {
	var out []string
	for _, l := range strings.Split(screenText(m), "\n") {
		form, _, _ := strings.Cut(l, "│")
		if form, ok := strings.CutPrefix(form, "┃ "); ok {
			out = append(out, strings.TrimSpace(form))
		}
	}
	return strings.Join(out, " ")
}

// TestModelSearchLeftOut: a model search that names a model the catalog
// leaves out on purpose (Flux) showed only "no model matches: esc clears
// the search; …"; it now says why, in the reader's language, as estimate
// --model and catalog models do (model.LeftOutReason), at 80×24 and
// 120×40. A name in part ("flu") keeps the plain hint, and a search that
// lists models shows no reason.
func TestModelSearchLeftOut(t *testing.T) {
	for _, tt := range []struct {
		lang        Options
		query       string
		want, lacks []string // in the form's column
		wantListed  string   // an option shown
	}{
		{Options{}, "flux", []string{`model "flux" is left out on purpose: diffusion transformers (Flux.1, SD3/SD3.5 MMDiT) are not costed`,
			"sd15-unet and sdxl-unet"}, []string{"no model matches"}, ""},
		{Options{}, "microsoft/Phi-4-reasoning", []string{`model "microsoft/Phi-4-reasoning" is left out on purpose: it has phi-4's layers`}, nil, ""},
		{Options{}, "mistral small 3.1", []string{`model "mistral small 3.1" is left out on purpose: Mistral Small 3.1 and 3.2`}, nil, ""},
		{zhOptions(), "flux", []string{`模型 "flux" 是有意不收录的`}, []string{"left out", "没有匹配的模型"}, ""},
		{Options{}, "flu", []string{"no model matches: esc clears the search"}, []string{"left out"}, ""},
		{zhOptions(), "flu", []string{"没有匹配的模型"}, []string{"有意"}, ""},
		{Options{}, "stable diffusion", nil, []string{"left out", "no model matches"}, "Stable Diffusion 1.5 U-Net · "},
		{Options{}, "mistral", nil, []string{"left out", "no model matches"}, "Mistral 7B (v0.1) · "},
	} {
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s/%s/%dx%d", tt.lang.Lang, tt.query, sz[0], sz[1]), func(t *testing.T) {
				m := toPage(t, start(t, newTestApp(t, testCatalog(t), tt.lang), size(sz[0], sz[1])), "Model")
				m = drive(t, m, msgs(runes("/"), typed(tt.query))...)
				checkFits(t, m.View().Content, sz[0], sz[1])
				// A wrapped line joins with a space; Chinese wraps inside
				// words, so compare without spaces there.
				text, squeeze := formText(m), func(s string) string { return s }
				if tt.lang.Lang == zhOptions().Lang {
					squeeze = func(s string) string { return strings.ReplaceAll(s, " ", "") }
				}
				for _, w := range tt.want {
					if !strings.Contains(squeeze(text), squeeze(w)) {
						t.Errorf("/%s: the form lacks %q:\n%s", tt.query, w, screenText(m))
					}
				}
				for _, l := range tt.lacks {
					if strings.Contains(text, l) {
						t.Errorf("/%s: the form has %q:\n%s", tt.query, l, screenText(m))
					}
				}
				if tt.wantListed != "" && !strings.Contains(text, tt.wantListed) {
					t.Errorf("/%s does not list %q:\n%s", tt.query, tt.wantListed, screenText(m))
				}
			})
		}
	}
}

// TestModelSearchLeftOutFollowsTyping: the hint follows the search as it
// is typed: "flu" the plain hint, "flux" the reason, and back.
func TestModelSearchLeftOutFollowsTyping(t *testing.T) {
	m := toPage(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)), "Model")
	backspace := tea.KeyPressMsg{Code: tea.KeyBackspace}
	for _, step := range []struct {
		keys        []tea.Msg
		query, want string
	}{
		{msgs(runes("/"), typed("flu")), "flu", "no model matches"},
		{msgs(runes("x")), "flux", `model "flux" is left out on purpose`},
		{msgs(backspace), "flu", "no model matches"},
		{msgs(typed("x.1-dev")), "flux.1-dev", `model "flux.1-dev" is left out on purpose`},
	} {
		m = drive(t, m, step.keys...)
		if text := formText(m); !strings.Contains(text, "/"+step.query) || !strings.Contains(text, step.want) {
			t.Errorf("/%s: the form lacks %q:\n%s", step.query, step.want, screenText(m))
		}
	}
}

// TestWrapFit: a hint longer than its lines is cut on the last one with
// "…", within the width; one that fits is wrapped at its spaces only.
func TestWrapFit(t *testing.T) {
	text := "model \"flux\" is left out on purpose: diffusion transformers (Flux.1, SD3/SD3.5 MMDiT) are not costed (docs/data.md)"
	if got := wrapFit(text, 40, 10); strings.Join(got, " ") != text || !strings.Contains(strings.Join(got, "\n"), "docs/data.md") {
		t.Errorf("wrapFit(40, 10) = %q, want the text whole, wrapped at spaces", got)
	}
	got := wrapFit(text, 30, 2)
	if len(got) != 2 || !strings.HasSuffix(got[1], "…") {
		t.Fatalf("wrapFit(30, 2) = %q, want two lines, the last ending in …", got)
	}
	for _, l := range got {
		if w := len([]rune(l)); w > 30 {
			t.Errorf("wrapFit(30, 2): %q is %d cells wide", l, w)
		}
	}
}

// TestModelSearchLeftOutSaysTheListsWay: a reason that tells the command
// line's way to a config.json (--hf-config) says the configurator's here,
// the list's last item (walk, 2026-12-06), when that item is there.
func TestModelSearchLeftOutSaysTheListsWay(t *testing.T) {
	read := func(string, model.Task) (model.Architecture, model.Precision, []model.Message, error) {
		return model.Architecture{}, "", nil, errors.New("unused")
	}
	for _, tt := range []struct {
		opts Options
		want string
	}{
		{Options{ReadHFConfig: read}, "give its config.json with the list's last item, Hugging Face config.json…"},
		{Options{ReadHFConfig: read, Lang: zhOptions().Lang}, "请用列表最后一项“Hugging Face config.json…”给出它的 config.json"},
		{Options{}, "give its config.json with --hf-config"}, // no such item: the flag's words
	} {
		m := toPage(t, start(t, newTestApp(t, testCatalog(t), tt.opts), size(200, 60)), "Model")
		m = drive(t, m, msgs(runes("/"), typed("phi-4-reasoning"))...)
		text := strings.ReplaceAll(formText(m), " ", "")
		if !strings.Contains(text, strings.ReplaceAll(tt.want, " ", "")) || tt.opts.ReadHFConfig != nil && strings.Contains(text, "--hf-config") {
			t.Errorf("%q: form says\n%s\nwant %q", tt.opts.Lang, formText(m), tt.want)
		}
	}
}
