package tui

import (
	"os"
	"slices"
	"testing"

	"charm.land/huh/v2"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/launch"
)

// ConfiguratorRequest is the request the configurator builds after loading
// c: its answers filled from the file (answersFromConfig), then turned back
// into a request (answers.config), as an export would. For tests outside
// the package (request_test.go), which also import the command line.
func ConfiguratorRequest(cat *model.Catalog, c *config.Config) (config.Config, error) {
	return answersFromConfig(cat, c).config()
}

// ConfiguratorExport is the file the configurator writes when ctrl+e is
// pressed on the questions opened with c (nil: the defaults) and format f
// is picked, name left as it is: the keys a person types, the file read
// back from the working directory (the caller's t.Chdir). For tests
// outside the package that compare it with gpuplan export's.
func ConfiguratorExport(tb testing.TB, cat *model.Catalog, c *config.Config, f launch.Format) []byte {
	tb.Helper()
	at := slices.IndexFunc(exportFormats, func(o huh.Option[launch.Format]) bool { return o.Value == f })
	if at < 0 {
		tb.Fatalf("the export dialog has no format %q", f)
	}
	m := start(tb, newTestApp(tb, cat, Options{Config: c}), size(120, 40), ctrlE)
	for range at {
		m = drive(tb, m, down)
	}
	m = drive(tb, m, enter, enter) // the format, then the name as shown
	if m.dialog != nil {
		tb.Fatalf("the export dialog is still open:\n%s", screenText(m))
	}
	name := defaultExport
	if n := f.FileName(); n != "" {
		name = "./" + n
	}
	out, err := os.ReadFile(name)
	if err != nil {
		tb.Fatalf("ctrl+e wrote no %s: %v\n%s", name, err, screenText(m))
	}
	return out
}

// ConfiguratorBest is the offer the configurator's panel ranks first for
// the request it builds from c (nil: none fits), with its strategy; read
// reads config.json files (Options.ReadHFConfig).
func ConfiguratorBest(cat *model.Catalog, c *config.Config, read func(string, model.Task) (model.Architecture, model.Precision, []model.Message, error)) (*model.Offer, error) {
	cfg, err := answersFromConfig(cat, c).config()
	if err != nil {
		return nil, err
	}
	r := compute(cat, cfg, nil, &hfReader{read: read}, 0)
	if r.err != nil {
		return nil, r.err
	}
	return r.best(), r.recErr
}

// ConfiguratorServingSaved answers the configurator for serving model
// (task inference, precision bf16, Precision fallback as fallback, every
// other answer at its default), then presses ctrl+e and saves the TOML
// as named: it returns the offer the panel ranks first (nil: none) and
// the file written to the working directory (the caller's t.Chdir). For
// tests outside the package that run recommend --config on the file.
func ConfiguratorServingSaved(tb testing.TB, cat *model.Catalog, name string, fallback bool) (*model.Offer, []byte) {
	tb.Helper()
	m := start(tb, newTestApp(tb, cat, Options{}), size(120, 40))
	a := m.a
	a.Task, a.Model, a.InferPrecision = model.TaskInference, name, model.BF16
	a.reconcile(cat, nil) // as every message does: the fallback answer follows the request until answered
	if !a.PrecisionFallback {
		tb.Errorf("serving %s at bf16: the Precision fallback page says no before it is answered; want allow, vLLM's --dtype auto", name)
	}
	a.PrecisionFallback = fallback
	a.reconcile(cat, nil)
	m.recompute()
	best := m.res.best()
	if m.res.serve == nil {
		tb.Fatalf("the configurator does not plan serving %s:\n%s", name, screenText(m))
	}
	m = drive(tb, m, ctrlE, enter, enter) // TOML, then the name as shown
	if m.dialog != nil {
		tb.Fatalf("the export dialog is still open:\n%s", screenText(m))
	}
	out, err := os.ReadFile(defaultExport)
	if err != nil {
		tb.Fatalf("ctrl+e wrote no %s: %v\n%s", defaultExport, err, screenText(m))
	}
	return best, out
}
