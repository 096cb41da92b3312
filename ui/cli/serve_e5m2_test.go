package cli

import (
	"strings"
	"testing"
)

// TestServeKVCacheE5M2Kept: vLLM's CacheDType takes fp8 (= fp8_e4m3) and
// fp8_e5m2 as distinct choices (vllm/config/cache.py), and a new user's
// export --kv-cache-dtype fp8_e5m2 wrote --kv-cache-dtype fp8, which
// vLLM reads as E4M3. The choice is kept through the estimate's header
// and the export; on ROCm, which supports only fp8 (E4M3), it is
// refused with why. Failing before: "fp8" in both.
func TestServeKVCacheE5M2Kept(t *testing.T) {
	code, out, errOut := runCLI(t, "export", "--task", "serve", "--model", "llama-3.1-8b", "--kv-cache-dtype", "fp8_e5m2",
		"--instance", "lambda/gpu_1x_h100_pcie", "--format", "vllm")
	if code != 0 || !strings.Contains(out, "--kv-cache-dtype fp8_e5m2") {
		t.Errorf("export: exit %d, %s; want --kv-cache-dtype fp8_e5m2 in:\n%s", code, errOut, out)
	}
	code, out, errOut = runCLI(t, "estimate", "--task", "serve", "--model", "llama-3.1-8b", "--kv-cache-dtype", "fp8_e5m2", "--gpu", "h100")
	if code != 0 || !strings.Contains(out, "KV cache fp8_e5m2") {
		t.Errorf("estimate: exit %d, %s; want the header to say KV cache fp8_e5m2:\n%s", code, errOut, out)
	}
	_, _, errOut = runCLI(t, "estimate", "--task", "serve", "--model", "llama-3.1-8b", "--kv-cache-dtype", "fp8_e5m2", "--gpu", "mi300x")
	if !strings.Contains(errOut, "fp8_e5m2 is CUDA-only in vLLM") {
		t.Errorf("estimate on MI300X: want fp8_e5m2 refused on ROCm:\n%s", errOut)
	}
	_, out, _ = runCLI(t, "estimate", "--task", "serve", "--model", "llama-3.1-8b", "--kv-cache-dtype", "fp8_e4m3", "--gpu", "h100")
	if !strings.Contains(out, "KV cache fp8\n") && !strings.Contains(out, "KV cache fp8 ") {
		t.Errorf("fp8_e4m3 is vLLM's fp8: want KV cache fp8:\n%s", out)
	}
}

// TestServeE5M2OnPinnedAMD: a new user's walk, estimate --weight-format
// awq --kv-cache-dtype fp8_e5m2 --gpu mi300x printed a whole report ending
// "✗ cannot serve … give --kv-cache-dtype fp8" and exited 0, where
// docs/serving.md says fp8_e5m2 is refused on an AMD GPU. A GPU the user
// pinned (estimate --gpu, recommend --gpu, export --instance) refuses it as
// other flag combinations are refused: one line saying what and how to fix
// it, exit 2; recommend without --gpu rejects the ROCm offers with that
// reason (near misses) and ranks the rest. Failing before: estimate and
// recommend --gpu exited 0.
func TestServeE5M2OnPinnedAMD(t *testing.T) {
	const why = "--kv-cache-dtype fp8_e5m2 is CUDA-only in vLLM: ROCm supports fp8 (E4M3); give --kv-cache-dtype fp8\n"
	base := []string{"--model", "llama-3.3-70b", "--task", "serve", "--weight-format", "awq", "--kv-cache-dtype", "fp8_e5m2"}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"estimate", "--gpu", "mi300x"}, "gpuplan: --gpu mi300x (AMD Instinct MI300X): " + why},
		{[]string{"recommend", "--gpu", "mi300x"}, "gpuplan: --gpu mi300x (AMD Instinct MI300X): " + why},
		{[]string{"export", "--instance", "do/gpu-mi300x1-192gb", "--format", "vllm", "-o", "-"}, "cannot serve the model: --kv-cache-dtype fp8_e5m2 is CUDA-only"},
	} {
		code, out, errOut := runCLI(t, append(tt.args, base...)...)
		if code != 2 || out != "" || !strings.Contains(errOut, tt.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %d bytes, stderr %q; want exit 2, one line with %q", tt.args, code, len(out), errOut, tt.want)
		}
	}
	code, out, errOut := runCLI(t, append([]string{"recommend", "--providers", "do", "--json"}, base...)...)
	if code != 0 {
		t.Fatalf("recommend on do: exit %d: %s", code, errOut)
	}
	if strings.Contains(out, `"gpu": "mi300x"`) || !strings.Contains(out, "fp8_e5m2 is CUDA-only in vLLM") {
		t.Errorf("recommend --providers do: want the MI300X offers rejected with the reason, none ranked:\n%s", out)
	}
}
