package cli

import (
	"strings"
	"testing"
)

// TestExportReplicaSpansNamesTypesThatHoldIt: a new user's walk, export
// --model Qwen/Qwen3-32B-AWQ --instance aws/g5.xlarge, was refused with
// "one replica needs 2 GPUs (TP 1 × PP 2) … a replica across nodes needs
// a Ray cluster" (exit 2), while estimate --gpu a10g serves it on two A10Gs
// at TP 2. The refusal now names the provider's instance types of that GPU
// whose one node holds a replica, each planned as export would plan it
// (cheapest first), and the flag to export on one; the Ray cluster is
// what the rest of the line is not about. Failing before: only Ray.
func TestExportReplicaSpansNamesTypesThatHoldIt(t *testing.T) {
	code, out, errs := runCLI(t, "export", "--model", "Qwen/Qwen3-32B-AWQ", "--task", "serve", "--instance", "aws/g5.xlarge", "--format", "vllm", "-o", "-")
	want := "aws/g5.xlarge cannot hold one replica: it needs 2 GPUs (TP 1 × PP 2), more than the 1 of one g5.xlarge, and a replica across instances needs a Ray cluster, which gpuplan does not write; aws types with more NVIDIA A10G GPUs serve it: g5.12xlarge (4 GPUs: TP "
	if code != 2 || out != "" || !strings.Contains(errs, want) || !strings.Contains(errs, "--instance aws/g5.12xlarge") || strings.Count(errs, "\n") != 1 {
		t.Fatalf("exit %d, stdout %d bytes, stderr %q; want exit 2 and one line with %q", code, len(out), errs, want)
	}
	// What it names works.
	code, _, errs = runCLI(t, "export", "--model", "Qwen/Qwen3-32B-AWQ", "--task", "serve", "--instance", "aws/g5.12xlarge", "--format", "vllm", "-o", "-")
	if code != 0 {
		t.Errorf("export --instance aws/g5.12xlarge: exit %d: %s", code, errs)
	}
}
