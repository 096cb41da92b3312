package market

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/market/markettest"
)

// rowNames writes rows as "provider/type@region+N $price".
func rowNames(rows []Row) string {
	var s []string
	for _, r := range rows {
		n := fmt.Sprintf("%s/%s@%s", r.Instance.Provider, r.Instance.Type, r.Region)
		if len(r.Regions) > 1 {
			n += fmt.Sprintf("+%d", len(r.Regions)-1)
		}
		s = append(s, fmt.Sprintf("%s $%.6g", n, r.USDPerHour))
	}
	return strings.Join(s, ", ")
}

func specs(t testing.TB, c *model.Catalog, s ...string) []GPUSpec {
	t.Helper()
	var out []GPUSpec
	for _, x := range s {
		g, err := ParseGPUSpec(x, c)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, g)
	}
	return out
}

func TestBrowse(t *testing.T) {
	c := markettest.Catalog()
	tests := []struct {
		name string
		q    Query
		want string
	}{
		{"default: on-demand, cheapest price per type, cheapest first; retired and spot-only types left out; the two provenances at gcp's $3.67 stay apart", Query{},
			"vast/1x-l40s@us-ca $0.6, gcp/g2-standard-4@us-central1 $0.71, lambda/gpu_1x_gh200@us-east-3 $1.49, " +
				"lambda/gpu_1x_h100_pcie@europe-central-1+2 $2.49, gcp/a2-highgpu-1g@europe-west4 $3.67, gcp/a2-highgpu-1g@us-central1 $3.67, " +
				"aws/g6.12xlarge@us-east-1 $4.6, lambda/gpu_8x_a100_80gb@us-east-1 $14.32, oci/BM.GPU.MI300X.8@us-ashburn-1 $48, " +
				"aws/p5.48xlarge@us-east-1+2 $98.32, azure/Standard_ND96isr_H100_v5@eastus $98.32"},
		{"H100:8 is the alias's 8-GPU types; aws before azure at the same $98.32", Query{GPUs: specs(t, c, "H100:8")},
			"aws/p5.48xlarge@us-east-1+2 $98.32, azure/Standard_ND96isr_H100_v5@eastus $98.32"},
		{"H100* takes every H100 variant", Query{GPUs: specs(t, c, "H100*")},
			"lambda/gpu_1x_h100_pcie@europe-central-1+2 $2.49, aws/p5.48xlarge@us-east-1+2 $98.32, azure/Standard_ND96isr_H100_v5@eastus $98.32"},
		{"two specs: either matches", Query{GPUs: specs(t, c, "L4:4+", "GH200")},
			"lambda/gpu_1x_gh200@us-east-3 $1.49, aws/g6.12xlarge@us-east-1 $4.6"},
		{"40GB..80GB per GPU: 40, 48 and 80 in, 24, 96 and 192 out", Query{VRAMGiB: Bounds{40, 80}},
			"vast/1x-l40s@us-ca $0.6, lambda/gpu_1x_h100_pcie@europe-central-1+2 $2.49, gcp/a2-highgpu-1g@europe-west4 $3.67, " +
				"gcp/a2-highgpu-1g@us-central1 $3.67, lambda/gpu_8x_a100_80gb@us-east-1 $14.32, aws/p5.48xlarge@us-east-1+2 $98.32, " +
				"azure/Standard_ND96isr_H100_v5@eastus $98.32"},
		{"europe- prefix: each type at its cheapest European price; eu-north-1 is not europe-", Query{Regions: []string{"europe-"}},
			"gcp/g2-standard-4@europe-west1 $0.78, lambda/gpu_1x_h100_pcie@europe-central-1 $2.49, gcp/a2-highgpu-1g@europe-west4 $3.67"},
		{"providers", Query{Providers: []string{"lambda"}},
			"lambda/gpu_1x_gh200@us-east-3 $1.49, lambda/gpu_1x_h100_pcie@europe-central-1+2 $2.49, lambda/gpu_8x_a100_80gb@us-east-1 $14.32"},
		{"max $1/h", Query{MaxUSDPerHour: 1}, "vast/1x-l40s@us-ca $0.6, gcp/g2-standard-4@us-central1 $0.71"},
		{"arm64: the Grace host", Query{Arch: model.ArchARM}, "lambda/gpu_1x_gh200@us-east-3 $1.49"},
		{"nvlink includes nvswitch", Query{Interconnect: LinkNVLink},
			"lambda/gpu_1x_gh200@us-east-3 $1.49, lambda/gpu_8x_a100_80gb@us-east-1 $14.32, aws/p5.48xlarge@us-east-1+2 $98.32, azure/Standard_ND96isr_H100_v5@eastus $98.32"},
		{"fast: nvlink, nvswitch or infinity fabric", Query{Interconnect: LinkFast, MaxUSDPerHour: 50},
			"lambda/gpu_1x_gh200@us-east-3 $1.49, lambda/gpu_8x_a100_80gb@us-east-1 $14.32, oci/BM.GPU.MI300X.8@us-ashburn-1 $48"},
		{"pcie only", Query{Interconnect: LinkPCIe, Providers: []string{"aws"}}, "aws/g6.12xlarge@us-east-1 $4.6"},
		{"InfiniBand or EFA between nodes", Query{InfiniBand: true},
			"aws/p5.48xlarge@us-east-1+2 $98.32, azure/Standard_ND96isr_H100_v5@eastus $98.32"},
		{"retired on request", Query{Retired: true, MaxUSDPerHour: 0.65}, "aws/g6-old@us-east-1 $0.1, vast/1x-l40s@us-ca $0.6"},
		{"spot: spot prices only; p5's cheapest spot is us-east-2 at $25", Query{Pricing: model.Spot},
			"gcp/g2-standard-4@us-central1 $0.22, aws/g6.xlarge@us-east-1 $0.3, gcp/a2-highgpu-1g@us-central1 $1.1, aws/g6.12xlarge@us-east-1 $1.5, aws/p5.48xlarge@us-east-2 $25"},
		{"reserved-1y: 98.32 × (1 − 0.4) = 58.992, only where the discount applies", Query{Pricing: model.Reserved1y},
			"aws/p5.48xlarge@us-east-1+2 $58.992"},
		{"all regions: one row per price", Query{AllRegions: true, GPUs: specs(t, c, "h100:8"), Providers: []string{"aws"}},
			"aws/p5.48xlarge@us-east-1+2 $98.32, aws/p5.48xlarge@eu-north-1 $110"},
		{"all regions: the overlay's region keeps its own row", Query{AllRegions: true, GPUs: specs(t, c, "A100")},
			"gcp/a2-highgpu-1g@europe-west4 $3.67, gcp/a2-highgpu-1g@us-central1 $3.67, gcp/a2-highgpu-1g@asia-east1 $4"},
		{"sort gpu-price: 4.6/4 = 1.15 and 14.32/8 = 1.79 move up, 98.32/8 = 12.29 stays last", Query{Sort: ByGPUPrice},
			"vast/1x-l40s@us-ca $0.6, gcp/g2-standard-4@us-central1 $0.71, aws/g6.12xlarge@us-east-1 $4.6, lambda/gpu_1x_gh200@us-east-3 $1.49, " +
				"lambda/gpu_8x_a100_80gb@us-east-1 $14.32, lambda/gpu_1x_h100_pcie@europe-central-1+2 $2.49, gcp/a2-highgpu-1g@europe-west4 $3.67, " +
				"gcp/a2-highgpu-1g@us-central1 $3.67, oci/BM.GPU.MI300X.8@us-ashburn-1 $48, aws/p5.48xlarge@us-east-1+2 $98.32, azure/Standard_ND96isr_H100_v5@eastus $98.32"},
		{"sort vram-price: 0.6/48 = .0125, 1.49/96 = .0155, 14.32/640 = .0224, 0.71/24 = .0296, 2.49/80 = .031125 < 48/1536 = .03125", Query{Sort: ByVRAMPrice},
			"vast/1x-l40s@us-ca $0.6, lambda/gpu_1x_gh200@us-east-3 $1.49, lambda/gpu_8x_a100_80gb@us-east-1 $14.32, gcp/g2-standard-4@us-central1 $0.71, " +
				"lambda/gpu_1x_h100_pcie@europe-central-1+2 $2.49, oci/BM.GPU.MI300X.8@us-ashburn-1 $48, aws/g6.12xlarge@us-east-1 $4.6, " +
				"gcp/a2-highgpu-1g@europe-west4 $3.67, gcp/a2-highgpu-1g@us-central1 $3.67, aws/p5.48xlarge@us-east-1+2 $98.32, azure/Standard_ND96isr_H100_v5@eastus $98.32"},
		{"sort vcpus: most first, ties by price", Query{Sort: ByVCPUs},
			"lambda/gpu_8x_a100_80gb@us-east-1 $14.32, oci/BM.GPU.MI300X.8@us-ashburn-1 $48, aws/p5.48xlarge@us-east-1+2 $98.32, " +
				"azure/Standard_ND96isr_H100_v5@eastus $98.32, lambda/gpu_1x_gh200@us-east-3 $1.49, aws/g6.12xlarge@us-east-1 $4.6, " +
				"lambda/gpu_1x_h100_pcie@europe-central-1+2 $2.49, vast/1x-l40s@us-ca $0.6, gcp/a2-highgpu-1g@europe-west4 $3.67, " +
				"gcp/a2-highgpu-1g@us-central1 $3.67, gcp/g2-standard-4@us-central1 $0.71"},
		{"sort ram: 2048 twice, the cheaper (oci $48) first", Query{Sort: ByRAM, MaxUSDPerHour: 100, Providers: []string{"aws", "oci", "azure"}},
			"oci/BM.GPU.MI300X.8@us-ashburn-1 $48, aws/p5.48xlarge@us-east-1+2 $98.32, azure/Standard_ND96isr_H100_v5@eastus $98.32, aws/g6.12xlarge@us-east-1 $4.6"},
		{"sort vram: 192 GiB MI300X, then 96 GiB GH200", Query{Sort: ByVRAM, MaxUSDPerHour: 50, VRAMGiB: Bounds{Min: 90}},
			"oci/BM.GPU.MI300X.8@us-ashburn-1 $48, lambda/gpu_1x_gh200@us-east-3 $1.49"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Browse(c, tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if got := rowNames(res.Rows); got != tt.want {
				t.Errorf("Browse() =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestBrowseRow pins what a row says, worked out from aws/p5.48xlarge.
func TestBrowseRow(t *testing.T) {
	res, err := Browse(markettest.Catalog(), Query{GPUs: specs(t, markettest.Catalog(), "H100:8"), Providers: []string{"aws"}})
	if err != nil || len(res.Rows) != 1 {
		t.Fatalf("Browse() = %d rows, %v; want 1", len(res.Rows), err)
	}
	r := &res.Rows[0]
	source, origin, _ := r.Provenance()
	checks := []struct {
		name      string
		got, want any
	}{
		{"regions at the cheapest price, sorted", strings.Join(r.Regions, " "), "us-east-1 us-east-2 us-west-2"},
		{"regions offered", r.Offered, 4},
		{"$/h", r.USDPerHour, 98.32},
		{"$/GPU-h = 98.32 / 8", r.USDPerGPUHour(), 98.32 / 8},
		{"$/GiB-h = 98.32 / 640", r.USDPerGiBHour(), 98.32 / 640},
		{"on-demand", r.OnDemandUSD, 98.32},
		{"spot: lowest of 40, 30, 25", r.SpotUSD, 25.0},
		{"VRAM total = 8 × 80", r.TotalVRAMGiB(), 640.0},
		{"RAM per GPU = 2048 / 8", r.RAMPerGPUGiB(), 256.0},
		{"vCPUs per GPU = 192 / 8", r.VCPUsPerGPU(), 24.0},
		{"arch", r.Arch(), model.ArchX86},
		{"fabric", r.Fabric(), "efa"},
		{"source", source, "aws src"},
		{"origin", origin, "embedded"},
	}
	for _, c := range checks {
		if g, ok := c.got.(float64); ok && math.Abs(g-c.want.(float64)) <= 1e-12*g {
			continue
		}
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	c := markettest.Catalog()
	for _, tt := range []struct {
		p    model.Pricing
		want int
	}{
		{model.OnDemand, 19},  // 4+3+1+3+2+1+1+1+1+1+1 regions with an on-demand price, the retired type's too
		{model.Spot, 8},       // p5 3, a2 2, g2 1, g6.12xlarge 1, g6.xlarge 1
		{model.Reserved1y, 4}, // the discount covers p5. only
	} {
		if got := Size(c, tt.p); got != tt.want {
			t.Errorf("MarketSize(%s) = %d, want %d", tt.p, got, tt.want)
		}
	}
}

// TestBrowseOverlayProvenance: a region patched by an overlay is its own
// row with the overlay's source, even at the same price.
func TestBrowseOverlayProvenance(t *testing.T) {
	c := markettest.Catalog()
	res, err := Browse(c, Query{GPUs: specs(t, c, "A100")})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := range res.Rows {
		r := &res.Rows[i]
		source, origin, _ := r.Provenance()
		got = append(got, r.Region+":"+source+":"+origin)
	}
	if want := "europe-west4:our deal:deal.toml us-central1:gcp src:"; strings.Join(got, " ") != want {
		t.Errorf("rows = %q, want %q", strings.Join(got, " "), want)
	}
}

func TestBrowseGroups(t *testing.T) {
	c := markettest.Catalog()
	tests := []struct {
		name string
		q    Query
		want string // key count min–max $/h (min–max $/GPU-h)
	}{
		{"gpu: in the order of each group's cheapest row", Query{GroupBy: GroupGPU},
			"l40s 1 0.6–0.6 (0.6–0.6); l4 2 0.71–4.6 (0.71–1.15); gh200 1 1.49–1.49 (1.49–1.49); h100-pcie 1 2.49–2.49 (2.49–2.49); " +
				"a100-40gb 2 3.67–3.67 (3.67–3.67); a100-80gb 1 14.32–14.32 (1.79–1.79); mi300x 1 48–48 (6–6); h100-sxm 2 98.32–98.32 (12.29–12.29)"},
		{"provider", Query{GroupBy: GroupProvider},
			"vast 1 0.6–0.6 (0.6–0.6); gcp 3 0.71–3.67 (0.71–3.67); lambda 3 1.49–14.32 (1.49–2.49); aws 2 4.6–98.32 (1.15–12.29); " +
				"oci 1 48–48 (6–6); azure 1 98.32–98.32 (12.29–12.29)"},
		{"region expands every price and counts a row in each of its regions", Query{GroupBy: GroupRegion, Providers: []string{"aws"}},
			"us-east-1 2 4.6–98.32 (1.15–12.29); us-east-2 1 98.32–98.32 (12.29–12.29); us-west-2 1 98.32–98.32 (12.29–12.29); eu-north-1 1 110–110 (13.75–13.75)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Browse(c, tt.q)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, g := range res.Groups {
				got = append(got, fmt.Sprintf("%s %d %.4g–%.4g (%.4g–%.4g)", g.Key, len(g.Rows), g.MinUSDPerHour, g.MaxUSDPerHour, g.MinUSDPerGPUHour, g.MaxUSDPerGPUHour))
				for _, i := range g.Rows {
					r := &res.Rows[i]
					if key := map[GroupBy]string{GroupGPU: r.GPU.Key, GroupProvider: r.Instance.Provider}[tt.q.GroupBy]; key != "" && key != g.Key {
						t.Errorf("group %s holds row %d of %s", g.Key, i, key)
					}
				}
			}
			if s := strings.Join(got, "; "); s != tt.want {
				t.Errorf("groups =\n%s\nwant\n%s", s, tt.want)
			}
		})
	}
}

// TestBrowseDeterministic: the order does not depend on catalog order.
func TestBrowseDeterministic(t *testing.T) {
	for _, sort := range Sorts {
		for _, all := range []bool{false, true} {
			c := markettest.Catalog()
			res, err := Browse(c, Query{Sort: sort, AllRegions: all})
			if err != nil {
				t.Fatal(err)
			}
			want := rowNames(res.Rows) // before the shuffle moves the instances under the rows
			r := rand.New(rand.NewPCG(1, 2))
			for range 5 {
				r.Shuffle(len(c.Instances), func(i, j int) { c.Instances[i], c.Instances[j] = c.Instances[j], c.Instances[i] })
				for i := range c.Instances {
					p := c.Instances[i].Prices
					r.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
				}
				got, _ := Browse(c, Query{Sort: sort, AllRegions: all})
				if a := rowNames(got.Rows); a != want {
					t.Fatalf("sort %s, all regions %v: shuffled catalog gives\n%s\nwant\n%s", sort, all, a, want)
				}
			}
		}
	}
}

func TestBrowseErrors(t *testing.T) {
	c := markettest.Catalog()
	tests := []struct {
		name string
		q    Query
		want string
	}{
		{"provider typo", Query{Providers: []string{"lamda"}}, `unknown provider "lamda"; did you mean lambda?`},
		{"region typo", Query{Regions: []string{"eurpoe-"}}, `unknown region "eurpoe-"; did you mean europe- or eu-?`},
		{"region prefix without a dash matches nothing", Query{Regions: []string{"zz"}}, `unknown region "zz"`},
		{"negative price", Query{MaxUSDPerHour: -1}, "max price -1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Browse(c, tt.q)
			if !errors.Is(err, ErrBadFilter) || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("Browse() error = %v, want one line wrapping ErrBadFilter with %q", err, tt.want)
			}
		})
	}
}

func TestParseGPUSpec(t *testing.T) {
	c := markettest.Catalog()
	tests := []struct {
		in      string
		keys    string
		vendor  string
		count   Bounds
		vramGiB Bounds
	}{
		{"H100", "h100-sxm", "", Bounds{}, Bounds{}},
		{"h100:8", "h100-sxm", "", Bounds{8, 8}, Bounds{}},
		{"A100-80GB:4+", "a100-80gb", "", Bounds{4, 0}, Bounds{}},
		{"h100:1..4", "h100-sxm", "", Bounds{1, 4}, Bounds{}},
		{"a100-80gb:..4", "a100-80gb", "", Bounds{0, 4}, Bounds{}},
		{"a100:2..", "a100-40gb", "", Bounds{2, 0}, Bounds{}},
		{"8:H100", "h100-sxm", "", Bounds{8, 8}, Bounds{}},
		{" H100 : 8 ", "h100-sxm", "", Bounds{8, 8}, Bounds{}},
		{"h100 sxm", "h100-sxm", "", Bounds{}, Bounds{}}, // spaces dropped, then matched ignoring separators
		{"H100*", "h100-sxm h100-pcie", "", Bounds{}, Bounds{}},
		{"A100,H100:8", "a100-40gb h100-sxm", "", Bounds{8, 8}, Bounds{}},
		{"A100,a100-40gb", "a100-40gb", "", Bounds{}, Bounds{}},
		{"24GB..80GB:2", "", "", Bounds{2, 2}, Bounds{24, 80}},
		{"nvidia:40GB+", "", "nvidia", Bounds{}, Bounds{40, 0}},
		{"AMD", "", "amd", Bounds{}, Bounds{}},
		{"1TB", "", "", Bounds{}, Bounds{1024, 1024}},
		{"L4:24GB:1", "l4", "", Bounds{1, 1}, Bounds{24, 24}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseGPUSpec(tt.in, c)
			if err != nil {
				t.Fatal(err)
			}
			if k := strings.Join(got.Keys, " "); k != tt.keys || got.Vendor != tt.vendor || got.Count != tt.count || got.VRAMGiB != tt.vramGiB {
				t.Errorf("ParseGPUSpec(%q) = keys %q vendor %q count %v memory %v, want %q %q %v %v", tt.in, k, got.Vendor, got.Count, got.VRAMGiB, tt.keys, tt.vendor, tt.count, tt.vramGiB)
			}
		})
	}
}

func TestParseGPUSpecErrors(t *testing.T) {
	c := markettest.Catalog()
	tests := []struct{ in, want string }{
		{"", "empty gpu spec; want e.g. H100, H100:8"},
		{"  ", "empty gpu spec"},
		{"H10:8", `unknown GPU "H10"; did you mean H100`},
		{"L40:1", `unknown GPU "L40"; did you mean`},
		{"zz*", `no GPU starts with "zz"`},
		{"H100::8", "empty part between colons"},
		{":8", "empty part between colons"},
		{"H100:", "empty part between colons"},
		{"H100,,A100", "empty GPU name"},
		{"H100:0", "0 GPUs is outside 1..1024"},
		{"H100:-1", "-1 GPUs is outside 1..1024"},
		{"H100:2000", "2000 GPUs is outside 1..1024"},
		{"H100:1.5", `"1.5" is not a whole number`},
		{"H100:..", `count ".." has no number`},
		{"H100:+", `count "+" has no number`},
		{"H100:8..4", "write the smaller first, e.g. 4..8"},
		{"H100:8:4", "gives the count twice (8 and 4)"},
		{"H100:A100", "gives the name twice (H100 and A100)"},
		{"nvidia:amd", "gives the vendor twice"},
		{"40GB:80GB", "gives the memory twice"},
		{"H100:8x", `"8x" is not a size with GB, GiB, TB or TiB`},
		{"H100:24G", `"24g" is not a size`},
		{"80GB..40GB", "the smaller size goes first, e.g. 40GB..80GB"},
		{"0GB+", "must be above 0"},
		{"NaNGB", `unknown GPU "NaNGB"`}, // a letter first: a name, as in dstack
		// A leading "/" (the search key of less, vim, k9s) is named, not read as memory "/H100".
		{"/H100:8", `gpu spec "/H100:8" starts with "/", which is no part of a spec; write H100:8`},
		{"/", `gpu spec "/" starts with "/", which is no part of a spec; want e.g. H100`},
		// An instance type is named as such, with its GPU to list it by
		// (walk37: "offers g5.xlarge" said "unknown GPU").
		{"p5.48xlarge", "that is an instance type, aws p5.48xlarge (8 × "},
		{"p5.48xlarge:8", "not a GPU; list it and its rivals with gpuplan offers h100-sxm:8 --providers aws"},
		{"AWS/P5.48XLARGE", "that is an instance type, aws p5.48xlarge"},
		{"gcp/p5.48xlarge", `unknown GPU "gcp/p5.48xlarge"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := ParseGPUSpec(tt.in, c)
			if err == nil {
				t.Fatalf("ParseGPUSpec(%q) = nil error, want %q", tt.in, tt.want)
			}
			msg := err.Error()
			if !errors.Is(err, ErrBadFilter) || !strings.Contains(msg, tt.want) || strings.Contains(msg, "\n") {
				t.Errorf("ParseGPUSpec(%q) error = %q, want one line wrapping ErrBadFilter with %q", tt.in, msg, tt.want)
			}
		})
	}
}

func TestParseVRAMRange(t *testing.T) {
	tests := []struct {
		in   string
		want Bounds
		err  string
	}{
		{in: "24GB..80GB", want: Bounds{24, 80}},
		{in: "40GB+", want: Bounds{40, 0}},
		{in: "..48GB", want: Bounds{0, 48}},
		{in: "40GiB..", want: Bounds{40, 0}},
		{in: "80gb", want: Bounds{80, 80}},
		{in: "24 GB .. 48 GB", want: Bounds{24, 48}},
		{in: "1.5TB", want: Bounds{1536, 1536}},
		{in: "0.5TiB+", want: Bounds{512, 0}},
		{in: "24", err: `"24" needs a unit (24GB)`},
		{in: "24GB..48", err: `"48" needs a unit (48GB)`},
		{in: "..", err: "has no size"},
		{in: "", err: "has no size"},
		{in: "GB", err: `"" is not a number`},
		{in: "0GB", err: "0gb must be above 0"},
		{in: "-4GB", err: "-4gb must be above 0"},
		{in: "InfGB", err: `"inf" is not a number`},
		{in: "NaNGB", err: `"nan" is not a number`},
		{in: "2000000GB", err: "at most 1048576 GB"},
		{in: "48GB..24GB", err: "the smaller size goes first, e.g. 24GB..48GB"},
		{in: "24MB", err: `"24mb" is not a size with GB`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseVRAMRange(tt.in)
			if tt.err != "" {
				if !errors.Is(err, ErrBadFilter) || !strings.Contains(fmt.Sprint(err), tt.err) || strings.Contains(fmt.Sprint(err), "\n") {
					t.Errorf("ParseVRAMRange(%q) error = %v, want one line with %q", tt.in, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("ParseVRAMRange(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestBoundsString(t *testing.T) {
	for _, tt := range []struct {
		b    Bounds
		want string
	}{{Bounds{}, "any"}, {Bounds{8, 8}, "8"}, {Bounds{4, 0}, "4+"}, {Bounds{0, 48}, "..48GB"}, {Bounds{24, 80}, "24..80"}} {
		unit := ""
		if strings.HasSuffix(tt.want, "GB") {
			unit = "GB"
		}
		if got := tt.b.String(unit); got != tt.want {
			t.Errorf("%v.String() = %q, want %q", tt.b, got, tt.want)
		}
	}
}

func TestParseMarketFlags(t *testing.T) {
	tests := []struct {
		name string
		got  func() (string, error)
		want string // value, or "error: substring"
	}{
		{"sort gpu-price", func() (string, error) { s, err := ParseSort("GPU-Price"); return string(s), err }, "gpu-price"},
		{"sort alias $/gib", func() (string, error) { s, err := ParseSort("$/gib"); return string(s), err }, "vram-price"},
		{"sort typo", func() (string, error) { s, err := ParseSort("cheap"); return string(s), err }, "error: sort \"cheap\": want price, gpu-price, vram-price, vcpus, ram or vram"},
		// walk55: a typo close to a key names it, the nearest by edits first.
		{"sort near typo", func() (string, error) { s, err := ParseSort("vramm"); return string(s), err }, "error: sort \"vramm\": did you mean \"vram\"? want price, gpu-price, vram-price, vcpus, ram or vram"},
		{"group near typo", func() (string, error) { s, err := ParseGroupBy("gpuu"); return string(s), err }, "error: group-by \"gpuu\": did you mean \"gpu\"? want gpu, provider or region"},
		{"group none", func() (string, error) { s, err := ParseGroupBy("none"); return string(s), err }, ""},
		{"group cloud", func() (string, error) { s, err := ParseGroupBy("cloud"); return string(s), err }, "provider"},
		{"group typo", func() (string, error) { s, err := ParseGroupBy("zone"); return string(s), err }, "error: want gpu, provider or region"},
		{"arch aarch64", func() (string, error) { s, err := ParseArch("aarch64"); return string(s), err }, "arm64"},
		{"arch amd64", func() (string, error) { s, err := ParseArch("AMD64"); return string(s), err }, "x86_64"},
		{"arch typo", func() (string, error) { s, err := ParseArch("risc-v"); return string(s), err }, "error: want x86_64 or arm64"},
		{"interconnect", func() (string, error) { return ParseInterconnect("NVLink") }, "nvlink"},
		{"interconnect typo", func() (string, error) { return ParseInterconnect("ib") }, "error: want nvlink, nvswitch, pcie, infinity-fabric or fast"},
		{"price $2.50/h", func() (string, error) { v, err := ParseMaxPrice("$2.50/h"); return fmt.Sprint(v), err }, "2.5"},
		{"price 3", func() (string, error) { v, err := ParseMaxPrice(" 3 "); return fmt.Sprint(v), err }, "3"},
		{"price 0", func() (string, error) { v, err := ParseMaxPrice("0"); return fmt.Sprint(v), err }, "error: want USD per hour above 0"},
		{"price text", func() (string, error) { v, err := ParseMaxPrice("cheap"); return fmt.Sprint(v), err }, "error: max price \"cheap\""},
		{"price NaN", func() (string, error) { v, err := ParseMaxPrice("NaN"); return fmt.Sprint(v), err }, "error: want USD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.got()
			if want, isErr := strings.CutPrefix(tt.want, "error: "); isErr {
				if !errors.Is(err, ErrBadFilter) || !strings.Contains(fmt.Sprint(err), want) {
					t.Errorf("error = %v, want ErrBadFilter with %q", err, want)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("= %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// TestInstanceArch: the catalog's CPU architecture, x86_64 when unset.
func TestInstanceArch(t *testing.T) {
	for arch, want := range map[string]model.Arch{"arm64": model.ArchARM, "x86_64": model.ArchX86, "": model.ArchX86} {
		if got := InstanceArch(&model.Instance{GPU: "gh200", CPUArch: arch}); got != want {
			t.Errorf("InstanceArch(CPUArch=%q) = %s, want %s", arch, got, want)
		}
	}
}

// WithDefaults fills what View reads unset: on-demand, the price order,
// every region when grouped by region; what is given stays.
func TestMarketQueryWithDefaults(t *testing.T) {
	for _, tt := range []struct {
		name    string
		q, want Query
	}{
		{"empty", Query{}, Query{Pricing: model.OnDemand, Sort: ByPrice}},
		{"given stays", Query{Pricing: model.Spot, Sort: ByGPUPrice}, Query{Pricing: model.Spot, Sort: ByGPUPrice}},
		{"grouped by region lists every region", Query{GroupBy: GroupRegion}, Query{Pricing: model.OnDemand, Sort: ByPrice, GroupBy: GroupRegion, AllRegions: true}},
	} {
		if got := tt.q.WithDefaults(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: WithDefaults() = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// OfferedProviders leaves out a provider whose every type is retired or
// missing from the latest fetch, and keeps one with a single offered type.
func TestOfferedProviders(t *testing.T) {
	c := &model.Catalog{Instances: []model.Instance{
		{Provider: "lambda", Type: "a"},
		{Provider: "cudo", Type: "b", Retired: "2026-03-31"},
		{Provider: "cudo", Type: "c", Retired: "2026-03-31"},
		{Provider: "aws", Type: "d", Retired: "2026-05-25"},
		{Provider: "aws", Type: "e"},
		{Provider: "lab", Type: "f", MissingSince: "2026-11-01"},
		{Provider: "lambda", Type: "g"},
	}}
	if got, want := c.OfferedProviders(), []string{"aws", "lambda"}; !slices.Equal(got, want) {
		t.Errorf("OfferedProviders() = %q, want %q", got, want)
	}
}

// TestBrowseHeld: an overlay's $1.00 for lambda's 8× A100 in us-west-1 that
// the load guards held (issue #29) is neither ranked nor hides the type's
// real cheapest price ($14.32 in us-east-1); Query.Held lists it marked,
// after every other row; TrustOverlays ranks it first, still marked.
func TestBrowseHeld(t *testing.T) {
	held := func(trust bool) *model.Catalog {
		c := markettest.Catalog()
		for i := range c.Instances {
			if in := &c.Instances[i]; in.Type == "gpu_8x_a100_80gb" {
				in.Prices = append(in.Prices, model.RegionPrice{Region: "us-west-1", OnDemandUSD: 1, Held: true,
					Patch: &model.PricePatch{Source: "b", Origin: "b.toml"}})
			}
		}
		c.TrustOverlays = trust
		return c
	}
	marks := func(rows []Row) string {
		var s []string
		for _, r := range rows {
			n := rowNames([]Row{r})
			if r.Held() {
				n += " held"
			}
			s = append(s, n)
		}
		return strings.Join(s, ", ")
	}
	tests := []struct {
		name  string
		trust bool
		q     Query
		want  string
	}{
		{"left out", false, Query{Providers: []string{"lambda"}, Sort: ByGPUPrice},
			"lambda/gpu_1x_gh200@us-east-3 $1.49, lambda/gpu_8x_a100_80gb@us-east-1 $14.32, lambda/gpu_1x_h100_pcie@europe-central-1+2 $2.49"},
		{"Held: listed last, marked", false, Query{Providers: []string{"lambda"}, Sort: ByGPUPrice, Held: true},
			"lambda/gpu_1x_gh200@us-east-3 $1.49, lambda/gpu_8x_a100_80gb@us-east-1 $14.32, lambda/gpu_1x_h100_pcie@europe-central-1+2 $2.49, " +
				"lambda/gpu_8x_a100_80gb@us-west-1 $1 held"},
		{"all regions: left out", false, Query{Providers: []string{"lambda"}, GPUs: specs(t, held(false), "A100-80GB"), AllRegions: true},
			"lambda/gpu_8x_a100_80gb@us-east-1 $14.32"},
		{"trusted: ranked, marked", true, Query{Providers: []string{"lambda"}, GPUs: specs(t, held(false), "A100-80GB")},
			"lambda/gpu_8x_a100_80gb@us-west-1 $1 held"},
	}
	for _, tt := range tests {
		for _, m := range []*Market{New(held(tt.trust)), nil} {
			var res Result
			var err error
			if m != nil {
				res, err = m.Browse(tt.q)
			} else {
				res, err = Browse(held(tt.trust), tt.q)
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := marks(res.Rows); got != tt.want {
				t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
			}
		}
	}
}
