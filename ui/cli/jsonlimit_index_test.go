package cli

import "testing"

// TestJSONIndexesIntoTheRanking: --json keeps the table's --limit, and
// an index in pareto or an answer is the offer's place in the whole
// ranking, of which offers is the first rows: offers[index] is that
// offer when the rows reach it, and --limit 0 reaches every one (a walk
// read index 34 beside 17 offers against a doc that said "into offers").
func TestJSONIndexesIntoTheRanking(t *testing.T) {
	type ref struct {
		Index        int    `json:"index"`
		Provider     string `json:"provider"`
		InstanceType string `json:"instance_type"`
		Region       string `json:"region"`
	}
	type answer struct {
		Offer    *ref `json:"offer"`
		Riskier  *ref `json:"riskier_offer"`
		TryFirst *ref `json:"try_first_offer"`
	}
	args := []string{"recommend", "--model", "llama-3.1-8b", "--task", "lora", "--batch-size", "1", "--seq-len", "2048",
		"--dataset-tokens", "50M", "--providers", "aws,gcp,lambda", "--pareto", "--finish-by", "10m", "--max-job-cost", "5", "--json"}
	var past int
	for _, limit := range []string{"1", "10", "0"} {
		r, _ := runCLIJSON[struct {
			Offers      []ref    `json:"offers"`
			OffersTotal int      `json:"offers_total"`
			Pareto      []ref    `json:"pareto"`
			Answers     []answer `json:"answers"`
		}](t, append(args, "--limit", limit))
		refs := append([]ref{}, r.Pareto...)
		for _, a := range r.Answers {
			for _, p := range []*ref{a.Offer, a.Riskier, a.TryFirst} {
				if p != nil {
					refs = append(refs, *p)
				}
			}
		}
		if len(refs) < 3 {
			t.Fatalf("--limit %s: %d offers named; the case needs a front and answers", limit, len(refs))
		}
		for _, p := range refs {
			if p.Index >= r.OffersTotal {
				t.Errorf("--limit %s: index %d (%s %s) past the %d offers ranked", limit, p.Index, p.Provider, p.InstanceType, r.OffersTotal)
				continue
			}
			if p.Index >= len(r.Offers) {
				if limit == "0" {
					t.Errorf("--limit 0: index %d past the %d offers listed", p.Index, len(r.Offers))
				}
				past++
				continue
			}
			if o := r.Offers[p.Index]; o.Provider != p.Provider || o.InstanceType != p.InstanceType || o.Region != p.Region {
				t.Errorf("--limit %s: index %d names %s %s %s, offers has %s %s %s", limit, p.Index, p.Provider, p.InstanceType, p.Region,
					o.Provider, o.InstanceType, o.Region)
			}
		}
		if limit == "0" && len(r.Offers) != r.OffersTotal {
			t.Errorf("--limit 0: %d offers of %d", len(r.Offers), r.OffersTotal)
		}
	}
	if past == 0 {
		t.Error("no index past the limited rows: the case tests nothing of --limit")
	}
}

// TestOffersJSONRowsTotal (a walk): offers --limit N --json gave no count
// of the rows it cut, which recommend's JSON gives (offers_total) and
// only a stderr note said; rows_total counts them, grouped or not.
func TestOffersJSONRowsTotal(t *testing.T) {
	type list struct {
		Rows      []struct{} `json:"rows"`
		RowsTotal int        `json:"rows_total"`
	}
	all, _ := runCLIJSON[list](t, []string{"offers", "H100:8", "--json"})
	if len(all.Rows) < 5 || all.RowsTotal != len(all.Rows) {
		t.Fatalf("offers H100:8: %d rows, rows_total %d; want them equal, the case needs 5 or more", len(all.Rows), all.RowsTotal)
	}
	for _, extra := range [][]string{{"--limit", "2"}, {"--limit", "1", "--group-by", "provider"}} {
		cut, _ := runCLIJSON[list](t, append([]string{"offers", "H100:8", "--json"}, extra...))
		if cut.RowsTotal != all.RowsTotal || len(cut.Rows) >= all.RowsTotal {
			t.Errorf("%v: %d rows, rows_total %d; want fewer rows, and the %d before --limit", extra, len(cut.Rows), cut.RowsTotal, all.RowsTotal)
		}
	}
}
