package launch_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
)

// mi300xPlan is LoRA on Llama 3.1 8B on nodes of OCI's BM.GPU.MI300X.8
// (8 × AMD Instinct MI300X) from the embedded catalog.
func mi300xPlan(t *testing.T, nodes int, opt launch.Options) (*launch.Plan, skyCatalog) {
	t.Helper()
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	var in *model.Instance
	for i := range cat.Instances {
		if c := &cat.Instances[i]; c.Provider == "oci" && c.Type == "BM.GPU.MI300X.8" {
			in = c
		}
	}
	if in == nil {
		t.Fatal("no oci/BM.GPU.MI300X.8 in the catalog")
	}
	g, err := cat.GPU(in.GPU)
	if err != nil || g.Vendor != "amd" {
		t.Fatalf("%v %+v", err, g)
	}
	w := model.Workload{Settings: model.Settings{Task: model.TaskLoRA, Strategy: model.DDP, MicroBatch: 2, GradAccum: 1, SeqLen: 2048,
		GPUs: nodes * in.GPUCount}, Model: llama8B}
	w.Defaults()
	o := &model.Offer{Instance: in, GPU: g, Region: in.Prices[0].Region, Pricing: model.OnDemand, Instances: nodes, GPUs: nodes * in.GPUCount,
		Strategy: w.Strategy, USDPerHour: 1, Estimate: &model.Estimate{Workload: w, Params: 8e9}}
	p, err := launch.NewPlan(w, o, opt)
	if err != nil {
		t.Fatal(err)
	}
	return p, newSkyCatalog(cat)
}

// dockerRunArgv returns the words of the docker run command in a docker
// script, as the shell passes them.
func dockerRunArgv(t *testing.T, src string) []string {
	t.Helper()
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		t.Fatal(err)
	}
	var argv []string
	syntax.Walk(f, func(n syntax.Node) bool {
		if call, ok := n.(*syntax.CallExpr); ok && len(call.Args) > 0 && call.Args[0].Lit() == "docker" {
			for _, w := range call.Args {
				s, err := expand.Literal(&expand.Config{Env: runEnv()}, w)
				if err != nil {
					t.Fatal(err)
				}
				argv = append(argv, s)
			}
		}
		return true
	})
	return argv
}

// TestROCmExports is the AMD case: an export for AMD GPUs asked
// for nvidia.com/gpu with NVIDIA's toleration (the pod never scheduled)
// and ran docker with --gpus all (the container saw no GPU). Given a ROCm
// image, docker gets ROCm's devices (/dev/kfd, /dev/dri, group video) and
// Kubernetes amd.com/gpu without the NVIDIA toleration; given a ROCm
// wheel, SkyPilot installs it on MI300X:8. Without them, or with a CUDA
// wheel, each format refuses and names the flag and an example.
func TestROCmExports(t *testing.T) {
	for _, nodes := range []int{1, 2} {
		// No --wheel, no --image: MI300X gets PyTorch 2.9's rocm6.4 wheel
		// and AMD's rocm/pytorch image (stack.rocmRows), every format renders.
		p, _ := mi300xPlan(t, nodes, launch.Options{})
		for f, want := range map[launch.Format]string{
			launch.FormatDocker:   " rocm/pytorch:rocm7.2_ubuntu24.04_py3.12_pytorch_release_2.9.1 ",
			launch.FormatK8s:      "rocm/pytorch:rocm7.2_ubuntu24.04_py3.12_pytorch_release_2.9.1",
			launch.FormatSkyPilot: "--index-url https://download.pytorch.org/whl/rocm6.4  # cdna3, gfx942: ROCm 6.4 wheel",
		} {
			if b, err := p.Render(f); err != nil || !strings.Contains(string(b), want) {
				t.Errorf("%d nodes %s by default: err = %v, want %q in\n%s", nodes, f, err, want, b)
			}
		}
		p, _ = mi300xPlan(t, nodes, launch.Options{Wheel: "cu130"})
		if _, err := p.SkyPilot(); !errors.Is(err, launch.ErrNoStack) || !strings.Contains(err.Error(), "cu130 is not a ROCm wheel variant") {
			t.Errorf("a CUDA wheel for MI300X: err = %v", err)
		}

		p, sc := mi300xPlan(t, nodes, launch.Options{Image: "rocm/pytorch:latest", Wheel: "rocm6.4"})
		docker, err := p.Docker()
		if err != nil {
			t.Fatal(err)
		}
		argv := dockerRunArgv(t, string(docker))
		for _, w := range []string{"--device=/dev/kfd", "--device=/dev/dri", "video", "rocm/pytorch:latest"} {
			if !slices.Contains(argv, w) {
				t.Errorf("%d nodes: docker run lacks %s: %q", nodes, w, argv)
			}
		}
		if slices.Contains(argv, "--gpus") {
			t.Errorf("%d nodes: docker run --gpus on AMD GPUs: %q", nodes, argv)
		}
		if i := slices.Index(argv, "--group-add"); i < 0 || argv[i+1] != "video" {
			t.Errorf("%d nodes: no --group-add video: %q", nodes, argv)
		}

		k8s, err := p.Kubernetes()
		if err != nil {
			t.Fatal(err)
		}
		if _, bad := validateK8s(t, k8s); len(bad) > 0 {
			t.Errorf("%d nodes: %v", nodes, bad)
		}
		if strings.Contains(string(k8s), "nvidia.com/gpu") {
			t.Errorf("%d nodes: the manifests name nvidia.com/gpu:\n%s", nodes, k8s)
		}
		d := decodeK8s(t, k8s)
		var tolerations []corev1.Toleration
		for _, j := range d.Jobs {
			tolerations = append(tolerations, j.Spec.Template.Spec.Tolerations...)
		}
		for _, j := range d.TrainJobs {
			for _, rp := range j.Spec.RuntimePatches {
				for _, rj := range rp.TrainingRuntimeSpec.Template.Spec.ReplicatedJobs {
					tolerations = append(tolerations, rj.Template.Spec.Template.Spec.Tolerations...)
				}
			}
		}
		if len(tolerations) > 0 {
			t.Errorf("%d nodes: tolerations on AMD pods: %+v", nodes, tolerations)
		}
		for _, c := range containersOf(t, k8s) {
			if got := c.Resources.Limits[launch.AMDGPUResource]; got.Value() != int64(p.ProcsPerNode) {
				t.Errorf("%d nodes: %s limit %s, want %d", nodes, launch.AMDGPUResource, got.String(), p.ProcsPerNode)
			}
		}

		sky, err := p.SkyPilot()
		if err != nil {
			t.Fatal(err)
		}
		task, bad := validateSkyPilot(t, sky, sc)
		for _, b := range bad {
			t.Errorf("%d nodes: %s", nodes, b)
		}
		if task.Resources.Accelerators != "MI300X:8" || !strings.Contains(task.Setup, "--index-url https://download.pytorch.org/whl/rocm6.4") {
			t.Errorf("%d nodes: accelerators %q; setup:\n%s", nodes, task.Resources.Accelerators, task.Setup)
		}
	}

	// A ROCm wheel on an NVIDIA GPU is refused the same way.
	p := plan(t, cases[0], launch.Options{Wheel: "rocm6.4"})
	if _, err := p.SkyPilot(); !errors.Is(err, launch.ErrNoStack) || !strings.Contains(err.Error(), "is an NVIDIA GPU and rocm6.4 is a ROCm wheel variant") {
		t.Errorf("a ROCm wheel on an A10G: err = %v", err)
	}
}
