package tui

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/plan"
	"github.com/gpuplan/gpuplan/model/serve"
)

// TestPhaseExportSaysVerdict (tui37): a plan's phase opened and exported
// for its pinned offer writes gpuplan plan's mark of the phase in the
// launch file's header ("note: phase "serve": borderline on its pinned
// offer: …", launch.Options.Notes and ServeOptions.Notes), as gpuplan
// export --config PLAN --phase NAME writes it, and the dialog shows the
// plan page's line; the configurator's files lacked it. The pinned offer
// picked on the offers screen says it too; another offer, or an
// unmarked phase, gets no such note.
func TestPhaseExportSaysVerdict(t *testing.T) {
	mark := model.Msg("borderline on its pinned offer: %v", "the test's reason")
	marked := func(p *plan.Plan) ([]string, []plan.PhaseCost) {
		costs := make([]plan.PhaseCost, len(p.Phases))
		for i := range costs {
			costs[i].Targets, costs[i].Borderline = mark, true
		}
		return nil, costs
	}
	unmarked := func(p *plan.Plan) ([]string, []plan.PhaseCost) { return nil, make([]plan.PhaseCost, len(p.Phases)) }
	serving := func(m app) app {
		a := m.a
		a.Task, a.Model, a.InferPrecision = model.TaskInference, "llama-3.1-70b", model.BF16
		a.Batch, a.Length = "32", "8K"
		a.Serve = serveAnswers{WeightFormat: serve.WeightAWQ, KVCacheDType: serve.KVAuto, PromptTokens: "2K", OutputTokens: "512", TPOTMs: "50"}
		m.recompute()
		return m
	}
	for _, tc := range []struct {
		name    string
		serving bool
		phase   string
		check   func(*plan.Plan) ([]string, []plan.PhaseCost)
		note    bool
	}{
		{"training, marked", false, "fine-tune", marked, true},
		{"training, unmarked", false, "fine-tune", unmarked, false},
		{"serving, marked", true, "serve", marked, true},
		{"serving, unmarked", true, "serve", unmarked, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := start(t, newTestApp(t, testCatalog(t), Options{CheckPlan: tc.check}), size(120, 40))
			if tc.serving {
				m = serving(m)
			}
			m = drive(t, m, ctrlO, down, runes("a"), enter) // the second offer, a phase of the plan
			if len(m.plan.plan.Phases) != 1 || m.plan.plan.Phases[0].Name != tc.phase {
				t.Fatalf("phases %+v:\n%s", m.plan.plan.Phases, screenText(m))
			}
			m = drive(t, m, enter)                 // the phase opened
			pin := drive(t, m, ctrlO, ctrlE)       // its pinned offer, picked on the offers screen (the cursor is on it)
			other := drive(t, m, ctrlO, up, ctrlE) // the best offer, not the phase's
			m = drive(t, m, ctrlE, down, down)     // from the questions: the pinned offer; torchrun or vllm serve
			if m.dialog == nil || m.dialog.note == "" || m.dialog.format != "torchrun" {
				t.Fatalf("no export dialog for the phase's offer:\n%s", screenText(m))
			}
			out, _, _, err := m.dialog.payload()
			if err != nil {
				t.Fatal(err)
			}
			file := `# note: phase "` + tc.phase + `": borderline on its pinned offer: the test's reason`
			line := `~ phase "` + tc.phase + `": borderline on its pinned offer: the test's reason`
			flat := strings.Join(strings.Fields(strings.ReplaceAll(screenText(m), "║", "")), " ")
			if got := strings.Contains(string(out), file); got != tc.note {
				t.Errorf("the file says the mark: %v, want %v:\n%s", got, tc.note, out)
			}
			if got := strings.Contains(flat, line); got != tc.note {
				t.Errorf("the dialog says the mark: %v, want %v:\n%s", got, tc.note, screenText(m))
			}
			if pin.dialog == nil || other.dialog == nil {
				t.Fatalf("no export dialog for an offer picked:\n%s\n%s", screenText(pin), screenText(other))
			}
			if o := pin.dialog.offer; o.Instance.Type != m.kept.InstanceType || o.Region != m.kept.Region || (len(pin.dialog.notes) == 1) != tc.note {
				t.Errorf("the pinned offer picked on the offers screen (%s %s): notes %v, want the mark: %v", o.Instance.Type, o.Region, pin.dialog.notes, tc.note)
			}
			if o := other.dialog.offer; o == pin.dialog.offer || len(other.dialog.notes) != 0 || other.dialog.verdict != "" {
				t.Errorf("another offer (%s %s) carries the phase's mark: %v", o.Instance.Type, o.Region, other.dialog.notes)
			}
		})
	}
}
