package cli

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestCatalogListFilter: a new user asks "is Qwen3-30B-A3B there?" with
// `gpuplan catalog models qwen3` and "what is an H100?" with `gpuplan catalog
// gpus h100`; both were refused as `unknown command "qwen3" for "gpuplan
// catalog models"` (walk fix50c). Words now narrow the list to the entries
// whose key, name or an alias holds one of them, case and separators
// aside; a word that matches nothing is a usage error (exit 2) naming the
// closest key.
func TestCatalogListFilter(t *testing.T) {
	for _, tc := range []struct {
		name       string
		args       []string
		code       int
		has, lacks []string
	}{
		{"models by family word", []string{"catalog", "models", "qwen3"}, 0,
			[]string{"qwen3-30b-a3b", "qwen3-8b", "qwen3-coder-480b-a35b"}, []string{"qwen2.5-7b", "llama-3.1-8b", "qwen2.5-32b"}},
		// walk56: key and name matches first, alias-only ones after.
		{"models by alias last", []string{"catalog", "models", "deepseek", "-o", "csv"}, 0,
			[]string{"\ndeepseek-v3,"}, nil},
		// walk54: "a10" listed the A100s and "l4" the L40S (a number
		// matched inside a longer one).
		{"gpus, numbers whole", []string{"catalog", "gpus", "a10", "l4", "-o", "csv"}, 0,
			[]string{"\na10,", "\na10g,", "\nl4,"}, []string{"\na100", "\nl40s,", "\nl40,"}},
		{"models by Hugging Face id", []string{"catalog", "models", "Qwen/Qwen3-30B-A3B"}, 0,
			[]string{"qwen3-30b-a3b"}, []string{"qwen3-8b"}},
		{"models in JSON", []string{"catalog", "models", "qwen3-30b-a3b", "--json"}, 0,
			[]string{`"active_params": 3353032704`}, []string{`"qwen3-8b"`}},
		{"gpus by word", []string{"catalog", "gpus", "H100"}, 0,
			[]string{"h100-pcie", "h100-sxm", "h100-nvl"}, []string{"a100-80gb", "h200 "}},
		{"gpus, two words", []string{"catalog", "gpus", "l4", "mi300x", "-o", "csv"}, 0,
			[]string{"\nl4,", "\nmi300x,"}, []string{"\nt4,"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, tc.args...)
			if code != tc.code {
				t.Fatalf("%v: exit %d, want %d: %s", tc.args, code, tc.code, errs)
			}
			for _, h := range tc.has {
				if !strings.Contains(out, h) {
					t.Errorf("%v: output lacks %q:\n%s", tc.args, h, out)
				}
			}
			for _, l := range tc.lacks {
				if strings.Contains(out, l) {
					t.Errorf("%v: output has %q:\n%s", tc.args, l, out)
				}
			}
		})
	}
	// walk56: the entry named comes before those matched by an alias.
	if _, out, _ := runCLI(t, "catalog", "models", "deepseek", "-o", "csv"); !(strings.Index(out, "\ndeepseek-v3,") >= 0 && strings.Index(out, "\ndeepseek-v3,") < strings.Index(out, "\nllama-3.1-8b,")) {
		t.Errorf("catalog models deepseek: deepseek-v3 not before the distills' bases:\n%s", out)
	}
	// A Hugging Face id an entry is known by lists that entry first, before
	// those whose aliases only hold it (a new user's walk: R1's distills
	// came first for deepseek-ai/DeepSeek-R1, DeepSeek-V3/R1 last).
	for _, id := range []string{"deepseek-ai/DeepSeek-R1", "meta-llama/Llama-3.1-8B"} {
		_, out, _ := runCLI(t, "catalog", "models", id, "-o", "csv")
		want := map[string]string{"deepseek-ai/DeepSeek-R1": "deepseek-v3,", "meta-llama/Llama-3.1-8B": "llama-3.1-8b,"}[id]
		if lines := strings.Split(out, "\n"); len(lines) < 2 || !strings.HasPrefix(lines[1], want) {
			t.Errorf("catalog models %s: first row not %q:\n%s", id, want, out)
		}
	}
	code, out, errs := runCLI(t, "catalog", "models", "qwen4")
	if code != 2 || out != "" || strings.Count(errs, "\n") != 1 ||
		!strings.Contains(errs, `no model matches "qwen4"`) || !strings.Contains(errs, "gpuplan catalog models") {
		t.Errorf("catalog models qwen4: exit %d, stdout %q, stderr %q; want exit 2 and one line naming the list", code, out, errs)
	}
	code, _, errs = runCLI(t, "catalog", "gpus", "h10O")
	if code != 2 || !strings.Contains(errs, `no GPU matches "h10O"`) {
		t.Errorf("catalog gpus h10O: exit %d, stderr %q", code, errs)
	}
}

// TestCatalogListWordsTogether: `gpuplan catalog gpus rtx 4090` listed
// every GPU that holds "rtx" or "4090" (the Quadro RTX 6000, the RTX
// A2000 …; a new user's walk). Several words are one name, an entry listed when it
// holds each; they are several names when each alone is a key, name or
// alias (h100 a100, a10 a10g), or when no entry holds them all (qwen3
// llama, said on stderr); a word no entry holds is refused by name.
func TestCatalogListWordsTogether(t *testing.T) {
	for _, tc := range []struct {
		name       string
		args       []string
		has, lacks []string
		note       string // on stderr
	}{
		{"gpus: one name in two words", []string{"catalog", "gpus", "rtx", "4090", "-o", "csv"},
			[]string{"\nrtx-4090,", "\nrtx-4090d,"}, []string{"\nquadro-rtx-6000,", "\nrtx-a2000,", "\nrtx-3090,", "\ntitan-rtx,"}, ""},
		{"gpus: each word a name", []string{"catalog", "gpus", "h100", "a100", "-o", "csv"},
			[]string{"\nh100-sxm,", "\nh100-pcie,", "\na100-80gb,", "\na100-40gb,"}, []string{"\nh200,"}, ""},
		// a10g holds "a10" and "a10g": as one name the A10 was left out.
		{"gpus: names that hold one another", []string{"catalog", "gpus", "a10", "a10g", "-o", "csv"},
			[]string{"\na10,", "\na10g,"}, []string{"\na100"}, ""},
		{"gpus: a size narrows", []string{"catalog", "gpus", "a100", "80gb", "-o", "csv"},
			[]string{"\na100-80gb,", "\na100-pcie-80gb,"}, []string{"\na100-40gb,", "\nh100-sxm,"}, ""},
		{"models: one name in two words", []string{"catalog", "models", "llama", "70b", "-o", "csv"},
			[]string{"\nllama-2-70b,", "\nllama-3.1-70b,", "\nllama-3.3-70b,"}, []string{"\nllama-3.1-8b,", "\nllama-3.1-405b,", "\nqwen"}, ""},
		{"models: each word a key", []string{"catalog", "models", "qwen3-8b", "llama-3.1-8b", "-o", "csv"},
			[]string{"\nqwen3-8b,", "\nllama-3.1-8b,"}, []string{"\nqwen3-32b,", "\nllama-3.1-70b,"}, ""},
		{"models: no model holds both", []string{"catalog", "models", "qwen3", "llama", "-o", "csv"},
			[]string{"\nqwen3-8b,", "\nllama-3.1-8b,"}, []string{"\nqwen2.5-7b,"}, `gpuplan: note: no model matches all of "qwen3 llama", so each word is taken as a name of its own`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, tc.args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", tc.args, code, errs)
			}
			for _, h := range tc.has {
				if !strings.Contains(out, h) {
					t.Errorf("%v: output lacks %q:\n%s", tc.args, h, out)
				}
			}
			for _, l := range tc.lacks {
				if strings.Contains(out, l) {
					t.Errorf("%v: output has %q:\n%s", tc.args, l, out)
				}
			}
			if (tc.note == "") != (errs == "") || !strings.Contains(errs, tc.note) {
				t.Errorf("%v: stderr %q, want %q", tc.args, errs, tc.note)
			}
		})
	}
	code, out, errs := runCLI(t, "catalog", "gpus", "rtx", "4091")
	if code != 2 || out != "" || errs != "gpuplan: no GPU matches \"4091\" (list them with gpuplan catalog gpus)\n" {
		t.Errorf("catalog gpus rtx 4091: exit %d, stdout %q, stderr %q; want exit 2 naming 4091", code, out, errs)
	}
	code, _, errs = runCLI(t, "--lang", "zh-CN", "catalog", "models", "qwen3", "llama")
	if code != 0 || !strings.Contains(errs, "没有模型同时匹配") {
		t.Errorf("zh-CN catalog models qwen3 llama: exit %d, stderr %q", code, errs)
	}
	_, out, _ = runCLI(t, "catalog", "gpus", "--help")
	if !strings.Contains(out, `Several words are one name: "rtx 4090"`) {
		t.Errorf("catalog gpus --help does not say how words combine:\n%s", out)
	}
}

// TestHoldsWord: a word matches where neither end splits a number of the
// entry's (a separator there does not), case and separators aside.
func TestHoldsWord(t *testing.T) {
	for _, tc := range []struct {
		s, w string
		want bool
	}{
		{"deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", "qwen3", false}, // "qwen" "32b"
		{"deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", "qwen32", true},
		{"deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", "qwen-32b", true},
		{"Qwen/Qwen3-235B-A22B", "qwen3", true},
		{"Qwen/Qwen3-235B-A22B", "qwen3-235", true},
		{"Qwen/Qwen3-235B-A22B", "qwen32", false},
		{"Qwen/Qwen3-235B-A22B", "23", false},
		{"NVIDIA A100 80GB", "a10", false},
		{"a10g", "a10", true}, // a digit then a letter: the number ends
		{"NVIDIA H100 SXM5 80GB", "h100", true},
		{"NVIDIA H100 SXM5 80GB", "h100sxm", true},
		{"qwen2.5-32b", "qwen2", true}, // "." separates versions
		{"qwen2.5-32b", "2.5-32", true},
		{"Ünïcode 12-GPU", "ünïcode1", false},
		{"Ünïcode 12-GPU", "ünïcode12", true},
		{"l40s", "l4", false},
		{"microsoft/Phi-4-mini-instruct 3.8B", "8b", false}, // walk56: inside 3.8
		{"Phi-4 mini 3.8B", "3.8b", true},
		{"llama-3.1-8b", "llama-3", true}, // a version's prefix
		{"llama-3.1-8b", "8b", true},
		{"x", "x1", false},
	} {
		if got := holdsWord(tc.s, model.NormKey(tc.w)); got != tc.want {
			t.Errorf("holdsWord(%q, %q) = %v, want %v", tc.s, tc.w, got, tc.want)
		}
	}
}

// TestCatalogListFilterCompletes: the NAME words of catalog gpus and models
// complete to the catalog's keys, as --gpu and --model do.
func TestCatalogListFilterCompletes(t *testing.T) {
	vals, _ := complete(t, "catalog", "models", "qwen3-3")
	if strings.Join(vals, " ") != "qwen3-32b qwen3-30b-a3b qwen3-30b-a3b-2507" {
		t.Errorf("catalog models qwen3-3: candidates %v, want qwen3-32b qwen3-30b-a3b qwen3-30b-a3b-2507", vals)
	}
	vals, _ = complete(t, "catalog", "gpus", "mi3")
	if strings.Join(vals, " ") != "mi300x mi355x mi325x" {
		t.Errorf("catalog gpus mi3: candidates %v, want mi300x mi355x mi325x", vals)
	}
}

// TestCompletionUnknownShell: `gpuplan completion ksh` named a shell, yet
// was told "say which shell" (walk fix50c); it now names the shell it does
// not know and the ones it does.
func TestCompletionUnknownShell(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"completion", "ksh"}, `unknown shell "ksh": want bash, zsh, fish, powershell`},
		{[]string{"completion"}, "say which shell"},
		{[]string{"completion", "bash", "zsh"}, "one shell at a time: gpuplan completion bash"},
	} {
		code, _, errs := runCLI(t, tc.args...)
		if code != 2 || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line with %q", tc.args, code, errs, tc.want)
		}
	}
}
