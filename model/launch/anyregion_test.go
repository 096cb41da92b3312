package launch_test

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
)

// TestUnconfirmedRegionsNameNoRegion (walk49): Lambda's catalog regions
// say where a price applies, not where a type is offered
// (model.RegionsUnconfirmed), so the SkyPilot file names no region for a
// Lambda offer, one entry for the type instead of one per region, and
// every format's header says "any of N regions", as the tables do, not
// the first region of the list (Tokyo).
func TestUnconfirmedRegionsNameNoRegion(t *testing.T) {
	cat, o := catalogOffer(t, "lambda", "gpu_1x_gh200", 1, model.OnDemand)
	alts := launch.Alternatives(o.Estimate.Workload, cat, o, model.Query{})
	p, err := launch.NewPlan(o.Estimate.Workload, o, launch.Options{Alternatives: alts})
	if err != nil {
		t.Fatal(err)
	}
	sky := render(t, p, launch.FormatSkyPilot)
	var doc struct {
		Resources struct {
			Region       string
			InstanceType string `yaml:"instance_type"`
			Ordered      []struct {
				Cloud        string
				Region       string
				InstanceType string `yaml:"instance_type"`
			}
		}
	}
	if err := yaml.Unmarshal([]byte(sky), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Resources.Region != "" {
		t.Errorf("resources.region = %q, want none", doc.Resources.Region)
	}
	seen := map[string]int{}
	for _, e := range doc.Resources.Ordered {
		if model.RegionsUnconfirmed(e.Cloud) && e.Region != "" {
			t.Errorf("ordered entry %s/%s pinned to region %q, want none", e.Cloud, e.InstanceType, e.Region)
		}
		seen[e.Cloud+"/"+e.InstanceType]++
	}
	for k, n := range seen {
		if n > 1 {
			t.Errorf("%s listed %d times in resources.ordered, want once", k, n)
		}
	}
	for _, f := range []launch.Format{launch.FormatSkyPilot, launch.FormatTorchrun, launch.FormatDocker} {
		head := strings.SplitN(render(t, p, f), "\n", 3)
		summary := strings.Join(head[:2], "\n")
		if !strings.Contains(summary, "any of 17 regions") || strings.Contains(summary, o.Region) {
			t.Errorf("%s: header %q, want \"any of 17 regions\" and not %s", f, summary, o.Region)
		}
	}
	if !strings.Contains(sky, "resources names no region") {
		t.Errorf("SkyPilot file does not say why resources name no region:\n%s", sky)
	}
}

// TestConfirmedRegionsKeepRegion: an AWS offer keeps its region.
func TestConfirmedRegionsKeepRegion(t *testing.T) {
	_, o := catalogOffer(t, "aws", "p5.48xlarge", 1, model.OnDemand)
	p, err := launch.NewPlan(o.Estimate.Workload, o, launch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sky := render(t, p, launch.FormatSkyPilot); !strings.Contains(sky, "region: "+o.Region) {
		t.Errorf("AWS offer lost its region %s:\n%s", o.Region, sky)
	}
}

// TestRegionGivenKeepsRegion: a region the user named (export --region)
// is written even for Lambda.
func TestRegionGivenKeepsRegion(t *testing.T) {
	_, o := catalogOffer(t, "lambda", "gpu_1x_gh200", 1, model.OnDemand)
	p, err := launch.NewPlan(o.Estimate.Workload, o, launch.Options{RegionGiven: true})
	if err != nil {
		t.Fatal(err)
	}
	if sky := render(t, p, launch.FormatSkyPilot); !strings.Contains(sky, "region: "+o.Region) || strings.Contains(sky, "any of") {
		t.Errorf("--region %s not kept:\n%s", o.Region, sky)
	}
}
