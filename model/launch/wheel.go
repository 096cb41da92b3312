package launch

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Wheels are the PyTorch wheel variants gpuplan knows (wheelCUDA: each
// with its CUDA version and minimum driver, from the sources in
// stack.go's table), sorted. Options.Wheel must be one of them: the
// variant names the pip index URL written into launch files.
func Wheels() []string { return slices.Sorted(maps.Keys(wheelCUDA)) }

// CheckWheel refuses a wheel variant that is not one of Wheels ("" is
// the GPU's own, Stack.Wheel).
func CheckWheel(w string) error {
	if w == "" || wheelCUDA[w] != "" {
		return nil
	}
	if r := []rune(w); len(r) > 40 {
		w = string(r[:40]) + "…"
	}
	return fmt.Errorf("%q is not a PyTorch wheel variant gpuplan knows; want %s", w, strings.Join(Wheels(), ", "))
}
