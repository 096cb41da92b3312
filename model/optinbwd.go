package model

// optimizerInBackward returns the gradients one GPU holds at once, the
// gradients the step reads and the step temporaries when each parameter is
// stepped inside backward (Settings.OptimizerInBackward).
//
// torchtune's optimizer_in_bwd (recipes/full_finetune_single_device.py)
// builds one optimizer per parameter and torchtune/training/memory.py
// register_optim_in_bwd_hooks registers Tensor.register_post_accumulate_
// grad_hook (PyTorch 2.1) with optim_step: optim_dict[param].step();
// optim_dict[param].zero_grad() — run as soon as autograd has accumulated
// that parameter's gradient; zero_grad's set_to_none frees it.
// PyTorch's tutorial "How to save memory by fusing the optimizer step into
// the backward pass" shows the peak losing the whole gradient set. So no
// gradient survives backward and no step phase holds them all: about one
// parameter's gradient is live, the largest (the embedding, LM head or an
// MLP matrix: largestModule; a LoRA adapter's own matrices are smaller
// still), sharded as the strategy shards gradients (FSDP2 steps the
// parameter's DTensor shard after its unit's reduce-scatter, whose input
// stays in commBuffers). A torch Adam/AdamW step on that one parameter
// makes one state-sized foreach temporary (_multi_tensor_adam's
// exp_avg_sq_sqrt); bitsandbytes' optimizers and SGD none.
func optimizerInBackward(w *Workload, s *stepShape) (grads, stepGrads, stepTemp float64) {
	one := min(w.Model.largestModule(), s.trainable)
	grads = one * s.rb.grad / s.t / s.shard(2)
	if w.Optimizer == Adam || w.Optimizer == AdamW {
		stepTemp = one * s.rb.state / s.t / s.shard(1)
	}
	return grads, grads, stepTemp
}

// optimizerInBackwardInvalid says why w cannot step its optimizer in
// backward, or returns the zero Message. torchtune refuses it with
// gradient accumulation ("Gradient accumulation is not supported with
// optimizer in bwd. Please set gradient_accumulation_steps=1, or
// optimizer_in_bwd=False.", recipes/full_finetune_single_device.py
// __init__): the hook steps on every micro-batch's gradient. DeepSpeed's
// engine steps its own (partitioned) optimizer after backward, and the
// hook needs PyTorch 2.1.
func (w *Workload) optimizerInBackwardInvalid() Message {
	switch {
	case !w.OptimizerInBackward:
		return Message{}
	case !w.Task.Training():
		return Msg("the optimizer steps only when training; drop optimizer_in_backward for %s", w.Task)
	case w.GradAccum > 1:
		return Msg("torchtune refuses optimizer_in_bwd with gradient accumulation (each micro-batch's gradient would be stepped); set grad_accum to 1 (got %d) or drop optimizer_in_backward", w.GradAccum)
	case w.Strategy == ZeRO1 || w.Strategy == ZeRO2 || w.Strategy == ZeRO3 || w.TrainingRecipe() == RecipeDeepSpeed:
		return Msg("DeepSpeed steps its own optimizer after backward; optimizer_in_backward works with single, ddp or fsdp, got %s", w.Strategy)
	case !w.torchAtLeast(2, 1):
		return Msg("optimizer_in_backward needs Tensor.register_post_accumulate_grad_hook, PyTorch 2.1 or later; got %s", w.Torch)
	}
	return Message{}
}

// pagedOptimizerBytes returns the optimizer states of m that a paged
// optimizer keeps in CUDA unified memory (Optimizer.Paged): all of them,
// as the parameters under 1e5 elements bitsandbytes keeps in torch memory
// are norms and biases, a negligible share of a model's states.
func pagedOptimizerBytes(w *Workload, m *Memory) float64 {
	if !w.Optimizer.Paged() {
		return 0
	}
	return m.OptimizerStates
}

// ResidentNeed returns the bytes per GPU that must stay in GPU memory for
// the job to run, the figure fit compares with usable memory: the
// nvidia-smi total less the paged optimizer states (PagedOptimizer). CUDA
// unified memory evicts those pages to host RAM when the GPU is full and
// pages them back for the optimizer step (Dettmers et al., 2023, "QLoRA",
// §3 "Paged Optimizers"), so they slow the step rather than run out of
// memory. Equal to Memory.Total without a paged optimizer.
func (e *Estimate) ResidentNeed() float64 { return e.Memory.Total() - e.PagedOptimizer }

// ResidentBand is MemoryBand for ResidentNeed: the same relative range.
func (e *Estimate) ResidentBand() [2]float64 {
	t := e.Memory.Total()
	if t <= 0 || e.PagedOptimizer <= 0 {
		return e.MemoryBand
	}
	r := e.ResidentNeed() / t
	return [2]float64{e.MemoryBand[0] * r, e.MemoryBand[1] * r}
}
