package cli

import (
	"github.com/gpuplan/gpuplan/model/advice"
	"github.com/gpuplan/gpuplan/ui/report"
)

// The members of recommend's document other than the offers, appended
// as writeJSONStream's encoder writes them (encoding/json's bytes) but
// without its reflection: through go-json-experiment, building the
// encoders of these types and walking the estimate's was ~7% of
// recommend --json's CPU time (~1.2 ms: the warm-up on the other core,
// then the estimate itself), for ~10 KB of a 1.2 MB document. Each
// writes every member of its type in order, one member call a field
// (jsonOut's str, int, float, floatPtr, bool, strs, obj, objPtr, objs
// and their …Omit forms, encoding/json's omitempty; a struct is never
// left out); TestRecommendJSONWriterSame fills every field by reflection
// and holds them to the encoder, so a member added to one of these
// types and not here fails there.

// estimateJSON appends a report.EstimateJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) estimateJSON(v *report.EstimateJSON) {
	o.begin('{')
	obj(o, "model", &v.Model, (*jsonOut).modelJSON)
	obj(o, "workload", &v.Workload, (*jsonOut).workloadJSON)
	o.int("params", v.Params)
	o.int("trainable_params", v.TrainableParams)
	o.int("active_params", v.ActiveParams)
	obj(o, "memory", &v.Memory, (*jsonOut).memoryJSON)
	obj(o, "compute", &v.Compute, (*jsonOut).computeJSON)
	objPtr(o, "gpu", v.GPU, (*jsonOut).fitJSON)
	o.strs("warnings", v.Warnings)
	o.strs("assumptions", v.Assumptions)
	o.strOmit("recipe", v.Recipe)
	objPtr(o, "time", v.Time, (*jsonOut).timeJSON)
	o.end('}')
}

// rejectionJSON appends a report.RejectionJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) rejectionJSON(v *report.RejectionJSON) {
	o.begin('{')
	o.str("provider", v.Provider)
	o.str("instance_type", v.InstanceType)
	o.str("region", v.Region)
	o.float("price_per_hour_usd", v.PricePerHourUSD)
	o.int("instances", int64(v.Instances))
	o.str("reason", v.Reason)
	o.end('}')
}

// riskyAheadJSON appends a report.RiskyAheadJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) riskyAheadJSON(v *report.RiskyAheadJSON) {
	o.begin('{')
	o.int("rank", int64(v.Rank))
	o.str("provider", v.Provider)
	o.str("instance_type", v.InstanceType)
	o.str("region", v.Region)
	o.str("gpu", v.GPU)
	o.int("gpu_count", int64(v.GPUCount))
	o.float("price_per_hour_usd", v.PricePerHourUSD)
	o.float("oom_chance", v.OOMChance)
	o.str("note", v.Note)
	o.floatPtrOmit("job_hours", v.JobHours)
	o.floatPtrOmit("job_cost_usd", v.JobCostUSD)
	o.float("share", v.Share)
	o.bool("try_first", v.TryFirst)
	objOmit(o, "fits_with", v.FitsWith, (*jsonOut).fitsWithJSON)
	o.end('}')
}

// fitsWithJSON appends a report.FitsWithJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) fitsWithJSON(v *report.FitsWithJSON) {
	o.begin('{')
	o.str("change", v.Change)
	o.str("kind", v.Kind)
	o.int("gpu_count", int64(v.GPUCount))
	o.int("instances", int64(v.Instances))
	o.float("price_per_hour_usd", v.PricePerHourUSD)
	o.floatPtrOmit("job_hours", v.JobHours)
	o.floatPtrOmit("job_cost_usd", v.JobCostUSD)
	o.float("usd", v.USD)
	o.end('}')
}

// assumptionsJSON appends a report.AssumptionsJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) assumptionsJSON(v *report.AssumptionsJSON) {
	o.begin('{')
	o.float("checkpoint_write_gb_per_s", v.CheckpointWriteGBPerSecond)
	o.bool("checkpoint_write_assumption", v.CheckpointWriteAssumption)
	o.float("restart_minutes", v.RestartMinutes)
	o.bool("restart_assumption", v.RestartAssumption)
	o.float("hours_per_month", v.HoursPerMonth)
	o.end('}')
}

// savingsJSON appends a report.SavingsJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) savingsJSON(v *report.SavingsJSON) {
	o.begin('{')
	o.float("base_usd", v.BaseUSD)
	objs(o, "changes", v.Changes, (*jsonOut).adviceSavingJSON)
	o.strOmit("error", v.Error)
	objOmit(o, "headline", v.Headline, (*jsonOut).adviceSavingJSON)
	o.end('}')
}

// adviceSavingJSON appends a advice.Saving as the encoder does (jsonIndentOpts).
func (o *jsonOut) adviceSavingJSON(v *advice.Saving) {
	o.begin('{')
	o.str("change", v.Change)
	o.str("kind", v.Kind)
	o.float("usd", v.USD)
	o.float("saving_usd", v.SavingUSD)
	o.float("saving_pct", v.SavingPct)
	objOmit(o, "offer", v.Offer, (*jsonOut).adviceSavingOfferJSON)
	o.boolOmit("other_offer", v.OtherOffer)
	o.floatPtrOmit("oom_chance", v.OOMChance)
	o.intOmit("rank", int64(v.Rank))
	o.end('}')
}

// modelJSON appends a report.ModelJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) modelJSON(v *report.ModelJSON) {
	o.begin('{')
	o.strOmit("key", v.Key)
	o.strOmit("name", v.Name)
	o.str("family", v.Family)
	o.strOmit("head", v.Head)
	o.intOmit("labels", int64(v.Labels))
	o.end('}')
}

// workloadJSON appends a report.WorkloadJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) workloadJSON(v *report.WorkloadJSON) {
	o.begin('{')
	o.str("framework", v.Framework)
	o.strOmit("torch", v.Torch)
	o.strOmit("trainer", v.Trainer)
	o.strOmit("zero_grad", v.ZeroGrad)
	o.strOmit("outputs", v.Outputs)
	o.str("task", v.Task)
	o.str("precision", v.Precision)
	o.strOmit("optimizer", v.Optimizer)
	o.int("batch_size", int64(v.BatchSize))
	o.intOmit("seq_len", int64(v.SeqLen))
	o.intOmit("image_size", int64(v.ImageSize))
	o.int("grad_accum", int64(v.GradAccum))
	o.bool("checkpointing", v.Checkpointing)
	o.bool("flash_attention", v.FlashAttention)
	o.intOmit("lora_rank", int64(v.LoRARank))
	o.strsOmit("lora_targets", v.LoRATargets)
	o.floatOmit("dataset_samples", v.DatasetSamples)
	o.floatOmit("dataset_tokens", v.DatasetTokens)
	o.float("epochs", v.Epochs)
	o.int("gpus", int64(v.GPUs))
	o.str("strategy", v.Strategy)
	o.int("tp", int64(v.TP))
	o.intOmit("context_len", int64(v.ContextLen))
	o.intOmit("sequences", int64(v.Sequences))
	o.intOmit("gen_tokens", int64(v.GenTokens))
	o.intOmit("global_batch_asked", int64(v.GlobalBatchAsked))
	o.intOmit("global_batch", int64(v.GlobalBatch))
	o.boolOmit("offload_optimizer", v.Switches.OffloadOptimizer)
	o.boolOmit("offload_params", v.Switches.OffloadParams)
	o.boolOmit("offload_activations", v.Switches.OffloadActivations)
	o.boolOmit("optimizer_in_backward", v.Switches.OptimizerInBackward)
	o.boolOmit("channels_last", v.Switches.ChannelsLast)
	o.end('}')
}

// memoryJSON appends a report.MemoryJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) memoryJSON(v *report.MemoryJSON) {
	o.begin('{')
	obj(o, "per_gpu_bytes", &v.PerGPUBytes, (*jsonOut).breakdownJSON)
	obj(o, "overhead_bytes", &v.OverheadBytes, (*jsonOut).overheadJSON)
	o.str("allocator", v.Allocator)
	o.int("torch_allocated_bytes", v.TorchAllocatedBytes)
	o.int("torch_reserved_bytes", v.TorchReservedBytes)
	o.str("peak_phase", v.PeakPhase)
	objs(o, "phases", v.Phases, (*jsonOut).phaseJSON)
	objPtr(o, "band", v.Band, (*jsonOut).bandJSON)
	objOmit(o, "torch_allocated_band", v.TorchAllocatedBand, (*jsonOut).bandJSON)
	objOmit(o, "torch_reserved_band", v.TorchReservedBand, (*jsonOut).bandJSON)
	o.end('}')
}

// computeJSON appends a report.ComputeJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) computeJSON(v *report.ComputeJSON) {
	o.begin('{')
	o.float("flops_per_sample", v.FLOPsPerSample)
	o.float("flops_per_step", v.FLOPsPerStep)
	o.float("samples_per_step", v.SamplesPerStep)
	o.float("steps", v.Steps)
	o.float("total_flops", v.TotalFLOPs)
	o.float("mfu", v.MFU)
	o.floatPtr("peak_tflops", v.PeakTFLOPS)
	o.floatPtr("samples_per_second", v.SamplesPerSecond)
	o.floatPtr("hours", v.Hours)
	o.floatPtr("gpu_hours", v.GPUHours)
	objOmit(o, "network", v.Network, (*jsonOut).networkJSON)
	o.end('}')
}

// fitJSON appends a report.FitJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) fitJSON(v *report.FitJSON) {
	o.begin('{')
	o.str("key", v.Key)
	o.str("name", v.Name)
	o.float("memory_gib", v.MemoryGiB)
	o.int("usable_bytes", v.UsableBytes)
	o.int("visible_bytes", v.VisibleBytes)
	o.bool("fits", v.Fits)
	o.int("max_micro_batch", int64(v.MaxMicroBatch))
	o.int("max_borderline_micro_batch", int64(v.MaxBorderlineBatch))
	objs(o, "advice", v.Advice, (*jsonOut).adviceJSON)
	o.str("verdict", v.Verdict)
	o.floatPtrOmit("oom_chance", v.OOMChance)
	o.strOmit("refused", v.Refused)
	objs(o, "tips", v.Tips, (*jsonOut).tipJSON)
	o.end('}')
}

// timeJSON appends a report.TimeJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) timeJSON(v *report.TimeJSON) {
	o.begin('{')
	o.float("hours", v.Hours)
	obj(o, "band", &v.Band, (*jsonOut).bandJSON)
	o.end('}')
}

// adviceSavingOfferJSON appends a advice.SavingOffer as the encoder does (jsonIndentOpts).
func (o *jsonOut) adviceSavingOfferJSON(v *advice.SavingOffer) {
	o.begin('{')
	o.str("provider", v.Provider)
	o.str("instance_type", v.InstanceType)
	o.str("region", v.Region)
	o.str("gpu", v.GPU)
	o.int("gpu_count", int64(v.GPUs))
	o.str("strategy", v.Strategy)
	o.str("pricing", v.Pricing)
	o.end('}')
}

// breakdownJSON appends a report.BreakdownJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) breakdownJSON(v *report.BreakdownJSON) {
	o.begin('{')
	o.int("weights", v.Weights)
	o.int("gradients", v.Gradients)
	o.int("optimizer_states", v.OptimizerStates)
	o.int("activations", v.Activations)
	o.int("kv_cache", v.KVCache)
	o.int("overhead", v.Overhead)
	o.int("total", v.Total)
	o.int("gathered", v.Gathered)
	o.int("cast_cache", v.CastCache)
	o.int("buffers", v.Buffers)
	o.int("temporaries", v.Temporaries)
	o.end('}')
}

// overheadJSON appends a report.OverheadJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) overheadJSON(v *report.OverheadJSON) {
	o.begin('{')
	o.int("cuda_context", v.CUDAContext)
	o.int("workspace", v.Workspace)
	o.int("communication", v.Communication)
	o.int("fragmentation", v.Fragmentation)
	o.end('}')
}

// phaseJSON appends a report.PhaseJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) phaseJSON(v *report.PhaseJSON) {
	o.begin('{')
	o.str("phase", v.Phase)
	obj(o, "bytes", &v.Bytes, (*jsonOut).breakdownJSON)
	o.end('}')
}

// bandJSON appends a report.BandJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) bandJSON(v *report.BandJSON) {
	o.begin('{')
	o.float("low", v.Low)
	o.float("high", v.High)
	o.float("confidence", v.Confidence)
	o.int("cases", int64(v.Cases))
	o.int("sources", int64(v.Sources))
	o.str("group", v.Group)
	o.strOmit("uncalibrated_vendor", v.UncalibratedVendor)
	o.boolOmit("uncalibrated_moe", v.UncalibratedMoE)
	o.end('}')
}

// networkJSON appends a report.NetworkJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) networkJSON(v *report.NetworkJSON) {
	o.begin('{')
	o.int("nodes", int64(v.Nodes))
	o.int("gpus_per_node", int64(v.GPUsPerNode))
	o.float("gbps", v.Gbps)
	o.float("per_gpu_gbps", v.PerGPUGBps)
	o.str("source", v.Source)
	o.intOmit("catalog_types", int64(v.CatalogTypes))
	o.end('}')
}

// adviceJSON appends a report.AdviceJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) adviceJSON(v *report.AdviceJSON) {
	o.begin('{')
	o.str("change", v.Change)
	o.int("per_gpu_bytes", v.PerGPUBytes)
	o.bool("fits", v.Fits)
	o.str("verdict", v.Verdict)
	o.end('}')
}

// tipJSON appends a report.TipJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) tipJSON(v *report.TipJSON) {
	o.begin('{')
	o.str("change", v.Change)
	o.int("per_gpu_bytes", v.PerGPUBytes)
	o.float("memory_saved_pct", v.MemorySavedPct)
	o.floatPtr("gpu_hours", v.GPUHours)
	o.floatPtr("cost_saved_pct", v.CostSavedPct)
	o.bool("fits", v.FitsAfterChange)
	o.end('}')
}
