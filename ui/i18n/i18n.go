package i18n

import (
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"
	"sync"

	"golang.org/x/text/language"
	"golang.org/x/text/message/catalog"

	"github.com/gpuplan/gpuplan/model"
)

// Supported are the languages with a catalogue, English first (the
// fallback and the language of every key).
var Supported = []language.Tag{language.English, language.SimplifiedChinese}

// Printer renders messages in one language. Build it with New; the zero
// of *Printer (nil) prints English. A Printer is safe for concurrent use.
type Printer struct {
	tag language.Tag
	cat catalog.Catalog // nil for English: the key is the English text
	// missing records keys without a translation (NewTracing), for tests
	// and translators; nil otherwise.
	missing *missingSet
}

type missingSet struct {
	mu   sync.Mutex
	keys map[string]bool
}

// NewTracing is New with a record of the keys looked up and not found,
// read with Untranslated: a sweep renders its screens with it and lists
// what zh-CN.toml lacks. tag must be a Supported non-English language.
func NewTracing(tag language.Tag) *Printer {
	p := New(tag)
	if p == nil {
		p = &Printer{tag: language.English}
	}
	p.missing = &missingSet{keys: map[string]bool{}}
	return p
}

// Untranslated lists, sorted, the keys with letters in them that p looked
// up and found no translation for (NewTracing only).
func (p *Printer) Untranslated() []string {
	if p == nil || p.missing == nil {
		return nil
	}
	p.missing.mu.Lock()
	defer p.missing.mu.Unlock()
	var out []string
	for k := range p.missing.keys {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// New returns the printer for tag, which must be one of Supported (Match
// and Resolve return only those); any other tag prints English.
func New(tag language.Tag) *Printer {
	if tag != language.SimplifiedChinese {
		return nil
	}
	return &Printer{tag: tag, cat: zhCatalog()}
}

// Tag is the printer's language (English for nil).
func (p *Printer) Tag() language.Tag {
	if p == nil {
		return language.English
	}
	return p.tag
}

// Chinese reports whether p prints Simplified Chinese, for the few
// layouts that differ (no plural endings, no spaces between CJK words).
func (p *Printer) Chinese() bool { return p != nil && p.tag == language.SimplifiedChinese }

// Format returns the translation of the English format string key, or key
// itself when the catalogue has none.
//
// Formatting is Go's fmt, not message.Printer's: x/text would group
// digits ("4,096-token", "2,026") and change the English output byte for
// byte; the catalogue (x/text/message/catalog) does the lookup and the
// language fallback.
func (p *Printer) Format(key string) string {
	if p == nil || p.cat == nil {
		return key
	}
	var r capture
	if err := p.cat.Context(p.tag, &r).Execute(key); err != nil {
		if p.missing != nil && hasWord(key) {
			p.missing.mu.Lock()
			p.missing.keys[key] = true
			p.missing.mu.Unlock()
		}
		return key // catalog.ErrNotFound: English
	}
	return r.b.String()
}

// Sprintf formats args into the translation of key (an English fmt
// format string). Translations may reorder arguments with %[n]s.
func (p *Printer) Sprintf(key string, args ...any) string {
	return fmt.Sprintf(p.Format(key), args...)
}

// Fprintf is Sprintf written to w.
func (p *Printer) Fprintf(w io.Writer, key string, args ...any) (int, error) {
	return fmt.Fprintf(w, p.Format(key), args...)
}

// T translates a fixed word or phrase (not a format string: a "%" in it
// is literal).
func (p *Printer) T(s string) string {
	if p == nil {
		return s
	}
	return p.Format(s)
}

// Message renders a model message in p's language; its arguments that
// are themselves messages, or errors, are rendered first (Error).
func (p *Printer) Message(m model.Message) string {
	args := make([]any, len(m.Args))
	for i, a := range m.Args {
		switch n := a.(type) {
		case model.Message:
			a = p.Message(n)
		case error:
			a = p.Error(n)
		}
		args[i] = a
	}
	return p.Sprintf(m.Key, args...)
}

// Error renders err in p's language by its structure, never by matching
// its English text against formats:
//   - a model.Message, or an error that gives one (Message() model.Message:
//     a *model.KindError, *model.FieldError, *config.Error), through the
//     catalogue, its error arguments rendered the same way;
//   - errors joined by errors.Join, one a line, as their Error has them;
//   - a *fs.PathError as "op path: reason";
//   - a wrapper whose text is the error it wraps (a usage mark) as that error;
//   - any other error with nothing inside (a sentinel, an OS error number)
//     by its text as a key, which is the sentence itself;
//   - what is left (fmt.Errorf text around an error) as it is: English.
//
// English (a nil Printer) is err.Error(), byte for byte.
func (p *Printer) Error(err error) string {
	if err == nil {
		return ""
	}
	if p == nil {
		return err.Error()
	}
	switch e := err.(type) {
	case model.Message:
		return p.Message(e)
	case interface{ Message() model.Message }:
		return p.Message(e.Message())
	case *fs.PathError:
		return p.Sprintf("%s %s: %s", e.Op, e.Path, p.Error(e.Err))
	case interface{ Unwrap() []error }:
		parts := e.Unwrap()
		text := make([]string, len(parts))
		for i, part := range parts {
			text[i] = part.Error()
		}
		if strings.Join(text, "\n") != err.Error() {
			return err.Error() // fmt.Errorf with several %w: its own words
		}
		for i, part := range parts {
			text[i] = p.Error(part)
		}
		return strings.Join(text, "\n")
	case interface{ Unwrap() error }:
		if inner := e.Unwrap(); inner != nil && inner.Error() == err.Error() {
			return p.Error(inner)
		}
		return err.Error()
	}
	return p.T(err.Error())
}

// Messages renders each of ms.
func (p *Printer) Messages(ms []model.Message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = p.Message(m)
	}
	return out
}

// capture is the renderer x/text's catalogue executes a message into (it
// satisfies the unexported catmsg.Renderer): it keeps the raw format
// string for fmt.
type capture struct{ b strings.Builder }

func (c *capture) Render(s string) { c.b.WriteString(s) }
func (c *capture) Arg(i int) any   { return nil }

// hasWord reports whether a format string has letters outside its verbs.
func hasWord(key string) bool {
	for _, w := range words(stripVerbs(key)) {
		if w != "" {
			return true
		}
	}
	return false
}
