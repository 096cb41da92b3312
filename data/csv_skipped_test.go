package data

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCSVOverlayAllSkippedSaysWhy: a vms.csv whose every row is skipped
// fails with the reasons (the first few warnings), not only "no GPU
// instances found" (issue #29): the warnings are not printed with an error.
func TestCSVOverlayAllSkippedSaysWhy(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("XDG_DATA_HOME", home)
	p := filepath.Join(t.TempDir(), "aws", "vms.csv")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	body := `InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone
zz-odd.xlarge,ZZ9000,1,4,16,,0.5,,us-east-1,use1-az1
zz-free.xlarge,T4,1,4,16,,,,us-east-1,use1-az1
`
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := LoadWith([]string{p})
	if err == nil {
		t.Fatal("LoadWith: no error for a vms.csv without one usable row")
	}
	for _, want := range []string{"catalog " + p + ": no GPU instances found; every row was skipped: ", "ZZ9000", "zz-free.xlarge has no price in any region"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("error is not one line: %q", err)
	}
}
