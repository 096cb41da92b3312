package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// instanceFile mirrors the instances/<provider>.toml schema; the test
// decodes strictly, as the catalog loader does.
type instanceFile struct {
	SchemaVersion int    `toml:"schema_version"`
	Provider      string `toml:"provider"`
	Instance      []struct {
		Type         string    `toml:"type"`
		GPU          string    `toml:"gpu"`
		GPUCount     int       `toml:"gpu_count"`
		VCPUs        int       `toml:"vcpus"`
		MemoryGiB    float64   `toml:"memory_gib"`
		LocalNVMeGB  float64   `toml:"local_nvme_gb"`
		NetworkGbps  float64   `toml:"network_gbps"`
		Interconnect string    `toml:"interconnect"`
		Fabric       string    `toml:"fabric"`
		Retired      time.Time `toml:"retired"`
		RetiredSrc   string    `toml:"retired_source"`
		SkyPilotName string    `toml:"skypilot_accelerator"`
		CPUArch      string    `toml:"cpu_arch"`
		Source       string    `toml:"source"`
		AsOf         time.Time `toml:"as_of"`
		Prices       []struct {
			Region   string  `toml:"region"`
			OnDemand float64 `toml:"on_demand"`
			Spot     float64 `toml:"spot"`
			Flex     float64 `toml:"flex_start"`
			Reserved bool    `toml:"reservation"`
		} `toml:"prices"`
	} `toml:"instance"`
}

func decode(t *testing.T, path string) instanceFile {
	t.Helper()
	var f instanceFile
	md, err := toml.DecodeFile(path, &f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if extra := md.Undecoded(); len(extra) > 0 {
		t.Fatalf("%s: keys outside the schema: %q", path, extra)
	}
	return f
}

func TestGenerate(t *testing.T) {
	out := t.TempDir()
	var stderr bytes.Buffer
	code := run([]string{"-gpus", filepath.Join("testdata", "gpus.toml"), "-o", out, "-as-of", "2026-11-30",
		"-providers", "azure,gcp", filepath.Join("testdata", "catalog")}, &stderr)
	if code != 0 {
		t.Fatalf("run() = %d, stderr:\n%s", code, stderr.String())
	}

	az := decode(t, filepath.Join(out, "azure.toml"))
	if az.SchemaVersion != 1 || az.Provider != "azure" {
		t.Errorf("azure.toml: schema_version %d provider %q", az.SchemaVersion, az.Provider)
	}
	got := map[string]string{}
	for _, in := range az.Instance {
		s := in.GPU + "×" + itoa(in.GPUCount) + " " + in.Interconnect
		if !in.Retired.IsZero() {
			s += " retired " + in.Retired.Format(time.DateOnly)
		}
		got[in.Type] = s
		if in.AsOf.Format(time.DateOnly) != "2026-11-30" || !strings.Contains(in.Source, "SkyPilot catalog v8/azure/vms.csv") {
			t.Errorf("%s: as_of %v source %q", in.Type, in.AsOf, in.Source)
		}
	}
	want := map[string]string{
		"Standard_NC6s_v3":         "v100-16gb×1  retired 2025-09-30", // v8 wins over v6 (price 3.06, not 9.99)
		"Standard_NC40ads_H100_v5": "h100-nvl×1 ",
		"Standard_ND96isr_H100_v5": "h100-sxm×8 nvswitch", // the snapshot's 12 fixed
		"Standard_NC64as_T4_v3":    "t4×4 pcie",           // derived: T4 is a PCIe card
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("azure %s = %q, want %q", k, got[k], v)
		}
	}
	if p := az.Instance[0].Prices; az.Instance[0].Type == "Standard_NC40ads_H100_v5" && p[0].OnDemand != 6.98 {
		t.Errorf("prices %+v", p)
	}

	gcp := decode(t, filepath.Join(out, "gcp.toml"))
	prices := map[string]string{}
	for _, in := range gcp.Instance {
		for _, p := range in.Prices {
			prices[in.Type+" "+p.Region] = num(p.OnDemand) + "/" + num(p.Spot)
		}
	}
	wantPrices := map[string]string{
		"n1-standard-4+1xT4 us-central1": "0.54/0.12223", // 4.55998×4/96 = 0.19 + 0.35; 1.25352×4/96 + 0.07
		"n1-standard-8+1xT4 us-central1": "0.73/0.17446",
	}
	if len(prices) != len(wantPrices) {
		t.Errorf("gcp prices %v, want %v", prices, wantPrices)
	}
	for k, v := range wantPrices {
		if prices[k] != v {
			t.Errorf("gcp %s = %s, want %s", k, prices[k], v)
		}
	}
	if !strings.Contains(stderr.String(), "GPU rows for T4 skipped") { // mars-north1 has no N1 price
		t.Errorf("stderr lacks the unpaired T4 warning:\n%s", stderr.String())
	}
}

// TestOlderVersion: RunPod's v8 file was read in part, so the types it lacks
// come from v7 with their own source; a type both have stays from v8.
func TestOlderVersion(t *testing.T) {
	out := t.TempDir()
	var stderr bytes.Buffer
	code := run([]string{"-gpus", filepath.Join("..", "..", "catalog", "gpus.toml"), "-o", out, "-as-of", "2026-12-02",
		"-providers", "runpod", filepath.Join("testdata", "catalog")}, &stderr)
	if code != 0 {
		t.Fatalf("run() = %d, stderr:\n%s", code, stderr.String())
	}
	rp := decode(t, filepath.Join(out, "runpod.toml"))
	got := map[string]string{}
	for _, in := range rp.Instance {
		p := in.Prices[0]
		got[in.Type] = in.GPU + " " + p.Region + " " + num(p.OnDemand) + "/" + num(p.Spot)
		v7 := strings.Contains(in.Source, "v7/runpod/vms.csv") && strings.Contains(in.Source, "older SkyPilot catalog version than v8")
		if v7 != (in.Type == "1x_H100_SECURE") {
			t.Errorf("%s: source %q", in.Type, in.Source)
		}
	}
	want := map[string]string{
		"1x_RTX4090_SECURE": "rtx-4090 IS 0.74/0",  // v8's row (0.74, its spot placeholder dropped), not v7's 0.69/0.34
		"1x_H100_SECURE":    "h100-pcie US 2.39/0", // v7 only; the plain H100 beside H100-SXM is the PCIe card
	}
	if len(got) != len(want) { // 1x_L40S_SECURE dropped: v7's spot and on-demand columns swapped
		t.Errorf("types %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("runpod %s = %q, want %q", k, got[k], v)
		}
	}
}

func TestRunUsage(t *testing.T) {
	var stderr bytes.Buffer
	if code := run([]string{"-o", t.TempDir()}, &stderr); code != 2 {
		t.Errorf("run() without -gpus = %d, want 2", code)
	}
	if code := run([]string{"-gpus", "x", "-o", "y", "-as-of", "30.11.2026", "dir"}, &stderr); code != 2 {
		t.Errorf("run() with a bad date = %d, want 2", code)
	}
}

func TestTOMLString(t *testing.T) {
	for in, want := range map[string]string{
		`plain`:                   `"plain"`,
		`say "hi" \ there`:        `"say \"hi\" \\ there"`,
		"tab\tnew\nline\x01":      `"tab\tnew\nline\u0001"`,
		"Hafnarfjarðarkaupstaður": `"Hafnarfjarðarkaupstaður"`,
	} {
		if got := config.QuoteTOML(in); got != want {
			t.Errorf("QuoteTOML(%q) = %s, want %s", in, got, want)
		}
	}
}

func itoa(n int) string { return num(float64(n)) }

// TestNVLinkNameIsNotSXM: "NVLink" in a type's name does not make its
// GPUs an SXM board on NVSwitch: Hyperstack's n3-H100x8-NVLink is
// H100-80G-PCIe-NVLink, eight PCIe cards bridged in pairs, and
// Fluidstack's H100_NVLINK_80GB::8 has that flavor's shape. Such a type
// keeps an unstated interconnect unless a fix states it; a type named
// SXM still gets NVSwitch.
func TestNVLinkNameIsNotSXM(t *testing.T) {
	cat, err := loadGPUs(filepath.Join("testdata", "gpus.toml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ typ, want string }{
		{"H100_NVLINK_80GB::8", ""},
		{"n3-H100x8-NVLink", ""},
		{"gpu_8x_h100_sxm5", "nvswitch"},
		{"p5.48xlarge", "nvswitch"},
	} {
		in := model.Instance{Provider: "p", Type: tt.typ, GPU: "h100-sxm", GPUCount: 8}
		enrich(cat, &in, fix{})
		if in.Interconnect != tt.want {
			t.Errorf("%s: interconnect %q, want %q (source %q)", tt.typ, in.Interconnect, tt.want, in.Source)
		}
	}
}
