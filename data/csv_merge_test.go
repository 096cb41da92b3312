package data

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestCSVOverlayPatchesInPlace: a CSV overlay merged in place (the last
// file) and one merged by copy (followed by another file) must give the same
// catalog: the row for an embedded type patches it, a new type is appended
// after the embedded ones, and the guard still names the patched type's
// unknown region.
func TestCSVOverlayPatchesInPlace(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("XDG_DATA_HOME", home)
	dir := t.TempDir()
	write := func(rel, body string) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	csv := write("aws/vms.csv", `InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone
g4dn.xlarge,T4,1,4,16,"{'Gpus': [{'Name': 'T4', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 16384}}], 'TotalGpuMemoryInMiB': 16384}",0.5,0.2,xx-test-9,xxt9-az1
zz-new.xlarge,T4,1,4,16,,0.4,,us-east-1,use1-az1
`)
	other := write("lambda/vms.csv", `InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice
gpu_1x_zz,H100,1.0,26.0,200.0,2.49,us-east-1,,
`)
	base, _ := Load()
	for _, paths := range [][]string{{csv}, {csv, other}} {
		c, warnings, err := LoadWith(paths)
		if err != nil {
			t.Fatalf("LoadWith(%v): %v", paths, err)
		}
		if !strings.Contains(strings.Join(model.Strings(warnings), "\n"), "aws/g4dn.xlarge xx-test-9: region not offered") {
			t.Errorf("LoadWith(%v): no unknown-region warning for the patched type; warnings %q", paths, warnings)
		}
		want := len(base.Instances) + len(paths) // one new type per file
		if len(c.Instances) != want {
			t.Fatalf("LoadWith(%v): %d instances, want %d", paths, len(c.Instances), want)
		}
		for i := range base.Instances {
			if c.Instances[i].Type != base.Instances[i].Type {
				t.Fatalf("LoadWith(%v): instance %d is %s, want the embedded %s (order kept)", paths, i, c.Instances[i].Type, base.Instances[i].Type)
			}
		}
		if got := c.Instances[len(base.Instances)].Type; got != "zz-new.xlarge" {
			t.Errorf("LoadWith(%v): first new instance %s, want zz-new.xlarge", paths, got)
		}
		// A type the catalog has keeps its entry; the CSV's regions are
		// patched and sourced to it.
		g4, ok := instanceOf(c, "aws", "g4dn.xlarge")
		if !ok || g4.Origin != "embedded" || len(g4.Prices) < 2 || !slices.ContainsFunc(g4.Prices, func(p model.RegionPrice) bool { return p.Patched().Origin == csv }) {
			t.Errorf("LoadWith(%v): g4dn.xlarge not patched by the CSV: %+v", paths, g4)
		}
	}
}

func instanceOf(c *model.Catalog, provider, typ string) (model.Instance, bool) {
	for _, in := range c.Instances {
		if in.Provider == provider && in.Type == typ {
			return in, true
		}
	}
	return model.Instance{}, false
}

// TestColumnIndex: the switch numbers every known column as its position
// in knownColumns, and nothing else.
func TestColumnIndex(t *testing.T) {
	for k, c := range knownColumns {
		if got := columnIndex(c); got != k {
			t.Errorf("columnIndex(%q) = %d, want %d", c, got, k)
		}
	}
	for _, c := range []string{"", "Arch", "Generation", "price"} {
		if got := columnIndex(c); got != -1 {
			t.Errorf("columnIndex(%q) = %d, want -1", c, got)
		}
	}
}
