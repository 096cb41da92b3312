package cli

import (
	"testing"
)

// serveRanking is the part of recommend --json a serving ranking is
// compared by.
type fallbackRanking struct {
	Meeting int           `json:"meeting"`
	Offers  []fallbackRow `json:"offers"`
}

type fallbackRow struct {
	Offer        string `json:"offer"`
	GPU          string `json:"gpu"`
	Meets        bool   `json:"meets"`
	FallbackFrom string `json:"fallback_from"`
}

// TestServeFilePrecisionAsked: a file that says precision = "bf16" and
// allow_precision_fallback = false (what the configurator saves for its
// Precision answer bf16 and Precision fallback "no") asks for bf16
// itself, as --precision bf16 typed does: no GPU without bf16 is ranked,
// and both rank the same offers (new-user walk: the file ranked a V100
// at ↺fp16 first, 518 offers, the flag 486). With
// allow_precision_fallback = true the V100s are back, as with
// --allow-precision-fallback.
func TestServeFilePrecisionAsked(t *testing.T) {
	const head = "schema_version = 1\n[workload]\ntask = \"inference\"\nmodel = \"qwen3-8b\"\nprecision = \"bf16\"\n[search]\n"
	strict := writeFile(t, "strict.toml", head+"allow_precision_fallback = false\n")
	allow := writeFile(t, "allow.toml", head+"allow_precision_fallback = true\n")
	file, _ := runCLIJSON[fallbackRanking](t, []string{"recommend", "--json"}, "--config", strict)
	flag, _ := runCLIJSON[fallbackRanking](t, []string{"recommend", "--json"}, "--task", "inference", "--model", "qwen3-8b", "--precision", "bf16")
	if file.Meeting != flag.Meeting || len(file.Offers) == 0 || len(flag.Offers) == 0 || file.Offers[0].Offer != flag.Offers[0].Offer {
		t.Fatalf("the file ranks %d offers, first %+v; --precision bf16 %d, first %+v", file.Meeting, firstRow(file), flag.Meeting, firstRow(flag))
	}
	for _, o := range file.Offers {
		if o.Meets && o.FallbackFrom != "" {
			t.Errorf("%s ranked at a fallback from %s with allow_precision_fallback = false", o.Offer, o.FallbackFrom)
		}
	}
	allowed, _ := runCLIJSON[fallbackRanking](t, []string{"recommend", "--json"}, "--config", allow)
	flagAllowed, _ := runCLIJSON[fallbackRanking](t, []string{"recommend", "--json"}, "--task", "inference", "--model", "qwen3-8b", "--precision", "bf16", "--allow-precision-fallback")
	if allowed.Meeting != flagAllowed.Meeting || allowed.Meeting <= file.Meeting || firstRow(allowed).FallbackFrom != "bf16" {
		t.Errorf("allow_precision_fallback = true ranks %d offers, first %+v; the flag %d; want more than %d, a fallback first", allowed.Meeting, firstRow(allowed), flagAllowed.Meeting, file.Meeting)
	}
}

// firstRow is r's first offer, the zero row without one.
func firstRow(r fallbackRanking) fallbackRow {
	if len(r.Offers) > 0 {
		return r.Offers[0]
	}
	return fallbackRow{}
}
