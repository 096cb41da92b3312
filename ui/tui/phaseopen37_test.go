package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/plan"
)

// TestOpenPhaseWithoutAnswers (tui37): enter on a plan's phase without
// answers said "phase "serve" keeps its answers in : open it with
// gpuplan --config " for a phase that names no file; it says the phase
// has none. A phase that names a configuration file names it in the
// plan's folder (plan.Phase.ConfigPath) and the command that opens it
// with the phase's offer, --config PLAN --phase NAME, a name with a
// space quoted for the shell. In English and Chinese.
func TestOpenPhaseWithoutAnswers(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "plans")
	pl := plan.Plan{Phases: []plan.Phase{
		{Name: "fine tune", Config: "ft.toml", Provider: "lambda", Instance: "gpu_1x_a100_sxm4", Region: "us-east-1", Pricing: model.OnDemand, Instances: 1, USDPerHour: 1.29, JobHours: 4},
		{Name: "serve", Provider: "lambda", Instance: "gpu_1x_a100_sxm4", Region: "us-east-1", Pricing: model.OnDemand, Instances: 1, USDPerHour: 1.29, Months: 1},
	}}
	for _, tc := range []struct {
		lang       language.Tag
		file, bare string
	}{
		{language.English, `phase "fine tune" keeps its answers in ` + filepath.Join(dir, "ft.toml") + ": open it with gpuplan --config " + filepath.Join(dir, "plan.toml") + ` --phase 'fine tune'`,
			`phase "serve" has no answers to open (neither [phase.answers] nor config): the plan keeps its offer and price alone`},
		{language.SimplifiedChinese, `阶段 "fine tune" 的答案保存在 ` + filepath.Join(dir, "ft.toml") + " 中：请用 gpuplan --config " + filepath.Join(dir, "plan.toml") + ` --phase 'fine tune' 打开`,
			`阶段 "serve" 没有可打开的答案（既无 [phase.answers] 也无 config）：计划只记录它的报价和价格`},
	} {
		p := pl
		m := start(t, newTestApp(t, testCatalog(t), Options{Plan: &p, PlanPath: filepath.Join(dir, "plan.toml"), Lang: tc.lang}), size(200, 40), ctrlT, enter)
		if got := m.footer.status; got != tc.file {
			t.Errorf("%v: enter on the phase with a config file: footer %q, want %q", tc.lang, got, tc.file)
		}
		m = drive(t, m, down, enter)
		if got := m.footer.status; got != tc.bare || strings.Contains(got, "--config") {
			t.Errorf("%v: enter on the phase with neither: footer %q, want %q", tc.lang, got, tc.bare)
		}
		if m.screen != screenPlan {
			t.Errorf("%v: left the plan page for a phase with nothing to open", tc.lang)
		}
	}
	for _, tt := range []struct{ in, want string }{
		{"serve", "serve"}, {"plan-2.toml", "plan-2.toml"}, {"fine tune", "'fine tune'"}, {"it's", `'it'\''s'`}, {"", "''"}, {"a$b", "'a$b'"},
	} {
		if got := shellWord(tt.in); got != tt.want {
			t.Errorf("shellWord(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestPlanTitleChinese (tui37): the plan page's title names the plan
// with the full-width colon in Chinese (计划：名), as every other
// zh-CN line; it read "计划: 名".
func TestPlanTitleChinese(t *testing.T) {
	for _, tc := range []struct {
		lang language.Tag
		want string
	}{{language.English, "Plan: Llama fine-tune"}, {language.SimplifiedChinese, "计划：Llama fine-tune"}} {
		pl := plan.Plan{Name: "Llama fine-tune", Phases: []plan.Phase{{Name: "serve", Provider: "lambda", Instance: "gpu_1x_a100_sxm4", Region: "us-east-1", Pricing: model.OnDemand, Instances: 1, USDPerHour: 1.29, Months: 1}}}
		m := start(t, newTestApp(t, testCatalog(t), Options{Plan: &pl, PlanPath: "plan.toml", Lang: tc.lang}), size(120, 40), ctrlT)
		if s := screenText(m); !strings.Contains(s, tc.want) {
			t.Errorf("%v: the title is not %q:\n%s", tc.lang, tc.want, s)
		}
	}
}
