package plan

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// TestDecodePricingAsFlag: a phase's pricing is read as --pricing reads
// it (model.ParsePricing: case, space and aliases), and the mode it names
// is what the plan keeps, so every command prices and exports it
// (walk36c: "SPOT", "On-Demand", "reserved" passed all three commands and
// export wrote on-demand); what --pricing refuses is refused, pricing =
// "" is the key left out (on-demand: Encode writes it so), and Encode
// writes the mode Decode reads.
func TestDecodePricingAsFlag(t *testing.T) {
	const head = "schema_version = 1\n[[phase]]\nname = \"a\"\nusd_per_hour = 1.0\njob_hours = 2.0\n"
	ok := []struct {
		written string
		want    model.Pricing
	}{
		{"SPOT", model.Spot}, {"Spot", model.Spot}, {" spot ", model.Spot}, {"preemptible", model.Spot},
		{"ondemand", model.OnDemand}, {"on_demand", model.OnDemand}, {"On-Demand", model.OnDemand},
		{"reserved", model.Reserved1y}, {"reserved-1Y", model.Reserved1y}, {"1y", model.Reserved1y}, {"3Y", model.Reserved3y},
	}
	for _, tt := range ok {
		// The flag reads it as the same mode.
		if v, err := model.ParsePricing(tt.written); err != nil || v != tt.want {
			t.Fatalf("--pricing %q: %v, %v; the table is wrong", tt.written, v, err)
		}
		p, err := Decode([]byte(head + "pricing = \"" + tt.written + "\"\n"))
		if err != nil {
			t.Errorf("pricing = %q: %v", tt.written, err)
			continue
		}
		if got := p.Phases[0].Pricing; got != tt.want {
			t.Errorf("pricing = %q read as %q, want %q", tt.written, got, tt.want)
		}
		raw := Plan{Phases: []Phase{{Name: "a", Pricing: model.Pricing(tt.written), USDPerHour: 1, JobHours: 2}}}
		b, err := Encode(&raw)
		if err != nil || !strings.Contains(string(b), "pricing = \""+string(tt.want)+"\"") {
			t.Errorf("Encode of pricing %q: %v\n%s", tt.written, err, b)
		}
		if raw.Phases[0].Pricing != model.Pricing(tt.written) {
			t.Errorf("Encode changed its argument's pricing to %q", raw.Phases[0].Pricing)
		}
	}
	bad := []struct{ written, want string }{
		{"spott", `phase "a" pricing: "spott": did you mean "spot"?`},
		{"od", `phase "a" pricing: "od"`},
		{"reserved-1yr", `phase "a" pricing: "reserved-1yr": did you mean "reserved-1y"?`},
		{"  ", `phase "a" pricing: "  "`},
	}
	for _, tt := range bad {
		if _, err := model.ParsePricing(tt.written); err == nil {
			t.Fatalf("--pricing %q is taken; the table is wrong", tt.written)
		}
		_, err := Decode([]byte(head + "pricing = \"" + tt.written + "\"\n"))
		if !errors.Is(err, config.ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("pricing = %q: %v, want %q", tt.written, err, tt.want)
		}
	}
	// Left out, or "" as Encode writes it: on-demand, as the plan prices
	// it and every command reads the phase (Configure).
	const offer = "provider = \"aws\"\ninstance = \"g5.xlarge\"\nregion = \"us-east-1\"\ninstances = 1\n"
	for _, f := range []string{head + offer, head + offer + "pricing = \"\"\n"} {
		p, err := Decode([]byte(f))
		if err != nil {
			t.Errorf("pricing left out: %v", err)
			continue
		}
		if c := p.Phases[0].Configure(config.Config{}); c.Selection == nil || c.Selection.Pricing != model.OnDemand {
			t.Errorf("pricing left out: selection %+v, want on-demand", c.Selection)
		}
	}
}
