package cli

import (
	"strings"
	"testing"
)

// TestServeRefusalNamesTheGPU (issue 31, item 6): serving on an instance
// whose GPU vLLM cannot run (Pascal and Maxwell below compute capability
// 7.0, the RDNA 1 Radeon Pro V520) says so and what would serve, not that
// the priced instance "has no on-demand price to serve from"; so do
// estimate --gpu and recommend --gpu.
func TestServeRefusalNamesTheGPU(t *testing.T) {
	serving := []string{"--model", "llama-3.1-8b", "--task", "inference"}
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"export", "--instance", "aws/g4ad.xlarge", "--format", "docker"}, []string{"aws/g4ad.xlarge cannot serve with vLLM", "Radeon Pro V520 (rdna1) is not one of them", "pick another instance"}},
		{[]string{"export", "--instance", "paperspace/P4000", "--format", "docker"}, []string{"paperspace/P4000 cannot serve with vLLM", "compute capability 7.0", "P4000 is 6.1"}},
		{[]string{"export", "--instance", "gcp/n1-standard-4+1xP4", "--format", "docker"}, []string{"compute capability 7.0", "P4 is 6.1"}},
		{[]string{"estimate", "--gpu", "p100"}, []string{"--gpu p100: vLLM needs compute capability 7.0", "P100 PCIe 16GB is 6.0"}},
		{[]string{"recommend", "--gpu", "m60"}, []string{"--gpu m60: vLLM needs compute capability 7.0", "is 5.2"}},
	} {
		code, _, errOut := runCLI(t, append(tt.args, serving...)...)
		if code != 2 || strings.Contains(errOut, "price to serve from") {
			t.Errorf("%q: exit %d, %q; want exit 2 naming why vLLM cannot serve there", tt.args, code, errOut)
		}
		for _, w := range tt.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%q: %q lacks %q", tt.args, errOut, w)
			}
		}
	}
}

// TestSkyPilotAMDRefusalNamesWheel (issue 31, item 6): a SkyPilot file
// for an AMD host installs PyTorch from a wheel index, so its refusal
// names the ROCm wheel variant that helps (--wheel rocm6.4), not --image,
// which SkyPilot's setup never reads; with that variant the file is
// written and installs from PyTorch's ROCm index.
func TestSkyPilotAMDRefusalNamesWheel(t *testing.T) {
	base := []string{"export", "--model", "llama-3.1-8b", "--task", "lora", "--instance", "oci/BM.GPU.MI300X.8", "--format", "skypilot"}
	code, _, errOut := runCLI(t, append(base, "--wheel", "cu130")...)
	if code != 2 || !strings.Contains(errOut, "--wheel rocm6.4") || strings.Contains(errOut, "--image") {
		t.Errorf("SkyPilot on MI300X --wheel cu130: exit %d, %q; want exit 2 naming --wheel rocm6.4 and not --image", code, errOut)
	}
	// Without --wheel the MI300X's default (PyTorch 2.9's rocm6.4) is used.
	if code, out, errOut := runCLI(t, base...); code != 0 || !strings.Contains(out, "whl/rocm6.4") {
		t.Errorf("SkyPilot on MI300X: exit %d, %s\n%s", code, errOut, out)
	}
	code, out, errOut := runCLI(t, append(base, "--wheel", "rocm6.4")...)
	if code != 0 || !strings.Contains(out, "pip install torch --index-url https://download.pytorch.org/whl/rocm6.4") {
		t.Errorf("SkyPilot on MI300X --wheel rocm6.4: exit %d, %s\n%s", code, errOut, out)
	}
}

// TestRetiredProviderSaysSo (issue 31, item 6): a provider whose every
// instance type the catalog retired (Cudo, shut down on 2026-03-31) is
// named as such with the date and source, by offers and by recommend for
// training and serving, instead of "no instance matches"; listed beside
// a provider still offering, it is no error.
func TestRetiredProviderSaysSo(t *testing.T) {
	for _, args := range [][]string{
		{"offers", "--providers", "cudo"},
		{"recommend", "--model", "llama-3.1-8b", "--task", "lora", "--providers", "cudo"},
		{"recommend", "--model", "llama-3.1-8b", "--task", "inference", "--providers", "cudo"},
	} {
		code, _, errOut := runCLI(t, args...)
		if code != 2 || !strings.Contains(errOut, "cudo shut down on 2026-03-31 (Cudo Compute: ") || !strings.Contains(errOut, "pick another provider") {
			t.Errorf("%q: exit %d, %q; want exit 2 saying Cudo shut down on 2026-03-31", args, code, errOut)
		}
	}
	if code, _, errOut := runCLI(t, "recommend", "--model", "llama-3.1-8b", "--task", "lora", "--providers", "cudo,aws", "--limit", "1"); code != 0 {
		t.Errorf("--providers cudo,aws: exit %d: %s", code, errOut)
	}
}
