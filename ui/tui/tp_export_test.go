package tui

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
)

// TestTrainingTPNotExported: a fine-tune split with tensor parallelism
// (tp = 2 from a reopened file) is estimated as Megatron-LM splits it,
// and its launch files, which start the Hugging Face Trainer, cannot run
// it (walk49: gpuplan export wrote plain ZeRO-1 over 8 ranks). The
// configurator's export refuses the launch formats as gpuplan export
// does (launch.TrainingTPRefusal, with the ZeRO-3 and FSDP figures): the
// form's ctrl+e keeps the TOML and says why for the others; ctrl+e on the
// offer writes nothing. Without tp the same answers export.
func TestTrainingTPNotExported(t *testing.T) {
	for _, tp := range []int{2, 1} {
		m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
		a := m.a
		a.Task, a.Model, a.TrainPrecision = model.TaskFinetune, "llama-3.1-8b", model.AMPBF16
		a.Batch, a.Length, a.Distribution, a.GPUs, a.Strategy = "1", "2048", distNode, "8", model.ZeRO1
		a.extra.TP = tp
		m.recompute()
		best := m.res.best()
		if best == nil || best.Estimate == nil {
			t.Fatalf("tp %d: no offer fits", tp)
		}
		if got := best.Estimate.Workload.TP; got != tp {
			t.Fatalf("the best offer runs tp %d, want %d", got, tp)
		}
		w := drive(t, m, ctrlE)
		if w.dialog == nil {
			t.Fatalf("tp %d: ctrl+e opened no dialog; footer %q", tp, w.footer.status)
		}
		reason := w.dialog.noExport
		if tp == 1 {
			if reason != "" {
				t.Errorf("tp 1: launch formats refused: %q", reason)
			}
			continue
		}
		for _, want := range []string{"not exported: tensor parallelism (--tp 2)", "split no layer", "--strategy zero3 needs", "--strategy fsdp"} {
			if !strings.Contains(reason, want) {
				t.Errorf("the dialog's reason %q lacks %q", reason, want)
			}
		}
		d := w.dialog.again(newTheme())
		d.format = launch.FormatTorchrun
		if _, _, _, err := d.payload(); err == nil || err.Error() != reason {
			t.Errorf("a torchrun payload for a tp 2 fine-tune: %v, want %q", err, reason)
		}
		d.format = launch.FormatTOML
		if _, _, _, err := d.payload(); err != nil {
			t.Errorf("the answers' TOML: %v, want written", err)
		}
		o := drive(t, m, ctrlO)
		r := drive(t, o, ctrlE)
		if r.dialog != nil || !strings.HasPrefix(r.footer.status, "✗ not exported: tensor parallelism") {
			t.Errorf("ctrl+e on the offer: dialog %v, footer %q; want refused with the reason", r.dialog != nil, r.footer.status)
		}
	}
}
