package tui

import (
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
)

// newTheme is huh's Charm theme (adaptive colours) with buttons that show
// which one is chosen without colour: [on]  off .
func newTheme() *huh.Theme {
	t := huh.ThemeCharm()
	for _, f := range []*huh.FieldStyles{&t.Focused, &t.Blurred} {
		f.FocusedButton = f.FocusedButton.Border(lipgloss.Border{Left: "[", Right: "]"}, false, true, false, true).
			Bold(true).Padding(0, 1)
		f.BlurredButton = f.BlurredButton.Border(lipgloss.Border{Left: " ", Right: " "}, false, true, false, true).
			Padding(0, 1)
	}
	return t
}
