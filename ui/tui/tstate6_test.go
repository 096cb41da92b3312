package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/plan"
)

// loraFile is a saved LoRA request on Llama 3.1 8B with seq_len 2048
// (the model's default is 4096), as `gpuplan --config lora.toml` reads it.
func loraFile() *config.Config {
	c := &config.Config{}
	c.Workload.Model, c.Workload.Task = "llama-3.1-8b", model.TaskLoRA
	c.Workload.SeqLen, c.Workload.DatasetTokens = 2048, 20e6
	c.Workload.GPUs = 1
	return c
}

// A new-user walk: reopening a saved file, then Tab, ↑ (full fine-tune),
// ↓ (back to LoRA) on the Task list replaced the file's sequence length
// with the model's default ("↺ Llama 3.1 8B defaults: … sequence length
// 4096"). Answers loaded from a file are the user's own: moving the cursor
// through the options keeps them, as it keeps a value typed in the session.
func TestLoadedAnswersSurviveTaskCursor(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{Config: loraFile()}), size(120, 40))
	if m.a.Length != "2048" || m.a.Task != model.TaskLoRA {
		t.Fatalf("loaded: task %s, length %q; want lora, 2048", m.a.Task, m.a.Length)
	}
	m = drive(t, m, tab, up)
	if m.a.Task == model.TaskLoRA {
		t.Fatalf("↑ on the Task list left the task at %s", m.a.Task)
	}
	if m.a.Length != "2048" || strings.Contains(m.footer.status, "sequence length") {
		t.Errorf("on %s: length %q, status %q; want the file's 2048 kept", m.a.Task, m.a.Length, m.footer.status)
	}
	m = drive(t, m, down)
	if m.a.Task != model.TaskLoRA || m.a.Length != "2048" {
		t.Errorf("back on %s: length %q; want lora with the file's 2048", m.a.Task, m.a.Length)
	}
	c, err := m.a.config()
	if err != nil || c.Workload.SeqLen != 2048 {
		t.Errorf("exported seq_len %d (%v), want 2048", c.Workload.SeqLen, err)
	}
}

// The configurator and the command line build the workload by one path
// (config.WorkloadAnswers.Resolve): the same file gives the same micro-
// batch and gradient accumulation in both, before and after the Task
// cursor passes over other tasks. A file's batch_size = 1 means one
// sample per step (accumulation 1), as --config FILE reads it; it had
// become the LoRA recipe's 1 × 16 once the cursor had left LoRA.
func TestGradAccumAsCommandLine(t *testing.T) {
	cat := testCatalog(t)
	for _, batch := range []int{0, 1, 2} {
		file := loraFile()
		file.Workload.MicroBatch = batch
		want, _, err := file.Workload.Resolve(cat, config.Readers{})
		if err != nil {
			t.Fatal(err)
		}
		m := start(t, newTestApp(t, cat, Options{Config: file}), size(120, 40))
		for _, keys := range [][]any{nil, {tab, up, down}} {
			m = drive(t, m, msgs(keys...)...)
			c, err := m.a.config()
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := c.Workload.Resolve(cat, config.Readers{})
			if err != nil {
				t.Fatal(err)
			}
			if got.MicroBatch != want.MicroBatch || got.GradAccum != want.GradAccum || m.res.workload.GradAccum != want.GradAccum {
				t.Errorf("batch_size %d, keys %d: configurator %d × %d (panel accum %d), command line %d × %d",
					batch, len(keys), got.MicroBatch, got.GradAccum, m.res.workload.GradAccum, want.MicroBatch, want.GradAccum)
			}
		}
	}
}

// ctrl+o after the request changed (LoRA → serving) kept the cursor on the
// previous request's offer (row ~34), so a (add a phase) took a $4.89/h
// offer where the best was $0.55. A new request opens the table at its
// best row; the cursor stays only while the request is unchanged.
func TestOffersCursorNewRequest(t *testing.T) {
	cat := testCatalog(t)
	serving := loraFile()
	serving.Workload.Task, serving.Workload.DatasetTokens, serving.Workload.DatasetSamples = model.TaskInference, 0, 1e6
	s := start(t, newTestApp(t, cat, Options{Config: serving}), size(120, 40), ctrlO)
	m := start(t, newTestApp(t, cat, Options{Config: loraFile()}), size(120, 40), ctrlO)
	// A row of the LoRA table whose offer the serving table also holds,
	// not as its best.
	row := -1
	for i := 1; i < len(m.offers.shown) && row < 0; i++ {
		o := &m.offers.all[m.offers.shown[i]]
		for j := 1; j < len(s.offers.shown); j++ {
			if p := &s.offers.all[s.offers.shown[j]]; p.Instance == o.Instance && p.GPUs == o.GPUs && p.Region == o.Region {
				row = i
				break
			}
		}
	}
	if row < 0 {
		t.Fatal("no LoRA offer is also a serving offer below the best")
	}
	for range row {
		m = drive(t, m, down)
	}
	// The same request: back and forth keeps the row.
	m = drive(t, m, esc, ctrlO)
	if got := m.offers.table.Cursor(); got != row {
		t.Errorf("unchanged request: cursor %d, want %d kept", got, row)
	}
	// Another request: serving.
	m = drive(t, m, esc, tab, down, down)
	if m.a.Task != model.TaskInference {
		t.Fatalf("task %s, want inference", m.a.Task)
	}
	m = drive(t, m, ctrlO)
	if got := m.offers.table.Cursor(); got != 0 {
		t.Errorf("new request: cursor on row %d (%s), want the best (0)", got, m.offers.selected().Instance.Type)
	}
}

// Esc from the "Add a phase" prompt went on to the plan view, not back to
// the offers table it was opened from (a second Esc was needed).
func TestAddPhaseEscBack(t *testing.T) {
	for _, tt := range []struct {
		name string
		keys []any
		want screen
	}{
		{"offers", []any{ctrlO}, screenOffers},
		{"details", []any{ctrlO, enter}, screenDetail},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := start(t, newTestApp(t, testCatalog(t), Options{Config: loraFile()}), size(120, 40))
			m = drive(t, m, msgs(tt.keys...)...)
			if m.screen != tt.want {
				t.Fatalf("screen %v, want %v", m.screen, tt.want)
			}
			m = drive(t, m, runes("a"))
			if !m.plan.prompting() {
				t.Fatalf("a opened no prompt:\n%s", screenText(m))
			}
			m = drive(t, m, esc)
			if m.screen != tt.want || m.plan.prompting() || len(m.plan.plan.Phases) != 0 {
				t.Errorf("after esc: screen %v (want %v), prompting %v, %d phases", m.screen, tt.want, m.plan.prompting(), len(m.plan.plan.Phases))
			}
		})
	}
}

// An exported plan's serve phase carried the LoRA job's answers
// (dataset_samples = "5e+07", epochs = "1", "search.deadline_hours" = "1",
// gpus = "1" beside a 4×V100 offer): a phase writes only the answers
// that apply to its task, counts as the user types them.
func TestPhaseAnswersApply(t *testing.T) {
	file := loraFile()
	file.Workload.DatasetTokens, file.Workload.DatasetSamples = 0, 50e6
	file.Search.DeadlineHours, file.Search.BudgetJob = 5000, 1e6
	m := start(t, newTestApp(t, testCatalog(t), Options{Config: file}), size(120, 40))
	m = drive(t, m, ctrlO, runes("a"), enter, esc, esc, tab, down, down)
	if m.a.Task != model.TaskInference {
		t.Fatalf("task %s, want inference", m.a.Task)
	}
	m = drive(t, m, ctrlO, runes("a"), enter)
	if n := len(m.plan.plan.Phases); n != 2 {
		t.Fatalf("%d phases, want 2:\n%s", n, screenText(m))
	}
	tune, serve := m.plan.plan.Phases[0].Answers, m.plan.plan.Phases[1].Answers
	for k, want := range map[string]string{"dataset_samples": "50M", "epochs": "1", "search.deadline_hours": "5000", "gpus": "1", "task": "lora"} {
		if tune[k] != want {
			t.Errorf("fine-tune phase: %s = %q, want %q", k, tune[k], want)
		}
	}
	for _, k := range []string{"dataset_samples", "dataset_tokens", "epochs", "search.deadline_hours", "search.budget_job", "gpus", "strategy",
		"checkpointing", "search.allow_multi_node", "flash_attention"} {
		if v, ok := serve[k]; ok {
			t.Errorf("serve phase: %s = %q, not asked when serving an LLM", k, v)
		}
	}
	if serve["task"] != "inference" || serve["model"] != "llama-3.1-8b" || serve["seq_len"] != "2048" {
		t.Errorf("serve phase lost its own answers: %v", serve)
	}
}

// A phase's numbers read as typed and decode to the same values.
func TestPhaseAnswersNumbers(t *testing.T) {
	file := loraFile()
	file.Workload.DatasetTokens, file.Workload.DatasetSamples = 0, 1.28e6
	file.Search.BudgetJob, file.Search.BudgetMonth = 1e6, 2500.5
	m := start(t, newTestApp(t, testCatalog(t), Options{Config: file}), size(120, 40), ctrlO, runes("a"), enter)
	if len(m.plan.plan.Phases) != 1 {
		t.Fatalf("no phase:\n%s", screenText(m))
	}
	ans := m.plan.plan.Phases[0].Answers
	for k, want := range map[string]string{"dataset_samples": "1.28M", "search.budget_job": "1000000", "search.budget_month": "2500.5"} {
		if ans[k] != want {
			t.Errorf("%s = %q, want %q", k, ans[k], want)
		}
	}
	b, err := config.AnswersTOML(ans)
	if err != nil {
		t.Fatal(err)
	}
	back, err := config.Decode(b)
	if err != nil || back.Workload.DatasetSamples != 1.28e6 || back.Search.BudgetJob != 1e6 || back.Search.BudgetMonth != 2500.5 {
		t.Errorf("read back: %v, %v %v %v", err, back.Workload.DatasetSamples, back.Search.BudgetJob, back.Search.BudgetMonth)
	}
}

// twoPhasePlan is a plan of a LoRA fine-tune and a serving phase, with
// answers for both, as the plan export writes it.
func twoPhasePlan() *plan.Plan {
	return &plan.Plan{Phases: []plan.Phase{
		{Name: "fine-tune", Provider: "aws", Instance: "g5.xlarge", Region: "us-east-1", Pricing: model.OnDemand, Instances: 1, USDPerHour: 1, JobHours: 10,
			Answers: map[string]string{"model": "llama-3.1-8b", "task": "lora", "seq_len": "2048", "dataset_tokens": "20M"}},
		{Name: "serve", Provider: "aws", Instance: "g5.xlarge", Region: "us-east-1", Pricing: model.OnDemand, Instances: 1, USDPerHour: 1, Months: 6,
			Answers: map[string]string{"model": "llama-3.1-8b", "task": "inference"}},
	}}
}

// gpuplan --config plan.toml opened the first phase silently: the status
// line says which phase opened when --phase named none; named, it says
// nothing more. In the plan view (ctrl+t), enter opens the phase under the
// cursor in the configurator.
func TestOpenPlanPhase(t *testing.T) {
	pl := twoPhasePlan()
	c, err := pl.Phases[0].ConfigFromAnswers()
	if err != nil {
		t.Fatal(err)
	}
	m := start(t, newTestApp(t, testCatalog(t), Options{Config: &c, Plan: pl, PlanPath: "plan.toml", Phase: "fine-tune"}), size(120, 40))
	if s := m.footer.status; !strings.Contains(s, `opened phase "fine-tune" of 2`) || !strings.Contains(screenText(m), `opened phase "fine-tune"`) {
		t.Errorf("status %q, want the phase opened:\n%s", s, screenText(m))
	}
	named := start(t, newTestApp(t, testCatalog(t), Options{Config: &c, Plan: pl, PlanPath: "plan.toml", Phase: "fine-tune", PhaseNamed: true}), size(120, 40))
	if s := named.footer.status; strings.Contains(s, "opened phase") {
		t.Errorf("--phase named it, status %q", s)
	}

	m = drive(t, m, ctrlT)
	if m.screen != screenPlan || !strings.Contains(screenText(m), "enter open phase") {
		t.Fatalf("ctrl+t: screen %v, footer without enter:\n%s", m.screen, screenText(m))
	}
	m = drive(t, m, down, enter)
	if m.screen != screenWizard || m.a.Task != model.TaskInference || !strings.Contains(m.footer.status, `opened phase "serve"`) {
		t.Errorf("enter on serve: screen %v, task %s, status %q", m.screen, m.a.Task, m.footer.status)
	}
	if !m.res.ok() || m.res.cfg.Workload.Task != model.TaskInference || len(m.plan.plan.Phases) != 2 {
		t.Errorf("after opening serve: result task %s (%v), %d phases", m.res.cfg.Workload.Task, m.res.err, len(m.plan.plan.Phases))
	}
	m = drive(t, m, ctrlT, up, enter)
	if m.a.Task != model.TaskLoRA || m.a.Length != "2048" {
		t.Errorf("enter on fine-tune: task %s, length %q", m.a.Task, m.a.Length)
	}
}

// The plan page shows what gpuplan plan says of the plan (Options.
// CheckPlan, the CLI's planNotes): a phase marked ✗ (a job that does not
// fit its offer, attack round 11) or ~ with the why under the phases, and
// the warnings; the check runs again once a phase is deleted, on the
// phases left.
func TestPlanPageShowsChecks(t *testing.T) {
	pl := twoPhasePlan()
	var calls []int
	check := func(p *plan.Plan) ([]string, []plan.PhaseCost) {
		calls = append(calls, len(p.Phases))
		marks := make([]plan.PhaseCost, len(p.Phases))
		var notes []string
		for i, ph := range p.Phases {
			switch ph.Name {
			case "fine-tune":
				marks[i].Targets = model.Msg("does not fit its pinned offer: %v", model.Msg("needs %.1f GiB per GPU, has %.1f GiB usable", 245.47, 90.8))
				notes = append(notes, `phase "fine-tune": the job does not fit its offer`)
			case "serve":
				marks[i].Targets, marks[i].Borderline = model.Msg("borderline on its pinned offer: %v", model.Msg("TPOT")), true
			}
		}
		return notes, marks
	}
	m := start(t, newTestApp(t, testCatalog(t), Options{Plan: pl, PlanPath: "plan.toml", CheckPlan: check}), size(120, 40))
	m = drive(t, m, ctrlT)
	text := screenText(m)
	for _, want := range []string{"✗ fine-tune", "~ serve", `✗ phase "fine-tune": does not fit its pinned offer: needs 245.5 GiB per GPU, has 90.8 GiB usable`,
		`~ phase "serve": borderline on its pinned offer: TPOT`, `phase "fine-tune": the job does not fit its offer`} {
		if !strings.Contains(text, want) {
			t.Errorf("plan page without %q:\n%s", want, text)
		}
	}
	m = drive(t, m, runes("d"))
	text = screenText(m)
	if len(m.plan.plan.Phases) != 1 || !slices.Equal(calls, []int{2, 1}) || strings.Contains(text, "✗") || !strings.Contains(text, "~ serve") {
		t.Errorf("after d: %d phases, checks on %v phases; want [2 1], no ✗, serve ~:\n%s", len(m.plan.plan.Phases), calls, text)
	}
}
