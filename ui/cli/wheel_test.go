package cli

import (
	"strings"
	"testing"
)

// --wheel takes only the variants gpuplan knows (stack.Wheels): anything
// else was written into the pip index URL (quoted, but not a variant).
func TestExportWheelKnownOnly(t *testing.T) {
	args := append(small, "--instance", "aws/g5.2xlarge", "--format", "skypilot")
	for _, bad := range []string{"cu999", "cu13", "cu126/../../evil", "cu126 --extra-index-url https://evil.example", "$(id)"} {
		code, out, errs := runExportCLI(t, append(args, "--wheel", bad)...)
		shown := bad
		if len(shown) > 40 {
			shown = shown[:40] + "…"
		}
		want := "gpuplan: --wheel " + `"` + shown + `"` + " is not a PyTorch wheel variant gpuplan knows; want cu113, cu116, cu117, cu118, cu121, cu124, cu126, cu128, cu129, cu130, cu132, rocm6.1, rocm6.2, rocm6.2.4, rocm6.3, rocm6.4, rocm7.1\n"
		if code != ExitUsage || out != "" || errs != want {
			t.Errorf("--wheel %q: exit %d, stdout %q, stderr %q; want 2, nothing, %q", bad, code, out, errs, want)
		}
	}
	code, out, errs := runExportCLI(t, append(args, "--wheel", "cu126")...)
	if code != 0 || !strings.Contains(out, "https://download.pytorch.org/whl/cu126") {
		t.Errorf("--wheel cu126: exit %d: %s\n%s", code, errs, out)
	}
}
