package launch

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// OneServerPerReplica reports that the replicas sharing an instance run as
// one vllm serve each, not as one vllm serve with --data-parallel-size:
// the model is a mixture of experts (Arch.Experts > 1) and an instance
// holds more than one replica.
//
// vLLM couples the data-parallel ranks of an MoE model. Its docs
// (docs/serving/data_parallel_deployment.md): "In these cases, the data
// parallel ranks are not completely independent. Forward passes must be
// aligned, and expert layers across all ranks are required to synchronize
// during every forward pass, even when there are fewer requests to be
// processed than DP ranks. By default, expert layers form a tensor
// parallel group of size DP × TP"; its engine does so only for MoE models
// (vllm/v1/engine/core.py run_engine_core: DPEngineCoreProc when
// data_parallel and model_config.is_moe, else "Non-MoE DP ranks are
// completely independent, so treat like DP=1"). The plan priced
// independent replicas of TP × PP GPUs each, whose experts are split over
// their own TP group. The same doc, "External Load Balancing", runs "each
// DP rank like a separate vLLM deployment, with its own endpoint", co-located
// ranks each with their own CUDA_VISIBLE_DEVICES and --port, behind an
// external router, which "can already be done trivially for non-MoE models,
// since each deployed server is fully independent. No data parallel CLI
// options need to be used for this": a vllm serve without
// --data-parallel-size is such a server for an MoE model too, as no DP group
// exists. So each replica is its own vllm serve on its own GPUs
// (ReplicaGPUs) and port (ReplicaPort), without --data-parallel-size
// (ServerArgs). CUDA_VISIBLE_DEVICES picks the GPUs on AMD's too: vLLM's
// ROCm platform uses the same variable (vllm/platforms/rocm.py
// device_control_env_var = "CUDA_VISIBLE_DEVICES").
func (s *Serve) OneServerPerReplica() bool {
	return s.ReplicasPerNode > 1 && s.Arch != nil && s.Arch.Experts > 1
}

// ServerArgs are the engine flags of each vllm serve the files start:
// VLLMArgs, without --data-parallel-size when each replica is its own
// server (OneServerPerReplica).
func (s *Serve) ServerArgs() []string {
	if !s.OneServerPerReplica() {
		return s.VLLMArgs()
	}
	one := *s
	one.ReplicasPerNode = 1
	return one.VLLMArgs()
}

// ReplicaGPUs returns replica i's GPUs on its instance (0-based) as
// CUDA_VISIBLE_DEVICES lists them: TP × PP consecutive indices from
// i × TP × PP ("0,1" and "2,3" for TP 2).
func (s *Serve) ReplicaGPUs(i int) string {
	n := s.TP * s.PP
	ids := make([]string, n)
	for j := range ids {
		ids[j] = strconv.Itoa(i*n + j)
	}
	return strings.Join(ids, ",")
}

// ReplicaPort returns the HTTP port of replica i's vllm serve on its
// instance: VLLMPort + i.
func (s *Serve) ReplicaPort(i int) int { return VLLMPort + i }

// ServersNote says, in format f's terms, that the replicas on an instance
// are one vllm serve each and which ports to balance; zero unless
// OneServerPerReplica. Kubernetes runs one pod of one engine per replica
// anyway (Kubernetes), and the SkyPilot format refuses such a plan
// (SkyPilot), so neither has one.
func (s *Serve) ServersNote(f Format) model.Message {
	if !s.OneServerPerReplica() {
		return model.Message{}
	}
	each, gpus := model.CountMsg(s.ReplicasPerNode, "replica"), model.CountMsg(s.TP*s.PP, "GPU")
	first, last := s.ReplicaPort(0), s.ReplicaPort(s.ReplicasPerNode-1)
	switch f {
	case FormatTorchrun:
		return model.Msg("a mixture-of-experts model: this script starts its %v on an instance as one vllm serve each, on %v of its own (CUDA_VISIBLE_DEVICES) and port %d–%d, not one with --data-parallel-size %d, which would tie their expert layers into one group that steps together; put ports %d–%d behind a load balancer",
			each, gpus, first, last, s.ReplicasPerNode, first, last)
	case FormatDocker:
		return model.Msg("a mixture-of-experts model: this script starts its %v on an instance as one vLLM container each, on %v of its own (CUDA_VISIBLE_DEVICES) and port %d–%d, not one with --data-parallel-size %d, which would tie their expert layers into one group that steps together; put ports %d–%d behind a load balancer",
			each, gpus, first, last, s.ReplicasPerNode, first, last)
	case FormatTOML:
		return model.Msg("a mixture-of-experts model: run its %v on an instance as one vllm serve with vllm_args each, on %v of its own (CUDA_VISIBLE_DEVICES=%s for the first) and --port %d–%d, not one with --data-parallel-size %d, which would tie their expert layers into one group that steps together; put ports %d–%d behind a load balancer",
			each, gpus, s.ReplicaGPUs(0), first, last, s.ReplicasPerNode, first, last)
	}
	return model.Message{}
}

// replicaServers writes the commands that start the replicas on an
// instance as one server each, in the background, and wait for them:
// server(i) is replica i's command line, one element per continued
// line, its values already quoted (shellQuote, flagGroups). The shell
// records their process ids and, on Ctrl-C, TERM or exit, stops them: a
// non-interactive shell starts background commands with SIGINT ignored
// (POSIX, Shell Command Language, 2.11 Signals and Error Handling), so
// Ctrl-C alone would leave them running. The words around them are
// gpuplan's own constants and numbers.
func (s *Serve) replicaServers(server func(i int) []string) string {
	var b strings.Builder
	for i := range s.ReplicasPerNode {
		b.WriteString(continued(server(i), "  ") + " &\n")
		if i == 0 {
			b.WriteString("pids=\"$!\"\n")
		} else {
			b.WriteString("pids=\"$pids $!\"\n")
		}
	}
	b.WriteString("trap 'kill $pids 2>/dev/null' EXIT INT TERM\n")
	b.WriteString("wait\n")
	return b.String()
}

// serverWords is replica i's vllm serve on its own GPUs and port.
func (s *Serve) serverWords(i int) []string {
	w := []string{"CUDA_VISIBLE_DEVICES=" + s.ReplicaGPUs(i) + " vllm serve " + shellQuote(s.ModelID)}
	w = append(w, flagGroups(lits(s.ServerArgs()))...)
	return append(w, fmt.Sprintf("--port %d", s.ReplicaPort(i)))
}

// tomlArgsNote is the [serve] header's line on vllm_args.
func (s *Serve) tomlArgsNote() string {
	if s.OneServerPerReplica() {
		return "vllm_args is what each replica's vllm serve <model_id> gets (with its CUDA_VISIBLE_DEVICES and --port); an MoE model's replicas_per_node replicas are one vllm serve each"
	}
	return "vllm_args is what vllm serve <model_id> gets; replicas_per_node engines share a node (--data-parallel-size)"
}
