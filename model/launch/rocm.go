package launch

import (
	"errors"
	"strings"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/show"
)

// AMD GPUs run ROCm builds of PyTorch, so their files differ from the CUDA
// ones in what they install and how a container or pod reaches the GPUs.
// For the Instinct architectures stack.Advise knows (CDNA3 MI300X and
// MI325X, CDNA4 MI355X) the files default to PyTorch's ROCm wheel and
// AMD's rocm/pytorch image (stack.rocmRows, where they are sourced); for
// other AMD GPUs the user gives one (Options.Wheel for SkyPilot,
// Options.Image for docker and Kubernetes). Either way the files use it
// with the ROCm devices.
const (
	// AMDGPUResource is the extended resource AMD's GPU device plugin
	// for Kubernetes exposes (ROCm/k8s-device-plugin, "Exposes AMD GPUs
	// as amd.com/gpu resources"; Kubernetes "Schedule GPUs" names it
	// beside nvidia.com/gpu). AMD documents no taint for GPU nodes, so
	// pods get no toleration.
	AMDGPUResource = "amd.com/gpu"
	// ROCmWheelExample and ROCmImageExample are what the refusals suggest:
	// PyTorch 2.9's ROCm wheel variant (pytorch.org, previous versions:
	// "ROCM 6.4 (Linux only) … --index-url
	// https://download.pytorch.org/whl/rocm6.4") and AMD's PyTorch image
	// (ROCm docs, "Installing PyTorch for ROCm": docker pull
	// rocm/pytorch:latest).
	ROCmWheelExample = "rocm6.4"
	ROCmImageExample = "rocm/pytorch"
)

// rocmDockerFlags give a container the host's AMD GPUs, as ROCm documents
// it ("Running ROCm Docker containers": --device /dev/kfd, the compute
// interface shared by all GPUs, and --device /dev/dri, the render nodes
// of each GPU; "Installing PyTorch for ROCm": --group-add video, so the
// container's user may open them, and --ipc=host for the data loader's
// shared memory). NVIDIA's --gpus all does not see AMD GPUs.
var rocmDockerFlags = []string{"--device=/dev/kfd", "--device=/dev/dri", "--group-add video", "--rm", "--ipc=host"}

// ROCm reports whether the plan's GPU is AMD's, which runs ROCm builds.
func (p *Plan) ROCm() bool { return p.GPU != nil && p.GPU.Vendor == "amd" }

// gpuResource is the pod's GPU resource name: NVIDIA's device plugin's,
// or AMD's on AMD GPUs.
func (p *Plan) gpuResource() string {
	if p.ROCm() {
		return AMDGPUResource
	}
	return GPUResource
}

// rocmWheel reports whether wheel is a ROCm variant of PyTorch's index
// (rocm6.4), as opposed to a CUDA (cu130) or CPU one.
func rocmWheel(wheel string) bool { return strings.HasPrefix(strings.ToLower(wheel), "rocm") }

// checkWheel is the SkyPilot file's refusal when the PyTorch wheel does
// not run on the GPU: none given for an AMD GPU or an unsupported NVIDIA
// one, a CUDA wheel for an AMD GPU, or a ROCm wheel for an NVIDIA one. It
// wraps ErrNoStack, whose fix is --wheel.
func (p *Plan) checkWheel() error {
	name := ""
	if p.GPU != nil {
		name = show.Printable(p.GPU.Name)
	}
	switch {
	case p.ROCm() && p.Wheel == "":
		return fixNamed{model.Errorf(ErrNoStack, "%s is an AMD GPU: name a ROCm wheel variant of PyTorch to install, such as --wheel %s", name, ROCmWheelExample)}
	case p.ROCm() && !rocmWheel(p.Wheel):
		example := ROCmWheelExample
		if p.Stack.Wheel != "" {
			example = p.Stack.Wheel
		}
		return fixNamed{model.Errorf(ErrNoStack, "%s is an AMD GPU and %s is not a ROCm wheel variant: name one, such as --wheel %s", name, show.Printable(p.Wheel), example)}
	case p.Wheel == "":
		return model.Errorf(ErrNoStack, "%s, or name a PyTorch wheel variant to install", p.Stack.Reason)
	case !p.ROCm() && rocmWheel(p.Wheel):
		cuda := p.Stack.Wheel
		if cuda == "" {
			cuda = "cu126"
		}
		return fixNamed{model.Errorf(ErrNoStack, "%s is an NVIDIA GPU and %s is a ROCm wheel variant: name a CUDA one, such as --wheel %s", name, show.Printable(p.Wheel), cuda)}
	}
	return nil
}

// fixNamed marks an ErrNoStack error whose sentence already names the
// flag that fixes it ("such as --wheel rocm6.4"), so a caller adds no
// hint of its own (FixNamed).
type fixNamed struct{ error }

func (e fixNamed) Unwrap() error { return e.error }

// FixNamed reports whether err's sentence already names the flag that
// fixes it.
func FixNamed(err error) bool { return errors.As(err, new(fixNamed)) }

// checkImage is the docker and Kubernetes refusal when no image runs on
// the GPU. It wraps ErrNoStack, whose fix is --image.
func (p *Plan) checkImage() error {
	switch {
	case p.Image != "":
		return nil
	case p.ROCm():
		return model.Errorf(ErrNoStack, "%s is an AMD GPU: name a ROCm PyTorch image to run, such as %s", show.Printable(p.GPU.Name), ROCmImageExample)
	}
	return model.Errorf(ErrNoStack, "%s, or name a container image to run", p.noImageReason())
}
