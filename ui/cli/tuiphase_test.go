package cli

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// gpuplan --config plan.toml --phase fine-tune failed with an unknown
// command or flag; the configurator now takes --phase NAME on a plan, as
// recommend --config F --phase NAME does. Without a terminal the file is
// still read first, so a bad phase is refused before the terminal is.
func TestConfiguratorPhase(t *testing.T) {
	plan := writeFile(t, "plan.toml", servePlan(t))
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"phase named", []string{"--config", plan, "--phase", "serve"}, "needs a terminal"},
		{"phase=", []string{"--config", plan, "--phase=fine-tune"}, "needs a terminal"},
		{"typo", []string{"--config", plan, "--phase", "serv"}, `did you mean "serve"?`},
		{"no plan", []string{"--phase", "serve"}, "give the plan with --config"},
		{"configuration", []string{"--config", writeFile(t, "run.toml", bertConfig), "--phase", "serve"}, "it is a configuration, read without --phase"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tc.args...)
			if code != 2 || out != "" || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q", code, out, errOut, tc.want)
			}
		})
	}
}

// readConfigOrPlan opens the phase named, or else the first with answers,
// and says which.
func TestReadConfigOrPlanPhase(t *testing.T) {
	plan := writeFile(t, "plan.toml", servePlan(t))
	for _, tc := range []struct {
		phase, want string
		task        model.Task
	}{{"", "fine-tune", model.TaskQLoRA}, {"serve", "serve", model.TaskInference}, {"fine-tune", "fine-tune", model.TaskQLoRA}} {
		c, pl, name, err := readConfigOrPlan(plan, tc.phase)
		if err != nil || c == nil || pl == nil {
			t.Fatalf("--phase %q: %v", tc.phase, err)
		}
		if name != tc.want || c.Workload.Task != tc.task || c.Selection != nil {
			t.Errorf("--phase %q: opened %q task %s (selection %v), want %q task %s", tc.phase, name, c.Workload.Task, c.Selection, tc.want, tc.task)
		}
	}
}

// servePlan is testdata/plan-two-phases.toml with answers for its serve
// phase.
func servePlan(t *testing.T) string {
	return twoPhases(t) + "[phase.answers]\nmodel = \"llama-3.1-8b\"\ntask = \"inference\"\n"
}
