package launch

import (
	"fmt"
	"strings"
)

// Torchrun returns a POSIX shell script around one torchrun command
// (PyTorch docs, "torchrun (Elastic Launch)"): on one node
// torchrun --standalone --nnodes=1 --nproc-per-node=N; across nodes
// --nnodes, --nproc-per-node and the c10d rendezvous at $HEAD_IP:port with
// the plan's name as --rdzv-id, so every node runs the same line and
// torchrun assigns the ranks. It exports HF_HOME (the Hugging Face cache)
// and, on EFA nodes, the libfabric variables NCCL needs (see Network);
// HF_TOKEN comes from the caller's environment. For ZeRO the script first writes the DeepSpeed
// config, and on spot ResumeScript (resume.go). Every value is quoted with mvdan.cc/sh's syntax.Quote; the error
// wraps ErrPlan when one cannot be a shell word (see checkShellWords).
func (p *Plan) Torchrun() ([]byte, error) {
	if err := p.checkEntry(); err != nil {
		return nil, err
	}
	if err := p.checkShellWords(); err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	b.WriteString(CommentBlock(p.HeaderLines()))
	rdzv := rendezvous{nproc: fmt.Sprint(p.ProcsPerNode), standalone: p.Nodes == 1}
	if p.Nodes > 1 {
		b.WriteString(CommentBlock([]string{
			fmt.Sprintf("run this same script on each of the %d nodes, with HEAD_IP set to the address of one of them:", p.Nodes),
			"  HEAD_IP=10.0.0.1 sh launch.sh",
		}))
		rdzv.nnodes = fmt.Sprint(p.Nodes)
		rdzv.c10d = true
		rdzv.master = "$HEAD_IP"
	}
	b.WriteString(CommentBlock([]string{"gated models: export HF_TOKEN first (huggingface_hub reads it)"}))
	b.WriteString("set -e\n")
	if p.Nodes > 1 {
		b.WriteString(`: "${HEAD_IP:?set HEAD_IP to the address of the rendezvous node}"` + "\n")
	}
	b.WriteString(hfHomeExport + "\n")
	for _, e := range p.Network.Env() {
		b.WriteString("export " + e[0] + "=" + shellQuote(e[1]) + "\n")
	}
	if ds := p.DeepSpeedConfig(); ds != nil {
		b.WriteString(heredoc(DeepSpeedFile, string(ds)))
	}
	b.WriteString(p.resumeFile())
	b.WriteString(continued(p.torchrunWords(rdzv, p.ScriptArgs), "  ") + "\n")
	return []byte(b.String()), nil
}
