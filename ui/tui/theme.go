package tui

import (
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
)

// theme is huh's Charm theme with buttons that show which one is chosen
// without colour: [on]  off . It implements huh.Theme, whose Theme(isDark)
// huh v2 calls on every render of a field: the styles are built once per
// background and kept. The background is the configurator's, not the
// field's guess (huh's fields assume light until told): dark until the
// terminal answers the one query Init sends, then what it said.
type theme struct {
	dark   bool
	styles [2]*huh.Styles // light, dark; built when first asked for
}

// newTheme starts dark, the common terminal and the guess v1 made too.
func newTheme() *theme { return &theme{dark: true} }

// Theme returns the styles for the configurator's background; the
// argument (a field's own guess) is ignored.
func (t *theme) Theme(bool) *huh.Styles {
	i := 0
	if t.dark {
		i = 1
	}
	if t.styles[i] == nil {
		t.styles[i] = buildTheme(t.dark)
	}
	return t.styles[i]
}

func buildTheme(dark bool) *huh.Styles {
	s := huh.ThemeCharm(dark)
	for _, f := range []*huh.FieldStyles{&s.Focused, &s.Blurred} {
		f.FocusedButton = f.FocusedButton.Border(lipgloss.Border{Left: "[", Right: "]"}, false, true, false, true).
			Bold(true).Padding(0, 1)
		f.BlurredButton = f.BlurredButton.Border(lipgloss.Border{Left: " ", Right: " "}, false, true, false, true).
			Padding(0, 1)
	}
	// A field's error (huh draws it under the form: the export dialog's
	// "give a file name") is marked ✗, as the dialog's own errors and the
	// footer's are, not with huh's "*" (toASCII makes it x).
	s.Focused.ErrorMessage = s.Focused.ErrorMessage.SetString("✗")
	s.Blurred.ErrorMessage = s.Blurred.ErrorMessage.SetString("✗")
	return s
}
