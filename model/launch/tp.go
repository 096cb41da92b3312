package launch

import "github.com/gpuplan/gpuplan/model"

// TrainingTPRefusal says why a training job split with tensor parallelism
// (TP > 1) gets no launch file, and what to run instead: the same job
// without --tp, sharded by DeepSpeed ZeRO-3 or torch FSDP over the same
// GPUs of g, with the memory per GPU each needs (model.Compute on g, the
// nvidia-smi figure the fit uses). Zero when w is not training or has no
// tensor parallelism.
//
// The estimate splits a TP job as Megatron-LM does (column- and
// row-parallel linears, Korthikanti et al. 2022 eq. 2), and the files
// gpuplan writes cannot: they start TRL's SFT script (or the user's) with
// torchrun under the Hugging Face Trainer, whose strategies are data
// parallel, DeepSpeed ZeRO and FSDP (the DeepSpeed config and --fsdp flag
// written here); the Trainer's flags split no layer. Written as it was,
// the file ran plain ZeRO over every GPU with a DeepSpeed train_batch_size
// TP times the global batch priced, at the memory of the job without TP
// (walk49: 38.03 GiB per GPU estimated for --tp 2 --strategy zero1 on 8
// H100s, 59.23 GiB for what the file ran).
func TrainingTPRefusal(w *model.Workload, g *model.GPU) model.Message {
	if w == nil || !w.Task.Training() || w.TP <= 1 {
		return model.Message{}
	}
	var need [2]float64
	for i, s := range []model.Strategy{model.ZeRO3, model.FSDP} {
		v := *w
		v.TP, v.Strategy = 1, s
		if s == model.FSDP {
			// FSDP's CPUOffload moves parameters, gradients and the step
			// together; an optimizer-only offload is ZeRO's alone.
			v.OffloadOptimizer = false
		}
		e, err := model.Compute(v, g)
		if err != nil {
			return model.Msg("tensor parallelism (--tp %d) is estimated as Megatron-LM splits a model, but the launch files gpuplan writes (torchrun with the Hugging Face Trainer: data parallel, DeepSpeed ZeRO or FSDP) split no layer, and would run another job; drop --tp and shard with --strategy zero3 or fsdp", w.TP)
		}
		need[i] = e.Memory.Total() / model.GiB
	}
	return model.Msg("tensor parallelism (--tp %d) is estimated as Megatron-LM splits a model, but the launch files gpuplan writes (torchrun with the Hugging Face Trainer: data parallel, DeepSpeed ZeRO or FSDP) split no layer, and would run another job; drop --tp and shard over the %d GPUs instead: --strategy zero3 needs %.2f GiB per GPU, --strategy fsdp %.2f GiB",
		w.TP, w.GPUs, need[0], need[1])
}
