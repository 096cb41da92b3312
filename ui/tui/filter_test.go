package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// Trap (issue 17): "/resnet" on the model page showed one ResNet (the
// others scrolled off above, the cursor kept its old index), and a
// filter with no match then esc moved the highlight to the first model,
// which enter committed. Every match is in view with the highlight on
// the first; no match, esc or enter, leaves the answer as it was.
func TestFilterKeepsTheAnswer(t *testing.T) {
	m := toPage(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)), "Model")
	want := m.a.Model
	m = drive(t, m, msgs(runes("/"), typed("resnet"))...)
	text := screenText(m)
	for _, name := range []string{"> CNN     ResNet-152", "ResNet-101", "ResNet-50", "ResNet-18"} {
		if !strings.Contains(text, name) {
			t.Errorf("filter /resnet: %q not in view (the highlight on the first match):\n%s", name, text)
		}
	}
	if m.a.Model != want {
		t.Errorf("typing a filter changed the answer to %q", m.a.Model)
	}
	for _, tc := range []struct {
		name string
		keys []any
	}{
		{"no match, esc, enter", []any{clearLine, typed("zzzz"), esc, enter}},
		{"no match, enter, enter", []any{clearLine, typed("zzzz"), enter, enter}},
		{"a match, esc, enter", []any{clearLine, typed("bert"), esc, enter}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := toPage(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)), "Model")
			m = drive(t, m, runes("/"))
			m = drive(t, m, msgs(tc.keys...)...)
			if m.a.Model != want || m.a.Task != model.TaskQLoRA {
				t.Errorf("model %q, task %q after %s; want %q, qlora", m.a.Model, m.a.Task, tc.name, want)
			}
		})
	}
}

// Every single-choice select the pages ask is known to asSelect, so its
// "/" filter keeps the answer (a select of a new answer type would
// otherwise fall through to huh's own filter).
func TestEverySelectFilterable(t *testing.T) {
	m := newTestApp(t, testCatalog(t), Options{})
	for i := range m.wiz.pages {
		m.wiz.form.build(i)
	}
	for i, fs := range m.wiz.fields {
		for _, f := range fs {
			if t := fmt.Sprintf("%T", f); !strings.HasPrefix(t, "*huh.Select[") && !strings.HasPrefix(t, "*tui.cachedSelect[") {
				continue
			}
			if _, _, ok := asSelect(f); !ok {
				t.Errorf("page %q: %T is not in asSelect's list", m.wiz.pages[i].title, f)
			}
		}
	}
}

// Trial 15d N2: page 1's "/" filter was gone when you came back to it
// (its form is rebuilt on a return), while every other page keeps its
// own. Enter, /inf, enter, shift+tab shows Task still filtered to /inf,
// as the model page shows /qw after /qw, enter, shift+tab; esc then
// clears the filter and keeps the answer.
func TestFirstPageKeepsItsFilter(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	m = drive(t, m, msgs(enter, runes("/"), typed("inf"), enter)...)
	if title := m.wiz.pages[m.wiz.focusedPage()].title; title != "Model" || m.a.Task != model.TaskInference {
		t.Fatalf("enter /inf enter: page %q, task %q; want Model, inference", title, m.a.Task)
	}
	m = drive(t, m, shiftTab)
	text := screenText(m)
	if !strings.Contains(text, "/inf") || strings.Contains(text, "train from scratch") || !m.wiz.typing() {
		t.Errorf("back on page 1: the Task filter /inf is not kept (filter set: %v):\n%s", m.wiz.typing(), text)
	}
	m = drive(t, m, esc)
	if text := screenText(m); strings.Contains(text, "/inf") || !strings.Contains(text, "train from scratch") || m.a.Task != model.TaskInference {
		t.Errorf("esc on the kept filter: task %q, want the filter cleared and inference kept:\n%s", m.a.Task, text)
	}
	m = drive(t, m, enter)
	if title := m.wiz.pages[m.wiz.focusedPage()].title; title != "Model" || m.a.Task != model.TaskInference {
		t.Errorf("enter after: page %q, task %q; want Model, inference", title, m.a.Task)
	}
}
