package tui

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gpuplan/gpuplan/model/config"
)

// TestCountriesSurviveResave (walk54): a file written by `gpuplan export
// --country us --format toml` keeps the country in [search] countries,
// which the Where page asks nothing about. The configurator ranks under
// it and writes it back on a save, so the launch files it writes, and
// export --config of the saved file, fail over within the country.
func TestCountriesSurviveResave(t *testing.T) {
	cat := testCatalog(t)
	c, err := config.Decode([]byte(`schema_version = 1
[workload]
task = "qlora"
model = "llama-2-7b"
[search]
countries = ["us"]
`))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.toml")
	m := start(t, newTestApp(t, cat, Options{Config: &c, ConfigPath: path}), size(120, 40))
	if got, err := m.a.config(); err != nil || !slices.Equal(got.Query().Countries, []string{"us"}) {
		t.Fatalf("the answers' search has countries %q (%v), want [us]", got.Search.Countries, err)
	}
	m = drive(t, m, msgs(ctrlE, enter, replace(path), enter)...)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no file written (%v):\n%s", err, screenText(m))
	}
	back, err := config.Decode(b)
	if err != nil {
		t.Fatalf("the saved file does not load: %v\n%s", err, b)
	}
	if !slices.Equal(back.Search.Countries, []string{"us"}) {
		t.Errorf("saved [search] countries = %q, want [us]:\n%s", back.Search.Countries, b)
	}
}
