package report

import (
	"encoding/json"
	"strings"
	"testing"

	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// TestJobCostRange: an offer's job cost carries the 90% range of its job
// time (model.Offer.JobBand) in its JSON (job_hours_low … job_cost_high_usd,
// beside the unchanged job_hours and job_cost_usd), in the best line's
// words and in the note under the table, in both languages (new-user
// trial: one cost beside a time range of ~7×). Hand-worked: 10 h at
// $2/h is $20; the band 5–34 h is $10–$68, ×0.5–×3.4.
func TestJobCostRange(t *testing.T) {
	g := &model.GPU{Key: "v100", Name: "V100", MemoryGiB: 16}
	inst := &model.Instance{Provider: "p", Type: "g.1", GPU: "v100", GPUCount: 1}
	e := &model.Estimate{Hours: 10, HasTime: true, TimeBand: [2]float64{5, 34}}
	o := model.Offer{Instance: inst, GPU: g, Region: "r", Instances: 1, GPUs: 1, Verdict: model.VerdictFits, Estimate: e,
		Pricing: model.OnDemand, USDPerHour: 2, JobHours: 10, JobUSD: 20, HasJob: true}
	b, err := json.Marshal(NewOfferJSON(&o, ""))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]float64{"job_hours": 10, "job_cost_usd": 20, "job_hours_low": 5, "job_hours_high": 34, "job_cost_low_usd": 10, "job_cost_high_usd": 68} {
		if v, ok := got[k].(float64); !ok || v != want {
			t.Errorf("JSON %s = %v, want %v", k, got[k], want)
		}
	}
	if s := JobRangeIn(nil, &o); s != "90% range 5.0 h – 34.0 h, $10.00–$68.00" {
		t.Errorf("JobRangeIn = %q", s)
	}
	zh := i18n.New(language.SimplifiedChinese)
	for _, tt := range []struct {
		p    *i18n.Printer
		want string
	}{
		{nil, "job time and job cost are estimates: 90% range ×0.5–×3.4 of each figure (out-of-sample errors of the time estimate)"},
		{zh, "作业时长和作业费用是估算值：90% 区间为各数值的 ×0.5–×3.4（时间估算的样本外误差）"},
	} {
		if got := JobRangeNoteIn(tt.p, []model.Offer{o}); got != tt.want {
			t.Errorf("note\n got %q\nwant %q", got, tt.want)
		}
	}
	if got := JobRangeNoteShort(nil, []model.Offer{o}); got != "job time and cost: 90% range ×0.5–×3.4" {
		t.Errorf("short note %q", got)
	}
	// A second offer in another band: the note gives the narrowest and the widest.
	o2 := o
	o2.Estimate = &model.Estimate{Hours: 10, HasTime: true, TimeBand: [2]float64{8, 13}}
	if got := JobRangeNoteIn(nil, []model.Offer{o, o2}); !strings.Contains(got, "from ×0.8–×1.3 to ×0.5–×3.4 of each figure, by offer") {
		t.Errorf("two bands: %q", got)
	}
	// The panel's short line gives their envelope, one range: "×0.8–×3.4 to
	// ×0.5–×3.4" read as a range of ranges (new-user trial).
	o3 := o
	o3.Estimate = &model.Estimate{Hours: 10, HasTime: true, TimeBand: [2]float64{4, 37}}
	for _, tt := range []struct {
		p    *i18n.Printer
		want string
	}{
		{nil, "job time and cost: 90% range ×0.4–×3.7, by offer"},
		{zh, "作业时长和费用：90% 区间 ×0.4–×3.7（因报价而异）"},
	} {
		if got := JobRangeNoteShort(tt.p, []model.Offer{o, o2, o3}); got != tt.want {
			t.Errorf("short, three bands:\n got %q\nwant %q", got, tt.want)
		}
	}
	// Without a job time: no range, no note.
	none := o
	none.HasJob = false
	if j := NewOfferJSON(&none, ""); j.JobCostLowUSD != nil || JobRangeIn(nil, &none) != "" || JobRangeNoteIn(nil, []model.Offer{none}) != "" {
		t.Errorf("an offer without a job time has a range")
	}
}
