package cli

import (
	"strings"
	"testing"
)

// TestConfiguratorPlanRefusedAsPlan: the configurator's --config PLAN.toml
// holds the plan to gpuplan plan's check (plan.Plan.Priced, then
// checkPlanModels) and refuses what plan refuses, in the same words and
// exit 2, before it asks for a terminal (tui37: a phase without
// usd_per_hour opened with its cost and the total "?", and a phase's
// unknown model opened when it was not the phase opened). A plan that
// plan prices passes the check (and then needs a terminal).
func TestConfiguratorPlanRefusedAsPlan(t *testing.T) {
	withModel := func(m string) string {
		s := servePlan(t) // the serve phase's answers are the last
		i := strings.LastIndex(s, `model = "llama-3.1-8b"`)
		return s[:i] + `model = "` + m + `"` + s[i+len(`model = "llama-3.1-8b"`):]
	}
	for _, tc := range []struct {
		name, plan, want string
	}{
		{"no usd_per_hour", strings.Replace(servePlan(t), "usd_per_hour = 0.8048\n", "", 1), `phase "serve": usd_per_hour is missing`},
		{"no duration", strings.Replace(servePlan(t), "job_hours = 14.5\n", "", 1), `phase "fine-tune": give job_hours (a job) or months (a service), not both or neither`},
		{"unknown model, phase not opened", withModel("llama-9"), `phase "serve" answers.model: unknown model "llama-9"`},
		{"priced", servePlan(t), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, "plan.toml", tc.plan)
			for _, lang := range []string{"en", "zh-CN"} {
				pcode, _, perr := runCLI(t, "--lang", lang, "plan", path, "--no-savings")
				ccode, cout, cerr := runCLI(t, "--lang", lang, "--config", path)
				if tc.want == "" {
					if pcode != 0 || ccode != 2 || !strings.Contains(cerr, "needs a terminal") && !strings.Contains(cerr, "终端") {
						t.Errorf("%s: plan exit %d (%s); configurator exit %d: %s; want 0, and the terminal asked for", lang, pcode, perr, ccode, cerr)
					}
					continue
				}
				if lang == "en" && !strings.Contains(perr, tc.want) {
					t.Errorf("plan: exit %d, stderr %q; want %q", pcode, perr, tc.want)
				}
				if pcode != 2 || ccode != 2 || cout != "" || cerr != perr {
					t.Errorf("%s: plan exit %d, stderr\n%s\nconfigurator exit %d, stderr\n%s\nwant both exit 2 with the same words", lang, pcode, perr, ccode, cerr)
				}
			}
		})
	}
}
