package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPhaseOnBrokenPlanSaysWhy: --phase on a plan the TOML decoder
// cannot read says what is wrong with it, as gpuplan plan does, not that
// it "has no [[phase]] tables; it is a configuration" (walk50: a plan
// with months written twice sent a user looking for tables that were
// there). The configurator's reader (readConfigOrPlan) says the same.
func TestPhaseOnBrokenPlanSaysWhy(t *testing.T) {
	const head = "schema_version = 1\nname = \"x\"\n\n[[phase]]\nname = \"serve\"\nprovider = \"aws\"\ninstance = \"p5.48xlarge\"\nregion = \"us-east-1\"\ninstances = 1\nusd_per_hour = 55.04\n"
	for _, tc := range []struct {
		name, text, want string
	}{
		{"months written twice", head + "months = 1\nmonths = 2\n", "key 'phase.months' has already been defined"},
		{"name written twice", "schema_version = 1\nname = \"x\"\n[[phase]]\nname = \"a\"\nname = \"serve\"\n", "key 'phase.name' has already been defined"},
		{"unclosed string", "schema_version = 1\nname = \"x\"\n[[phase]]\nname = \"serve\n", "line 4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "plan.toml")
			if err := os.WriteFile(path, []byte(tc.text), 0o600); err != nil {
				t.Fatal(err)
			}
			for _, cmd := range []string{"estimate", "recommend", "export"} {
				code, _, errOut := runCLI(t, cmd, "--config", path, "--phase", "serve")
				if code != 2 || !strings.Contains(errOut, tc.want) || strings.Contains(errOut, "no [[phase]] tables") {
					t.Errorf("%s --phase serve: exit %d, stderr %q; want 2 and %q", cmd, code, errOut, tc.want)
				}
			}
			_, _, _, err := readConfigOrPlan(path, "serve")
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "no [[phase]] tables") {
				t.Errorf("readConfigOrPlan() = %v, want %q", err, tc.want)
			}
		})
	}
	// A configuration, which reads, is still told --phase is for plans.
	path := filepath.Join(t.TempDir(), "c.toml")
	if err := os.WriteFile(path, []byte("schema_version = 1\n[workload]\nmodel = \"llama-3.1-8b\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, "estimate", "--config", path, "--phase", "serve"); code != 2 || !strings.Contains(errOut, "no [[phase]] tables") {
		t.Errorf("configuration with --phase: exit %d, stderr %q", code, errOut)
	}
}
