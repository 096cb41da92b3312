package safeio

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/show"
)

// Length caps of name-like values, in bytes. A model id on the Hugging Face
// Hub is at most 96 characters (namespace and name); instance types,
// regions and providers are far shorter. Sources are URLs or citations.
const (
	MaxNameBytes   = 256
	MaxSourceBytes = 2048
)

// CheckName reports why s cannot be a name-like value (a model name,
// _name_or_path, instance type, region, provider, alias): invalid UTF-8,
// a control character (C0 including newline, tab, ESC and NUL; DEL; C1), a
// bidirectional override that makes text display in another order, an
// invisible character (show.Invisible: zero-width space or joiner, soft
// hyphen, byte-order mark, variation selector, Hangul filler, a blank
// such as U+00A0 or U+2800, …; two regions reading "us-east-1" must be
// one region), a stack of combining marks (show.MarkStack), letters of scripts that do not belong
// together (show.MixedScript: a Cyrillic х in "gpu_8х_h100_sxm5" makes a type
// that reads as Lambda's own), or more than MaxNameBytes bytes. Names
// end up in tables, shell scripts and YAML: they are data, never layout. The error names the character and how to
// fix it; callers prefix the file and field.
func CheckName(s string) error {
	if err := check(s, MaxNameBytes); err != nil {
		return err
	}
	if i := strings.IndexFunc(s, show.Invisible); i >= 0 {
		r, _ := utf8.DecodeRuneInString(s[i:])
		return model.Msg("invisible character U+%04X at byte %d; names must show every character they hold, delete it", r, i)
	}
	if i := show.MarkStack(s); i >= 0 {
		return model.Msg("more than %d combining marks on one letter, or one mark twice, at byte %d; names must read as the letters they hold, delete the marks", show.MaxMarks, i)
	}
	if i, a, b := show.MixedScript(s); i >= 0 {
		r, _ := utf8.DecodeRuneInString(s[i:])
		return model.Msg("mixes %s and %s letters (U+%04X at byte %d): a name that looks like another must be that name; retype it in one script", a, b, r, i)
	}
	return nil
}

// CheckSource is CheckName for a source citation, which may be a long URL;
// it refuses control and bidirectional characters, not the invisible ones
// (a citation is not compared as a name).
func CheckSource(s string) error { return check(s, MaxSourceBytes) }

func check(s string, maxBytes int) error {
	if len(s) > maxBytes {
		return model.Msg("%d bytes long, the limit is %d", len(s), maxBytes)
	}
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return model.Msg("invalid UTF-8 at byte %d; save the file as UTF-8", i)
			}
		}
		if forbidden(r) {
			return model.Msg("control character %s at byte %d; names must be printable text on one line", runeName(r), i)
		}
	}
	return nil
}

// forbidden is show.Unprintable: control and bidirectional formatting
// characters.
func forbidden(r rune) bool { return show.Unprintable(r) }

func runeName(r rune) string {
	switch r {
	case '\n':
		return `\n (newline)`
	case '\r':
		return `\r (carriage return)`
	case '\t':
		return `\t (tab)`
	case 0:
		return `\x00 (NUL)`
	case 0x1b:
		return `\x1b (ESC)`
	case 0x7f:
		return `\x7f (DEL)`
	}
	return fmt.Sprintf("U+%04X", r)
}

// Sanitize returns s safe to print on a terminal or in a one-line message:
// invalid UTF-8 bytes become \xNN, control and bidirectional formatting
// characters become \n, \t, \xNN or \uNNNN escapes; everything else,
// including non-ASCII letters, is kept (show.Printable). For display only:
// names that fail CheckName are rejected at load time, not sanitized into
// the catalog.
func Sanitize(s string) string { return show.Printable(s) }
