package report

import (
	"slices"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"

	"github.com/gpuplan/gpuplan/model"
)

// TestOfferGPUs: the GPUs cell says when the job uses fewer GPUs than the
// offer rents (issue 17: "1×h200 $63/h" for one GPU of an 8-GPU host).
func TestOfferGPUs(t *testing.T) {
	h200 := &model.GPU{Key: "h200"}
	for _, tt := range []struct {
		name           string
		perHost, nodes int
		used           int
		want           string
	}{
		{"one of a 1-GPU host", 1, 1, 1, "1×h200"},
		{"one of an 8-GPU host", 8, 1, 1, "1 of 8×h200"},
		{"all of an 8-GPU host", 8, 1, 8, "8×h200"},
		{"two nodes, all used", 8, 2, 16, "16×h200 (2 nodes)"},
		{"12 on two 8-GPU nodes", 8, 2, 12, "12 of 16×h200 (2 nodes)"},
	} {
		o := &model.Offer{Instance: &model.Instance{GPUCount: tt.perHost}, GPU: h200, Instances: tt.nodes, GPUs: tt.used}
		if got := OfferGPUs(o); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
		if got := OfferRow(o)[3]; got != tt.want {
			t.Errorf("%s: OfferRow's GPUs cell %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestCommitmentCells works a reserved-1y offer by hand: $3.48/h
// reserved, $5.67/h on demand, a 1.64 h job. Commitment 8,760 h ×
// $3.48 = $30,484.80; the job's share 1.64 × 3.48 = $5.71; on demand
// 1.64 × 5.67 = $9.30.
func TestCommitmentCells(t *testing.T) {
	o := &model.Offer{Pricing: model.Reserved1y, USDPerHour: 3.48, OnDemandUSDPerHour: 5.67,
		JobHours: 1.64, HasJob: true, CommitmentUSD: 8760 * 3.48}
	if got, want := CommitmentCells(o), []string{"$30,485", "$5.71", "$9.30"}; !slices.Equal(got, want) {
		t.Errorf("CommitmentCells = %q, want %q", got, want)
	}
	o.HasJob, o.OnDemandUSDPerHour = false, 0
	if got, want := CommitmentCells(o), []string{"$30,485", "—", "—"}; !slices.Equal(got, want) {
		t.Errorf("without a job or an on-demand price: %q, want %q", got, want)
	}
	if got := commitmentTableNote(nil, []model.Offer{*o}); !strings.Contains(got, "$/month bills 730 h and job cost the 8,760 h term") {
		t.Errorf("note under a reserved table %q does not say the month and the term are billed whole", got)
	}
	o.MonthlyUSD = 744 * 3.48 // a 31-day month used: each hour committed
	if got := commitmentTableNote(nil, []model.Offer{*o}); !strings.Contains(got, "$/month bills 744 h") {
		t.Errorf("note at 744 h a month %q, want the 744 h billed", got)
	}
	if commitmentTableNote(nil, []model.Offer{{Pricing: model.OnDemand, USDPerHour: 1}}) != "" {
		t.Error("a commitment note under an on-demand table")
	}
}

// At 80 columns a reserved table keeps the job's share and the on-demand
// job: the commitment column goes first (the job cost shows the term's
// bill), never the figures the table is there for.
func TestReservedTableAt80(t *testing.T) {
	rows := [][]string{append(append([]string{}, "gcp", "a2-ultragpu-1g", "us-east5", "1×a100-80gb", "$3.48", "$2,540", "1.6 h", "$30,485", "36%"),
		"$30,485", "$5.71", "$9.07")}
	headers := append(slices.Clone(OfferHeaders), CommitmentHeaders...)
	out, _ := fitTable(&Renderer{}, headers, rows, 80, model.SortJob)
	for _, want := range []string{"job cost", "job share", "on-demand", "$5.71", "$9.07"} {
		if !strings.Contains(out, want) {
			t.Errorf("80 columns: %q cut:\n%s", want, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if w := lipgloss.Width(l); w > 80 {
			t.Errorf("line of %d cells: %q", w, l)
		}
	}
}

// A narrow table never drops the column it is sorted by (issue 17): at
// 60 columns dropOrder would take $/month, headroom and job time first.
func TestNarrowTableKeepsSortColumn(t *testing.T) {
	row := []string{"oci", "BM.GPU.MI355X.8", "af-casablanca-1 +2", "8×mi355x", "$68.80", "$50,224", "3 min", "$3.50", "45%"}
	for _, k := range []model.SortKey{model.SortPrice, model.SortMonthly, model.SortTime, model.SortJob, model.SortHeadroom} {
		out, _ := fitTable(&Renderer{}, OfferHeaders, [][]string{row}, 60, k)
		if c := SortColumn(k); !strings.Contains(out, OfferHeaders[c]) || !strings.Contains(out, row[c]) {
			t.Errorf("sorted by %s, column %q dropped at 60 cells:\n%s", k, OfferHeaders[c], out)
		}
	}
}
