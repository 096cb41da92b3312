package data_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
)

// writeRegionsCSV writes a lambda/vms.csv under dir pricing the A10 and
// A100 types, row by row alternating, in n distinct regions each
// (issue 29's attack), and returns its path.
func writeRegionsCSV(tb testing.TB, dir string, n int) string {
	tb.Helper()
	p := filepath.Join(dir, "lambda", "vms.csv")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	var sb strings.Builder
	sb.WriteString("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n")
	for i := range n {
		fmt.Fprintf(&sb, "gpu_1x_a10,A10,1,30,200,1.29,zz%d,,\n", i)
		fmt.Fprintf(&sb, "gpu_1x_a100,A100,1,30,200,1.29,zz%d,,\n", i)
	}
	if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

// BenchmarkLoadWithCSVDistinctRegions loads a lambda/vms.csv overlay
// pricing two catalog types in 40,000 distinct regions each, the cap
// lifted (issue 29: reading and merging were quadratic in the regions of
// one type; 10 s for one type in 40,000 regions before the fix, 0.4 s
// after).
func BenchmarkLoadWithCSVDistinctRegions(b *testing.B) {
	defer func(n int) { data.MaxCSVRegions = n }(data.MaxCSVRegions)
	data.MaxCSVRegions = 50_000
	p := writeRegionsCSV(b, b.TempDir(), 40_000)
	home := b.TempDir() // no user overlays
	b.Setenv("XDG_CONFIG_HOME", home)
	b.Setenv("XDG_DATA_HOME", home)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := data.LoadWith([]string{p}); err != nil {
			b.Fatal(err)
		}
	}
}

// A vms.csv with more than MaxCSVRegions distinct regions is refused in
// one line naming the row of the first region past the cap.
func TestCSVRegionCap(t *testing.T) {
	defer func(n int) { data.MaxCSVRegions = n }(data.MaxCSVRegions)
	data.MaxCSVRegions = 3
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("XDG_DATA_HOME", dir)
	p := writeRegionsCSV(t, dir, 3)
	if _, _, err := data.LoadWith([]string{p}); err != nil {
		t.Errorf("3 regions, at the cap: %v", err)
	}
	p = writeRegionsCSV(t, dir, 4)
	_, _, err := data.LoadWith([]string{p})
	// Line 8: the header, three regions of two rows, then zz3's first row.
	if err == nil || !strings.Contains(err.Error(), "vms.csv:8: more than 3 distinct regions; a provider has fewer than 100") || strings.Contains(err.Error(), "\n") {
		t.Errorf("above the cap: %v", err)
	}
}
