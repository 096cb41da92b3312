package report

import (
	"testing"

	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/ui/i18n"
)

// TestOfferRegionIn (walk49): a provider whose regions say where a price
// applies, not where a type is offered (Lambda, OCI), names several
// regions by count, never by the first ("asia-northeast-1 +16" read as
// Tokyo); one region, and every other provider's, keep their name; a
// narrow column shortens the count form, never another region.
func TestOfferRegionIn(t *testing.T) {
	zh := i18n.New(language.SimplifiedChinese)
	tests := []struct {
		name             string
		lang             *i18n.Printer
		provider, region string
		want, short      string
	}{
		{"lambda, 1 + 16 regions", nil, "lambda", "asia-northeast-1 +16", "any of 17 regions", "any of 17"},
		{"lambda in Chinese", zh, "lambda", "asia-northeast-1 +16", "17 个地域中任一", "17 个之一"},
		{"oci, 1 + 2 regions", nil, "oci", "af-casablanca-1 +2", "any of 3 regions", "any of 3"},
		{"lambda, one region after a filter", nil, "lambda", "europe-central-1", "europe-central-1", "europe-central-1"},
		{"aws keeps its +N", nil, "aws", "us-east-1 +2", "us-east-1 +2", "us-east-1 +2"},
		{"daytona's placeholder", nil, "daytona", "earth +1", "location not stated +1", "location not stated +1"},
		{"hyperbolic's placeholder (walk49: shown as default)", nil, "hyperbolic", "default", "location not stated", "location not stated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := OfferRegionIn(tt.lang, tt.provider, tt.region)
			if got != tt.want {
				t.Errorf("OfferRegionIn(%s, %q) = %q, want %q", tt.provider, tt.region, got, tt.want)
			}
			if s := ShortRegionIn(tt.lang, got); s != tt.short {
				t.Errorf("ShortRegionIn(%q) = %q, want %q", got, s, tt.short)
			}
		})
	}
}
