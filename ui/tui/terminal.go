package tui

import (
	"io"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/mattn/go-runewidth"

	"github.com/gpuplan/gpuplan/ui/termsafe"
)

// utf8Locale reports whether the locale can show UTF-8: the first of
// LC_ALL, LC_CTYPE and LANG that is set decides (POSIX precedence), and it
// must name a UTF-8 charset ("en_US.UTF-8", "C.utf8"). C and POSIX, or any
// other charset, cannot. With none set we assume UTF-8: that is what a
// bare container or ssh session on a modern terminal shows, and the
// screens would otherwise fall back for nearly every such user.
func utf8Locale(getenv func(string) string) bool {
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := getenv(k); v != "" {
			v = strings.ToLower(v)
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
		}
	}
	return true
}

// printable is termsafe.String, the one sanitiser of text from outside
// the program (names from catalogs, overlays, plan and config files,
// messages quoting them) before it is drawn: whatever a terminal would act
// on or not show is written as a visible escape (\x1b, \n, \u200b), so
// a name never moves the cursor, sets the title, writes the clipboard or
// hides a character.
func printable(s string) string { return termsafe.String(s) }

// typable reports whether a path can be the export dialog's default name:
// the text input drops control characters (and cannot show invalid
// UTF-8), so answers opened from "a\x1b]0;xb.toml" were exported to
// "a]0;xb.toml", another file, without a word. Such a path is not offered;
// the default name is, in view.
func typable(path string) bool { return termsafe.String(path) == path }

// termFrame is the frame as written to the terminal: only the styling
// the program itself emits (SGR, ESC[…m) survives; any other escape
// sequence or control that reached the frame from data is dropped
// (printable at the sources is the first line; this is the last). With
// ascii (a non-UTF-8 locale) every other character becomes ASCII of the
// same width: box drawing turns into +-|, markers into x, v, >, and
// anything else into one ? per cell, so the layout still lines up.
func termFrame(frame string, ascii bool) string {
	s := filterControls(frame, true)
	if ascii {
		s = toASCII(s)
	}
	return s
}

// filterControls removes controls and escape sequences from s, keeping
// newlines and, when keepSGR, whole SGR sequences (ESC [ params m). It
// returns s itself when there is nothing to remove.
func filterControls(s string, keepSGR bool) string {
	clean := utf8.ValidString(s)
	for i := 0; i < len(s) && clean; i++ {
		c := s[i]
		if c < 0x20 && !(keepSGR && (c == '\n' || c == 0x1b)) || c == 0x7f ||
			c == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9f { // a C1 control, U+0080–U+009F
			clean = false
			break
		}
		if keepSGR && s[i] == 0x1b {
			if end, ok := sgrEnd(s, i); ok {
				i = end - 1
				continue
			}
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			if end, ok := sgrEnd(s, i); ok && keepSGR {
				b.WriteString(s[i:end])
				i = end
				continue
			}
			i = escapeEnd(s, i)
		case c == '\n' && keepSGR:
			b.WriteByte(c)
			i++
		case c == '\t' || c == '\n' || c == '\r':
			b.WriteByte(' ')
			i++
		case c < 0x20 || c == 0x7f:
			i++
		case c < 0x80:
			b.WriteByte(c)
			i++
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError && !(r >= 0x80 && r <= 0x9f) {
				b.WriteString(s[i : i+n])
			}
			i += n
		}
	}
	return b.String()
}

// sgrEnd returns the end of the SGR sequence at s[i] (ESC [ digits,
// semicolons or colons, then m), if that is what starts there.
func sgrEnd(s string, i int) (int, bool) {
	if i+1 >= len(s) || s[i+1] != '[' {
		return 0, false
	}
	for j := i + 2; j < len(s); j++ {
		switch c := s[j]; {
		case c >= '0' && c <= '9' || c == ';' || c == ':':
		case c == 'm':
			return j + 1, true
		default:
			return 0, false
		}
	}
	return 0, false
}

// escapeEnd returns the index after the escape sequence at s[i] (ECMA-48:
// CSI ends at a final byte 0x40–0x7E; OSC, DCS, SOS, PM and APC end at
// BEL or ST; other escapes are ESC and one byte). An unterminated
// sequence runs to the end of s.
func escapeEnd(s string, i int) int {
	if i+1 >= len(s) {
		return len(s)
	}
	switch s[i+1] {
	case '[':
		for j := i + 2; j < len(s); j++ {
			if s[j] >= 0x40 && s[j] <= 0x7e {
				return j + 1
			}
		}
		return len(s)
	case ']', 'P', 'X', '^', '_':
		for j := i + 2; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
		}
		return len(s)
	}
	return i + 2
}

// asciiFor maps the characters the screens use to ASCII of the same
// width (one cell each).
var asciiFor = map[rune]byte{
	// box drawing: lipgloss's normal, rounded, thick and double borders, huh's bars
	'─': '-', '━': '-', '═': '=', '│': '|', '┃': '|', '║': '|',
	'┌': '+', '┐': '+', '└': '+', '┘': '+', '╭': '+', '╮': '+', '╰': '+', '╯': '+',
	'┏': '+', '┓': '+', '┗': '+', '┛': '+', '╔': '+', '╗': '+', '╚': '+', '╝': '+',
	'├': '+', '┤': '+', '┬': '+', '┴': '+', '┼': '+', '╠': '+', '╣': '+', '╦': '+', '╩': '+', '╬': '+',
	// the VRAM bar's segments
	'█': '#', '▓': '%', '▒': '+', '░': ':', '▚': '~',
	// markers and punctuation
	'✓': 'v', '✔': 'v', '✗': 'x', '✘': 'x', '×': 'x', '·': '.', '•': '*', '…': '~',
	'›': '>', '❯': '>', '▸': '>', '▶': '>', '→': '>', '←': '<', '↑': '^', '↓': 'v',
	'–': '-', '—': '-', '≈': '~', '≠': '#', '±': '+', '«': '<', '»': '>', '‘': '\'', '’': '\'', '“': '"', '”': '"',
	'\u00a0': ' ',
	'◆':      '@', // the time-against-cost chart's selected offer
	// signs and symbols of the panel, tips and notes ("VRAM −51%", "≥ 2
	// GPUs", "s² scores", "↺ batch size followed the model")
	'−': '-', '≤': '<', '≥': '>', '²': '2', '³': '3', '÷': '/', '↺': '*', 'δ': 'd', '§': 'S',
}

// toASCII replaces every non-ASCII character of s (SGR sequences are
// ASCII and pass) by asciiFor's, or by one ? per cell it takes.
func toASCII(s string) string {
	i := 0
	for i < len(s) && s[i] < 0x80 {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case asciiFor[r] != 0:
			b.WriteByte(asciiFor[r])
		default:
			b.WriteString(strings.Repeat("?", runewidth.RuneWidth(r)))
		}
	}
	return b.String()
}

// asciiWriter writes through toASCII (the accessible prompts under a
// non-UTF-8 locale). A character split across writes is held back until
// the rest of it arrives.
type asciiWriter struct {
	w    io.Writer
	rest []byte
}

func (a *asciiWriter) Write(p []byte) (int, error) {
	buf := append(a.rest, p...)
	cut := len(buf)
	for i := len(buf) - 1; i >= 0 && i >= len(buf)-utf8.UTFMax; i-- {
		if utf8.RuneStart(buf[i]) {
			if !utf8.FullRune(buf[i:]) {
				cut = i
			}
			break
		}
	}
	a.rest = append([]byte(nil), buf[cut:]...)
	_, err := io.WriteString(a.w, toASCII(string(buf[:cut])))
	return len(p), err
}

// typedSafe keeps what a key or a paste types to the runes a terminal
// shows as themselves (termsafe.Safe): a pasted or typed bidi override
// (U+202E), zero-width space (U+200B), BOM or control character would
// sit in an input field and in every line that echoes it, unseen or
// reordering the text around it. Tabs and line breaks of a paste become
// spaces (every field is one line). It returns nil for a key that typed
// only such runes; other messages pass as they are.
func typedSafe(msg tea.Msg) tea.Msg {
	switch k := msg.(type) {
	case tea.PasteMsg:
		k.Content = strings.Map(func(r rune) rune {
			switch {
			case r == '\t' || r == '\n' || r == '\r':
				return ' '
			case termsafe.Safe(r):
				return r
			}
			return -1
		}, k.Content)
		return k
	case tea.KeyPressMsg:
		// Only the invisible runes beyond ASCII: tab, enter and the
		// control keys are keys, which the Text of some terminals holds.
		t := strings.Map(func(r rune) rune {
			if r >= utf8.RuneSelf && !termsafe.Safe(r) {
				return -1
			}
			return r
		}, k.Text)
		switch {
		case t == k.Text:
		case t == "":
			return nil
		default:
			k.Text = t
		}
		return k
	}
	return msg
}
