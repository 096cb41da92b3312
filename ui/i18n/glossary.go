package i18n

import (
	_ "embed"
	"fmt"
	"sync"

	"github.com/BurntSushi/toml"
)

// glossaryTOML lists the field's English terms with the established
// Simplified Chinese term every translation must use.
//
//go:embed glossary.toml
var glossaryTOML string

// Term is one glossary entry.
type Term struct {
	// English is the term as it appears in an English message, matched as
	// a whole word, case-insensitively.
	English string `toml:"en"`
	// Chinese is the one term a translation uses for it.
	Chinese string `toml:"zh"`
	// Avoid are synonyms a translation must not use for it (e.g. 内存 for
	// VRAM: 内存 is host RAM).
	Avoid []string `toml:"avoid"`
	// Why says where the choice comes from.
	Why string `toml:"why"`
}

// Glossary is the parsed glossary.toml.
var Glossary = sync.OnceValues(func() ([]Term, error) {
	var f struct {
		Terms []Term `toml:"term"`
	}
	if _, err := toml.Decode(glossaryTOML, &f); err != nil {
		return nil, fmt.Errorf("glossary.toml: %w", err)
	}
	return f.Terms, nil
})
