package launch

import "testing"

// TestFileNames: each format's default file name for a job and for a
// serving deployment. The torchrun format writes a vllm serve script for
// a serving plan (Serve.Render), which is named for it, not
// gpuplan-torchrun.sh (tui37); the other formats write the same kind of
// file for both and keep one name.
func TestFileNames(t *testing.T) {
	for _, tt := range []struct {
		f           Format
		job, served string
	}{
		{FormatTOML, "", ""},
		{FormatSkyPilot, "gpuplan-sky.yaml", "gpuplan-sky.yaml"},
		{FormatTorchrun, "gpuplan-torchrun.sh", "gpuplan-vllm-serve.sh"},
		{FormatDocker, "gpuplan-docker.sh", "gpuplan-docker.sh"},
		{FormatK8s, "gpuplan-k8s.yaml", "gpuplan-k8s.yaml"},
		{FormatPyTorchJob, "gpuplan-k8s.yaml", "gpuplan-k8s.yaml"},
		{FormatProbe, "gpuplan-probe.py", "gpuplan-probe.py"},
	} {
		if got := tt.f.FileName(); got != tt.job {
			t.Errorf("%s: FileName %q, want %q", tt.f, got, tt.job)
		}
		if got := tt.f.ServeFileName(); got != tt.served {
			t.Errorf("%s: ServeFileName %q, want %q", tt.f, got, tt.served)
		}
	}
}
