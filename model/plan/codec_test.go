package plan

import (
	"bytes"
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

func TestPlanRoundTrip(t *testing.T) {
	b, err := os.ReadFile("testdata/plan-two-phases.toml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Phases) != 2 || p.Phases[0].Answers["task"] != "qlora" || p.Phases[1].Months != 6 {
		t.Fatalf("decoded %+v", p)
	}
	out, err := Encode(&p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, b) {
		t.Errorf("file → decode → encode differs:\n%s\nwant\n%s", out, b)
	}
	// fine-tune: 14.5 h × $0.2977 = $4.31665; serve: 6 months × 300 h ×
	// $0.8048 = $1,448.64; total $1,452.95665.
	phases, total, err := p.Cost()
	if err != nil {
		t.Fatal(err)
	}
	if !modeltest.Near(phases[0].USD, 4.31665, 1e-12) || !modeltest.Near(phases[1].USD, 1448.64, 1e-12) || !modeltest.Near(phases[1].Hours, 1800, 1e-12) || !modeltest.Near(total, 1452.95665, 1e-12) {
		t.Errorf("costs %+v, total %g", phases, total)
	}
}

func TestDecodePlanErrors(t *testing.T) {
	const head = "schema_version = 1\n[[phase]]\nname = \"a\"\nusd_per_hour = 1.0\njob_hours = 2.0\n"
	tests := []struct {
		name, file, key string
	}{
		{"typo suggests", head + "pricng = \"spot\"\n", `phase "a" pricng`},
		{"unknown top-level key", "schema_version = 1\nfoo = 1\n" + head[len("schema_version = 1\n"):], "foo"},
		{"bad pricing", head + "pricing = \"cheap\"\n", "phase \"a\" pricing"},
		{"no phases", "schema_version = 1\n", "phase"},
		{"wrong schema", strings.Replace(head, "= 1", "= 7", 1), "schema_version"},
		{"control characters", head + "provider = \"a\\u001b[2J\"\n", "phase[0].provider"},
		{"missing name", "schema_version = 1\n[[phase]]\nusd_per_hour = 1.0\n", "phase[0].name"},
		{"wrong type", "schema_version = 1\n[[phase]]\nname = 3\n", ""},
		{"negative instances", head + "instances = -2\n", "phase \"a\" instances"},
	}
	for _, tt := range tests {
		_, err := Decode([]byte(tt.file))
		var ce *config.Error
		if !errors.As(err, &ce) || !errors.Is(err, config.ErrInvalid) {
			t.Errorf("%s: error %v, want a *config.Error", tt.name, err)
			continue
		}
		if tt.key != "" && ce.Key != tt.key {
			t.Errorf("%s: key %q, want %q (%v)", tt.name, ce.Key, tt.key, err)
		}
	}
	// A configuration with its plan: the configuration tables are left
	// to config.Decode.
	if p, err := Decode([]byte("schema_version = 1\n[workload]\nmodel = \"x\"\n" + head[len("schema_version = 1\n"):])); err != nil || len(p.Phases) != 1 {
		t.Errorf("configuration with a phase: %v, %+v", err, p)
	}
}

// TestDecodeNotAPlan (walk37): a configuration given as a plan says it is
// one and how to use it, as a plan given as --config does, whatever
// tables it has ([launch] read "launch: unknown key \"launch\"", a bare
// one "phase: no phases"); a file without schema_version, an empty one
// among them, says it is missing, not "got 0".
func TestDecodeNotAPlan(t *testing.T) {
	const cfg = "schema_version = 1\n[workload]\nmodel = \"llama-3.1-8b\"\n"
	for _, tt := range []struct {
		name, file, key, msg string
	}{
		{"configuration", cfg, "", "a gpuplan configuration, not a plan"},
		{"exported configuration", cfg + "[launch]\nprovider = \"aws\"\n", "", "a gpuplan configuration, not a plan"},
		{"serving configuration", cfg + "[serve]\nmax_model_len = 4096\n", "", "a gpuplan configuration, not a plan"},
		{"empty", "", "schema_version", "missing; add schema_version = 1 at the top"},
		{"no schema_version", "[[phase]]\nname = \"a\"\nusd_per_hour = 1.0\njob_hours = 2.0\n", "schema_version", "missing; add schema_version = 1 at the top"},
	} {
		_, err := Decode([]byte(tt.file))
		var ce *config.Error
		if !errors.As(err, &ce) || ce.Key != tt.key || !strings.Contains(ce.Msg.String(), tt.msg) {
			t.Errorf("%s: error %v, want key %q and %q", tt.name, err, tt.key, tt.msg)
		}
	}
}

// TestDecodeUnknownKeyHelps (walk37): an unknown key in a phase names
// the phase and suggests a fix (the closest key, else the valid ones), and
// an unknown top-level key lists the valid ones; "phase.gpu: unknown key
// \"gpu\"" and "colour: unknown key \"colour\"" did neither.
func TestDecodeUnknownKeyHelps(t *testing.T) {
	const head = "schema_version = 1\n[[phase]]\nname = \"a\"\nusd_per_hour = 1.0\njob_hours = 2.0\n"
	const two = head + "[[phase]]\nname = \"train\"\nusd_per_hour = 1.0\njob_hours = 2.0\n"
	for _, tt := range []struct {
		name, file, key, msg string
	}{
		{"phase key, far from any", two + "gpu = \"h100\"\n", `phase "train" gpu`, `unknown key "gpu"; valid keys: name, config, answers, provider, instance`},
		{"phase key, close to one", two + "pricng = \"spot\"\n", `phase "train" pricng`, `did you mean "pricing"?`},
		{"phase without a name", "schema_version = 1\n[[phase]]\nusd_per_hour = 1.0\ngpu = \"h100\"\n", "phase[0].gpu", "valid keys: name,"},
		{"top-level key", "schema_version = 1\ncolour = \"red\"\n" + head[len("schema_version = 1\n"):], "colour", `unknown key "colour"; valid keys: schema_version, name, phase`},
		{"top-level typo", "schema_version = 1\nnmae = \"x\"\n" + head[len("schema_version = 1\n"):], "nmae", `did you mean "name"?`},
	} {
		_, err := Decode([]byte(tt.file))
		var ce *config.Error
		if !errors.As(err, &ce) || ce.Key != tt.key || !strings.Contains(ce.Msg.String(), tt.msg) {
			t.Errorf("%s: error %v, want key %q and %q", tt.name, err, tt.key, tt.msg)
		}
	}
}

// TestDecodeSingleBracketPhase (walk37): a phase written [phase], before
// a [[phase]], after one or alone, says to write every phase as [[phase]]
// at the [phase] line; the decoder's own words were "key 'phase' was
// already created and cannot be used as an array" and the like.
func TestDecodeSingleBracketPhase(t *testing.T) {
	const a, b = "name = \"a\"\nusd_per_hour = 1.0\njob_hours = 2.0\n", "name = \"b\"\nusd_per_hour = 1.0\njob_hours = 2.0\n"
	for _, tt := range []struct {
		name, file string
		line       int
	}{
		{"[phase] then [[phase]]", "schema_version = 1\n[phase]\n" + a + "[[phase]]\n" + b, 2},
		{"[[phase]] then [phase]", "schema_version = 1\n[[phase]]\n" + a + "  [ phase ]  # the second\n" + b, 6},
		{"[phase] alone", "schema_version = 1\n\n[phase]\n" + a, 3},
	} {
		_, err := Decode([]byte(tt.file))
		var ce *config.Error
		if !errors.As(err, &ce) || ce.Key != "phase" || ce.Line != tt.line || !strings.Contains(ce.Msg.String(), "write every phase as [[phase]]") {
			t.Errorf("%s: error %v, want phase (line %d): write every phase as [[phase]]", tt.name, err, tt.line)
		}
	}
}

func FuzzDecodePlan(f *testing.F) {
	if b, err := os.ReadFile("testdata/plan-two-phases.toml"); err == nil {
		f.Add(b)
	}
	f.Add([]byte("schema_version = 1\n[[phase]]\nname = \"x\"\nusd_per_hour = nan\nmonths = inf\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := Decode(b)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("multi-line error: %q", err)
			}
			return
		}
		// What DecodePlan lets through: names distinct once normalised,
		// nothing invisible, money and durations within their bounds.
		seen := map[string]bool{}
		for _, ph := range p.Phases {
			if k := NameKey(ph.Name); seen[k] {
				t.Fatalf("two phases named %q once normalised", k)
			} else {
				seen[k] = true
			}
			for _, s := range []string{p.Name, ph.Name, ph.Config, ph.Provider, ph.Instance, ph.Region} {
				if strings.ContainsFunc(s, Invisible) {
					t.Fatalf("invisible character kept in %q", s)
				}
			}
			if !(ph.USDPerHour <= MaxUSDPerHour && ph.JobHours <= MaxJobHours && ph.Months <= MaxMonths && ph.HoursPerMonth <= model.HoursPerMonth) {
				t.Fatalf("phase %q out of bounds: %+v", ph.Name, ph)
			}
		}
		if _, total, err := p.Cost(); err == nil && (math.IsInf(total, 0) || math.IsNaN(total)) {
			t.Fatalf("total %v", total)
		}
		if _, _, err := p.Cost(); err == nil {
			out, err := Encode(&p)
			if err != nil {
				t.Fatalf("encode a decoded plan: %v", err)
			}
			q, err := Decode(out)
			if err != nil {
				t.Fatalf("decode an encoded plan: %v\n%s", err, out)
			}
			if again, _ := Encode(&q); !bytes.Equal(again, out) {
				t.Errorf("encode is not stable:\n%s\n%s", out, again)
			}
		}
	})
}
