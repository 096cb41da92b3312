package plan

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/advice"
)

// TestCheckInstances: instances left out of a phase that names an offer,
// or not a whole number, is one line naming the key (walk35); a phase
// without an offer may leave it out; a range error is Decode's.
func TestCheckInstances(t *testing.T) {
	const head = "schema_version = 1\n[[phase]]\nname = \"a\"\nusd_per_hour = 1\nmonths = 1\n"
	tests := []struct{ name, phase, want string }{
		{"given", "provider = \"aws\"\ninstance = \"g5.xlarge\"\ninstances = 2\n", ""},
		{"no offer", "", ""},
		{"zero is Decode's", "provider = \"aws\"\ninstance = \"g5.xlarge\"\ninstances = 0\n", ""},
		{"missing", "provider = \"aws\"\ninstance = \"g5.xlarge\"\n", "phase \"a\" instances: missing: give how many instances of the offer aws g5.xlarge the phase rents (instances = 1 for one; 1–131072), usd_per_hour being for all of them"},
		{"instance alone", "instance = \"g5.xlarge\"\n", "phase \"a\" instances: missing: give how many instances of the offer  g5.xlarge"},
		{"fraction", "provider = \"aws\"\ninstance = \"g5.xlarge\"\ninstances = 1.5\n", "phase \"a\" instances: must be a whole number of instances (1–131072), got 1.5"},
		{"whole float", "provider = \"aws\"\ninstance = \"g5.xlarge\"\ninstances = 3.0\n", "phase \"a\" instances: must be a whole number, written without a decimal point: instances = 3"},
		{"string", "provider = \"aws\"\ninstance = \"g5.xlarge\"\ninstances = \"1\"\n", "phase \"a\" instances: must be a whole number of instances (1–131072), got \"1\""},
		{"not TOML: Decode's", "instances = = 1\n", ""},
	}
	for _, tt := range tests {
		err := checkInstances(rawPhases([]byte(head + tt.phase)))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if tt.want == "" && got != "" || tt.want != "" && !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestCheckDuration: a training phase given months and an inference
// phase given job_hours are each one note (walk35); a training job with
// job_hours and a service with months are not.
func TestCheckDuration(t *testing.T) {
	pl := Plan{Phases: []Phase{
		{Name: "tune", Months: 2},
		{Name: "tune-job", JobHours: 3},
		{Name: "serve", Months: 1, HoursPerMonth: 200},
		{Name: "batch", JobHours: 5},
	}}
	sc := Scenario{
		{Scenario: scenarioOf(model.TaskLoRA)}, {Scenario: scenarioOf(model.TaskQLoRA)},
		{Scenario: scenarioOf(model.TaskInference)}, {Scenario: scenarioOf(model.TaskInference)},
	}
	var got []string
	for _, m := range CheckDuration(&pl, sc) {
		got = append(got, m.String())
	}
	want := []string{
		`phase "tune" trains (task lora) but gives months = 2: it is priced as a service, 1460 h on its offer, and the job's own hours are not checked; give job_hours for a job (gpuplan estimate --config PLAN --phase NAME times it), or keep months to rent the offer that long`,
		`phase "batch" is an inference phase but gives job_hours = 5: it is priced as a job of those hours, which are not checked against an estimate; a service is months (and hours_per_month when it does not run all month)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func scenarioOf(t model.Task) advice.Scenario {
	return advice.Scenario{Workload: model.Workload{Settings: model.Settings{Task: t}}}
}

// TestDecodeWordsInstances: Decode itself says a missing or fractional
// instances in checkInstances' words, so every reader of a plan (the
// command line, the configurator) does; a control character in the
// provider is still the error of that key.
func TestDecodeWordsInstances(t *testing.T) {
	const head = "schema_version = 1\n[[phase]]\nname = \"a\"\nusd_per_hour = 1\nmonths = 1\n"
	for _, tt := range []struct{ phase, want string }{
		{"provider = \"aws\"\ninstance = \"g5.xlarge\"\n", "phase \"a\" instances: missing: give how many instances"},
		{"provider = \"aws\"\ninstance = \"g5.xlarge\"\ninstances = 1.5\n", "phase \"a\" instances: must be a whole number of instances (1–131072), got 1.5"},
		{"provider = \"aws\\u001b\"\ninstance = \"g5.xlarge\"\n", "phase[0].provider"},
	} {
		_, err := Decode([]byte(head + tt.phase))
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%q: %v, want %q…", tt.phase, err, tt.want)
		}
	}
}
