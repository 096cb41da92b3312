package market

import (
	"encoding/csv"
	"errors"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// FuzzParseGPUSpec: any text gives a spec or one line wrapping
// ErrBadFilter, never a panic; a parsed spec has sane bounds and only
// catalog keys. Seeds: testdata/fuzz/FuzzParseGPUSpec.
func FuzzParseGPUSpec(f *testing.F) {
	for _, s := range []string{"H100", "H100:8", "A100-80GB:4+", "h100:1..4", "24GB..80GB:2", "nvidia:40GB+", "H100*", "A100,H100:8", "::", "1e309GB", "..:.."} {
		f.Add(s)
	}
	c := marketCatalog()
	f.Fuzz(func(t *testing.T, s string) {
		spec, err := ParseGPUSpec(s, c)
		if err != nil {
			if !errors.Is(err, ErrBadFilter) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("ParseGPUSpec(%q) error %q: want one line wrapping ErrBadFilter", s, err)
			}
			return
		}
		for _, b := range []Bounds{spec.Count, spec.VRAMGiB} {
			if b.Min < 0 || b.Max < 0 || b.Max > 0 && b.Min > b.Max || b.Min != b.Min || b.Max != b.Max {
				t.Fatalf("ParseGPUSpec(%q) bounds %v", s, b)
			}
		}
		for _, k := range spec.Keys {
			if g, err := c.GPU(k); err != nil || g.Key != k {
				t.Fatalf("ParseGPUSpec(%q) key %q not in the catalog", s, k)
			}
		}
	})
}

// FuzzParseVRAMRange: the memory grammar alone.
func FuzzParseVRAMRange(f *testing.F) {
	for _, s := range []string{"24GB..80GB", "40GB+", "..48GB", "80GiB", "1.5TB", "24", "0x10GB", "+Inf GB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ParseVRAMRange(s)
		if err != nil {
			if !errors.Is(err, ErrBadFilter) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("ParseVRAMRange(%q) error %q", s, err)
			}
			return
		}
		if b.Any() || b.Min < 0 || b.Max < 0 || b.Max > 0 && b.Min > b.Max || b.Min > 1<<30 || b.Max > 1<<30 {
			t.Fatalf("ParseVRAMRange(%q) = %v", s, b)
		}
	})
}

// FuzzMarketCSV: hostile overlay text (type, region, source) never breaks
// the CSV: it reads back with one record per row of the header's width,
// and no cell starts a spreadsheet formula.
func FuzzMarketCSV(f *testing.F) {
	f.Add("p5.48xlarge", "us-east-1", "src")
	f.Add("=cmd|' /C calc'!A0", "+1", "@SUM(1)")
	f.Add("a\"b", "x,y", "line\nbreak\r")
	f.Fuzz(func(t *testing.T, typ, region, source string) {
		c := marketCatalog()
		in := &c.Instances[0]
		in.Type, in.Source = typ, source
		in.Prices = []model.RegionPrice{{Region: region, OnDemandUSD: 1}}
		res, err := Browse(c, MarketQuery{Providers: []string{"aws"}})
		if err != nil {
			t.Fatal(err)
		}
		out, err := res.CSV()
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
				if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
					t.Fatalf("cell %q starts a formula", cell)
				}
			}
		}
		if md := res.Markdown(); strings.Count(md, "\n") != len(res.Rows)+2 {
			t.Fatalf("Markdown has %d lines for %d rows:\n%s", strings.Count(md, "\n"), len(res.Rows), md)
		}
	})
}
