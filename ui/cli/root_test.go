package cli

import "testing"

// TestNamedCommandBuiltAlone: a command line naming a command builds
// that command alone (newRoot); its help, flags and an error must read
// as they do from the whole tree, which `gpuplan help NAME` builds.
func TestNamedCommandBuiltAlone(t *testing.T) {
	for _, name := range []string{"estimate", "version", "catalog", "export", "recommend", "offers", "plan"} {
		_, alone, _ := runCLI(t, name, "--help")
		_, whole, _ := runCLI(t, "help", name)
		if alone == "" || alone != whole {
			t.Errorf("%s --help built alone differs from `help %s`:\n--- alone\n%s\n--- whole\n%s", name, name, alone, whole)
		}
	}
	// An unknown flag fails the same way, with cobra's message.
	codeAlone, _, errAlone := runCLI(t, "recommend", "--no-such-flag")
	if codeAlone != 2 || errAlone == "" {
		t.Errorf("recommend --no-such-flag: exit %d, stderr %q; want 2 and a message", codeAlone, errAlone)
	}
}
