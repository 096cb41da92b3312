package data

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestRegionsArePriceRegions: OCI publishes no per-shape region
// availability (new-user walk: every OCI shape, GB300 and MI355X included,
// listed "in" af-casablanca-1), and SkyPilot's Lambda fetcher writes every
// type once for each region of a hard-coded list (walk49: every Lambda type
// "in" asia-northeast-1 +16). Every such row's source says its regions are
// where the price applies, and the provider is marked for the tables.
func TestRegionsArePriceRegions(t *testing.T) {
	cat, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ provider, says, fetcher string }{
		{"oci", "not where the shape is offered", "fetch_oci.py"},
		{"lambda", "not where the type is offered", "fetch_lambda_cloud.py"},
	} {
		n := 0
		for i := range cat.Instances {
			in := &cat.Instances[i]
			if in.Provider != tc.provider {
				continue
			}
			n++
			if !strings.Contains(in.Source, tc.says) || !strings.Contains(in.Source, tc.fetcher) {
				t.Errorf("%s %s: source does not say its regions are price regions: %q", tc.provider, in.Type, in.Source)
			}
		}
		if n == 0 {
			t.Errorf("no %s rows", tc.provider)
		}
		if !model.RegionsUnconfirmed(tc.provider) {
			t.Errorf("%s is not in model.RegionsUnconfirmedProviders", tc.provider)
		}
	}
}
