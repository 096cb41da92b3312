package tui

import (
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/plan"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// New-user walk (ux33): the footer's errors (phases.go wrote errText's
// English) and the export dialog's read English in the Chinese
// configurator. They go through errTextIn, as the panel's do: each case
// is worked from zh-CN.toml, and no English word is left (the leak test's
// allowlist). In English the sentences stay as they were.
func TestChineseFooterErrors(t *testing.T) {
	for _, tt := range []struct {
		name   string
		keys   []tea.Msg
		act    func(m app) app // after keys
		zh, en string          // on screen
	}{
		{
			// A phase the plan file would refuse (job_hours past
			// plan.MaxJobHours): not added, and said why. It was added, and
			// the plan it exported did not reopen.
			name: "a job too long for a plan",
			act: func(m app) app {
				m.a.Dataset = "1000000B" // 1e15 tokens
				m.recompute()
				return drive(t, m, ctrlO, runes("a"))
			},
			zh: "该作业需要", en: "the job takes",
		},
		{
			// The answers no longer parse when a is pressed on an offer.
			name: "answers to fix first",
			act: func(m app) app {
				o := m.res.best()
				m.a.Batch = "xy"
				next, _ := m.addPhase(o)
				return next.(app)
			},
			zh: `请先改正回答：批大小：应为 1 到 1048576 之间的整数，收到 "xy"`,
			en: `fix the answers first: batch size: want a whole number from 1 to 1048576, got "xy"`,
		},
		{
			// A plan that would not reopen is not exported; the file
			// plan's own reason, keyed by the phase's field.
			name: "a plan that would not reopen",
			act: func(m app) app {
				m.plan.plan.Phases = []plan.Phase{{Name: "fine-tune", Provider: "aws", Instance: "g6.xlarge", Region: "us-east-1",
					Pricing: "on-demand", Instances: 1, USDPerHour: 0.8, JobHours: 2e8, Answers: map[string]string{"model": "llama-3.1-8b"}}}
				m = drive(t, m, ctrl('t'))
				next, _ := m.openPlanExport()
				return next.(app)
			},
			zh: `phase "fine-tune" job_hours：必须在 0.001–1e+07 小时 之间（或省略），实际为 2e+08`,
			en: `phase "fine-tune" job_hours: must be 0.001–1e+07 hours (or left out), got 2e+08`,
		},
	} {
		for _, zh := range []bool{true, false} {
			opts, want := Options{}, tt.en
			if zh {
				opts, want = zhOptions(), tt.zh
			}
			t.Run(tt.name+map[bool]string{true: " zh", false: " en"}[zh], func(t *testing.T) {
				m := start(t, newTestApp(t, testCatalog(t), opts), append([]tea.Msg{size(200, 60)}, tt.keys...)...)
				m = tt.act(m)
				if !m.footer.isErr {
					t.Fatalf("no error in the footer:\n%s", screenText(m))
				}
				if got := flat(ansi.Strip(m.footer.status)); !strings.Contains(got, want) {
					t.Errorf("footer %q, want %q", got, want)
				}
				if zh {
					allow := zhAllowlist(t)
					allow.Add("xy") // the answer as typed
					if leaks := i18n.Leaks(m.footer.status, allow); len(leaks) > 0 {
						t.Errorf("English in the Chinese footer: %s\n%s", strings.Join(leaks, " "), m.footer.status)
					}
				}
				if len(m.plan.plan.Phases) > 1 || tt.name != "a plan that would not reopen" && len(m.plan.plan.Phases) > 0 {
					t.Errorf("a phase was added: %+v", m.plan.plan.Phases)
				}
			})
		}
	}
}

// The export dialog's error (a launch file for a model with no entry
// point) is Chinese too: the dialog goes through errTextIn, and the
// reason inside it, model/launch's Plan.NoEntry, is a message with its
// Chinese (it was an English string inside the Chinese sentence).
func TestChineseExportDialogError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.sh")
	m := start(t, newTestApp(t, testCatalog(t), zhOptions()), append([]tea.Msg{size(120, 40)}, bertAnswers()...)...)
	m = drive(t, m, append([]tea.Msg{ctrlE, down, down, enter}, msgs(replace(path), enter)...)...) // torchrun, the name
	if m.dialog == nil || m.dialog.err == nil {
		t.Fatalf("no error in the dialog:\n%s", screenText(m))
	}
	want := "；配置器不接受脚本：请导出 gpuplan TOML，然后运行 gpuplan export --config FILE --script YOUR_SCRIPT --format torchrun"
	if got := errTextIn(m.lang, m.dialog.err); !strings.HasSuffix(got, want) {
		t.Errorf("the dialog's error:\n got %q\nwant it to end %q", got, want)
	}
	if !strings.Contains(flat(screenText(m)), "配置器不接受脚本") {
		t.Errorf("the dialog does not show it:\n%s", screenText(m))
	}
	got := errTextIn(m.lang, m.dialog.err)
	if !strings.HasPrefix(got, "没有训练入口：") || !strings.Contains(got, "没有随 transformers 或 TRL 安装的训练入口") {
		t.Errorf("the reason is not Chinese: %q", got)
	}
	allow := zhAllowlist(t)
	allow.Add("BERT-large") // the model's name
	if leaks := i18n.Leaks(got, allow); len(leaks) > 0 {
		t.Errorf("English in the Chinese dialog error: %s\n%s", strings.Join(leaks, " "), got)
	}
	if en := errTextIn(nil, m.dialog.err); !strings.Contains(en, "has no training entry point installed with transformers or TRL") {
		t.Errorf("English: %q", en)
	}
}

// A custom model's shape the architecture refuses was an fmt error
// around errText's English; it is a message now, Chinese in the footer
// (errIn, a field's error) and the panel (errTextIn), its English as it
// was.
func TestCustomModelErrorTranslates(t *testing.T) {
	a := defaultAnswers(testCatalog(t))
	// An FFN past the shape's limit: the layers, hidden size, heads and
	// vocabulary answers are held to the same limits by their own checks
	// (walk 49e), so 2000 layers no longer reach the shape's check.
	a.Model, a.Params, a.Layers, a.Hidden, a.Heads, a.Vocab = modelCustom, "", "32", "4096", "32", "32000"
	a.extra.FFN = 5 << 20
	err := a.customError(testCatalog(t))
	if err == nil {
		t.Fatal("an FFN of 5242880 accepted")
	}
	const en = "custom model: shape out of range (layers ≤ 1000, hidden ≤ 1048576, heads ≤ 16384, vocab ≤ 16777216, ffn ≤ 4194304)"
	if err.Error() != en || errIn(nil, err) != en || errTextIn(nil, err) != en {
		t.Errorf("English: %q", err.Error())
	}
	zh := i18n.New(language.SimplifiedChinese)
	for name, got := range map[string]string{"errIn": errIn(zh, err), "errTextIn": errTextIn(zh, err)} {
		if !strings.HasPrefix(got, "自定义模型：") || len(i18n.Leaks(got, zhAllowlist(t))) > 0 {
			t.Errorf("%s: %q", name, got)
		}
	}
}

// A phase whose answers name a config.json anywhere is added (the plan's
// folder is the export's to know); the export of a plan that names one
// outside its folder says why it would not reopen, as gpuplan plan would.
func TestPhaseFilesLeftToTheExport(t *testing.T) {
	p := plan.Phase{Provider: "aws", Instance: "g6.xlarge", Region: "us-east-1", Pricing: "on-demand", Instances: 1,
		USDPerHour: 0.8, JobHours: 2, Answers: map[string]string{"hf_config": "/models/x/config.json", "task": "lora"}}
	if err := phaseReopens(p); err != nil {
		t.Errorf("a phase with a config.json path refused: %v", err)
	}
	if p.Name != "" || p.Answers["hf_config"] == "" {
		t.Errorf("the check changed the phase: %+v", p)
	}
	p.Name = "fine-tune"
	err := planReopens(&plan.Plan{Phases: []plan.Phase{p}})
	if err == nil || !strings.Contains(err.Error(), "outside the plan's folder") {
		t.Errorf("the plan's export: %v", err)
	}
}

// The config.json question's error and a serving plan's reasons are
// messages: their English as before ("; " between reasons), their
// wrappers Chinese.
func TestWrappedErrorsAreMessages(t *testing.T) {
	zh := i18n.New(language.SimplifiedChinese)
	reasons := []string{"a", "b"}
	msgs := []model.Message{model.Msg("a"), model.Msg("b")}
	for _, ms := range [][]model.Message{msgs, nil} {
		if got := joinReasons(reasons, ms).String(); got != "a; b" {
			t.Errorf("joinReasons: %q, want %q", got, "a; b")
		}
	}
	if got := zh.Message(model.Msg("%s cannot serve the model: %v", "g6.xlarge", joinReasons(reasons, msgs))); got != "g6.xlarge 无法为该模型提供推理服务：a；b" {
		t.Errorf("serve: %q", got)
	}
	inner := model.Msg("config.json: give a path")
	if got := errIn(zh, model.Msg("config.json: %v", inner)); got != "config.json：config.json：请给出路径" {
		t.Errorf("config.json: %q", got)
	}
}
