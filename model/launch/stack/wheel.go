package stack

import (
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// wheels are the PyTorch CUDA wheel variants (the index
// download.pytorch.org/whl/VARIANT) of the CUDA versions PyTorch's
// releases 1.12 to 2.14 were built for, stable or experimental: pytorch/
// pytorch RELEASE.md, "Release Compatibility Matrix" (1.12: CUDA 11.3 and
// 11.6; 1.13: 11.6, 11.7; 2.0: 11.7, 11.8; 2.1–2.3: 11.8, 12.1; 2.4–2.5:
// 11.8, 12.1, 12.4; 2.6: 11.8, 12.4, 12.6; 2.7: 11.8, 12.6, 12.8; 2.8:
// 12.6, 12.8, 12.9; 2.9–2.11: 12.6, 12.8, 13.0; 2.12–2.14: 12.6, 13.0,
// 13.2). Older variants (cu118) still serve GPUs the current ones dropped.
var wheels = []string{"cu113", "cu116", "cu117", "cu118", "cu121", "cu124", "cu126", "cu128", "cu129", "cu130", "cu132"}

// rocmWheels are PyTorch's ROCm wheel variants (the same index,
// download.pytorch.org/whl/VARIANT) for AMD GPUs, as pytorch.org's
// "Previous PyTorch Versions" lists them: 2.4–2.6 rocm6.1, 2.5 rocm6.2,
// 2.6 rocm6.2.4, 2.7 rocm6.3, 2.8–2.9 rocm6.4, 2.10 rocm7.1.
var rocmWheels = []string{"rocm6.1", "rocm6.2", "rocm6.2.4", "rocm6.3", "rocm6.4", "rocm7.1"}

// ROCmWheel is the ROCm variant an AMD GPU's SkyPilot setup is pointed
// at: the newest whose PyTorch releases (2.8, 2.9) are both published.
const ROCmWheel = "rocm6.4"

// Wheels are the PyTorch wheel variants Options.Wheel may name, CUDA's
// then ROCm's: the variant becomes the pip index URL written into launch
// files, so only a variant PyTorch publishes is taken.
func Wheels() []string { return slices.Concat(wheels, rocmWheels) }

// CheckWheel refuses a wheel variant that is not one of Wheels ("" is
// the GPU's own, Stack.Wheel).
func CheckWheel(w string) error {
	if w == "" || slices.Contains(wheels, w) || slices.Contains(rocmWheels, w) {
		return nil
	}
	if r := []rune(w); len(r) > 40 {
		w = string(r[:40]) + "…"
	}
	return model.Msg("%q is not a PyTorch wheel variant gpuplan knows; want %s", w, strings.Join(Wheels(), ", "))
}
