package model

// Offload to host memory beyond DeepSpeed's ZeRO-Offload (memory.go):
// torch FSDP's CPU offload (Settings.OffloadParams with fsdp) and the
// offload of checkpointed activations (Settings.OffloadActivations), with
// the PCIe traffic both add to a step.

// fsdpCPUOffload moves to the host what torch FSDP's
// CPUOffload(offload_params=True) keeps there, in bytes per GPU, given
// the model states modelStates returned for one data-parallel rank (base,
// the gradients the step reads and the step's temporaries):
//
//   - the sharded parameters: FSDP keeps each FlatParameter's local shard
//     on the CPU and copies it to the GPU before the all-gather
//     (torch/distributed/fsdp/_flat_param.py FlatParamHandle.pre_unshard
//     and _use_low_precision_shard: _mp_shard.copy_(_local_shard.to(device,
//     non_blocking=True)); FSDP2: CPUOffloadPolicy, "Sharded parameters are
//     copied host-to-device before all-gather", torch/distributed/fsdp/
//     _fully_shard/_fsdp_api.py). The GPU keeps the unsharded units in
//     flight (gatheredParams), as without offload; on one rank, where
//     modelStates does not shard, the same.
//   - the sharded gradients: after the reduce-scatter each one is copied
//     to flat_param._cpu_grad (_runtime_utils.py _offload_grad; FSDP2:
//     "Sharded gradients are copied device-to-host in backward"), in the
//     parameter's dtype (_cast_grad_to_param_dtype). Unsharded gradients
//     accumulated under no_sync (s.mixedUnits) stay on the GPU.
//   - the optimizer states and the step: "this offloads gradients to CPU
//     as well, meaning that the optimizer step runs on CPU"
//     (torch/distributed/fsdp/api.py, CPUOffload; FSDP2: "the optimizer step
//     runs on CPU with CPU optimizer states"); the optimizer is built on
//     the CPU parameters, so its states and temporaries live in host RAM.
//     (Not modelled: FSDP2's fully_shard steps whatever optimizer the loop
//     built, so the same.)
//
// The reduce-scatter input (commBuffers) and the low-precision shard
// _mp_shard, freed after each all-gather, stay on the GPU; the second is
// one unit's shard and is not counted.
func fsdpCPUOffload(w *Workload, s *stepShape, base *Memory, stepGrads, stepTemp *float64) {
	if s.stage < 3 { // one rank: modelStates kept the parameters whole
		gathered, full := gatheredBytes(w, s)
		base.HostOffload += base.Weights
		base.Gathered = min(gathered, full)
		base.Weights = 0
	}
	// On the CPU torch.optim runs the for-loop implementation
	// (optimizer.py _default_to_fused_or_foreach picks foreach only when
	// every tensor is on a foreach device, CUDA): one temporary of the
	// largest parameter at a time, as stepTemporaries counts before 2.0.
	temp := 0.0
	if *stepTemp > 0 {
		temp = min(w.Model.largestModule(), s.trainable) * s.rb.state / s.t
	}
	base.HostOffload += *stepGrads + base.OptimizerStates + temp
	base.Gradients = max(base.Gradients-*stepGrads, 0)
	base.OptimizerStates = 0
	*stepGrads, *stepTemp = 0, 0
}

// offloadActivations moves the checkpointed block inputs of act to the
// host and returns their bytes per GPU; the GPU keeps one block's input
// at a time. Unsloth's offloaded gradient checkpointing saves each
// decoder layer's input with hidden_states.to("cpu", non_blocking=True),
// runs the layer under no_grad, and in backward brings that one input
// back (.to("cuda", non_blocking=True)) to recompute the layer
// (unsloth_zoo gradient_checkpointing.py, Unsloth_Offloaded_Gradient_
// Checkpointer; the same class in axolotl's utils/gradient_checkpointing).
// What else a block saves is recomputed in backward, as with checkpointing
// alone. torch.autograd.graph.save_on_cpu, which moves every saved tensor
// (pack_to_cpu: a pinned CPU copy; unpack_from_cpu: back non_blocking), is
// this without checkpointing and is not modelled.
func offloadActivations(act *savedActivations) float64 {
	host := act.ckptInputs
	act.blocks += act.ckptOne - act.ckptInputs
	return host
}

// hostTransferBytes returns the bytes one GPU copies per optimizer step
// from host to device (h2d) and from device to host (d2h) for the offload
// switches of w (validated, with Defaults):
//
//	FSDP CPU offload: the parameter shard before each all-gather, in
//	forward and again in backward (FULL_SHARD reshards after forward), and
//	the gradient shard after each reduce-scatter, per micro-batch
//	(fsdpCPUOffload's sources). The root unit, which FSDP does not reshard
//	after forward, is counted twice too: a small excess.
//	activation offload: each checkpointed block input out in forward and
//	back in backward, per micro-batch (offloadActivations).
//
// DeepSpeed's offload is not counted (its fetch and step are not timed:
// see the estimate's note).
func hostTransferBytes(w *Workload) (h2d, d2h float64) {
	fsdp := w.OffloadParams && w.Strategy == FSDP
	if !w.Task.Training() || !fsdp && !w.OffloadActivations {
		return 0, 0
	}
	s := newStepShape(w)
	n := float64(w.GradAccum)
	if fsdp {
		shard := (s.frozen + s.trainable*s.rb.weight) / s.t / s.shard(3)
		grads := s.trainable * s.rb.grad / s.t / s.shard(2)
		h2d += n * 2 * shard
		d2h += n * grads
	}
	if w.OffloadActivations {
		act := trainingActivations(w, s.r).ckptInputs
		h2d += n * act
		d2h += n * act
	}
	return h2d, d2h
}

// hostLinkGBps returns g's link to host memory, one direction, 10⁹ B/s,
// or 0 when the catalog does not give it. For PCIe cards the catalog's
// interconnect_gbps is the PCIe x16 figure, both directions (gpus.toml:
// "PCIe x16 for PCIe cards: Gen3 32, Gen4 64, Gen5 128"), so half of it;
// for NVLink and Infinity Fabric parts it is the GPU-to-GPU link, not the
// host's, and no host figure is stored.
func hostLinkGBps(g *GPU) float64 {
	if g == nil || g.Interconnect != "pcie" {
		return 0
	}
	return g.InterconnectGBps / 2
}

// hostTransferSeconds returns the seconds the offload copies of one step
// take over g's host link, 0 when nothing is offloaded or the link is
// unknown (hostLinkGBps). PCIe is full duplex, so the larger direction
// sets the time. At the link rate: pinned copies reach less, so this is
// a lower bound.
func hostTransferSeconds(w *Workload, g *GPU) float64 {
	link := hostLinkGBps(g)
	if link <= 0 {
		return 0
	}
	h2d, d2h := hostTransferBytes(w)
	return max(h2d, d2h) / (link * 1e9)
}

// cpuOptimizerStep reports whether the optimizer steps on the CPU:
// DeepSpeed's ZeRO-Offload, or FSDP's CPU offload.
func (w *Workload) cpuOptimizerStep() bool {
	return w.OffloadOptimizer || w.OffloadParams && w.Strategy == FSDP
}
