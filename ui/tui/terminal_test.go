package tui

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuplan/gpuplan/model"
)

func TestUTF8Locale(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	tests := []struct {
		name string
		env  func(string) string
		want bool
	}{
		{"nothing set: assumed UTF-8", env(), true},
		{"LANG=C", env("LANG", "C"), false},
		{"LANG=POSIX", env("LANG", "POSIX"), false},
		{"LANG=en_US.UTF-8", env("LANG", "en_US.UTF-8"), true},
		{"LANG=C.utf8", env("LANG", "C.utf8"), true},
		{"Latin-1", env("LANG", "de_DE.ISO-8859-1"), false},
		{"LC_ALL=C wins over a UTF-8 LANG", env("LC_ALL", "C", "LANG", "en_US.UTF-8"), false},
		{"LC_CTYPE wins over LANG", env("LC_CTYPE", "en_GB.UTF-8", "LANG", "C"), true},
		{"LC_ALL wins over LC_CTYPE", env("LC_ALL", "ja_JP.UTF-8", "LC_CTYPE", "C"), true},
	}
	for _, tt := range tests {
		if got := utf8Locale(tt.env); got != tt.want {
			t.Errorf("%s: utf8Locale = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// printable is termsafe.String: what a terminal would act on is shown as
// an escape, never dropped (a dropped character would make two names look
// the same) and never acted on.
func TestPrintable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"g6.xlarge", "g6.xlarge"},
		{"東京リージョン-１ «≈» ±½", "東京リージョン-１ «≈» ±½"},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},                // SGR from data: not ours
		{"title\x1b]0;pwned\x07 x", `title\x1b]0;pwned\a x`},        // OSC window title, BEL-terminated
		{"clip\x1b]52;c;aGk=\x1b\\ x", `clip\x1b]52;c;aGk=\x1b\ x`}, // OSC 52 clipboard, ST-terminated
		{"a\x1b[2J\x1b[Hb", `a\x1b[2J\x1b[Hb`},                      // clear screen, cursor home
		{"bell\x07 bs\b del\x7f", `bell\a bs\b del\x7f`},            // other C0 controls and DEL
		{"tab\there\nnew\rline", `tab\there\nnew\rline`},            // layout controls
		{"c1 \u009b31m csi", `c1 \u009b31m csi`},                    // C1 CSI (U+009B)
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`},                  // invalid UTF-8
		{"zero\u200bwidth", `zero\u200bwidth`},                      // invisible
	}
	for _, tt := range tests {
		if got := printable(tt.in); got != tt.want {
			t.Errorf("printable(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// termFrame keeps the program's own styling (SGR) and newlines, and drops
// anything else that could act on the terminal.
func TestTermFrame(t *testing.T) {
	tests := []struct {
		in    string
		ascii bool
		want  string
	}{
		{"\x1b[1;38;5;147mgpuplan\x1b[m\n┃ x", false, "\x1b[1;38;5;147mgpuplan\x1b[m\n┃ x"},
		{"a\x1b]0;t\x07b\n\x1b[2Jc", false, "ab\nc"},
		{"a\tb\rc", false, "a b c"},
		// ASCII: one cell for one cell, SGR untouched.
		{"╭──╮\n│ \x1b[1m✓\x1b[m │\n╰──╯", true, "+--+\n| \x1b[1mv\x1b[m |\n+--+"},
		{"█▓▒░▚· ✗ × … › ┃", true, "#%+:~. x x ~ > |"},
		{"東京 é", true, "???? ?"},
	}
	for _, tt := range tests {
		got := termFrame(tt.in, tt.ascii)
		if got != tt.want {
			t.Errorf("termFrame(%q, %v) = %q, want %q", tt.in, tt.ascii, got, tt.want)
		}
		if tt.ascii && ansi.StringWidth(ansi.Strip(got)) != ansi.StringWidth(ansi.Strip(tt.in)) {
			t.Errorf("termFrame(%q) changed the width", tt.in)
		}
	}
}

// FuzzTermFrame: whatever a frame holds, what reaches the terminal has no
// escape sequence but SGR and no control but newline; in ASCII mode it is
// ASCII with every line as wide as before.
func FuzzTermFrame(f *testing.F) {
	for _, s := range []string{"plain", "\x1b[31mred\x1b[m", "\x1b]52;c;aGk=\x07", "╭─╮\n│東│", "\u009b2J", "\x1b[", "\x1b[1;2", "a\x1bPx\x1b\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, ascii := range []bool{false, true} {
			out := termFrame(s, ascii)
			rest := sgrRE.ReplaceAllString(out, "")
			for _, r := range rest {
				if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f {
					t.Fatalf("termFrame(%q, %v) = %q keeps control %U", s, ascii, out, r)
				}
				if ascii && r >= 0x80 {
					t.Fatalf("termFrame(%q, ascii) = %q keeps %q", s, out, r)
				}
			}
		}
		if p := printable(s); strings.ContainsAny(p, "\x1b\n\r\x07") {
			t.Fatalf("printable(%q) = %q", s, p)
		}
	})
}

// A person on a LANG=C terminal sees ASCII only, laid out as in UTF-8.
func TestASCIIScreen(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		m := start(t, newTestApp(t, cjkCatalog(t), Options{}), append([]tea.Msg{size(sz[0], sz[1])}, bertAnswers()...)...)
		m.ascii = true
		view := m.View().Content
		checkFits(t, view, sz[0], sz[1])
		text := ansi.Strip(view)
		for _, r := range text {
			if r >= 0x80 {
				t.Fatalf("%dx%d: non-ASCII %q on the screen:\n%s", sz[0], sz[1], r, text)
			}
		}
		if !strings.Contains(text, "provider") || !strings.Contains(text, "+---") && !strings.Contains(text, "-----") {
			t.Errorf("%dx%d: table or borders missing:\n%s", sz[0], sz[1], text)
		}
		m.ascii = false
		if utf := ansi.Strip(m.View().Content); strings.Count(utf, "\n") != strings.Count(text, "\n") {
			t.Errorf("%dx%d: ASCII has %d lines, UTF-8 %d", sz[0], sz[1], strings.Count(text, "\n"), strings.Count(utf, "\n"))
		}
	}
}

// ctrl+z suspends (the pty test in the main package proves the stop and
// the return); ctrl+z works on every screen, dialogs included.
func TestCtrlZSuspends(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	for name, mm := range map[string]app{"questions": m, "quit dialog": drive(t, m, runes("x"), ctrlC)} {
		_, cmd := mm.Update(ctrlZ)
		if cmd == nil {
			t.Fatalf("%s: ctrl+z gave no command", name)
		}
		if _, ok := cmd().(tea.SuspendMsg); !ok {
			t.Errorf("%s: ctrl+z did not suspend", name)
		}
	}
}

// The background is asked once, from Init, and its answer restyles the
// screen: a light terminal gets the light colours, in the panel (cached
// drawing dropped) and huh's fields alike.
func TestBackgroundAnswerRestyles(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	dark := m.View().Content
	th := m.theme.(*theme)
	if !th.dark {
		t.Fatal("the theme does not start dark")
	}
	m = drive(t, m, tea.BackgroundColorMsg{Color: ansiWhite{}})
	if th.dark {
		t.Error("a light background left the theme dark")
	}
	light := m.View().Content
	if light == dark {
		t.Error("the screen looks the same on a light background")
	}
	if ansi.Strip(light) != ansi.Strip(dark) {
		t.Error("restyling changed the text")
	}
}

// ansiWhite is a light background colour.
type ansiWhite struct{}

func (ansiWhite) RGBA() (r, g, b, a uint32) { return 0xffff, 0xffff, 0xffff, 0xffff }

var sgrRE = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// The accessible prompts under LANG=C: ASCII, also when a character is
// split across writes.
func TestASCIIWriter(t *testing.T) {
	var b strings.Builder
	w := &asciiWriter{w: &b}
	in := "✗ page · 東京 ok\n"
	for i := 0; i < len(in); i++ { // one byte per write: every character split
		w.Write([]byte{in[i]})
	}
	if got, want := b.String(), "x page . ???? ok\n"; got != want {
		t.Errorf("asciiWriter wrote %q, want %q", got, want)
	}
}

// ACCESSIBLE=1 under LANG=C: the prompts are ASCII; the summary on stdout
// (which may be saved) is left as it is.
func TestAccessibleASCII(t *testing.T) {
	var out, prompts bytes.Buffer
	script := strings.Repeat("\n", 19) + "0\n0\n" + strings.Repeat("\n", 5) + "\n"
	getenv := func(k string) string {
		if k == "LANG" {
			return "C"
		}
		return ""
	}
	err := Run(context.Background(), testCatalog(t), Options{Accessible: true, In: strings.NewReader(script), Out: &out, Err: &prompts, Getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range prompts.String() {
		if r >= 0x80 {
			t.Fatalf("non-ASCII %q in the prompts:\n%s", r, prompts.String())
		}
	}
	if !strings.Contains(prompts.String(), "== ") || !strings.Contains(out.String(), "best:") {
		t.Errorf("prompts or summary missing:\n%s\n%s", prompts.String(), out.String())
	}
}

// Under LANG=C the screens' signs and symbols read as ASCII of the same
// width, not as "?" (trial 15 F10: "VRAM ?51%"): every non-ASCII glyph the
// panel, tips, notes and keys use has its own fallback.
func TestASCIIGlyphs(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"VRAM −51%", "VRAM -51%"},
		{"≥ 2 GPUs, ≤ 8", "> 2 GPUs, < 8"},
		{"no s² scores", "no s2 scores"},
		{"$/h ÷ GPUs", "$/h / GPUs"},
		{"↺ batch size followed the model", "* batch size followed the model"},
		{"δ = 1 h", "d = 1 h"},
		{"ZeRO §3.1", "ZeRO S3.1"},
		{"↑ up • ↓ down • ✗ 1 × 2 · … ≈ ±", "^ up * v down * x 1 x 2 . ~ ~ +"},
		{"file ≠ catalog", "file # catalog"}, // Modula-2's not-equal: one cell, as the box was laid out
		{"東", "??"},                          // no fallback: one ? per cell, the layout holds
	} {
		if got := toASCII(tt.in); got != tt.want {
			t.Errorf("toASCII(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// On a LANG=C terminal no "?" stands for a glyph of the program's own
// text: each "?" on the ASCII screens is one the UTF-8 screen has too
// (testCatalog's names are ASCII, so the two screens align rune by rune).
func TestASCIIScreensNoQuestionMarks(t *testing.T) {
	answered := bertAnswers()
	for _, sc := range []struct {
		name string
		keys []tea.Msg
		opts Options
	}{
		{"filled, with a tip's VRAM −%", answered[:len(answered)-4], Options{}},
		{"qlora tips", nil, Options{Config: qloraConfig(nil, model.OnDemand, 0)}},
		{"offers", answered, Options{}},
		{"detail", append(append([]tea.Msg{}, answered...), enter), Options{}},
		{"help", msgs(runes("?")), Options{}},
		{"warnings", nil, Options{Warnings: []string{downloadsWarning}}},
	} {
		for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
			m := start(t, newTestApp(t, testCatalog(t), sc.opts), append([]tea.Msg{size(sz[0], sz[1])}, sc.keys...)...)
			// The state a LANG=C program is in (ascii is set at start,
			// run.go, so every layout has it: the help's L 简体中文 is off),
			// drawn in UTF-8 and in ASCII.
			m.ascii = true
			m.layout()
			utf := []rune(ansi.Strip(termFrame(m.render(), false)))
			asc := []rune(ansi.Strip(m.View().Content))
			if len(utf) != len(asc) {
				t.Fatalf("%s at %dx%d: %d runes in UTF-8, %d in ASCII", sc.name, sz[0], sz[1], len(utf), len(asc))
			}
			for i, r := range asc {
				if r == '?' && utf[i] != '?' {
					lo, hi := max(i-30, 0), min(i+30, len(utf))
					t.Errorf("%s at %dx%d: %q became ? in %q", sc.name, sz[0], sz[1], utf[i], string(utf[lo:hi]))
					break
				}
			}
		}
	}
}
