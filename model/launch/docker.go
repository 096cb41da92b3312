package launch

import (
	"fmt"
	"strings"
)

// dockerRunFlags are the flags NVIDIA's NGC containers are documented to
// run with: all GPUs, the host's IPC namespace (PyTorch's data loader
// workers share memory through /dev/shm), unlimited locked memory and a
// 64 MiB stack.
var dockerRunFlags = []string{"--gpus all", "--rm", "--ipc=host", "--ulimit memlock=-1", "--ulimit stack=67108864"}

// dockerShell is the shell the container runs the setup and torchrun with.
const dockerShell = "bash"

// Docker returns a POSIX shell script around one `docker run --gpus all`
// of the NGC PyTorch image for the GPU (on AMD GPUs the user's ROCm image
// with ROCm's devices instead, rocmDockerFlags), with the current directory mounted
// at /workspace. Inside, the container installs requirements.txt (and
// DeepSpeed for ZeRO) and execs torchrun. Across nodes each node runs the
// same script with HEAD_IP set; the containers use the host network so NCCL
// and the c10d rendezvous reach the other nodes, and on EFA nodes get the
// EFA devices (/dev/infiniband/uverbsN, one per device), IPC_LOCK and the
// libfabric variables, as SkyPilot runs containers on EFA
// (sky/provision/aws/constants.py, EFA_DOCKER_OPTIONS). HF_TOKEN passes
// through from the host's environment and the host's Hugging Face cache
// is mounted at HF_HOME, as vLLM's and Hugging Face's docker instructions do.
//
// The image, the script and its arguments are quoted with mvdan.cc/sh's
// syntax.Quote: the torchrun words once for the container's bash -c, then
// the whole bash -c string once more for the host's sh.
//
// The error wraps ErrNoStack when no image fits the GPU and Options.Image
// is empty, and ErrPlan when a value cannot be a shell word.
func (p *Plan) Docker() ([]byte, error) {
	if err := p.checkImage(); err != nil {
		return nil, err
	}
	if err := p.checkEntry(); err != nil {
		return nil, err
	}
	if err := p.checkShellWords(); err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	b.WriteString(CommentBlock(append(p.HeaderLines(), p.imageComment())))
	rdzv := rendezvous{nproc: fmt.Sprint(p.ProcsPerNode), standalone: p.Nodes == 1}
	if p.Nodes > 1 {
		b.WriteString(CommentBlock([]string{
			fmt.Sprintf("run this same script on each of the %d nodes, with HEAD_IP set to the address of one of them:", p.Nodes),
			"  HEAD_IP=10.0.0.1 sh launch.sh",
		}))
		rdzv.nnodes, rdzv.c10d, rdzv.master = fmt.Sprint(p.Nodes), true, "$HEAD_IP"
	}
	b.WriteString("set -e\n")
	if p.Nodes > 1 {
		b.WriteString(`: "${HEAD_IP:?set HEAD_IP to the address of the rendezvous node}"` + "\n")
	}
	if ds := p.DeepSpeedConfig(); ds != nil {
		b.WriteString(heredoc(DeepSpeedFile, string(ds)))
	}
	b.WriteString(p.resumeFile()) // in $PWD, the container's /workspace
	inner := p.dockerInner(rdzv)
	run := dockerRunFlags
	if p.ROCm() {
		run = rocmDockerFlags
	}
	words := []string{"docker run " + strings.Join(run, " ")}
	if p.Nodes > 1 {
		words = append(words, "--network=host", "-e HEAD_IP")
	}
	words = append(words, "-e HF_TOKEN -e HF_HOME="+hfCacheDir, `-v "$HOME/.cache/huggingface":`+hfCacheDir)
	if p.Spot() {
		// --output_dir is under CheckpointDir: keep it on the host (mount
		// storage that outlives the node there).
		words = append(words, "-v "+CheckpointDir+":"+CheckpointDir)
	}
	if p.Network.EFA > 0 {
		words = append(words, "--cap-add=IPC_LOCK")
		for i := range p.Network.EFA {
			words = append(words, fmt.Sprintf("--device /dev/infiniband/uverbs%d", i))
		}
		for _, e := range p.Network.Env() {
			words = append(words, "-e "+e[0]+"="+shellQuote(e[1]))
		}
	}
	words = append(words, `-v "$PWD":/workspace -w /workspace`, shellQuote(p.Image), dockerShell+" -c "+shellQuote(inner))
	b.WriteString(continued(words, "  ") + "\n")
	return []byte(b.String()), nil
}

// dockerInner is the script the container's bash -c runs: the setup, then
// exec torchrun.
func (p *Plan) dockerInner(rdzv rendezvous) string {
	return strings.Join(append(p.setupLines(), "exec "+strings.Join(p.torchrunWords(rdzv, p.ScriptArgs), " ")), "; ")
}

func (p *Plan) imageComment() string {
	switch {
	case p.Image == p.Stack.Image && p.Stack.ImageCUDA != "":
		return fmt.Sprintf("image: NGC PyTorch with CUDA %s: host driver ≥ %s", p.Stack.ImageCUDA, p.Stack.ImageDriver)
	case p.ROCm() && p.Image == p.Stack.Image:
		return fmt.Sprintf("image: AMD's PyTorch image for ROCm (%s, %s), reached through /dev/kfd and /dev/dri (host: the amdgpu driver)", p.Stack.Arch, p.Stack.GFX)
	case p.ROCm():
		return "image: " + p.Image + " (chosen with --image): a ROCm build of PyTorch for the AMD GPUs, reached through /dev/kfd and /dev/dri (host: the amdgpu driver)"
	}
	return "image: " + p.Image + " (chosen with --image)"
}

func (p *Plan) noImageReason() string {
	if !p.Stack.Supported {
		return p.Stack.Reason
	}
	return fmt.Sprintf("NGC has no PyTorch image for %s (compute capability %s); build one on a CUDA 12 base with the %s wheel", p.Stack.GPU, p.Stack.ComputeCapability, p.Stack.Wheel)
}
