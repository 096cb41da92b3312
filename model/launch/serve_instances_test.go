package launch_test

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/serve"
)

// TestServeSeveralInstancesSaySo: eight TP-2 replicas of Llama 3.1 70B AWQ
// are two p5.48xlarge, four engines on each. The script and docker files
// start one instance's vllm serve (--data-parallel-size 4), so their
// header tells the user to run them on each of the 2 instances behind a
// load balancer (run as written they carry half the load priced, as a
// tester found); SkyPilot's service has replicas: 2 and says they are
// instances; the Deployment has replicas: 8. One instance gets no such
// note.
func TestServeSeveralInstancesSaySo(t *testing.T) {
	cat := testCatalog()
	in := &cat.Instances[2]
	g, err := cat.GPU(in.GPU)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := serve.PlanServing(&llama70B, serve.Serving{WeightFormat: serve.WeightAWQ, MaxModelLen: 8192, PromptTokens: 6144,
		OutputTokens: 2048, Concurrency: 128, TP: 2, Replicas: 8}, serve.OfferFor(in, g, 110.08, "aws p5.48xlarge"))
	if err != nil || !sp.Fits {
		t.Fatalf("%v %v", err, sp.Reasons)
	}
	s, err := launch.NewServe(&llama70B, &sp, launch.ServeOptions{Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Nodes != 2 || s.ReplicasPerNode != 4 || s.Replicas != 8 {
		t.Fatalf("%d nodes × %d engines, %d replicas; want 2 × 4, 8", s.Nodes, s.ReplicasPerNode, s.Replicas)
	}
	for _, tc := range []struct {
		f    launch.Format
		want []string
	}{
		{launch.FormatTorchrun, []string{"# note: the plan is 2 instances, 8 replicas in all: this script starts one instance's vLLM server (4 replicas of TP 2 × PP 1); run it on each of the 2 instances and put a load balancer in front of their port 8000 (run on one, it carries 1/2 of the load priced)\n",
			"--data-parallel-size 4"}},
		{launch.FormatDocker, []string{"# note: the plan is 2 instances, 8 replicas in all: this script starts one instance's vLLM container (4 replicas of TP 2 × PP 1); run it on each of the 2 instances and put a load balancer in front of their port 8000 (run on one, it carries 1/2 of the load priced)\n",
			"--data-parallel-size 4"}},
		{launch.FormatSkyPilot, []string{"# note: the plan is 2 instances, 8 replicas in all: the service's replicas: 2 are one instance each, running vllm serve (4 replicas of TP 2 × PP 1), behind SkyServe's load balancer",
			"\n  replicas: 2\n"}},
		{launch.FormatTOML, []string{"# note: the plan is 2 instances, 8 replicas in all: vllm serve with vllm_args runs on each of the 2 instances (4 replicas of TP 2 × PP 1 each), behind a load balancer\n"}},
		{launch.FormatK8s, []string{"# note: 8 replicas as 8 pods of one vLLM engine on 2 GPUs each (Deployment replicas: 8", "\n  replicas: 8\n"}},
	} {
		out, err := s.Render(tc.f)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(string(out), w) {
				t.Errorf("%s: want %q in:\n%s", tc.f, w, out)
			}
		}
		if n := s.InstancesNote(tc.f); tc.f == launch.FormatK8s && !n.IsZero() || tc.f != launch.FormatK8s && n.IsZero() {
			t.Errorf("%s: InstancesNote %q", tc.f, n)
		}
	}
	one := serve70BAWQ(t)
	s1, err := launch.NewServe(&llama70B, &one, launch.ServeOptions{Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []launch.Format{launch.FormatTorchrun, launch.FormatDocker, launch.FormatSkyPilot, launch.FormatTOML} {
		out, err := s1.Render(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(out), "the plan is") {
			t.Errorf("%s on one instance says it is several:\n%s", f, out)
		}
	}
}
