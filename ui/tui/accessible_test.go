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

	"github.com/gpuplan/gpuplan/model"
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
		"at the export":     strings.Repeat("\n", 13) + "0\n0\n" + strings.Repeat("\n", 5),
		"in a list":         strings.Repeat("\n", 13) + "1\n",
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
		strings.Repeat("\n", 14) + "0\n0\n" + strings.Repeat("\n", 5) + // the rest: defaults
		taken + "\nn\n" + free + "\n"
	out, prompts, err := accessible(t, script)
	if err != nil {
		t.Fatalf("%v\n%s", err, prompts)
	}
	// The providers and regions (multi-selects, where huh takes 0, not a
	// bare enter) say how to keep the selection.
	for _, want := range []string{"[pytorch]", "[qlora]", "[llama-3.1-8b]", "hidden must be a multiple of heads", "exported to " + free,
		"[none chosen] (0 keeps it)\nProviders"} {
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
	// Every default: 17 questions (recipe, loss, 4-bit type and double
	// quantization among them), the two lists (0 ends a list), 5 more, then the export's file name.
	script := strings.Repeat("\n", 17) + "0\n0\n" + strings.Repeat("\n", 5) + path + "\n"
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
	if _, err := model.DecodeConfig(b); err != nil {
		t.Error(err)
	}
}
