package data

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/model"
)

// overlayDay is the modification time the tests give overlay files: noon
// UTC, the same date in every time zone from UTC−11 to UTC+11; in the
// past, as a later date is dated today (fileDate).
var overlayDay = time.Date(2021, 5, 17, 12, 0, 0, 0, time.UTC)

// writeDated writes an overlay file dated overlayDay.
func writeDated(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, overlayDay, overlayDay); err != nil {
		t.Fatal(err)
	}
}

// offerAt is the offer of provider/typ in region in c.
func offerAt(t *testing.T, c *model.Catalog, provider, typ, region string) *model.Offer {
	t.Helper()
	i := slices.IndexFunc(c.Instances, func(in model.Instance) bool { return in.Provider == provider && in.Type == typ })
	if i < 0 {
		t.Fatalf("%s/%s not in the catalog", provider, typ)
	}
	return &model.Offer{Instance: &c.Instances[i], Region: region}
}

// TestOverlayPriceProvenance: a price an overlay sets carries the
// overlay's file, source and date, whatever the overlay left out (issue
// 31 item 7: a price patch without source or as_of, and a SkyPilot
// vms.csv, which has neither, were reported as the embedded catalog's
// with the snapshot's source and date). An overlay's own source and
// as_of win; without them the file is the source and its modification
// date the date.
func TestOverlayPriceProvenance(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	base, _ := Load()
	bare := filepath.Join(dir, "bare.toml")
	writeDated(t, bare, `schema_version = 1
[[instance]]
provider = "nebius"
type = "gpu-h100-sxm_1gpu-16vcpu-200gb"
prices = [{ region = "eu-north1", on_demand = 1.00, spot = 0.5 }]
`)
	sourced := filepath.Join(dir, "sourced.toml")
	writeDated(t, sourced, `schema_version = 1
[[instance]]
provider = "aws"
type = "p4d.24xlarge"
source = "our 2026 enterprise agreement"
prices = [{ region = "us-east-1", on_demand = 19.80 }]
`)
	csv := filepath.Join(dir, "lambda", "vms.csv")
	writeDated(t, csv, "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n"+
		`gpu_8x_h100_sxm5,H100,8.0,208.0,1800.0,19.99,us-east-1,"{'Gpus': [{'Name': 'H100', 'Manufacturer': 'NVIDIA', 'Count': 8.0, 'MemoryInfo': {'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 81920}",`+"\n")
	c, _, err := LoadWith([]string{bare, sourced, csv})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		provider, typ, region string
		source, origin, asOf  string
	}{
		{"nebius", "gpu-h100-sxm_1gpu-16vcpu-200gb", "eu-north1", bare, bare, "2021-05-17"},
		{"aws", "p4d.24xlarge", "us-east-1", "our 2026 enterprise agreement", sourced, "2021-05-17"},
		{"lambda", "gpu_8x_h100_sxm5", "us-east-1", "SkyPilot catalog " + csv, csv, "2021-05-17"},
	} {
		o := offerAt(t, c, tc.provider, tc.typ, tc.region)
		source, origin := o.Provenance()
		if source != tc.source || origin != tc.origin || o.PriceAsOf() != tc.asOf {
			t.Errorf("%s/%s %s: source %q, origin %q, as of %s; want %q, %q, %s",
				tc.provider, tc.typ, tc.region, source, origin, o.PriceAsOf(), tc.source, tc.origin, tc.asOf)
		}
		// A region the overlay does not price keeps the catalog's.
		was := offerAt(t, base, tc.provider, tc.typ, tc.region)
		for _, rp := range o.Instance.Prices {
			if rp.Region == tc.region {
				continue
			}
			other := model.Offer{Instance: o.Instance, Region: rp.Region}
			if s, org := other.Provenance(); org != "embedded" || s != was.Instance.Source || other.PriceAsOf() != was.Instance.AsOf {
				t.Errorf("%s/%s %s, not in the overlay: %q %q %s, want the catalog's", tc.provider, tc.typ, rp.Region, s, org, other.PriceAsOf())
			}
			break
		}
	}
}

// TestOverlayWarningsSummarized: warnings about one overlay file come as
// a few examples of each kind and a count of the rest, and their prices
// read as the tables print them (issue 31 item 7: a 100,000-row vms.csv
// printed 100,000 warning lines, and a median as 1.6500000000000001).
func TestOverlayWarningsSummarized(t *testing.T) {
	const types = 20_000
	var b strings.Builder
	b.WriteString(awsHeader)
	for i := range types { // spot above on-demand, in a region AWS does not have
		fmt.Fprintf(&b, "zz%06d.xlarge,T4,1,4,16,,0.5,0.9,xx-test-1,xxt1-az1\n", i)
	}
	// Per GPU 0.3, 1.1, 2.2 and 5: the median is (1.1 + 2.2) / 2.
	for _, r := range []string{"us-east-1,use1-az1", "us-east-2,use2-az1", "us-west-2,usw2-az1", "eu-west-1,euw1-az1"} {
		price := map[string]string{"us-east-1": "0.3", "us-east-2": "1.1", "us-west-2": "2.2", "eu-west-1": "5"}[strings.Split(r, ",")[0]]
		fmt.Fprintf(&b, "zz-median.xlarge,T4,1,4,16,,%s,,%s\n", price, r)
	}
	p := awsOverlay(t, b.String())
	_, warnings, err := LoadWith([]string{p})
	if err != nil {
		t.Fatal(err)
	}
	lines := model.Strings(warnings)
	all := strings.Join(lines, "\n")
	for _, want := range []string{
		p + ":2: zz000000.xlarge in xx-test-1: spot $0.9000 above on-demand $0.5000; spot dropped\n",
		p + ": and 19,997 more like these\n",
		"catalog " + p + ": aws/zz-median.xlarge us-east-1: on-demand $0.3000 per GPU-hour is below 60% of the type's median over regions, $1.65",
		"catalog " + p + ": and 19,997 more like these",
	} {
		if !strings.Contains(all+"\n", want) {
			t.Errorf("warnings lack %q", want)
		}
	}
	if len(lines) > 16 { // four kinds: spot above on demand, below median, under the cheapest in an unknown region, unknown region
		t.Errorf("%d warnings for one file, want a few of each kind:\n%s", len(lines), strings.Join(lines[:min(len(lines), 20)], "\n"))
	}
	if long := regexp.MustCompile(`\d\.\d{6,}`).FindString(all); long != "" {
		t.Errorf("a number printed as %s, not as the tables print it:\n%s", long, strings.Join(lines[:min(len(lines), 20)], "\n"))
	}
}
