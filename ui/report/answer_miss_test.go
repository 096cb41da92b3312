package report

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"golang.org/x/text/language"
)

// answerMissRec is the walk's pair, by hand: "slow" 13.4 h expected for
// $3.07 ($0.2291/h) with a 90% time range of 8.4–35.8 h, and "fast" 1.7 h
// for $3.11 ($1.8294/h), range 0.85–3.4 h. Their estimates have no GPU,
// so Estimate.OverrunChance reads the fallback calibration band (×0.75–
// ×1.333 around the estimate, uniform in log between its 5% and 95%
// points): P(T > h) = 0.95 − 0.9·ln(h/(0.75·E))/ln(16/9) inside it.
func answerMissRec() *model.Recommendation {
	ins := []model.Instance{{Provider: "p", Type: "slow"}, {Provider: "p", Type: "fast"}}
	offer := func(in *model.Instance, hours, usd float64, band [2]float64) model.Offer {
		e := &model.Estimate{HasTime: true, Hours: hours, TimeBand: band}
		return model.Offer{Instance: in, Region: "r", Pricing: model.OnDemand, HasJob: true, JobHours: hours, JobUSD: usd, USDPerHour: usd / hours, Estimate: e}
	}
	return &model.Recommendation{Sort: model.SortJob, Offers: []model.Offer{
		offer(&ins[0], 13.4, 3.07, [2]float64{8.4, 35.8}),
		offer(&ins[1], 1.7, 3.11, [2]float64{0.85, 3.4}),
	}}
}

// TestAnswerJudgesLimitOnRange: --finish-by and --max-job-cost judge
// their limit as --deadline-hours judges the deadline: an offer whose
// 90% range meets the limit (chance of missing it at most 5%) answers
// before a cheaper (faster) one that meets it only on its expected
// figure, which the answer names with its chance; an answer that can
// only name a risky offer says its chance.
//
// Hand-worked chances (answerMissRec's band):
//   - slow, 14 h: 14/13.4 = 1.0448; 0.95 − 0.9·ln(1.0448/0.75)/0.57536 =
//     0.4315, about 45%;
//   - fast, 2 h: 2/1.7 = 1.1765; 0.95 − 0.9·ln(1.5686)/0.57536 = 0.2458,
//     about 25%;
//   - fast, $3.20: 3.20/1.8294 = 1.7492 h, ×1.0290: 0.95 −
//     0.9·ln(1.3720)/0.57536 = 0.4553, about 45%; slow at $3.20:
//     13.967 h, ×1.0423: 0.4354, about 45% too;
//   - $10: fast's 5.47 h and slow's 43.6 h are past their slow ends: safe.
func TestAnswerJudgesLimitOnRange(t *testing.T) {
	rec := answerMissRec()
	pts := decide.OfferPoints(rec.Offers)
	for _, c := range []struct {
		name     string
		a        Answer
		want     string
		idx      int     // the answer's offer
		miss     float64 // its miss_chance, 0: left out
		riskier  int     // riskier_offer's index, -1: none
		riskMiss float64
	}{
		{"finish-by 14 h: fast, slow named", AnswerFinishWithin(rec, nil, pts, 14, "14h"),
			"cheapest finishing within 14.0 h: p fast in r (on-demand): 1.7 h, $3.11; cheaper, but may take longer than 14.0 h (about 45% chance): p slow in r (on-demand): 13.4 h, $3.07",
			1, 0, 0, 0.45},
		{"finish-by 40 h: slow is safe", AnswerFinishWithin(rec, nil, pts, 40, "40h"),
			"cheapest finishing within 40.0 h: p slow in r (on-demand): 13.4 h, $3.07", 0, 0, -1, 0},
		{"finish-by 2 h: only fast, risky", AnswerFinishWithin(rec, nil, pts, 2, "2h"),
			"cheapest finishing within 2.0 h: p fast in r (on-demand): 1.7 h, $3.11 (may take longer than 2.0 h: about 25% chance)", 1, 0.25, -1, 0},
		{"max-job-cost $3.20: both risky", AnswerMaxJobCost(rec, nil, pts, 3.20),
			"fastest within $3.20: p fast in r (on-demand): 1.7 h, $3.11 (may cost more than $3.20: about 45% chance)", 1, 0.45, -1, 0},
		{"max-job-cost $10: fast safe", AnswerMaxJobCost(rec, nil, pts, 10),
			"fastest within $10.00: p fast in r (on-demand): 1.7 h, $3.11", 1, 0, -1, 0},
	} {
		a := c.a
		if a.Text != c.want {
			t.Errorf("%s: %q\nwant %q", c.name, a.Text, c.want)
		}
		if a.Offer == nil || a.Offer.Index != c.idx {
			t.Errorf("%s: offer %+v, want %d", c.name, a.Offer, c.idx)
		}
		if got := deref(a.MissChance); got != c.miss {
			t.Errorf("%s: miss_chance %v, want %v", c.name, got, c.miss)
		}
		switch {
		case c.riskier < 0 && a.Riskier != nil:
			t.Errorf("%s: riskier_offer %+v, want none", c.name, a.Riskier)
		case c.riskier >= 0 && (a.Riskier == nil || a.Riskier.Index != c.riskier || deref(a.RiskierMissChance) != c.riskMiss):
			t.Errorf("%s: riskier_offer %+v at %v, want %d at %v", c.name, a.Riskier, deref(a.RiskierMissChance), c.riskier, c.riskMiss)
		}
	}
}

// TestAnswerRiskierOnlyWhenItShows: the riskier offer is named only when
// it is cheaper (faster) as printed: slow at $3.107 beside fast's $3.11
// read "cheaper" at the same "$3.11" (walk48). Its chances are
// TestAnswerJudgesLimitOnRange's.
func TestAnswerRiskierOnlyWhenItShows(t *testing.T) {
	rec := answerMissRec()
	rec.Offers[0].JobUSD = 3.107 // prints $3.11, as fast's 3.11
	pts := decide.OfferPoints(rec.Offers)
	a := AnswerFinishWithin(rec, nil, pts, 14, "14h")
	if want := "cheapest finishing within 14.0 h: p fast in r (on-demand): 1.7 h, $3.11"; a.Text != want || a.Riskier != nil {
		t.Errorf("finish-by 14 h at one printed cost: %q, riskier %+v\nwant %q and none", a.Text, a.Riskier, want)
	}
	// A third offer, "rapid", 1.69 h for $9.90 ($5.858/h, prints 1.7 h as
	// fast does): at $10 it has 1.707 h, ×1.0101 of its time, inside its
	// range, so it may cost more than $10 where fast is safe.
	rec = answerMissRec()
	rapid := rec.Offers[1]
	rapid.Instance = &model.Instance{Provider: "p", Type: "rapid"}
	rapid.JobHours, rapid.JobUSD, rapid.USDPerHour = 1.69, 9.9, 9.9/1.69
	rapid.Estimate = &model.Estimate{HasTime: true, Hours: 1.69, TimeBand: [2]float64{0.85, 3.4}}
	rec.Offers = append(rec.Offers, rapid)
	pts = decide.OfferPoints(rec.Offers)
	if a := AnswerMaxJobCost(rec, nil, pts, 10); a.Offer == nil || a.Offer.Index != 1 || a.Riskier != nil {
		t.Errorf("max-job-cost $10 at one printed time: %q, riskier %+v; want fast and none", a.Text, a.Riskier)
	}
	rec.Offers[2].JobHours, rec.Offers[2].Estimate.Hours = 1.6, 1.6 // prints 1.6 h: faster as printed, named
	rec.Offers[2].USDPerHour = 9.9 / 1.6
	pts = decide.OfferPoints(rec.Offers)
	if a := AnswerMaxJobCost(rec, nil, pts, 10); a.Riskier == nil || a.Riskier.Index != 2 {
		t.Errorf("max-job-cost $10, rapid at 1.6 h: %q, riskier %+v; want rapid named", a.Text, a.Riskier)
	}
}

func deref(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

// TestAnswerMissZh: the limit's chance reads in Chinese, its hours in
// 小时 as the configurator says them (hoursMsg), not "14.0 h".
func TestAnswerMissZh(t *testing.T) {
	rec := answerMissRec()
	pts := decide.OfferPoints(rec.Offers)
	zh := i18n.New(language.SimplifiedChinese)
	for _, c := range []struct {
		a    Answer
		want string
	}{
		{AnswerFinishWithin(rec, nil, pts, 14, "14h"), "更便宜，但可能超过 14.0 小时（约 45% 的概率）"},
		{AnswerFinishWithin(rec, nil, pts, 2, "2h"), "（可能超过 2.0 小时：约 25% 的概率）"},
		{AnswerMaxJobCost(rec, nil, pts, 3.20), "（费用可能超过 $3.20：约 45% 的概率）"},
	} {
		if got := AnswerText(zh, &c.a); !strings.Contains(got, c.want) {
			t.Errorf("zh-CN: %q\nwant it to contain %q", got, c.want)
		}
	}
}

// TestChanceRangeZh: a range of chances follows "概率" as "约 45%" does,
// set off by a word and a blank ("概率为 5–90%"), not run into it
// (walk: "概率5–90%").
func TestChanceRangeZh(t *testing.T) {
	zh := i18n.New(language.SimplifiedChinese)
	for _, c := range []struct{ chance, want string }{
		{zh.Sprintf("%.0f–%.0f%%", 5.0, 90.0), "~ 显存紧张：显存不足的概率为 5–90%"},
		{zh.Sprintf("about %.0f%%", 45.0), "~ 显存紧张：显存不足的概率约 45%"},
	} {
		if got := zh.Sprintf("~ borderline: %s chance of running out of memory", c.chance); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}
