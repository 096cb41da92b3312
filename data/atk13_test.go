package data

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// lambdaRow is an overlay pricing a new type under provider p in region.
func lambdaRow(p, typ, region string) string {
	return `schema_version = 1
[[instance]]
provider = "` + p + `"
type = "` + typ + `"
gpu = "h100-pcie"
gpu_count = 1
vcpus = 26
memory_gib = 200
source = "x"
as_of = 2026-12-01
prices = [{ region = "` + region + `", on_demand = 0.49 }]
`
}

// Issue 29, item 1: a provider that reads as an embedded one ("1ambda"
// with a digit one, Cyrillic а, "Lambda", "l-ambda", the Roman numeral
// ⅼ U+217C) listed fake rows as if Lambda's ("1ambda" and "l-ambda" were
// accepted; the others were refused without naming lambda). Each is
// refused in one line naming the provider it reads as; a provider of its
// own ("newcloud", "lambda-labs") is not.
func TestOverlayProviderLookalikeRefused(t *testing.T) {
	for _, tc := range []struct{ provider, reads string }{
		{"1ambda", "lambda"}, {"l\u0430mbda", "lambda"}, {"Lambda", "lambda"}, {"l-ambda", "lambda"},
		{"\u217cambda", "lambda"}, {"LAMBDA", "lambda"}, {"a\u0461s", "aws"}, {"runp0d", "runpod"},
		{"newcloud", ""}, {"lambda-labs", ""}, {"lambda", ""},
	} {
		t.Run(tc.provider, func(t *testing.T) {
			_, _, _, err := loadOverlay(t, lambdaRow(tc.provider, "gpu_1x_mine", "us-east-1"))
			if tc.reads == "" {
				if err != nil && strings.Contains(err.Error(), "reads as the catalog's provider") {
					t.Fatalf("provider %q refused as a look-alike: %v", tc.provider, err)
				}
				return
			}
			want := `provider "` + tc.provider + `" reads as the catalog's provider "` + tc.reads + `"`
			if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want one line with %s", err, want)
			}
		})
	}
}

// The same check guards catalog update's door (NameCheck) and a
// discount's provider.
func TestProviderLookalikeUpdateAndDiscount(t *testing.T) {
	base, _ := Load()
	err := NewNameCheck(base).Check(&model.Instance{Provider: "1ambda", Type: "gpu_1x_mine", Prices: []model.RegionPrice{{Region: "us-east-1"}}})
	if err == nil || !strings.Contains(err.Error(), `reads as the catalog's provider "lambda"`) {
		t.Errorf("NameCheck 1ambda: %v", err)
	}
	_, _, _, err = loadOverlay(t, "schema_version = 1\n[[discount]]\nprovider = \"1ambda\"\nterm = \"reserved-1y\"\nfraction = 0.3\nsource = \"x\"\nas_of = 2026-12-01\n")
	if err == nil || !strings.Contains(err.Error(), `reads as the catalog's provider "lambda"`) {
		t.Errorf("discount 1ambda: %v", err)
	}
}

// No two embedded providers read as one: the look-alike check could not
// tell them apart.
func TestEmbeddedProvidersDistinct(t *testing.T) {
	seen := map[string]string{}
	for p, k := range embeddedProviders() {
		if q, ok := seen[k]; ok {
			t.Errorf("providers %q and %q share the look-alike key %q", p, q, k)
		}
		seen[k] = p
		if got := ProviderLookalike(p); got != "" {
			t.Errorf("ProviderLookalike(%q) = %q, want \"\" for a known provider", p, got)
		}
	}
}

// Issue 29, item 2: names made of blank or invisible characters, or a
// letter under a stack of combining marks, in an overlay's instance
// type, region, GPU name or alias, are refused with the character's
// byte. Before, U+2800, U+00A0, U+3000 and mark stacks passed the GPU
// name and alias checks, and a Hangul filler (a letter, Lo) passed
// catalog update's region check.
func TestOverlayBlankNamesRefused(t *testing.T) {
	zalgo := "H" + strings.Repeat("\u0301\u0300\u0302", 3) + "100"
	for _, tc := range []struct {
		name, body, want string
	}{
		{"Braille blank GPU name", h100Copy("myx", "\u2800", ""), "invisible character U+2800"},
		{"no-break space GPU name", h100Copy("myx", "H100\u00a0SXM", ""), "invisible character U+00A0"},
		{"ideographic space alias", h100Copy("myx", "Mine", `"H100\u3000x"`), "invisible character U+3000"},
		{"Hangul filler alias", h100Copy("myx", "Mine", `"\u3164"`), "invisible character U+3164"},
		{"Hangul choseong filler name", h100Copy("myx", "\u115f", ""), "invisible character U+115F"},
		{"Hangul jungseong filler name", h100Copy("myx", "x\u1160", ""), "invisible character U+1160"},
		{"musical null notehead", h100Copy("myx", "\U0001D159", ""), "invisible character U+1D159"},
		{"Zalgo GPU name", h100Copy("myx", zalgo, ""), "more than 4 combining marks"},
		{"repeated mark", h100Copy("myx", "e\u0301\u0301", ""), "more than 4 combining marks on one letter, or one mark twice"},
		{"Braille blank region", lambdaRow("lambda", "gpu_1x_mine", "\u2800"), "invisible character U+2800"},
		{"figure space region", lambdaRow("lambda", "gpu_1x_mine", "us\u2007east"), "invisible character U+2007"},
		{"Hangul filler region", lambdaRow("lambda", "gpu_1x_mine", "\u3164"), "invisible character U+3164"},
		{"Zalgo region", lambdaRow("lambda", "gpu_1x_mine", zalgo), "more than 4 combining marks"},
		{"Hangul filler type", lambdaRow("lambda", "gpu\u3164", "us-east-1"), "invisible character U+3164"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, _, err := loadOverlay(t, tc.body)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want one line with %q", err, tc.want)
			}
		})
	}
	// Vietnamese stacks two marks (ệ): a real name keeps them.
	if _, _, _, err := loadOverlay(t, h100Copy("myx", "Mine Việt", "")); err != nil {
		t.Errorf("a name with ệ: %v", err)
	}
	// catalog update's check: a Hangul filler is a letter, refused as invisible.
	base, _ := Load()
	err := NewNameCheck(base).Check(&model.Instance{Provider: "lambda", Type: "gpu_1x_mine", Prices: []model.RegionPrice{{Region: "us\u3164east"}}})
	if err == nil || !strings.Contains(err.Error(), "U+3164") {
		t.Errorf("NameCheck region with U+3164: %v", err)
	}
}
