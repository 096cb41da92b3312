package data

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// Attack round 12, F1: capitals of other scripts that read as Latin ones
// (Cyrillic Н U+041D, Т U+0422, Р, В, І; Greek Η U+0397; Cherokee Ꮮ
// U+13DE; the IPA small capital ʟ U+029F) in an overlay's names read as
// the embedded names they copy, and are recorded as redefinitions
// (refused unless --trust-overlay), as "H1OO-SXM" is.
func TestOverlayConfusableNamesRecorded(t *testing.T) {
	for _, tc := range []struct {
		name, body      string
		kind, by, takes string
	}{
		{"Cyrillic Н as name", h100Copy("myx", "Н100", ""), "gpu", "Н100", "h100-sxm"},
		{"Greek Η as name", h100Copy("myx", "Η100", ""), "gpu", "Η100", "h100-sxm"},
		{"Cyrillic Т as alias", h100Copy("myx", "Mine (ours)", `"Т4"`), "gpu", "Т4", "t4"},
		{"Cherokee Ꮮ as alias", h100Copy("myx", "Mine (ours)", `"Ꮮ4"`), "gpu", "Ꮮ4", "l4"},
		{"IPA small capital ʟ as alias", h100Copy("myx", "Mine (ours)", `"ʟ4"`), "gpu", "ʟ4", "l4"},
		{"model РНІ-4", llamaCopy("tiny-ours", "РНІ-4", ""), "model", "РНІ-4", "phi-4"},
		{"model Т5-3В", llamaCopy("tiny-ours", "Т5-3В", ""), "model", "Т5-3В", "t5-3b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _, path, err := loadOverlay(t, tc.body)
			if err != nil {
				t.Fatal(err)
			}
			key := "myx"
			if tc.kind == "model" {
				key = "tiny-ours"
			}
			want := model.Redefinition{Origin: path, Kind: tc.kind, Key: key, Name: tc.by, Takes: tc.takes}
			if len(c.Redefined) != 1 || c.Redefined[0].Origin != want.Origin || c.Redefined[0].Kind != want.Kind || c.Redefined[0].Key != want.Key ||
				c.Redefined[0].Name != want.Name || c.Redefined[0].Takes != want.Takes {
				t.Fatalf("Redefined = %+v, want [%+v]", c.Redefined, want)
			}
		})
	}
}

// LookKey of each attacker string is the Latin name's key; names of
// other scripts that read as no Latin name keep keys of their own.
func TestLookKeyScriptCapitals(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"Н100", "H100", true}, {"Η100", "H100", true}, {"Т4", "T4", true},
		{"Ꮮ4", "L4", true}, {"ʟ4", "L4", true}, {"РНІ-4", "Phi-4", true},
		{"Т5-3В", "T5-3B", true}, {"н100", "h100", true},
		{"Д100", "H100", false}, {"Ж4", "T4", false}, {"通义千问", "qwen", false},
	} {
		if got := LookKey(tc.a) == LookKey(tc.b); got != tc.same {
			t.Errorf("LookKey(%q)=%q, LookKey(%q)=%q: same %v, want %v", tc.a, LookKey(tc.a), tc.b, LookKey(tc.b), got, tc.same)
		}
	}
}

// Attack round 12, F3: skypilot_accelerator on an embedded type is the
// GPU export writes; changing it (aws/g6e.xlarge, an L40S, made "H100")
// is a redefinition; restating it, in any case, is not.
func TestOverlaySkyPilotAcceleratorRecorded(t *testing.T) {
	entry := func(acc string) string {
		return `schema_version = 1
[[instance]]
provider = "aws"
type = "g6e.xlarge"
skypilot_accelerator = "` + acc + `"
source = "x"
as_of = 2026-12-01
`
	}
	for _, tc := range []struct {
		acc, want string // want: "" for no redefinition
	}{
		{"H100", `skypilot_accelerator "L40S" → "H100"`},
		{"L40S", ""},
		{"l40s", ""},
	} {
		c, _, path, err := loadOverlay(t, entry(tc.acc))
		if err != nil {
			t.Fatal(err)
		}
		if tc.want == "" {
			if len(c.Redefined) != 0 {
				t.Errorf("%s: Redefined = %+v, want none", tc.acc, c.Redefined)
			}
			continue
		}
		if len(c.Redefined) != 1 || c.Redefined[0].Origin != path || c.Redefined[0].Kind != "instance" || c.Redefined[0].Key != "aws/g6e.xlarge" ||
			len(c.Redefined[0].Changes) != 1 || c.Redefined[0].Changes[0] != tc.want {
			t.Errorf("%s: Redefined = %+v, want instance aws/g6e.xlarge changing %s", tc.acc, c.Redefined, tc.want)
		}
	}
}
