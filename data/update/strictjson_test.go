package update

import (
	"os"
	"strings"
	"testing"
)

// A response with two names differing only in case ("retailPrice" and
// "RetailPrice") is refused by each JSON fetcher: encoding/json set the
// field from the last of them, so a hostile server could slip a second
// price past a reader of the file (round 3, LOW).
func TestStrictJSONFixtures(t *testing.T) {
	azure, err := os.ReadFile("testdata/azure/dupcase.json")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = parseAzurePage(azure, azurePrices{}, map[string]bool{})
	if want := `names "retailPrice" and "RetailPrice" of one object at "/Items/0" differ only in case`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("azure: err = %v, want %q", err, want)
	}
	oci, err := os.ReadFile("testdata/oci/dupcase-products.json")
	if err != nil {
		t.Fatal(err)
	}
	_, err = parseOCIProducts(oci)
	if want := `names "value" and "Value" of one object at "/items/0/currencyCodeLocalizations/0/prices/0" differ only in case`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("oci: err = %v, want %q", err, want)
	}
}

func TestCaseClash(t *testing.T) {
	for _, tt := range []struct {
		body, want string // want: error fragment, "" = accepted
	}{
		{`{"a": 1, "b": {"a": 2}, "c": [{"a": 1}, {"A": 2}]}`, ""},
		{`{"a": {"x": 1, "y": [1, {"z": 2}]}, "A": 2}`, `names "a" and "A" of one object at ""`},
		{`[{"k": 1, "K": 2}]`, `names "k" and "K" of one object at "/0"`},
		{"{\"k\": 1, \"\u212a\": 2}", "differ only in case"}, // Kelvin sign folds to k
		{`{"a": 1, "a": 2}`, "duplicate object member name"},
		{`{"a": [1, 2}`, "invalid character"},
	} {
		err := caseClash([]byte(tt.body))
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("caseClash(%s) = %v, want %q", tt.body, err, tt.want)
		}
	}
}
