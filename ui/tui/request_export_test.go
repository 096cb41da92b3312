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
