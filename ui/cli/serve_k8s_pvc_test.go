package cli

import (
	"strings"
	"testing"
)

// TestServeExportK8sPVC: --k8s-pvc names the claim a serving Deployment
// keeps the Hugging Face cache on (it was ignored for serving, and the
// weights landed in an emptyDir without a size); without it the emptyDir
// has a sizeLimit.
func TestServeExportK8sPVC(t *testing.T) {
	base := []string{"export", "--task", "serve", "--model", "llama-3.1-70b", "--instance", "aws/p4de.24xlarge", "--format", "k8s"}
	code, out, errs := runCLI(t, append(base, "--k8s-pvc", "llama-cache")...)
	if code != 0 || !strings.Contains(out, "kind: PersistentVolumeClaim") || !strings.Contains(out, "claimName: llama-cache") {
		t.Errorf("exit %d; want the cache on the claim llama-cache:\n%s%s", code, out, errs)
	}
	code, out, errs = runCLI(t, base...)
	if code != 0 || !strings.Contains(out, "sizeLimit: 160Gi") || !strings.Contains(out, "ephemeral-storage: 170Gi") {
		t.Errorf("exit %d; want a sized emptyDir and ephemeral storage:\n%s%s", code, out, errs)
	}
}
