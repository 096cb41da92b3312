package i18n

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unicode"

	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// TestDetect follows POSIX precedence (LC_ALL, then LC_MESSAGES, then
// LANG; the first set wins) and the zh mapping of the issue: zh_CN, zh_SG,
// zh_Hans and zh are Simplified Chinese, Traditional locales English.
func TestDetect(t *testing.T) {
	zh, en := language.SimplifiedChinese, language.English
	for _, tt := range []struct {
		env  map[string]string
		want language.Tag
	}{
		{map[string]string{}, en},
		{map[string]string{"LANG": "zh_CN.UTF-8"}, zh},
		{map[string]string{"LANG": "zh_SG.UTF-8"}, zh},
		{map[string]string{"LANG": "zh_Hans"}, zh},
		{map[string]string{"LANG": "zh"}, zh},
		{map[string]string{"LANG": "zh_CN.GB18030"}, zh},
		{map[string]string{"LANG": "zh_TW.UTF-8"}, en},
		{map[string]string{"LANG": "zh_HK.UTF-8"}, en},
		{map[string]string{"LANG": "zh_Hant_TW"}, en},
		{map[string]string{"LANG": "en_US.UTF-8"}, en},
		{map[string]string{"LANG": "C.UTF-8"}, en},
		{map[string]string{"LANG": "POSIX"}, en},
		{map[string]string{"LANG": "de_DE.UTF-8"}, en},
		{map[string]string{"LANG": "not a locale!"}, en},
		// precedence
		{map[string]string{"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}, en},
		{map[string]string{"LC_ALL": "zh_CN.UTF-8", "LC_MESSAGES": "en_US.UTF-8", "LANG": "en_US.UTF-8"}, zh},
		{map[string]string{"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, zh},
		{map[string]string{"LC_MESSAGES": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"}, en},
		{map[string]string{"LC_ALL": "", "LC_MESSAGES": "", "LANG": "zh_CN.UTF-8"}, zh}, // empty is unset
	} {
		if got := Detect(envOf(tt.env)); got != tt.want {
			t.Errorf("Detect(%v) = %v, want %v", tt.env, got, tt.want)
		}
	}
}

// TestResolve: --lang beats the config key beats the environment; a value
// naming no supported language is an error, not silent English.
func TestResolve(t *testing.T) {
	env := envOf(map[string]string{"LANG": "zh_CN.UTF-8"})
	for _, tt := range []struct {
		flag, config string
		want         language.Tag
		err          bool
	}{
		{"", "", language.SimplifiedChinese, false},
		{"en", "", language.English, false},
		{"", "en", language.English, false},
		{"zh-CN", "en", language.SimplifiedChinese, false},
		{"zh_CN.UTF-8", "", language.SimplifiedChinese, false},
		{"zh-Hans", "", language.SimplifiedChinese, false},
		{"en-GB", "", language.English, false},
		{"C", "", language.English, false},
		{"fr", "", language.English, true},
		{"zh-TW", "", language.English, true},
		{"klingon!", "", language.English, true},
		{"", "xx", language.English, true},
	} {
		got, err := Resolve(tt.flag, tt.config, env)
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("Resolve(%q, %q) = %v, %v; want %v, error %v", tt.flag, tt.config, got, err, tt.want, tt.err)
		}
		if err != nil && !strings.Contains(err.Error(), "use en or zh-CN") {
			t.Errorf("Resolve(%q, %q): error %q does not say what to use", tt.flag, tt.config, err)
		}
	}
}

// FuzzParse: any --lang or locale value gives a supported tag or an
// error, never a panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"zh_CN.UTF-8", "en", "zh-Hant-TW", "C", "", "zh@latin", "-", "x-klingon"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tag, err := Parse(s)
		if !slices.Contains(Supported, tag) {
			t.Fatalf("Parse(%q) = %v, not a supported language", s, tag)
		}
		if err == nil && tag == language.English && s != "" {
			if m, ok := Match(s); !ok || m != language.English {
				t.Fatalf("Parse(%q) accepted a value Match rejects", s)
			}
		}
		if got := Detect(envOf(map[string]string{"LANG": s})); !slices.Contains(Supported, got) {
			t.Fatalf("Detect(LANG=%q) = %v", s, got)
		}
	})
}

// catalogueT is the parsed zh-CN.toml, or the test fails.
func catalogueT(t *testing.T) map[string]string {
	t.Helper()
	msgs, err := zhMessages()
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) == 0 {
		t.Fatal("zh-CN.toml has no messages")
	}
	return msgs
}

// TestCatalogueRoundTrip: the x/text catalogue gives back every
// translation as written (no ${…} substitution, no loss) but for the
// backquotes that mark identifiers, which no Chinese output shows (trial
// 15c: help and completion read "`train`、`finetune`、lora"); an unknown
// key falls back to English, and nil prints English.
func TestCatalogueRoundTrip(t *testing.T) {
	p := New(language.SimplifiedChinese)
	for en, zh := range catalogueT(t) {
		got := p.Format(en)
		if want := strings.ReplaceAll(zh, "`", ""); got != want {
			t.Errorf("Format(%q) = %q, want %q", en, got, want)
		}
		if strings.Contains(got, "`") {
			t.Errorf("Format(%q) = %q: a backquote shows", en, got)
		}
		if strings.Contains(zh, "${") {
			t.Errorf("%q: ${ is an x/text substitution", en)
		}
	}
	if got := p.Sprintf("no such message %d", 3); got != "no such message 3" {
		t.Errorf("fallback = %q", got)
	}
	var nilP *Printer
	if got := nilP.Sprintf("VRAM %.1f GiB", 2.5); got != "VRAM 2.5 GiB" || nilP.Chinese() || nilP.Tag() != language.English {
		t.Errorf("nil printer: %q", got)
	}
	if New(language.English) != nil || New(language.French) != nil {
		t.Error("New of English or an unsupported language is the English (nil) printer")
	}
	// Worked by hand from zh-CN.toml: the reordered verbs land in place.
	if got := p.Sprintf("%s (%g GiB, %s usable after the %.0f%% margin)", "NVIDIA L4", 24.0, "21.37 GiB", 5.0); got != "NVIDIA L4（24 GiB，留出 5% 安全余量后可用 21.37 GiB）" {
		t.Errorf("reordered = %q", got)
	}
	if got := p.Message(model.Msg("recipe %s: %s", model.RecipeDeepSpeed, model.Msg("fp32 throughout"))); got != "精度方案 deepspeed：全程 fp32" {
		t.Errorf("nested message = %q", got)
	}
	if got := p.Message(model.CountMsg(3, "sequence")); got != "3 个序列" {
		t.Errorf("count = %q", got)
	}
}

// verbArgs maps each argument a format string uses (1-based, as fmt
// numbers them) to its verb letter, following fmt's rule that [n] sets the
// next argument to n+1.
func verbArgs(format string) map[int]string {
	out := map[int]string{}
	next := 1
	for _, v := range verbRE().FindAllString(format, -1) {
		if v == "%%" {
			continue
		}
		if m := regexp.MustCompile(`\[(\d+)\]`).FindStringSubmatch(v); m != nil {
			next, _ = strconv.Atoi(m[1])
		}
		out[next] = v[len(v)-1:]
		next++
	}
	return out
}

// TestTranslationsKeepVerbs: every translation formats the same
// arguments with the same verbs as its English key, so no value is lost,
// doubled or printed as %!d(string=…).
func TestTranslationsKeepVerbs(t *testing.T) {
	for en, zh := range catalogueT(t) {
		ke, kz := verbArgs(en), verbArgs(zh)
		if len(ke) != len(kz) {
			t.Errorf("%q → %q: %d arguments, translation uses %d", en, zh, len(ke), len(kz))
			continue
		}
		for i, v := range ke {
			if kz[i] != v {
				t.Errorf("%q → %q: argument %d is %%%s, translation %%%s", en, zh, i, v, kz[i])
			}
		}
		if strings.Count(en, "%%") != strings.Count(zh, "%%") {
			t.Errorf("%q → %q: literal %%%% differs", en, zh)
		}
		if strings.Count(en, "\n") != strings.Count(zh, "\n") {
			t.Errorf("%q → %q: line breaks differ", en, zh)
		}
	}
}

// termRE matches a glossary term as a whole word, case-insensitively.
var catalogDirRE = regexp.MustCompile(`\S*catalog\.d\S*`)

func termRE(term string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)(^|[^A-Za-z0-9_-])` + regexp.QuoteMeta(term) + `($|[^A-Za-z0-9_-])`)
}

// TestGlossary: a Chinese message whose English key names a glossary
// concept uses the glossary's Chinese term, and none of the synonyms the
// glossary rules out (checked after the glossary's own terms are removed,
// so 主机内存 for host RAM does not count as 内存 for VRAM).
func TestGlossary(t *testing.T) {
	terms, err := Glossary()
	if err != nil {
		t.Fatal(err)
	}
	if len(terms) < 15 {
		t.Fatalf("glossary has %d terms", len(terms))
	}
	sort.SliceStable(terms, func(i, j int) bool { return len(terms[i].Chinese) > len(terms[j].Chinese) })
	for _, term := range terms {
		if term.English == "" || term.Chinese == "" || term.Why == "" {
			t.Errorf("glossary term %+v: en, zh and why are required", term)
		}
	}
	for en, zh := range catalogueT(t) {
		bare := zh
		for _, term := range terms {
			bare = strings.ReplaceAll(bare, term.Chinese, "")
		}
		// A command or path the user types ("gpuplan catalog gpus",
		// catalog.d) is syntax, not the term.
		prose := commandRE().ReplaceAllString(flagRE().ReplaceAllString(catalogDirRE.ReplaceAllString(en, ""), ""), "")
		prose = strings.ReplaceAll(prose, "catalog update", "") // the command, named without gpuplan
		for _, term := range terms {
			if !termRE(term.English).MatchString(prose) {
				continue
			}
			if !strings.Contains(zh, term.Chinese) {
				t.Errorf("%q → %q: %q must be %q (glossary.toml)", en, zh, term.English, term.Chinese)
			}
			for _, a := range term.Avoid {
				if strings.Contains(bare, a) {
					t.Errorf("%q → %q: %q for %q; the glossary says %q", en, zh, a, term.English, term.Chinese)
				}
			}
		}
	}
}

// TestGlossaryCatchesSynonyms: the check above fails on the mistakes it
// is there for (a test of the test, on made-up translations).
func TestGlossaryCatchesSynonyms(t *testing.T) {
	terms, err := Glossary()
	if err != nil {
		t.Fatal(err)
	}
	uses := func(en, zh string) bool {
		for _, term := range terms {
			if termRE(term.English).MatchString(en) && !strings.Contains(zh, term.Chinese) {
				return false
			}
		}
		return true
	}
	for _, tt := range []struct {
		en, zh string
		ok     bool
	}{
		{"needs %s of VRAM", "需要 %s 显存", true},
		{"needs %s of VRAM", "需要 %s 内存", false},
		{"spot: can be reclaimed", "抢占式实例：可能被回收", false},
		{"use gradient accumulation", "使用梯度累加", false},
		{"turn on activation checkpointing", "开启梯度检查点", true},
		{"max_memory_reserved", "已预留", true}, // "reserved" alone is memory, not a pricing term
	} {
		if got := uses(tt.en, tt.zh); got != tt.ok {
			t.Errorf("glossary check of %q → %q = %v, want %v", tt.en, tt.zh, got, tt.ok)
		}
	}
}

// punctuationErrors lists where zh breaks the catalogue's rule: full-width
// punctuation next to Chinese characters, no space between two Chinese
// characters (or one and full-width punctuation), one space between a
// Chinese character and a Latin letter, digit or number verb. A %s may
// touch Chinese (it often holds Chinese).
func punctuationErrors(zh string) []string {
	// Number verbs become "0", string verbs a neutral "§".
	s := verbRE().ReplaceAllStringFunc(zh, func(v string) string {
		switch v[len(v)-1] {
		case 's', 'v', 'q':
			return "§"
		case '%':
			return "%"
		}
		return "0"
	})
	han := func(r rune) bool { return unicode.Is(unicode.Han, r) }
	full := func(r rune) bool { return strings.ContainsRune("，。：；（）、！？", r) }
	latin := func(r rune) bool { return r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) }
	var errs []string
	rs := []rune(s)
	for i := 0; i+1 < len(rs); i++ {
		a, b := rs[i], rs[i+1]
		switch {
		case han(a) && strings.ContainsRune(",;:!?()", b) || han(b) && strings.ContainsRune(",;:!?()", a):
			errs = append(errs, "half-width punctuation next to Chinese: "+string([]rune{a, b}))
		case han(a) && latin(b) || latin(a) && han(b):
			errs = append(errs, "no space between Chinese and Latin: "+string([]rune{a, b}))
		}
		if i+2 < len(rs) && b == ' ' {
			c := rs[i+2]
			if (han(a) || full(a)) && (han(c) || full(c)) {
				errs = append(errs, "space between Chinese: "+string([]rune{a, b, c}))
			}
			if full(a) && latin(c) || latin(a) && full(c) {
				errs = append(errs, "space next to full-width punctuation: "+string([]rune{a, b, c}))
			} else if a == '：' {
				errs = append(errs, "space after a full-width colon: "+string([]rune{a, b, c}))
			}
		}
	}
	return errs
}

func TestPunctuationRule(t *testing.T) {
	for en, zh := range catalogueT(t) {
		for _, e := range punctuationErrors(zh) {
			t.Errorf("%q → %q: %s", en, zh, e)
		}
	}
	// The rule itself, on made-up text.
	for _, tt := range []struct {
		zh   string
		errs int
	}{
		{"需要 %d 块 GPU，可用 %.1f GiB", 0},
		{"需要%d块GPU", 3},
		{"显存 不足", 1},
		{"显存不足,请减小微批次", 2},
		{"峰值在%s阶段", 0},
		{"余量 %s；%s：%d", 0},
		{"余量 ，不足", 1},
		{"临界： 2 × A100", 1}, // a label and its value composed with a space
		{"临界： %s", 1},
	} {
		if got := punctuationErrors(tt.zh); len(got) != tt.errs {
			t.Errorf("punctuationErrors(%q) = %q, want %d", tt.zh, got, tt.errs)
		}
	}
}

// TestWordsAndLeaks pins what the leak helper counts as a word.
func TestWordsAndLeaks(t *testing.T) {
	allow := DefaultAllowlist()
	allow.Add("NVIDIA L4 aws us-east-1")
	for _, tt := range []struct {
		text  string
		leaks string
	}{
		{"显存每卡 25.00 GiB（NVIDIA L4，aws us-east-1）", ""},
		{"\x1b[1m显存\x1b[0m needs 25 GiB", "needs"},
		{"用 --gpu NAME 指定（列表：gpuplan catalog gpus）", ""},
		{"torch max_memory_allocated，g6.xlarge，`memory/transformer`，GB/s", ""},
		{"8 × 4096 tokens, flash attention", "attention flash tokens"},
		{"fp32 zero3 ZeRO-3 bf16", ""},
		{"n1-st…V100 gpu_8…00_n asia-…st-1 +16 needs", "needs"}, // names cut at the end or in the middle to fit a column
	} {
		if got := strings.Join(Leaks(tt.text, allow), " "); got != tt.leaks {
			t.Errorf("Leaks(%q) = %q, want %q", tt.text, got, tt.leaks)
		}
	}
}

// TestTracingListsUntranslated: NewTracing records the keys with words
// that have no translation, for a sweep to paste into zh-CN.toml.
func TestTracingListsUntranslated(t *testing.T) {
	p := NewTracing(language.SimplifiedChinese)
	p.Sprintf("VRAM")
	p.Sprintf("a message nobody translated %d", 1)
	p.Sprintf("%s %d", "x", 1) // no words: nothing to translate
	if got := p.Untranslated(); !slices.Equal(got, []string{"a message nobody translated %d"}) {
		t.Errorf("Untranslated = %q", got)
	}
}

// TestErrorByStructure: an error is rendered by what it is made of — a
// message and the errors it names, a kind error, errors.Join's parts, a
// path error, an OS error number — each part through the catalogue, so
// no English sentence is matched against formats; English is Error()
// byte for byte.
func TestErrorByStructure(t *testing.T) {
	zh := New(language.SimplifiedChinese)
	notFound := &fs.PathError{Op: "open", Path: "run.toml", Err: syscall.ENOENT}
	kind := model.Errorf(model.ErrNotFound, "unknown %s %q (list them with %s)", model.Msg("model"), "lama", "gpuplan catalog models")
	for _, tc := range []struct {
		err error
		zh  string
	}{
		{model.Msg("--config %s: %v", "run.toml", syscall.ENOENT), "--config run.toml：没有这个文件或目录"},
		{model.Msg("--config %s: %v", "run.toml", notFound), "--config run.toml：open run.toml：没有这个文件或目录"},
		{kind, `未找到：没有名为 "lama" 的模型（用 gpuplan catalog models 列出）`},
		{model.Msg("%s: %v", "--model", kind), `--model：未找到：没有名为 "lama" 的模型（用 gpuplan catalog models 列出）`},
		{errors.Join(model.Msg("--config %s: %v", "a.toml", syscall.ENOENT), syscall.EACCES), "--config a.toml：没有这个文件或目录\n权限不足"},
		{fmt.Errorf("%w", model.Msg("no phases: add a [[phase]] table for each step")), "没有阶段：请为每一步加一个 [[phase]] 表"},
		{fmt.Errorf("made up %d: %w", 1, syscall.ENOENT), "made up 1: no such file or directory"}, // fmt's own words: as they are
	} {
		if got := zh.Error(tc.err); got != tc.zh {
			t.Errorf("%q: got %q, want %q", tc.err, got, tc.zh)
		}
		if got := (*Printer)(nil).Error(tc.err); got != tc.err.Error() {
			t.Errorf("English %q, want %q", got, tc.err.Error())
		}
	}
}
