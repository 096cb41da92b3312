package launch_test

import (
	"errors"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/launch/stack"
)

// Options.Wheel is one of the known variants or the GPU's own.
func TestNewPlanWheelKnownOnly(t *testing.T) {
	_, o := catalogOffer(t, "aws", "g5.2xlarge", 1, model.OnDemand)
	_, err := launch.NewPlan(o.Estimate.Workload, o, launch.Options{Wheel: "cu126 --index-url https://evil.example"})
	want := `cannot plan the launch: wheel "cu126 --index-url https://evil.example" is not a PyTorch wheel variant gpuplan knows; want cu113, cu116, cu117, cu118, cu121, cu124, cu126, cu128, cu129, cu130, cu132, rocm6.1, rocm6.2, rocm6.2.4, rocm6.3, rocm6.4, rocm7.1`
	if err == nil || err.Error() != want || !errors.Is(err, launch.ErrPlan) {
		t.Errorf("error %v, want %s", err, want)
	}
	for _, w := range append(stack.Wheels(), "") {
		if _, err := launch.NewPlan(o.Estimate.Workload, o, launch.Options{Wheel: w}); err != nil {
			t.Errorf("wheel %q: %v", w, err)
		}
	}
}
