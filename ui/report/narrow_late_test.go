package report

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// TestNarrowTableMovesMarks: when fitTable drops the job-time column a
// late offer's "~" moves to its job cost, and when it drops the headroom
// a borderline offer's "~" moves to its GPUs, in English and Chinese
// (fresh-user walk: at 80 columns "verda 1H100.80S.32V 1×h100-sxm $0.80
// $5.62" had no mark while the note said "~ job time (50 offers)"). The
// note then names the job cost; a wide table keeps the marks in place.
func TestNarrowTableMovesMarks(t *testing.T) {
	rows := func() [][]string {
		return [][]string{
			{"verda", "1H100.80S.32V", "FIN-02", "1×h100-sxm", "$0.80", "$585", "~7.0 h", "$5.62", "81%"},                              // late
			{"primeintellect", "datacrunch__4xV100_16GB__…", "FI", "4×v100-16gb ↺amp-fp16", "$0.20", "$146", "~9.2 h", "$1.83", "~4%"}, // late and borderline
			{"gcp", "n1-standard-32+8xV100", "asia-east1", "8×v100-16gb ↺amp-fp16", "$5.37", "$3,920", "4.6 h", "$24.59", "~4%"},       // borderline
			{"aws", "p4d.24xlarge", "us-east-1", "8×a100-40gb", "$2.47", "$1,800", "1.9 h", "$4.60", "62%"},                            // neither
		}
	}
	for _, lang := range []*i18n.Printer{nil, i18n.New(language.SimplifiedChinese)} {
		for _, tt := range []struct {
			width             int
			cells             []string // in row order, as the narrow table writes them
			jobTime, headroom bool     // the columns kept
		}{
			{80, []string{"~$5.62", "~4×v100-16gb ↺", "~$1.83", "~8×v100-16gb ↺", "$24.59"}, false, false},
			{0, []string{"~7.0 h", "~9.2 h", "~4%", "$24.59"}, true, true},
		} {
			out, kept := fitTable(&Renderer{Lang: lang}, OfferHeadersIn(lang), rows(), tt.width, model.SortJob)
			if kept[6] != tt.jobTime || kept[8] != tt.headroom {
				t.Errorf("%s at %d: job time kept %v, headroom %v; want %v, %v", lang.Tag(), tt.width, kept[6], kept[8], tt.jobTime, tt.headroom)
			}
			for _, c := range tt.cells {
				if !strings.Contains(out, c) {
					t.Errorf("%s at %d: no %q:\n%s", lang.Tag(), tt.width, c, out)
				}
			}
			if tt.width > 0 {
				for _, l := range strings.Split(out, "\n") {
					if w := lipgloss.Width(l); w > tt.width {
						t.Errorf("%s at %d: line of %d cells: %q", lang.Tag(), tt.width, w, l)
					}
				}
				// The row with neither mark has none.
				if strings.Contains(out, "~$4.60") || strings.Contains(out, "~8×a100") {
					t.Errorf("%s at %d: a mark on an offer that is neither late nor borderline:\n%s", lang.Tag(), tt.width, out)
				}
			}
		}
	}
}

// TestLateNoteOnCost: with the job-time column dropped the notes under
// the table name the job cost, where the mark is, in both languages; the
// short one is a whole sentence ("ranked after" alone read as a line cut
// mid-sentence).
func TestLateNoteOnCost(t *testing.T) {
	g := &model.GPU{Key: "v100", Name: "V100", MemoryGiB: 16}
	inst := &model.Instance{Provider: "p", Type: "g.1", GPU: "v100", GPUCount: 1}
	e := &model.Estimate{Hours: 28.6, HasTime: true, TimeBand: [2]float64{16.9, 48.4}}
	late := model.Offer{Instance: inst, GPU: g, Region: "r", Instances: 1, GPUs: 1, HeadroomPct: 5, Verdict: model.VerdictFits, Estimate: e,
		JobHours: 28.6, JobUSD: 4, HasJob: true, LateChance: 0.44, DeadlineHours: 30}
	onTime := late
	onTime.JobHours, onTime.LateChance, onTime.DeadlineHours = 10, 0, 0
	o := []model.Offer{onTime, late}
	alone := []model.Offer{late} // ranked first and late: none meets the deadline (walk48)
	zh := i18n.New(language.SimplifiedChinese)
	for _, tt := range []struct{ got, want string }{
		{lateTableNote(nil, o, true), "~ job cost (1 row): about 45% chance of missing the 30 h deadline, which falls inside the 90% range of the job time; ranked after the offers that meet it at the range's slow end"},
		{lateTableNote(zh, o, true), "~ 作业费用（1 行）：错过 30 小时截止时间的概率约 45%——截止时间落在作业时长的 90% 区间内；排在按区间上限也能按时完成的报价之后"},
		{LateNoteShort(nil, o, true), "~ job cost (1 offer): about 45% chance of missing the 30 h deadline; ranked after the offers that meet it"},
		{LateNoteShort(zh, o, true), "~ 作业费用（1 个报价）：错过 30 小时截止时间的概率约 45%；排在能按时完成的报价之后"},
		{lateTableNote(nil, alone, true), "~ job cost (1 row): about 45% chance of missing the 30 h deadline, which falls inside the 90% range of the job time; no offer that fits meets it at the range's slow end"},
		{lateTableNote(zh, alone, false), "~ 作业时长（1 行）：错过 30 小时截止时间的概率约 45%——截止时间落在用时的 90% 区间内；放得下的报价中没有一个按区间上限也能按时完成"},
		{LateNoteShort(nil, alone, false), "~ job time (1 offer): about 45% chance of missing the 30 h deadline; no offer that fits is sure to meet it"},
		{LateNoteShort(zh, alone, true), "~ 作业费用（1 个报价）：错过 30 小时截止时间的概率约 45%；放得下的报价中没有一个能确保按时完成"},
	} {
		if tt.got != tt.want {
			t.Errorf("note\n got %q\nwant %q", tt.got, tt.want)
		}
	}
}
