package tui_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/ui/tui"
)

// TestServingFallbackAnsweredAgrees: the configurator's Precision answer
// bf16 with Precision fallback "no" means what the file it saves says
// (precision = "bf16", allow_precision_fallback = false) and what
// --precision bf16 typed means: no GPU without bf16 is ranked. The
// panel's best, recommend --config on the saved file and recommend
// --precision bf16 rank the same first offer, and with "allow" the
// panel's and the file's first offer is the V100 at ↺fp16, as
// --allow-precision-fallback ranks it (new-user walk: "allow [ no ]"
// beside a best offer of 4×V100 ↺fp16, and export --config writing
// --dtype float16).
func TestServingFallbackAnsweredAgrees(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // no catalog.d overlays from the user running the tests
	cat, _, err := data.LoadWith(nil)
	if err != nil {
		t.Fatal(err)
	}
	flags := []string{"recommend", "--json", "--task", "inference", "--model", "qwen3-8b", "--precision", "bf16"}
	for _, tt := range []struct {
		name     string
		fallback bool
		flags    []string // recommend's flags for the same request
		file     string   // the line the saved file must hold
	}{
		{"no fallback", false, flags, "allow_precision_fallback = false"},
		// Allowed is the answer's own default at bf16: the file names no
		// precision, vLLM's --dtype auto, which ranks as the flags do.
		{"fallback allowed", true, append(flags, "--allow-precision-fallback"), "allow_precision_fallback = true"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			best, file := tui.ConfiguratorServingSaved(t, cat, "qwen3-8b", tt.fallback)
			// "no" keeps precision = "bf16", which asks for itself; allowed,
			// the file says so (a walk read allow_precision_fallback = false
			// beside a V100 at fp16 in its [selection]).
			if !strings.Contains(string(file), tt.file) || !tt.fallback && !strings.Contains(string(file), `precision = "bf16"`) {
				t.Fatalf("the saved file lacks %q (and precision = \"bf16\" without fallback):\n%s", tt.file, file)
			}
			fromFile, fromFlags := firstServing(t, run(t, "recommend", "--json", "--config", "gpuplan.toml")), firstServing(t, run(t, tt.flags...))
			if best == nil {
				t.Fatal("the configurator ranks no offer")
			}
			panel := best.Instance.Provider + " " + best.Instance.Type
			if fromFile.name() != panel || fromFlags.name() != panel {
				t.Errorf("first offers: the panel %s, recommend --config %s, recommend %s", panel, fromFile.name(), strings.Join(tt.flags[1:], " ")+": "+fromFlags.name())
			}
			if fell := fromFile.FallbackFrom != ""; fell != tt.fallback {
				t.Errorf("recommend --config's first offer %s (%s) falls back from %q; the fallback answered %v", fromFile.name(), fromFile.GPU, fromFile.FallbackFrom, tt.fallback)
			}
			if fell := best.Fallback != ""; fell != tt.fallback {
				t.Errorf("the panel's first offer %s (%s) falls back from %q; the fallback answered %v", panel, best.GPU.Key, best.Fallback, tt.fallback)
			}
		})
	}
}

// servingRow is recommend --json's first serving offer.
type servingRow struct {
	Provider     string `json:"provider"`
	Type         string `json:"instance_type"`
	GPU          string `json:"gpu"`
	FallbackFrom string `json:"fallback_from"`
}

func (r servingRow) name() string { return r.Provider + " " + r.Type }

func firstServing(t *testing.T, out string) servingRow {
	t.Helper()
	var doc struct {
		Offers []servingRow `json:"offers"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Offers) == 0 {
		t.Fatal("recommend ranks no offer")
	}
	return doc.Offers[0]
}
