// Package i18n is gpuplan's message catalogue: English and Simplified
// Chinese, messages keyed by their English fmt format string, so a string
// without a translation falls back to English (and the leak test, Leaks,
// finds it in Chinese output).
//
// Use: resolve the language once (Resolve: --lang, then the config key
// lang, then LC_ALL/LC_MESSAGES/LANG), build a Printer with New and hand
// it to renderers; render text with Printer.Sprintf(englishFormat, args...)
// and model.Message values with Printer.Message, errors with
// Printer.Error, which renders an error by its structure (the messages it
// is made of and the errors they name), never by matching its English
// text. A nil *Printer prints English, so code that is not handed one
// stays correct.
//
// Translations live in zh-CN.toml (English format → Chinese format) and
// field terms in glossary.toml, both embedded; tests check that every
// translation keeps its key's verbs, uses the glossary's terms and follows
// the punctuation rule (see zh-CN.toml's header).
package i18n
