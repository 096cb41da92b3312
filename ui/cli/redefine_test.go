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
usable_memory_mib = 15360
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
