package data

import (
	"math"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// h100Copy is attack round 11's S2 GPU with its key, name and aliases
// given: an H100's figures made 800 GiB under a new key.
func h100Copy(key, name, aliases string) string {
	return `schema_version = 1
[[gpu]]
key = "` + key + `"
name = "` + name + `"
aliases = [` + aliases + `]
vendor = "nvidia"
architecture = "hopper"
memory_gib = 800
memory_bandwidth_gbps = 3350
fp32_tflops = 67
tf32_tflops = 494.5
fp16_tflops = 989.5
bf16_tflops = 989.5
fp8_tflops = 1979
int8_tops = 1979
compute_capability = "9.0"
interconnect = "nvlink"
interconnect_gbps = 900
tdp_w = 700
source = "x"
as_of = 2026-11-30
`
}

// llamaCopy is S2's model: a 1.24B shape under the key of the embedded
// 8B's alias.
func llamaCopy(key, name, aliases string) string {
	return `schema_version = 1
[[model]]
key = "` + key + `"
name = "` + name + `"
aliases = [` + aliases + `]
family = "decoder"
published_params = 1235814400
params_source = "x"
layers = 16
hidden = 2048
heads = 32
kv_heads = 8
head_dim = 64
ffn = 8192
gated_mlp = true
vocab = 128256
tied_embeddings = true
max_positions = 131072
default_batch = 4
default_seq_len = 4096
source = "x"
as_of = 2026-11-30
`
}

// Attack round 11, S2: an overlay entry under a new key whose key, name
// or alias reads as an embedded entry's (case, separators or look-alike
// characters aside) would answer lookups meant for the embedded entry
// ("NVIDIA H100 SXM5 80GB" reached an 800 GiB copy). It is recorded as a
// redefinition (refused unless --trust-overlay).
func TestOverlayNameTakeoverRecorded(t *testing.T) {
	base := sharedCatalog()
	if g, err := base.GPU("NVIDIA H100 SXM5 80GB"); err != nil || g.Key != "h100-sxm" {
		t.Fatalf("embedded: NVIDIA H100 SXM5 80GB is %v, %v; rewrite the cases below", g, err)
	}
	if m, err := base.Model("Llama-3.1-8B-Instruct"); err != nil || m.Key != "llama-3.1-8b" {
		t.Fatalf("embedded: Llama-3.1-8B-Instruct is %v, %v; rewrite the cases below", m, err)
	}
	for _, tc := range []struct {
		name, body           string
		kind, key, by, takes string // by: the name that reads as takes; "" when none
	}{
		{"gpu name copied", h100Copy("h100-big", "NVIDIA H100 SXM5 80GB", ""), "gpu", "h100-big", "NVIDIA H100 SXM5 80GB", "h100-sxm"},
		{"gpu name in other case and separators", h100Copy("h100-big", "nvidia_h100_sxm5_80gb", ""), "gpu", "h100-big", "nvidia_h100_sxm5_80gb", "h100-sxm"},
		{"gpu alias a look-alike (O for 0)", h100Copy("h100-big", "Big H100", `"H1OO-SXM"`), "gpu", "h100-big", "H1OO-SXM", "h100-sxm"},
		{"gpu key an embedded key without its hyphen", h100Copy("h100sxm", "Big H100", ""), "gpu", "h100sxm", "h100sxm", "h100-sxm"},
		{"gpu with names of its own", h100Copy("h100-big", "Big H100 (ours)", `"big-h100"`), "", "", "", ""},
		{"model key an embedded alias", llamaCopy("llama-3.1-8b-instruct", "Llama 3.1 8B", `"Llama-3.1-8B-Instruct"`), "model", "llama-3.1-8b-instruct", "llama-3.1-8b-instruct", "llama-3.1-8b"},
		{"model name copied", llamaCopy("tiny-llama-ours", "Llama 3.1 8B", ""), "model", "tiny-llama-ours", "Llama 3.1 8B", "llama-3.1-8b"},
		{"model with names of its own", llamaCopy("tiny-llama-ours", "Tiny Llama (ours)", `"ours/tiny-llama"`), "", "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _, path, err := loadOverlay(t, tc.body)
			if err != nil {
				t.Fatal(err)
			}
			if tc.takes == "" {
				if len(c.Redefined) != 0 {
					t.Fatalf("Redefined = %+v, want none", c.Redefined)
				}
				return
			}
			want := model.Redefinition{Origin: path, Kind: tc.kind, Key: tc.key, Name: tc.by, Takes: tc.takes}
			if len(c.Redefined) != 1 || c.Redefined[0].Origin != want.Origin || c.Redefined[0].Kind != want.Kind || c.Redefined[0].Key != want.Key ||
				c.Redefined[0].Name != want.Name || c.Redefined[0].Takes != want.Takes || len(c.Redefined[0].Changes) != 0 {
				t.Fatalf("Redefined = %+v, want [%+v]", c.Redefined, want)
			}
		})
	}
}

// The embedded catalog's own entries take none of each other's names, by
// the same test: otherwise a copy of an embedded file in catalog.d would
// be refused.
func TestEmbeddedNamesDistinct(t *testing.T) {
	base := sharedCatalog()
	gpus := embeddedNames(base.GPUs, func(g *model.GPU) (string, string, []string) { return g.Key, g.Name, g.Aliases })
	for i := range base.GPUs {
		g := &base.GPUs[i]
		if by, takes := gpus.takes(g.Key, g.Name, g.Aliases); takes != "" {
			t.Errorf("gpu %s: %q reads as gpu %s", g.Key, by, takes)
		}
	}
	models := embeddedNames(base.Models, func(m *model.Architecture) (string, string, []string) { return m.Key, m.Name, m.Aliases })
	for i := range base.Models {
		m := &base.Models[i]
		if by, takes := models.takes(m.Key, m.Name, m.Aliases); takes != "" {
			t.Errorf("model %s: %q reads as model %s", m.Key, by, takes)
		}
	}
}

// Attack round 11, S4: an overlay entry for an embedded type that
// changes its host (the embedded gpu_1x_gh200, a Grace arm64 host with
// 64 vCPUs and 432 GiB, made x86_64, so export wrote amd64 images) is a
// redefinition; filling in a figure the catalog does not know, or a
// price patch, is not.
func TestOverlayInstanceReshapeRecorded(t *testing.T) {
	base := sharedCatalog()
	var gh *model.Instance
	for i := range base.Instances {
		if in := &base.Instances[i]; in.Provider == "lambda" && in.Type == "gpu_1x_gh200" {
			gh = in
		}
	}
	if gh == nil || gh.CPUArch != "arm64" || gh.VCPUs != 64 || gh.MemoryGiB != 432 || gh.NetworkGbps != 0 || gh.GPU != "gh200" || gh.GPUCount != 1 {
		t.Fatalf("embedded lambda/gpu_1x_gh200 changed (%+v): rewrite the cases below", gh)
	}
	entry := func(extra string) string {
		return `schema_version = 1
[[instance]]
provider = "lambda"
type = "gpu_1x_gh200"
` + extra + `source = "x"
as_of = 2026-12-01
prices = [{ region = "us-east-1", on_demand = 2.29 }]
`
	}
	const whole = "gpu = \"gh200\"\ngpu_count = 1\n"
	for _, tc := range []struct {
		name, extra string
		want        []string // nil: not a redefinition
	}{
		{"cpu_arch", whole + "vcpus = 64\nmemory_gib = 432\ncpu_arch = \"x86_64\"\n", []string{`cpu_arch "arm64" → "x86_64"`}},
		{"vcpus and memory", whole + "vcpus = 8\nmemory_gib = 1000\n", []string{"vcpus 64 → 8", "memory_gib 432 → 1000"}},
		{"cpu_arch on a price patch", "cpu_arch = \"x86_64\"\n", []string{`cpu_arch "arm64" → "x86_64"`}},
		{"the same host, restated", whole + "vcpus = 64\nmemory_gib = 432\ncpu_arch = \"arm64\"\n", nil},
		{"a figure the catalog does not know", "network_gbps = 100\n", nil},
		{"a price patch", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _, path, err := loadOverlay(t, entry(tc.extra))
			if err != nil {
				t.Fatal(err)
			}
			wantRedefined(t, c, path, "instance", "lambda/gpu_1x_gh200", tc.want)
		})
	}
}

// S4: an overlay that retires types the embedded catalog offers says so,
// one line per file with the count and the first few; retiring a type
// already retired, or a type of the file's own, says nothing.
func TestOverlayRetirementWarned(t *testing.T) {
	retire := func(types ...string) string {
		b := "schema_version = 1\n"
		for _, ty := range types {
			b += `[[instance]]
provider = "lambda"
type = "` + ty + `"
retired = 2026-12-01
retired_source = "x"
source = "x"
prices = [{ region = "us-east-1", on_demand = 6.99 }]
`
		}
		return b
	}
	for _, tc := range []struct {
		name  string
		types []string
		want  string // after "catalog PATH: "; "" for no line
	}{
		{"one", []string{"gpu_1x_b200_sxm6"},
			"retires 1 type the embedded catalog offers (lambda/gpu_1x_b200_sxm6); recommend and offers do not rank retired types: remove retired from the file to rank them again"},
		{"five", []string{"gpu_1x_b200_sxm6", "gpu_1x_gh200", "gpu_1x_h100_pcie", "gpu_1x_a10", "gpu_8x_h100_sxm5"},
			"retires 5 types the embedded catalog offers (lambda/gpu_1x_b200_sxm6, lambda/gpu_1x_gh200, lambda/gpu_1x_h100_pcie and 2 more); recommend and offers do not rank retired types: remove retired from the file to rank them again"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, warns, path, err := loadOverlay(t, retire(tc.types...))
			if err != nil {
				t.Fatal(err)
			}
			want := "catalog " + path + ": " + tc.want
			if strings.Count(warns, "retires") != 1 || !strings.Contains(warns, want) {
				t.Errorf("warnings:\n%s\nwant the line\n%s", warns, want)
			}
			for i := range c.Instances {
				if in := &c.Instances[i]; in.Provider == "lambda" && in.Type == tc.types[0] && in.Offered() {
					t.Errorf("%s still offered", in.Type)
				}
			}
		})
	}
	// Not an embedded offered type: no line.
	_, warns, _, err := loadOverlay(t, `schema_version = 1
[[instance]]
provider = "lambda"
type = "gpu_1x_ours"
gpu = "h100-sxm"
gpu_count = 1
vcpus = 26
memory_gib = 225
retired = 2026-12-01
retired_source = "x"
source = "x"
as_of = 2026-12-01
prices = [{ region = "us-east-1", on_demand = 2.49 }]
`)
	if err != nil || strings.Contains(warns, "retires") {
		t.Errorf("own type: %v, warnings %q", err, warns)
	}
}

// Attack round 11, S6: currency = "CNY" on a patch of a USD type turned
// its kept USD prices into CNY ones (p5.48xlarge at $8.29/h in
// eu-north-1, where it is $58.89). An overlay cannot change a type's
// currency (docs/data.md gives currency for new types only); the same
// currency restated loads.
func TestOverlayCurrencyUnchanged(t *testing.T) {
	patch := func(cur string) string {
		return `schema_version = 1
[[instance]]
provider = "aws"
type = "p5.48xlarge"
currency = "` + cur + `"
source = "x"
prices = [{ region = "us-east-1", on_demand = 400.0 }]
`
	}
	_, _, path, err := loadOverlay(t, patch("CNY"))
	want := path + `: instance "p5.48xlarge" (provider aws): currency CNY, but the catalog prices the type in USD; an overlay cannot change a type's currency: give its prices in USD`
	if err == nil || err.Error() != want {
		t.Errorf("CNY patch: error %v\nwant %s", err, want)
	}
	c, _, _, err := loadOverlay(t, patch("USD"))
	if err != nil {
		t.Fatalf("USD patch: %v", err)
	}
	if in, r := regionOf(t, c, "aws", "p5.48xlarge", "eu-north-1"); in.PriceCurrency() != "USD" || r.OnDemandUSD < 50 {
		t.Errorf("USD patch: eu-north-1 %s %v", in.PriceCurrency(), r.OnDemandUSD)
	}
}

// gpuFigureMax's datasheet figures are the embedded catalog's largest,
// each from the GPU it names: a new GPU above one moves the bound.
func TestGPUFigureMaxSourced(t *testing.T) {
	base := sharedCatalog()
	raw := func(g *model.GPU) rawGPU {
		return rawGPU{MemoryBandwidthGBps: g.MemoryBandwidthGBps, FP32TFLOPS: g.FP32TFLOPS, TF32TFLOPS: g.TF32TFLOPS,
			FP16TFLOPS: g.FP16TFLOPS, BF16TFLOPS: g.BF16TFLOPS, FP8TFLOPS: g.FP8TFLOPS, INT8TOPS: g.INT8TOPS,
			InterconnectGBps: g.InterconnectGBps, TDPWatts: g.TDPWatts}
	}
	for _, m := range gpuFigureMax {
		largest, by := 0.0, ""
		for i := range base.GPUs {
			r := raw(&base.GPUs[i])
			if v := m.of(&r); v > largest {
				largest, by = v, base.GPUs[i].Key
			}
		}
		if largest != m.datasheet {
			t.Errorf("%s: gpuFigureMax has %s's %v, the catalog's largest is %s's %v", m.key, m.gpu, m.datasheet, by, largest)
		} else if g, err := base.GPU(m.gpu); err != nil || func() float64 { r := raw(g); return m.of(&r) }() != largest {
			t.Errorf("%s: %s is not the GPU with %v", m.key, m.gpu, largest)
		}
	}
	major := 0
	for i := range base.GPUs {
		if a, _, ok := strings.Cut(base.GPUs[i].ComputeCapability, "."); ok && base.GPUs[i].Vendor == "nvidia" {
			n := 0
			for _, c := range a {
				n = n*10 + int(c-'0')
			}
			major = max(major, n)
		}
	}
	if major != maxCCMajor {
		t.Errorf("maxCCMajor %d, the catalog's largest major is %d", maxCCMajor, major)
	}
}

// Attack round 11, minor: a [[gpu]] with absurd figures is refused in
// one line; four times the largest datasheet figure loads.
func TestOverlayGPUFiguresBounded(t *testing.T) {
	for _, tc := range []struct{ name, figure, cc, refused string }{
		{"1e12 TFLOPS", "bf16_tflops = 1e12", "9.0", "bf16_tflops 1e+12 is above 10066.4, four times the largest datasheet figure in the embedded catalog (mi355x's 2516.6); check the unit (per GPU, dense, TFLOPS, GB/s, W)"},
		{"bandwidth in MB/s", "memory_bandwidth_gbps = 3350000", "9.0", "memory_bandwidth_gbps 3.35e+06 is above 32000, four times the largest datasheet figure in the embedded catalog (mi355x's 8000); check the unit (per GPU, dense, TFLOPS, GB/s, W)"},
		{"compute capability 99.9", "bf16_tflops = 989.5", "99.9", `compute_capability "99.9": major 99 is above 24, twice the newest in the embedded catalog (12.x, Blackwell RTX); write the CUDA compute capability NVIDIA lists for the GPU`},
		{"at the bounds", "bf16_tflops = 10066.4", "24.0", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, path, err := loadOverlay(t, `schema_version = 1
[[gpu]]
key = "big-ours"
name = "Big (ours)"
vendor = "nvidia"
architecture = "hopper"
memory_gib = 80
`+tc.figure+`
compute_capability = "`+tc.cc+`"
source = "x"
as_of = 2026-11-30
`)
			if tc.refused == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			want := path + `: gpu "big-ours": ` + tc.refused + "; fix the file, or leave it out of --catalog"
			if err == nil || err.Error() != want {
				t.Errorf("error %v\nwant %s", err, want)
			}
		})
	}
}

// Attack round 11, minor: a [[discount]] for a provider no type has
// ("*", "AWS") was accepted and did nothing; it is refused in one line.
func TestOverlayDiscountProviderKnown(t *testing.T) {
	for _, tc := range []struct{ provider, refused string }{
		{"*", `discount provider "*": no instance type has that provider, so the discount would apply to nothing; write one provider as the catalog spells it, lowercase (aws, azure, gcp: gpuplan catalog instances lists them)`},
		{"AWS", `discount provider "AWS": no instance type has that provider; write "aws", as the catalog spells it`},
		{"aws", ""},
	} {
		t.Run(tc.provider, func(t *testing.T) {
			_, _, path, err := loadOverlay(t, `schema_version = 1
[[discount]]
provider = "`+tc.provider+`"
term = "reserved-1y"
fraction = 0.3
prefixes = ["p5."]
source = "our contract"
as_of = 2026-12-01
`)
			if tc.refused == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if want := path + ": " + tc.refused; err == nil || err.Error() != want {
				t.Errorf("error %v\nwant %s", err, want)
			}
		})
	}
}

// Attack round 11, S6: a CNY type of a provider that sells the same GPU
// in USD is held, once converted, below the peer guard's bound as a USD
// price is: aws sells H100 SXM at $6.88 per GPU-hour at the cheapest
// (p5.48xlarge and p5.4xlarge, us-east-1: $55.04/8 and $6.88), so the
// bound is 0.4 × 6.88 = $2.752 on demand, above the H100 floor $0.645;
// spot keeps the floor $0.40075, above 0.1 × p5.48xlarge's $1.4067875.
// ¥100/h for 8 GPUs at 7.1 is $1.761 per GPU-hour: held; ¥200 ($3.52):
// ranked.
func TestOverlayCNYPeerGuarded(t *testing.T) {
	c, _, _, err := loadOverlay(t, `schema_version = 1
[[instance]]
provider = "aws"
type = "p5-cny"
gpu = "h100-sxm"
gpu_count = 8
vcpus = 192
memory_gib = 2048
currency = "CNY"
source = "x"
as_of = 2026-12-01
prices = [{ region = "us-east-1", on_demand = 100.0 }, { region = "us-east-2", on_demand = 200.0 }]
`)
	if err != nil {
		t.Fatal(err)
	}
	in, cheap := regionOf(t, c, "aws", "p5-cny", "us-east-1")
	_, dear := regionOf(t, c, "aws", "p5-cny", "us-east-2")
	if f := in.CurrencyFloor; f == nil || math.Abs(f.OnDemandUSD-2.752) > 1e-9 || f.SpotUSD != 0.40075 {
		t.Fatalf("CurrencyFloor %+v, want {2.752 0.40075}", f)
	}
	rates := map[string]float64{"CNY": 1 / 7.1}
	if !model.HeldAt(in, cheap, rates) || model.HeldAt(in, dear, rates) {
		t.Errorf("held: ¥100 %v (want true), ¥200 %v (want false)", model.HeldAt(in, cheap, rates), model.HeldAt(in, dear, rates))
	}
}
