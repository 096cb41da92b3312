package report

import (
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/gpuplan/gpuplan/model/plan"
)

// TestWritePlanKeepsInstanceCount: a long instance name is cut to fit the
// offer column, but the instance count stays, as the configurator shows
// it (the row read "primeintellect datacrunch__4xH200_141GB__17… $23.94"
// for three instances).
func TestWritePlanKeepsInstanceCount(t *testing.T) {
	p := &plan.Plan{Phases: []plan.Phase{{Name: "train", Provider: "primeintellect", Instance: "datacrunch__4xH200_141GB__176_vcpu__1480_gb_ram", Region: "FIN-01",
		Pricing: "on-demand", Instances: 3, USDPerHour: 23.94, JobHours: 10}}}
	var b strings.Builder
	if err := WritePlan(&b, &Renderer{Profile: colorprofile.NoTTY}, p, []plan.PhaseCost{{Hours: 10, USD: 239.4}}, 239.4); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "… ×3") {
		t.Errorf("the row lost the instance count ×3:\n%s", out)
	}
}

// TestBilledHoursShown: the billed h column shows the hours the plan
// bills, Cost's own: job_hours or months × hours_per_month, unrounded
// (plan.Phase.Cost multiplies them by usd_per_hour as written), so a
// job under an hour is not "0" beside its cost (walk36: a 0.01 h job
// on $1.212/h showed "billed h 0" beside $0.01). An hour and more
// keeps one decimal, a whole number without it.
func TestBilledHoursShown(t *testing.T) {
	tests := []struct {
		hours float64
		want  string
	}{
		{0.01, "0.01"},   // 36 s
		{0.001, "0.001"}, // plan.MinJobHours, 3.6 s
		{0.0125, "0.013"},
		{0.25, "0.25"},
		{0.5, "0.5"},
		{0.96, "0.96"},
		{1, "1"},
		{20.596, "20.6"},
		{4380, "4380"},
	}
	for _, tt := range tests {
		if got := billedText(tt.hours); got != tt.want {
			t.Errorf("billedText(%g) = %q, want %q", tt.hours, got, tt.want)
		}
	}
	p := &plan.Plan{Phases: []plan.Phase{{Name: "tune", Provider: "aws", Instance: "g5.2xlarge", Region: "us-east-1",
		Pricing: "on-demand", Instances: 1, USDPerHour: 1.212, JobHours: 0.01}}}
	costs, total, err := p.Cost()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WritePlan(&b, &Renderer{Profile: colorprofile.NoTTY}, p, costs, total); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "job      0.01  $0.01") {
		t.Errorf("a 0.01 h job's row does not bill 0.01 h:\n%s", out)
	}
}
