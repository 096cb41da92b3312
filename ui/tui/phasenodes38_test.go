package tui

import (
	"strings"
	"testing"

	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/plan"
)

// TestPhaseOnSeveralInstances (walk37): a plan's job phase renting 2 ×
// aws p4de.24xlarge (16 GPUs) was opened on one 8-GPU p4de (its answers'
// gpus = "auto"), another job than gpuplan plan and estimate --phase's,
// with no "Picked offer · phase" line (the ranking had no 2-instance
// offer), and ctrl+e named the phase's offer as the ranking's. Opened
// with --phase and from the plan page, the configurator takes it as
// plan.JobOnOffer does: the panel's job is on 16 GPUs with JobOnOffer's
// strategy, memory and hours, the pinned offer is the 2-instance one,
// named "p4de.24xlarge ×2", and the export is for it. In English and
// Chinese.
func TestPhaseOnSeveralInstances(t *testing.T) {
	cat := testCatalog(t)
	ph := plan.Phase{Name: "big", Provider: "aws", Instance: "p4de.24xlarge", Region: "us-east-1", Pricing: model.OnDemand, Instances: 2, USDPerHour: 81.94, JobHours: 2,
		Answers: plan.Answers{"model": "llama-3.1-70b", "task": "qlora", "batch_size": "1", "seq_len": "2048", "dataset_tokens": "20M"}}
	pl := plan.Plan{Phases: []plan.Phase{ph}}
	c, err := ph.ConfigFromAnswers()
	if err != nil {
		t.Fatal(err)
	}
	// The job as gpuplan plan and estimate --phase take it.
	w, _, err := c.Workload.Resolve(cat, config.Readers{})
	if err != nil {
		t.Fatal(err)
	}
	ps := plan.PhaseScenarioFor(&ph, w, c.Query(), cat)
	job, ok, err := plan.JobOnOffer(cat, &ph, &ps)
	if !ok || err != nil || !job.Why.IsZero() || job.GPUs != 16 {
		t.Fatalf("JobOnOffer: ok %v, err %v, why %v, GPUs %d", ok, err, job.Why, job.GPUs)
	}
	for _, tc := range []struct {
		lang language.Tag
		note string
	}{
		{language.English, `for phase "big"'s offer: aws p4de.24xlarge ×2 us-east-1`},
		{language.SimplifiedChinese, `导出阶段 "big" 的报价：aws p4de.24xlarge ×2 us-east-1`},
	} {
		cc := c
		p := pl
		opened := newTestApp(t, cat, Options{Config: &cc, Plan: &p, PlanPath: "plan.toml", Phase: "big", PhaseNamed: true, Lang: tc.lang})
		fromPage := drive(t, newTestApp(t, cat, Options{Plan: &p, PlanPath: "plan.toml", Lang: tc.lang}), size(120, 40), ctrl('t'), enter)
		for name, m := range map[string]app{"--phase": start(t, opened, size(120, 40)), "plan page": fromPage} {
			o := m.panel.chosen
			if o == nil || o.Instances != 2 || o.GPUs != 16 || o.Estimate == nil {
				t.Fatalf("%v %s: the pinned offer is not the phase's 2 instances: %+v\n%s", tc.lang, name, o, screenText(m))
			}
			e := o.Estimate
			if e.Workload.GPUs != job.Workload.GPUs || e.Workload.Strategy != job.Workload.Strategy || e.Workload.GradAccum != job.Workload.GradAccum {
				t.Errorf("%v %s: the panel's job is %d GPUs %s accum %d, plan's %d GPUs %s accum %d", tc.lang, name,
					e.Workload.GPUs, e.Workload.Strategy, e.Workload.GradAccum, job.Workload.GPUs, job.Workload.Strategy, job.Workload.GradAccum)
			}
			if got, want := o.JobHours, job.Offer.JobHours; got != want || o.USDPerHour != job.Offer.USDPerHour*2 && o.USDPerHour != job.Offer.USDPerHour {
				t.Errorf("%v %s: job %.4g h at $%.4g/h, plan's %.4g h at $%.4g/h", tc.lang, name, got, o.USDPerHour, want, job.Offer.USDPerHour)
			}
			if s := screenText(m); !strings.Contains(s, "p4de.24xlarge ×2") {
				t.Errorf("%v %s: the picked offer does not say its 2 instances:\n%s", tc.lang, name, s)
			}
			d := drive(t, m, ctrlE)
			if d.dialog == nil || d.dialog.note != tc.note || d.dialog.noteWarn {
				t.Errorf("%v %s: export dialog note %q, want %q", tc.lang, name, d.dialog.note, tc.note)
			}
			if d.dialog != nil && (d.dialog.cfg.Selection == nil || d.dialog.cfg.Selection.Instances != 2 || d.dialog.cfg.Workload.GPUs != 16) {
				t.Errorf("%v %s: the export's selection %+v, gpus %d", tc.lang, name, d.dialog.cfg.Selection, d.dialog.cfg.Workload.GPUs)
			}
		}
	}
}

// TestPhaseAnswersOtherGPUCount: a job phase renting one 8-GPU
// instance whose answers say gpus = "16" is opened on the offer's 8, as
// plan.JobOnOffer estimates it, and the footer says so in its words
// (the ranking had 16-GPU offers only, the phase's among none of them).
func TestPhaseAnswersOtherGPUCount(t *testing.T) {
	cat := testCatalog(t)
	ph := plan.Phase{Name: "tune", Provider: "aws", Instance: "p4de.24xlarge", Region: "us-east-1", Pricing: model.OnDemand, Instances: 1, USDPerHour: 40.97, JobHours: 2,
		Answers: plan.Answers{"model": "llama-3.1-8b", "task": "lora", "gpus": "16", "dataset_tokens": "5M"}}
	pl := plan.Plan{Phases: []plan.Phase{ph}}
	for _, tc := range []struct {
		lang language.Tag
		note string
	}{
		{language.English, `phase "tune": the answers say 16 GPUs, but its offer aws p4de.24xlarge has 8`},
		{language.SimplifiedChinese, `阶段 "tune"`},
	} {
		c, err := ph.ConfigFromAnswers()
		if err != nil {
			t.Fatal(err)
		}
		p := pl
		m := start(t, newTestApp(t, cat, Options{Config: &c, Plan: &p, PlanPath: "plan.toml", Phase: "tune", PhaseNamed: true, Lang: tc.lang}), size(120, 40))
		if o := m.panel.chosen; o == nil || o.GPUs != 8 || o.Instances != 1 {
			t.Errorf("%v: the pinned offer is not the phase's 8 GPUs: %+v", tc.lang, o)
		}
		if !strings.Contains(m.footer.status, tc.note) || tc.lang == language.SimplifiedChinese && strings.Contains(m.footer.status, "the answers say") {
			t.Errorf("%v: footer %q, want %q", tc.lang, m.footer.status, tc.note)
		}
	}
}
