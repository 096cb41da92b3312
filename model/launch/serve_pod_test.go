package launch_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/serve"
)

// amdServe is Llama 3.1 8B in bf16 served on the catalog's
// provider/instanceType, an AMD GPU, at its first on-demand price.
func amdServe(t *testing.T, provider, instanceType string, opt launch.ServeOptions) (*launch.Serve, skyCatalog) {
	t.Helper()
	cat := loadCatalog(t)
	var in *model.Instance
	for i := range cat.Instances {
		if c := &cat.Instances[i]; c.Provider == provider && c.Type == instanceType {
			in = c
		}
	}
	if in == nil {
		t.Fatalf("no %s/%s in the catalog", provider, instanceType)
	}
	g, err := cat.GPU(in.GPU)
	if err != nil || g.Vendor != "amd" {
		t.Fatalf("%s/%s: %v %+v", provider, instanceType, err, g)
	}
	a, err := cat.Model("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	var usd float64
	for _, p := range in.Prices {
		if p.OnDemandUSD > 0 {
			usd, opt.Region = p.OnDemandUSD, p.Region
			break
		}
	}
	sp, err := serve.PlanServing(a, serve.Serving{WeightFormat: serve.WeightBF16, MaxModelLen: 4096, PromptTokens: 2048, OutputTokens: 512, Concurrency: 8},
		serve.OfferFor(in, g, usd, provider+" "+instanceType))
	if err != nil || !sp.Fits {
		t.Fatalf("%s/%s: %v %v", provider, instanceType, err, sp.Reasons)
	}
	s, err := launch.NewServe(a, &sp, opt)
	if err != nil {
		t.Fatal(err)
	}
	return s, newSkyCatalog(cat)
}

// TestServeSkyPilotAMDContainerClouds (a new user's walk: DeepSeek-R1 on
// runpod/4x_MI300X_SECURE wrote `docker pull` and `docker run` into the
// SkyServe file): a RunPod pod, a Vast instance and a Daytona sandbox are
// containers without a Docker daemon (SkyPilot docs, "Using Docker
// Containers": "Running docker containers is not supported on RunPod"),
// so on those clouds the ROCm image is the pod itself (resources.image_id)
// and run starts vllm serve in it. The image is AMD's rocm/vllm, which
// starts a shell: vLLM's vllm/vllm-openai-rocm starts vllm serve, and
// SkyPilot cannot override an image's entrypoint on RunPod (same page:
// "not compatible with RunPod ... choose a container with a default
// entrypoint"). VM clouds (OCI, DigitalOcean) keep docker run of vLLM's
// image on the host. Failing before: every row wrote docker pull.
func TestServeSkyPilotAMDContainerClouds(t *testing.T) {
	const given = "rocm/vllm:rocm7.14.0_cdna_ubuntu24.04_py3.14_pytorch_2.11.0_vllm_0.23.0"
	for _, tc := range []struct {
		name, provider, typ string
		opt                 launch.ServeOptions
		imageID             string // "" on a VM cloud: docker run on the host
	}{
		{"runpod: a pod is a container", "runpod", "4x_MI300X_SECURE", launch.ServeOptions{}, "docker:rocm/vllm:latest"},
		{"runpod, --image: the pod runs it", "runpod", "1x_MI300X_SECURE", launch.ServeOptions{Image: given}, "docker:" + given},
		{"daytona: a sandbox is a container", "daytona", "1x-MI355X", launch.ServeOptions{}, "docker:rocm/vllm:latest"},
		{"oci bare metal: docker run on the host", "oci", "BM.GPU.MI300X.8", launch.ServeOptions{}, ""},
		{"do droplet: docker run on the host", "do", "gpu-mi300x1-192gb", launch.ServeOptions{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, sc := amdServe(t, tc.provider, tc.typ, tc.opt)
			out, err := s.Render(launch.FormatSkyPilot)
			if err != nil {
				t.Fatal(err)
			}
			task, bad := validateSkyPilot(t, out, sc)
			for _, b := range bad {
				t.Error(b)
			}
			got, _ := task.Resources.ImageID.(string)
			if got != tc.imageID {
				t.Errorf("resources.image_id = %q, want %q", got, tc.imageID)
			}
			argv := vllmCommand(t, task.Run)
			if tc.imageID == "" {
				if !strings.Contains(task.Setup, "docker pull "+s.Image) || len(argv) == 0 || argv[0] != "docker" || !gpuDocker(s, argv) {
					t.Errorf("a VM cloud runs vLLM's image with docker; setup %q, run argv %q", task.Setup, argv)
				}
				return
			}
			want := append([]string{"vllm", "serve", s.ModelID}, s.VLLMArgs()...)
			if !reflect.DeepEqual(argv, want) {
				t.Errorf("run argv %q, want %q", argv, want)
			}
			for _, part := range []string{task.Setup, task.Run} {
				if strings.Contains(part, "docker") || strings.Contains(part, "pip install vllm") {
					t.Errorf("docker or PyPI's CUDA vllm in a container cloud's task:\n%s", out)
				}
			}
			if !slices.ContainsFunc(strings.Split(string(out), "\n"), func(l string) bool {
				return strings.HasPrefix(l, "# note: ") && strings.Contains(l, "no Docker daemon") && strings.Contains(l, "image_id")
			}) {
				t.Errorf("no header note on the container cloud's image:\n%s", out)
			}
		})
	}
}

// TestFormatVLLM: "vllm" parses as FormatVLLM, the vllm serve script of a
// serving deployment (the file FormatTorchrun writes for one, with its
// default name); a training plan has none and says so in one line.
func TestFormatVLLM(t *testing.T) {
	f, err := launch.ParseFormat(" vLLM ")
	if err != nil || f != launch.FormatVLLM || f.ServeFileName() != "gpuplan-vllm-serve.sh" || slices.Contains(launch.Formats, f) {
		t.Fatalf("ParseFormat(vllm) = %q, %v (file %q)", f, err, f.ServeFileName())
	}
	sp := serve70BAWQ(t)
	s, err := launch.NewServe(&llama70B, &sp, launch.ServeOptions{Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	script, err := s.Render(launch.FormatTorchrun)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.Render(launch.FormatVLLM); err != nil || string(got) != string(script) {
		t.Errorf("Render(vllm) = %v, not the vllm serve script:\n%s", err, got)
	}
	p := plan(t, cases[0], launch.Options{})
	if _, err := p.Render(launch.FormatVLLM); err == nil || !strings.Contains(err.Error(), "for --task inference") || strings.Contains(err.Error(), "\n") {
		t.Errorf("a training plan's Render(vllm): %v, want one line saying it is for --task inference", err)
	}
}
