package tui

import (
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/text/language"
)

// New-user walk (walk35): with Kubernetes chosen in the export dialog, a
// directory as the name was told "give a file name such as
// DIR/gpuplan.toml", the TOML's name; the suggestion is the format's own
// default (launch.Format.FileName: gpuplan-k8s.yaml), and so is an empty name's,
// in English and Chinese.
func TestExportDirectorySuggestsFormatName(t *testing.T) {
	for _, lang := range []language.Tag{language.English, language.SimplifiedChinese} {
		t.Run(lang.String(), func(t *testing.T) {
			dir := t.TempDir()
			m := start(t, newTestApp(t, testCatalog(t), Options{Lang: lang}), size(120, 40))
			k8s := []tea.Msg{ctrlE, down, down, down, down, enter} // TOML, SkyPilot, torchrun, docker, Kubernetes
			m = drive(t, m, append(k8s, msgs(replace(dir), enter)...)...)
			text := strings.Join(strings.Fields(strings.ReplaceAll(screenText(m), "║", "")), "") // the long path wraps anywhere
			if want := filepath.Join(dir, "gpuplan-k8s.yaml"); !strings.Contains(text, want) || strings.Contains(text, "gpuplan.toml") {
				t.Errorf("a directory with Kubernetes chosen: want %q suggested:\n%s", want, screenText(m))
			}
			m = drive(t, m, msgs(replace(""), enter)...)
			text = strings.Join(strings.Fields(strings.ReplaceAll(screenText(m), "║", "")), "")
			if !strings.Contains(text, "gpuplan-k8s.yaml") || strings.Contains(text, "gpuplan.toml") {
				t.Errorf("an empty name with Kubernetes chosen: want gpuplan-k8s.yaml suggested:\n%s", screenText(m))
			}
		})
	}
}

// New-user walk (walk36b): the plan's export dialog (ctrl+e on the plan
// page) told a directory "give a file name such as DIR/gpuplan.toml", the
// configuration's name; the plan's is gpuplan-plan.toml
// (defaultPlanExport), for a directory and an empty name alike. huh's
// own error for the empty name is marked ✗ as the dialog's others are,
// not "*".
func TestPlanExportDirectorySuggestsPlanName(t *testing.T) {
	dir := t.TempDir()
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), ctrlO, runes("a"), enter) // a phase: the plan page
	if m.screen != screenPlan || len(m.plan.plan.Phases) != 1 {
		t.Fatalf("screen %v, %d phases:\n%s", m.screen, len(m.plan.plan.Phases), screenText(m))
	}
	m = drive(t, m, append([]tea.Msg{ctrlE, enter}, msgs(replace(dir), enter)...)...)
	text := strings.Join(strings.Fields(strings.ReplaceAll(screenText(m), "║", "")), "")
	if want := filepath.Join(dir, "gpuplan-plan.toml"); !strings.Contains(text, want) || strings.Contains(text, "gpuplan.toml") {
		t.Errorf("a directory as the plan's name: want %q suggested:\n%s", want, screenText(m))
	}
	m = drive(t, m, msgs(replace(""), enter)...)
	s := screenText(m)
	if !strings.Contains(s, "✗ give a file name such as gpuplan-plan.toml") || strings.Contains(s, "* give") {
		t.Errorf("an empty plan name: want ✗ and gpuplan-plan.toml:\n%s", s)
	}
}
