package cli

import (
	"encoding/json"
	"testing"
)

// TestCNNAMDAtPeerSpeed: a CDNA 3 GPU trains a CNN at its NVIDIA peer's
// speed, not at its higher bandwidth (walk w18: ResNet-50 on 8×MI300X was
// 2.2× faster than on H100 and ranked first). With channels_last no layout
// factor sets them apart, so MI300X is no faster than H100
// (model.CDNA3BandwidthRatio).
func TestCNNAMDAtPeerSpeed(t *testing.T) {
	hours := func(gpu string) float64 {
		code, out, stderr := runCLI(t, "estimate", "--model", "resnet50", "--dataset-samples", "1.28M", "--epochs", "90",
			"--gpus", "8", "--channels-last", "--gpu", gpu, "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", gpu, code, stderr)
		}
		var doc struct {
			Compute struct {
				Hours float64 `json:"hours"`
			} `json:"compute"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Compute.Hours <= 0 {
			t.Fatalf("%s: %v, hours %v", gpu, err, doc.Compute.Hours)
		}
		return doc.Compute.Hours
	}
	h100, mi300x := hours("h100-sxm"), hours("mi300x")
	if mi300x < 0.99*h100 {
		t.Errorf("ResNet-50 on 8×MI300X %.2f h, on 8×H100 %.2f h: faster than its peer", mi300x, h100)
	}
}
