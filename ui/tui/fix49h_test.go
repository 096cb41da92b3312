package tui

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestChineseServingPairStatus: the serving pair's error (prompt plus
// output tokens past max_model_len) read English in the Chinese status
// line while the panel showed it translated (walk49: on the questions
// page, the offers list and ctrl+e). The status line renders it as the
// panel does (errTextIn).
func TestChineseServingPairStatus(t *testing.T) {
	m := start(t, newTestApp(t, embeddedCatalog(t), zhOptions()), size(120, 40))
	a := m.a
	a.Task, a.Model, a.InferPrecision = model.TaskInference, "gpt-oss-120b", model.BF16
	a.Batch, a.Length = "32", "4096"
	a.Serve = serveAnswers{PromptTokens: "4000", OutputTokens: "500"}
	m.recompute()
	if m.res.err == nil || !strings.Contains(m.res.err.Error(), "exceed max_model_len 4096") {
		t.Fatalf("err %v, want the pair's", m.res.err)
	}
	serving := pageTitled(t, m, "Serving")
	m.wiz.form.goTo(serving)
	m.layout()
	m = drive(t, m, repeat(enter, 12)...)
	if s := m.footer.status; !strings.Contains(s, "max_model_len") || strings.Contains(s, "invalid serving workload") || strings.Contains(s, "exceed") {
		t.Errorf("questions page: status %q, want it in Chinese", s)
	}
	m = drive(t, m, ctrlE)
	if s := m.footer.status; strings.Contains(s, "invalid serving workload") || strings.Contains(s, "exceed") {
		t.Errorf("ctrl+e: status %q, want it in Chinese", s)
	}
}

// TestWhereHelpKeys: ? on the Where page listed shift+tab twice (huh's
// "back" and the guide's "previous question") and left out space, which
// toggles a provider or region as x does (docs/configurator.md; walk49).
func TestWhereHelpKeys(t *testing.T) {
	m := toPage(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(160, 50)), "Where")
	m = drive(t, m, runes("?"))
	s := screenText(m)
	if n := strings.Count(s, "shift+tab"); n != 1 {
		t.Errorf("the Where page's help lists shift+tab %d times:\n%s", n, s)
	}
	if !strings.Contains(s, "x/space") {
		t.Errorf("the Where page's help lacks space:\n%s", s)
	}
}
