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
	_, out, _ = runCLI(t, "estimate", "--task", "serve", "--model", "llama-3.1-8b", "--kv-cache-dtype", "fp8_e5m2", "--gpu", "mi300x")
	if !strings.Contains(out, "fp8_e5m2 is CUDA-only in vLLM") {
		t.Errorf("estimate on MI300X: want fp8_e5m2 refused on ROCm:\n%s", out)
	}
	_, out, _ = runCLI(t, "estimate", "--task", "serve", "--model", "llama-3.1-8b", "--kv-cache-dtype", "fp8_e4m3", "--gpu", "h100")
	if !strings.Contains(out, "KV cache fp8\n") && !strings.Contains(out, "KV cache fp8 ") {
		t.Errorf("fp8_e4m3 is vLLM's fp8: want KV cache fp8:\n%s", out)
	}
}
