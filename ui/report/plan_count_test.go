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
