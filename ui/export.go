package ui

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"

	"github.com/gpuplan/gpuplan/model"
)

// dialog is a small huh form shown over the screen: the export's file
// name and overwrite question, and the quit question.
type dialog struct {
	kind      dialogKind
	form      *huh.Form
	path      string // export: the file name typed
	overwrite bool   // export: the answer to "overwrite?"
	quit      bool   // quit: the answer
	err       error  // shown under the form; the answers are kept
	data      []byte // export: what will be written
	width     int
	fields    []huh.Field // the form's fields (tests reach their cursors)
}

type dialogKind int

const (
	dialogExportName dialogKind = iota
	dialogExportOverwrite
	dialogQuit
)

func dialogKeys() *huh.KeyMap {
	k := huh.NewDefaultKeyMap()
	k.Quit.SetEnabled(false)
	k.Input.AcceptSuggestion.SetEnabled(false)
	return k
}

// newExportDialog asks for the file name; data is the TOML to write.
func newExportDialog(path string, data []byte, theme *huh.Theme, width int) *dialog {
	d := &dialog{kind: dialogExportName, path: path, data: data, width: width}
	in := huh.NewInput().Title("Export the answers to").Description("a TOML file; reopen it with gpuplan --config FILE").
		Value(&d.path).Validate(func(s string) error {
		if strings.TrimSpace(s) == "" {
			return errors.New("give a file name such as gpuplan.toml")
		}
		return nil
	})
	d.fields = []huh.Field{in}
	d.form = huh.NewForm(huh.NewGroup(in)).WithShowHelp(false).WithKeyMap(dialogKeys()).WithTheme(theme).WithWidth(width)
	return d
}

// askOverwrite turns the dialog into the overwrite question.
func (d *dialog) askOverwrite(theme *huh.Theme) {
	d.kind, d.overwrite, d.err = dialogExportOverwrite, false, nil
	d.form = huh.NewForm(huh.NewGroup(
		huh.NewConfirm().Title(Truncate("Overwrite "+d.path+"?", d.width-4)).
			Description("it exists; no keeps it and asks for another name").
			Affirmative("overwrite").Negative("no").Value(&d.overwrite),
	)).WithShowHelp(false).WithKeyMap(dialogKeys()).WithTheme(theme).WithWidth(d.width)
}

// newQuitDialog asks before quitting with answers not exported.
func newQuitDialog(theme *huh.Theme, width int) *dialog {
	d := &dialog{kind: dialogQuit, width: width}
	d.form = huh.NewForm(huh.NewGroup(
		huh.NewConfirm().Title("Quit without exporting?").
			Description("the answers changed since the last export; ctrl+e exports them").
			Affirmative("quit").Negative("stay").Value(&d.quit),
	)).WithShowHelp(false).WithKeyMap(dialogKeys()).WithTheme(theme).WithWidth(width)
	return d
}

func (d *dialog) init() tea.Cmd { return d.form.Init() }

// done reports whether the form was answered.
func (d *dialog) done() bool { return d.form.State == huh.StateCompleted }

func (d *dialog) update(msg tea.Msg) tea.Cmd {
	f, cmd := d.form.Update(msg)
	d.form = f.(*huh.Form)
	return cmd
}

func (d *dialog) view(st *styles) string {
	title := map[dialogKind]string{dialogExportName: "Export", dialogExportOverwrite: "Export", dialogQuit: "Quit"}[d.kind]
	body := st.Heading.Render(title) + "\n" + d.form.View()
	if d.err != nil {
		body += "\n" + lipgloss.NewStyle().Width(d.width).Render(st.Bad.Render("✗ "+d.err.Error()))
	}
	return st.Dialog.Render(body)
}

// writeConfig writes data to path in a command: no file I/O in Update.
func writeConfig(path string, data []byte, overwrite bool) tea.Cmd {
	return func() tea.Msg {
		abs, err := filepath.Abs(path)
		if err != nil {
			abs = path
		}
		err = WriteFileAtomic(abs, data, overwrite)
		switch {
		case errors.Is(err, ErrFileExists):
			return fileExistsMsg{abs}
		case err != nil:
			return exportErrMsg{err}
		}
		return exportedMsg{abs}
	}
}

// exportConfig is the file to write: the answers, the estimate and the
// offer picked (the one in view, else the best).
func exportConfig(a *answers, r *result, picked *model.Offer, asOf string) ([]byte, error) {
	c, err := a.config()
	if err != nil {
		return nil, fmt.Errorf("fix the answers first: %w", err)
	}
	if picked == nil {
		picked = r.best()
	}
	if r.ok() {
		e := r.est
		if picked != nil && picked.Estimate != nil {
			e = picked.Estimate
		}
		c.Estimate = model.NewEstimateSummary(e)
	}
	if picked != nil {
		c.Selection = model.NewSelection(picked, asOf)
	}
	b, err := model.EncodeConfig(&c)
	if err != nil {
		return nil, fmt.Errorf("cannot export: %w", err)
	}
	return b, nil
}
