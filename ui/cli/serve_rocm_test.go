package cli

import (
	"strings"
	"testing"
)

// TestServeExportAMD (issue 31 round 4, item 4): the best serving offer
// for 70B at 5 requests/s was DigitalOcean's MI300X, and every serving
// export refused it ("AMD Instinct MI300X is not an NVIDIA GPU"). Now the
// files run vLLM's ROCm image with the devices vLLM's ROCm docs give
// (gpu.rocm.inc.md, "Pre-built images") and request amd.com/gpu. Failing
// before: exit 2 for every format.
func TestServeExportAMD(t *testing.T) {
	base := []string{"export", "--model", "llama-3.1-70b", "--task", "inference", "--rps", "5", "--prompt-tokens", "1K",
		"--output-tokens", "300", "--instance", "do/gpu-mi300x1-192gb", "-o", "-"}
	for _, tc := range []struct {
		format    string
		want, not []string
	}{
		{"docker", []string{"--device /dev/kfd", "--device /dev/dri", "--group-add=video", "vllm/vllm-openai-rocm:latest", "--ipc=host"}, []string{"--gpus all"}},
		{"skypilot", []string{"docker pull vllm/vllm-openai-rocm:latest", "--device /dev/kfd", "accelerators: MI300X:1"}, []string{"pip install vllm", "--gpus all"}},
		{"k8s", []string{"amd.com/gpu: 1", "image: vllm/vllm-openai-rocm:latest"}, []string{"nvidia.com/gpu"}},
	} {
		code, out, errOut := runCLI(t, append(base, "--format", tc.format)...)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", tc.format, code, errOut)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: no %q in\n%s", tc.format, w, out)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(out, n) {
				t.Errorf("%s: %q on an AMD GPU in\n%s", tc.format, n, out)
			}
		}
	}
}

// TestServeExportAMDRunPod is a new user's walk: DeepSeek-R1 on RunPod's
// MI300X wrote docker pull and docker run into the SkyServe file, and a
// RunPod pod is a container with no Docker daemon. The file now names
// AMD's rocm/vllm image as the pod (resources.image_id) and runs vllm
// serve in it; the docker and k8s files keep vLLM's ROCm image. Failing
// before: the SkyPilot file pulled vllm/vllm-openai-rocm:latest.
func TestServeExportAMDRunPod(t *testing.T) {
	base := []string{"export", "--model", "deepseek-ai/DeepSeek-R1", "--task", "inference", "--concurrency", "32", "--prompt-tokens", "2000",
		"--output-tokens", "1000", "--instance", "runpod/4x_MI300X_SECURE", "-o", "-"}
	for _, tc := range []struct {
		format    string
		want, not []string
	}{
		{"skypilot", []string{"  image_id: docker:rocm/vllm:latest\n", "\n  vllm serve deepseek-ai/DeepSeek-R1 \\\n", "accelerators: MI300X:4"}, []string{"docker pull", "docker run", "pip install vllm"}},
		{"docker", []string{"--device /dev/kfd", "vllm/vllm-openai-rocm:latest"}, []string{"rocm/vllm:latest", "image_id"}},
		{"k8s", []string{"amd.com/gpu: 4", "image: vllm/vllm-openai-rocm:latest"}, []string{"rocm/vllm:latest"}},
	} {
		code, out, errOut := runCLI(t, append(base, "--format", tc.format)...)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", tc.format, code, errOut)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: no %q in\n%s", tc.format, w, out)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(out, n) {
				t.Errorf("%s: %q on RunPod in\n%s", tc.format, n, out)
			}
		}
	}
}
