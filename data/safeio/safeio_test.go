package safeio

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "ok.toml")
	if err := os.WriteFile(file, []byte("a = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.toml")
	if err := os.WriteFile(big, make([]byte, 33), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := mkfifo(fifo); err != nil {
		t.Skip("mkfifo:", err)
	}
	link := func(name, target string) string {
		p := filepath.Join(dir, name)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// A socket: open(2) of one fails with ENXIO, so only a stat before the
	// open can say what it is.
	sock := filepath.Join(dir, "sock")
	if l, err := net.Listen("unix", sock); err == nil {
		t.Cleanup(func() { l.Close() })
	} else {
		sock = ""
	}
	small := Kind{"test file", 32}
	tests := []struct {
		name, path string
		want       string // error substring; "" reads the file
		err        error
	}{
		{"regular file", file, "", nil},
		{"symlink to a regular file", link("ok-link", file), "", nil},
		{"33 bytes over a 32-byte cap", big, "above the 32 bytes limit for a test file", ErrTooLarge},
		{"FIFO", fifo, "is a FIFO", ErrNotRegular},
		{"symlink to a FIFO", link("fifo-link", fifo), "is a FIFO", ErrNotRegular},
		{"/dev/zero", "/dev/zero", "is a character device", ErrNotRegular},
		{"symlink to /dev/zero", link("zero-link", "/dev/zero"), "is a character device", ErrNotRegular},
		{"directory", dir, "is a directory", ErrNotRegular},
		{"missing", filepath.Join(dir, "nope"), "no such file or directory", nil},
		{"dangling symlink", link("dangling", filepath.Join(dir, "nope")), "no such file or directory", nil},
		{"socket", sock, "is a socket", ErrNotRegular},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.path == "" {
				t.Skip("no unix socket here")
			}
			b, err := ReadFile(tt.path, small)
			if tt.want == "" {
				if err != nil || string(b) != "a = 1\n" {
					t.Fatalf("ReadFile = %q, %v; want the file", b, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ReadFile error = %v, want %q", err, tt.want)
			}
			if tt.err != nil && !errors.Is(err, tt.err) {
				t.Errorf("ReadFile error %v does not wrap %v", err, tt.err)
			}
			if strings.Contains(err.Error(), tt.path) {
				t.Errorf("error %q repeats the path; callers add it", err)
			}
		})
	}
}

// TestReadFileStalled reads /proc/kmsg: a regular file by stat that waits
// for the next kernel message, which Go parks in its poller. It must end
// with ErrStalled after ReadTimeout instead of blocking; the test binary's
// -timeout is the only clock. Only root can open it (and a message that
// arrives meanwhile is consumed and ends the read early: then the test
// skips).
func TestReadFileStalled(t *testing.T) {
	f, err := os.Open("/proc/kmsg")
	if err != nil {
		t.Skip("/proc/kmsg:", err)
	}
	f.Close()
	b, err := ReadFile("/proc/kmsg", Kind{"test file", 1 << 20})
	if err == nil {
		t.Skipf("a kernel message arrived (%d bytes); nothing waited", len(b))
	}
	if !errors.Is(err, ErrStalled) {
		t.Fatalf("ReadFile(/proc/kmsg) error = %v, want ErrStalled", err)
	}
}

func TestCheckTOMLDepth(t *testing.T) {
	deep := func(n int, open, close string) string {
		return "a = " + strings.Repeat(open, n) + strings.Repeat(close, n) + "\n"
	}
	tests := []struct {
		name, in string
		want     string // "" is accepted
	}{
		{"flat file", "schema_version = 1\n[[instance]]\nprices = [{ region = \"x\", on_demand = 1 }]\n", ""},
		{"8 nested arrays is the limit", deep(8, "[", "]"), ""},
		{"9 nested arrays", deep(9, "[", "]"), "line 1: tables, arrays and dotted keys nest more than 8 deep"},
		{"9 nested inline tables", "a = " + strings.Repeat("{b=", 9) + "1" + strings.Repeat("}", 9), "nest more than 8"},
		{"a dotted key of 8 segments in a table", "[t]\n" + strings.Repeat("b.", 7) + "c = 1", ""},
		{"a dotted key of 10 segments", strings.Repeat("b.", 9) + "c = 1", "line 1: tables"},
		{"a dotted key inside 4 inline tables", "a = {b={c={d={" + strings.Repeat("e.", 5) + "f=1}}}}", "nest more than 8"},
		{"a dotted table header", "[" + strings.Repeat("b.", 8) + "c]", "nest more than 8"},
		{"40 KB dotted key in an inline table", "a = {" + strings.Repeat("b.", 20000) + "c = 1}", "nest more than 8"},
		{"floats and dates count one dot", "a = [1.5, 2.5, 1979-05-27T07:32:00.999]\nb = {c = 3.25, d = 0.5}", ""},
		{"dots in quoted keys are text", `"a.b.c.d.e.f.g.h.i.j" = 1`, ""},
		{"brackets in a basic string do not count", `a = "` + strings.Repeat("[", 40) + `"`, ""},
		{"escaped quote keeps the string open", `a = "\"` + strings.Repeat("{", 40) + `"`, ""},
		{"brackets in a literal string", `a = '` + strings.Repeat("{", 40) + `'`, ""},
		{"brackets in a comment", "# " + strings.Repeat("[", 40) + "\na = 1", ""},
		{"brackets in a multi-line string", "a = \"\"\"\n" + strings.Repeat("[", 40) + "\n\"\"\"\n", ""},
		{"multi-line literal string", "a = '''\n" + strings.Repeat("{", 40) + "'''\n", ""},
		{"quotes closing a multi-line string", "a = \"\"\"x\"\"\"\"\"\nb = " + strings.Repeat("[", 9), "line 2:"},
		{"bomb after a string on line 3", "a = \"#\"\n\nb = " + strings.Repeat("[", 9), "line 3:"},
		{"unterminated string ends at the newline", "a = \"x\nb = " + strings.Repeat("[", 9), "line 2:"},
		{"44 KB nesting bomb", "a = " + strings.Repeat("{b=", 44<<10/3), "nest more than 8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckTOMLDepth([]byte(tt.in))
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("CheckTOMLDepth = %v, want nil", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("CheckTOMLDepth = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestCheckName(t *testing.T) {
	tests := []struct {
		name, in string
		want     string // "" is accepted
	}{
		{"hub id", "meta-llama/Llama-3.1-8B", ""},
		{"non-ASCII letters", "模型-7b ünïcode", ""},
		{"a U+FFFD written as such", "a\uFFFDb", ""},
		{"256 bytes is the limit", strings.Repeat("a", 256), ""},
		{"257 bytes", strings.Repeat("a", 257), "257 bytes long, the limit is 256"},
		{"newline", "x\ncurl evil | sh", `\n (newline) at byte 1`},
		{"carriage return", "x\r", `\r (carriage return)`},
		{"tab", "a\tb", `\t (tab)`},
		{"ESC", "\x1b[31mred", `\x1b (ESC) at byte 0`},
		{"NUL", "a\x00", `\x00 (NUL)`},
		{"DEL", "a\x7f", `\x7f (DEL)`},
		{"C1 CSI", "a\u009b", "U+009B"},
		{"right-to-left override", "a\u202eb", "U+202E"},
		{"line separator (a YAML 1.1 line break)", "a\u2028b: 1", "U+2028"},
		{"NEL", "a\u0085b", "U+0085"},
		{"invalid UTF-8", "a\xffb", "invalid UTF-8 at byte 1"},
		{"truncated UTF-8", "a\xe6\xa8", "invalid UTF-8 at byte 1"},
		// UTS #39 Highly Restrictive: one script, or Latin with Han and its
		// companions; Common and Inherited characters go with any.
		{"Cyrillic х in a Latin type", "gpu_8\u0445_h100_sxm5", "mixes Latin and Cyrillic letters (U+0445 at byte 5)"},
		{"Cyrillic а appended", "gpu_8x_h100_sxm5_\u0430", "mixes Latin and Cyrillic letters (U+0430 at byte 17)"},
		{"Greek ο in a region", "us-east-1\u03bf", "mixes Latin and Greek letters"},
		{"Cyrillic first, then Latin", "\u0441pu", "mixes Cyrillic and Latin letters (U+0070 at byte 2)"},
		{"all Cyrillic", "\u0441\u0435\u0440\u0432\u0435\u0440-1", ""},
		{"all Greek with digits", "\u03b1\u03b2-8", ""},
		{"Japanese with Latin", "\u30e2\u30c7\u30eb\u540d-\u3082\u3067\u308b-7b", ""},
		{"Korean with Latin", "\ubaa8\ub378-7b", ""},
		{"Latin with a combining accent", "cafe\u0301", ""},
		{"Han with Cyrillic", "\u6a21\u0430", "mixes Han and Cyrillic letters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckName(tt.in)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("CheckName(%q) = %v, want nil", tt.in, err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("CheckName(%q) = %v, want %q", tt.in, err, tt.want)
			}
		})
	}
	if err := CheckSource("https://x/" + strings.Repeat("a", 2000)); err != nil {
		t.Errorf("CheckSource(2010-byte URL) = %v, want nil", err)
	}
}

func TestSanitize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"模型", "模型"},
		{"a\nb", `a\nb`},
		{"\x1b]11;?\x07", `\x1b]11;?\x07`},
		{"a\x00b\x7f", `a\x00b\x7f`},
		{"\u009b2J", `\x9b2J`},
		{"a\u202eb", `a\u202eb`},
		{"a\xffb", `a\xffb`},
		{"tab\there\r", `tab\there\r`},
	}
	for _, tt := range tests {
		if got := Sanitize(tt.in); got != tt.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzSanitize: whatever goes in, what comes out is valid UTF-8 without
// control characters, and clean names pass through unchanged.
func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"", "llama", "a\nb", "\x1b[2J", "\xff\xfe", "\u202e", "模型"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Sanitize(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Sanitize(%q) = %q: invalid UTF-8", s, out)
		}
		for _, r := range out {
			if forbidden(r) {
				t.Fatalf("Sanitize(%q) = %q: keeps %U", s, out, r)
			}
		}
		if check(s, len(s)) == nil && out != s {
			t.Fatalf("Sanitize(%q) = %q: changed a clean string", s, out)
		}
	})
}

// FuzzCheckTOMLDepth: the scan never panics and never accepts a file with
// more unquoted brackets open at once than the limit when there are no
// strings, comments or dots to hide or add to them.
func FuzzCheckTOMLDepth(f *testing.F) {
	for _, s := range []string{"a = [[1]]", "a = {b={c=1}}", `a = "[[["`, "a = '''\n[[['''", "# [[[", strings.Repeat("[", 20)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		err := CheckTOMLDepth(b)
		if strings.ContainsAny(string(b), "\"'#.") {
			return
		}
		depth, most := 0, 0
		for _, c := range b {
			switch c {
			case '[', '{':
				depth++
			case ']', '}':
				depth = max(depth-1, 0)
			}
			most = max(most, depth)
		}
		if (most > MaxTOMLDepth) != (err != nil) {
			t.Fatalf("depth %d, CheckTOMLDepth = %v", most, err)
		}
	})
}

// BenchmarkCheckTOMLDepth scans 1 MiB (four times the overlay cap) of
// catalog-like TOML: the cost the check adds before every decode.
func BenchmarkCheckTOMLDepth(b *testing.B) {
	entry := "[[instance]]\ntype = \"p4d.24xlarge\" # 8 × A100\ngpu = \"a100-40gb\"\nprices = [{ region = \"us-east-1\", on_demand = 32.7726, spot = 9.8 }]\n"
	in := []byte(strings.Repeat(entry, (1<<20)/len(entry)))
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if err := CheckTOMLDepth(in); err != nil {
			b.Fatal(err)
		}
	}
}
