package tui

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/table"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/report"
)

// TestOffersListNoteFollowsProviderFilter: the offers list (ctrl+o)
// filtered to one provider (p) kept the note about a cheaper risky offer
// of another provider ("1×v100-16gb … 10% chance of running out of
// memory", verda's, under a list of aws rows: walk, 2026-12-06). The note
// is of the rows the filter keeps; back to all providers, it returns.
func TestOffersListNoteFollowsProviderFilter(t *testing.T) {
	g := &model.GPU{Key: "a10g", Name: "A10G", MemoryGiB: 24}
	v100 := &model.GPU{Key: "v100-16gb", Name: "V100", MemoryGiB: 16}
	aws := &model.Instance{Provider: "aws", Type: "g5.xlarge", GPU: "a10g", GPUCount: 1}
	verda := &model.Instance{Provider: "verda", Type: "1V100.6V", GPU: "v100-16gb", GPUCount: 1}
	fits := model.Offer{Instance: aws, GPU: g, Region: "us-east-1", Instances: 1, GPUs: 1, Verdict: model.VerdictFits,
		USDPerHour: 1.01, MonthlyUSD: 737, HasJob: true, JobHours: 5, JobUSD: 5.05, HeadroomPct: 30}
	risky := model.Offer{Instance: verda, GPU: v100, Region: "FIN-01", Instances: 1, GPUs: 1, Verdict: model.VerdictBorderline, OOMChance: 0.1,
		USDPerHour: 0.14, MonthlyUSD: 102, HasJob: true, JobHours: 9, JobUSD: 1.26, HeadroomPct: 2}
	rec := model.Recommendation{Offers: []model.Offer{fits, risky}, Sort: model.SortJob}
	st := report.NewStyles(&report.Renderer{Dark: true})
	v := newOffersView(&st, table.DefaultKeyMap())
	v.width, v.height = 120, 20
	v.setResult(&result{rec: rec})
	if !strings.Contains(v.note, "1×v100-16gb") {
		t.Fatalf("all providers: note %q, want the risky V100 named", v.note)
	}
	v.cycleProvider() // aws
	if v.provider != "aws" || len(v.table.Rows()) != 1 {
		t.Fatalf("filter %q, %d rows; want aws and its one row", v.provider, len(v.table.Rows()))
	}
	if strings.Contains(v.note, "v100") {
		t.Errorf("filtered to aws: note %q names verda's offer", v.note)
	}
	v.cycleProvider() // verda
	v.cycleProvider() // all again
	if v.provider != "" || !strings.Contains(v.note, "1×v100-16gb") {
		t.Errorf("all providers again (%q): note %q, want the risky V100 named", v.provider, v.note)
	}
}
