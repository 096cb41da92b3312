package plan

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/gpuplan/gpuplan/model"
)

// twoPhase is "fine-tune Llama 3.1 8B with QLoRA, then serve it for 6
// months"; prices are the test's, not the catalog's.
var twoPhase = Plan{Name: "llama 8b qlora then serve", Phases: []Phase{
	{Name: "fine-tune", Config: "finetune.toml", Answers: map[string]string{"model": "llama-3.1-8b", "task": "qlora", "dataset_tokens": "100M"},
		Provider: "aws", Instance: "g6e.xlarge", Region: "us-east-1", Pricing: model.Spot, Instances: 1, USDPerHour: 0.75, JobHours: 12.5},
	{Name: "serve", Answers: map[string]string{"model": "llama-3.1-8b", "task": "inference", "precision": "int4"},
		Provider: "gcp", Instance: "g2-standard-4", Region: "us-central1", Pricing: model.Reserved1y, Instances: 1, USDPerHour: 0.5, Months: 6},
}}

func TestPlanCost(t *testing.T) {
	phases, total, err := twoPhase.Cost()
	if err != nil {
		t.Fatal(err)
	}
	// fine-tune: 12.5 h × $0.75 = $9.375; serve: 6 × 730 h = 4380 h × $0.50 = $2190,
	// but a 1-year commitment owes 0.5 × 730 × 12 = $4380 whatever the use.
	want := []PhaseCost{{Name: "fine-tune", Hours: 12.5, USD: 9.375}, {Name: "serve", Hours: 4380, USD: 4380, CommitmentUSD: 4380}}
	if !reflect.DeepEqual(phases, want) || total != 4389.375 {
		t.Errorf("Cost() = %+v, %g; want %+v, 4389.375", phases, total, want)
	}
}

func TestPhaseCostErrors(t *testing.T) {
	ok := Phase{Name: "p", USDPerHour: 1, JobHours: 1}
	tests := []struct {
		name string
		mod  func(*Phase)
	}{
		{"no price", func(p *Phase) { p.USDPerHour = 0 }},
		{"both hours and months", func(p *Phase) { p.Months = 1 }},
		{"neither", func(p *Phase) { p.JobHours = 0 }},
		{"negative months", func(p *Phase) { p.JobHours, p.Months = 0, -1 }},
		{"800 h a month", func(p *Phase) { p.JobHours, p.Months, p.HoursPerMonth = 0, 1, 800 }},
	}
	for _, tt := range tests {
		p := ok
		tt.mod(&p)
		if _, err := p.Cost(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: error = %v, want ErrInvalid", tt.name, err)
		}
	}
	// 2 months of 200 h at $3/h = $1200.
	p := Phase{Name: "part-time", USDPerHour: 3, Months: 2, HoursPerMonth: 200}
	if c, err := p.Cost(); err != nil || c.USD != 1200 || c.Hours != 400 {
		t.Errorf("part-time Cost() = %+v, %v; want 400 h, $1200", c, err)
	}
	if _, _, err := (&Plan{}).Cost(); !errors.Is(err, ErrInvalid) {
		t.Errorf("empty plan: error = %v, want ErrInvalid", err)
	}
}

// TestPlanTOMLRoundTrip: a two-phase plan encodes to TOML and decodes to
// the same value, with no unknown keys, and encodes again to the same bytes.
func TestPlanTOMLRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(twoPhase); err != nil {
		t.Fatal(err)
	}
	var back Plan
	md, err := toml.Decode(buf.String(), &back)
	if err != nil {
		t.Fatalf("decode: %v\n%s", err, buf.String())
	}
	if u := md.Undecoded(); len(u) > 0 {
		t.Errorf("undecoded keys %q", u)
	}
	if !reflect.DeepEqual(back, twoPhase) {
		t.Errorf("round trip:\n got %+v\nwant %+v\n%s", back, twoPhase, buf.String())
	}
	var again bytes.Buffer
	if err := toml.NewEncoder(&again).Encode(back); err != nil || again.String() != buf.String() {
		t.Errorf("second encoding differs (%v):\n%s\nvs\n%s", err, again.String(), buf.String())
	}
	if !bytes.Contains(buf.Bytes(), []byte("[[phase]]")) {
		t.Errorf("phases are not [[phase]] tables:\n%s", buf.String())
	}
}
