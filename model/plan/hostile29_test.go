package plan

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// Issue 29, items 2 and 4: a plan's names made of blank characters or
// under a stack of combining marks, and a phase's numbers (its own keys
// and its answers) that are NaN, infinite, negative or absurd, are each
// refused in one line naming the key.
func TestDecodeRefusesBlankNamesAndWildNumbers(t *testing.T) {
	zalgo := "serve" + strings.Repeat("\u0336\u0337", 4)
	job := func(name string) string { return planWith("name = \"" + name + "\"\n" + okPhase + "job_hours = 5") }
	withAnswers := func(a string) string {
		return planWith("name = \"serve\"\n" + okPhase + "months = 1\n[phase.answers]\nmodel = \"llama-3.1-8b\"\ntask = \"inference\"\n" + a)
	}
	for _, tc := range []struct{ name, file, key, want string }{
		{"Braille blank name", job("\u2800"), "phase[0].name", "invisible character U+2800"},
		{"no-break space name", job("fine\u00a0tune"), "phase[0].name", "invisible character U+00A0"},
		{"ideographic space name", job("serve\u3000"), "phase[0].name", "invisible character U+3000"},
		{"Hangul filler name", job("\u115f\u1160"), "phase[0].name", "invisible character U+115F"},
		{"Zalgo name", job(zalgo), "phase[0].name", "more than 4 combining marks"},
		{"repeated mark", job("e\u0301\u0301"), "phase[0].name", "one mark twice"},
		{"blank region", planWith("name = \"x\"\n" + strings.Replace(okPhase, "us-east-1", "us-east-1\u2007", 1) + "job_hours = 5"), "phase[0].region", "invisible character U+2007"},
		{"Zalgo instance", planWith("name = \"x\"\n" + strings.Replace(okPhase, "g6.xlarge", "g6.xl\u0300\u0301\u0302\u0303\u0304arge", 1) + "job_hours = 5"), "phase[0].instance", "more than 4 combining marks"},
		{"serving job_hours 1e300", planWith("name = \"serve\"\n" + okPhase + "job_hours = 1e300\n[phase.answers]\nmodel = \"llama-3.1-8b\"\ntask = \"inference\""), "phase \"serve\" job_hours", "got 1e+300"},
		{"serving job_hours NaN", planWith("name = \"serve\"\n" + okPhase + "job_hours = nan\n[phase.answers]\nmodel = \"llama-3.1-8b\"\ntask = \"inference\""), "phase \"serve\" job_hours", "got NaN"},
		{"serving job_hours -inf", planWith("name = \"serve\"\n" + okPhase + "job_hours = -inf\n[phase.answers]\nmodel = \"llama-3.1-8b\"\ntask = \"inference\""), "phase \"serve\" job_hours", "got -Inf"},
		{"answer concurrency -1", withAnswers("\"serve.concurrency\" = \"-1\""), "answers.serve.concurrency", "must be 1–1048576, got -1"}, // read as --concurrency -1: a whole number, out of range
		{"answer requests_per_sec 1e300", withAnswers("\"serve.requests_per_sec\" = \"1e300\""), "answers.serve.requests_per_sec", "1e+300"},
		{"answer serve port -1", withAnswers("\"serve.port\" = \"-1\""), "answers.serve.port", `got "-1"`},
		{"answer serve usd_per_hour inf", withAnswers("\"serve.usd_per_hour\" = \"inf\""), "answers.serve.usd_per_hour", `got "inf"`},
		{"answer epochs NaN", withAnswers("epochs = \"nan\""), "answers.epochs", `got "nan"`},
		{"answer deadline 1e300", withAnswers("\"search.deadline_hours\" = \"1e300\""), "answers.search.deadline_hours", "1e+300"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode([]byte(tc.file))
			if err == nil || !errors.Is(err, config.ErrInvalid) || !strings.Contains(err.Error(), tc.key) ||
				!strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want one line naming %s with %q", err, tc.key, tc.want)
			}
		})
	}
}

// Attack round 13: a plan's name of 200,000 characters and an instance of
// 100,000 (echoed three times in a 100 KB line) were accepted; every
// string field is bounded as the catalog's names are.
func TestDecodeBoundsStrings(t *testing.T) {
	long := strings.Repeat("a", MaxOfferBytes+1)
	for _, tc := range []struct{ name, file, key, want string }{
		{"plan name", "name = \"" + long + "\"\n" + planWith("name = \"x\"\n"+okPhase+"job_hours = 5"), "name", "257 bytes long; a plan's name is a title line of at most 256"},
		{"instance", planWith("name = \"x\"\n" + strings.Replace(okPhase, "g6.xlarge", long, 1) + "job_hours = 5"), "phase[0].instance", "257 bytes long; at most 256"},
		{"provider", planWith("name = \"x\"\n" + strings.Replace(okPhase, `"aws"`, `"`+long+`"`, 1) + "job_hours = 5"), "phase[0].provider", "257 bytes long"},
		{"region", planWith("name = \"x\"\n" + strings.Replace(okPhase, "us-east-1", long, 1) + "job_hours = 5"), "phase[0].region", "257 bytes long"},
		{"answer", planWith("name = \"x\"\n" + okPhase + "job_hours = 5\n[phase.answers]\nmodel = \"" + strings.Repeat("m", MaxPathBytes+1) + "\""), "phase[0].answers", "an answer of 4097 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode([]byte(tc.file))
			if err == nil || !errors.Is(err, config.ErrInvalid) || !strings.Contains(err.Error(), tc.key) ||
				!strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") || len(err.Error()) > 400 {
				t.Fatalf("err = %.500v, want one short line naming %s with %q", err, tc.key, tc.want)
			}
		})
	}
	// 256 bytes pass.
	ok := strings.Repeat("a", MaxOfferBytes)
	if _, err := Decode([]byte("name = \"" + ok + "\"\n" + planWith("name = \"x\"\n"+strings.Replace(okPhase, "g6.xlarge", ok, 1)+"job_hours = 5"))); err != nil {
		t.Errorf("256 bytes: %v", err)
	}
}

// A phase's provider or instance that reads as one of the catalog's
// through a look-alike character is said so, not only "not in the
// catalog" (attack round 13: "gсp" with a Cyrillic с).
func TestCheckLookAlike(t *testing.T) {
	cat := modeltest.Catalog()
	cat.AsOf = "2026-11-30"
	pl := Plan{Phases: []Phase{
		{Name: "cyrillic", Provider: "р1", Instance: "small.1", Region: "us-east-1", Pricing: model.OnDemand, Instances: 1, USDPerHour: 1, JobHours: 1},
		{Name: "case", Provider: "p1", Instance: "SMALL.1", Region: "us-east-1", Pricing: model.OnDemand, Instances: 1, USDPerHour: 1, JobHours: 1},
		// Attack r29: a region with a Cyrillic а only got "no price".
		{Name: "region", Provider: "p1", Instance: "small.1", Region: "us-e\u0430st-1", Pricing: model.OnDemand, Instances: 1, USDPerHour: 1, JobHours: 1},
		{Name: "other region", Provider: "p1", Instance: "small.1", Region: "mars-1", Pricing: model.OnDemand, Instances: 1, USDPerHour: 1, JobHours: 1},
	}}
	got := model.Strings(Check(cat, &pl))
	want := []string{
		`phase "cyrillic": provider "р1" reads as "p1" but is another name (a look-alike character?): the plan's price for it is unchecked; spell it as the catalog does`,
		`phase "case": p1 instance "SMALL.1" reads as "small.1" but is another name (a look-alike character?): the plan's price for it is unchecked; spell it as the catalog does`,
		`phase "region": p1 small.1 region "us-eаst-1" reads as "us-east-1" but is another name (a look-alike character?): the plan's price for it is unchecked; spell it as the catalog does`,
		`phase "other region": the catalog has no price for p1 small.1 in mars-1`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Check:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
