package report

import (
	"encoding/csv"
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/market"
	"github.com/gpuplan/gpuplan/model/market/markettest"
)

// TestMarketOutputs checks the CSV round-trips through encoding/csv with
// the header's width, the JSON's derived fields, and the Markdown's
// escaping of hostile overlay text.
func TestMarketOutputs(t *testing.T) {
	c := markettest.Catalog()
	c.Instances[0].Source = "=HYPERLINK(\"x\")|a\nb"
	h100, err := market.ParseGPUSpec("H100:8", c)
	if err != nil {
		t.Fatal(err)
	}
	res, err := market.Browse(c, market.Query{GPUs: []market.GPUSpec{h100}})
	if err != nil {
		t.Fatal(err)
	}
	j := NewMarketListJSON(&res)
	if len(j.Rows) != 2 || j.Rows[0].USDPerGPUHour != 12.29 || j.Rows[0].USDPerGiBHour != 0.153625 || *j.Rows[0].SpotUSDPerHour != 25 ||
		j.Rows[1].SpotUSDPerHour != nil || j.Rows[0].TotalVRAMGiB != 640 || j.Rows[0].RegionsOffered != 4 || j.Pricing != "on-demand" {
		t.Errorf("JSON rows = %+v", j.Rows)
	}
	out, err := MarketCSV(&res)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if lines[0] != strings.Join(MarketCSVHeader, ",") {
		t.Errorf("CSV header = %q", lines[0])
	}
	if !strings.Contains(out, `"'=HYPERLINK(""x"")|a`) {
		t.Errorf("CSV does not neutralise the formula cell:\n%s", out)
	}
	if !strings.Contains(out, "aws,p5.48xlarge,h100-sxm,8,80,640,192,2048,24,256,nvswitch,efa,x86_64,on-demand,98.32,12.29,0.153625,98.32,25,us-east-1,us-east-1;us-east-2;us-west-2,4,false,") {
		t.Errorf("CSV row:\n%s", out)
	}
	md := MarketMarkdown(&res)
	want := "| aws | p5.48xlarge | 8× h100-sxm | 80 (640) | $98.32 | $12.29 | ≥$25 | 24 | 256 | nvswitch + efa | us-east-1 +2 | 2026-11-30 |\n"
	if !strings.Contains(md, want) {
		t.Errorf("Markdown =\n%s\nwant a line\n%s", md, want)
	}
	if n := strings.Count(md, "\n"); n != 4 {
		t.Errorf("Markdown has %d lines, want header, rule and 2 rows", n)
	}
	// Re-attack 5: a name from a file must not become a link or a tag.
	if got := mdCell("[x](http://e)<img src=x>"); got != `\[x\](http://e)\<img src=x\>` {
		t.Errorf("mdCell = %q", got)
	}
	if got := mdCell("a|b\nc\\"); got != `a\|b c\\` {
		t.Errorf("mdCell = %q", got)
	}
	if !slices.Equal(MarketMarkdownRow(&res.Rows[1])[:3], []string{"azure", "Standard_ND96isr_H100_v5", "8× h100-sxm"}) {
		t.Errorf("row 2 = %q", MarketMarkdownRow(&res.Rows[1]))
	}
}

// FuzzMarketCSV: hostile overlay text (type, region, source) never breaks
// the CSV: it reads back with one record per row of the header's width,
// and no cell starts a spreadsheet formula.
func FuzzMarketCSV(f *testing.F) {
	f.Add("p5.48xlarge", "us-east-1", "src")
	f.Add("=cmd|' /C calc'!A0", "+1", "@SUM(1)")
	f.Add("a\"b", "x,y", "line\nbreak\r")
	f.Fuzz(func(t *testing.T, typ, region, source string) {
		c := markettest.Catalog()
		in := &c.Instances[0]
		in.Type, in.Source = typ, source
		in.Prices = []model.RegionPrice{{Region: region, OnDemandUSD: 1}}
		res, err := market.Browse(c, market.Query{Providers: []string{"aws"}})
		if err != nil {
			t.Fatal(err)
		}
		out, err := MarketCSV(&res)
		if err != nil {
			t.Fatal(err) // a strings.Builder never fails a write
		}
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatalf("CSV does not read back: %v\n%s", err, out)
		}
		if len(recs) != len(res.Rows)+1 {
			t.Fatalf("CSV has %d records, want %d", len(recs), len(res.Rows)+1)
		}
		for _, r := range recs {
			if len(r) != len(MarketCSVHeader) {
				t.Fatalf("record %q has %d cells, want %d", r, len(r), len(MarketCSVHeader))
			}
			for _, cell := range r {
				if CSVCell(cell) != cell {
					t.Fatalf("cell %q starts a formula", cell)
				}
			}
		}
		if md := MarketMarkdown(&res); strings.Count(md, "\n") != len(res.Rows)+2 {
			t.Fatalf("Markdown has %d lines for %d rows:\n%s", strings.Count(md, "\n"), len(res.Rows), md)
		}
	})
}
