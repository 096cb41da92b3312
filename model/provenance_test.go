package model

import (
	"slices"
	"testing"
)

func TestOfferProvenanceAndArm(t *testing.T) {
	in := &Instance{Provider: "lambda", Type: "gpu_1x_gh200", Source: "embedded src", Origin: "embedded", CPUArch: "arm64",
		Prices: []RegionPrice{{Region: "us-east-1"}, {Region: "us-east-3", Patch: &PricePatch{Source: "negotiated", Origin: "/c/neg.toml"}}}}
	tests := []struct {
		region, source, origin string
		overlayWarn            bool
	}{
		{"us-east-1", "embedded src", "embedded", false},
		{"us-east-3", "negotiated", "/c/neg.toml", true},
	}
	for _, tt := range tests {
		o := &Offer{Instance: in, GPU: &GPU{Name: "GH200"}, Region: tt.region, Estimate: &Estimate{}}
		s, orig := o.Provenance()
		if s != tt.source || orig != tt.origin {
			t.Errorf("%s: Provenance = %q, %q; want %q, %q", tt.region, s, orig, tt.source, tt.origin)
		}
		w := o.Warnings()
		if !slices.Contains(w, ArmHostWarning) {
			t.Errorf("%s: warnings %q lack the arm64 note", tt.region, w)
		}
		if got := slices.Contains(w, "price from overlay /c/neg.toml"); got != tt.overlayWarn {
			t.Errorf("%s: overlay warning %v, want %v (%q)", tt.region, got, tt.overlayWarn, w)
		}
	}
}

func TestOfferPriceAgeDays(t *testing.T) {
	in := &Instance{Provider: "do", Type: "gpu-h100x1-80gb", AsOf: "2026-05-28",
		Prices: []RegionPrice{{Region: "tor1"}, {Region: "nyc2", Patch: &PricePatch{Source: "quote", Origin: "/c/q.toml", AsOf: "2026-12-01"}}}}
	tests := []struct {
		name, region, asOf string
		want               int
	}{
		{"2026-05-28 to 2026-12-06: 4 + 30 + 31 + 31 + 30 + 31 + 30 + 6 days", "tor1", "2026-12-06", 192},
		{"a region's overlay price has its own date: 2026-12-01 to 2026-12-06", "nyc2", "2026-12-06", 5},
		{"the catalog's own date: 0", "tor1", "2026-05-28", 0},
		{"a price newer than the date given is not negative", "tor1", "2026-01-01", 0},
		{"no catalog date: 0", "tor1", "", 0},
		{"a date not YYYY-MM-DD: 0", "tor1", "6 Dec 2026", 0},
	}
	for _, tt := range tests {
		o := &Offer{Instance: in, Region: tt.region}
		if got := o.PriceAgeDays(tt.asOf); got != tt.want {
			t.Errorf("%s: PriceAgeDays(%q) = %d days, want %d", tt.name, tt.asOf, got, tt.want)
		}
	}
	noDate := &Offer{Instance: &Instance{Provider: "x", Type: "y"}, Region: "r"}
	if got := noDate.PriceAgeDays("2026-12-06"); got != 0 {
		t.Errorf("a price without as_of: PriceAgeDays = %d days, want 0", got)
	}
}
