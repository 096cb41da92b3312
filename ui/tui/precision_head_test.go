package tui

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
)

// TestHeaderShowsRequestedPrecision (issue 31 round 4, item 8): ResNet-50
// at amp-bf16 whose cheapest offer is a GPU without bf16 (a T4, running
// amp-fp16) showed "amp-fp16" in the panel's header while the CLI shows
// amp-bf16. The header says what was asked; the offer carries ↺. Failing
// before: the header read amp-fp16.
func TestHeaderShowsRequestedPrecision(t *testing.T) {
	cat, err := data.Load() // the embedded catalog: T4s, which the fixture lacks
	if err != nil {
		t.Fatal(err)
	}
	m := start(t, newTestApp(t, cat, Options{}), size(120, 40))
	m.a.Task, m.a.Model, m.a.TrainPrecision, m.a.PrecisionFallback = model.TaskFinetune, "resnet-50", model.AMPBF16, true
	m.a.GPUKeys = []string{"t4"} // a GPU without bf16: amp-fp16 there
	m.recompute()
	best := m.res.best()
	if best == nil || best.Estimate == nil || best.Estimate.Workload.Precision == model.AMPBF16 {
		t.Fatalf("the best offer does not fall back from amp-bf16 (%v, %v): the test needs one", best != nil, m.res.recErr)
	}
	screen := screenText(m)
	if !strings.Contains(screen, "amp-bf16") {
		t.Errorf("header lacks the precision asked, amp-bf16:\n%s", screen)
	}
	head, _, _ := strings.Cut(screen, "best")
	if strings.Contains(head, "· amp-fp16") || strings.Contains(head, "amp-fp16 ·") {
		t.Errorf("header shows the fallback amp-fp16:\n%s", screen)
	}
}
