package tui

import (
	"strings"
	"testing"
)

// Paths on screen (#29): a control character in a path the configurator
// prints is shown escaped, as Go's %q would, never dropped by the renderer,
// so two different paths never print the same. Before, "exported to" read
// /tmp/ab for /tmp/a\x1b]0;x\x07b and for /tmp/ab alike, and the overwrite
// question lost the escape the same way.
func TestPathsShownEscaped(t *testing.T) {
	for _, tt := range []struct{ path, want string }{
		{"/tmp/a\x1b]0;x\x07b.toml", `/tmp/a\x1b]0;x\ab.toml`},
		{"/tmp/a\nb.toml", `/tmp/a\nb.toml`},
		{"/tmp/a\tb\u200b.toml", `/tmp/a\tb\u200b.toml`},
		{"/tmp/ab.toml", "/tmp/ab.toml"},
	} {
		m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
		m = drive(t, m, exportedMsg{tt.path})
		if s := screenText(m); !strings.Contains(s, "exported to "+tt.want) {
			t.Errorf("exported %q: the footer does not show %s:\n%s", tt.path, tt.want, s)
		}
		m = drive(t, m, ctrlE)
		if m.dialog == nil {
			t.Fatal("ctrl+e opened no dialog")
		}
		m = drive(t, m, fileExistsMsg{tt.path})
		if s := screenText(m); !strings.Contains(s, "Overwrite "+tt.want+"?") {
			t.Errorf("exists %q: the question does not show %s:\n%s", tt.path, tt.want, s)
		}
	}
}

// Answers opened from a path with a control character (#29, found live):
// the export dialog offered that path in its text input, which drops
// control characters, so ctrl+e, enter, enter wrote "a]0;xb.toml", a file
// the user never named. The default name is offered instead.
func TestExportDefaultNameTypable(t *testing.T) {
	for _, tt := range []struct{ path, want string }{
		{"/tmp/a\x1b]0;x\x07b.toml", defaultExport},
		{"/tmp/a\xffb.toml", defaultExport},
		{"/tmp/ok.toml", "/tmp/ok.toml"},
	} {
		m := start(t, newTestApp(t, testCatalog(t), Options{ConfigPath: tt.path}), size(120, 40), ctrlE)
		if m.dialog == nil {
			t.Fatal("ctrl+e opened no dialog")
		}
		if m.dialog.path != tt.want {
			t.Errorf("opened from %q: the export offers %q, want %q", tt.path, m.dialog.path, tt.want)
		}
	}
}
