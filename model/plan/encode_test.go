package plan

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// encodeBase is a plan Decode takes: a QLoRA job and a service.
func encodeBase() Plan {
	return Plan{Name: "fine-tune, then serve", Phases: []Phase{
		{Name: "fine-tune", Answers: Answers{"model": "llama-3.1-8b", "task": "qlora", "dataset_tokens": "100M", "search.pricing": "spot"},
			Provider: "gcp", Instance: "g2-standard-8", Region: "us-central1", Pricing: model.Spot, Instances: 1, USDPerHour: 0.2977, JobHours: 14.5},
		{Name: "serve", Config: "serve/serve.toml", Provider: "aws", Instance: "g6.xlarge", Region: "us-east-1",
			Pricing: model.OnDemand, Instances: 2, USDPerHour: 1.6096, Months: 6, HoursPerMonth: 300},
	}}
}

// samePlan is reflect.DeepEqual with a phase's empty answers and no
// answers one (Encode leaves both out).
func samePlan(a, b Plan) bool {
	norm := func(p Plan) Plan {
		p.Phases = append([]Phase(nil), p.Phases...)
		for i := range p.Phases {
			if len(p.Phases[i].Answers) == 0 {
				p.Phases[i].Answers = nil
			}
		}
		return p
	}
	return reflect.DeepEqual(norm(a), norm(b))
}

func TestEncodeRoundTrip(t *testing.T) {
	p := encodeBase()
	b, err := Encode(&p)
	if err != nil {
		t.Fatal(err)
	}
	q, err := Decode(b)
	if err != nil {
		t.Fatalf("decode what Encode wrote: %v\n%s", err, b)
	}
	if !samePlan(p, q) {
		t.Errorf("round trip:\n%+v\nwant\n%+v", q, p)
	}
	// The dotted answer is written quoted and read back as its dotted key.
	if q.Phases[0].Answers["search.pricing"] != "spot" {
		t.Errorf("answers %v", q.Phases[0].Answers)
	}
}

// TestEncodeRefusesWhatDecodeRefuses: every plan here was written by
// Encode and refused by Decode (the bounds were checked in ui/tui only);
// Encode now says what is wrong, under Decode's key, and writes nothing.
func TestEncodeRefusesWhatDecodeRefuses(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Plan)
		key  string
	}{
		{"no phases", func(p *Plan) { p.Phases = nil }, "phase"},
		{"too many phases", func(p *Plan) {
			for i := len(p.Phases); i <= MaxPhases; i++ {
				p.Phases = append(p.Phases, Phase{Name: strings.Repeat("x", i), USDPerHour: 1, JobHours: 1})
			}
		}, "phase"},
		{"job over the bound", func(p *Plan) { p.Phases[0].JobHours = 2 * MaxJobHours }, `phase "fine-tune" job_hours`},
		{"job below the floor", func(p *Plan) { p.Phases[0].JobHours = 1e-300 }, `phase "fine-tune" job_hours`},
		{"NaN price", func(p *Plan) { p.Phases[1].USDPerHour = math.NaN() }, `phase "serve" usd_per_hour`},
		{"infinite months", func(p *Plan) { p.Phases[1].Months = math.Inf(1) }, `phase "serve" months`},
		{"hours a month over the month", func(p *Plan) { p.Phases[1].HoursPerMonth = 1000 }, `phase "serve" hours_per_month`},
		{"no instance for an offer", func(p *Plan) { p.Phases[0].Instances = 0 }, `phase "fine-tune" instances`},
		{"too many instances", func(p *Plan) { p.Phases[0].Instances = model.MaxGPUs + 1 }, `phase "fine-tune" instances`},
		{"missing name", func(p *Plan) { p.Phases[1].Name = " " }, "phase[1].name"},
		{"same name", func(p *Plan) { p.Phases[1].Name = "fine-tune" }, "phase[1].name"},
		{"look-alike name", func(p *Plan) { p.Phases[1].Name = "Fine_Tune" }, "phase[1].name"},
		{"long name", func(p *Plan) { p.Phases[1].Name = strings.Repeat("微", MaxNameChars+1) }, "phase[1].name"},
		{"mixed scripts", func(p *Plan) { p.Phases[1].Name = "trаin" }, "phase[1].name"},
		{"escape in the plan's name", func(p *Plan) { p.Name = "a\x1b[2J" }, "name"},
		{"invisible in a region", func(p *Plan) { p.Phases[0].Region = "us-central1\u200b" }, "phase[0].region"},
		{"long instance", func(p *Plan) { p.Phases[0].Instance = strings.Repeat("g", MaxOfferBytes+1) }, "phase[0].instance"},
		{"invalid UTF-8", func(p *Plan) { p.Phases[0].Provider = "gc\xffp" }, "phase[0].provider"},
		{"config outside the folder", func(p *Plan) { p.Phases[1].Config = "../serve.toml" }, `phase "serve" config`},
		{"answers outside the folder", func(p *Plan) { p.Phases[0].Answers["hf_config"] = "/etc/passwd" }, "phase[0].answers.hf_config"},
		{"config and answers", func(p *Plan) { p.Phases[0].Config = "a.toml" }, "phase[0].config"},
		{"unknown pricing", func(p *Plan) { p.Phases[0].Pricing = "free" }, "phase \"fine-tune\" pricing"},
		{"bad answer", func(p *Plan) { p.Phases[0].Answers["batch_size"] = "0" }, `phase "fine-tune" answers.batch_size`},
	}
	for _, tt := range tests {
		p := encodeBase()
		tt.edit(&p)
		b, err := Encode(&p)
		var ce *config.Error
		if !errors.As(err, &ce) || !errors.Is(err, config.ErrInvalid) {
			_, derr := Decode(b)
			t.Errorf("%s: Encode error %v, want a *config.Error (Decode of its output: %v)", tt.name, err, derr)
			continue
		}
		if b != nil {
			t.Errorf("%s: Encode wrote %d bytes with its error", tt.name, len(b))
		}
		if ce.Key != tt.key {
			t.Errorf("%s: key %q, want %q (%v)", tt.name, ce.Key, tt.key, err)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: multi-line error %q", tt.name, err)
		}
	}
}

// FuzzEncodePlan: whatever plan Encode accepts, Decode reads back equal,
// and encoding that gives the same bytes.
func FuzzEncodePlan(f *testing.F) {
	f.Add("plan", "fine-tune", "", "model", "llama-3.1-8b", "gcp", "g2-standard-8", "us-central1", "spot", 1, 0.2977, 14.5, 0.0, 0.0, "serve")
	f.Add("", "serve", "serve.toml", "", "", "aws", "g6.xlarge", "us-east-1", "on-demand", 2, 1.6, 0.0, 6.0, 300.0, "train")
	f.Add("x", "a", "", "search.pricing", "spot", "", "", "", "", 0, 1.0, math.Copysign(0, -1), 1e-3, 0.0, "A")
	f.Fuzz(func(t *testing.T, name, phase, cfg, ak, av, provider, instance, region, pricing string, instances int,
		usd, job, months, hpm float64, phase2 string) {
		p := Plan{Name: name, Phases: []Phase{
			{Name: phase, Config: cfg, Provider: provider, Instance: instance, Region: region, Pricing: model.Pricing(pricing),
				Instances: instances, USDPerHour: usd, JobHours: job, Months: months, HoursPerMonth: hpm},
			{Name: phase2, USDPerHour: 1, JobHours: 1},
		}}
		if ak != "" {
			p.Phases[0].Answers = Answers{ak: av}
		}
		b, err := Encode(&p)
		if err != nil {
			if b != nil {
				t.Fatalf("Encode wrote %d bytes with its error %v", len(b), err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("multi-line error: %q", err)
			}
			return
		}
		q, err := Decode(b)
		if err != nil {
			t.Fatalf("Encode wrote a plan Decode refuses: %v\n%s", err, b)
		}
		if !samePlan(p, q) {
			t.Fatalf("read back\n%+v\nwant\n%+v\n%s", q, p, b)
		}
		if again, err := Encode(&q); err != nil || string(again) != string(b) {
			t.Fatalf("encode is not stable (%v):\n%s\n%s", err, b, again)
		}
	})
}
