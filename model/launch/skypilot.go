package launch

import (
	"fmt"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// SkyPilot environment variables set on every node of a task (SkyPilot docs,
// "Distributed Multi-Node Jobs"): the node count, the GPUs of each node, this
// node's rank, and the nodes' IPs one per line, the head node first.
const (
	skyNumNodes       = "$SKYPILOT_NUM_NODES"
	skyNumGPUsPerNode = "$SKYPILOT_NUM_GPUS_PER_NODE"
	skyNodeRank       = "$SKYPILOT_NODE_RANK"
	skyNodeIPs        = "$SKYPILOT_NODE_IPS"
)

// SkyPilot returns a SkyPilot task YAML (docs.skypilot.co, "SkyPilot
// YAML"): name, workdir ".", resources {cloud, region, instance_type,
// accelerators "NAME:COUNT", use_spot, disk_size}, num_nodes, a setup that
// installs the PyTorch wheel for the GPU (then requirements.txt, DeepSpeed
// and its config for ZeRO), and a run that starts torchrun with SkyPilot's
// node count, GPUs per node and node rank, and the head node's IP (the first
// line of $SKYPILOT_NODE_IPS) as master address.
//
// Values go into the YAML as scalars through the YAML encoder and into the
// setup and run scripts quoted with mvdan.cc/sh's syntax.Quote.
//
// The error wraps ErrNoStack when the GPU has no supported PyTorch wheel and
// Options.Wheel is empty, and ErrPlan when a value cannot be a shell word.
func (p *Plan) SkyPilot() ([]byte, error) {
	if p.Wheel == "" {
		return nil, fmt.Errorf("%w: %s, or name a PyTorch wheel variant to install", ErrNoStack, p.Stack.Reason)
	}
	if err := p.checkShellWords(); err != nil {
		return nil, err
	}
	setup := []string{
		"set -e",
		fmt.Sprintf("pip install torch --index-url %s  # %s", shellQuote(IndexURL(p.Wheel)), model.Printable(p.wheelComment())),
	}
	setup = append(setup, p.setupLines()...)
	if ds := p.DeepSpeedConfig(); ds != nil {
		setup = append(setup, strings.TrimSuffix(heredoc(DeepSpeedFile, string(ds)), "\n"))
	}
	nproc := skyNumGPUsPerNode
	if p.ProcsPerNode != p.GPUsPerInstance {
		nproc = fmt.Sprint(p.ProcsPerNode) // fewer processes than the node's GPUs
	}
	run := []string{
		"set -e",
		fmt.Sprintf(`MASTER_ADDR=$(echo "%s" | head -n1)`, skyNodeIPs),
		continued(p.torchrunWords(rendezvous{nnodes: skyNumNodes, nproc: nproc, nodeRank: skyNodeRank, master: "$MASTER_ADDR"}, p.ScriptArgs), "  "),
	}
	doc := mapping(
		kv{"name", str(p.Name)},
		kv{"workdir", str(".")},
		kv{"resources", mapping(
			kv{"cloud", str(p.Provider)},
			kv{"region", str(p.Region)},
			kv{"instance_type", str(p.InstanceType)},
			kv{"accelerators", str(fmt.Sprintf("%s:%d", p.Accelerator, p.GPUsPerInstance))},
			kv{"use_spot", boolean(p.Spot())},
			kv{"disk_size", integer(p.DiskGB)},
		)},
		kv{"num_nodes", integer(p.Nodes)},
		kv{"setup", str(strings.Join(setup, "\n") + "\n")},
		kv{"run", str(strings.Join(run, "\n") + "\n")},
	)
	header := p.headerLines()
	if p.Spot() {
		header = append(header, "spot: launch with `sky jobs launch` so SkyPilot recovers preempted nodes, and checkpoint to a bucket")
	} else {
		header = append(header, "launch: sky launch -c "+p.Name+" <this file>")
	}
	return encodeYAML(header, doc)
}

func (p *Plan) wheelComment() string {
	if p.Wheel == p.Stack.Wheel && p.Stack.Supported {
		return fmt.Sprintf("%s, compute capability %s: driver ≥ %s", p.Stack.Arch, p.Stack.ComputeCapability, p.Stack.MinDriver)
	}
	return "wheel chosen with --wheel"
}
