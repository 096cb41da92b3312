package tui

import (
	"strings"
	"testing"

	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/plan"
)

// TestServingPhasePanelIsItsOffer (walk37): a serving phase pinned on
// aws g5.xlarge (an A10G, bf16) opened while a V100 (no bf16: vLLM
// serves it fp16) tops the ranking headed the panel "fp16 weights", the
// V100's, and at 80×24 the panel named only the V100. The panel
// describes the phase's own offer, its weights bf16 as estimate --phase
// says them, and names it on a short panel too. In English and Chinese.
func TestServingPhasePanelIsItsOffer(t *testing.T) {
	cat := testCatalog(t)
	cat.Instances = append(cat.Instances, model.Instance{Provider: "gcp", Type: "n1-v100-test", GPU: "v100-32gb", GPUCount: 1, VCPUs: 8, MemoryGiB: 64,
		Prices: []model.RegionPrice{{Region: "us-central1", OnDemandUSD: 0.05}}, Source: "test fixture", AsOf: "2026-11-30"})
	cat.Index()
	ph := plan.Phase{Name: "serve", Provider: "aws", Instance: "g5.xlarge", Region: "us-east-1", Pricing: model.OnDemand, Instances: 1, USDPerHour: 1.006, Months: 3,
		Answers: plan.Answers{"model": "llama-3.1-8b", "task": "inference", "serve.concurrency": "8", "serve.prompt_tokens": "1000", "serve.output_tokens": "200"}}
	for _, tc := range []struct {
		lang          language.Tag
		weights, fp16 string
		picked        string
	}{
		{language.English, "bf16 weights", "fp16 weights", "picked aws g5.xlarge us-east-1"},
		{language.SimplifiedChinese, "bf16 权重", "fp16 权重", "已选 aws g5.xlarge us-east-1"},
	} {
		for _, sz := range [][2]int{{120, 40}, {80, 24}} {
			c, err := ph.ConfigFromAnswers()
			if err != nil {
				t.Fatal(err)
			}
			pl := plan.Plan{Phases: []plan.Phase{ph}}
			m := start(t, newTestApp(t, cat, Options{Config: &c, Plan: &pl, PlanPath: "plan.toml", Phase: "serve", PhaseNamed: true, Lang: tc.lang}), size(sz[0], sz[1]))
			if len(m.res.serve) == 0 || m.res.serve[0].Offer.GPU == nil || m.res.serve[0].Offer.GPU.Key != "v100-32gb" {
				t.Fatalf("%v: the V100 does not top the ranking:\n%s", tc.lang, screenText(m))
			}
			if m.panel.chosen == nil || m.panel.chosen.Instance.Type != "g5.xlarge" {
				t.Fatalf("%v: the phase's offer is not the one chosen:\n%s", tc.lang, screenText(m))
			}
			s := screenText(m)
			if !strings.Contains(s, tc.weights) || strings.Contains(s, tc.fp16) {
				t.Errorf("%v %dx%d: the panel's header does not say the phase's %q:\n%s", tc.lang, sz[0], sz[1], tc.weights, s)
			}
			if !strings.Contains(s, tc.picked) {
				t.Errorf("%v %dx%d: the panel does not name the phase's offer (%q):\n%s", tc.lang, sz[0], sz[1], tc.picked, s)
			}
			checkFits(t, m.View().Content, sz[0], sz[1])
		}
	}
}
