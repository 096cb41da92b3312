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
	case FormatTorchrun, FormatVLLM:
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
// instance as one server each, in the background, and watch them:
// server(i) is replica i's command line, one element per continued
// line, its values already quoted (shellQuote, flagGroups). The words
// around them are gpuplan's own constants (replicaTraps, replicaWatch).
func (s *Serve) replicaServers(server func(i int) []string) string {
	var b strings.Builder
	b.WriteString(replicaTraps)
	for i := range s.ReplicasPerNode {
		b.WriteString(continued(server(i), "  ") + " &\n")
		b.WriteString("pids=\"$pids $!\"\n")
	}
	b.WriteString(replicaWatch)
	return b.String()
}

// replicaTraps stop the servers however the script ends, set before the
// first starts. A non-interactive shell starts background commands with
// SIGINT and SIGQUIT ignored (POSIX, Shell Command Language, 2.11 Signals
// and Error Handling), so Ctrl-C alone would leave them running: INT and
// TERM exit with 128 + the signal's number, as a shell killed by it
// would, and EXIT sends the servers still running TERM and waits for them
// (wait without operands: POSIX, wait), so the script ends when they have,
// and the unit or pod that runs it does not stop early. In the docker
// script the servers are docker run clients, which pass the TERM on to
// their container ("--sig-proxy: Proxy received signals to the process",
// true by default: Docker CLI reference, docker container run) and end
// with it. The EXIT trap runs under set -e, so a kill of a server that
// has just ended must not fail it (|| :); a second Ctrl-C during that
// wait ends the script at once (trap - INT TERM). INT and TERM only note
// the status (stop), which the watch loop exits with at its next round
// (replicaWatch): a signal between a server's start (cmd &) and the line
// that records its PID ran "exit" at once, and the EXIT trap then left
// that server running and waited for it (TestServeMoEScriptRuns caught
// it: TERM just as the third server started, the script still there
// after 20 s). The shell runs a trap once the command in progress ends
// (POSIX, 2.11), so the loop's sleep 1 bounds the delay as before.
const replicaTraps = `pids=
stop=
trap 'trap - INT TERM; kill $pids 2>/dev/null || :; wait' EXIT
trap 'stop=130' INT
trap 'stop=143' TERM
`

// replicaWatch ends the script when any server ends, with that server's
// exit status (1 if it exited 0: a replica that stops is a failure of the
// instance's service), so systemd, a container runtime or a supervisor
// sees the failure and the EXIT trap stops the others. A bare wait would
// not: "If the wait utility is invoked with no operands, it shall wait
// until all process IDs known to the invoking shell have terminated and
// exit with a zero exit status" (POSIX, wait), so one server's OOM left
// the script running on the survivors and then exiting 0. wait -n, which
// "waits for a single job ... and returns its exit status", is bash's
// (bash builtins/wait.def), not POSIX sh's, so the script polls: kill -0
// tests each server once a second, and wait with the one that has ended
// as operand returns its status ("the exit status of the process
// requested by the last pid operand", POSIX, wait), which the shell keeps
// for a known process ID after reaping it. The ended server leaves pids
// before the EXIT trap signals the rest (its number may be reused).
const replicaWatch = `# one server ending ends the script with its status (1 for 0), INT or TERM with 130 or 143, and the EXIT trap stops the others
while :; do
  [ -z "$stop" ] || exit "$stop"
  for pid in $pids; do
    if ! kill -0 "$pid" 2>/dev/null; then
      status=0
      wait "$pid" || status=$?
      echo "gpuplan: server $pid exited with status $status; stopping the others" >&2
      rest=
      for p in $pids; do [ "$p" = "$pid" ] || rest="$rest $p"; done
      pids=$rest
      [ "$status" -ne 0 ] || status=1
      exit "$status"
    fi
  done
  sleep 1
done
`

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
