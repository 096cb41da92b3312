package data

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestOCIRegionsArePriceRegions (new-user walk: every OCI shape, GB300 and
// MI355X included, listed "in" af-casablanca-1): OCI publishes no per-shape
// region availability, so every OCI row's source says its regions are where
// the price applies, and the provider is marked for the tables.
func TestOCIRegionsArePriceRegions(t *testing.T) {
	cat, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i := range cat.Instances {
		in := &cat.Instances[i]
		if in.Provider != "oci" {
			continue
		}
		n++
		if !strings.Contains(in.Source, "not where the shape is offered") || !strings.Contains(in.Source, "fetch_oci.py") {
			t.Errorf("oci %s: source does not say its regions are price regions: %q", in.Type, in.Source)
		}
	}
	if n == 0 {
		t.Fatal("no oci rows")
	}
	found := false
	for _, p := range model.RegionsUnconfirmedProviders {
		found = found || p == "oci"
	}
	if !found {
		t.Error("oci is not in model.RegionsUnconfirmedProviders")
	}
}

// TestLambdaRegionsArePriceRegions (walk49: every Lambda type "in"
// asia-northeast-1 +16): SkyPilot's Lambda fetcher writes every type once
// for each region of a hard-coded list, so every Lambda row's source says
// its regions are where the price applies, and the provider is marked.
func TestLambdaRegionsArePriceRegions(t *testing.T) {
	cat, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i := range cat.Instances {
		in := &cat.Instances[i]
		if in.Provider != "lambda" {
			continue
		}
		n++
		if !strings.Contains(in.Source, "not where the type is offered") || !strings.Contains(in.Source, "fetch_lambda_cloud.py") {
			t.Errorf("lambda %s: source does not say its regions are price regions: %q", in.Type, in.Source)
		}
	}
	if n == 0 {
		t.Fatal("no lambda rows")
	}
	if !model.RegionsUnconfirmed("lambda") {
		t.Error("lambda is not in model.RegionsUnconfirmedProviders")
	}
}
