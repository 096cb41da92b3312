package tui

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/table"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/report"
)

// TestOffersListLateMarkNarrow (fresh-user walk): at 80 columns the
// offers list (ctrl+o) drops the job time, and a late offer's "~" went
// with it ("aws p5.4xlarge … 1×h100-sxm $8.26 $57.88", no mark) while
// the note said "~ job time". The mark moves to the job cost and the
// note names it, in English and Chinese; at 140 columns both stay on the
// job time (60 columns here: the test's names are short). An offer that is not late has no mark.
func TestOffersListLateMarkNarrow(t *testing.T) {
	g := &model.GPU{Key: "h100-sxm", Name: "H100", MemoryGiB: 80}
	in := &model.Instance{Provider: "aws", Type: "p5.4xlarge", GPU: "h100-sxm", GPUCount: 1}
	ontime := model.Offer{Instance: in, GPU: g, Region: "us-east-1", Instances: 1, GPUs: 1, Verdict: model.VerdictFits,
		USDPerHour: 6.88, MonthlyUSD: 5022, HasJob: true, JobHours: 5, JobUSD: 34.40, HeadroomPct: 81}
	late := ontime
	late.Region, late.USDPerHour, late.MonthlyUSD, late.JobHours, late.JobUSD = "ap-southeast-3", 8.26, 6030, 7.0, 57.88
	late.LateChance, late.DeadlineHours = 0.3, 10
	rec := model.Recommendation{Offers: []model.Offer{ontime, late}, Sort: model.SortJob}
	st := report.NewStyles(&report.Renderer{Dark: true})
	for _, lang := range []*i18n.Printer{nil, i18n.New(language.SimplifiedChinese)} {
		for _, tt := range []struct {
			width  int
			cell   string // the late row's marked cell
			onCost bool   // the note names the job cost
		}{
			{60, "~$57.88", true},
			{140, "~" + report.HoursIn(lang, 7.0), false},
		} {
			v := newOffersView(&st, table.DefaultKeyMap())
			v.lang = lang
			v.width, v.height = tt.width, 20
			v.setResult(&result{rec: rec})
			rows := v.table.Rows()
			if len(rows) != 2 {
				t.Fatalf("%s at %d: %d rows, want 2", lang.Tag(), tt.width, len(rows))
			}
			if !strings.Contains(strings.Join(rows[1], " "), tt.cell) {
				t.Errorf("%s at %d: late row %q, want %q in it", lang.Tag(), tt.width, rows[1], tt.cell)
			}
			if r := strings.Join(rows[0], " "); strings.Contains(r, "~") {
				t.Errorf("%s at %d: on-time row %q has a mark", lang.Tag(), tt.width, r)
			}
			if want := report.LateNoteShort(lang, []model.Offer{ontime, late}, tt.onCost); v.note != want {
				t.Errorf("%s at %d: note %q, want %q", lang.Tag(), tt.width, v.note, want)
			}
			if cols := v.table.Columns(); (cols[7].Width == 0) != tt.onCost || cols[8].Width == 0 {
				t.Errorf("%s at %d: job time %d cells, job cost %d: want the job time dropped %v", lang.Tag(), tt.width, cols[7].Width, cols[8].Width, tt.onCost)
			}
		}
	}
}
