package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// tryFirstCase is a fine-tune of Llama 3.1 8B at 16K tokens on a
// two-type market: "big" (an H100 SXM with twice tight's memory) at
// bigUSD an hour fits across its memory range; "tight" (the same GPU with its
// usable memory halfway between the job's need and the top of its 90%
// range, so borderline) at tightUSD an hour. tightFits moves tight's
// memory below the need instead: it does not run the job at all.
func tryFirstCase(t *testing.T, bigUSD, tightUSD float64, tightFits bool) (*model.Recommendation, *Decisions, *model.Estimate) {
	t.Helper()
	full := leakCatalog(t)
	arch, err := full.Model("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	w := model.Workload{Settings: model.Settings{Framework: model.PyTorch, Task: model.TaskFinetune, MicroBatch: 1, SeqLen: 16384,
		DatasetTokens: 2e8, GPUs: 1}, Model: *arch}
	w.Defaults()
	h100, err := full.GPU("h100-sxm")
	if err != nil {
		t.Fatal(err)
	}
	e, err := model.Compute(w, h100)
	if err != nil {
		t.Fatal(err)
	}
	big, tight := *h100, *h100
	tight.Key, tight.Name, tight.UsableMemoryMiB = "tight", "Tight", 0
	tight.MemoryGiB = (e.ResidentNeed() + e.ResidentBand()[1]) / 2 / (1 - model.FitMargin) / model.GiB
	big.Key, big.Name, big.MemoryGiB, big.UsableMemoryMiB = "big", "Big", 2*tight.MemoryGiB, 0
	if !tightFits {
		tight.MemoryGiB = e.ResidentNeed() * 0.9 / (1 - model.FitMargin) / model.GiB
	}
	inst := func(typ, gpu string, usd float64) model.Instance {
		return model.Instance{Provider: "pa", Type: typ, GPU: gpu, GPUCount: 1, VCPUs: 32, MemoryGiB: 512, NetworkGbps: 100, Interconnect: "pcie",
			Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: usd}}, Source: "test fixture", AsOf: "2026-11-30"}
	}
	cat := &model.Catalog{GPUs: []model.GPU{big, tight}, Models: full.Models, AsOf: "2026-11-30",
		Instances: []model.Instance{inst("a.big", "big", bigUSD), inst("a.tight", "tight", tightUSD)}}
	cat.Index()
	q := model.Query{AutoGPUs: true}
	rec, err := model.Recommend(w, cat, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Offers) == 0 || rec.Offers[0].Instance.Type != "a.big" {
		for _, o := range rec.Offers {
			t.Log(o.Instance.Type, o.Verdict, o.JobUSD, o.GPUs)
		}
		t.Fatalf("first offer is not a.big (the test's premise): %d offers", len(rec.Offers))
	}
	if tightFits && (len(rec.Offers) != 2 || !rec.Offers[1].Risky()) {
		t.Fatalf("a.tight is not ranked borderline after a.big (the test's premise)")
	}
	d := Decide(&rec, DecideInput{Catalog: cat, Workload: w, Query: q, Savings: true})
	base, err := model.Compute(w, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &rec, d, &base
}

// renderTryFirst is recommend's text and JSON for rec and d, the text in
// p's language.
func renderTryFirst(t *testing.T, rec *model.Recommendation, d *Decisions, base *model.Estimate, p *i18n.Printer) (string, RecommendJSON) {
	t.Helper()
	var b bytes.Buffer
	if err := WriteRecommendDecided(&b, &Renderer{Profile: colorprofile.NoTTY, Lang: p}, rec, base, 5, 0, "", d); err != nil {
		t.Fatal(err)
	}
	j := NewRecommendJSON(rec, base, 0)
	j.AddDecisions(rec, d)
	raw, err := json.Marshal(j)
	if err != nil {
		t.Fatal(err)
	}
	var back RecommendJSON
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	return b.String(), back
}

// TestTryFirstUnderBest (new-user walk: a 70B fine-tune's best was 14
// MI355X over two nodes, 1.2 years and $1.2M, while 8 MI355X, borderline
// at about 10%, ran it in 17 h for $1,167, named only in a line under the
// table and in the savings pages below): a borderline offer at most half
// the best's job cost is named under the "best:" line, with its chance
// and the change that makes it fit across its range on its own host; a
// change of the recipe that saves half or more is lifted there too; JSON's
// risky_ahead says try_first and fits_with, savings its headline. The
// ranking is unchanged: the offer that fits stays first.
func TestTryFirstUnderBest(t *testing.T) {
	rec, d, base := tryFirstCase(t, 40, 2, true)
	risky := &rec.Offers[1]
	if rec.Offers[0].Risky() {
		t.Fatal("the best is borderline: the ranking changed")
	}
	if d.TryFirst == nil || d.TryFirst.Kind != "checkpointing" || d.TryFirst.Offer.Instance.Type != "a.tight" || d.TryFirst.Offer.Risky() {
		t.Fatalf("Decisions.TryFirst = %+v; want activation checkpointing on a.tight, fitting", d.TryFirst)
	}
	fix := &d.TryFirst.Offer
	out, j := renderTryFirst(t, rec, d, base, nil)
	share := risky.JobUSD / rec.Offers[0].JobUSD
	want := []string{
		fmt.Sprintf("try first: pa a.tight in us-east-1: 1×tight, %s and %s for the job, %s less than best\n",
			HoursIn(nil, risky.JobHours), USD(risky.JobUSD), SavedPct(100*(1-share))),
		fmt.Sprintf("  ~ about a %.0f%% chance of running out of memory (borderline: ranked after the offers that fit); a training step reaches its peak memory in its first iterations, so a failed try costs minutes of rent, not the job (gpuplan probe measures them)\n",
			model.RoundChance(risky.OOMChance)*100),
		fmt.Sprintf("  with activation checkpointing (same batch; about 33%% more compute) it fits across its memory range: 1×tight, %s and %s for the job\n",
			HoursIn(nil, fix.JobHours), USD(fix.JobUSD)),
	}
	best := strings.Index(out, "\nbest: pa a.big")
	for _, l := range want {
		at := strings.Index(out, l)
		if at < 0 {
			t.Errorf("no line %q in\n%s", l, out)
		} else if at < best || strings.Contains(out[best:at], "Near misses") {
			t.Errorf("line %q not under the best: line in\n%s", l, out)
		}
	}
	h := HeadlineSaving(d)
	if h == nil || h.Change == d.TryFirst.Change || h.SavingPct < 50 {
		t.Fatalf("HeadlineSaving = %+v; want a recipe change other than checkpointing saving half or more", h)
	}
	if line := fmt.Sprintf("biggest saving: %s saves %s (%s)", h.Change, USD(h.SavingUSD), SavedPct(h.SavingPct)); !strings.Contains(out, line) {
		t.Errorf("no %q in\n%s", line, out)
	}

	ra := j.RiskyAhead
	if ra == nil || !ra.TryFirst || ra.Rank != 2 || ra.InstanceType != "a.tight" || ra.Share != Round(share, 4) ||
		ra.JobCostUSD == nil || *ra.JobCostUSD != Round(risky.JobUSD, 2) {
		t.Fatalf("risky_ahead = %+v; want a.tight at rank 2, try_first, share %.4f", ra, share)
	}
	if fw := ra.FitsWith; fw == nil || fw.Kind != "checkpointing" || fw.GPUCount != 1 || fw.JobCostUSD == nil || *fw.JobCostUSD != Round(fix.JobUSD, 2) || fw.USD != Round(d.TryFirst.USD, 2) {
		t.Errorf("risky_ahead.fits_with = %+v; want activation checkpointing, 1 GPU, $%.2f", fw, fix.JobUSD)
	}
	if j.Savings == nil || j.Savings.Headline == nil || j.Savings.Headline.Change != h.Change {
		t.Errorf("savings.headline = %+v; want %q", j.Savings, h.Change)
	}

	// Chinese: the new lines are translated.
	zh, _ := renderTryFirst(t, rec, d, base, i18n.New(language.SimplifiedChinese))
	allow := i18n.DefaultAllowlist()
	allow.Add("pa a.big a.tight big tight us-east-1 Llama 3.1 8B llama-3.1-8b gpuplan probe")
	for _, l := range strings.Split(zh, "\n") {
		if !strings.HasPrefix(l, "可先试") && !strings.HasPrefix(l, "  ~") && !strings.HasPrefix(l, "  采用") && !strings.HasPrefix(l, "最大节省") {
			continue
		}
		if leaks := i18n.Leaks(l, allow); len(leaks) > 0 {
			t.Errorf("English in %q: %v", l, leaks)
		}
	}
	for _, label := range []string{"可先试：pa a.tight", "最大节省："} {
		if !strings.Contains(zh, label) {
			t.Errorf("no %q in\n%s", label, zh)
		}
	}
}

// TestTryFirstNotHalf: a borderline offer cheaper than the best but not
// half its cost stays a line under the table (RiskyAheadNote), not the
// headline's; JSON gives its share and try_first false.
func TestTryFirstNotHalf(t *testing.T) {
	rec, d, base := tryFirstCase(t, 40, 30, true)
	out, j := renderTryFirst(t, rec, d, base, nil)
	if strings.Contains(out, "try first") || d.TryFirst != nil {
		t.Errorf("a.tight at %.0f%% of the best's cost is named under best:\n%s", 100*rec.Offers[1].JobUSD/rec.Offers[0].JobUSD, out)
	}
	if !strings.Contains(out, "is cheaper but has about a") {
		t.Errorf("the line under the table is gone:\n%s", out)
	}
	if ra := j.RiskyAhead; ra == nil || ra.TryFirst || ra.FitsWith != nil || !(ra.Share > 0.5 && ra.Share < 1) {
		t.Errorf("risky_ahead = %+v; want try_first false, share between 0.5 and 1", ra)
	}
}

// TestHeadlineSavingWithoutBorderline: the best is as absurd without a
// borderline offer when every cheap host misses outright and a change of
// the recipe makes it fit: the saving is lifted under "best:" all the
// same.
func TestHeadlineSavingWithoutBorderline(t *testing.T) {
	rec, d, base := tryFirstCase(t, 40, 2, false)
	out, j := renderTryFirst(t, rec, d, base, nil)
	h := HeadlineSaving(d)
	if h == nil || h.Offer == nil || h.Offer.InstanceType != "a.tight" {
		t.Fatalf("HeadlineSaving = %+v; want a change priced on a.tight\n%s", h, out)
	}
	if !strings.Contains(out, "\nbiggest saving: ") || strings.Contains(out, "try first") {
		t.Errorf("want a biggest saving line and no try first:\n%s", out)
	}
	if j.RiskyAhead != nil || j.Savings == nil || j.Savings.Headline == nil {
		t.Errorf("risky_ahead %+v, savings %+v; want none, and a headline", j.RiskyAhead, j.Savings)
	}
}

// TestAnswerTryFirst: the --finish-by answer put the same question (walk:
// --finish-by 300d answered a 224-day, $1.55M GB300 while 8×MI355X,
// borderline at about 10%, ran the job in 17 h for $1,167): an answer
// that fits names a borderline offer meeting the limit at most half its
// cost, with its chance; --max-job-cost names one at most half its time,
// so not tight here, as fast as big.
func TestAnswerTryFirst(t *testing.T) {
	rec, d, _ := tryFirstCase(t, 40, 2, true)
	pts := decide.OfferPoints(d.ShownOffers(rec))
	a := AnswerFinishWithin(rec, d, pts, 1000, "1000h")
	if a.Offer == nil || a.Offer.InstanceType != "a.big" {
		t.Fatalf("--finish-by answers %+v, want a.big (it fits)", a.Offer)
	}
	risky := &rec.Offers[1]
	chance := model.RoundChance(risky.OOMChance)
	want := fmt.Sprintf("; far cheaper to try first: pa a.tight in us-east-1 (on-demand): %s, %s (borderline: %.0f%% chance of running out of memory)",
		hoursMsg(risky.JobHours).String(), USD(risky.JobUSD), chance*100)
	if a.TryFirst == nil || a.TryFirst.InstanceType != "a.tight" || a.TryFirstOOMChance == nil || *a.TryFirstOOMChance != chance || !strings.HasSuffix(a.Text, want) {
		t.Errorf("--finish-by: try first %+v (chance %v), text %q; want a.tight at %.2f, ending %q", a.TryFirst, a.TryFirstOOMChance, a.Text, chance, want)
	}
	b := AnswerMaxJobCost(rec, d, pts, 5000)
	if b.Offer == nil || b.Offer.InstanceType != "a.big" || b.TryFirst != nil || strings.Contains(b.Text, "try first") {
		t.Errorf("--max-job-cost: %+v, try first %+v, %q; want a.big and none faster by half", b.Offer, b.TryFirst, b.Text)
	}
}
