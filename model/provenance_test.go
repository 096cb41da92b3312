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
