package tui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model/config"
)

// accessible runs the accessible configurator on script.
func accessible(t *testing.T, script string) (out, prompts string, err error) {
	t.Helper()
	var o, p bytes.Buffer
	err = runAccessible(context.Background(), testCatalog(t), Options{In: strings.NewReader(script), Out: &o, Err: &p}, testStyles())
	return o.String(), p.String(), err
}

// Trap: ctrl+d in accessible mode panicked inside huh (a select given an
// invalid last line) with a stack trace, or acted like enter. The end of
// the input on any prompt ends with ErrInputEnded, and the answers so
// far are printed as a file to reopen.
func TestAccessibleInputEnds(t *testing.T) {
	for name, script := range map[string]string{
		"empty":             "",
		"invalid then end":  "q\n",
		"half a line":       "\n2",
		"at the export":     strings.Repeat("\n", 15) + "0\n0\n" + strings.Repeat("\n", 5),
		"in a list":         strings.Repeat("\n", 15) + "1\n",
		"in a custom input": "\n\n",
	} {
		t.Run(name, func(t *testing.T) {
			out, prompts, err := accessible(t, script)
			if !errors.Is(err, ErrInputEnded) {
				t.Fatalf("error = %v, want ErrInputEnded\n%s", err, prompts)
			}
			if err.Error() != "input ended before the questions were answered; nothing was exported" {
				t.Errorf("message %q", err)
			}
			if !strings.Contains(out, "# gpuplan answers so far") || !strings.Contains(out, "[workload]") {
				t.Errorf("the answers so far are not printed:\n%s", out)
			}
		})
	}
}

// Accessible mode shows the default of every question, checks answers as
// it goes (a bad custom shape is asked again at once), offers only the
// units that apply, prints no command-line hints, and after "no" to
// overwriting asks for another name.
func TestAccessibleAsksWell(t *testing.T) {
	dir := t.TempDir()
	taken, free := filepath.Join(dir, "taken.toml"), filepath.Join(dir, "free.toml")
	if err := os.WriteFile(taken, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	custom := fmt.Sprint(len(testCatalog(t).Models) + 1) // "custom…" follows the catalog's models
	script := "\n\n" + custom + "\n" +                   // framework, task, model: custom
		"\n\n100\n3\n4\n\n" + // params, layers, hidden 100, heads 3 (refused), 4, vocab
		strings.Repeat("\n", 16) + "0\n0\n" + strings.Repeat("\n", 5) + // the rest: defaults
		taken + "\nn\n" + free + "\n"
	out, prompts, err := accessible(t, script)
	if err != nil {
		t.Fatalf("%v\n%s", err, prompts)
	}
	// The providers and regions (multi-selects, where huh takes 0, not a
	// bare enter) say how to keep the selection.
	for _, want := range []string{"[pytorch]", "[qlora]", "[llama-3.1-8b]", "hidden must be a multiple of heads", "exported to " + free,
		"[none chosen] (enter keeps it)\nProviders"} {
		if !strings.Contains(prompts, want) {
			t.Errorf("prompts lack %q:\n%s", want, prompts)
		}
	}
	if strings.Contains(prompts, "head_dim") || strings.Contains(prompts, "images") {
		t.Errorf("prompts name head_dim or offer images for an LLM:\n%s", prompts)
	}
	if strings.Contains(out, "--limit") {
		t.Errorf("the summary has a command-line hint:\n%s", out)
	}
	if b, _ := os.ReadFile(taken); string(b) != "x" {
		t.Error("the file was overwritten after no")
	}
	if _, err := os.Stat(free); err != nil {
		t.Errorf("not exported to the second name: %v", err)
	}
}

// ACCESSIBLE=1 / TERM=dumb: plain prompts (pages that do not apply are
// not asked), a text summary on stdout, and an export.
func TestAccessible(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.toml")
	var out, prompts bytes.Buffer
	// Every default: 19 questions (recipe, loss, 4-bit type, double
	// quantization and activation offload among them), the two lists (0 ends a list), 5 more, then the export's file name.
	script := strings.Repeat("\n", 19) + "0\n0\n" + strings.Repeat("\n", 5) + path + "\n"
	err := runAccessible(context.Background(), testCatalog(t), Options{In: strings.NewReader(script), Out: &out, Err: &prompts}, testStyles())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(prompts.String(), "Custom model") || strings.Contains(prompts.String(), "Inference precision") {
		t.Errorf("hidden pages were asked:\n%s", prompts.String())
	}
	if !strings.Contains(out.String(), "Llama 3.1 8B") || !strings.Contains(out.String(), "best:") {
		t.Errorf("summary lacks the model or the best offer:\n%s", out.String())
	}
	if strings.Contains(out.String(), "\x1b[") {
		t.Error("the summary has escape codes")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("not exported: %v\nprompts:\n%s", err, prompts.String())
	}
	if _, err := config.Decode(b); err != nil {
		t.Error(err)
	}
}

// Trial 15c B3: in accessible mode the providers and regions refused a
// bare enter ("must be a number between 0 and N") though the banner
// says enter keeps the answer in brackets; the recipe, loss and 4-bit
// type showed no bracketed answer at all. A bare enter (also a CRLF
// one) keeps every list's choice, and every list shows what enter keeps.
func TestAccessibleEnterKeeps(t *testing.T) {
	for name, eol := range map[string]string{"LF": "\n", "CRLF": "\r\n"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "a.toml")
			// Every default (the two lists too), then the export's file name.
			script := strings.Repeat(eol, 26) + path + eol
			_, prompts, err := accessible(t, script)
			if err != nil {
				t.Fatalf("%v\n%s", err, prompts)
			}
			if strings.Contains(prompts, "Invalid") {
				t.Errorf("a bare enter was refused:\n%s", prompts)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("not exported: %v\n%s", err, prompts)
			}
			cfg, err := config.Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			if len(cfg.Search.Providers) != 0 || len(cfg.Search.Regions) != 0 {
				t.Errorf("enter on the lists chose providers %v, regions %v; want none, as they were", cfg.Search.Providers, cfg.Search.Regions)
			}
			// A select's title is the line before its first option; the
			// text just before the title is what enter keeps, in brackets.
			lines := strings.Split(prompts, "\n")
			titles := 0
			for i := 2; i+1 < len(lines); i++ {
				if !strings.HasPrefix(lines[i+1], "1. ") {
					continue
				}
				titles++
				title := i
				if strings.HasPrefix(lines[i], "Select up to ") { // a multi-select's
					title--
				}
				if before := strings.TrimSpace(lines[title-1]); !strings.HasSuffix(before, "]") && !strings.HasSuffix(before, "(enter keeps it)") {
					t.Errorf("%q is asked without its answer in brackets before it (%q)", strings.TrimSpace(lines[title]), before)
				}
			}
			if titles < 12 {
				t.Errorf("%d lists asked, want every list of the default walk:\n%s", titles, prompts)
			}
			for _, want := range []string{"[auto]\nTraining recipe", "[hf-fp32]\nLoss", "[nf4]\n4-bit type", "[none chosen] (enter keeps it)\nProviders"} {
				if !strings.Contains(prompts, want) {
					t.Errorf("prompts lack %q", want)
				}
			}
		})
	}
}

// After a number toggles a provider, a bare enter confirms the
// selection as it then stands; the serving page's lists show their
// defaults as the options read (no option reads "0" or "").
func TestAccessibleEnterConfirms(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.toml")
	script := strings.Repeat("\n", 19) + "4\n\n\n" + strings.Repeat("\n", 5) + path + "\n"
	_, prompts, err := accessible(t, script)
	if err != nil {
		t.Fatalf("%v\n%s", err, prompts)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("not exported: %v\n%s", err, prompts)
	}
	if cfg, err := config.Decode(b); err != nil || strings.Join(cfg.Search.Providers, ",") != "lambda" {
		t.Errorf("4 then enter on the providers: %v, %v; want lambda", cfg.Search.Providers, err)
	}
	_, prompts, _ = accessible(t, "\n5\n"+strings.Repeat("\n", 40)) // inference, every default
	for _, want := range []string{"[as the precision]\nWeight format", "[auto]\nKV cache", "[auto]\nTensor parallel"} {
		if !strings.Contains(prompts, want) {
			t.Errorf("prompts lack %q:\n%s", want, prompts)
		}
	}
}

// The prompts are plain text: the export's and the overwrite question's
// titles had huh's default theme, escape sequences on a dumb terminal.
func TestAccessiblePromptsPlain(t *testing.T) {
	dir := t.TempDir()
	taken := filepath.Join(dir, "taken.toml")
	if err := os.WriteFile(taken, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, prompts, err := accessible(t, strings.Repeat("\n", 26)+taken+"\nn\n\n")
	if err != nil {
		t.Fatalf("%v\n%s", err, prompts)
	}
	if !strings.Contains(prompts, "Overwrite") || strings.Contains(prompts, "\x1b") {
		t.Errorf("the prompts have escape sequences, or no overwrite question:\n%q", prompts)
	}
}

// FuzzPromptReader: the accessible prompts' reader gives the input byte
// for byte, but for a "0" before each line that starts with a newline
// (LF or CR) while a multi-select asks (zero); it never loses, adds or
// reorders anything else, whatever the input.
func FuzzPromptReader(f *testing.F) {
	for _, s := range []string{"", "\n", "\r\n", "1\n\n", "\n\n0\n", "3\r\n\r\n", "\r", "abc", "x\ny\n\n\rz", "\x00\n\xff"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, in string, zero bool) {
		var want strings.Builder
		for i := 0; i < len(in); i++ {
			if zero && (i == 0 || in[i-1] == '\n') && (in[i] == '\n' || in[i] == '\r') {
				want.WriteByte('0')
			}
			want.WriteByte(in[i])
		}
		r := &promptReader{r: strings.NewReader(in), zero: zero}
		var got bytes.Buffer
		buf := make([]byte, 4) // the reader gives one byte a call, whatever the buffer
		for range 3*len(in) + 2 {
			n, err := r.Read(buf)
			got.Write(buf[:n])
			if err != nil {
				break
			}
		}
		if got.String() != want.String() {
			t.Errorf("promptReader(%q, zero %v) read %q, want %q", in, zero, got.String(), want.String())
		}
		if !r.eof {
			t.Errorf("promptReader(%q) did not note the end of the input", in)
		}
	})
}
