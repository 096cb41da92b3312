package update

import (
	"context"
	"os"
	"testing"
)

// No price of a real fixture is held back (attack 7: the guards' floors
// must not hold what providers really list): every SkyPilot v8 fixture,
// the Azure Retail pages and Oracle's price list, each run through
// update with its guards. The count checked is logged.
func TestFixturesHoldNothing(t *testing.T) {
	s := directServer(t, nil)
	entries, err := os.ReadDir("testdata/v8")
	if err != nil {
		t.Fatal(err)
	}
	runs := []Options{
		{AzureSources: []string{s.URL + "/az/api/retail/prices"}, Providers: []string{"azure"}},
		{OCISources: ociAt(s.URL + "/oci"), Providers: []string{"oci"}},
	}
	v8 := server(t, nil)
	for _, e := range entries {
		runs = append(runs, Options{Sources: []string{v8.URL + "/good"}, Providers: []string{e.Name()}})
	}
	total := 0
	for _, o := range runs {
		o.Dir, o.Force, o.Now = t.TempDir(), true, fixedNow
		sum, err := Run(context.Background(), o)
		if err != nil {
			t.Errorf("%s: %v", o.Providers[0], err)
			continue
		}
		for _, ps := range sum.Providers {
			total += ps.Prices
			for _, g := range ps.Held {
				t.Errorf("%s: held back %v", ps.Provider, g)
			}
		}
	}
	t.Logf("%d fixture region prices of %d providers checked, none held", total, len(runs))
}
