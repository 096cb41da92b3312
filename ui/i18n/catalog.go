package i18n

import (
	_ "embed"
	"fmt"
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
// fallback. A broken embedded file (a test catches it) leaves the
// catalogue empty, so output is English rather than a crash.
var zhCatalog = sync.OnceValue(func() catalog.Catalog {
	b := catalog.NewBuilder(catalog.Fallback(language.English))
	msgs, _ := zhMessages()
	for en, zh := range msgs {
		_ = b.SetString(language.SimplifiedChinese, en, zh) // fails only on "${" without "}": tested
	}
	return b
})
