package i18n

import (
	"strings"

	"github.com/gpuplan/gpuplan/model"
	"golang.org/x/text/language"
)

// Detect is the language the environment asks for, read as POSIX does:
// the first of LC_ALL, LC_MESSAGES and LANG that is set wins (so LC_ALL=C
// prints English whatever LANG says). zh_CN, zh_SG, zh_Hans and plain zh
// are Simplified Chinese; zh_TW, zh_HK, zh_MO and zh_Hant have no
// catalogue yet and print English, as do C, POSIX and anything unknown.
// GNU's LANGUAGE list is not read.
func Detect(env func(string) string) language.Tag {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := env(k); v != "" {
			tag, _ := Match(v)
			return tag
		}
	}
	return language.English
}

// Match maps a locale name or BCP 47 tag ("zh_CN.UTF-8", "zh-Hans",
// "en_US", "C") to a Supported language; ok is false when the name is not
// a language we know of at all (the tag is then English).
func Match(locale string) (tag language.Tag, ok bool) {
	s := locale
	if i := strings.IndexAny(s, ".@"); i >= 0 {
		s = s[:i] // zh_CN.UTF-8, sr_RS@latin
	}
	if s == "C" || s == "POSIX" {
		return language.English, true
	}
	t, err := language.Parse(strings.ReplaceAll(s, "_", "-"))
	if err != nil {
		return language.English, false
	}
	if base, _ := t.Base(); base.String() == "zh" {
		if script, _ := t.Script(); script.String() == "Hant" {
			return language.English, true // Traditional: no catalogue yet
		}
		return language.SimplifiedChinese, true
	}
	return language.English, true
}

// Parse reads a --lang value or config lang key: "en", "zh", "zh-CN",
// "zh_CN.UTF-8", "zh-Hans". Languages without a catalogue are an error
// saying which are, so a typo is not silently English.
func Parse(s string) (language.Tag, error) {
	tag, ok := Match(strings.TrimSpace(s))
	if ok && (tag != language.English || isEnglish(s)) {
		return tag, nil
	}
	return language.English, model.Msg("unknown language %q: use en or zh-CN", s)
}

func isEnglish(s string) bool {
	s = strings.TrimSpace(s)
	if s == "C" || s == "POSIX" || strings.HasPrefix(s, "C.") {
		return true
	}
	t, err := language.Parse(strings.ReplaceAll(strings.SplitN(s, ".", 2)[0], "_", "-"))
	if err != nil {
		return false
	}
	base, _ := t.Base()
	return base.String() == "en"
}

// Resolve picks the output language: the --lang flag, else the config
// file's lang key, else the environment (Detect). An empty flag or key
// means "not given"; a given one that names no supported language is an
// error (exit 2 at the CLI).
func Resolve(flag, config string, env func(string) string) (language.Tag, error) {
	for _, v := range []string{flag, config} {
		if strings.TrimSpace(v) != "" {
			return Parse(v)
		}
	}
	return Detect(env), nil
}
