package tui

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/ui/report"
)

// spotConfig is bert-large fine-tuned on spot (TestAccessibleDecisions'
// answers), on the fixed test catalog's six spot offers.
func spotConfig(t *testing.T) config.Config {
	t.Helper()
	cfg, err := config.Decode([]byte("schema_version = 1\n[workload]\nmodel = \"bert-large\"\ntask = \"finetune\"\ndataset_samples = 8800000\nepochs = 2\ngpus = 1\n[search]\npricing = \"spot\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// skewedRate interrupts gcp's spot offers often (an assumption of the
// test, about once every 18 hours) and the others at 20% a month, so the
// expected cost with interruptions ranks the offers otherwise than
// their bare price.
func skewedRate(provider, region, typ string) decide.InterruptionRate {
	if provider == "gcp" {
		return decide.InterruptionRate{PerMonth: 0.99, LowPerMonth: 0.99, Bucket: ">20%", Source: "test", Assumption: true}
	}
	return assumedRate(provider, region, typ)
}

func spotApp(t *testing.T, lang language.Tag) app {
	t.Helper()
	cfg := spotConfig(t)
	return start(t, newTestApp(t, testCatalog(t), Options{Config: &cfg, SpotRate: skewedRate, Lang: lang}), size(120, 40))
}

// TestSpotShownGolden pins the panel and the offers list under spot
// pricing with spot rates at 120×40: the job time and cost of the spot
// offers are the expected ones with interruptions, as recommend
// --pricing spot prints them, with its note under the table.
func TestSpotShownGolden(t *testing.T) {
	for _, lang := range []language.Tag{language.English, language.SimplifiedChinese} {
		t.Run(lang.String(), func(t *testing.T) {
			m := spotApp(t, lang)
			for _, screen := range []string{"panel", "offers"} {
				if screen == "offers" {
					m = drive(t, m, ctrlO)
				}
				t.Run(screen, func(t *testing.T) {
					view := m.View().Content
					checkFits(t, view, 120, 40)
					text := ansi.Strip(view)
					note := report.SpotShownNote(m.lang, model.SortJob)
					if !strings.Contains(strings.Join(strings.Fields(text), ""), strings.Join(strings.Fields(strings.TrimSuffix(note, "；报价按它们排序")[:30]), "")) {
						t.Errorf("no spot note %q:\n%s", note, text)
					}
					golden.RequireEqual(t, []byte(text))
				})
			}
		})
	}
}

// TestSpotPanelBestIsDecide: the panel's best offer shows the expected
// job cost report.Decide gives that offer (its Spot line's, recommend's
// first row), not its uninterrupted cost; the shown copies are parallel
// to the real offers, which keep the uninterrupted figures.
func TestSpotPanelBestIsDecide(t *testing.T) {
	m := spotApp(t, language.English)
	cat := m.cat
	r := compute(cat, spotConfig(t), nil, &hfReader{}, 0)
	d := report.Decide(&r.rec, report.DecideInput{Catalog: cat, Workload: r.workload, Query: r.cfg.Query(), Rate: skewedRate, Spot: spotAssumptions,
		HoursPerMonth: model.HoursPerMonth})
	if d.Offers[0].Spot == nil {
		t.Fatalf("Decide's best has no spot estimate: %+v", d.Offers[0])
	}
	want := d.Offers[0].Spot.ExpectedUSD
	real, shown := m.res.best(), m.res.shownOf(m.res.best())
	if real.Instance != r.rec.Offers[0].Instance || real.Region != r.rec.Offers[0].Region {
		t.Fatalf("best offer %s %s, Decide's %s %s", real.Instance.Type, real.Region, r.rec.Offers[0].Instance.Type, r.rec.Offers[0].Region)
	}
	if math.Abs(shown.JobUSD-want) > 1e-9 || math.Abs(shown.JobHours-d.Offers[0].Spot.ExpectedHours) > 1e-9 {
		t.Errorf("panel's best: %g h, $%g; Decide's expected %g h, $%g", shown.JobHours, shown.JobUSD, d.Offers[0].Spot.ExpectedHours, want)
	}
	if real.JobUSD == shown.JobUSD || real.JobUSD != r.rec.Offers[0].JobUSD {
		t.Errorf("the real best offer's job cost $%g changed (shown $%g, uninterrupted $%g)", real.JobUSD, shown.JobUSD, r.rec.Offers[0].JobUSD)
	}
	if text := screenText(m); !strings.Contains(text, report.USD(want)) {
		t.Errorf("the panel lacks the best offer's expected cost %s:\n%s", report.USD(want), text)
	}
	for i := range m.res.shown { // each shown offer at Decide's expected figures, in Decide's order
		s, od := &m.res.shown[i], &d.Offers[i]
		if s.Instance != r.rec.Offers[i].Instance || od.Spot != nil && math.Abs(s.JobUSD-od.Spot.ExpectedUSD) > 1e-9 {
			t.Errorf("row %d: %s $%g, Decide's %s expected %+v", i, s.Instance.Type, s.JobUSD, r.rec.Offers[i].Instance.Type, od.Spot)
		}
	}
}

// TestSpotAddPhaseRealOffer: a on an offer shown at its expected spot
// figures adds the phase the real offer makes, as without spot rates:
// usd_per_hour the spot rate, job_hours the uninterrupted job's (gpuplan
// plan bills job_hours × usd_per_hour and prices the interruptions in
// its savings itself, report.SpotJobCost).
func TestSpotAddPhaseRealOffer(t *testing.T) {
	m := drive(t, spotApp(t, language.English), ctrlO)
	sel := m.offers.selected()
	shown := m.res.shownAt(sel)
	if sel == nil || shown == nil {
		t.Fatalf("no spot offer shown at its expected figures: %v %v", sel, shown)
	}
	m = drive(t, m, runes("a"))
	if m.plan.pending == nil {
		t.Fatalf("a added no phase:\n%s", screenText(m))
	}
	got := *m.plan.pending
	cfg := spotConfig(t)
	bare := start(t, newTestApp(t, m.cat, Options{Config: &cfg}), size(120, 40))
	o := bare.res.same(sel)
	if o == nil {
		t.Fatalf("no %s %s without spot rates", sel.Instance.Type, sel.Region)
	}
	want, err := newPhase(bare.a, bare.cat, o)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("a under spot rates added\n%+v\nwant, as without them,\n%+v", got, want)
	}
	if got.Pricing != model.Spot || got.USDPerHour != phaseRound(sel.USDPerHour, 6) || got.JobHours != phaseRound(sel.JobHours, 5) || got.JobHours == phaseRound(shown.JobHours, 5) {
		t.Errorf("phase %s at $%g/h for %g h; the offer's spot rate $%g/h, uninterrupted %g h, expected %g h", got.Pricing, got.USDPerHour, got.JobHours, sel.USDPerHour, sel.JobHours, shown.JobHours)
	}
}

// TestSpotNeverFinishesNoted: offers whose spot job would not finish are
// ranked after the rest at their bare figures (report.Decide), and the
// list and the panel say why, as recommend --pricing spot warns.
func TestSpotNeverFinishesNoted(t *testing.T) {
	reclaim := func(provider, region, typ string) decide.InterruptionRate {
		if provider == "gcp" { // 40 a month: "reclaims every instance" (decide.SpotExpectedCost)
			return decide.InterruptionRate{PerMonth: 40, LowPerMonth: 40, Source: "test", Assumption: true}
		}
		return assumedRate(provider, region, typ)
	}
	cfg := spotConfig(t)
	m := start(t, newTestApp(t, testCatalog(t), Options{Config: &cfg, SpotRate: reclaim}), size(120, 40))
	if m.res.spotLast != 2 {
		t.Fatalf("spotLast %d, want gcp's 2 offers", m.res.spotLast)
	}
	for i, o := range m.res.rec.Offers {
		if (o.Instance.Provider == "gcp") != (i >= len(m.res.rec.Offers)-2) {
			t.Errorf("row %d: %s, want gcp's offers last", i, o.Instance.Type)
		}
	}
	const want = "2 offers ranked after the rest"
	if text := screenText(m); !strings.Contains(text, want) {
		t.Errorf("panel lacks %q:\n%s", want, text)
	}
	if text := screenText(drive(t, m, ctrlO)); !strings.Contains(text, want) {
		t.Errorf("offers list lacks %q:\n%s", want, text)
	}
}

// TestSpotDetailSaysExpected: an offer's detail keeps the uninterrupted
// "time × price = cost" sum and says under it the expected figures the
// list showed for the offer.
func TestSpotDetailSaysExpected(t *testing.T) {
	m := drive(t, spotApp(t, language.English), ctrlO)
	sel := m.offers.selected()
	shown := m.res.shownAt(sel)
	if shown == nil {
		t.Fatal("no offer shown at its expected figures")
	}
	m = drive(t, m, enter)
	text := screenText(m)
	want := "with interruptions: expected " + report.HoursIn(m.lang, shown.JobHours) + " and " + report.USD(shown.JobUSD)
	if !strings.Contains(strings.Join(strings.Fields(text), " "), want) || !strings.Contains(text, report.USD(sel.JobUSD)) {
		t.Errorf("detail lacks %q or the uninterrupted %s:\n%s", want, report.USD(sel.JobUSD), text)
	}
}
