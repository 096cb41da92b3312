package launch_test

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model/launch"
)

// TestServeK8sSaysWhatItWrites: four TP-2 engines on a p5.48xlarge. The
// SkyPilot and shell files run them in one vllm serve with
// --data-parallel-size 4 and say so; the Kubernetes Deployment runs four
// one-engine pods (replicas: 4) and passes no --data-parallel-size, so its
// header says that instead of the engines-per-node note.
func TestServeK8sSaysWhatItWrites(t *testing.T) {
	sp := serve70BAWQ(t)
	s, err := launch.NewServe(&llama70B, &sp, launch.ServeOptions{Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	const dpNote = "4 engines per node through --data-parallel-size"
	for _, f := range []launch.Format{launch.FormatSkyPilot, launch.FormatTorchrun} {
		out, err := s.Render(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), dpNote) || !strings.Contains(string(out), "--data-parallel-size 4") {
			t.Errorf("%s: want the flag and its note:\n%s", f, out)
		}
	}
	out, err := s.Render(launch.FormatK8s)
	if err != nil {
		t.Fatal(err)
	}
	k8s := string(out)
	if strings.Contains(k8s, dpNote) || strings.Contains(k8s, "- --data-parallel-size") {
		t.Errorf("the Deployment passes no --data-parallel-size, but the file says or passes it:\n%s", k8s)
	}
	if !strings.Contains(k8s, "replicas: 4\n") || !strings.Contains(k8s, "# note: 4 replicas as 4 pods of one vLLM engine on 2 GPUs each (Deployment replicas: 4; no --data-parallel-size)") {
		t.Errorf("the header does not say what the Deployment runs:\n%s", k8s)
	}
}
