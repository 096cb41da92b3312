package i18n

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
	"golang.org/x/text/language"
	"golang.org/x/text/message/catalog"
)

// zhTOML is the Simplified Chinese catalogue: a TOML table from English
// format string to Chinese format string. A reviewer reads it as a
// two-column list and a translator edits it without Go; gotext's
// generated catalog.go would need its extraction tool on every change
// and hides the text in Go source.
//
//go:embed zh-CN.toml
var zhTOML string

// catalogFile is zh-CN.toml's shape.
type catalogFile struct {
	Messages map[string]string `toml:"messages"`
}

// parseCatalog reads a catalogue file; the embedded one is checked by a
// test, so the error is for a bad edit.
func parseCatalog(src string) (map[string]string, error) {
	var f catalogFile
	if _, err := toml.Decode(src, &f); err != nil {
		return nil, fmt.Errorf("zh-CN.toml: %w", err)
	}
	return f.Messages, nil
}

// zhMessages is the parsed catalogue, read on first use.
var zhMessages = sync.OnceValues(func() (map[string]string, error) { return parseCatalog(zhTOML) })

// zhCatalog is the x/text catalogue built from zhMessages, English as the
// fallback, identifiers unmarked. A broken embedded file (a test catches
// it) leaves the catalogue empty, so output is English rather than a crash.
var zhCatalog = sync.OnceValue(func() catalog.Catalog {
	b := catalog.NewBuilder(catalog.Fallback(language.English))
	msgs, _ := zhMessages()
	for en, zh := range msgs {
		_ = b.SetString(language.SimplifiedChinese, en, unmark(zh)) // fails only on "${" without "}": tested
	}
	return b
})

// unmark drops the backquotes zh-CN.toml puts around identifiers shown as
// typed (`train`, `as_of`): they tell translators and the leak test what
// stays in Latin letters, as the Chinese docs set code apart, but a
// terminal shows them as raw characters (trial 15c: help and completion
// read "`train`、`finetune`、lora"). The identifiers print plain, as the
// catalogue's other names (lora, PyTorch) do.
func unmark(zh string) string { return strings.ReplaceAll(zh, "`", "") }

// markedWords are the words zh-CN.toml marks as identifiers, which the
// output shows unmarked: Chinese output may contain them (DefaultAllowlist).
var markedWords = sync.OnceValue(func() []string {
	msgs, _ := zhMessages()
	var out []string
	for _, zh := range msgs {
		for _, code := range codeRE().FindAllString(zh, -1) {
			out = append(out, Words(stripVerbs(strings.Trim(code, "`")))...)
		}
	}
	return out
})
