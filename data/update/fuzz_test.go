package update

import (
	"testing"

	"github.com/gpuplan/gpuplan/data"
)

// FuzzAzurePage: any page parses to an error or to meters whose names
// could go into an overlay; never a panic. Seeds: testdata/fuzz.
func FuzzAzurePage(f *testing.F) {
	f.Fuzz(func(t *testing.T, body []byte) {
		prices := azurePrices{}
		if _, _, err := parseAzurePage(body, prices, map[string]bool{}); err != nil {
			return
		}
		for sku, regions := range prices {
			for region, m := range regions {
				if !plainName().MatchString(sku) || !plainName().MatchString(region) {
					t.Fatalf("name %q / %q kept", sku, region)
				}
				for _, x := range m {
					if x.usd < 0 || x.usd > maxUSDPerHour {
						t.Fatalf("%s %s: price %v kept", sku, region, x.usd)
					}
				}
			}
		}
	})
}

// FuzzOCI: any price list and shapes file give an error or instances with
// plain names, whole GPU counts and prices under the catalog's ceiling,
// whose overlay reads back (checkWritable).
func FuzzOCI(f *testing.F) {
	base, err := data.Load()
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, products, shapes []byte) {
		prices, err := parseOCIProducts(products)
		if err != nil {
			return
		}
		got, err := ociInstances(shapes, prices, base)
		if err != nil {
			return
		}
		for _, in := range got.insts {
			if !plainName().MatchString(in.Type) || in.GPUCount < 1 || in.GPU == "" {
				t.Fatalf("instance %+v kept", in)
			}
			for _, p := range in.Prices {
				if !(p.OnDemandUSD > 0) || p.OnDemandUSD > maxUSDPerHour {
					t.Fatalf("%s: price %v kept", in.Type, p.OnDemandUSD)
				}
			}
		}
		checkWritable(t, dir, base, "oci", got.insts) // fuzz_overlay_test.go
	})
}
