package cli

import (
	"strings"
	"testing"
)

// TestWorkloadFlagOnRoot (walk56): `gpuplan --model gemma-3-12b` said
// `unknown command "gemma-3-12b"`, the flag's value taken for a command.
// A flag of the commands given before any command names them and the
// configurator's way in, in one line; the root's own flags and their
// values pass; a flag nobody has is cobra's "unknown flag". The
// --flag=value form is told the same.
func TestWorkloadFlagOnRoot(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--model", "gemma-3-12b"}, "unknown flag --model for gpuplan: it is a flag of gpuplan estimate, gpuplan export or gpuplan recommend; the configurator takes its answers on its pages, or from --config FILE"},
		{[]string{"--trust-overlay", "--gpu", "l4"}, "unknown flag --gpu for gpuplan: it is a flag of"},
		// The --flag=value form, as the spaced one: it was cobra's bare
		// "unknown flag --gpu" (no command was built to name).
		{[]string{"--gpu", "l4"}, "unknown flag --gpu for gpuplan: it is a flag of gpuplan estimate, gpuplan export or gpuplan recommend; the configurator takes its answers on its pages, or from --config FILE"},
		{[]string{"--gpu=l4"}, "unknown flag --gpu for gpuplan: it is a flag of gpuplan estimate, gpuplan export or gpuplan recommend; the configurator takes its answers on its pages, or from --config FILE"},
		{[]string{"--model=gemma-3-12b"}, "unknown flag --model for gpuplan: it is a flag of"},
		{[]string{"--trust-overlay", "--config=x.toml", "--gpu=l4"}, "unknown flag --gpu for gpuplan: it is a flag of"},
		{[]string{"--lang=zh-CN", "--gpu=l4"}, "gpuplan 没有 --gpu 选项"},
		{[]string{"--no-such-flag=1"}, "unknown flag --no-such-flag (see gpuplan --help)"},
		{[]string{"--lang", "zh-CN", "--model", "x"}, "gpuplan 没有 --model 选项"},
		{[]string{"--no-such-flag"}, "unknown flag --no-such-flag"},
		{[]string{"recomend", "--model", "x"}, `did you mean "recommend"?`},
	} {
		code, out, errOut := runCLI(t, tc.args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", tc.args, code, out, errOut, tc.want)
		}
	}
}
