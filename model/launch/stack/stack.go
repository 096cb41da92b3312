package stack

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// Stack is the software advice for one GPU: which CUDA toolkit and driver
// it needs, which PyTorch wheel and container image run on it, and which
// 16- and 8-bit formats it computes natively.
type Stack struct {
	GPU               string // display name, "NVIDIA H100 SXM5 80GB"
	ComputeCapability string // "9.0"; empty for non-NVIDIA GPUs
	Arch              string // "hopper"

	// Supported is false when no current CUDA build of PyTorch runs on the
	// GPU (Kepler, non-NVIDIA); Reason says why and what to do instead.
	Supported bool
	Reason    string
	// ROCm is set for an AMD GPU: PyTorch runs there from its ROCm wheels
	// (rocmWheels) or a ROCm image. For the Instinct architectures in
	// rocmRows Advise picks both (Supported); for others the user names
	// them. GFX is the LLVM target ("gfx942") and ROCmVersion the ROCm
	// release of the wheel ("6.4").
	ROCm             bool
	GFX, ROCmVersion string

	// MinCUDA is the first CUDA toolkit that compiles for the GPU ("11.8"
	// for Hopper); empty when older than anything still shipped.
	MinCUDA string
	// LastCUDA is the newest toolkit line that still targets it: "12.x" for
	// Maxwell, Pascal and Volta (CUDA 13.0 dropped them); empty when current.
	LastCUDA string

	// Wheel is the PyTorch wheel variant to install ("cu130"), WheelCUDA
	// its CUDA version and MinDriver the Linux driver that CUDA version
	// needs (CUDA toolkit release notes, table 3). AltWheels also run on
	// the GPU, e.g. cu126 for hosts whose driver is older than 580.
	Wheel     string
	WheelCUDA string
	MinDriver string
	AltWheels []string

	// Image is the NGC PyTorch container for docker and Kubernetes, with
	// its CUDA version and the driver branch it needs; empty when NGC has
	// none for this GPU.
	Image, ImageCUDA, ImageDriver string

	BF16, FP8 bool // native tensor-core bf16 (cc ≥ 8.0) and fp8 (cc ≥ 8.9)
}

// IndexURL returns PyTorch's pip index for a wheel variant such as cu126.
func IndexURL(wheel string) string {
	if wheel == "" {
		return ""
	}
	return "https://download.pytorch.org/whl/" + wheel
}

// Notes returns the advice as sentences for the user, most important first.
func (s *Stack) Notes() []string { return model.Strings(s.NoteMessages()) }

// NoteMessages are Notes as messages, for translation.
func (s *Stack) NoteMessages() []model.Message {
	if !s.Supported {
		return []model.Message{model.Msg("%s", s.Reason)}
	}
	var out []model.Message
	if s.ROCm {
		out = append(out, model.Msg("%s (%s, %s): PyTorch %s wheels (ROCm %s) need AMD's amdgpu kernel driver on the host; %s is a ROCm 7 image",
			s.GPU, s.GFX, s.Arch, s.Wheel, s.ROCmVersion, s.Image))
		return append(out, s.precisionNote())
	}
	out = append(out, model.Msg("%s (compute capability %s, %s): PyTorch %s wheels (CUDA %s) need NVIDIA driver ≥ %s",
		s.GPU, s.ComputeCapability, s.Arch, s.Wheel, s.WheelCUDA, s.MinDriver))
	if s.LastCUDA != "" {
		out = append(out, model.Msg("%s needs a CUDA %s build: CUDA 13.0 dropped Maxwell, Pascal and Volta, so no cu13x wheel or CUDA 13 image runs on it", s.Arch, s.LastCUDA))
	}
	if s.MinCUDA != "" && s.LastCUDA == "" {
		out = append(out, model.Msg("%s needs CUDA ≥ %s", s.Arch, s.MinCUDA))
	}
	for _, alt := range s.AltWheels {
		if d, ok := wheelDriver[alt]; ok {
			out = append(out, model.Msg("older driver? %s wheels need driver ≥ %s", alt, d))
		}
	}
	return append(out, s.precisionNote())
}

// precisionNote says which 16- and 8-bit formats run natively.
func (s *Stack) precisionNote() model.Message {
	switch {
	case s.FP8:
		return model.Msg("bf16 and fp8 run natively (fp8 training needs a library such as Transformer Engine)")
	case s.BF16:
		return model.Msg("bf16 runs natively; no fp8")
	}
	return model.Msg("no bf16: train in amp-fp16 with loss scaling")
}

// The table the advice comes from. Facts and where they were checked:
//
//   - Minimum driver per CUDA release: "CUDA Toolkit and Corresponding Driver
//     Versions" (table 3) in the CUDA Toolkit 13.1 release notes
//     (docs.nvidia.com/cuda/archive/13.1.0/cuda-toolkit-release-notes): CUDA
//     12.6 GA ≥ 560.28.03, 12.8 GA ≥ 570.26, 12.9 GA ≥ 575.51.03, 13.0 GA ≥
//     580.65.06, 13.1 ≥ 590.44.01 (Linux x86_64). Minor-version
//     compatibility, same notes: 12.x runs on ≥ 525, 13.x on ≥ 580.
//   - CUDA 13.0 dropped Maxwell, Pascal and Volta: same release notes,
//     "Deprecated Architectures" ("Offline compilation and library support
//     for these architectures have been removed in CUDA Toolkit 13.0 ... use
//     of CUDA Toolkits through the 12.x series ... will continue to be
//     supported"); CUDA Features Archive: "CUDA 13.0 supports all NVIDIA
//     architectures from Turing through Grace Blackwell".
//   - PyTorch wheels: pytorch/pytorch RELEASE.md support matrix as amended
//     for 2.12 (PR #182849) and the 2.14 RFC (issue #190355): cu126 covers
//     Maxwell 5.0, Pascal 6.0, Volta 7.0, Turing, Ampere and Hopper; cu130
//     and cu132 cover Turing through Blackwell 10.0 and 12.0; cu128 was
//     dropped in 2.12 and dropped Volta in 2.11 (issue #172352). 2.8 dropped
//     Maxwell and Pascal from cu128 (2.8.0 release notes, issue #157517).
//     RFC #190385 proposes removing cu126 (the last Volta wheels) in 2.15.
//   - Hopper (9.0) and Ada (8.9) need CUDA ≥ 11.8 (first toolkit with
//     sm_89 and sm_90; pytorch/vision#7052, pytorch/pytorch#87436).
//     Blackwell 10.0 and 12.0 need CUDA ≥ 12.8 (first toolkit for
//     Blackwell; PyTorch 2.7 cu128 was the first stable sm_120 build); 10.3
//     (B300) needs CUDA ≥ 12.9 (CUDA Features Archive: "CUDA Toolkit 12.9
//     adds compiler target support for SM architecture 10.3"). A cubin for
//     10.0 runs on 10.3 (Blackwell Compatibility Guide: same major, same or
//     higher minor), so cu130 wheels run on B300. 11.0 is the renumbered
//     SM101 of CUDA 13.0 (Features Archive: "SM101 has been renumbered as
//     SM110 from this release"). Not checked: 8.6 first in CUDA 11.1; 7.5 in
//     10.0 and 8.0 in 11.0 come from clang's CUDA version table (D77670).
//   - NGC images: PyTorch release 25.12 is based on CUDA 13.1.0 (NGC
//     PyTorch release notes, rel-25-12); release 24.06 ships CUDA 12.4.1 and
//     supports compute capability 6.0 and later, Pascal through Hopper (NGC
//     24.06 framework release notes). NGC images support no Maxwell.
//   - bf16 and tf32 need compute capability ≥ 8.0, fp8 ≥ 8.9 (CUDA C++
//     Programming Guide; the rule model.GPU.Supports uses).
type archRow struct {
	minCC     [2]int // this row applies from this compute capability up to the next row's
	arch      string
	minCUDA   string
	lastCUDA  string
	wheel     string
	altWheels []string
	image     string
}

// archRows are sorted by minCC; the row for a GPU is the last whose minCC
// is ≤ its compute capability.
var archRows = []archRow{
	{minCC: [2]int{3, 0}, arch: "kepler"},
	{minCC: [2]int{5, 0}, arch: "maxwell", lastCUDA: "12.x", wheel: "cu126"},
	{minCC: [2]int{6, 0}, arch: "pascal", lastCUDA: "12.x", wheel: "cu126", image: imageCUDA12},
	{minCC: [2]int{7, 0}, arch: "volta", lastCUDA: "12.x", wheel: "cu126", image: imageCUDA12},
	{minCC: [2]int{7, 5}, arch: "turing", minCUDA: "10.0", wheel: "cu130", altWheels: []string{"cu126"}, image: imageCUDA13},
	{minCC: [2]int{8, 0}, arch: "ampere", minCUDA: "11.0", wheel: "cu130", altWheels: []string{"cu126"}, image: imageCUDA13},
	{minCC: [2]int{8, 6}, arch: "ampere", minCUDA: "11.1", wheel: "cu130", altWheels: []string{"cu126"}, image: imageCUDA13},
	{minCC: [2]int{8, 9}, arch: "ada", minCUDA: "11.8", wheel: "cu130", altWheels: []string{"cu126"}, image: imageCUDA13},
	{minCC: [2]int{9, 0}, arch: "hopper", minCUDA: "11.8", wheel: "cu130", altWheels: []string{"cu126"}, image: imageCUDA13},
	{minCC: [2]int{10, 0}, arch: "blackwell", minCUDA: "12.8", wheel: "cu130", image: imageCUDA13},
	{minCC: [2]int{10, 3}, arch: "blackwell", minCUDA: "12.9", wheel: "cu130", image: imageCUDA13},
	{minCC: [2]int{11, 0}, arch: "blackwell", minCUDA: "13.0", wheel: "cu130", image: imageCUDA13},
	{minCC: [2]int{12, 0}, arch: "blackwell", minCUDA: "12.8", wheel: "cu130", image: imageCUDA13},
}

// NGC PyTorch images: the newest checked release for CUDA 13 GPUs, and the
// last checked CUDA 12 release for Pascal and Volta.
const (
	imageCUDA13 = "nvcr.io/nvidia/pytorch:25.12-py3"
	imageCUDA12 = "nvcr.io/nvidia/pytorch:24.06-py3"
)

var imageInfo = map[string]struct{ cuda, driver string }{
	imageCUDA13: {"13.1.0", "580"}, // 13.x minor-version compatibility: ≥ 580
	imageCUDA12: {"12.4.1", "525"}, // 12.x minor-version compatibility: ≥ 525
}

// wheelCUDA is each wheel variant's CUDA version and wheelDriver the Linux
// driver its GA toolkit needs (release notes, table 3).
var (
	wheelCUDA   = map[string]string{"cu126": "12.6", "cu128": "12.8", "cu129": "12.9", "cu130": "13.0"}
	wheelDriver = map[string]string{"cu126": "560.28.03", "cu128": "570.26", "cu129": "575.51.03", "cu130": "580.65.06"}
)

// rocmRow is the ROCm advice for one AMD architecture. Facts and where
// they were checked:
//
//   - LLVM targets: CDNA3 (MI300X, MI325X) is gfx942 and CDNA4 (MI355X)
//     gfx950 (vLLM docs, getting_started/installation/gpu.rocm.inc.md: "MI300
//     (gfx942), MI350 (gfx950)").
//   - ROCm 7.0 first supports gfx950 (ROCm 7.0.0 component release notes,
//     e.g. hipFFT 1.0.20 for ROCm 7.0.0: "Added gfx950 support"), so ROCm 6.x
//     wheels do not run on MI355X.
//   - PyTorch's ROCm wheels: pytorch.org, "Previous PyTorch Versions":
//     v2.9.0 and v2.9.1 "# ROCM 6.4 (Linux only) … --index-url
//     https://download.pytorch.org/whl/rocm6.4" (the release whose cu130
//     wheels are the CUDA default here); 2.10 ships rocm7.1 (rocmWheels).
//   - Image: AMD's rocm/pytorch on Docker Hub, tag
//     rocm7.2_ubuntu24.04_py3.12_pytorch_release_2.9.1 (PyTorch 2.9.1 on
//     ROCm 7.2; ROCm docs, "Installing PyTorch for ROCm", Docker option:
//     rocm/pytorch images tagged rocmX_ubuntuY_pyZ_pytorch_release_V).
//     ROCm 7.2 covers gfx942 and gfx950 (ROCm 7.2.2 release notes list
//     MI355X, MI350X, MI325X and MI300X with their amdgpu drivers).
//   - bf16 and fp8: the catalog's bf16/fp8 TFLOPS for these GPUs.
type rocmRow struct {
	gfx, wheel string
}

var rocmRows = map[string]rocmRow{
	"cdna3": {gfx: "gfx942", wheel: "rocm6.4"},
	"cdna4": {gfx: "gfx950", wheel: "rocm7.1"},
}

// rocmImage is the rocm/pytorch image docker and Kubernetes run on the
// Instinct GPUs of rocmRows.
const rocmImage = "rocm/pytorch:rocm7.2_ubuntu24.04_py3.12_pytorch_release_2.9.1"

// rocmWheelVersion is each ROCm wheel variant's ROCm release.
var rocmWheelVersion = map[string]string{"rocm6.4": "6.4", "rocm7.1": "7.1"}

// Advise returns the stack advice for g from its compute capability.
func Advise(g *model.GPU) Stack {
	s := Stack{GPU: g.Name, ComputeCapability: g.ComputeCapability, Arch: g.Architecture}
	if r, ok := rocmRows[g.Architecture]; ok && g.Vendor == "amd" {
		s.Supported, s.ROCm = true, true
		s.GFX, s.Wheel, s.ROCmVersion, s.Image = r.gfx, r.wheel, rocmWheelVersion[r.wheel], rocmImage
		s.BF16 = g.BF16TFLOPS > 0
		s.FP8 = g.FP8TFLOPS > 0
		return s
	}
	major, minor, ok := parseCC(g.ComputeCapability)
	if !ok {
		s.Reason = fmt.Sprintf("%s is not an NVIDIA CUDA GPU: the CUDA stack advice does not apply; it needs a ROCm build of PyTorch (a ROCm wheel for SkyPilot with --wheel, a ROCm image for docker and Kubernetes with --image)", g.Name)
		s.ROCm = g.Vendor == "amd"
		if g.Vendor == "nvidia" {
			s.Reason = fmt.Sprintf("%s has no compute capability in the catalog: cannot pick a CUDA build", g.Name)
		}
		return s
	}
	var row archRow
	for _, r := range archRows {
		if major > r.minCC[0] || major == r.minCC[0] && minor >= r.minCC[1] {
			row = r
		}
	}
	if row.arch == "" || row.wheel == "" {
		s.Reason = fmt.Sprintf("%s (compute capability %s) is older than anything current CUDA 12 or 13 builds of PyTorch support; pick another instance", g.Name, g.ComputeCapability)
		return s
	}
	s.Supported = true
	if s.Arch == "" {
		s.Arch = row.arch
	}
	s.MinCUDA, s.LastCUDA = row.minCUDA, row.lastCUDA
	s.Wheel, s.AltWheels = row.wheel, row.altWheels
	s.WheelCUDA, s.MinDriver = wheelCUDA[row.wheel], wheelDriver[row.wheel]
	if row.image != "" {
		s.Image = row.image
		s.ImageCUDA, s.ImageDriver = imageInfo[row.image].cuda, imageInfo[row.image].driver
	}
	s.BF16 = major >= 8
	s.FP8 = major > 8 || major == 8 && minor >= 9
	return s
}

func parseCC(cc string) (major, minor int, ok bool) {
	a, b, found := strings.Cut(strings.TrimSpace(cc), ".")
	if !found {
		return 0, 0, false
	}
	ma, err1 := strconv.Atoi(a)
	mi, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return ma, mi, true
}
