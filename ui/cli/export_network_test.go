package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/gpuplan/gpuplan/model"
)

// netCatalog has an 8-GPU H100 type without a network figure (nebius)
// beside H100 types with one, when withFigures: two of 8 GPUs (3200 and
// 1600 Gbps, test figures) and one of 1 GPU (100 Gbps), which is of
// another node size and so not in the 8-GPU median. A type's figure
// counts only with a source (model.NodeNetwork). The nebius type names
// no fabric (model.NoFabricNetwork).
func netCatalog(withFigures bool) *model.Catalog { return netCatalogFabric(withFigures, "") }

// netCatalogFabric is netCatalog with the nebius type's fabric.
func netCatalogFabric(withFigures bool, fabric string) *model.Catalog {
	c := &model.Catalog{
		GPUs: []model.GPU{
			{Key: "h100-sxm", Name: "NVIDIA H100 SXM5 80GB", Aliases: []string{"H100"}, Vendor: "nvidia", Architecture: "hopper", ComputeCapability: "9.0",
				MemoryGiB: 80, MemoryBandwidthGBps: 3350, InterconnectGBps: 900, FP32TFLOPS: 67, TF32TFLOPS: 494.5, FP16TFLOPS: 989.5, BF16TFLOPS: 989.5, FP8TFLOPS: 1979},
		},
		Instances: []model.Instance{
			{Provider: "nebius", Type: "gpu-h100-sxm_8gpu-128vcpu-1600gb", GPU: "h100-sxm", GPUCount: 8, VCPUs: 128, MemoryGiB: 1600, Interconnect: "nvswitch",
				Fabric: fabric, Source: "test", Prices: []model.RegionPrice{{Region: "eu-north1", OnDemandUSD: 23.6}}},
		},
	}
	if withFigures {
		c.Instances = append(c.Instances,
			model.Instance{Provider: "aws", Type: "p5.48xlarge", GPU: "h100-sxm", GPUCount: 8, VCPUs: 192, MemoryGiB: 2048, Interconnect: "nvswitch", NetworkGbps: 3200,
				Source: "test", Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 55.04}}},
			model.Instance{Provider: "gcp", Type: "a3-highgpu-8g", GPU: "h100-sxm", GPUCount: 8, VCPUs: 208, MemoryGiB: 1872, Interconnect: "nvswitch", NetworkGbps: 1600,
				Source: "test", Prices: []model.RegionPrice{{Region: "us-central1", OnDemandUSD: 88.25}}},
			model.Instance{Provider: "lambda", Type: "gpu_1x_h100_sxm5", GPU: "h100-sxm", GPUCount: 1, VCPUs: 26, MemoryGiB: 225, NetworkGbps: 100,
				Source: "test", Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 3.29}}},
		)
	}
	c.Index()
	return c
}

// runCatalogCLI runs args on cat, as runExportCLI runs export on
// exportCatalog.
func runCatalogCLI(t *testing.T, cat func() *model.Catalog, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	var out, errb bytes.Buffer
	code = Run(Env{
		Args:   args,
		Stdout: &out, Stderr: &errb,
		Getenv:      func(string) string { return "" },
		Version:     "test",
		LoadCatalog: func([]string) (*model.Catalog, []model.Message, error) { return cat(), nil, nil },
	})
	return code, out.String(), errb.String()
}

// TestExportTimesAtCatalogNetwork (exportnet): export --instance on a type
// without a network figure times a job across its nodes at the network
// recommend and the configurator's export time it at, the median of the
// catalog's types of its GPU and node size ((3200 + 1600) / 2 = 2400 Gbps
// for 8-GPU H100 nodes; the 1-GPU type's 100 is another size), and
// writes recommend's job hours, in every format and for a plan's phase
// pinned to the type. The assumed 10 Gbps is for a catalog with no such
// figure, where recommend takes it too, and for a type that names no GPU
// fabric either (model.NoFabricNetwork: a median of InfiniBand nodes is
// no figure for VMs rented one by one). Failing before: export
// matched the type in a catalog cut down to it, which has no figure, and
// wrote 32 H200s on primeintellect's datacrunch type at 10 Gbps (556.2 h
// where recommend said 1.8 h).
func TestExportTimesAtCatalogNetwork(t *testing.T) {
	const inst = "nebius/gpu-h100-sxm_8gpu-128vcpu-1600gb"
	job := []string{"--params", "7B", "--task", "finetune", "--strategy", "fsdp", "--gpus", "16", "--batch-size", "1", "--seq-len", "2048",
		"--checkpointing", "--dataset-tokens", "2B"}
	const median = "timed at 2400 Gbps per node, the median of the catalog's NVIDIA H100 SXM5 80GB nodes with 8 GPUs"
	const assumed = "timed at an assumed 10 Gbps per node"
	const noFabric = "timed at 10 Gbps per node, the slowest the catalog documents, as no InfiniBand, EFA or RDMA between its instances is documented either"
	for _, tt := range []struct {
		name        string
		withFigures bool
		fabric      string
		note, not   string
	}{
		{"InfiniBand, 8-GPU H100 types with figures: their median, (3200 + 1600) / 2 = 2400 Gbps", true, "infiniband", median, assumed},
		{"InfiniBand, no H100 type with a figure: the assumed 10 Gbps, as recommend", false, "infiniband", assumed, "the median of the catalog's"},
		{"no fabric, types with figures: the assumed 10 Gbps, not their median", true, "", noFabric, "the median of the catalog's"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cat := func() *model.Catalog { return netCatalogFabric(tt.withFigures, tt.fabric) }
			code, out, errs := runCatalogCLI(t, cat, append([]string{"recommend", "--json", "--allow-multi-node", "--providers", "nebius", "--no-savings"}, job...)...)
			if code != 0 {
				t.Fatalf("recommend: exit %d: %s", code, errs)
			}
			var rec struct {
				Offers []struct {
					InstanceType string   `json:"instance_type"`
					Instances    int      `json:"instances"`
					JobHours     float64  `json:"job_hours"`
					Warnings     []string `json:"warnings"`
				} `json:"offers"`
			}
			if err := json.Unmarshal([]byte(out), &rec); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if len(rec.Offers) != 1 || rec.Offers[0].Instances != 2 || !strings.Contains(strings.Join(rec.Offers[0].Warnings, "\n"), tt.note) {
				t.Fatalf("recommend: want the nebius type on 2 nodes, warned %q; got %+v", tt.note, rec.Offers)
			}
			// The file's job_hours are to 4 significant figures, --json's
			// to 3 decimals: a job of over 10 hours compares them whole.
			want, _ := strconv.ParseFloat(strconv.FormatFloat(rec.Offers[0].JobHours, 'g', 4, 64), 64)

			// The file export writes, reopened (its picked offer as
			// --instance), and a plan's phase that pins the type and
			// takes its answers from the file.
			dir := t.TempDir()
			cfg, plan := filepath.Join(dir, "cfg.toml"), filepath.Join(dir, "plan.toml")
			if err := os.WriteFile(plan, []byte(`schema_version = 1
name = "7B on 2 nodes of 8 H100s"

[[phase]]
name = "fine-tune"
provider = "nebius"
instance = "gpu-h100-sxm_8gpu-128vcpu-1600gb"
region = "eu-north1"
pricing = "on-demand"
instances = 2
usd_per_hour = 47.2
job_hours = 1
config = "cfg.toml"
`), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{
				append([]string{"--instance", inst, "--format", "toml", "-o", cfg}, job...),
				{"--config", cfg, "--format", "toml", "-o", "-"},
				{"--config", plan, "--phase", "fine-tune", "--format", "toml", "-o", "-"},
			} {
				code, out, errs := runCatalogCLI(t, cat, append([]string{"export"}, args...)...)
				if code != 0 {
					t.Fatalf("export %v: exit %d: %s", args, code, errs)
				}
				if out == "" {
					b, err := os.ReadFile(cfg)
					if err != nil {
						t.Fatal(err)
					}
					out = string(b)
				}
				var f struct {
					Selection struct {
						JobHours float64 `toml:"job_hours"`
					} `toml:"selection"`
				}
				if _, err := toml.Decode(out, &f); err != nil {
					t.Fatalf("export %v: %v\n%s", args, err, out)
				}
				if f.Selection.JobHours != want {
					t.Errorf("export %v: job_hours = %g, want recommend's %g", args, f.Selection.JobHours, want)
				}
				if !strings.Contains(errs, tt.note) || strings.Contains(errs, tt.not) {
					t.Errorf("export %v: stderr want %q, not %q:\n%s", args, tt.note, tt.not, errs)
				}
			}
			for _, format := range []string{"skypilot", "torchrun", "docker", "k8s", "pytorchjob"} {
				args := append([]string{"export", "--instance", inst, "--format", format}, job...)
				code, _, errs := runCatalogCLI(t, cat, args...)
				if code != 0 {
					t.Errorf("--format %s: exit %d: %s", format, code, errs)
					continue
				}
				if !strings.Contains(errs, tt.note) || strings.Contains(errs, tt.not) {
					t.Errorf("--format %s: stderr want %q, not %q:\n%s", format, tt.note, tt.not, errs)
				}
			}
		})
	}
}
