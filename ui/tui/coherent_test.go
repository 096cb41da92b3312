package tui

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// Trap (issue 17): the default "20M" tokens became 20M images after
// switching to ResNet-50 ("14.9 years"), silently. An untouched dataset
// follows its basis (ImageNet-1k's 1.28M images for 90 epochs for a
// vision model), and the footer says so.
func TestDatasetFollowsItsBasis(t *testing.T) {
	m := trainApp(t) // ResNet-50 on ImageNet: QLoRA needs a transformer
	m = pickModel(t, m, "resnet-50")
	if m.a.Model != "resnet50" {
		t.Fatalf("model %q, want resnet50", m.a.Model)
	}
	if m.a.Dataset != "1.28M" || m.a.DatasetUnit != unitImages || m.a.Epochs != "90" {
		t.Errorf("dataset %q %q, %q epochs; want 1.28M images, 90 epochs", m.a.Dataset, m.a.DatasetUnit, m.a.Epochs)
	}
	if text := screenText(m); !strings.Contains(text, "dataset reset to 1.28M images") {
		t.Errorf("the footer does not say the dataset was reset:\n%s", text)
	}
	// back to a text model: the text default comes back
	m = drive(t, backTo(t, m, "Model"), msgs(runes("/"), clearLine, typed("llama 3.1 8b"), enter)...)
	if m.a.Model != defaultModel {
		t.Fatalf("model %q, want %s", m.a.Model, defaultModel)
	}
	if m.a.Dataset != defaultDataset || m.a.DatasetUnit != unitTokens || m.a.Epochs != defaultEpochs {
		t.Errorf("back on Llama: dataset %q %q, %q epochs; want 20M tokens, 3 epochs", m.a.Dataset, m.a.DatasetUnit, m.a.Epochs)
	}
}

// A dataset the user typed is kept across a change of basis, and flagged.
func TestTypedDatasetIsFlagged(t *testing.T) {
	m := trainApp(t)
	m = toPage(t, m, "Dataset")
	m = drive(t, m, replace("5M")...)
	m = pickModel(t, backTo(t, m, "Model"), "resnet-50")
	if m.a.Dataset != "5M" {
		t.Errorf("typed dataset %q was not kept", m.a.Dataset)
	}
	if text := screenText(m); !strings.Contains(text, "check the dataset: 5M was given as tokens, it now counts images") {
		t.Errorf("the footer does not flag the typed dataset:\n%s", text)
	}
}

// Each change of basis, worked by hand from the defaults: which answers
// are reset and what reconcile says about them.
func TestReconcileNotes(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		name        string
		change      func(a *answers)
		ckpt        bool
		dataset     string
		want, never string
	}{
		{"qlora to lora drops checkpointing, and says so", func(a *answers) { a.Task = model.TaskLoRA },
			false, defaultDataset, "activation checkpointing off (the lora default)", "dataset"},
		{"lora keeps a typed checkpointing", func(a *answers) { a.Checkpointing = true; a.fill.ckpt = false; a.Task = model.TaskLoRA },
			true, defaultDataset, "", "checkpointing"},
		// Serving an LLM asks no requests (trial M7: the note pointed to a
		// question not shown).
		{"serving an LLM clears the token count and says nothing of requests", func(a *answers) { a.Task = model.TaskInference },
			false, "", "", "dataset"},
		{"serving an LLM keeps a typed count, no note", func(a *answers) { a.Dataset = "5M"; a.Task = model.TaskInference },
			false, "5M", "", "dataset"},
		{"an encoder's inference clears the token count", func(a *answers) { a.Model = "bert-base"; a.Task = model.TaskInference },
			false, "", "dataset cleared (give the requests to serve", "epochs"},
		{"an encoder's inference flags a typed count", func(a *answers) { a.Model = "bert-base"; a.Dataset = "5M"; a.Task = model.TaskInference },
			false, "5M", "check the dataset: 5M was given as tokens, it now counts requests", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := defaultAnswers(cat)
			tc.change(a)
			note := resetNote(nil, a.reconcile(cat, nil))
			if a.Checkpointing != tc.ckpt || a.Dataset != tc.dataset {
				t.Errorf("checkpointing %v, dataset %q; want %v, %q", a.Checkpointing, a.Dataset, tc.ckpt, tc.dataset)
			}
			if tc.want != "" && !strings.Contains(note, tc.want) || tc.never != "" && strings.Contains(note, tc.never) {
				t.Errorf("note %q: want %q, never %q", note, tc.want, tc.never)
			}
		})
	}
}

// trainApp opens the configurator and picks "full fine-tune" as the
// task, as a new user planning ResNet-50 on ImageNet does first.
func trainApp(t *testing.T) app {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	m = drive(t, m, msgs(enter, runes("/"), typed("full"), enter)...) // framework, then task
	if m.a.Task != model.TaskFinetune {
		t.Fatalf("task %q, want finetune", m.a.Task)
	}
	return m
}

// backTo steps back (shift+tab) to the page titled title.
func backTo(t *testing.T, m app, title string) app {
	t.Helper()
	for range 40 {
		if focusedTitle(m) == title {
			return m
		}
		m = drive(t, m, shiftTab)
	}
	t.Fatalf("page %q not reached going back", title)
	return m
}
