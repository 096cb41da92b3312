package tui

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model/serve"
	"github.com/gpuplan/gpuplan/ui/report"
)

// TestServingPanelMarksBorderlineCause: the serving panel marks a row
// borderline by its KV cache's range with "~KV" on the split, not "~" on
// its TPOT, and says what each mark shown means, as recommend's table
// marks the KV tokens column (TestServeBorderlineMarksItsCause). Failing
// before: every borderline row had "~" on its TPOT.
func TestServingPanelMarksBorderlineCause(t *testing.T) {
	m := embeddedServing(t, 160, 60)
	m.a.Model, m.a.Length, m.a.Batch = "qwen3-32b", "32K", "16"
	m.a.Serve.TPOTMs = "100"
	m.a.Providers = []string{"aws"}
	m.recompute()
	var kv *serve.Plan
	for i := range m.res.serve {
		if p := &m.res.serve[i]; p.Meets && p.BorderlineOn == serve.BorderlineKV {
			kv = p
			break
		}
	}
	if kv == nil {
		t.Skip("no plan borderline by its KV cache in this answer")
	}
	text := screenText(drive(t, m, size(160, 60)))
	tpot := report.ServeRowIn(m.lang, kv)[7]
	if strings.Contains(tpot, "~") {
		t.Errorf("the KV-borderline row's TPOT cell %q carries \"~\"", tpot)
	}
	if !strings.Contains(text, report.KVBorderlineMark) || !strings.Contains(strings.Join(strings.Fields(text), " "), "the low end of the KV cache's 90% range") {
		t.Errorf("want %q on a row and its legend in:\n%s", report.KVBorderlineMark, text)
	}
}
