package update

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
)

// awsRetiredCSV is two real rows of skypilot-org/skypilot-catalog
// catalogs/v8/aws/vms.csv (g5.xlarge, and the retired p3.2xlarge in
// us-east-1, as the catalog snapshot holds them) with p3's row changed by
// the caller.
func awsRetiredCSV(p3 string) string {
	const info = `"{'Gpus': [{'Name': 'V100', 'Manufacturer': 'NVIDIA', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 16384}}], 'TotalGpuMemoryInMiB': 16384}"`
	return "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone,Arch\n" +
		`g5.xlarge,A10G,1.0,4.0,16.0,"{'Gpus': [{'Name': 'A10G', 'Manufacturer': 'NVIDIA', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 22888}}], 'TotalGpuMemoryInMiB': 22888}",1.006,0.424600,us-east-1,use1-az2,x86_64` + "\n" +
		strings.ReplaceAll(p3, "INFO", info) + "\n"
}

// A retired embedded type the source lists again, with one figure changed
// (attack r29: p3.2xlarge with 62 GiB, 16 vCPUs, or a T4 or V100-16GB
// accelerator), is the embedded type: written as a price patch, not
// "added", and the overlay reads back with nothing a later command
// refuses. Before, it was written as a new complete entry that redefined
// the embedded one, and every later command exited 2.
func TestHostileRetiredTypeReappears(t *testing.T) {
	for _, tc := range []struct{ name, row string }{
		{"memory 62", "p3.2xlarge,V100,1.0,8.0,62.0,INFO,3.06,0.370700,us-east-1,use1-az1,x86_64"},
		{"16 vCPUs", "p3.2xlarge,V100,1.0,16.0,61.0,INFO,3.06,0.370700,us-east-1,use1-az1,x86_64"},
		{"T4", "p3.2xlarge,T4,1.0,8.0,61.0,INFO,3.06,0.370700,us-east-1,use1-az1,x86_64"},
		{"V100-16GB", "p3.2xlarge,V100-16GB,1.0,8.0,61.0,INFO,3.06,0.370700,us-east-1,use1-az1,x86_64"},
		{"unchanged", "p3.2xlarge,V100,1.0,8.0,61.0,INFO,3.06,0.370700,us-east-1,use1-az1,x86_64"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := awsRetiredCSV(tc.row)
			s := server(t, map[string]http.HandlerFunc{"/r/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }})
			dir := t.TempDir()
			sum, err, got := hostileRun(t, Options{Dir: dir, Sources: []string{s.URL + "/r"}, Providers: []string{"aws"}, Force: true})
			if err != nil {
				t.Fatal(err)
			}
			ps := sum.Providers[0]
			if len(ps.Added) != 0 {
				t.Errorf("added %v, want none: p3.2xlarge is the embedded type", ps.Added)
			}
			if !strings.Contains(sum.Text(), "lists 1 type the catalog has as retired (p3.2xlarge): written as price patches on the catalog's entries, they stay retired and are not ranked") {
				t.Errorf("summary does not say p3.2xlarge stays retired:\n%s", sum.Text())
			}
			p3 := got[strings.Index(got, `type = "p3.2xlarge"`):]
			p3 = p3[:strings.Index(p3+"\n\n", "\n\n")]
			for _, k := range []string{"gpu =", "vcpus", "memory_gib", "skypilot_accelerator"} {
				if strings.Contains(p3, k) {
					t.Errorf("p3.2xlarge written with %s, want a price patch:\n%s", k, p3)
				}
			}
			file := filepath.Join(dir, "skypilot-aws.toml")
			if err := data.CheckOverlay(file); err != nil {
				t.Errorf("the installed overlay does not read back: %v", err)
			}
			c, err := data.OverlayCatalog(file)
			if err != nil || len(c.Redefined) != 0 {
				t.Fatalf("overlay: err %v, redefined %+v", err, c.Redefined)
			}
			for _, in := range c.Instances {
				if in.Provider == "aws" && in.Type == "p3.2xlarge" && (in.Retired == "" || in.MemoryGiB != 61 || in.VCPUs != 8 || in.GPU != "v100-16gb") {
					t.Errorf("p3.2xlarge = %s, %d vCPUs, %v GiB, retired %q; want the embedded entry, retired", in.GPU, in.VCPUs, in.MemoryGiB, in.Retired)
				}
			}
		})
	}
}

// The read-back runs every check a later command runs: an overlay that
// redefines an embedded entry (which the command line refuses without
// --trust-overlay) is not installed, and the previous file is kept byte
// for byte (attack r29: data.CheckOverlay merged the file but never
// looked for redefinitions).
func TestInstallRefusesRedefinition(t *testing.T) {
	dir := t.TempDir()
	name := "skypilot-aws.toml"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(previous), 0o644); err != nil {
		t.Fatal(err)
	}
	b := []byte(`schema_version = 1
provider = "aws"

[[instance]]
type = "p3.2xlarge"
gpu = "v100-16gb"
gpu_count = 1
vcpus = 8
memory_gib = 62
source = "test"
as_of = 2026-12-01
prices = [{ region = "us-east-1", on_demand = 3.06 }]
`)
	err := install(dir, name, b)
	want := `catalog ` + filepath.Join(dir, name) + `: instance "aws/p3.2xlarge" redefines the embedded entry (memory_gib 61 → 62); every command would refuse the file without --trust-overlay`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("install = %v\nwant %q", err, want)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, name)); string(got) != previous {
		t.Errorf("previous overlay replaced:\n%s", got)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".update-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
