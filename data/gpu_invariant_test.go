package data

import (
	"strings"
	"testing"
)

// rateExceptions are GPUs that priced offers use without a memory
// bandwidth or a peak TFLOPS in the catalog, each with why the figure is
// not shipped. Every other GPU of a priced offer must carry both, or the
// estimator could time it on the figures it has (a roofline without its
// memory roof ranks a GPU as if its memory were infinitely fast).
var rateExceptions = map[string]string{
	// AMD publishes no datasheet for this cloud-only part; press reports
	// only its FP32 rate. frameworkSupport refuses it for every framework
	// (no ROCm support for RDNA1), so no offer on it is ever timed.
	"radeon-pro-v520": "no vendor datasheet; unsupported by ROCm, never an offer",
}

// TestPricedGPUsHaveRates: every GPU that an offered, priced instance
// carries has a memory bandwidth and a peak TFLOPS, or is named in
// rateExceptions with its reason; and no exception is stale.
func TestPricedGPUsHaveRates(t *testing.T) {
	cat, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for i := range cat.Instances {
		in := &cat.Instances[i]
		if !in.Offered() || len(in.Prices) == 0 {
			continue
		}
		used[in.GPU] = true
	}
	for key := range used {
		g, err := cat.GPU(key)
		if err != nil {
			t.Errorf("instance GPU %q: %v", key, err)
			continue
		}
		complete := g.MemoryBandwidthGBps > 0 && max(g.FP32TFLOPS, g.TF32TFLOPS, g.FP16TFLOPS, g.BF16TFLOPS) > 0
		why, excepted := rateExceptions[key]
		switch {
		case !complete && !excepted:
			t.Errorf("%s: priced offers use it without a memory bandwidth (%g GB/s) or a peak TFLOPS (fp32 %g, fp16 %g): add the datasheet figures or a reasoned rateExceptions entry",
				key, g.MemoryBandwidthGBps, g.FP32TFLOPS, g.FP16TFLOPS)
		case complete && excepted:
			t.Errorf("%s has its rates now; drop its rateExceptions entry (%s)", key, why)
		}
	}
	for key := range rateExceptions {
		if !used[key] {
			t.Errorf("rateExceptions names %s, which no priced offer uses", key)
		}
	}
}

// TestAcceleratorFormFactor: the embedded catalog never files a SkyPilot
// accelerator named PCIe under an SXM/NVLink module, or one named SXM
// under a PCIe card, and never puts NVSwitch between PCIe cards (new-user
// walk: Hyperstack's "H100-80G-PCIe-NVLink" was an 8 × h100-sxm NVSwitch
// board, first for `offers H100:8 --nvlink` and timed 24% too fast).
func TestAcceleratorFormFactor(t *testing.T) {
	cat, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	named := 0
	for i := range cat.Instances {
		in := &cat.Instances[i]
		g, err := cat.GPU(in.GPU)
		if err != nil {
			t.Fatalf("%s/%s: %v", in.Provider, in.Type, err)
		}
		accel := strings.ToLower(in.SkyPilotAccelerator)
		pcie := g.Interconnect == "pcie"
		switch {
		case strings.Contains(accel, "pcie") && (!pcie || strings.HasSuffix(g.Key, "-sxm")):
			t.Errorf("%s/%s: accelerator %s on %s, an %s module", in.Provider, in.Type, in.SkyPilotAccelerator, g.Key, g.Interconnect)
		case strings.Contains(accel, "sxm") && pcie:
			t.Errorf("%s/%s: accelerator %s on %s, a PCIe card", in.Provider, in.Type, in.SkyPilotAccelerator, g.Key)
		}
		if pcie && in.Interconnect == "nvswitch" {
			t.Errorf("%s/%s: NVSwitch between %s PCIe cards", in.Provider, in.Type, g.Key)
		}
		if strings.Contains(accel, "pcie") || strings.Contains(accel, "sxm") {
			named++
		}
	}
	if named < 10 {
		t.Errorf("only %d instances name a form factor in their accelerator: the test checks too little", named)
	}
}
