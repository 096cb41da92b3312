package cli

import (
	"regexp"
	"strings"
	"testing"
)

// TestValueOrigin: an error about an instance type or region that came
// from the file, not a flag, names the file and key it came from, not a
// flag the user never typed (walk37: "--region it-fr2: …" for a
// configuration's region beside --instance of another provider;
// "--instance aws/g6e.xlarg…" and "--region us-east-9…" for a plan's
// phase). A value a flag gave is still named by its flag.
func TestValueOrigin(t *testing.T) {
	const (
		cfg    = "testdata/origin38-config.toml"
		inst   = "testdata/origin38-instance.toml"
		region = "testdata/origin38-region.toml"
	)
	tests := []struct {
		args []string
		want string
		flag string // the flag that must not be named; "" when one was typed
	}{
		{[]string{"export", "--config", inst, "--phase", "train", "--format", "torchrun"},
			"gpuplan: " + inst + `: phase "train" instance aws/g6e.xlarg: unknown aws instance type "g6e.xlarg"; did you mean aws/g6e.xlarge`, "--instance"},
		{[]string{"export", "--config", region, "--phase", "train", "--format", "torchrun"},
			"gpuplan: " + region + `: phase "train" region us-east-9: aws/g6e.xlarge is not offered there; did you mean "us-east-1"?`, "--region"},
		// estimate --phase says why export writes nothing in the same words.
		{[]string{"estimate", "--config", region, "--phase", "train"},
			"export --phase writes nothing for it: " + region + `: phase "train" region us-east-9: aws/g6e.xlarge is not offered there`, "--region"},
		// Flags typed are named as flags.
		{[]string{"export", "--config", region, "--phase", "train", "--region", "us-east-7", "--format", "torchrun"},
			"gpuplan: --region us-east-7: aws/g6e.xlarge is not offered there", ""},
		{[]string{"export", "--instance", "aws/g6e.xlarg", "--model", "llama-3.1-8b", "--task", "lora"},
			`gpuplan: --instance aws/g6e.xlarg: unknown aws instance type "g6e.xlarg"`, ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args[:4], " "), func(t *testing.T) {
			_, _, errOut := runCLI(t, tt.args...)
			if !strings.Contains(errOut, tt.want) {
				t.Errorf("%v: want %q in:\n%s", tt.args, tt.want, errOut)
			}
			// "--region it-fr2" names a value the flag never gave; "give
			// --region (regions: …)" is a hint, not a value.
			if tt.flag != "" && regexp.MustCompile(regexp.QuoteMeta(tt.flag)+` [^(]`).MatchString(errOut) {
				t.Errorf("%v: names %s, which was not typed:\n%s", tt.args, tt.flag, errOut)
			}
		})
	}
	// A picked offer's region beside --instance of another provider pins
	// nothing (walk57): the new instance goes to its own region the
	// file's search allows (TestExportConfigInstanceOtherProvider).
	if code, out, errOut := runCLI(t, "export", "--config", cfg, "--instance", "verda/1RTX6000ADA.10V", "--format", "skypilot"); code != 0 || !strings.Contains(out, "region: FIN-03") {
		t.Errorf("--instance of another provider: exit %d, stderr %q\n%s", code, errOut, out)
	}
}
