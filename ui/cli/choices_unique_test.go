package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestFlagChoicesNameEachOnce: no flag's list of valid values (what its
// error prints after "want", and shell completion offers) names a value
// twice. A new user's `estimate --precision fp64` read "did you mean
// "fp16"? want amp-bf16, amp-fp16, bf16, fp16, fp32, tf32, fp8, fp16,
// int8 or int4"; it now reads the list once.
func TestFlagChoicesNameEachOnce(t *testing.T) {
	root := newRoot(&Env{Args: []string{"help"}})
	seen := 0
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, fs := range []*pflag.FlagSet{c.LocalNonPersistentFlags(), c.PersistentFlags()} {
			fs.VisitAll(func(f *pflag.Flag) {
				e, ok := f.Value.(interface{ choices() []string })
				if !ok {
					return
				}
				seen++
				l := e.choices()
				for i, v := range l {
					if slices.Contains(l[:i], v) {
						t.Errorf("%s --%s names %q twice: %v", c.CommandPath(), f.Name, v, l)
					}
				}
			})
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	if seen == 0 {
		t.Fatal("no flag with choices found")
	}
	code, _, errOut := runCLI(t, "estimate", "--model", "llama-3.1-8b", "--precision", "fp64")
	const want = `want amp-bf16, amp-fp16, bf16, fp16, fp32, tf32, fp8, int8 or int4`
	if code != 2 || !strings.Contains(errOut, want) {
		t.Errorf("--precision fp64: exit %d, %q; want %q", code, errOut, want)
	}
}
