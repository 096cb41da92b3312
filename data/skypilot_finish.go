package data

import (
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// finishImport applies the facts the SkyPilot rows do not carry that can
// remove prices: which modes a GCP type is sold in (gcpAvailability).
// Types left with no price are dropped. (The host CPU architecture,
// hostArch, is set as the instances are built.) Other providers' instances
// come back untouched: a 100,000-row file is not walked again.
func finishImport(provider string, insts []model.Instance) []model.Instance {
	if provider != "gcp" {
		return insts
	}
	out := insts[:0]
	for i := range insts {
		in := &insts[i]
		gcpAvailability(in)
		if len(in.Prices) > 0 {
			out = append(out, *in)
		}
	}
	return out
}

// armGPUs are GPUs sold only on NVIDIA Grace (Arm Neoverse V2) superchips:
// GH200 "Grace Hopper", GB200 and GB300 "Grace Blackwell" (NVIDIA GH200 and
// GB200 NVL72 product pages: one Grace CPU per one or two GPUs).
var armGPUs = map[string]bool{"gh200": true, "gb200": true, "gb300": true}

// hostArch returns "arm64" for Grace superchips and AWS Graviton hosts
// (G5g: "AWS Graviton2 processors and NVIDIA T4G Tensor Core GPUs", AWS
// EC2 G5g page), else "" (x86_64).
func hostArch(provider, typ, gpu string) string {
	if armGPUs[gpu] || provider == "aws" && strings.HasPrefix(typ, "g5g.") {
		return "arm64"
	}
	return ""
}
