package stack_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch/stack"
)

// cudaMajor returns 12 for "cu126", 13 for "cu130".
func cudaMajor(wheel string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(wheel, "cu"))
	return n / 10
}

func TestAdvise(t *testing.T) {
	for _, tc := range []struct {
		name      string
		g         model.GPU
		supported bool
		wheel     func(string) bool // the wheel variant is acceptable
		minCUDA   string
		lastCUDA  string
		driver    string
		image     string
		bf16, fp8 bool
	}{
		{name: "V100 7.0 → a CUDA 12.x wheel, never 13: CUDA 13 dropped Volta",
			g: model.GPU{Name: "V100", Vendor: "nvidia", ComputeCapability: "7.0"}, supported: true,
			wheel: func(w string) bool { return cudaMajor(w) == 12 }, lastCUDA: "12.x", driver: "560.28.03",
			image: "nvcr.io/nvidia/pytorch:24.06-py3"},
		{name: "P100 6.0 → cu126, last CUDA 12.x",
			g: model.GPU{Name: "P100", Vendor: "nvidia", ComputeCapability: "6.0"}, supported: true,
			wheel: func(w string) bool { return w == "cu126" }, lastCUDA: "12.x", driver: "560.28.03",
			image: "nvcr.io/nvidia/pytorch:24.06-py3"},
		{name: "M60 5.2 → cu126, and no NGC image (NGC needs 6.0+)",
			g: model.GPU{Name: "M60", Vendor: "nvidia", ComputeCapability: "5.2"}, supported: true,
			wheel: func(w string) bool { return w == "cu126" }, lastCUDA: "12.x", driver: "560.28.03"},
		{name: "T4 7.5 → CUDA 13 wheels run on Turing; no bf16",
			g: model.GPU{Name: "T4", Vendor: "nvidia", ComputeCapability: "7.5"}, supported: true,
			wheel: func(w string) bool { return cudaMajor(w) >= 12 }, minCUDA: "10.0", driver: "580.65.06",
			image: "nvcr.io/nvidia/pytorch:25.12-py3"},
		{name: "A100 8.0 → bf16, no fp8",
			g: model.GPU{Name: "A100", Vendor: "nvidia", ComputeCapability: "8.0"}, supported: true,
			wheel: func(w string) bool { return cudaMajor(w) >= 12 }, minCUDA: "11.0", driver: "580.65.06",
			image: "nvcr.io/nvidia/pytorch:25.12-py3", bf16: true},
		{name: "L4 8.9 → fp8 from Ada on",
			g: model.GPU{Name: "L4", Vendor: "nvidia", ComputeCapability: "8.9"}, supported: true,
			wheel: func(w string) bool { return cudaMajor(w) >= 12 }, minCUDA: "11.8", driver: "580.65.06",
			image: "nvcr.io/nvidia/pytorch:25.12-py3", bf16: true, fp8: true},
		{name: "H100 9.0 → cu12x or cu13x; CUDA ≥ 11.8",
			g: model.GPU{Name: "H100", Vendor: "nvidia", ComputeCapability: "9.0"}, supported: true,
			wheel: func(w string) bool { return cudaMajor(w) == 12 || cudaMajor(w) == 13 }, minCUDA: "11.8", driver: "580.65.06",
			image: "nvcr.io/nvidia/pytorch:25.12-py3", bf16: true, fp8: true},
		{name: "B200 10.0 → cu128 or newer; CUDA ≥ 12.8",
			g: model.GPU{Name: "B200", Vendor: "nvidia", ComputeCapability: "10.0"}, supported: true,
			wheel: func(w string) bool { n, _ := strconv.Atoi(strings.TrimPrefix(w, "cu")); return n >= 128 }, minCUDA: "12.8",
			driver: "580.65.06", image: "nvcr.io/nvidia/pytorch:25.12-py3", bf16: true, fp8: true},
		{name: "B300 10.3 → CUDA ≥ 12.9 (sm_103)",
			g: model.GPU{Name: "B300", Vendor: "nvidia", ComputeCapability: "10.3"}, supported: true,
			wheel: func(w string) bool { return w == "cu130" }, minCUDA: "12.9", driver: "580.65.06",
			image: "nvcr.io/nvidia/pytorch:25.12-py3", bf16: true, fp8: true},
		{name: "RTX 5090 12.0 → cu128 or newer; CUDA ≥ 12.8",
			g: model.GPU{Name: "RTX 5090", Vendor: "nvidia", ComputeCapability: "12.0"}, supported: true,
			wheel: func(w string) bool { n, _ := strconv.Atoi(strings.TrimPrefix(w, "cu")); return n >= 128 }, minCUDA: "12.8",
			driver: "580.65.06", image: "nvcr.io/nvidia/pytorch:25.12-py3", bf16: true, fp8: true},
		{name: "K80 3.7 → no current wheel",
			g: model.GPU{Name: "K80", Vendor: "nvidia", ComputeCapability: "3.7"}},
		{name: "MI300X (AMD) → not a CUDA GPU",
			g: model.GPU{Name: "MI300X", Vendor: "amd"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := stack.Advise(&tc.g)
			if s.Supported != tc.supported {
				t.Fatalf("Supported = %v (%s), want %v", s.Supported, s.Reason, tc.supported)
			}
			if !tc.supported {
				if s.Reason == "" || s.Wheel != "" || s.Image != "" {
					t.Errorf("unsupported GPU: reason %q wheel %q image %q", s.Reason, s.Wheel, s.Image)
				}
				return
			}
			if !tc.wheel(s.Wheel) {
				t.Errorf("Wheel = %q", s.Wheel)
			}
			if s.MinCUDA != tc.minCUDA || s.LastCUDA != tc.lastCUDA || s.MinDriver != tc.driver || s.Image != tc.image {
				t.Errorf("MinCUDA %q LastCUDA %q MinDriver %q Image %q, want %q %q %q %q", s.MinCUDA, s.LastCUDA, s.MinDriver, s.Image, tc.minCUDA, tc.lastCUDA, tc.driver, tc.image)
			}
			if s.BF16 != tc.bf16 || s.FP8 != tc.fp8 {
				t.Errorf("bf16 %v fp8 %v, want %v %v", s.BF16, s.FP8, tc.bf16, tc.fp8)
			}
			for _, alt := range s.AltWheels {
				if tc.lastCUDA == "12.x" && cudaMajor(alt) > 12 {
					t.Errorf("alternative %s is a CUDA 13 wheel for a GPU CUDA 13 dropped", alt)
				}
			}
			if stack.IndexURL(s.Wheel) != "https://download.pytorch.org/whl/"+s.Wheel {
				t.Errorf("IndexURL %q", stack.IndexURL(s.Wheel))
			}
		})
	}
}

// TestAdviseROCm: the Instinct GPUs get PyTorch's ROCm wheels and AMD's
// image with their gfx target: MI300X (CDNA3) gfx942 and PyTorch 2.9's
// rocm6.4; MI355X (CDNA4) gfx950, which ROCm 7.0 first supports, so
// rocm7.1; MI25 (GCN5) and V520 (RDNA1) nothing (no current ROCm build).
func TestAdviseROCm(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	const image = "rocm/pytorch:rocm7.2_ubuntu24.04_py3.12_pytorch_release_2.9.1"
	for _, c := range []struct {
		key, gfx, wheel, image string
		ok, fp8                bool
	}{
		{"mi300x", "gfx942", "rocm6.4", image, true, true},
		{"mi325x", "gfx942", "rocm6.4", image, true, true},
		{"mi355x", "gfx950", "rocm7.1", image, true, true},
		{"mi25", "", "", "", false, false},
	} {
		g, err := cat.GPU(c.key)
		if err != nil {
			t.Fatal(err)
		}
		s := stack.Advise(g)
		if s.Supported != c.ok || !s.ROCm || s.GFX != c.gfx || s.Wheel != c.wheel || s.Image != c.image || s.FP8 != c.fp8 {
			t.Errorf("%s: %+v", c.key, s)
			continue
		}
		if !c.ok {
			continue
		}
		notes := strings.Join(s.Notes(), "\n")
		for _, w := range []string{c.gfx, c.wheel, "amdgpu", "bf16 and fp8"} {
			if !strings.Contains(notes, w) {
				t.Errorf("%s: notes lack %q:\n%s", c.key, w, notes)
			}
		}
	}
}

// TestAdviseCatalog: every NVIDIA GPU of the real catalog gets advice, and
// the ones with the same compute capability get the same wheel.
func TestAdviseCatalog(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	wheels := map[string]string{}
	for i := range cat.GPUs {
		g := &cat.GPUs[i]
		s := stack.Advise(g)
		if g.Vendor != "nvidia" {
			if s.Supported && (!s.ROCm || !strings.HasPrefix(s.Wheel, "rocm") || !strings.HasPrefix(s.Image, "rocm/pytorch:")) {
				t.Errorf("%s (%s): CUDA advice for a non-NVIDIA GPU: %+v", g.Key, g.Vendor, s)
			}
			continue
		}
		if cc, _ := strconv.ParseFloat(g.ComputeCapability, 64); cc >= 5 {
			if !s.Supported || s.Wheel == "" {
				t.Errorf("%s (cc %s): no advice: %s", g.Key, g.ComputeCapability, s.Reason)
			}
		}
		if w, ok := wheels[g.ComputeCapability]; ok && w != s.Wheel {
			t.Errorf("cc %s: wheels %s and %s", g.ComputeCapability, w, s.Wheel)
		}
		wheels[g.ComputeCapability] = s.Wheel
		if (s.BF16 != (g.BF16TFLOPS > 0)) && g.ComputeCapability != "" {
			t.Errorf("%s: advice bf16 %v, catalog bf16 rate %v", g.Key, s.BF16, g.BF16TFLOPS)
		}
	}
}

func TestStackNotes(t *testing.T) {
	v100 := stack.Advise(&model.GPU{Name: "NVIDIA V100", Vendor: "nvidia", ComputeCapability: "7.0", Architecture: "volta"})
	notes := strings.Join(v100.Notes(), "\n")
	for _, want := range []string{"cu126", "560.28.03", "CUDA 13.0 dropped Maxwell, Pascal and Volta", "no bf16"} {
		if !strings.Contains(notes, want) {
			t.Errorf("V100 notes lack %q:\n%s", want, notes)
		}
	}
}
