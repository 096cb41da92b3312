package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// Attack round 12, F4: with --trust-overlay, the offers of a redefined
// GPU carry the acceptance on the row (JSON warnings, the text's notes),
// not only in the load's warning; the embedded price's origin stays
// "embedded", so without it a row reads as the embedded T4's.
func TestRedefinedGPUOnEveryRow(t *testing.T) {
	args := []string{"recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--gpu", "T4", "--providers", "aws", "--trust-overlay"}
	code, out, errs, path := runWithCatalogDTrust(t, gpuRedef, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	const accepted = `: gpu "t4" redefines the embedded entry (memory_gib 16 → 800), accepted with --trust-overlay`
	want := "catalog " + path + accepted
	var v struct {
		Offers []struct {
			Instance string   `json:"instance_type"`
			Warnings []string `json:"warnings"`
		}
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || len(v.Offers) == 0 {
		t.Fatalf("json: %v, %d offers:\n%.2000s", err, len(v.Offers), out)
	}
	for _, o := range v.Offers {
		if len(o.Warnings) == 0 || o.Warnings[0] != want {
			t.Errorf("%s: warnings %q, want first %q", o.Instance, o.Warnings, want)
		}
	}
	_, out, _, path = runWithCatalogDTrust(t, gpuRedef, args...) // another directory
	want = "catalog " + path + accepted
	if !strings.Contains(out, "  ! "+want+"\n") {
		t.Errorf("text lacks the note %q:\n%s", "  ! "+want, out)
	}
}

// F4: with --trust-overlay the load's count of held prices says they are
// ranked; without it, how to rank them.
func TestHeldCountTrustedWording(t *testing.T) {
	args := []string{"offers", "--providers", "lambda"}
	_, _, errs, path := runWithCatalogDTrust(t, fakeH100, args...)
	// The catalog prices the type in that region: its price is used instead
	// (model.HeldPricesEmbedded), said with how to rank the file's.
	if want := "catalog " + path + ": 1 region price looks fake or mistyped (the lines below say why): the embedded catalog's price for that type and region is used instead; pass --trust-overlay to rank the file's"; !strings.Contains(errs, want) {
		t.Errorf("stderr lacks %q:\n%s", want, errs)
	}
	_, _, errs, path = runWithCatalogDTrust(t, fakeH100, append(args, "--trust-overlay")...)
	if want := "catalog " + path + ": 1 region price looks fake or mistyped (the lines below say why), ranked as --trust-overlay asks"; !strings.Contains(errs, want) {
		t.Errorf("stderr lacks %q:\n%s", want, errs)
	}
	if strings.Contains(errs, "pass --trust-overlay to rank") {
		t.Errorf("--trust-overlay given, stderr still says to pass it:\n%s", errs)
	}
}
