package market

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model/market/markettest"
)

// FuzzParseGPUSpec: any text gives a spec or one line wrapping
// ErrBadFilter, never a panic; a parsed spec has sane bounds and only
// catalog keys. Seeds: testdata/fuzz/FuzzParseGPUSpec.
func FuzzParseGPUSpec(f *testing.F) {
	for _, s := range []string{"H100", "H100:8", "A100-80GB:4+", "h100:1..4", "24GB..80GB:2", "nvidia:40GB+", "H100*", "A100,H100:8", "::", "1e309GB", "..:.."} {
		f.Add(s)
	}
	c := markettest.Catalog()
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
