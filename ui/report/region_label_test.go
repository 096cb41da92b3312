package report

import (
	"cmp"
	"testing"

	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// TestOfferRegionIn (walk49): a provider whose regions say where a price
// applies, not where a type is offered (Lambda, OCI), names several
// regions by count, never by the first ("asia-northeast-1 +16" read as
// Tokyo); one region keeps its name, and in recommend's table and best
// line (OfferRegionCaveatIn) its caveat, "(unconfirmed)" (new-user walk:
// --country de showed Lambda's europe-central-1 as a plain place while
// --json said regions_unconfirmed); every other provider's regions keep
// their name; a narrow column shortens the count form, never another
// region.
func TestOfferRegionIn(t *testing.T) {
	zh := i18n.New(language.SimplifiedChinese)
	tests := []struct {
		name             string
		lang             *i18n.Printer
		provider, region string
		want, short      string
		caveat           string // OfferRegionCaveatIn; "" for want
	}{
		{"lambda, 1 + 16 regions", nil, "lambda", "asia-northeast-1 +16", "any of 17 regions", "any of 17", ""},
		{"lambda in Chinese", zh, "lambda", "asia-northeast-1 +16", "17 个地域中任一", "17 个之一", ""},
		{"oci, 1 + 2 regions", nil, "oci", "af-casablanca-1 +2", "any of 3 regions", "any of 3", ""},
		{"lambda, one region after a filter", nil, "lambda", "europe-central-1", "europe-central-1", "europe-central-1", "europe-central-1 (unconfirmed)"},
		{"lambda, one region in Chinese", zh, "lambda", "europe-central-1", "europe-central-1", "europe-central-1", "europe-central-1（未确认）"},
		{"aws, one region", nil, "aws", "eu-central-1", "eu-central-1", "eu-central-1", ""},
		{"aws keeps its +N", nil, "aws", "us-east-1 +2", "us-east-1 +2", "us-east-1 +2", ""},
		{"daytona's placeholder", nil, "daytona", "earth +1", "location not stated +1", "location not stated +1", ""},
		{"hyperbolic's placeholder (walk49: shown as default)", nil, "hyperbolic", "default", "location not stated", "location not stated", ""},
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
			if got, want := OfferRegionCaveatIn(tt.lang, tt.provider, tt.region), cmp.Or(tt.caveat, tt.want); got != want {
				t.Errorf("OfferRegionCaveatIn(%s, %q) = %q, want %q", tt.provider, tt.region, got, want)
			}
		})
	}
}

// TestUnconfirmedRegionsNote: the line under recommend's table explains
// both forms of an unconfirmed region, "any of N regions" and one region
// "(unconfirmed)", naming their providers; nothing for confirmed ones.
// UnconfirmedRegionsNote (serve's table, whose rows keep one region
// plain) explains the first only.
func TestUnconfirmedRegionsNote(t *testing.T) {
	offer := func(provider, region string) model.Offer {
		return model.Offer{Instance: &model.Instance{Provider: provider}, Region: region}
	}
	const tail = ": the catalog lists each type in every region at one price; "
	for _, tt := range []struct {
		name   string
		offers []model.Offer
		want   string
	}{
		{"confirmed", []model.Offer{offer("aws", "us-east-1 +2")}, ""},
		{"any of N", []model.Offer{offer("lambda", "us-east-1 +16")}, "any of N regions (lambda)" + tail + "which regions offer a type is not published"},
		{"one region", []model.Offer{offer("lambda", "europe-central-1"), offer("aws", "eu-central-1")},
			"(unconfirmed) region (lambda)" + tail + "whether that region offers it is not published"},
		{"both", []model.Offer{offer("lambda", "europe-central-1"), offer("oci", "eu-frankfurt-1 +2")},
			"any of N regions, (unconfirmed) (lambda, oci)" + tail + "which regions offer a type is not published"},
	} {
		if got := RecommendRegionsNote(nil, tt.offers); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
		if got := UnconfirmedRegionsNote(nil, tt.offers); tt.name == "one region" && got != "" {
			t.Errorf("%s: UnconfirmedRegionsNote %q, want none", tt.name, got)
		}
	}
}
