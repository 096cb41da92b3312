package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
)

// TestCatalogModelsLeftOut: a search for a model the catalog leaves out on
// purpose (Flux, SD3, Phi-4-reasoning, Mistral Small 3.1, Qwen3
// Thinking-2507) said `no model matches "flux"` or `did you mean
// "phi-4"?` where estimate --model says why it is left out (a new user's
// walk). It now gives estimate's line: alone, as the error (exit 2,
// nothing listed); beside words that list models, as a note on stderr.
func TestCatalogModelsLeftOut(t *testing.T) {
	const dit = `is left out on purpose: diffusion transformers (Flux.1, SD3/SD3.5 MMDiT) are not costed`
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr []string // the lines, in order, each a prefix
		has    []string // stdout
		lacks  []string
	}{
		{"flux", []string{"flux"}, 2, []string{`gpuplan: model "flux" ` + dit}, nil, nil},
		{"a Hugging Face id", []string{"black-forest-labs/FLUX.1-schnell"}, 2, []string{`gpuplan: model "black-forest-labs/FLUX.1-schnell" ` + dit}, nil, nil},
		{"sd3", []string{"sd3"}, 2, []string{`gpuplan: model "sd3" ` + dit}, nil, nil},
		{"not phi-4", []string{"microsoft/Phi-4-reasoning"}, 2, []string{`gpuplan: model "microsoft/Phi-4-reasoning" is left out on purpose: it has phi-4's layers`}, nil, nil},
		{"mistral small 3.1 in three words", []string{"mistral", "small", "3.1"}, 2,
			[]string{`gpuplan: model "mistral small 3.1" is left out on purpose: Mistral Small 3.1 and 3.2`}, nil, nil},
		{"one name in two words", []string{"stable-diffusion-3.5", "large"}, 2, []string{`gpuplan: model "stable-diffusion-3.5 large" ` + dit}, nil, nil},
		{"qwen3 thinking", []string{"Qwen3-4B-Thinking-2507"}, 2, []string{`gpuplan: model "Qwen3-4B-Thinking-2507" is left out on purpose: its config.json`}, nil, nil},
		{"two left out", []string{"sd3", "flux"}, 2, []string{`gpuplan: note: model "sd3" ` + dit, `gpuplan: model "flux" ` + dit}, nil, nil},

		// Beside words that list models: those listed, the reason a note.
		{"flux and a key", []string{"flux", "llama-3.1-8b", "-o", "csv"}, 0, []string{`gpuplan: note: model "flux" ` + dit},
			[]string{"\nllama-3.1-8b,"}, []string{"\nllama-3.1-70b,"}},
		{"a name in two words and flux", []string{"llama", "70b", "flux", "-o", "csv"}, 0, []string{`gpuplan: note: model "flux" ` + dit},
			[]string{"\nllama-3.1-70b,", "\nllama-3.3-70b,"}, []string{"\nllama-3.1-8b,"}},
		{"a quantized release and phi-4-reasoning", []string{"Qwen/Qwen3-32B-AWQ", "phi-4-reasoning", "-o", "csv"}, 0,
			[]string{`gpuplan: note: Qwen/Qwen3-32B-AWQ is Qwen3 32B`, `gpuplan: note: model "phi-4-reasoning" is left out on purpose`},
			[]string{"\nqwen3-32b,"}, []string{"\nphi-4,"}},
		// In any order (a walk, 2026-12-06: "flux llama" was refused whole as
		// one left-out name, the Llamas never listed; "llama flux" listed them).
		{"flux then a family", []string{"flux", "llama", "-o", "csv"}, 0, []string{`gpuplan: note: model "flux" ` + dit},
			[]string{"\nllama-3.1-8b,", "\nllama-3.3-70b,"}, nil},
		{"a family then flux", []string{"llama", "flux", "-o", "csv"}, 0, []string{`gpuplan: note: model "flux" ` + dit},
			[]string{"\nllama-3.1-8b,", "\nllama-3.3-70b,"}, nil},
		{"mistral small 3.1 then a family", []string{"mistral", "small", "3.1", "llama", "70b", "-o", "csv"}, 0,
			[]string{`gpuplan: note: model "mistral small 3.1" is left out on purpose`}, []string{"\nllama-3.3-70b,"}, []string{"\nllama-3.1-8b,"}},
		{"a family then mistral small 3.1", []string{"llama", "mistral", "small", "3.1", "-o", "csv"}, 0,
			[]string{`gpuplan: note: model "mistral small 3.1" is left out on purpose`}, []string{"\nllama-3.1-8b,"}, []string{"\nmistral-small-24b,"}},
		{"quoted beside a key", []string{"mistral small 3.1", "llama-3.1-8b", "-o", "csv"}, 0,
			[]string{`gpuplan: note: model "mistral small 3.1" is left out on purpose`}, []string{"\nllama-3.1-8b,"}, []string{"\nwhisper-small,"}},
		{"FLUX.1-dev then a family", []string{"FLUX.1-dev", "gemma", "-o", "csv"}, 0, []string{`gpuplan: note: model "FLUX.1-dev" ` + dit},
			[]string{"\ngemma-3-27b,"}, nil},
		// Held by an alias and left out: listed, and said (a walk: "phi-4
		// reasoning" listed Phi-4-mini through its alias
		// Phi-4-mini-reasoning, where estimate --model said why Phi-4-reasoning
		// is left out); a name repeated is said once.
		{"held and left out", []string{"phi-4", "reasoning", "-o", "csv"}, 0,
			[]string{`gpuplan: note: model "phi-4 reasoning" is left out on purpose: it has phi-4's layers`}, []string{"\nphi-4-mini,"}, nil},
		{"said once", []string{"flux", "llama-3.1-8b", "flux", "FLUX", "-o", "csv"}, 0,
			[]string{`gpuplan: note: model "flux" ` + dit, `gpuplan: note: model "FLUX" ` + dit}, []string{"\nllama-3.1-8b,"}, nil},
		// A word that matches nothing is still the error, the reason a note before it.
		{"flux and a typo", []string{"qwen4", "flux"}, 2, []string{`gpuplan: note: model "flux" ` + dit, `gpuplan: no model matches "qwen4"`}, nil, nil},

		// What the catalog lists is not claimed, nor part of a left-out name.
		{"mistral small", []string{"mistral", "small", "-o", "csv"}, 0, nil, []string{"\nmistral-small-24b,"}, nil},
		{"phi-4", []string{"phi-4", "-o", "csv"}, 0, nil, []string{"\nphi-4,"}, nil},
		{"flu", []string{"flu"}, 2, []string{`gpuplan: no model matches "flu"`}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"catalog", "models"}, tc.args...)
			code, out, errs := runCLI(t, args...)
			if code != tc.code {
				t.Fatalf("%v: exit %d, want %d: %s", args, code, tc.code, errs)
			}
			lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
			if errs == "" {
				lines = nil
			}
			if len(lines) != len(tc.stderr) {
				t.Fatalf("%v: stderr %q, want %d lines starting %q", args, errs, len(tc.stderr), tc.stderr)
			}
			for i, want := range tc.stderr {
				if !strings.HasPrefix(lines[i], want) {
					t.Errorf("%v: stderr line %d %q, want it to start %q", args, i+1, lines[i], want)
				}
			}
			if tc.code != 0 && out != "" {
				t.Errorf("%v: exit %d with stdout %q", args, code, out)
			}
			for _, h := range tc.has {
				if !strings.Contains(out, h) {
					t.Errorf("%v: stdout lacks %q:\n%s", args, h, out)
				}
			}
			for _, l := range tc.lacks {
				if strings.Contains(out, l) {
					t.Errorf("%v: stdout has %q:\n%s", args, l, out)
				}
			}
		})
	}
}

// TestCatalogModelsLeftOutSameAsEstimate: the search's line is the one
// estimate --model refuses the name with (model.LeftOutReason), in
// English and in Chinese.
func TestCatalogModelsLeftOutSameAsEstimate(t *testing.T) {
	for _, lang := range []string{"en", "zh-CN"} {
		for _, name := range []string{"flux", "Mistral-Small-3.2-24B-Instruct-2506", "Phi-4-reasoning-plus", "Qwen/Qwen3-30B-A3B-Thinking-2507"} {
			_, _, est := runCLI(t, "--lang", lang, "estimate", "--model", name)
			code, _, cat := runCLI(t, "--lang", lang, "catalog", "models", name)
			_, reason, ok := strings.Cut(strings.TrimSpace(cat), "gpuplan: ")
			if lang != "en" {
				_, reason, ok = strings.Cut(strings.TrimSpace(cat), "gpuplan：")
			}
			if code != 2 || !ok || reason == "" || !strings.HasSuffix(strings.TrimSpace(est), reason) || strings.Count(cat, "\n") != 1 {
				t.Errorf("--lang %s, %s: catalog models says %q (exit %d), estimate %q; want estimate's reason in one line", lang, name, cat, code, est)
			}
			if lang != "en" && strings.Contains(reason, "left out") {
				t.Errorf("--lang zh-CN, %s: %q in English", name, reason)
			}
		}
	}
	_, _, errs := runCLI(t, "--lang", "zh-CN", "catalog", "models", "flux", "llama-3.1-8b")
	if !strings.HasPrefix(errs, `gpuplan：提示：模型 "flux"`) {
		t.Errorf("--lang zh-CN catalog models flux llama-3.1-8b: stderr %q, want a note in Chinese", errs)
	}
}

// FuzzLeftOutWords: any words split into left-out names and the rest
// without panicking; the rest keeps the other words in order, and words
// an entry holds (all of them) are never taken for a left-out model.
func FuzzLeftOutWords(f *testing.F) {
	for _, s := range []string{"flux", "flux llama-3.1-8b", "mistral small 3.1", "mistral small", "sd3 flux", "qwen4 flux",
		"stable diffusion 3.5 large", "flu", "phi-4 phi-4-reasoning", "  ", "Qwen3-4B-Thinking-2507 qwen3-4b"} {
		f.Add(s)
	}
	entries := []entryNames{{"mistral-small-24b", "Mistral Small 3 24B", nil}, {"llama-3.1-8b", "Llama 3.1 8B", []string{"meta-llama/Llama-3.1-8B"}},
		{"phi-4", "Phi-4 14B", []string{"microsoft/phi-4"}}, {"qwen3-4b", "Qwen3 4B", nil}}
	f.Fuzz(func(t *testing.T, s string) {
		words := strings.Fields(s)
		reasons, rest := leftOutWords(words, entries)
		if len(reasons) == 1 && slices.Equal(rest, words) && len(words) > 1 {
			// Held by the entries as one name and left out: listed, and
			// said (the only case where words are both).
			if name, _ := reasons[0].Args[0].(string); name != strings.Join(words, " ") || !model.IsLeftOutReason(reasons[0]) {
				t.Fatalf("%q: %q with every word kept", words, reasons[0])
			}
			return
		}
		if len(rest) > len(words) || len(rest)+len(reasons) > len(words) {
			t.Fatalf("%q: %d reasons and rest %q", words, len(reasons), rest)
		}
		i := 0
		for _, w := range rest {
			for i < len(words) && words[i] != w {
				i++
			}
			if i == len(words) {
				t.Fatalf("%q: rest %q is not the words in order", words, rest)
			}
			i++
		}
		for _, r := range reasons {
			name, _ := r.Args[0].(string)
			if !model.IsLeftOutReason(r) || slices.ContainsFunc(entries, func(e entryNames) bool {
				return !slices.ContainsFunc(strings.Fields(name), func(w string) bool { ok, _ := e.holds(model.NormKey(w)); return !ok })
			}) {
				t.Fatalf("%q: %q, which an entry holds, was taken for a left-out model", words, name)
			}
		}
	})
}

// BenchmarkLeftOutWords: 400 words against the embedded catalog's models.
// A left-out name's run is bounded (maxLeftOutWords); unbounded, each
// start tried every run to the end, and 400 words took 3.7 s of `catalog
// models` (a walk, 2026-12-06).
func BenchmarkLeftOutWords(b *testing.B) {
	cat, err := data.Load()
	if err != nil {
		b.Fatal(err)
	}
	entries := make([]entryNames, len(cat.Models))
	for i := range cat.Models {
		m := &cat.Models[i]
		entries[i] = entryNames{m.Key, m.Name, m.Aliases}
	}
	words := strings.Fields(strings.Repeat("qwen3 ", 400))
	b.ReportAllocs()
	for b.Loop() {
		leftOutWords(words, entries)
	}
}
