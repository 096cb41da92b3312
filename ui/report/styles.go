package report

import (
	"io"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Styles are built once per renderer and kept on the model or report;
// colours adapt to light and dark backgrounds, and the renderer drops
// them when the output has no colour (NO_COLOR, pipes, TERM=dumb).
type Styles struct {
	Title, Heading, Value, Muted, Good, Bad, Warn, Key lipgloss.Style
	Panel, Dialog                                      lipgloss.Style
	// Configurator: the header bar, the offers table.
	Header, TableHeader, TableCell, TableSelected lipgloss.Style
	// Segment colours for the VRAM bar, in Memory order: weights,
	// gradients, optimizer states, activations, KV cache, overhead.
	Segments [6]lipgloss.Style
}

// Glyphs distinguish the bar's segments without colour.
var segmentGlyphs = [6]string{"█", "▓", "▒", "░", "▚", "·"}

// NewStyles builds the styles for renderer r.
func NewStyles(r *lipgloss.Renderer) Styles {
	c := func(light, dark string) lipgloss.AdaptiveColor {
		return lipgloss.AdaptiveColor{Light: light, Dark: dark}
	}
	s := Styles{
		Title:   r.NewStyle().Bold(true).Foreground(c("#5A3FC0", "#B9A6FF")),
		Heading: r.NewStyle().Bold(true),
		Value:   r.NewStyle().Bold(true),
		Muted:   r.NewStyle().Foreground(c("#777777", "#8A8A8A")),
		Good:    r.NewStyle().Foreground(c("#1A7F37", "#56D364")),
		Bad:     r.NewStyle().Foreground(c("#CF222E", "#FF7B72")).Bold(true),
		Warn:    r.NewStyle().Foreground(c("#9A6700", "#E3B341")),
		Key:     r.NewStyle().Foreground(c("#5A3FC0", "#B9A6FF")).Bold(true),
		Panel: r.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(c("#C0C0C0", "#444444")).
			Padding(0, 1),
		Dialog: r.NewStyle().Border(lipgloss.DoubleBorder()).BorderForeground(c("#5A3FC0", "#B9A6FF")).
			Padding(1, 2),
	}
	s.Header = r.NewStyle().Bold(true).Foreground(c("#5A3FC0", "#B9A6FF"))
	s.TableHeader = r.NewStyle().Bold(true).Padding(0, 1).BorderStyle(lipgloss.NormalBorder()).BorderBottom(true).
		BorderForeground(c("#C0C0C0", "#444444"))
	s.TableCell = r.NewStyle().Padding(0, 1)
	// Reverse video marks the row without colour too (NO_COLOR, 16 colours).
	s.TableSelected = r.NewStyle().Bold(true).Reverse(true)
	colours := [6]lipgloss.AdaptiveColor{
		c("#0969DA", "#58A6FF"), // weights
		c("#8250DF", "#BC8CFF"), // gradients
		c("#BF3989", "#FF7EB6"), // optimizer states
		c("#1A7F37", "#56D364"), // activations
		c("#9A6700", "#E3B341"), // KV cache
		c("#6E7781", "#8B949E"), // overhead
	}
	for i, col := range colours {
		s.Segments[i] = r.NewStyle().Foreground(col)
	}
	return s
}

// ReportRenderer returns a renderer for printed reports on w. It never
// queries the terminal (a terminal that does not answer the background
// query would stall for seconds): colours are off with NO_COLOR or
// TERM=dumb (and off anyway when w is not a terminal), and the background
// is taken as dark unless COLORFGBG says light.
func ReportRenderer(w io.Writer, getenv func(string) string) *lipgloss.Renderer {
	r := lipgloss.NewRenderer(w)
	if getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" {
		r.SetColorProfile(termenv.Ascii)
	}
	r.SetHasDarkBackground(!lightBackground(getenv("COLORFGBG")))
	return r
}

// lightBackground reads COLORFGBG ("fg;bg", as rxvt and many terminals
// set it): background colours 7 and 9–15 are light.
func lightBackground(colorfgbg string) bool {
	i := strings.LastIndexByte(colorfgbg, ';')
	if i < 0 {
		return false
	}
	bg, err := strconv.Atoi(colorfgbg[i+1:])
	return err == nil && (bg == 7 || bg >= 9 && bg <= 15)
}
