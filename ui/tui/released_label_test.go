package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/teatest/v2"
)

// TestPrecisionPageNamesTheRelease walks to the Precision page for models
// released quantized: gpt-oss's default is labelled by its released
// format, mxfp4, not "int4 (GPTQ/AWQ)" (new-user trial), and DeepSeek's
// fp8 as released; a bf16 model keeps the plain labels.
func TestPrecisionPageNamesTheRelease(t *testing.T) {
	cat := embeddedCatalog(t)
	for _, c := range []struct{ search, want, wantNot string }{
		{"gpt-oss 120", "mxfp4     as released: 4-bit MoE experts", "4-bit weights (GPTQ/AWQ)"},
		{"deepseek-v3", "fp8       as released: fp8 weights", "fp8 compute (Ada, Hopper)"},
		{"qwen2.5-7b", "int4      4-bit weights (GPTQ/AWQ)", "as released"},
	} {
		t.Run(c.search, func(t *testing.T) {
			tm := teatest.NewTestModel(t, newTestApp(t, cat, Options{}), teatest.WithInitialTermSize(120, 40))
			sc := newScreen(tm, 120, 40)
			await(t, sc, "page 1 of 13")
			keys(tm, enter)
			await(t, sc, "┃ Task")
			keys(tm, down, enter) // inference (serving)
			await(t, sc, ": Model")
			keys(tm, runes("/"))
			tm.Type(c.search)
			keys(tm, enter)
			await(t, sc, ": Precision")
			await(t, sc, c.want)
			if got := sc.em.String(); strings.Contains(got, c.wantNot) {
				t.Errorf("Precision page shows %q:\n%s", c.wantNot, got)
			}
		})
	}
}
