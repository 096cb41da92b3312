package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// gpuRedef is attack round 10's overlay: the embedded t4 made 800 GiB.
const gpuRedef = `schema_version = 1
[[gpu]]
key = "t4"
name = "NVIDIA T4"
aliases = ["T4"]
vendor = "nvidia"
architecture = "turing"
compute_capability = "7.5"
memory_gib = 800
usable_memory_mib = 15102
memory_bandwidth_gbps = 320
fp32_tflops = 8.1
fp16_tflops = 65
int8_tops = 130
interconnect = "pcie"
interconnect_gbps = 32
tdp_w = 70
source = "x"
as_of = 2026-12-01
`

// TestRedefinitionRefusedUnlessTrusted: an overlay that changes an
// embedded GPU's figures is refused in one line (exit 2) saying what
// changed and how to go on; with --trust-overlay the command runs and
// says so in one warning line naming the file and the change.
func TestRedefinitionRefusedUnlessTrusted(t *testing.T) {
	path := writeFile(t, "redef.toml", gpuRedef)
	code, _, errs := runCLI(t, "offers", "--catalog", path, "--providers", "gcp")
	want := `catalog ` + path + `: gpu "t4" redefines the embedded entry (memory_gib 16 → 800); use a new key for your own entry, or pass --trust-overlay to accept it`
	if code != 2 || strings.TrimSpace(errs) != "gpuplan: "+want {
		t.Fatalf("exit %d, stderr %q; want exit 2 and %q", code, errs, want)
	}
	code, out, errs := runCLI(t, "offers", "--catalog", path, "--providers", "gcp", "--trust-overlay")
	warn := `gpuplan: warning: catalog ` + path + `: gpu "t4" redefines the embedded entry (memory_gib 16 → 800), accepted with --trust-overlay`
	if code != 0 || strings.Count(errs, warn) != 1 || !strings.Contains(out, "800") {
		t.Fatalf("--trust-overlay: exit %d, stderr %q, stdout has 800 GiB: %v", code, errs, strings.Contains(out, "800"))
	}
}

// TestOverlayDiscountMarked: a reserved-1y price from an overlay's
// [[discount]] is the overlay's in offers' JSON (origin = the file; it
// said "embedded", attack round 10 S1), and 0.99 is refused with exit 2.
func TestOverlayDiscountMarked(t *testing.T) {
	disc := func(f string) string {
		return `schema_version = 1
[[discount]]
provider = "aws"
term = "reserved-1y"
fraction = ` + f + `
prefixes = ["p5."]
source = "our contract"
as_of = 2026-12-01
`
	}
	path := writeFile(t, "disc.toml", disc("0.99"))
	if code, _, errs := runCLI(t, "offers", "--catalog", path, "--pricing", "reserved-1y"); code != 2 || !strings.Contains(errs, "fraction 0.99 is above 0.72") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Fatalf("0.99: exit %d, %q", code, errs)
	}
	path = writeFile(t, "disc.toml", disc("0.5"))
	code, out, errs := runCLI(t, "offers", "--catalog", path, "--pricing", "reserved-1y", "--providers", "aws", "--json")
	var v struct {
		Rows []struct {
			InstanceType string `json:"instance_type"`
			Origin       string `json:"origin"`
		}
	}
	if err := json.Unmarshal([]byte(out), &v); code != 0 || err != nil || len(v.Rows) == 0 {
		t.Fatalf("exit %d, %v: %s", code, err, errs)
	}
	for _, r := range v.Rows {
		if p5 := strings.HasPrefix(r.InstanceType, "p5."); p5 != (r.Origin == path) {
			t.Errorf("%s: origin %q (want %s for p5. types only)", r.InstanceType, r.Origin, path)
		}
	}
	// Serving plans (recommend --task inference) mark it too.
	code, out, errs = runCLI(t, "recommend", "--model", "llama-3.1-8b", "--task", "inference", "--output-tokens", "200",
		"--catalog", path, "--pricing", "reserved-1y", "--providers", "aws")
	if code != 0 || !strings.Contains(out, "* price from overlay "+path) {
		t.Errorf("serving: exit %d, no overlay mark:\n%s%s", code, out, errs)
	}
}

// gpuTakeover is attack round 11's S2 overlay: an 800 GiB GPU under a new
// key with the embedded H100 SXM's display name.
const gpuTakeover = `schema_version = 1
[[gpu]]
key = "h100-big"
name = "NVIDIA H100 SXM5 80GB"
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

// TestNameTakeoverRefusedUnlessTrusted: S2's copy of a display name is
// refused in one line (exit 2) as a redefinition is; with --trust-overlay
// the command runs and warns in one line.
func TestNameTakeoverRefusedUnlessTrusted(t *testing.T) {
	path := writeFile(t, "take.toml", gpuTakeover)
	args := []string{"estimate", "--catalog", path, "--model", "llama-3.1-8b", "--task", "finetune", "--gpu", "NVIDIA H100 SXM5 80GB"}
	code, out, errs := runCLI(t, args...)
	want := `gpuplan: catalog ` + path + `: gpu "h100-big" is named "NVIDIA H100 SXM5 80GB", which reads as the embedded gpu "h100-sxm"; lookups by that name would reach the file's entry: rename it, or pass --trust-overlay to accept it`
	if code != 2 || strings.TrimSpace(errs) != want || out != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, errs, want)
	}
	code, _, errs = runCLI(t, append(args, "--trust-overlay")...)
	warn := `gpuplan: warning: catalog ` + path + `: gpu "h100-big" is named "NVIDIA H100 SXM5 80GB", which reads as the embedded gpu "h100-sxm", accepted with --trust-overlay: lookups by that name reach the file's entry`
	if code != 0 || strings.Count(errs, warn) != 1 {
		t.Fatalf("--trust-overlay: exit %d, stderr %q; want the line %q", code, errs, warn)
	}
}

// TestInstanceReshapeRefusedUnlessTrusted: S4's gpu_1x_gh200 made x86_64
// is refused in one line naming the change; with --trust-overlay export
// writes x86_64 images and the command warns.
func TestInstanceReshapeRefusedUnlessTrusted(t *testing.T) {
	path := writeFile(t, "inst.toml", `schema_version = 1
[[instance]]
provider = "lambda"
type = "gpu_1x_gh200"
gpu = "gh200"
gpu_count = 1
vcpus = 64
memory_gib = 432
cpu_arch = "x86_64"
source = "x"
as_of = 2026-12-01
prices = [{ region = "us-east-1", on_demand = 2.29 }]
`)
	args := []string{"offers", "GH200:1", "--providers", "lambda", "--catalog", path}
	code, _, errs := runCLI(t, args...)
	want := `gpuplan: catalog ` + path + `: instance "lambda/gpu_1x_gh200" redefines the embedded entry (cpu_arch "arm64" → "x86_64"); use a new key for your own entry, or pass --trust-overlay to accept it`
	if code != 2 || strings.TrimSpace(errs) != want {
		t.Fatalf("exit %d, stderr %q; want exit 2 and %q", code, errs, want)
	}
	code, _, errs = runCLI(t, append(args, "--trust-overlay")...)
	warn := `gpuplan: warning: catalog ` + path + `: instance "lambda/gpu_1x_gh200" redefines the embedded entry (cpu_arch "arm64" → "x86_64"), accepted with --trust-overlay`
	if code != 0 || strings.Count(errs, warn) != 1 {
		t.Fatalf("--trust-overlay: exit %d, stderr %q; want the line %q", code, errs, warn)
	}
}

// TestCurrencyPatchRefused: S6's CNY patch of a USD type exits 2 with one
// line.
func TestCurrencyPatchRefused(t *testing.T) {
	path := writeFile(t, "cny.toml", `schema_version = 1
[[instance]]
provider = "aws"
type = "p5.48xlarge"
currency = "CNY"
source = "x"
prices = [{ region = "us-east-1", on_demand = 400.0 }]
`)
	code, out, errs := runCLI(t, "offers", "--catalog", path, "--usd-cny", "7.1", "--providers", "aws")
	want := `gpuplan: ` + path + `: instance "p5.48xlarge" (provider aws): currency CNY, but the catalog prices the type in USD; an overlay cannot change a type's currency: give its prices in USD`
	if code != 2 || strings.TrimSpace(errs) != want || out != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, errs, want)
	}
}
