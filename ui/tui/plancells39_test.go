package tui

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/plan"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/report"
)

// TestPlanPageCellsFitChinese (tui39, walk38): the plan page at 80
// columns in Chinese cut its cost column, "$65.8", "$9,46",
// "$3,888（整个期限" and the header "费": the reserved phase's cost and
// duration cells ("（整个期限）", "3 个月 × 200 h") grew their columns
// and the row was 81 cells. Every row of testdata/plan39.toml (costs up
// to $9,461, a reserved phase owing its term, a phase of 2 instances, a
// borderline mark) fits the width in display cells with its cost, its
// pricing and its instance count whole, in English and Chinese, at 80
// and 120 columns.
func TestPlanPageCellsFitChinese(t *testing.T) {
	b, err := os.ReadFile("testdata/plan39.toml")
	if err != nil {
		t.Fatal(err)
	}
	check := func(p *plan.Plan) ([]string, []plan.PhaseCost) { // as gpuplan plan marks walk38's train phase
		marks := make([]plan.PhaseCost, len(p.Phases))
		for i := range p.Phases {
			if p.Phases[i].Name == "train" {
				marks[i].Targets, marks[i].Borderline = model.Msg("borderline on its pinned offer: %v", model.Msg("TPOT")), true
			}
		}
		return nil, marks
	}
	for _, lang := range []language.Tag{language.English, language.SimplifiedChinese} {
		p := i18n.New(lang)
		for _, w := range []int{80, 120} {
			t.Run(fmt.Sprintf("%v/%d", lang, w), func(t *testing.T) {
				pl, err := plan.Decode(b)
				if err != nil {
					t.Fatal(err)
				}
				m := start(t, newTestApp(t, testCatalog(t), Options{Plan: &pl, PlanPath: "plan.toml", CheckPlan: check, Lang: lang}), size(w, 24), ctrlT)
				if m.screen != screenPlan {
					t.Fatalf("screen %v, want the plan:\n%s", m.screen, screenText(m))
				}
				page := ansi.Strip(m.plan.view(m.st, w))
				checkFits(t, page, w, 24)
				screen := strings.Split(screenText(m), "\n")
				row := func(s string) string { // the screen's line that starts with s, as the frame shows it
					for _, l := range screen {
						if strings.HasPrefix(strings.TrimLeft(l, " ›"), s) {
							return l
						}
					}
					t.Fatalf("no line starts with %q:\n%s", s, strings.Join(screen, "\n"))
					return ""
				}
				if h := row(p.T("phase")); !strings.HasSuffix(strings.TrimSpace(h), p.T("cost")) {
					t.Errorf("header without its %q: %q", p.T("cost"), h)
				}
				for i := range pl.Phases {
					ph := &pl.Phases[i]
					name := ph.Name
					if name == "train" {
						name = "~ train"
					}
					c, err := ph.Cost()
					if err != nil {
						t.Fatal(err)
					}
					cost := report.USD(c.USD)
					if c.CommitmentUSD > 0 && c.CommitmentUSD >= c.USD {
						cost += p.T(" (term)")
					}
					l := row(name + " ")
					if !strings.HasSuffix(strings.TrimSpace(l), cost) {
						t.Errorf("phase %q: the row does not end with its cost %q: %q", ph.Name, cost, l)
					}
					if pr := report.PhasePricing(p, ph); !strings.Contains(l, " "+pr+" ") {
						t.Errorf("phase %q: pricing %q cut: %q", ph.Name, pr, l)
					}
					if ph.Instances > 1 && !strings.Contains(l, fmt.Sprintf("×%d ", ph.Instances)) {
						t.Errorf("phase %q: its ×%d cut: %q", ph.Name, ph.Instances, l)
					}
				}
			})
		}
	}
}

// TestPlanColumns: the plan page's column widths, worked by hand (7
// cells of mark and spaces; the offer between 12 and 22 cells at 80
// columns, 44 from wideWidth).
func TestPlanColumns(t *testing.T) {
	zh := func(costs []string) [planCols][]string {
		return [planCols][]string{
			colName:    {"阶段", "~ train", "rserve"}, // 7 cells
			colOffer:   {"报价"},
			colPricing: {"计费方式", "1 年预留实例"},    // 12 cells
			colUSDH:    {"$/小时", "$21.96"},     // 6, under the 7 of the default
			colDur:     {"时长", "3 个月 × 200 h"}, // 14 cells
			colCost:    append([]string{"费用"}, costs...),
		}
	}
	for _, tc := range []struct {
		name  string
		width int
		cells [planCols][]string
		want  [planCols]int
	}{
		{"English defaults", 80, [planCols][]string{colName: {"phase", "fine-tune"}, colOffer: {"offer"}, colPricing: {"pricing", "on-demand"},
			colUSDH: {"$/h", "$1.29"}, colDur: {"duration", "6 months"}, colCost: {"cost", "$5,650"}}, [planCols]int{12, 22, 11, 7, 12, 9}},
		// 7 + name + 12 + 7 + 14 + 18 = 80: the name gives 2 of its 5 unused cells.
		{"Chinese term at 80", 80, zh([]string{"$3,888（整个期限）"}), [planCols]int{10, 12, 12, 7, 14, 18}},
		{"Chinese term at 120", 120, zh([]string{"$3,888（整个期限）"}), [planCols]int{14, 44, 12, 7, 18, 18}},
		// offer 6: the name gives 5 (to its 7), the pricing 1 (to 11).
		{"cost of 22 at 80", 80, zh([]string{strings.Repeat("9", 22)}), [planCols]int{7, 12, 11, 7, 14, 22}},
		// offer 2: name to 7, pricing to 11, the offer takes the 8 left.
		{"cost of 26 at 80", 80, zh([]string{strings.Repeat("9", 26)}), [planCols]int{7, 8, 11, 7, 14, 26}},
	} {
		if got := planColumns(tc.width, tc.cells); got != tc.want {
			t.Errorf("%s: widths %v, want %v", tc.name, got, tc.want)
		}
	}
}
