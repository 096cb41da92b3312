package report

import (
	"image/color"
	"io"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/gpuplan/gpuplan/ui/i18n"
)

// Renderer is how text is drawn on one output: the colour profile it is
// written with (Writer downsamples to it, or strips styling for pipes and
// TERM=dumb) and whether the background is dark. Lip Gloss v2 styles are
// plain values; the profile applies when the text is written.
type Renderer struct {
	Profile colorprofile.Profile
	Dark    bool
	// Plain is set when the output is not a terminal (a pipe or a file):
	// tables cut no names and draw no lines, so a name printed can be
	// pasted back into a flag (see Cut and table).
	Plain bool
	// Lang is the language text reports are written in; nil is English
	// (ui/i18n: a nil *Printer prints the English keys).
	Lang *i18n.Printer
}

// Writer wraps w so that what is written is downsampled to r's profile.
func (r *Renderer) Writer(w io.Writer) io.Writer {
	return &colorprofile.Writer{Forward: w, Profile: r.Profile}
}

// Styles are built once per renderer and kept on the model or report;
// colours follow the background (lipgloss.LightDark), and the renderer's
// writer drops them when the output has no colour (NO_COLOR, pipes,
// TERM=dumb).
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
func NewStyles(r *Renderer) Styles {
	lightDark := lipgloss.LightDark(r.Dark)
	c := func(light, dark string) color.Color {
		return lightDark(lipgloss.Color(light), lipgloss.Color(dark))
	}
	s := Styles{
		Title:   lipgloss.NewStyle().Bold(true).Foreground(c("#5A3FC0", "#B9A6FF")),
		Heading: lipgloss.NewStyle().Bold(true),
		Value:   lipgloss.NewStyle().Bold(true),
		Muted:   lipgloss.NewStyle().Foreground(c("#777777", "#8A8A8A")),
		Good:    lipgloss.NewStyle().Foreground(c("#1A7F37", "#56D364")),
		Bad:     lipgloss.NewStyle().Foreground(c("#CF222E", "#FF7B72")).Bold(true),
		Warn:    lipgloss.NewStyle().Foreground(c("#9A6700", "#E3B341")),
		Key:     lipgloss.NewStyle().Foreground(c("#5A3FC0", "#B9A6FF")).Bold(true),
		Panel: lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(c("#C0C0C0", "#444444")).
			Padding(0, 1),
		Dialog: lipgloss.NewStyle().Border(lipgloss.DoubleBorder()).BorderForeground(c("#5A3FC0", "#B9A6FF")).
			Padding(1, 2),
	}
	s.Header = lipgloss.NewStyle().Bold(true).Foreground(c("#5A3FC0", "#B9A6FF"))
	s.TableHeader = lipgloss.NewStyle().Bold(true).Padding(0, 1).BorderStyle(lipgloss.NormalBorder()).BorderBottom(true).
		BorderForeground(c("#C0C0C0", "#444444"))
	s.TableCell = lipgloss.NewStyle().Padding(0, 1)
	// Reverse video marks the row without colour too (NO_COLOR, 16 colours).
	s.TableSelected = lipgloss.NewStyle().Bold(true).Reverse(true)
	colours := [6]color.Color{
		c("#0969DA", "#58A6FF"), // weights
		c("#8250DF", "#BC8CFF"), // gradients
		c("#BF3989", "#FF7EB6"), // optimizer states
		c("#1A7F37", "#56D364"), // activations
		c("#9A6700", "#E3B341"), // KV cache
		c("#6E7781", "#8B949E"), // overhead
	}
	for i, col := range colours {
		s.Segments[i] = lipgloss.NewStyle().Foreground(col)
	}
	return s
}

// ReportRenderer returns a renderer for printed reports on w. It never
// queries the terminal (a terminal that does not answer the background
// query would stall for seconds): colours are off with NO_COLOR or
// TERM=dumb (and off anyway when w is not a terminal), and the background
// is taken as dark unless COLORFGBG says light. Reports are in the
// environment's language (Lang).
func ReportRenderer(w io.Writer, getenv func(string) string) *Renderer {
	r := &Renderer{Profile: colorprofile.Detect(w, profileEnv(getenv)), Dark: !lightBackground(getenv("COLORFGBG"))}
	// The language follows LC_ALL, LC_MESSAGES, LANG (i18n.Detect); a
	// --lang flag or config key replaces r.Lang with
	// i18n.New(i18n.Resolve(flag, key, getenv)).
	r.Lang = i18n.New(i18n.Detect(getenv))
	if getenv("NO_COLOR") != "" && r.Profile > colorprofile.ASCII {
		r.Profile = colorprofile.ASCII // any value counts (no-color.org), not only the ones ParseBool reads
	}
	return r
}

// profileEnv is the environment colorprofile.Detect reads, taken through
// getenv so tests can set it. TMUX is left out: with it Detect runs
// `tmux info`, a process per command for a colour depth TERM already tells.
func profileEnv(getenv func(string) string) []string {
	var env []string
	for _, k := range []string{"TERM", "COLORTERM", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "WT_SESSION", "GOOGLE_CLOUD_SHELL"} {
		if v := getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return env
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
